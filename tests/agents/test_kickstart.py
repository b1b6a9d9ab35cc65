"""The PPO kickstart stage (agents/training/kickstart.py): the fitted actor plays the teacher's
plays on held-out games, the recorded games and the fit follow the seed, bad settings are
named, and a kickstarted run saves kickstart.zip and still resumes."""

from __future__ import annotations

import os

import numpy as np
import pytest
import torch

pytest.importorskip("sb3_contrib")

from agents.config import ConfigError  # noqa: E402
from agents.training.kickstart import agreement, fit, load_teacher, teacher_games  # noqa: E402
from agents.players.ppo import PPOAgent, load_actor  # noqa: E402
from agents.training.ppo_policy import CandidateNet  # noqa: E402
from agents.training.train_ppo import PPOConfig, read_checkpoint, train_ppo  # noqa: E402


@pytest.fixture(scope="module")
def teacher():
    return load_teacher("td")


@pytest.fixture(scope="module")
def games(teacher):
    """Training games (seed 1) and held-out games (seed 2) of the shipped td."""
    return teacher_games(teacher, 60, seed=1), teacher_games(teacher, 15, seed=2)


def new_net(seed: int = 0) -> CandidateNet:
    torch.manual_seed(seed)
    return CandidateNet(64, [64], "tanh", share_trunk=True)


def test_recorded_decisions_are_the_teachers(teacher, games):
    train, _ = games
    assert train.games == 60 and train.decisions > 60 * 20  # both sides' choices
    assert np.all(np.diff(train.starts) >= 2)  # only decisions with a choice
    d = int(np.argmax(np.diff(train.starts) > 2))  # a decision with 3 candidates or more
    x, eq, _, _ = train.batch(np.array([d]))
    assert x.shape == (train.starts[d + 1] - train.starts[d], 201)
    assert torch.all(x[:, 200] == 1)  # every row a real candidate
    assert np.all(np.abs(train.equities) <= 3.0)


def test_kickstarted_actor_agrees_with_the_teacher_on_held_out_games(games):
    train, held_out = games
    net = new_net()
    before = agreement(net.actor, held_out)
    history = fit(net, train, epochs=6, lr=1e-2, seed=0)
    after = agreement(net.actor, held_out)
    assert after > 0.5 and after > before + 0.3, (before, after)
    assert history[-1]["critic_mse"] < history[0]["critic_mse"]


def test_same_seed_same_games_and_fit(teacher):
    a, b = teacher_games(teacher, 3, seed=7), teacher_games(teacher, 3, seed=7)
    assert np.array_equal(a.boards, b.boards) and np.array_equal(a.starts, b.starts)
    assert not np.array_equal(teacher_games(teacher, 3, seed=8).starts, a.starts)
    nets = [new_net(), new_net()]
    for net in nets:
        fit(net, a, epochs=2, seed=4)
    assert all(torch.equal(p, q) for p, q in zip(nets[0].parameters(), nets[1].parameters()))


@pytest.mark.parametrize("kwargs, word", [
    ({"kickstart_games": 0}, "kickstart_games"), ({"kickstart_epochs": 0}, "kickstart_epochs"),
    ({"kickstart_temperature": 0.0}, "kickstart_temperature"),
    ({"kickstart_lr": -1.0}, "kickstart_lr"),
])
def test_bad_kickstart_settings_are_named(kwargs, word):
    with pytest.raises(ValueError, match=word):
        PPOConfig(**kwargs)


@pytest.mark.parametrize("spec", ["pubeval", "nonsense", "td:/no/such/file.pt"])
def test_a_teacher_that_cannot_rate_plays_is_named(spec):
    with pytest.raises(ConfigError, match="kickstart"):
        load_teacher(spec)


def tiny(run_dir, **kw) -> PPOConfig:
    base = dict(run_dir=str(run_dir), total_steps=256, n_envs=2, n_steps=64, batch_size=64,
                n_epochs=2, hidden=[16], snapshot_every=128, checkpoint_every=128,
                eval_every=0, eval_games=4, final_eval_games=4, eval_opponents=["random"],
                seed=3, opponents={"self": 0.5, "random": 0.5}, kickstart="td",
                kickstart_games=4, kickstart_epochs=2)
    base.update(kw)
    return PPOConfig(**base)


@pytest.mark.slow
def test_kickstarted_run_saves_the_kickstart_and_resumes(tmp_path):
    cfg = tiny(tmp_path / "run")
    train_ppo(cfg, progress=False)
    path = os.path.join(cfg.run_dir, "kickstart.zip")
    kicked = PPOAgent.load(path)  # a playable model of its own
    trained = load_actor(os.path.join(cfg.run_dir, "model.zip"))
    assert kicked.critic is not None
    assert not all(torch.equal(p, q) for p, q in
                   zip(kicked.actor.parameters(), trained.parameters()))  # PPO moved it
    with open(path, "rb") as fh:
        saved = fh.read()
    cfg.total_steps = 384
    final = train_ppo(cfg, resume=True, progress=False)
    assert final["steps"] == 384 and read_checkpoint(cfg.run_dir)["steps"] == 384
    with open(path, "rb") as fh:  # resuming does not kickstart again
        assert fh.read() == saved


def test_a_bad_teacher_stops_the_run_before_training(tmp_path):
    with pytest.raises(ConfigError, match="kickstart"):
        train_ppo(tiny(tmp_path / "run", kickstart="pubeval"), progress=False)
    assert not os.path.exists(tmp_path / "run" / "checkpoint.zip")
