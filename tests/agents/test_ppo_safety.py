"""PPO training and bad input: settings that are out of range are refused naming
the key and the file, ``--resume`` never rewinds and leaves the checkpoint as it was, the
library logs instead of printing, and unreadable checkpoints name the file."""

from __future__ import annotations

import contextlib
import io
import logging
import os

import pytest

pytest.importorskip("sb3_contrib")

from agents.cli import main  # noqa: E402
from agents.config import ConfigError, find_config, load_config  # noqa: E402
from agents.players.model_files import ModelFileError  # noqa: E402
from agents.players.ppo import load_actor  # noqa: E402
from agents.training.train_ppo import PPOConfig, read_checkpoint, train_ppo  # noqa: E402


# ------------------------------------------------------------------ settings
@pytest.mark.parametrize("key", [
    "torch_threads", "checkpoint_every", "n_envs", "n_steps", "workers", "batch_size",
    "n_epochs", "total_steps", "snapshot_every", "pool_size", "eval_games", "max_candidates",
])
def test_zero_counts_are_rejected_naming_the_key_and_file(key):
    path = find_config("ppo")
    with pytest.raises(ConfigError, match=rf"ppo\.yaml: {key}=0: expected a number of 1 or more"):
        load_config(PPOConfig, path, {key: 0})


@pytest.mark.parametrize("key, value, words", [
    ("eval_every", -1, "eval_every=-1: expected a number of 0 or more"),
    ("max_minutes", float("nan"), "max_minutes=nan"),
    ("learning_rate", 0.0, "learning_rate=0.0: expected a positive"),
    ("clip_range", -0.1, "clip_range=-0.1"),
    ("gamma", 1.5, "gamma=1.5: expected 0..1"),
    ("gae_lambda", -0.5, "gae_lambda=-0.5"),
])
def test_out_of_range_numbers_are_named(key, value, words):
    with pytest.raises(ConfigError, match=words):
        load_config(PPOConfig, None, {key: value})


def test_the_shipped_config_still_passes():
    cfg = load_config(PPOConfig, find_config("ppo"))
    assert cfg.torch_threads >= 1 and cfg.checkpoint_every >= 1


def test_cli_train_rejects_zero_threads_naming_the_file_and_key(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["train", "ppo", "--set", "torch_threads=0"]) == 2
    err = capsys.readouterr().err
    assert "ppo.yaml: torch_threads=0" in err and "Traceback" not in err
    assert not (tmp_path / "runs").exists()


# ------------------------------------------------------------------ a tiny run
def _tiny(run_dir, total_steps=128) -> PPOConfig:
    return PPOConfig(run_dir=str(run_dir), total_steps=total_steps, n_envs=2, n_steps=64,
                     batch_size=64, n_epochs=1, hidden=[8], snapshot_every=64,
                     checkpoint_every=64, eval_every=64, eval_games=2, final_eval_games=2,
                     eval_opponents=["random"], seed=3, opponents={"self": 0.5, "random": 0.5})


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    """A 128-step run (two rollouts of 64 steps) with an evaluation at 64 steps; returns
    the run folder, what it wrote on stdout, and its log messages."""
    run_dir = tmp_path_factory.mktemp("ppo") / "run"
    messages: list[str] = []

    class Keep(logging.Handler):
        def emit(self, record):
            messages.append((record.name, record.getMessage()))

    log = logging.getLogger("agents")
    handler, level = Keep(logging.INFO), log.level
    log.addHandler(handler)
    log.setLevel(logging.INFO)
    out = io.StringIO()
    try:
        with contextlib.redirect_stdout(out):
            train_ppo(_tiny(run_dir), progress=False)
    finally:
        log.removeHandler(handler)
        log.setLevel(level)
    return run_dir, out.getvalue(), messages


def test_training_logs_instead_of_printing(run):
    _, stdout, messages = run
    assert stdout == ""
    lines = [m for name, m in messages if name == "agents.training.train_ppo"]
    assert any(m.startswith("[64 steps") and "random: win" in m for m in lines)
    assert any(m.startswith("[128 steps") for m in lines)


def test_resume_refuses_to_rewind_and_leaves_the_run_folder(run):
    run_dir, _, _ = run
    before = {p: p.read_bytes() for p in run_dir.rglob("*") if p.is_file()}
    assert read_checkpoint(str(run_dir))["steps"] == 128
    with pytest.raises(ConfigError, match=r"checkpoint\.zip' has 128 steps done, more than "
                                          r"total_steps=64; set total_steps to 128 or more"):
        train_ppo(_tiny(run_dir, total_steps=64), resume=True, progress=False)
    after = {p: p.read_bytes() for p in run_dir.rglob("*") if p.is_file()}
    assert after == before  # checkpoint.zip byte-identical, nothing added (no logs/resumed_at_*)


def test_cli_resume_below_the_steps_done_is_an_error(run, capsys):
    run_dir, _, _ = run
    ckpt = run_dir / "checkpoint.zip"
    before = ckpt.read_bytes()
    argv = ["train", "ppo", "--resume", "--quiet", "--set", f"run_dir={run_dir}",
            "total_steps=100"]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "128 steps done" in err and "total_steps=100" in err and "Traceback" not in err
    assert ckpt.read_bytes() == before


def test_cli_resume_with_another_network_is_named_and_writes_nothing(run, capsys):
    run_dir, _, _ = run
    before = {p.name: p.read_bytes() for p in run_dir.iterdir() if p.is_file()}
    argv = ["train", "ppo", "--resume", "--quiet", "--set", f"run_dir={run_dir}",
            "total_steps=100000", "hidden=[7]"]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "shapes the network otherwise: hidden was" in err and "Traceback" not in err
    assert {p.name: p.read_bytes() for p in run_dir.iterdir() if p.is_file()} == before


@pytest.mark.parametrize("source, words", [
    ("truncated", "is truncated or not a zip archive"),
    ("model.zip", "has no member 'training_state.pt'"),  # a model, not a checkpoint
])
def test_an_unreadable_checkpoint_is_named(run, tmp_path, source, words):
    run_dir, _, _ = run
    if source == "truncated":
        data = (run_dir / "checkpoint.zip").read_bytes()
        data = data[: len(data) // 2]
    else:
        data = (run_dir / source).read_bytes()
    (tmp_path / "checkpoint.zip").write_bytes(data)
    with pytest.raises(ModelFileError, match=rf"PPO checkpoint file '.*checkpoint\.zip' {words}"):
        read_checkpoint(str(tmp_path))
    with pytest.raises(ModelFileError, match=r"checkpoint\.zip"):
        train_ppo(_tiny(tmp_path, total_steps=256), resume=True, progress=False)
    assert not (tmp_path / "config.json").exists()


def test_a_model_whose_weights_are_not_a_torch_file_is_named(run, tmp_path):
    import zipfile

    run_dir, _, _ = run
    bad = tmp_path / "bad.zip"
    with zipfile.ZipFile(run_dir / "model.zip") as src, zipfile.ZipFile(bad, "w") as dst:
        for name in src.namelist():
            dst.writestr(name, b"not torch" if name == "policy.pth" else src.read(name))
    with pytest.raises(ModelFileError, match=r"PPO model file '.*bad\.zip' \(member 'policy\.pth'\)"):
        load_actor(str(bad))
    assert load_actor(str(run_dir / "model.zip")) is not None


def test_no_docstring_points_to_the_old_config_path():
    import agents.players.ppo
    import agents.training.ppo_policy
    import agents.training.train_ppo

    for module in (agents.players.ppo, agents.training.ppo_policy, agents.training.train_ppo):
        source = open(module.__file__).read()
        assert "train configs/ppo.yaml" not in source and "``configs/ppo.yaml``" not in source
