"""TD training with worker processes and the device setting (tiny runs)."""

from __future__ import annotations

import os

import pytest
import torch

from agents.cli import main
from agents.players.td import load_net
from agents.training.train_td import TDConfig, train_td

CONFIG = os.path.join(os.path.dirname(__file__), "..", "..", "configs", "td.yaml")


def _train_cli(run, games, *extra) -> list[torch.Tensor]:
    sets = [f"run_dir={run}", f"games={games}", "hidden=8", "batch_games=2", "eval_every=0",
            "final_eval_games=2", "eval_opponents=[random]", "checkpoint_every=2", "seed=5"]
    assert main(["train", CONFIG, "--quiet", *extra, "--set", *sets]) == 0
    return [p.detach().clone() for p in load_net(os.path.join(run, "model.pt")).parameters()]


@pytest.mark.slow
def test_two_workers_learn_and_repeat_and_resume(tmp_path):
    torch.manual_seed(5)  # the untrained network of seed 5
    from agents.players.td import TDNet

    untrained = [p.detach().clone() for p in TDNet(8).parameters()]
    a = _train_cli(tmp_path / "a", 6, "--workers", "2")
    b = _train_cli(tmp_path / "b", 6, "--workers", "2")
    assert all(torch.equal(x, y) for x, y in zip(a, b))  # same seed, same run
    assert not all(torch.equal(x, y) for x, y in zip(a, untrained))  # it learned
    # an interrupted run (4 games, then resumed to 6) ends where the straight one did
    _train_cli(tmp_path / "c", 4, "--workers", "2")
    assert main(["train", CONFIG, "--quiet", "--resume", "--workers", "2", "--set",
                 f"run_dir={tmp_path / 'c'}", "games=6", "hidden=8", "batch_games=2",
                 "eval_every=0", "final_eval_games=2", "eval_opponents=[random]",
                 "checkpoint_every=2", "seed=5"]) == 0
    c = [p.detach() for p in load_net(os.path.join(tmp_path / "c", "model.pt")).parameters()]
    assert all(torch.equal(x, y) for x, y in zip(a, c))


@pytest.mark.parametrize("kwargs, word", [({"workers": 0}, "workers"),
                                          ({"device": "tpu"}, "device")])
def test_bad_machine_settings_are_named(kwargs, word):
    with pytest.raises(ValueError, match=word):
        TDConfig(**kwargs)


@pytest.mark.skipif(torch.cuda.is_available(), reason="this machine has a GPU")
def test_cuda_without_a_gpu_is_refused_before_training(tmp_path):
    cfg = TDConfig(run_dir=str(tmp_path / "run"), games=2, device="cuda")
    with pytest.raises(ValueError, match="cuda"):
        train_td(cfg, progress=False)
    assert not os.path.exists(cfg.run_dir)
