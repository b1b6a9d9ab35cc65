"""The scripts in ``benchmarks/``: each row measures at least one game, whatever the
``--games`` (the timings themselves are not checked)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
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


def test_cube_agreement_scores_each_class_against_the_verdicts():
    """A reference that calls every position by its pip lead, and an agent that always
    doubles and always takes: it agrees on exactly the double classes and the take ones."""
    script = load_script("cube_agreement")
    from agents.evaluation.gnubg_cube import CubeVerdict
    from bg_env.actions import DOUBLE, ROLL, TAKE
    from bg_env.rules.position import Position

    actions = {"double, take": "Double, take", "double, pass": "Double, pass",
               "no double": "No double, take", "too good": "Too good to double, pass"}

    class Reference:
        def verdict(self, pos, value, owner, **match):
            mine, theirs = pos.pips()
            lead = theirs - mine
            kind = script.KINDS[min(max(lead // 10, 0), 3)]
            return CubeVerdict(kind, actions[kind], 0.0, 0.0, 1.0, 0.6)

    class DoubleTake:
        def cube_action(self, view, legal):
            return DOUBLE if DOUBLE in legal else TAKE if TAKE in legal else ROLL

    positions = [Position.start()] + [Position.from_position_id(p) for p in (
        "hmfwATDgc/ABMA", "zD3gAEamnYlDAA", "zD3gAEXGzsFJAA", "8m7AA0Butg0wAA")]
    money = script.contexts(["centred"], [])["money, cube centred"]
    chosen, available = script.balanced_set(Reference(), positions, money, 5,
                                            np.random.default_rng(0))
    assert sum(available.values()) == len(chosen) == len(positions)
    res = script.score(DoubleTake(), chosen, money)
    doubles = sum(v.doubles for v, _ in chosen) / len(chosen)
    takes = sum(v.takes for v, _ in chosen) / len(chosen)
    assert (res["double_agreement"], res["take_agreement"]) == (doubles, takes)
    assert 0 < doubles < 1 and 0 < takes < 1
    verdict, pos = chosen[0]
    entry = script.corpus_entry("money, cube centred", money, verdict, pos)
    assert entry["position_id"] == pos.position_id() and entry["kind"] == verdict.kind
    assert (entry["cube"], entry["match"], entry["win"]) == ([1, -1], None, 0.6)


def test_cube_agreement_reads_match_scores_and_names_bad_ones():
    script = load_script("cube_agreement")
    found = script.contexts(["owned"], ["7:4-2", "5:3-4"])
    assert found == {"money, cube owned": {"cube": (2, 0), "match": None},
                     "7-point match at 4-2": {"cube": (1, -1), "match": (7, (4, 2))},
                     "5-point match at 3-4": {"cube": (1, -1), "match": (5, (3, 4))}}
    for bad, words in (("7-4-2", "'7-4-2' is not LENGTH:ROLLER-OTHER"),
                       ("5:5-1", "'5:5-1': the match is over"), ("x:1-2", "'x:1-2'")):
        with pytest.raises(ValueError, match=words):
            script.contexts([], [bad])
    with pytest.raises(ValueError, match="unknown 'middle'"):
        script.contexts(["middle"], [])


def test_draughts_lengths_prints_a_row_per_variant(capsys):
    out = load_script("draughts_lengths").main(["--games", "3", "--variants", "english",
                                                 "turkish"])
    rows = capsys.readouterr().out.splitlines()
    assert [r.split()[:2] for r in rows[1:]] == [["english", "3"], ["turkish", "3"]]
    for stats in out.values():
        assert 0 < stats["moves_mean"] <= stats["moves_max"] <= stats["decisions_max"]
        assert sum(stats["ends"].values()) == 3


def test_cube_agreement_measures_probability_errors():
    script = load_script("cube_agreement")
    from bg_env.rules.position import Position

    class Fixed:
        def __init__(self, probs):
            self.probs = probs

        def probabilities(self, pos):
            return self.probs

    positions = [Position.start()] * 3
    errors = script.probability_errors(Fixed([0.6, 0.2, 0.01, 0.1, 0.0]),
                                       Fixed([0.5, 0.1, 0.01, 0.15, 0.0]), positions)
    assert errors == pytest.approx({"win": 0.1, "win gammon": 0.1, "win backgammon": 0.0,
                                    "lose gammon": 0.05, "lose backgammon": 0.0})
    assert script.probability_errors(object(), Fixed([0.5] * 5), positions) is None
