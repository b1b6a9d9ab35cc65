"""Match-play evaluation: matches to N points between agents, and ``bg-env eval --match``."""

from __future__ import annotations

import json
import subprocess
import sys

from agents import FirstLegalAgent, RandomAgent
from agents.cli import main
from agents.evaluation.evaluate import evaluate_matches, play_match


def test_evaluate_matches_is_reproducible_and_applies_crawford_at_most_once():
    runs = [evaluate_matches(RandomAgent(1), RandomAgent(2), matches=6, length=5, seed=3)
            for _ in range(2)]
    a, b = runs
    assert a.summary() == b.summary() and a.scores == b.scores
    assert a.matches == 6 and a.wins + a.losses == 6
    assert len(a.games) == 6 and all(g >= 1 for g in a.games)
    assert all(c in (0, 1) for c in a.crawford_games) and a.total_crawford_games >= 1
    for mine, theirs in a.scores:  # exactly one side reached the length
        assert (mine >= 5) != (theirs >= 5)
    assert a.wins == sum(mine >= 5 for mine, _ in a.scores)
    lo, hi = a.win_rate_ci95
    assert 0.0 <= lo <= a.win_rate <= hi <= 1.0
    other = evaluate_matches(RandomAgent(1), RandomAgent(2), matches=6, length=5, seed=4)
    assert other.scores != a.scores  # the seed matters


def test_play_match_runs_single_move_agents_too():
    match = play_match((FirstLegalAgent(), RandomAgent(0)), length=3, seed=1)
    assert match.is_over and match.score[match.winner] >= 3
    assert match.crawford_games_played <= 1 and match.games == len(match.results)


def test_cli_eval_match_prints_match_results(tmp_path, capsys):
    out = tmp_path / "m.json"
    assert main(["eval", "random:1", "random:2", "--match", "3", "--games", "4", "--quiet",
                 "--json", str(out)]) == 0
    text = capsys.readouterr().out
    assert "4 matches to 3 points" in text and "match wins" in text and "Crawford games" in text
    summary = json.loads(out.read_text())
    assert summary["match_length"] == 3 and summary["matches"] == 4
    assert summary["wins_a"] + summary["wins_b"] == 4
    assert summary["max_crawford_games_per_match"] <= 1
    assert main(["eval", "random", "random", "--match", "0", "--games", "2", "--quiet"]) == 2


def test_cli_eval_match_from_the_shell():
    done = subprocess.run(
        [sys.executable, "-m", "agents.cli", "eval", "random", "random", "--match", "3",
         "--games", "4", "--quiet"],
        capture_output=True, text=True, timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert "random (A) vs random (B): 4 matches to 3 points" in done.stdout
    assert "games/match" in done.stdout


def test_match_evaluation_counts_cube_actions_per_side():
    from agents import load_agent
    from agents.players.cube import CubeNaive

    td = load_agent("td")
    stats = evaluate_matches(td, CubeNaive(td), matches=2, length=3, seed=2)
    assert stats.cube_b["doubles"] == 0 and stats.cube_b["drops"] == 0  # naive: never
    assert stats.cube_a["doubles"] == stats.cube_b["takes"] + stats.cube_b["drops"]
    assert stats.cube_a["doubles"] >= 1  # td doubles the trailer's way post-Crawford
    assert len(stats.final_cubes) == sum(stats.games) and stats.average_cube >= 1
    assert "cube actions" in stats.table() and "average cube" in stats.table()
    summary = stats.summary()
    assert summary["cube_a"] == stats.cube_a and summary["average_cube"] == stats.average_cube
    cubeless = evaluate_matches(td, td, matches=2, length=1, seed=2, cube=False)
    assert "cube_a" not in cubeless.summary() and "cube actions" not in cubeless.table()


def test_cli_eval_match_reports_cube_actions(tmp_path, capsys):
    out = tmp_path / "m.json"
    assert main(["eval", "random:1", "random:2", "--match", "3", "--cube", "--games", "4",
                 "--quiet", "--json", str(out)]) == 0
    text = capsys.readouterr().out
    assert "cube actions" in text and "average cube" in text
    summary = json.loads(out.read_text())
    a, b = summary["cube_a"], summary["cube_b"]
    # every double is answered by the other side: a take or a drop
    assert a["doubles"] + b["doubles"] == a["takes"] + b["takes"] + a["drops"] + b["drops"]
    assert a["doubles"] + b["doubles"] >= 1 and summary["average_cube"] >= 1
    assert main(["eval", "td", "td+naive", "--match", "3", "--cube", "--match-cube", "dead",
                 "--games", "2", "--quiet", "--json", str(out)]) == 0
    summary = json.loads(out.read_text())
    assert summary["cube_b"]["doubles"] == 0
    assert summary["cube_a"]["doubles"] == summary["cube_b"]["takes"]
    assert main(["eval", "td", "td", "--match", "3", "--match-cube", "half"]) == 2


def test_dead_match_cube_switch_reaches_the_agents_settings():
    from agents import load_agent
    from agents.evaluation.eval_command import dead_match_cube

    td = load_agent("td")
    assert td.cube_settings.live_match_cube
    dead_match_cube(td)
    assert not td.cube_settings.live_match_cube and td.cube_settings.x == 0.68
    random = RandomAgent(0)
    dead_match_cube(random)  # no cube settings: left as it is
    assert not hasattr(random, "cube_settings")
