"""Bad input at the command line and in model files, found by a newcomer's review: each is a
one-line error that names the bad thing (no traceback), before any work is done, and a run
that fails to start leaves no folder behind."""

from __future__ import annotations

import pytest

from agents import load_agent
from agents.cli import main
from agents.config import ConfigError, load_config, read_mapping
from agents.evaluation.evaluate import evaluate_matches
from agents.players.model_files import ModelFileError
from agents.training.train_td import TDConfig


def _error(capsys) -> str:
    err = capsys.readouterr().err
    assert "Traceback" not in err
    return err


# ------------------------------------------------------------------ model files
def test_a_text_file_that_trips_the_unpickler_is_named(tmp_path):
    # the first bytes of /etc/passwd made torch's weights-only reader raise an IndexError
    path = tmp_path / "passwd"
    path.write_text("root:x:0:0:root:/root:/bin/bash\ndaemon:x:1:1::/usr/sbin:/bin/sh\n")
    with pytest.raises(ModelFileError, match=r"model file '.*passwd' is truncated or not a torch"):
        load_agent(f"td:{path}")


def test_a_folder_given_as_a_model_file_is_called_a_folder(tmp_path):
    with pytest.raises(ModelFileError, match=r"'.*' is a folder, not a file"):
        load_agent(f"td:{tmp_path}")


@pytest.mark.parametrize("spec, words", [
    ("random:abc", "agent spec 'random:abc': 'abc' is not a seed"),
    ("gnubg:two", "agent spec 'gnubg:two': 'two' is not a number of plies"),
])
def test_a_spec_with_a_bad_number_is_named(spec, words):
    with pytest.raises(ValueError, match=words):
        load_agent(spec)


# ------------------------------------------------------------------ configs
@pytest.mark.parametrize("text, words", [
    ("- a\n- b\n", "expected a mapping of key: value, got list"),
    ("root:x:0:0:root\n", "expected a mapping of key: value, got str"),
    ("algo: td\n  games: [\n", "not a YAML file at line 2"),
])
def test_train_names_a_config_file_that_is_not_a_mapping(tmp_path, monkeypatch, capsys, text,
                                                         words):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bad.yaml").write_text(text)
    with pytest.raises(ConfigError, match=words):
        read_mapping("bad.yaml")
    assert main(["train", "bad.yaml", "--quiet"]) == 2
    err = _error(capsys)
    assert "bad.yaml" in err and words in err


def test_a_bad_override_is_blamed_on_the_override_not_the_file(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["train", "td", "--set", "games=abc"]) == 2
    err = _error(capsys)
    assert "overrides: games='abc' has the wrong type" in err and "td.yaml" not in err
    # a value in the file itself still names the file
    (tmp_path / "mine.yaml").write_text("algo: td\ngames: abc\n")
    with pytest.raises(ConfigError, match=r"mine\.yaml: games='abc'"):
        load_config(TDConfig, "mine.yaml", {"hidden": 4})


@pytest.mark.parametrize("argv", [
    ["train", "td", "--quiet", "--set", "init=/nonexistent/start.pt"],
    ["train", "td", "--quiet", "--resume"],
    ["train", "ppo", "--quiet", "--set", "init=/nonexistent/start.zip", "total_steps=64"],
])
def test_a_run_that_fails_to_start_leaves_no_folder(tmp_path, monkeypatch, capsys, argv):
    monkeypatch.chdir(tmp_path)
    assert main(argv + ["--set", "run_dir=runs/x"]) == 2
    assert _error(capsys)
    assert list(tmp_path.iterdir()) == []


def test_a_failed_start_keeps_a_folder_that_was_there(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "runs" / "x").mkdir(parents=True)
    assert main(["train", "td", "--quiet", "--resume", "--set", "run_dir=runs/x"]) == 2
    assert (tmp_path / "runs" / "x").is_dir()


# ------------------------------------------------------------------ eval
@pytest.mark.parametrize("option", ["--json", "--save-mat"])
def test_eval_checks_its_output_path_before_playing(tmp_path, capsys, option):
    path = tmp_path / "missing" / "out.file"
    assert main(["eval", "random", "random", "--games", "2", "--quiet", option, str(path)]) == 2
    captured = capsys.readouterr()
    assert f"{option} '{path}': the folder" in captured.err and "does not exist" in captured.err
    assert captured.out == ""  # no games were played
    assert main(["eval", "random", "random", "--games", "2", "--quiet", option,
                 str(tmp_path)]) == 2
    assert "is a folder" in _error(capsys)


def test_eval_match_length_has_the_environments_limit(capsys):
    assert main(["eval", "random", "random", "--games", "1", "--match", "99", "--quiet"]) == 2
    assert "match length=99: expected 1..25" in _error(capsys)
    with pytest.raises(ValueError, match="match length=0"):
        evaluate_matches(load_agent("random"), load_agent("random"), matches=2, length=0)
    assert evaluate_matches(load_agent("random"), load_agent("random"), matches=2,
                            length=25).matches == 2


# ------------------------------------------------------------------ resume, overrides
def test_resume_takes_the_runs_own_settings(tmp_path, monkeypatch, capsys):
    import json

    monkeypatch.chdir(tmp_path)
    tiny = ["hidden=4", "games=2", "eval_every=0", "eval_games=2", "final_eval_games=2",
            "checkpoint_every=1", "eval_opponents=[random]", "run_dir=run", "lam=0.5"]
    assert main(["train", "td", "--quiet", "--set", *tiny]) == 0
    # hidden=4 and lam=0.5 are the run's, not td.yaml's: not repeated here
    assert main(["train", "td", "--quiet", "--resume", "--set", "games=4", "run_dir=run"]) == 0
    saved = json.loads((tmp_path / "run" / "config.json").read_text())
    assert (saved["hidden"], saved["lam"], saved["games"]) == (4, 0.5, 4)
    history = json.loads((tmp_path / "run" / "history.json").read_text())
    assert [h["games"] for h in history][-1] == 4


@pytest.mark.parametrize("item", ["init=", 'init=""', "init=''"])
def test_an_empty_value_is_the_empty_string(item):
    from agents.config import parse_overrides

    assert parse_overrides([item]) == {"init": ""}
    assert load_config(TDConfig, None, parse_overrides([item])).init == ""


def test_model_files_are_written_whole(tmp_path, monkeypatch):
    import os

    import torch

    from agents.players.model_files import load_torch_file, save_torch_file, write_atomically

    path = tmp_path / "net.pt"
    save_torch_file({"w": torch.ones(3)}, path)
    assert torch.equal(load_torch_file(path)["w"], torch.ones(3))
    synced = []
    monkeypatch.setattr(os, "fsync", lambda fd: synced.append(fd))

    def killed(src, dst):
        raise KeyboardInterrupt  # the rename never happens

    monkeypatch.setattr(os, "replace", killed)
    with pytest.raises(KeyboardInterrupt):
        write_atomically(path, b"half a file")
    assert synced and torch.equal(load_torch_file(path)["w"], torch.ones(3))  # the old one
    assert sorted(p.name for p in tmp_path.iterdir()) == ["net.pt"]  # no net.pt.tmp left


def test_ppo_says_when_max_minutes_stops_it_short(tmp_path, monkeypatch, caplog):
    import logging

    monkeypatch.chdir(tmp_path)
    argv = ["train", "ppo", "--quiet", "--set", "total_steps=100000", "max_minutes=0.0001",
            "kickstart=", "kickstart_weight=0", "n_envs=2", "n_steps=32", "batch_size=32",
            "n_epochs=1", "eval_every=0", "final_eval_games=2",
            "run_dir=run"]
    with caplog.at_level(logging.WARNING, logger="agents"):
        assert main(argv) == 0
    assert any("stopped by max_minutes=0.0001 at" in r.getMessage() for r in caplog.records)


def test_a_run_folder_under_a_file_is_an_error_not_a_traceback(tmp_path, capsys):
    # os.makedirs raised NotADirectoryError, which the command printed as a traceback
    (tmp_path / "afile").write_text("")
    run_dir = tmp_path / "afile" / "run"
    assert main(["train", "td", "--set", f"run_dir={run_dir}", "games=1", "--quiet"]) == 2
    err = _error(capsys)
    assert "bg-env train: error:" in err and str(run_dir) in err


def test_a_folder_given_as_the_config_is_called_a_folder(tmp_path, capsys):
    # it said the config file "does not exist", which a folder does
    assert main(["train", str(tmp_path), "--quiet"]) == 2
    err = _error(capsys)
    assert f"'{tmp_path}' is a folder: expected a YAML file" in err and "'td'" in err


def test_eval_refuses_two_outputs_that_are_one_file(tmp_path, capsys):
    out = tmp_path / "games.mat"
    argv = ["eval", "first", "first", "--games", "2", "--quiet"]
    assert main(argv + ["--save-mat", str(out), "--json", str(out)]) == 2
    assert "--json" in _error(capsys) and not out.exists()  # refused before any game
    (tmp_path / "link.json").symlink_to(out)
    assert main(argv + ["--save-mat", str(out), "--json", str(tmp_path / "link.json")]) == 2
    assert "are one file" in _error(capsys)


@pytest.mark.parametrize("kind", ["read-only", "fifo"])
def test_eval_refuses_an_output_it_must_not_replace(tmp_path, capsys, kind):
    import os

    out = tmp_path / "report.json"
    if kind == "fifo":
        os.mkfifo(out)
    else:
        out.write_text("mine")
        out.chmod(0o444)
    assert main(["eval", "first", "first", "--games", "2", "--quiet", "--json", str(out)]) == 2
    assert ("read-only" if kind == "read-only" else "FIFO") in _error(capsys)
    assert kind == "fifo" or out.read_text() == "mine"
