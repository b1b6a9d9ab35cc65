"""The scripts in ``benchmarks/``: each row measures at least one game, whatever the
``--games`` (the timings themselves are not checked)."""

from __future__ import annotations

from pathlib import Path

from helpers import load_script as _load

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


def load_script(name: str):
    return _load(BENCHMARKS / f"{name}.py")


def test_game_speed_plays_a_game_in_every_row_with_few_games(monkeypatch, capsys):
    """``--games 3`` printed "plakoto 0 decisions/s": that row played ``games // 4`` games."""
    script = load_script("game_speed")
    calls = []

    def fake_self_play(games, variant="standard", whole_plays=False):
        calls.append((games, variant, whole_plays))
        return float(games)

    monkeypatch.setattr(script, "self_play", fake_self_play)
    monkeypatch.setattr(script, "match_play", lambda matches: float(matches))
    assert script.main(["--games", "3"]) == 0
    measured = calls[3:]  # after the three compile calls
    assert [(v, w) for _, v, w in measured] == [
        ("standard", False), ("plakoto", False), ("standard", True)]
    assert all(games >= 1 for games, _, _ in measured)
    assert " 0 decisions/s" not in capsys.readouterr().out


def test_game_lengths_prints_a_row_per_variant(capsys):
    script = load_script("game_lengths")
    script.main(["--games", "3", "--variants", "standard", "hypergammon1"])
    rows = capsys.readouterr().out.splitlines()
    assert rows[0].split()[:2] == ["variant", "games"]
    assert [r.split()[:2] for r in rows[1:]] == [["standard", "3"], ["hypergammon1", "3"]]
    assert all(float(r.split()[2]) > 0 for r in rows[1:])  # decisions were played
