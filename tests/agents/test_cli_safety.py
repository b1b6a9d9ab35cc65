"""The command line from any folder, safe model loading, and bad input: each gets a clear
error that names it."""

from __future__ import annotations

import io
import json
import logging
import os

import pytest
import yaml
import torch

from agents import MODELS_DIR, load_agent
from bg_env.bench.run import run_bench
from agents.cli import main
from agents.config import ConfigError, find_config, load_config
from agents.evaluation.evaluate import evaluate, evaluate_matches
from agents.players.model_files import ModelFileError
from agents.training.train_td import TDConfig, train_td
from bg_env.records import read_mat

TINY = ["hidden=4", "games=2", "eval_every=0", "eval_games=2", "final_eval_games=2",
        "checkpoint_every=1", "eval_opponents=[random]", "run_dir=run"]


# ------------------------------------------------------------------ packaging
def test_train_runs_from_any_folder_with_a_shipped_config_and_repeated_set(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # no configs/ folder here
    argv = ["train", "td", "--quiet"]
    for item in TINY:
        argv += ["--set", item]
    assert main(argv) == 0
    saved = json.loads((tmp_path / "run" / "config.json").read_text())
    # every --set kept, and the rest from the shipped td.yaml
    assert saved["hidden"] == 4 and saved["games"] == 2 and saved["eval_opponents"] == ["random"]
    assert saved["lam"] == 0.7 and saved["final_eval_games"] == 2
    assert (tmp_path / "run" / "report.md").exists()


def test_set_takes_several_pairs_at_once_too(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["train", "td.yaml", "--quiet", "--set", *TINY[:3], "--set", *TINY[3:]]) == 0
    assert json.loads((tmp_path / "run" / "config.json").read_text())["hidden"] == 4


def test_find_config_takes_names_paths_and_the_old_configs_prefix(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    td = find_config("td")
    assert td.is_file() and td.name == "td.yaml"
    assert find_config("td.yaml") == td == find_config("configs/td.yaml")
    assert find_config("plakoto", "variants").name == "plakoto.yaml"
    assert find_config("configs/variants/plakoto.yaml") == find_config("plakoto", "variants")
    own = tmp_path / "td.yaml"
    own.write_text("algo: td\n")
    assert find_config("td.yaml").resolve() == own  # a file here comes first
    with pytest.raises(FileNotFoundError, match=r"'nonesuch'.*\['default', 'ppo', 'td', 'td_cube', 'td_distill'\]"):
        find_config("nonesuch")


def test_eval_rules_takes_a_shipped_variant_by_name(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["eval", "random:1", "random:2", "--rules", "hypergammon", "--games", "2",
                 "--quiet", "--json", "r.json"]) == 0
    assert json.loads((tmp_path / "r.json").read_text())["games"] == 2


# ------------------------------------------------------------------ safe loading
def _crafted_pt(path, marker):
    """A .pt whose pickle creates ``marker`` when it is unpickled."""

    class Payload:
        def __reduce__(self):
            return (exec, (f"open({str(marker)!r}, 'w').close()",))

    torch.save({"hidden": 4, "layers": 1, "state_dict": {}, "payload": Payload()}, path)


def test_a_td_file_with_code_in_it_is_refused_and_runs_nothing(tmp_path):
    path, marker = tmp_path / "evil.pt", tmp_path / "ran.txt"
    _crafted_pt(path, marker)
    with pytest.raises(ModelFileError, match=r"evil\.pt.*refused") as err:
        load_agent(f"td:{path}")
    assert "(exec)" in str(err.value)
    assert not marker.exists()
    # the file is a real attack: an unsafe load runs it
    torch.load(path, weights_only=False)
    assert marker.exists()


def test_truncated_and_foreign_model_files_are_named(tmp_path):
    data = open(os.path.join(MODELS_DIR, "td.pt"), "rb").read()
    cut = tmp_path / "cut.pt"
    cut.write_bytes(data[:1000])
    with pytest.raises(ModelFileError, match=r"TD model file '.*cut\.pt' is truncated"):
        load_agent(f"td:{cut}")
    text = tmp_path / "notes.pt"
    text.write_text("not a model\n")
    with pytest.raises(ModelFileError, match=r"notes\.pt"):
        load_agent(f"td:{text}")
    other = tmp_path / "other.pt"
    torch.save({"weights": torch.zeros(3)}, other)
    with pytest.raises(ModelFileError, match=r"other\.pt' is not a TD network"):
        load_agent(f"td:{other}")
    wrong = tmp_path / "wrong.pt"
    torch.save({"hidden": 4, "layers": 1, "state_dict": {"x": torch.zeros(1)}}, wrong)
    with pytest.raises(ModelFileError, match=r"wrong\.pt' does not fit"):
        load_agent(f"td:{wrong}")


def test_truncated_ppo_file_is_named(tmp_path):
    data = open(os.path.join(MODELS_DIR, "ppo.zip"), "rb").read()
    cut = tmp_path / "cut.zip"
    cut.write_bytes(data[: len(data) // 2])
    with pytest.raises(ValueError, match=r"cut\.zip"):
        load_agent(f"ppo:{cut}")


def test_cli_reports_a_refused_model_as_an_error(tmp_path, capsys):
    path = tmp_path / "evil.pt"
    _crafted_pt(path, tmp_path / "ran.txt")
    assert main(["eval", f"td:{path}", "random", "--games", "2", "--quiet"]) == 2
    assert "evil.pt" in capsys.readouterr().err
    assert not (tmp_path / "ran.txt").exists()


# ------------------------------------------------------------------ bad input
@pytest.mark.parametrize("key", ["checkpoint_every", "torch_threads", "games", "batch_games",
                                 "eval_games"])
def test_zero_counts_are_rejected_naming_the_key(key):
    with pytest.raises(ConfigError, match=f"overrides: {key}=0: expected"):
        load_config(TDConfig, None, {key: 0})


def test_cli_train_rejects_zero_threads_naming_the_file_and_key(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["train", "td", "--set", "torch_threads=0"]) == 2
    err = capsys.readouterr().err
    assert "td.yaml: torch_threads=0" in err and "Traceback" not in err
    assert "(with the overrides ['torch_threads'])" in err
    assert not (tmp_path / "runs").exists()


@pytest.mark.parametrize("argv, words", [
    (["bench", "--seconds", "-1"], "--seconds: '-1': expected a number of seconds above 0"),
    (["bench", "--seconds", "nan"], "--seconds: 'nan'"),
    (["eval", "random", "random", "--games", "0"], "--games: '0': expected a whole number in 1..1000000000"),
    (["eval", "random", "random", "--match", "0"], "--match: '0'"),
])
def test_cli_rejects_bad_numbers(argv, words, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert words in err and "Traceback" not in err


def test_library_rejects_bad_counts():
    with pytest.raises(ValueError, match="games=0"):
        evaluate(load_agent("random"), load_agent("random"), games=0)
    with pytest.raises(ValueError, match="matches=-2"):
        evaluate_matches(load_agent("random"), load_agent("random"), matches=-2)
    with pytest.raises(ValueError, match="seconds=-1"):
        run_bench(seconds=-1)


def test_play_at_the_end_of_the_input_ends_cleanly(monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert main(["play", "--opponent", "random", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "Game abandoned." in out


def test_evaluations_against_random_repeat_with_the_seed():
    def run(seed):
        stats = evaluate(load_agent("pubeval"), load_agent("random"), games=20, seed=seed)
        return stats.points

    def run_cube(seed):
        stats = evaluate(load_agent("random"), load_agent("random"), games=6, seed=seed, cube=True)
        return stats.points

    assert run(4) == run(4)
    assert run_cube(4) == run_cube(4)
    assert run_cube(4) != run_cube(5)


def test_eval_runs_the_networks_on_the_threads_asked(capsys):
    before = torch.get_num_threads()
    try:
        assert main(["eval", "td", "random", "--games", "2", "--torch-threads", "2",
                     "--quiet"]) == 0
        assert torch.get_num_threads() == 2
        assert main(["eval", "td", "random", "--games", "2", "--quiet"]) == 0
        assert torch.get_num_threads() == 1  # the default
    finally:
        torch.set_num_threads(before)
    assert main(["eval", "td", "random", "--torch-threads", "0"]) == 2
    assert "--torch-threads: '0'" in capsys.readouterr().err


def test_a_random_agent_with_its_own_seed_keeps_it():
    mine = load_agent("random:7")
    evaluate(mine, load_agent("pubeval"), games=2, seed=0)
    assert mine.own_seed == 7
    fresh = load_agent("random:7")
    a = evaluate(fresh, load_agent("pubeval"), games=6, seed=0).points
    b = evaluate(load_agent("random:8"), load_agent("pubeval"), games=6, seed=0).points
    c = evaluate(load_agent("random:7"), load_agent("pubeval"), games=6, seed=0).points
    assert a == c and a != b


def _tiny(run_dir, games=4):
    return TDConfig(run_dir=str(run_dir), games=games, hidden=4, eval_every=2, eval_games=2,
                    checkpoint_every=2, eval_opponents=["random"])


def test_resume_refuses_to_rewind_and_leaves_the_checkpoint(tmp_path):
    train_td(_tiny(tmp_path), progress=False)
    ckpt, config = tmp_path / "checkpoint.pt", tmp_path / "config.json"
    before = ckpt.read_bytes(), config.read_text()
    with pytest.raises(ValueError, match=r"4 games done, more than games=2.*does not rewind"):
        train_td(_tiny(tmp_path, games=2), resume=True, progress=False)
    assert (ckpt.read_bytes(), config.read_text()) == before


def test_resume_continues_the_clock(tmp_path):
    train_td(_tiny(tmp_path), progress=False)
    ckpt = tmp_path / "checkpoint.pt"
    blob = torch.load(ckpt, weights_only=True)
    assert blob["seconds"] >= blob["history"][-1]["seconds"] > 0
    blob["seconds"] = 6000.0  # as if the first run had taken 100 minutes
    torch.save(blob, ckpt)
    train_td(_tiny(tmp_path, games=6), resume=True, progress=False)
    history = json.loads((tmp_path / "history.json").read_text())
    assert [h["games"] for h in history] == [2, 4, 6]
    assert history[1]["seconds"] < 6000 <= history[2]["seconds"]
    assert "| 6 | 100." in (tmp_path / "report.md").read_text()


def test_training_logs_instead_of_printing(tmp_path, caplog, capsys):
    with caplog.at_level(logging.INFO, logger="agents"):
        train_td(_tiny(tmp_path), progress=False)
    assert capsys.readouterr().out == ""
    lines = [r.getMessage() for r in caplog.records if r.name == "agents.training.train_td"]
    assert any(m.startswith("[2 games") and "random: win" in m for m in lines)
    assert any(m.startswith("[4 games") for m in lines)


@pytest.mark.parametrize("text, value", [("1e-4", 1e-4), ("2E-3", 2e-3), ("+5e0", 5.0), (".5e-1", 0.05)])
def test_a_rate_in_exponent_notation_is_a_number(text, value):
    # YAML 1.1 reads 1e-4 (no dot) as a string: `--set lr=1e-4` must still work
    assert load_config(TDConfig, None, {"lr": yaml.safe_load(text)}).lr == value


def test_a_word_for_a_number_is_still_refused():
    with pytest.raises(ConfigError, match="lr='fast'"):
        load_config(TDConfig, None, {"lr": "fast"})


def test_a_stop_at_a_checkpoint_inside_a_batch_resumes_as_the_straight_run(tmp_path):
    # batches of 4 games, a checkpoint every 3: the run stopped at game 3 and resumed to 6
    # has the weights of the run that went straight to 6 (the checkpoint's batch is applied)
    def config(folder, games):
        return TDConfig(run_dir=str(tmp_path / folder), games=games, hidden=4, batch_games=4,
                        checkpoint_every=3, eval_every=0, eval_games=2, final_eval_games=2,
                        eval_opponents=["random"])

    train_td(config("straight", 6), progress=False)
    train_td(config("stopped", 3), progress=False)
    train_td(config("stopped", 6), resume=True, progress=False)
    a, b = (torch.load(tmp_path / f / "model.pt", weights_only=True)["state_dict"]
            for f in ("straight", "stopped"))
    assert all(torch.equal(a[k], b[k]) for k in a)


def _killed_while_renaming(monkeypatch, name):
    """os.replace interrupted when it would put ``name`` in place (a kill mid-write)."""
    real = os.replace

    def replace(src, dst):
        if os.path.basename(dst) == name:
            raise KeyboardInterrupt
        real(src, dst)

    monkeypatch.setattr(os, "replace", replace)


def test_a_run_killed_while_writing_its_config_keeps_the_old_one_whole(tmp_path, monkeypatch):
    # --resume reads config.json: a half-written one would leave the run unresumable
    monkeypatch.chdir(tmp_path)
    argv = ["train", "td", "--quiet"] + [a for item in TINY for a in ("--set", item)]
    assert main(argv) == 0
    before = (tmp_path / "run" / "config.json").read_text()
    with monkeypatch.context() as m:
        _killed_while_renaming(m, "config.json")
        assert main(argv + ["--resume", "--set", "games=4"]) == 130  # interrupted
    assert (tmp_path / "run" / "config.json").read_text() == before
    assert json.loads(before)["games"] == 2
    assert main(argv + ["--resume", "--set", "games=4"]) == 0  # and the run goes on
    assert json.loads((tmp_path / "run" / "config.json").read_text())["games"] == 4


def _games_in_json(path):
    return json.loads(path.read_text())["games"]


def _games_in_mat(path):
    return len(read_mat(path).games)


@pytest.mark.parametrize("option, name, games_in", [("--json", "results.json", _games_in_json),
                                                    ("--save-mat", "games.mat", _games_in_mat)])
def test_eval_killed_while_writing_its_output_keeps_the_old_file(tmp_path, monkeypatch, option,
                                                                 name, games_in):
    out = tmp_path / name
    out.write_text("the old file\n")
    argv = ["eval", "random", "random", "--games", "2", "--quiet", option, str(out)]
    with monkeypatch.context() as m:
        _killed_while_renaming(m, name)
        assert main(argv) == 130
    assert out.read_text() == "the old file\n"
    assert main(argv) == 0
    assert games_in(out) == 2
