"""Kickstarting kept during PPO (agents/training/kickstart.py, Distillation) and starting a run from
a saved policy (PPOConfig.init): the loss's weight halves on schedule, the hook adds the
weighted KL gradient to PPO's step and changes the trained weights, a weight of 0 changes
nothing, ``init`` loads the weights or names a bad file, and a tiny run with both skips the
kickstart stage and logs the loss."""

from __future__ import annotations

import csv
import os

import numpy as np
import pytest
import torch

pytest.importorskip("sb3_contrib")

from agents.config import ConfigError  # noqa: E402
from agents.training.kickstart import Distillation, init_policy, load_teacher, teacher_equity  # noqa: E402
from agents.training.train_ppo import (PPOConfig, make_vec_env, new_model,  # noqa: E402
                              train_ppo)


def tiny(run_dir, **kw) -> PPOConfig:
    base = dict(run_dir=str(run_dir), total_steps=128, n_envs=2, n_steps=32, batch_size=32,
                n_epochs=2, hidden=[16], snapshot_every=64, checkpoint_every=128,
                eval_every=0, eval_games=2, final_eval_games=2, eval_opponents=["random"],
                seed=3, opponents={"random": 1.0}, kickstart="td")
    base.update(kw)
    return PPOConfig(**base)


@pytest.fixture(scope="module")
def equity():
    return teacher_equity(load_teacher("td"))


def model_for(cfg: PPOConfig):
    venv = make_vec_env(cfg)
    return new_model(cfg, venv, cfg.learning_rate, "cpu"), venv


def actor_params(model) -> list[torch.Tensor]:
    return [p.detach().clone() for p in model.policy.mlp_extractor.actor.parameters()]


def test_the_weight_halves_every_halflife(tmp_path, equity):
    model, venv = model_for(tiny(tmp_path))
    try:
        halving = Distillation(model, equity, 2.0, 100, 0.05, 32)
        assert halving.weight(0) == 2.0
        assert halving.weight(100) == pytest.approx(1.0)
        assert halving.weight(300) == pytest.approx(0.25)
        halving.remove()
        assert Distillation(model, equity, 2.0, 0, 0.05, 32).weight(10**6) == 2.0
    finally:
        venv.close()


def test_the_loss_is_logged_during_ppo_and_its_weight_decays(tmp_path, equity):
    model, venv = model_for(tiny(tmp_path))
    try:
        distill = Distillation(model, equity, 1.0, 32, 0.05, 32, seed=1)
        model.learn(128)
    finally:
        venv.close()
    steps = [h["steps"] for h in distill.history]
    weights = [h["weight"] for h in distill.history]
    # one entry per PPO optimiser step: 2 rollouts of 64 x 2 epochs x 2 minibatches
    assert len(distill.history) == 8 and steps[0] == 64 and steps[-1] == 128
    assert weights[0] == pytest.approx(0.25) and weights[-1] == pytest.approx(1 / 16)
    assert all(np.isfinite(h["kl"]) and h["kl"] >= 0 for h in distill.history)
    assert any(h["kl"] > 0 for h in distill.history)  # an untrained actor is not the teacher


def test_the_hook_adds_the_weighted_kl_gradient(tmp_path, equity):
    model, venv = model_for(tiny(tmp_path))
    try:
        model.learn(64)  # fills the rollout buffer
        distill = Distillation(model, equity, 0.5, 0, 0.05, 32, seed=7)
        params = list(model.policy.parameters())
        for group in model.policy.optimizer.param_groups:
            group["lr"] = 0.0  # the step runs the hook but moves nothing
        model.policy.optimizer.zero_grad()
        model.policy.optimizer.step()
        hooked = [p.grad.clone() if p.grad is not None else torch.zeros_like(p) for p in params]
        model.policy.optimizer.zero_grad()
        distill.rng = np.random.default_rng(7)  # the same minibatch
        (0.5 * distill.loss(distill.sample())).backward()
        expected = [p.grad.clone() if p.grad is not None else torch.zeros_like(p)
                    for p in params]
    finally:
        venv.close()
    assert any(g.abs().sum() > 0 for g in hooked)
    assert all(torch.allclose(a, b, atol=1e-6) for a, b in zip(hooked, expected))


def test_a_zero_weight_changes_nothing_and_a_positive_one_changes_the_weights(tmp_path,
                                                                              equity):
    trained = []
    for weight in (None, 0.0, 1.0):
        model, venv = model_for(tiny(tmp_path / str(weight)))
        try:
            if weight is not None:
                Distillation(model, equity, weight, 0, 0.05, 32, seed=1)
            model.learn(128)
        finally:
            venv.close()
        trained.append(actor_params(model))
    plain, zero, distilled = trained
    assert all(torch.equal(a, b) for a, b in zip(plain, zero))
    assert not all(torch.equal(a, b) for a, b in zip(plain, distilled))


def test_init_loads_a_saved_policy(tmp_path):
    cfg = tiny(tmp_path)
    source, venv = model_for(cfg)
    path = str(tmp_path / "saved.zip")
    source.save(path)
    venv.close()
    target, venv = model_for(tiny(tmp_path, seed=4))
    try:
        assert not all(torch.equal(a, b) for a, b in zip(actor_params(source),
                                                            actor_params(target)))
        init_policy(target, path)
    finally:
        venv.close()
    assert all(torch.equal(a, b) for a, b in zip(actor_params(source), actor_params(target)))


@pytest.mark.parametrize("make", ["missing", "not_a_zip", "other_shape"])
def test_a_bad_init_file_is_named(tmp_path, make):
    path = str(tmp_path / "init.zip")
    if make == "not_a_zip":
        with open(path, "w") as fh:
            fh.write("not a model")
    elif make == "other_shape":
        other, venv = model_for(tiny(tmp_path, hidden=[8]))
        other.save(path)
        venv.close()
    model, venv = model_for(tiny(tmp_path))
    try:
        before = actor_params(model)
        with pytest.raises(ConfigError, match="init="):
            init_policy(model, path)
    finally:
        venv.close()
    if make != "other_shape":  # a shape mismatch may have loaded nothing or part
        assert all(torch.equal(a, b) for a, b in zip(before, actor_params(model)))


@pytest.mark.parametrize("kwargs, word", [
    (dict(kickstart="", kickstart_weight=1.0), "kickstart_weight"),
    (dict(kickstart_weight=-1.0), "kickstart_weight"),
    (dict(kickstart_weight_halflife=-5), "kickstart_weight_halflife"),
])
def test_bad_distillation_settings_are_named(tmp_path, kwargs, word):
    with pytest.raises(ValueError, match=word):
        tiny(tmp_path, **kwargs)


def test_a_run_from_init_skips_the_stage_and_logs_the_loss(tmp_path):
    first = tiny(tmp_path / "first")
    model, venv = model_for(first)
    os.makedirs(first.run_dir)
    path = os.path.join(first.run_dir, "start.zip")
    model.save(path)
    venv.close()
    cfg = tiny(tmp_path / "run", init=path, kickstart_weight=1.0, kickstart_weight_halflife=64)
    final = train_ppo(cfg, progress=False)
    assert final["steps"] == 128
    assert not os.path.exists(os.path.join(cfg.run_dir, "kickstart.zip"))
    with open(os.path.join(cfg.run_dir, "logs", "progress.csv")) as fh:
        rows = [r for r in csv.DictReader(fh) if r.get("train/kickstart_kl")]
    assert rows and all(float(r["train/kickstart_kl"]) >= 0 for r in rows)
    assert float(rows[-1]["train/kickstart_weight"]) < 1.0
