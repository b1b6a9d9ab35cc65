"""Training determinism at the edge ``test_td_workers.py`` leaves out: a TD run killed in the
middle of a batch (one process, exploration on, evaluations on the way) and resumed from its
last checkpoint ends as the run that was never stopped."""

from __future__ import annotations

import json
import os

import pytest
import torch

import agents.training.train_td as train_module
from agents.players.td import load_net
from agents.training.train_td import TDConfig, train_td


def _config(run_dir, **kw) -> TDConfig:
    base = dict(run_dir=str(run_dir), games=7, hidden=8, batch_games=3, checkpoint_every=2,
                eval_every=2, eval_games=2, final_eval_games=2, eval_opponents=["random"],
                epsilon=0.2, seed=5)
    return TDConfig(**{**base, **kw})


def _weights(run_dir) -> list[torch.Tensor]:
    return [p.detach() for p in load_net(os.path.join(run_dir, "model.pt")).parameters()]


def _history(run_dir) -> list[dict]:
    with open(os.path.join(run_dir, "history.json")) as fh:
        return [{k: v for k, v in entry.items() if k != "seconds"} for entry in json.load(fh)]


@pytest.mark.slow
def test_a_killed_td_run_resumed_from_its_checkpoint_ends_as_the_straight_run(tmp_path,
                                                                                monkeypatch):
    train_td(_config(tmp_path / "straight"), progress=False)
    played = train_module.self_play_game
    calls = []

    def killed_in_game_six(*args, **kwargs):  # after the checkpoint at 4, mid-batch
        calls.append(1)
        if len(calls) == 6:
            raise KeyboardInterrupt
        return played(*args, **kwargs)

    monkeypatch.setattr(train_module, "self_play_game", killed_in_game_six)
    with pytest.raises(KeyboardInterrupt):
        train_td(_config(tmp_path / "killed"), progress=False)
    monkeypatch.setattr(train_module, "self_play_game", played)
    train_td(_config(tmp_path / "killed"), resume=True, progress=False)
    straight, resumed = _weights(tmp_path / "straight"), _weights(tmp_path / "killed")
    assert all(torch.equal(x, y) for x, y in zip(straight, resumed))
    assert _history(tmp_path / "killed") == _history(tmp_path / "straight")
