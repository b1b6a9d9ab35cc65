"""Bad input found by a robustness audit: model files of the right kind with the wrong
contents, numbers out of range at the command line. Each is a one-line error that names the
bad thing, never a traceback."""

from __future__ import annotations

import io
import json
import os
import zipfile

import pytest
import torch

from agents import MODELS_DIR, load_agent
from agents.cli import main
from agents.evaluation.evaluate import evaluate, evaluate_matches
from agents.players.model_files import ModelFileError


def _error(capsys) -> str:
    err = capsys.readouterr().err
    assert "Traceback" not in err
    return err


# ------------------------------------------------------------------ PPO model files
def _ppo_zip_with(path, member: str, data: bytes) -> str:
    """The shipped ppo.zip with ``member`` replaced by ``data``, written at ``path``."""
    with zipfile.ZipFile(os.path.join(MODELS_DIR, "ppo.zip")) as src, \
            zipfile.ZipFile(path, "w") as dst:
        for item in src.infolist():
            dst.writestr(item, data if item.filename == member else src.read(item.filename))
    return str(path)


def _torch_bytes(obj) -> bytes:
    buffer = io.BytesIO()
    torch.save(obj, buffer)
    return buffer.getvalue()


@pytest.mark.parametrize("member, data, words", [
    ("data", b"[1, 2]", "settings ('data', policy_kwargs) are not a mapping"),
    ("data", json.dumps({"policy_kwargs": [1]}).encode(), "are not a mapping"),
    ("data", json.dumps({"policy_kwargs": {"net_arch": "x"}}).encode(),
     "net_arch=x: expected a list of positive layer sizes"),
    ("data", json.dumps({"policy_kwargs": {"net_arch": {"pi": [64]}}}).encode(),
     "expected a list of positive layer sizes"),
    ("data", json.dumps({"policy_kwargs": {"activation_fn": ["tanh"]}}).encode(),
     "activation_fn="),
])
def test_a_ppo_zip_with_malformed_settings_is_named(tmp_path, member, data, words):
    # these were an AttributeError or a TypeError deep in torch, a traceback at the CLI
    path = _ppo_zip_with(tmp_path / "odd.zip", member, data)
    with pytest.raises(ModelFileError, match=r"PPO model file '.*odd\.zip'") as caught:
        load_agent(f"ppo:{path}")
    assert words in str(caught.value)


def test_a_ppo_zip_whose_weights_are_not_a_state_dict_is_named(tmp_path, capsys):
    path = _ppo_zip_with(tmp_path / "odd.zip", "policy.pth", _torch_bytes(torch.zeros(3)))
    assert main(["eval", f"ppo:{path}", "random", "--games", "1", "--quiet"]) == 2
    err = _error(capsys)
    assert "odd.zip" in err and "holds a Tensor, not a state dict" in err


def test_a_ppo_file_error_names_the_file_once(tmp_path):
    cut = tmp_path / "cut.zip"
    cut.write_bytes(b"not a zip")
    with pytest.raises(ModelFileError) as caught:
        load_agent(f"ppo:{cut}")
    assert str(caught.value).count("cut.zip") == 1


# ------------------------------------------------------------------ seeds
@pytest.mark.parametrize("argv", [
    ["eval", "random", "random", "--games", "1", "--quiet", "--seed", "-1"],
    ["play", "--opponent", "random", "--seed", "-1"],
])
def test_cli_refuses_a_negative_seed_naming_it(argv, capsys):
    # eval said only "expected non-negative integer"; play printed gymnasium's traceback
    assert main(argv) == 2
    assert "argument --seed: '-1': expected a whole number in 0.." in _error(capsys)


@pytest.mark.parametrize("config", ["td", "ppo", "td_distill"])
def test_train_refuses_a_negative_seed_naming_the_key(config, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["train", config, "--set", "seed=-1", f"run_dir={tmp_path / 'run'}",
                 "--quiet"]) == 2
    assert "seed=-1: expected a number of 0 or more" in _error(capsys)
    assert not (tmp_path / "run").exists()


@pytest.mark.parametrize("run", [
    lambda: evaluate(load_agent("random"), load_agent("random"), games=2, seed=-1),
    lambda: evaluate_matches(load_agent("random"), load_agent("random"), matches=1, length=1,
                             seed=-1),
])
def test_evaluations_refuse_a_negative_seed_naming_it(run):
    with pytest.raises(ValueError, match=r"seed=-1: expected a whole number of 0 or more"):
        run()


@pytest.mark.parametrize("spec, what", [("random:-1", "seed"), ("gnubg:-1", "number of plies")])
def test_a_negative_number_in_an_agent_spec_is_named(spec, what):
    # random:-1 was numpy's "expected non-negative integer"; gnubg:-1 was taken as -1 plies
    with pytest.raises(ValueError, match=rf"agent spec '{spec}': '-1' is not a {what}"):
        load_agent(spec)


def test_a_td_header_asking_for_a_huge_network_is_refused_before_it_is_built(tmp_path):
    from agents.players.model_files import save_torch_file
    from agents.players.td import TDNet, load_net

    path = tmp_path / "huge.pt"
    save_torch_file({"hidden": 10**9, "layers": 1, "state_dict": TDNet(8).state_dict()}, path)
    with pytest.raises(ModelFileError, match=r"huge\.pt.*'body\.0\.\w+': the file holds "
                                             r"shape \[8.*, its settings need shape \[1000000000"):
        load_net(str(path))
    state = TDNet(8).state_dict()
    del state["body.0.weight"]
    save_torch_file({"hidden": 8, "layers": 1, "state_dict": state}, path)
    with pytest.raises(ModelFileError, match="'body.0.weight': the file holds none"):
        load_net(str(path))
    save_torch_file({"hidden": 8, "layers": 1, "state_dict": TDNet(8).state_dict()}, path)
    assert torch.equal(load_net(str(path)).state_dict()["body.0.bias"],
                       torch.load(path, weights_only=True)["state_dict"]["body.0.bias"])


def test_a_ppo_net_arch_asking_for_a_huge_network_is_refused_before_it_is_built(tmp_path):
    from agents.players.ppo import load_actor

    source = os.path.join(MODELS_DIR, "ppo.zip")
    path = tmp_path / "huge.zip"
    with zipfile.ZipFile(source) as old, zipfile.ZipFile(path, "w") as new:
        for item in old.namelist():
            data = old.read(item)
            if item == "data":
                settings = json.loads(data)
                settings.setdefault("policy_kwargs", {})["net_arch"] = [10**9]
                data = json.dumps(settings).encode()
            new.writestr(item, data)
    with pytest.raises(ModelFileError, match=r"huge\.zip.*actor's weights do not fit "
                                             r"net_arch=\[1000000000\]: weight .*its "
                                             r"settings need shape \[1000000000"):
        load_actor(str(path))


@pytest.mark.parametrize("spec, words", [
    ("pubeval:3", "'pubeval' takes nothing after ':'"),
    ("first:x", "'first' takes nothing after ':'"),
    ("gnubg:99", "at most 2 plies"),
    ("ppo:", "nothing after ':'"),
    ("td:", "nothing after ':'"),
    ("random:", "nothing after ':'"),
])
def test_agent_spec_arguments_an_agent_would_ignore_are_refused(spec, words):
    from agents import load_agent

    if spec.startswith("gnubg"):
        pytest.importorskip("gnubg_nn")
    with pytest.raises(ValueError, match=words):
        load_agent(spec)


def test_a_network_too_large_to_allocate_is_a_config_error_naming_the_key():
    from agents.config import ConfigError
    from agents.training.train_td import TDConfig

    with pytest.raises(ConfigError, match="hidden=1000000000000: expected at most 8192"):
        TDConfig(hidden=10**12)
    with pytest.raises(ConfigError, match="layers=100: expected at most 8"):
        TDConfig(layers=100)
    pytest.importorskip("sb3_contrib")
    from agents.training.train_ppo import PPOConfig

    with pytest.raises(ConfigError, match=r"hidden=\[100000000000\]: expected at most 8192"):
        PPOConfig(hidden=[10**11])
    with pytest.raises(ConfigError, match="max_candidates=100000: expected at most 1024"):
        PPOConfig(max_candidates=100_000)


def test_resume_with_another_network_shape_is_named_and_changes_nothing(tmp_path):
    from agents.config import ConfigError
    from agents.training.train_td import TDConfig, train_td

    run = tmp_path / "run"
    cfg = TDConfig(run_dir=str(run), games=2, hidden=8, eval_every=0, eval_games=2,
                   final_eval_games=2, checkpoint_every=1, eval_opponents=["random"])
    train_td(cfg, progress=False)
    before = {p.name: p.read_bytes() for p in run.iterdir() if p.is_file()}
    wider = TDConfig(**{**cfg.__dict__, "hidden": 16, "games": 4})
    with pytest.raises(ConfigError, match="holds a network of another shape than hidden=16"):
        train_td(wider, resume=True, progress=False)
    assert {p.name: p.read_bytes() for p in run.iterdir() if p.is_file()} == before


@pytest.mark.parametrize("argv, words", [
    (["eval", "first", "first", "--games", str(10**23)], "--games: '1" + "0" * 23 + "'"),
    (["eval", "first", "first", "--seed", str(2**64)], "expected a whole number in 0..9223372036854775807"),
    (["eval", "first", "first", "--workers", str(10**20)], "--workers"),
    (["eval", "first", "first", "--torch-threads", "100000"], "--torch-threads"),
    (["bench", "--seconds", "1e308"], "at most 3600"),
])
def test_cli_numbers_past_what_can_run_are_named(argv, words, capsys):
    from agents.cli import main

    assert main(argv + ["--quiet"] if argv[0] == "eval" else argv) == 2
    err = capsys.readouterr().err
    assert words in err and "Traceback" not in err


@pytest.mark.parametrize("overrides, words", [
    (["games=" + str(10**23)], "games=" + str(10**23) + ": expected at most 1000000000"),
    (["seed=" + str(2**64)], "seed=18446744073709551616: expected at most 9223372036854775807"),
    (["workers=5000"], "workers=5000: expected at most 1024"),
])
def test_train_numbers_past_what_can_run_are_named(overrides, words, capsys, tmp_path):
    from agents.cli import main

    run = tmp_path / "run"
    assert main(["train", "--set", f"run_dir={run}", *overrides, "--quiet"]) == 2
    err = capsys.readouterr().err
    assert words in err and "Traceback" not in err and not run.exists()


@pytest.mark.parametrize("plies", [3, 99, -1, True, 1.5])
def test_the_gnubg_agent_itself_refuses_a_search_it_cannot_finish(plies):
    from agents.players.gnubg import GnubgAgent

    with pytest.raises(ValueError, match=f"gnubg plies={plies!r}: .*at most 2 plies"):
        GnubgAgent(plies=plies)
