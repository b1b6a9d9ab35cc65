"""``evaluate(..., record=...)`` and ``bg-env eval ... --save-mat FILE``: every game played is
saved as a .mat record that replays to the evaluation's own results."""

from __future__ import annotations

import json

import pytest

from agents import load_agent
from agents.cli import main
from agents.evaluation.evaluate import evaluate
from bg_env.records import MatchRecord, RecordError, format_mat, parse_mat, read_mat


def _agents(a: str, b: str):
    agent_a, agent_b = load_agent(a), load_agent(b)
    agent_a.name, agent_b.name = a, b
    return agent_a, agent_b


def _net(record: MatchRecord) -> int:
    first, second = record.points()
    return first - second


@pytest.mark.parametrize("cube", [True, False])  # the env loop and the core loop
def test_evaluate_records_every_game_and_plays_the_same_games(cube):
    record = MatchRecord(("random:1", "pubeval"))
    stats = evaluate(*_agents("random:1", "pubeval"), games=6, seed=3, cube=cube, record=record)
    plain = evaluate(*_agents("random:1", "pubeval"), games=6, seed=3, cube=cube)
    assert stats.points == plain.points  # keeping records changes no game
    assert len(record.games) == stats.games == 6
    assert _net(record) == sum(stats.points)
    assert [g.points if g.winner == 0 else -g.points for g in record.games] == stats.points
    back = parse_mat(format_mat(record))  # every play legal on replay
    assert [(g.winner, g.points, g.outcome) for g in back.games] == [
        (g.winner, g.points, g.outcome) for g in record.games]
    if cube:  # random doubles, drops and takes at random
        assert any(a.kind == "double" for g in record.games for a in g.actions)


def test_cli_save_mat_writes_the_games_with_the_specs_as_names(tmp_path, capsys):
    mat, js = tmp_path / "games.mat", tmp_path / "stats.json"
    rc = main(["eval", "random:7", "pubeval", "--games", "6", "--cube", "--seed", "5",
               "--save-mat", str(mat), "--json", str(js), "--quiet"])
    assert rc == 0
    assert f"wrote {mat} (6 games; in GNU Backgammon: set jacoby off" in capsys.readouterr().out
    summary = json.loads(js.read_text())
    record = read_mat(mat)
    assert record.players == ("random:7", "pubeval") and record.length == 0
    assert len(record.games) == summary["games"] == 6
    assert _net(record) == round(summary["ppg"] * summary["games"])
    assert {g.outcome for g in record.games} <= {"single", "gammon", "backgammon", "drop"}
    assert sum(g.outcome == "drop" for g in record.games) == summary["drops"]


def test_cli_save_mat_with_matches_writes_one_file_per_match(tmp_path, capsys):
    mat = tmp_path / "m.mat"
    assert main(["eval", "random:1", "random:2", "--match", "3", "--games", "2",
                 "--save-mat", str(mat), "--quiet"]) == 0
    assert "m-1.mat .. " in capsys.readouterr().out
    for i in (1, 2):
        record = read_mat(tmp_path / f"m-{i}.mat")
        assert record.length == 3 and max(record.points()) >= 3


def test_cli_save_mat_refuses_rules_a_record_cannot_hold_before_playing(tmp_path, capsys):
    mat = tmp_path / "x.mat"
    rc = main(["eval", "random", "random", "--games", "2", "--variant", "nackgammon",
               "--save-mat", str(mat), "--quiet"])
    assert rc == 2 and not mat.exists()
    assert "variant='nackgammon'" in capsys.readouterr().err
    with pytest.raises(RecordError, match="jacoby"):
        evaluate(*_agents("random", "random"), games=2, cube=True, jacoby=True,
                 record=MatchRecord())
