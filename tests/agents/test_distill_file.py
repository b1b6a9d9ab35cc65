"""Distillation through a label file (agents/distill_file.py): the file is the same for 1
and 2 workers and holds label_game's rows, and a student fitted on it learns (held-out
error down) and reads the hand-made inputs when asked."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from agents.distill_file import fit_file, label_file, main, read_labels
from agents.td import TDNet, load_net, save_net
from agents.td_features import N_FEATURES
from agents.train_distill import label_game
from bg_env.envs.play_env import board_features


@pytest.fixture
def teacher(tmp_path) -> str:
    torch.manual_seed(4)
    path = str(tmp_path / "teacher.pt")
    save_net(TDNet(8).eval(), path)
    return path


def test_the_label_file_is_the_games_labels_for_any_number_of_workers(tmp_path, teacher):
    one, two = str(tmp_path / "one.npz"), str(tmp_path / "two.npz")
    rows = label_file(teacher, one, games=3, seed=5, top_k=2, progress=False)
    label_file(teacher, two, games=3, seed=5, top_k=2, workers=2, progress=False)
    a, b = np.load(one), np.load(two)
    assert rows == len(a["labels"]) > 0
    for key in ("boards", "labels", "games"):
        np.testing.assert_array_equal(a[key], b[key])
    x, y = label_game(load_net(teacher), np.random.default_rng([5, 1]), 2)
    mine = a["games"] == 1
    np.testing.assert_array_equal(board_features(a["boards"][mine])[:, :N_FEATURES], x)
    np.testing.assert_array_equal(a["labels"][mine], y)


def test_a_student_with_the_hand_made_inputs_learns_from_the_file(tmp_path, teacher, capsys):
    labels = str(tmp_path / "labels.npz")
    label_file(teacher, labels, games=6, seed=1, top_k=3, progress=False)
    out = str(tmp_path / "student.pt")
    report = fit_file(labels, teacher, out, extras=True, hidden=12, epochs=6, lr=3e-3, hold=4)
    assert report["held_out_rows"] > 0 and report["rows"] > 0
    assert report["held_out_after"] < report["held_out_before"]
    student = load_net(out)
    assert student.extras and student.hidden == 12
    # the command line does the same steps
    assert main(["fit", labels, teacher, str(tmp_path / "cli.pt"), "--epochs", "1"]) == 0
    assert "held_out_after" in capsys.readouterr().out
    with pytest.raises(FileNotFoundError, match="nothere.pt"):
        label_file(str(tmp_path / "nothere.pt"), labels, games=1, seed=0, progress=False)


def test_files_of_consecutive_ranges_add_up_to_the_whole_range(tmp_path, teacher):
    whole, head, tail = (str(tmp_path / f"{n}.npz") for n in ("whole", "head", "tail"))
    label_file(teacher, whole, games=4, seed=9, top_k=2, progress=False)
    label_file(teacher, head, games=2, seed=9, top_k=2, progress=False)
    assert main(["label", teacher, tail, "--games", "2", "--first", "2", "--seed", "9",
                 "--top-k", "2"]) == 0
    joined, one = read_labels([head, tail]), np.load(whole)
    assert set(joined["games"].tolist()) == {0, 1, 2, 3}
    for key in ("boards", "labels", "games"):
        np.testing.assert_array_equal(joined[key], one[key])
    a, b = str(tmp_path / "a.pt"), str(tmp_path / "b.pt")
    fit_file(whole, teacher, a, epochs=1, hold=3)
    assert main(["fit", head, tail, teacher, b, "--epochs", "1", "--hold", "3"]) == 0
    for (name, x), y in zip(load_net(a).state_dict().items(), load_net(b).state_dict().values()):
        assert torch.equal(x, y), name
    with pytest.raises(ValueError, match="both hold game 0"):
        read_labels([head, whole])
    with pytest.raises(ValueError, match="first=-1"):
        label_file(teacher, head, games=2, seed=9, first=-1, progress=False)
