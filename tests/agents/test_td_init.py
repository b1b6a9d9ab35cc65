"""Fine-tuning a TD network: ``init`` starts training from a saved model's weights."""

from __future__ import annotations

import os

import torch

from agents.cli import main
from agents.players.td import TDNet, load_net, save_net

CONFIG = os.path.join(os.path.dirname(__file__), "..", "..", "configs", "td.yaml")
SETS = ["games=2", "hidden=8", "batch_games=2", "eval_every=0", "final_eval_games=2",
        "eval_opponents=[random]", "checkpoint_every=2", "seed=5"]


def _params(path) -> list[torch.Tensor]:
    return [p.detach() for p in load_net(str(path)).parameters()]


def test_init_starts_from_the_file_not_from_the_seed(tmp_path):
    torch.manual_seed(123)
    start = TDNet(8)
    save_net(start, str(tmp_path / "start.pt"))
    # a vanishing rate: the trained model stays where it started
    assert main(["train", CONFIG, "--quiet", "--set", f"run_dir={tmp_path / 'a'}", *SETS,
                 "lr=1e-12", f"init={tmp_path / 'start.pt'}"]) == 0
    assert main(["train", CONFIG, "--quiet", "--set", f"run_dir={tmp_path / 'b'}", *SETS,
                 "lr=1e-12"]) == 0
    tuned, fresh = _params(tmp_path / "a" / "model.pt"), _params(tmp_path / "b" / "model.pt")
    assert all(torch.allclose(x, y.detach(), atol=1e-6) for x, y in zip(tuned, start.parameters()))
    assert not all(torch.allclose(x, y, atol=1e-3) for x, y in zip(fresh, tuned))


def test_init_of_another_shape_or_missing_file_is_named(tmp_path, capsys):
    save_net(TDNet(16), str(tmp_path / "wide.pt"))
    assert main(["train", CONFIG, "--quiet", "--set", f"run_dir={tmp_path / 'a'}", *SETS,
                 f"init={tmp_path / 'wide.pt'}"]) == 2
    assert "wide.pt' has hidden=16" in capsys.readouterr().err
    assert main(["train", CONFIG, "--quiet", "--set", f"run_dir={tmp_path / 'b'}", *SETS,
                 f"init={tmp_path / 'nothere.pt'}"]) == 2
    assert "nothere.pt" in capsys.readouterr().err
    assert not os.path.exists(tmp_path / "a" / "checkpoint.pt")


def test_td_training_with_the_hand_made_inputs_fine_tunes_a_network_that_reads_them(tmp_path,
                                                                                    capsys):
    torch.manual_seed(7)
    start = TDNet(8, extras=True)
    save_net(start, str(tmp_path / "more.pt"))
    assert main(["train", CONFIG, "--quiet", "--set", f"run_dir={tmp_path / 'a'}", *SETS,
                 "extras=true", "workers=2", f"init={tmp_path / 'more.pt'}"]) == 0
    tuned = load_net(str(tmp_path / "a" / "model.pt"))
    assert tuned.extras
    assert not torch.equal(tuned.body[0].weight, start.body[0].weight)
    # the config must say so: a plain config refuses the file, naming the difference
    assert main(["train", CONFIG, "--quiet", "--set", f"run_dir={tmp_path / 'b'}", *SETS,
                 f"init={tmp_path / 'more.pt'}"]) == 2
    assert "extras=True" in capsys.readouterr().err
