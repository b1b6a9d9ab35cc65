"""Distillation through a label file (agents/training/distill_file.py): the file is the same for 1
and 2 workers and holds label_game's rows, and a student fitted on it learns (held-out
error down) and reads the hand-made inputs when asked; students are scored by the teacher's
equity their choices give up."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from agents.training.distill_file import (
    decision_regret,
    fit_file,
    judge_equities,
    label_file,
    main,
    read_labels,
    regret_file,
)
from agents.players.td import TDNet, load_cube_net, load_net, save_net
from agents.players.td_features import N_FEATURES, numpy_equity
from agents.training.train_distill import label_decisions, label_game
from bg_env.rules.position import Position
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
    for key in ("boards", "labels", "games", "decisions"):
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
    for key in ("boards", "labels", "games", "decisions"):
        np.testing.assert_array_equal(joined[key], one[key])
    a, b = str(tmp_path / "a.pt"), str(tmp_path / "b.pt")
    fit_file(whole, teacher, a, epochs=1, hold=3)
    assert main(["fit", head, tail, teacher, b, "--epochs", "1", "--hold", "3"]) == 0
    for (name, x), y in zip(load_net(a).state_dict().items(), load_net(b).state_dict().values()):
        assert torch.equal(x, y), name
    assert load_cube_net(a) is None  # the teacher has none


def test_a_fit_keeps_the_cube_network_of_its_init(tmp_path, teacher):
    labels, init, out = (str(tmp_path / n) for n in ("labels.npz", "init.pt", "out.pt"))
    label_file(teacher, labels, games=2, seed=3, top_k=2, progress=False)
    torch.manual_seed(5)
    cube = TDNet(6).eval()
    save_net(load_net(teacher), init, cube_net=cube)
    fit_file(labels, init, out, epochs=1)
    kept = load_cube_net(out)
    assert kept is not None and kept.hidden == 6
    for (name, x), y in zip(cube.state_dict().items(), kept.state_dict().values()):
        assert torch.equal(x, y), name
    changed = [not torch.equal(x, y) for x, y in zip(load_net(teacher).state_dict().values(),
                                                    load_net(out).state_dict().values())]
    assert any(changed)  # the checker network was fitted


def test_overlapping_label_files_and_a_negative_first_game_are_refused(tmp_path, teacher):
    whole, head = (str(tmp_path / f"{n}.npz") for n in ("whole", "head"))
    label_file(teacher, whole, games=2, seed=9, top_k=2, progress=False)
    label_file(teacher, head, games=1, seed=9, top_k=2, progress=False)
    with pytest.raises(ValueError, match="both hold game 0"):
        read_labels([head, whole])
    with pytest.raises(ValueError, match="first=-1"):
        label_file(teacher, head, games=2, seed=9, first=-1, progress=False)


def test_regret_is_the_teacher_equity_the_students_choice_gives_up():
    teacher = np.array([0.1, 0.3, 0.0, -0.2, 0.5, 0.4, 0.4])
    student = np.array([0.5, 0.2, 0.9, 0.1, 0.3, 0.6, 0.6])
    regret, agree = decision_regret(student, teacher, np.array([0, 2, 4]))
    np.testing.assert_allclose(regret, [0.2, 0.0, 0.1])  # the last picks 0.4, not 0.5
    assert agree.tolist() == [False, True, False]


def test_the_file_scores_a_student_on_the_held_out_decisions(tmp_path, teacher, capsys):
    labels = str(tmp_path / "labels.npz")
    label_file(teacher, labels, games=4, seed=2, top_k=4, progress=False)
    blob = np.load(labels)
    net, lost, decisions = load_net(teacher), 0.0, 0
    for g in (2, 3):
        steps = list(label_decisions(net, np.random.default_rng([2, g]), 4))
        mine = blob["games"] == g
        np.testing.assert_array_equal(blob["decisions"][mine],
                                      np.concatenate([[d] * len(y) for d, (_, y) in enumerate(steps)]))
        for _, y in steps:  # the teacher at 0-ply plays the first (best) row
            if len(y) > 1:
                equity = numpy_equity(y)
                lost, decisions = lost + equity.max() - equity[0], decisions + 1
    [me] = regret_file(labels, [teacher], hold=2)
    assert me["decisions"] == decisions > 0 and 0 < me["agree"] < 1
    assert me["regret_per_game"] == pytest.approx(lost / 2, abs=1e-4) and lost > 0
    assert main(["regret", labels, "--models", teacher, teacher, "--hold", "2"]) == 0
    assert capsys.readouterr().out.count("regret_per_game") == 2
    torch.manual_seed(9)
    other = str(tmp_path / "other.pt")
    save_net(TDNet(8).eval(), other)
    mine, theirs = regret_file(labels, [teacher, other], hold=2)
    assert "ci95" not in mine and theirs["ci95"] > 0
    assert theirs["less_than_first_per_game"] == pytest.approx(
        mine["regret_per_game"] - theirs["regret_per_game"], abs=2e-4)
    with pytest.raises(ValueError, match=r"from 9 on \(they hold games 0..3\)"):
        regret_file(labels, [teacher], hold=9)
    old = str(tmp_path / "old.npz")
    np.savez(old, **{k: blob[k] for k in ("boards", "labels", "games")})
    with pytest.raises(ValueError, match="old.npz.*no decision numbers"):
        regret_file(old, [teacher])


def test_a_judge_rates_the_afterstates_for_the_side_that_moved(tmp_path, teacher):
    labels = str(tmp_path / "labels.npz")
    label_file(teacher, labels, games=2, seed=3, top_k=3, progress=False)
    boards = np.load(labels)["boards"]
    equity = judge_equities(f"td:{teacher}", boards)
    done = np.array([Position(tuple(b[:26].tolist()), tuple(b[26:].tolist())).outcome() is not None
                     for b in boards])
    assert done.any() and (~done).any()
    with torch.inference_mode():
        mine = numpy_equity(load_net(teacher)(torch.from_numpy(
            board_features(boards)[:, :N_FEATURES].copy())).numpy())
    np.testing.assert_allclose(equity[~done], mine[~done], atol=1e-6)
    assert set(equity[done].tolist()) <= {1.0, 2.0, 3.0}
    [me] = regret_file(labels, [teacher], judge=f"td:{teacher}")
    assert me["judge"] == f"td:{teacher}" and me["regret_per_decision"] >= 0
    with pytest.raises(ValueError, match="agent 'random' gives no probabilities"):
        judge_equities("random", boards)


def test_an_agent_spec_is_scored_like_a_network(tmp_path, teacher):
    """A model that is an agent spec, not a file (``gnubg:0``, ``td:PATH``), is scored by
    its own equities of the rows: judged by itself it gives up nothing."""
    labels = str(tmp_path / "labels.npz")
    label_file(teacher, labels, games=2, seed=5, top_k=3, progress=False)
    spec = f"td:{teacher}"
    [me] = regret_file(labels, [spec], judge=spec)
    assert me["model"] == spec and me["decisions"] > 0
    assert me["agree"] == 1.0 and me["regret_per_game"] == 0.0
    [by_labels, teacher_itself] = regret_file(labels, [spec, "labels"])
    assert by_labels["regret_per_game"] > 0 and by_labels["agree"] < 1  # a real regret
    assert teacher_itself["regret_per_game"] == 0.0 and teacher_itself["agree"] == 1.0
    [judged] = regret_file(labels, ["labels"], judge=spec)  # the lookahead, judged at 0-ply
    assert judged["regret_per_game"] > 0
    with pytest.raises(ValueError, match="agent 'random' gives no probabilities"):
        regret_file(labels, ["random"])
    with pytest.raises(FileNotFoundError, match="missing.pt"):
        regret_file(labels, [str(tmp_path / "missing.pt")])


def test_a_two_ply_teacher_labels_and_scores_its_own_choices(tmp_path, teacher):
    labels = str(tmp_path / "two.npz")
    label_file(teacher, labels, games=2, seed=4, top_k=2, progress=False, plies=2)
    blob = read_labels(labels)
    boards = blob["boards"].astype(np.int8)
    from agents.players.td_search import lookahead_values

    net = load_net(teacher).eval()
    assert np.allclose(blob["labels"], lookahead_values(net, boards[:, :26], boards[:, 26:], 2),
                       atol=1e-6)
    one = str(tmp_path / "one.npz")
    label_file(teacher, one, games=2, seed=4, top_k=2, progress=False)
    assert np.array_equal(read_labels(one)["boards"], blob["boards"])  # the same games
    assert not np.allclose(read_labels(one)["labels"], blob["labels"], atol=1e-3)
    # the teacher choosing by its own two plies gives up nothing against its labels
    [own] = regret_file(labels, [teacher], plies=2)
    assert own["agree"] == 1.0 and own["regret_per_decision"] == 0.0 and own["plies"] == 2
    [first_game] = regret_file(labels, [teacher], plies=2, max_games=1)
    assert 0 < first_game["decisions"] < own["decisions"]
    with pytest.raises(ValueError, match="plies=0"):
        label_file(teacher, labels, games=1, seed=4, progress=False, plies=0)


def test_an_interrupted_label_run_goes_on_and_writes_the_same_arrays(tmp_path, teacher,
                                                                     monkeypatch, capsys):
    import agents.training.distill_file as distill

    whole, labels = str(tmp_path / "whole.npz"), str(tmp_path / "labels.npz")
    label_file(teacher, whole, games=6, seed=5, top_k=2, progress=False, chunk=2)
    label_chunk, calls = distill._label_chunk, []

    def interrupted_at_the_third(job):
        calls.append(job[1])
        if len(calls) == 3:
            raise KeyboardInterrupt
        return label_chunk(job)

    monkeypatch.setattr(distill, "_label_chunk", interrupted_at_the_third)
    with pytest.raises(KeyboardInterrupt):
        label_file(teacher, labels, games=6, seed=5, top_k=2, progress=False, chunk=2)
    parts = tmp_path / "labels.npz.parts"
    assert sorted(p.name for p in parts.iterdir()) == [
        "games-0000000-0000002.npz", "games-0000002-0000004.npz", "settings.json"]
    assert main(["label", teacher, labels, "--games", "6", "--seed", "6", "--top-k", "2"]) == 2
    assert "seed was 5, now 6" in capsys.readouterr().err
    other = str(tmp_path / "other.pt")
    save_net(TDNet(8).eval(), other)
    with pytest.raises(ValueError, match="teacher_sha256 was"):
        label_file(other, labels, games=6, seed=5, top_k=2, progress=False)
    calls.clear()
    label_file(teacher, labels, games=2, seed=np.int64(5), top_k=2, progress=False)
    assert calls == [] and sorted(p.name for p in parts.iterdir()) == [
        "games-0000002-0000004.npz", "settings.json"]  # the parts of other games are kept
    assert main(["label", teacher, labels, "--games", "6", "--seed", "5", "--top-k", "2",
                 "--chunk", "4"]) == 0  # another chunk size: the saved parts still count
    assert calls == [[0, 1], [4, 5]] and not parts.exists()
    a, b = np.load(whole), np.load(labels)
    for key in ("boards", "labels", "games", "decisions"):
        np.testing.assert_array_equal(a[key], b[key])


def test_regret_with_candidates_chooses_by_lookahead_among_the_best_by_0_ply(tmp_path, teacher,
                                                                             capsys):
    labels = str(tmp_path / "labels.npz")
    label_file(teacher, labels, games=3, seed=6, top_k=4, progress=False)
    [static] = regret_file(labels, [teacher])
    [one] = regret_file(labels, [teacher], plies=1, candidates=1)  # the 0-ply choice
    [two] = regret_file(labels, [teacher], plies=1, candidates=2)
    [every] = regret_file(labels, [teacher], plies=1, candidates=4)  # all the labelled rows
    assert one["regret_per_game"] == static["regret_per_game"] > 0
    assert every["regret_per_game"] == pytest.approx(0, abs=1e-5)  # the labels' own choice
    assert static["regret_per_game"] >= two["regret_per_game"] >= every["regret_per_game"]
    assert two["candidates"] == 2 and "candidates" not in static
    # the search settings are reported on the network file's line only, not the labels'
    mine, theirs = regret_file(labels, [teacher, "labels"], plies=1, candidates=2, leaves=3)
    assert (mine["plies"], mine["candidates"], mine["leaves"]) == (1, 2, 3)
    assert not {"plies", "candidates", "leaves"} & set(theirs)
    assert main(["regret", labels, "--models", teacher, "--candidates", "2"]) == 2
    assert "candidates=2" in capsys.readouterr().err


def test_label_leaves_prune_the_last_roll_and_are_a_setting_of_the_parts(tmp_path, teacher,
                                                                         monkeypatch, capsys):
    whole, wide = str(tmp_path / "whole.npz"), str(tmp_path / "wide.npz")
    pruned = str(tmp_path / "pruned.npz")
    label_file(teacher, whole, games=2, seed=4, top_k=3, progress=False)
    label_file(teacher, wide, games=2, seed=4, top_k=3, progress=False, leaves=10_000)
    label_file(teacher, pruned, games=2, seed=4, top_k=3, progress=False, leaves=1)
    a, b, c = np.load(whole), np.load(wide), np.load(pruned)
    np.testing.assert_array_equal(a["labels"], b["labels"])  # every reply kept: the same
    np.testing.assert_array_equal(a["boards"], c["boards"])  # the same games and plays
    assert not np.array_equal(a["labels"], c["labels"])  # rated after pubeval's reply
    # parts of one pruning are not mixed with another's
    import agents.training.distill_file as distill

    label_chunk = distill._label_chunk

    def stopped_at_the_second(job):
        if job[1] == [1]:
            raise KeyboardInterrupt
        return label_chunk(job)

    monkeypatch.setattr(distill, "_label_chunk", stopped_at_the_second)
    stopped = str(tmp_path / "stopped.npz")
    with pytest.raises(KeyboardInterrupt):
        label_file(teacher, stopped, games=2, seed=4, top_k=3, progress=False, leaves=1, chunk=1)
    monkeypatch.setattr(distill, "_label_chunk", label_chunk)
    assert main(["label", teacher, stopped, "--games", "2", "--seed", "4", "--top-k", "3",
                 "--leaves", "2"]) == 2
    assert "leaves was 1, now 2" in capsys.readouterr().err
    assert main(["label", teacher, stopped, "--games", "2", "--seed", "4", "--top-k", "3",
                 "--leaves", "1"]) == 0
    np.testing.assert_array_equal(np.load(stopped)["labels"], c["labels"])
    assert main(["regret", whole, "--models", teacher, "--leaves", "2"]) == 2
    assert "leaves=2" in capsys.readouterr().err
