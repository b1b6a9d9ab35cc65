"""The MaskablePPO baseline: the candidate-scoring policy, the agent, the settings, and a
tiny training run (save, load, resume, same seed same run)."""

from __future__ import annotations

import os

import pytest
import torch

pytest.importorskip("sb3_contrib")

from agents import load_agent  # noqa: E402
from agents.config import ConfigError, load_config  # noqa: E402
from agents.evaluation.evaluate import evaluate  # noqa: E402
from agents.players.ppo import PPOAgent, load_actor  # noqa: E402
from agents.training.ppo_policy import CandidatePolicy  # noqa: E402
from agents.training.ppo_pool import OpponentPool, actor_weights  # noqa: E402
from agents.training.train_ppo import PPOConfig, read_checkpoint, train_ppo  # noqa: E402
from bg_env.rules.position import Position  # noqa: E402
from bg_env.envs.play_env import N_FEATURES, BackgammonPlaysEnv  # noqa: E402
from helpers import random_turns  # noqa: E402

CONFIG = os.path.join(os.path.dirname(__file__), "..", "..", "agents", "configs", "ppo.yaml")



@pytest.fixture(scope="module")
def model():
    from sb3_contrib import MaskablePPO

    torch.manual_seed(0)
    env = BackgammonPlaysEnv(max_candidates=32)
    m = MaskablePPO(CandidatePolicy, env, n_steps=64, batch_size=32, seed=0, device="cpu",
                    policy_kwargs={"net_arch": [16], "value_pooling": "policy"})
    with torch.no_grad():  # a non-trivial actor, so that the argmax means something
        for p in m.policy.mlp_extractor.actor.parameters():
            p.normal_(0, 0.5)
    return m


# ------------------------------------------------------------------ the policy
def test_one_shared_network_scores_every_candidate(model):
    env = BackgammonPlaysEnv(max_candidates=32)
    obs, _ = env.reset(seed=0, options={"position_id": "4HPwATDgc/ABMA", "dice": (6, 4)})
    policy = model.policy
    x = torch.from_numpy(obs[None])
    n = len(env.candidates)
    with torch.no_grad():
        dist = policy.get_distribution(x, action_masks=env.action_masks()[None])
        logits = dist.distribution.logits[0]
        rows = x.reshape(32, N_FEATURES)[:n]
        own = policy.mlp_extractor.actor(rows).squeeze(-1)
        values = policy.predict_values(x)
        # permuting the candidate rows permutes the logits
        perm = torch.randperm(n)
        shuffled = x.reshape(32, N_FEATURES).clone()
        shuffled[:n] = rows[perm]
        dist2 = policy.get_distribution(shuffled.reshape(1, -1),
                                        action_masks=env.action_masks()[None])
    probs = torch.softmax(own, 0)
    assert torch.allclose(torch.softmax(logits[:n], 0), probs, atol=1e-6)
    assert (logits[n:] < -1e7).all()
    shuffled_probs = torch.softmax(dist2.distribution.logits[0][:n], 0)
    assert torch.allclose(shuffled_probs, probs[perm], atol=1e-6)
    assert values.shape == (1, 1) and torch.isfinite(values).all()


def test_agent_takes_the_policys_deterministic_choice(model):
    env = BackgammonPlaysEnv(max_candidates=32)
    agent = PPOAgent(model)
    compared = 0
    for pos, dice, plays in random_turns(2, 150):
        if not 2 <= len(plays) <= 32:
            continue
        obs, _ = env.reset(seed=0, options={"position_id": pos.position_id(), "dice": dice})
        action, _ = model.predict(obs, action_masks=env.action_masks(), deterministic=True)
        assert agent.choose_play(plays).result == env.candidates[int(action)].result
        compared += 1
    assert compared > 80


def test_agent_plays_only_legal_plays(model):
    agent = PPOAgent(model)
    for _, _, plays in random_turns(4, 200):
        assert agent.choose_play(plays) in plays
    many = Position.start().legal_plays((2, 2))  # 75 plays, more than K
    assert agent.choose_play(many) in many
    assert PPOAgent(model, max_candidates=32).choose_play(many) in many


def test_load_missing_file_names_the_path(tmp_path):
    missing = str(tmp_path / "nope.zip")
    with pytest.raises(FileNotFoundError, match="nope.zip"):
        PPOAgent.load(missing)
    with pytest.raises(FileNotFoundError, match="nope.zip"):
        load_agent(f"ppo:{missing}")


def test_pool_draws_by_weight(model):
    pool = OpponentPool({"self": 1.0, "random": 1.0}, pool_size=2, seed=0, hidden=[16])
    with pytest.raises(RuntimeError, match="snapshot"):
        while True:  # "self" before any snapshot
            pool.sample()
    for _ in range(3):
        pool.add(actor_weights(model))
    assert len(pool.snapshots) == 2
    kinds = [type(pool.sample()).__name__ for _ in range(200)]  # "random" is a str
    assert 60 < kinds.count("PPOAgent") < 140


def test_shipped_model_loads_and_beats_random():
    from agents import MODELS_DIR

    if not os.path.exists(os.path.join(MODELS_DIR, "ppo.zip")):
        pytest.skip("no shipped agents/models/ppo.zip")
    stats = evaluate(load_agent("ppo"), load_agent("random:0"), games=10, seed=0)
    assert stats.wins >= 8, stats.table()


# ------------------------------------------------------------------ settings
def test_shipped_config_loads():
    cfg = load_config(PPOConfig, CONFIG)
    assert cfg.algo == "ppo" and cfg.total_steps > 0


def test_unknown_config_key_is_named(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text("algo: ppo\nlearning_rat: 0.1\n")
    with pytest.raises(ConfigError, match="learning_rat"):
        load_config(PPOConfig, str(path))
    with pytest.raises(ConfigError, match="n_epochs"):
        load_config(PPOConfig, None, {"n_epochs": "four"})


@pytest.mark.parametrize("kwargs, word", [
    ({"algo": "td"}, "algo"), ({"activation": "gelu"}, "activation"),
    ({"value_pooling": "sum"}, "value_pooling"), ({"opponents": {"self": 0}}, "opponents"),
    ({"batch_size": 10_000}, "batch_size"), ({"hidden": []}, "hidden"),
])
def test_bad_settings_are_named(kwargs, word):
    with pytest.raises(ValueError, match=word):
        PPOConfig(**kwargs)


# ------------------------------------------------------------------ training
def tiny(run_dir, **kw) -> PPOConfig:
    base = dict(run_dir=str(run_dir), total_steps=256, n_envs=2, n_steps=64, batch_size=64,
                n_epochs=2, hidden=[16], snapshot_every=128, checkpoint_every=128,
                eval_every=0, eval_games=4, final_eval_games=4, eval_opponents=["random"], seed=3,
                opponents={"self": 0.5, "pubeval": 0.25, "random": 0.25})
    base.update(kw)
    return PPOConfig(**base)


@pytest.mark.slow
def test_tiny_run_saves_loads_resumes(tmp_path):
    cfg = tiny(tmp_path / "run")
    final = train_ppo(cfg, progress=False)
    assert final["steps"] == 256 and final["random"]["games"] == 4
    for name in ("model.zip", "checkpoint.zip", "report.md", "history.json"):
        assert os.path.exists(os.path.join(cfg.run_dir, name)), name
    assert not os.path.exists(os.path.join(cfg.run_dir, "checkpoint.pt"))  # one file
    agent = PPOAgent.load(os.path.join(cfg.run_dir, "model.zip"))
    stats = evaluate(agent, load_agent("random:1"), games=4, seed=5)  # plays legal plays
    assert stats.games == 4
    for _, _, plays in random_turns(9, 50):
        assert agent.choose_play(plays) in plays
    # resume: the step count continues from the checkpoint
    cfg.total_steps = 512
    final = train_ppo(cfg, resume=True, progress=False)
    assert final["steps"] == 512
    blob = read_checkpoint(cfg.run_dir)
    assert blob["steps"] == 512 and [h["steps"] for h in blob["history"]] == [256, 512]
    with pytest.raises(FileNotFoundError, match="checkpoint"):
        train_ppo(tiny(tmp_path / "empty"), resume=True, progress=False)


@pytest.mark.slow
def test_same_seed_same_run(tmp_path):
    def weights(name):
        cfg = tiny(tmp_path / name, total_steps=128, checkpoint_every=10_000)
        train_ppo(cfg, progress=False)
        agent = PPOAgent.load(os.path.join(cfg.run_dir, "model.zip"))
        return [p.detach().clone() for p in agent.actor.parameters()]

    a, b = weights("a"), weights("b")
    assert all(torch.equal(x, y) for x, y in zip(a, b))


# ------------------------------------------------------------------ loading, checkpoints, workers
def test_loading_needs_no_training_stack():
    """``load_agent("ppo")`` in a fresh process imports neither SB3 nor sb3-contrib."""
    import subprocess
    import sys

    code = ("import sys, agents; agents.load_agent('ppo'); "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in "
            "('stable_baselines3', 'sb3_contrib')))")
    root = os.path.join(os.path.dirname(__file__), "..", "..")
    out = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True,
                         text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


def test_loaded_actor_is_the_trained_one(model, tmp_path):
    path = str(tmp_path / "m.zip")
    model.save(path)
    actor = load_actor(path)
    trained = model.policy.mlp_extractor.actor.state_dict()
    assert all(torch.equal(v, trained[k]) for k, v in actor.state_dict().items())
    (tmp_path / "bad.zip").write_text("not a zip")
    with pytest.raises(ValueError, match="bad.zip"):
        PPOAgent.load(str(tmp_path / "bad.zip"))


@pytest.mark.parametrize("kwargs, word", [
    ({"device": "gpu"}, "device"), ({"workers": 0}, "workers"),
    ({"workers": 17, "n_envs": 16}, "workers"),
])
def test_bad_machine_settings_are_named(kwargs, word):
    with pytest.raises(ValueError, match=word):
        PPOConfig(**kwargs)


def test_device_setting():
    from agents.training.device import resolve_device

    assert resolve_device("cpu") == "cpu"
    assert resolve_device("auto") == ("cuda" if torch.cuda.is_available() else "cpu")
    if not torch.cuda.is_available():
        with pytest.raises(ValueError, match="cuda"):
            resolve_device("cuda")


@pytest.mark.slow
def test_a_failed_checkpoint_leaves_the_old_one_whole(tmp_path, monkeypatch):
    import agents.training.train_ppo as train_module

    cfg = tiny(tmp_path / "run", total_steps=128, checkpoint_every=10_000)
    train_ppo(cfg, progress=False)
    path = os.path.join(cfg.run_dir, "checkpoint.zip")
    before = open(path, "rb").read()

    def killed(fd):  # the process dies after writing the new file, before the rename
        raise KeyboardInterrupt

    monkeypatch.setattr(train_module.os, "fsync", killed)
    cfg.total_steps = 256
    with pytest.raises(KeyboardInterrupt):
        train_ppo(cfg, resume=True, progress=False)
    assert open(path, "rb").read() == before
    assert read_checkpoint(cfg.run_dir)["steps"] == 128


@pytest.mark.slow
def test_two_workers_train_the_same_as_one(tmp_path):
    """``bg-env train --workers 2``: the games run in two processes, and the run is the
    same as in one (same seeds, same weights)."""
    from agents.cli import main

    def weights(name, workers):
        run = tmp_path / name
        sets = ["run_dir=" + str(run), "total_steps=128", "n_envs=4", "n_steps=32",
                "batch_size=64", "n_epochs=2", "hidden=[16]", "snapshot_every=64",
                "checkpoint_every=10000", "eval_every=0", "final_eval_games=2",
                "eval_opponents=[random]", "seed=3",
                "opponents={self: 0.5, pubeval: 0.25, random: 0.25}"]
        assert main(["train", CONFIG, "--workers", str(workers), "--quiet", "--set"] + sets) == 0
        games = read_checkpoint(str(run))["games"]
        agent = PPOAgent.load(str(run / "model.zip"))
        return games, [p.detach().clone() for p in agent.actor.parameters()]

    games1, one = weights("one", 1)
    games2, two = weights("two", 2)
    assert games1 == games2 > 0
    assert all(torch.equal(x, y) for x, y in zip(one, two))
