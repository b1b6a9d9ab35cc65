"""GNU Backgammon's cube verdicts (:mod:`agents.evaluation.gnubg_cube`): gnubg's ``hint``
text read into verdicts (fixtures: its answers, verbatim), and, with the optional
``gnubg`` package (the ``cube-reference`` extra), its verdicts on known positions."""

from __future__ import annotations

import pytest

from agents.evaluation.gnubg_cube import (
    KINDS,
    OPTIONAL,
    GnubgCube,
    kind_of,
    parse_cube_analysis,
)
from bg_env.rules.position import Position

DOUBLE_TAKE = ("\nCube analysis\n0-ply cubeless equity +0.589\n"
               "  0.728 0.175 0.004 - 0.272 0.045 0.001\nCubeful equities:\n"
               "1. Double, take        +0.973\n2. Double, pass        +1.000  (+0.027)\n"
               "3. No double           +0.855  (-0.118)\nProper cube action: Double, take\n\n")
TOO_GOOD_OWNED = ("\nCube analysis\n0-ply cubeless equity +0.971\n"
                  "  0.830 0.338 0.003 - 0.170 0.029 0.000\nCubeful equities:\n"
                  "1. No double           +1.125\n2. Double, take        +1.813  (+0.687)\n"
                  "3. Double, pass        +1.000  (-0.125)\n"
                  "Proper cube action: Too good to redouble, pass (15.4%)\n\n")
NO_DOUBLE_MATCH = ("\nCube analysis\n0-ply cubeless equity +0.116 (Money: +0.068)\n"
                   "  0.521 0.154 0.008 - 0.479 0.130 0.007\nCubeful equities:\n"
                   "1. No double           -0.005\n2. Double, pass        +1.000  (+1.005)\n"
                   "3. Double, take        -0.617  (-0.612)\n"
                   "Proper cube action: No double, take (37.9%)\n\n")

CERTAIN_WIN = ("\nCube analysis\n0-ply cubeless equity +1.000\n"
               "  1.000 0.000 0.000 - -0.000 0.000 0.000\nCubeful equities:\n"
               "1. Double, pass        +1.000\n2. Double, take        +2.000  (+1.000)\n"
               "3. No double           +1.000  (-0.000)\nProper cube action: Double, pass\n\n")

# td self-play positions (player on roll's view) and gnubg 0-ply's verdicts on them
KNOWN = {"hmfwATDgc/ABMA": "no double", "zD3gAEamnYlDAA": "double, take",
         "zD3gAEXGzsFJAA": "double, pass", "8m7AA0Butg0wAA": "too good"}


@pytest.mark.parametrize("text, kind, action, equities, win, doubles, takes", [
    (DOUBLE_TAKE, "double, take", "Double, take", (0.855, 0.973, 1.0), 0.728, True, True),
    (TOO_GOOD_OWNED, "too good", "Too good to redouble, pass", (1.125, 1.813, 1.0), 0.830,
     False, False),
    (NO_DOUBLE_MATCH, "no double", "No double, take", (-0.005, -0.617, 1.0), 0.521, False,
     True),
    (CERTAIN_WIN, "double, pass", "Double, pass", (1.0, 2.0, 1.0), 1.0, True, False),
])
def test_hint_text_reads_as_a_verdict(text, kind, action, equities, win, doubles, takes):
    v = parse_cube_analysis(text)
    assert (v.kind, v.action) == (kind, action)
    assert (v.no_double, v.double_take, v.double_pass) == equities
    assert v.win == win and v.doubles is doubles and v.takes is takes


def test_every_proper_action_has_a_kind():
    assert {kind_of(a) for a in ("No double, take", "No redouble, take", "Double, take",
                                 "Redouble, take", "Double, pass", "Redouble, pass",
                                 "Too good to double, pass", "Too good to redouble, take")
            } == set(KINDS)
    assert kind_of("Never redouble, take (dead cube)") == "no double"
    assert kind_of("Optional double, pass") == kind_of("Optional redouble, take") == OPTIONAL
    with pytest.raises(ValueError, match="'Double, beaver'"):
        kind_of("Double, beaver")


def test_text_without_an_analysis_is_named():
    with pytest.raises(ValueError, match="missing no double, double, take, double, pass, "
                                         "the proper cube action, the probabilities"):
        parse_cube_analysis("You must set up a board first.")
    with pytest.raises(ValueError, match=r"missing the proper cube action\)"):
        parse_cube_analysis(DOUBLE_TAKE.replace("Proper cube action", "Cube action"))


@pytest.fixture(scope="module")
def gnubg_cube():
    pytest.importorskip("gnubg")
    return GnubgCube()


@pytest.mark.parametrize("position_id, kind", KNOWN.items())
def test_gnubg_verdicts_on_known_positions(gnubg_cube, position_id, kind):
    pos = Position.from_position_id(position_id)
    centred = gnubg_cube.verdict(pos)
    assert centred.kind == kind and centred.double_pass == 1.0
    assert "redouble" not in centred.action.lower()
    owned = gnubg_cube.verdict(pos, cube_value=2, cube_owner=0)
    assert "redouble" in owned.action.lower() or owned.kind == "no double"
    assert owned.no_double >= centred.no_double - 1e-9  # owning the cube is worth more


def test_gnubg_match_verdict_and_bad_cubes(gnubg_cube):
    pos = Position.start()
    money, match = gnubg_cube.verdict(pos), gnubg_cube.verdict(pos, match_length=5,
                                                                score=(2, 0))
    assert money.kind == match.kind == "no double"
    assert money.no_double != match.no_double  # the score changes the equities
    with pytest.raises(ValueError, match="may not double"):
        gnubg_cube.verdict(pos, cube_value=2, cube_owner=1)
    with pytest.raises(ValueError, match="plies=-1"):
        GnubgCube(plies=-1)
