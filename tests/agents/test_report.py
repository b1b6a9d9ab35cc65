"""The training report tells the truth: each row's own evaluation size, whether the
evaluations can show a change, where the run came from, and the commands to go on."""

from __future__ import annotations

import shlex

import pytest

from agents.cli import build_parser
from agents.training.report import next_commands, provenance, trend, write_report


def row(games, ppg, ci, n, seconds=60.0):
    return {"games": games, "seconds": seconds,
            "pubeval": {"games": n, "win_rate": 0.5, "ppg": ppg, "ppg_ci95": ci}}


def test_each_row_says_how_many_games_it_played(tmp_path):
    config = {"algo": "td", "run_dir": str(tmp_path), "games": 8000}
    history = [row(4000, -0.40, 0.28, 100), row(8000, 0.05, 0.14, 400, seconds=300)]
    text = open(write_report(str(tmp_path), "TD-Gammon", config, history)).read()
    assert "| 4000 | 1.0 | 100 | 50.0 | -0.400 +- 0.280 |" in text
    assert "| 8000 | 5.0 | 400 | 50.0 | +0.050 +- 0.140 |" in text
    assert "Games per evaluation" not in text  # one number for rows of different sizes
    assert "8,000 training games finished, 5.0 minutes" in text
    assert "bars are 95% confidence" in text


def test_trend_says_when_the_games_are_too_few():
    noisy = [row(1, -0.10, 0.28, 100)["pubeval"], row(2, 0.10, 0.28, 100)["pubeval"]]
    text = trend([{"pubeval": s} for s in noisy], "pubeval")
    assert "too few games to tell" in text and "+0.200" in text


def test_trend_says_when_the_agent_got_better_or_worse():
    better = [{"pubeval": row(1, -0.60, 0.10, 400)["pubeval"]},
              {"pubeval": row(2, 0.10, 0.10, 400)["pubeval"]}]
    assert trend(better, "pubeval").endswith("the agent got better.")
    assert trend(better[::-1], "pubeval").endswith("the agent got worse.")
    assert "one evaluation" in trend(better[:1], "pubeval")


@pytest.mark.parametrize("algo, spec", [("td", "td:runs/x/model.pt"),
                                        ("td_distill", "td:runs/x/model.pt"),
                                        ("ppo", "ppo:runs/x/model.zip")])
def test_next_commands_name_the_model_just_trained_and_parse(algo, spec):
    lines = next_commands({"algo": algo, "run_dir": "runs/x"})
    assert lines[0].startswith(f"bg-env eval {spec} pubeval")
    length = {"td": "games", "td_distill": "rounds", "ppo": "total_steps"}[algo]
    assert f"--set {length}=..." in lines[-1]  # the setting that makes that run longer
    parser = build_parser()
    for line in lines:
        argv = shlex.split(line, comments=True)
        assert argv[0] == "bg-env"
        parser.parse_args(argv[1:])  # every command is one the CLI accepts


def test_provenance_names_the_commit_and_versions():
    info = provenance()
    assert info["commit"] and info["python"] and "numpy" in info and "bg_env" in info


def test_provenance_outside_a_checkout(monkeypatch, tmp_path):
    import agents.training.report as report

    monkeypatch.setattr(report, "__file__", str(tmp_path / "report.py"))
    assert report._commit() == "not a git checkout"


@pytest.mark.parametrize("algo, last, length, done", [
    ("td", {"games": 8000}, {"games": 8000}, "finished"),
    ("td", {"games": 4000}, {"games": 8000}, "so far"),
    ("ppo", {"games": 900, "steps": 2048}, {"total_steps": 2048}, "finished"),
    ("ppo", {"games": 900, "steps": 1024}, {"total_steps": 2048}, "so far"),
    ("td_distill", {"games": 400, "round": 2}, {"rounds": 2, "games": 200}, "finished"),
    ("td_distill", {"games": 200, "round": 1}, {"rounds": 2, "games": 200}, "so far"),
])
def test_the_summary_says_finished_by_each_kind_of_runs_own_length(tmp_path, algo, last,
                                                                   length, done):
    config = {"algo": algo, "run_dir": str(tmp_path), **length}
    entry = {**last, "seconds": 60.0,
             "pubeval": {"games": 100, "win_rate": 0.5, "ppg": 0.0, "ppg_ci95": 0.2}}
    text = open(write_report(str(tmp_path), "T", config, [entry])).read()
    assert f"{last['games']:,} training games {done}," in text
