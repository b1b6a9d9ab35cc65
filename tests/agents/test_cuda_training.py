"""Training on a GPU (``device: cuda`` / ``auto``), tiny runs; skipped where torch sees no
CUDA GPU (CI). The networks learn on the GPU, and what a run saves loads on the CPU and
plays the moves that the trained network, on the GPU, rates best."""

from __future__ import annotations

import os

import numpy as np
import pytest
import torch

pytestmark = pytest.mark.skipif(not torch.cuda.is_available(), reason="no CUDA GPU here")

import agents.training.train_ppo as train_ppo_module  # noqa: E402
from agents.players.td import TDAgent, TDNet, load_net, numpy_equity, plays_features  # noqa: E402
from agents.training.train_td import TDConfig, train_td  # noqa: E402
from helpers import random_turns  # noqa: E402

TOLERANCE = 1e-5
"""Float differences between the CPU and the GPU's arithmetic allowed in an output."""


class _DeviceRecordingAdam(torch.optim.Adam):
    """Adam that notes the device type of every parameter it steps."""

    stepped: set = set()

    def step(self, *args, **kwargs):
        for group in self.param_groups:
            _DeviceRecordingAdam.stepped.update(p.device.type for p in group["params"])
        return super().step(*args, **kwargs)


def _td_config(run_dir, **kw) -> TDConfig:
    base = dict(run_dir=str(run_dir), games=4, hidden=8, batch_games=2, eval_every=0,
                eval_games=2, final_eval_games=2, eval_opponents=["random"],
                checkpoint_every=2, seed=5)
    base.update(kw)
    return TDConfig(**base)


def _assert_plays_as_on_gpu(choose, gpu_scores, seed: int) -> int:
    """``choose(plays)`` (the CPU agent) picks a play that ``gpu_scores(plays)`` rates best,
    within float error, in turns of seeded random play; returns how many were compared."""
    compared = 0
    for _, _, plays in random_turns(seed, 120):
        if len(plays) < 2:
            continue
        scores = gpu_scores(plays)
        chosen = plays.index(choose(plays))
        assert scores[chosen] >= scores.max() - TOLERANCE, (chosen, scores)
        compared += 1
    return compared


@pytest.mark.parametrize("device, workers", [("cuda", 1), ("auto", 2)])
def test_td_learns_on_the_gpu_and_its_model_plays_the_same_on_the_cpu(
        tmp_path, monkeypatch, device, workers):
    monkeypatch.setattr(torch.optim, "Adam", _DeviceRecordingAdam)
    _DeviceRecordingAdam.stepped = set()
    cfg = _td_config(tmp_path / "run", device=device, workers=workers)
    train_td(cfg, progress=False)
    assert _DeviceRecordingAdam.stepped == {"cuda"}  # every update was on the GPU
    saved = load_net(os.path.join(cfg.run_dir, "model.pt"))
    assert {p.device.type for p in saved.parameters()} == {"cpu"}
    learner = load_net(os.path.join(cfg.run_dir, "checkpoint.pt")).to("cuda")
    assert all(torch.equal(a, b.cpu()) for a, b in zip(saved.parameters(),
                                                      learner.parameters()))
    torch.manual_seed(cfg.seed)  # the trainer's first network: its starting weights
    untrained = TDNet(cfg.hidden)
    assert not all(torch.equal(a, b) for a, b in zip(saved.parameters(),
                                                     untrained.parameters()))  # it learned

    def gpu_equities(plays) -> np.ndarray:
        with torch.no_grad():
            x = torch.from_numpy(plays_features(plays)).to("cuda")
            return numpy_equity(learner(x).cpu().numpy())

    agent = TDAgent.load(os.path.join(cfg.run_dir, "model.pt"))
    assert _assert_plays_as_on_gpu(agent.choose_play, gpu_equities, seed=3) > 30


def test_td_one_update_on_the_gpu_matches_the_cpu(tmp_path):
    """Two games, one update: the same games (the seed), so the weights differ only by
    the float arithmetic of the two devices."""
    runs = {}
    for device in ("cpu", "cuda"):
        cfg = _td_config(tmp_path / device, games=2, device=device)
        train_td(cfg, progress=False)
        runs[device] = load_net(os.path.join(cfg.run_dir, "model.pt"))
    for a, b in zip(runs["cpu"].parameters(), runs["cuda"].parameters()):
        assert torch.allclose(a, b, atol=TOLERANCE)


def _ppo_config(run_dir, **kw):
    base = dict(run_dir=str(run_dir), total_steps=128, n_envs=4, n_steps=32, batch_size=64,
                n_epochs=2, hidden=[16], snapshot_every=64, checkpoint_every=10_000,
                eval_every=0, eval_games=2, final_eval_games=2, eval_opponents=["random"],
                seed=3, opponents={"self": 0.5, "pubeval": 0.25, "random": 0.25})
    base.update(kw)
    return train_ppo_module.PPOConfig(**base)


@pytest.mark.parametrize("device, workers", [("cuda", 1), ("auto", 2)])
def test_ppo_learns_on_the_gpu_and_its_model_plays_the_same_on_the_cpu(
        tmp_path, monkeypatch, device, workers):
    pytest.importorskip("sb3_contrib")
    from agents.players.ppo import PPOAgent
    from bg_env.envs.play_env import play_features

    made = []
    new_model = train_ppo_module.new_model

    def recording_new_model(*args, **kwargs):
        made.append(new_model(*args, **kwargs))
        return made[-1]

    monkeypatch.setattr(train_ppo_module, "new_model", recording_new_model)
    cfg = _ppo_config(tmp_path / "run", device=device, workers=workers)
    final = train_ppo_module.train_ppo(cfg, progress=False)
    assert final["steps"] == 128
    (model,) = made
    assert model.device.type == "cuda"
    assert {p.device.type for p in model.policy.parameters()} == {"cuda"}
    moments = [s["exp_avg"] for s in model.policy.optimizer.state.values()]
    assert moments and {m.device.type for m in moments} == {"cuda"}  # Adam stepped there
    agent = PPOAgent.load(os.path.join(cfg.run_dir, "model.zip"))
    assert {p.device.type for p in agent.actor.parameters()} == {"cpu"}
    actor = model.policy.mlp_extractor.actor

    def gpu_logits(plays) -> np.ndarray:
        ordered, cpu_logits = agent.scores(plays)
        with torch.no_grad():
            x = torch.from_numpy(play_features(ordered)).to("cuda")
            logits = actor(x).squeeze(-1).cpu().numpy()
        assert np.allclose(logits, cpu_logits, atol=TOLERANCE)
        return logits[[ordered.index(p) for p in plays]]

    assert _assert_plays_as_on_gpu(agent.choose_play, gpu_logits, seed=4) > 30
