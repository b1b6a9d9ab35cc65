"""Properties of the rules engine, over Hypothesis-drawn and seeded random positions.

Positions come from ``helpers.random_position`` (every phase: contact, several checkers
on the bar, closed boards, bear-off with checkers off, hits during bear-off, races, and
positions met in random playouts); a failing case is printed as its rendered board and
Position ID, so it can be pasted into a fixture.
"""

from __future__ import annotations

import random
import re

import pytest
from helpers import PHASES, playout_positions, pos, random_dice, random_position, show
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from bg_env.rules import (
    OFF,
    IllegalMoveError,
    InvalidNotationError,
    InvalidPositionError,
    Outcome,
    Position,
    apply_move,
    legal_plays,
    legal_plays_reference,
    outcome,
    score_points,
)

SETTINGS = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow])

dice_st = st.tuples(st.integers(1, 6), st.integers(1, 6))


@st.composite
def positions(draw, phases=PHASES):
    phase = draw(st.sampled_from(phases))
    seed = draw(st.integers(0, 2**32 - 1))
    return random_position(random.Random(seed), phase)


def results(plays) -> set[Position]:
    return {play.result for play in plays}


# ------------------------------------------------------------------ board invariants
@settings(max_examples=300, **SETTINGS)
@given(positions(), dice_st)
def test_checkers_are_conserved_and_points_never_shared(position, dice):
    for play in legal_plays(position, dice):
        assert play.result.checkers() == (15, 15), show(position, dice, play.notation)
        play.result.validate()  # raises if both sides hold one point
        assert play.start == position


@settings(max_examples=300, **SETTINGS)
@given(positions())
def test_swap_twice_is_identity(position):
    assert position.swap().swap() == position
    assert position.swap().pips() == position.pips()[::-1]


@settings(max_examples=200, **SETTINGS)
@given(positions())
def test_repr_evaluates_back(position):
    assert eval(repr(position), {"Position": Position}) == position


@settings(max_examples=300, **SETTINGS)
@given(positions())
def test_position_id_round_trips(position):
    pid = position.position_id()
    assert len(pid) == 14
    assert Position.from_position_id(pid) == position, show(position)
    assert Position.from_position_id(position.swap().position_id()) == position.swap()


@settings(max_examples=300, **SETTINGS)
@given(st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/",
               min_size=14, max_size=14))
def test_any_14_base64_characters_decode_to_a_valid_board_or_raise(text):
    try:
        position = Position.from_position_id(text)
    except InvalidPositionError:
        return
    assert sum(position.me[1:]) <= 15 and sum(position.opp[1:]) <= 15
    position.validate()
    assert Position.from_position_id(position.position_id()) == position


@pytest.mark.parametrize(
    "text",
    [
        "",  # empty
        "4HPwATDgc/ABM",  # 13 characters
        "4HPwATDgc/ABMAA",  # 15 characters
        "4HPwATDgc/ABM=",  # padding inside
        "4HPwATDgc/AB!A",  # not base64
        "4HPwATDgc-ABMA",  # URL-safe alphabet is not GNU's
        "//////////////",  # 80 checkers
        None,
        12345678901234,
    ],
)
def test_malformed_position_ids_raise(text):
    with pytest.raises(InvalidPositionError) as info:
        Position.from_position_id(text)
    assert repr(text) in str(info.value)  # the error names the input
    assert isinstance(info.value, ValueError)


def test_position_id_with_a_shared_point_raises():
    me = [0] * 26
    opp = [0] * 26
    me[1], me[OFF] = 1, 14  # the player's 1-point ...
    opp[24], opp[OFF] = 1, 14  # ... is the opponent's 24-point
    pid = Position(tuple(me), tuple(opp)).position_id()
    with pytest.raises(InvalidPositionError):
        Position.from_position_id(pid)


# ---------------------------------------------------------- the two generators agree
@settings(max_examples=120, **SETTINGS)
@given(positions(), dice_st)
def test_legal_plays_matches_the_reference(position, dice):
    fast = legal_plays(position, dice)
    if dice[0] == dice[1] and len(fast) > 100:
        return  # the brute force takes seconds here; the gnubg corpus covers these
    slow = legal_plays_reference(position, dice)
    assert len(fast) == len(results(fast)), show(position, dice, "duplicate results")
    only_fast = sorted(p.notation for p in fast if p.result not in results(slow))
    only_slow = sorted(p.notation for p in slow if p.result not in results(fast))
    assert results(fast) == results(slow), show(
        position, dice, f"only legal_plays: {only_fast}", f"only reference:   {only_slow}"
    )
    assert results(legal_plays(position, dice[::-1])) == results(fast)


def test_legal_plays_matches_the_reference_on_seeded_doubles_and_bar_entries():
    # The reference takes ~0.5 s on a double in a contact position: few of those.
    rng = random.Random(2024)
    for i in range(240):
        phase = ("bar", "closed", "bearoff", "bearoff_hit", "race", "contact")[i % 6]
        if phase == "contact" and i % 4:
            phase = "playout"
        position = random_position(rng, phase)
        dice = (rng.randint(1, 6),) * 2 if i % 2 and phase != "playout" else random_dice(rng)
        fast = results(legal_plays(position, dice))
        assert fast == results(legal_plays_reference(position, dice)), show(position, dice)


# -------------------------------------------------------------- plays are playable
@settings(max_examples=300, **SETTINGS)
@given(positions(), dice_st)
def test_actions_replayed_one_by_one_give_the_result(position, dice):
    for play in legal_plays(position, dice):
        current = position
        for action in play.actions:
            current = apply_move(current, action)
        assert current == play.result, show(position, dice, play.notation, str(play.actions))
        current = position
        for move in play.moves:
            current = apply_move(current, move)
        assert current == play.result


def some(plays, n: int = 8, seed: int = 0) -> list:
    """At most ``n`` of ``plays`` (each parse runs the generator again: keep it cheap)."""
    plays = list(plays)
    return plays if len(plays) <= n else random.Random(seed).sample(plays, n)


@settings(max_examples=200, **SETTINGS)
@given(positions(), dice_st)
def test_notation_parses_back_to_the_same_play(position, dice):
    for play in some(legal_plays(position, dice), 10):
        parsed = position.parse_play(play.notation, dice)
        assert parsed.result == play.result, show(position, dice, play.notation, parsed.notation)


# ------------------------------------------------------------- parsing tolerance
def _capitalise(text: str, rng: random.Random) -> str:
    return text.replace("bar", rng.choice(["Bar", "BAR", "bar"])).replace(
        "off", rng.choice(["Off", "OFF", "off"]))


def _spell_out_repeats(text: str, rng: random.Random) -> str:
    return re.sub(r"([^\s,]+)\((\d)\)", lambda m: " ".join([m.group(1)] * int(m.group(2))), text)


def _reorder(text: str, rng: random.Random) -> str:
    parts = text.split()
    rng.shuffle(parts)
    return rng.choice([" ", ", ", "  ", " ,"]).join(parts)


def _split_at_hits(text: str, rng: random.Random) -> str:
    # 13/7*/5 -> 13/7* 7/5 (the checker's route spelled out as two moves)
    def split(token: str) -> str:
        count = ""
        m = re.match(r"^(.*)(\(\d\))$", token)
        if m:
            token, count = m.group(1), m.group(2)
        points = token.split("/")
        if len(points) <= 2 or count:
            return token + count
        return " ".join(f"{a.rstrip('*')}/{b}" for a, b in zip(points, points[1:]))

    return " ".join(split(t) for t in text.split())


TRANSFORMS = [_capitalise, _spell_out_repeats, _split_at_hits]


@settings(max_examples=200, **SETTINGS)
@given(positions(), dice_st, st.integers(0, 2**32 - 1))
def test_parse_tolerates_case_repeats_order_and_spelled_out_routes(position, dice, seed):
    rng = random.Random(seed)
    for play in some(legal_plays(position, dice), 8, seed):
        if not play.moves:
            continue
        text = play.notation
        for transform in rng.sample(TRANSFORMS, rng.randint(1, len(TRANSFORMS))):
            text = transform(text, rng)
        if rng.random() < 0.8:
            text = _reorder(text, rng)
        if len(play.moves) < (4 if dice[0] == dice[1] else 2) and rng.random() < 0.5:
            text += ", Ø"  # a die that cannot be played
        parsed = position.parse_play(text, dice)
        assert parsed.result == play.result, show(
            position, dice, play.notation, text, parsed.notation
        )


@settings(max_examples=200, **SETTINGS)
@given(positions(), dice_st)
def test_parse_tolerates_a_missing_star(position, dice):
    plays = legal_plays(position, dice)
    hits = [p for p in plays if "*" in p.notation]
    for play in some(hits, 8):
        same_layout = [p for p in plays if p.result.me == play.result.me]
        if len(same_layout) > 1:
            continue  # hits on different routes: test_parse_missing_star_on_a_spelled_out_route
        text = play.notation.replace("*", "")
        parsed = position.parse_play(text, dice)
        assert parsed.result == play.result, show(position, dice, play.notation, text)


ROUTES = "x 7 13:2; o 6 5 20:3"  # 7/6*/4 and 7/5*/4 end on the same point, hitting different blots


def test_parse_missing_star_on_a_bare_route_is_ambiguous():
    position = pos(ROUTES)
    assert {p.notation for p in legal_plays(position, (2, 1))} >= {"7/6*/4", "7/5*/4"}
    with pytest.raises(IllegalMoveError, match="ambiguous"):
        position.parse_play("7/4", (2, 1))


@pytest.mark.parametrize("written, meant", [("7/6/4", "7/6*/4"), ("7/5/4", "7/5*/4"),
                                            ("7/6 6/4", "7/6*/4")])
def test_parse_missing_star_on_a_spelled_out_route(written, meant):
    position = pos(ROUTES)
    assert position.parse_play(written, (2, 1)).notation == meant, show(position, (2, 1))


@pytest.mark.parametrize(
    "text, dice, written, meant",
    [
        ("x bar:1 13:5 8:3 6:6; o 19:2", (6, 1), "Bar/24, 8/2", "bar/24 8/2"),
        ("x bar:1 13:5 8:3 6:6; o 19:2", (6, 1), "bar/24/18", "bar/18"),
        ("x 6 3", (5, 1), "6/Off", "6/off"),
        ("x 6 3", (5, 1), "3/2 6/1", "6/1 3/2"),
        ("x 13; o 7", (6, 2), "13/7*/5", "13/7*/5"),
        ("x 13; o 7", (6, 2), "13/7* 7/5", "13/7*/5"),
        ("x 13; o 7", (6, 2), "13/11/5", "13/5"),
        ("x 13; o 7", (6, 2), "13/5", "13/5"),
        ("x 14; o 8:2 6:2", (6, 2), "14/12, Ø", "14/12"),
        ("x 24:2 13:5 8:3 6:5; o 1:2 12:5 17:3 19:5", (5, 5), "13/8 13/8 13/8 13/8", "13/8(4)"),
        ("x 24:2 13:5 8:3 6:5; o 1:2 12:5 17:3 19:5", (5, 5), "8/3(2) 13/3", "13/3 8/3(2)"),
        ("x 24:2 13:5 8:3 6:5; o 1:2 12:5 17:3 19:5", (3, 1), "6/5 8/5", "8/5 6/5"),
        ("x 24:2 13:5 8:3 6:5; o 1:2 12:5 17:3 19:5", (3, 1), "  8/5   6/5  ", "8/5 6/5"),
        ("x bar:1 6:2; o 19:2 20:2 21:2 22:2 23:2 24:2", (4, 2), "Ø", "Ø"),
        ("x bar:1 6:2; o 19:2 20:2 21:2 22:2 23:2 24:2", (4, 2), "", "Ø"),
    ],
)
def test_parse_examples(text, dice, written, meant):
    position = pos(text)
    parsed = position.parse_play(written, dice)
    assert parsed.notation == meant, show(position, dice, written, parsed.notation)


@pytest.mark.parametrize("written", ["hello", "13-7", "8/5 6/x", "13/14", "6/6", "26/20", "8/5(x)",
                                     "off/3", "13/7//5", "/5", "8/3 bar"])
def test_malformed_notation_raises_invalid_notation(written):
    with pytest.raises(InvalidNotationError) as info:
        Position.start().parse_play(written, (3, 1))
    assert repr(written) in str(info.value)  # the error names the input
    assert isinstance(info.value, ValueError)


def test_non_string_notation_raises_invalid_notation():
    with pytest.raises(InvalidNotationError):
        Position.start().parse_play(None, (3, 1))


@pytest.mark.parametrize(
    "written",
    [
        "24/18",  # moves a checker 6 with 3-1
        "8/5",  # uses only one die when both can be played
        "5/2 4/3",  # no checker on the 5- or 4-point
        "8/5 6/5 13/10",  # three moves
        "Ø",  # refusing to play
        "24/21 24/21",  # the 3 twice on a non-double
    ],
)
def test_illegal_notation_raises_illegal_move_listing_the_legal_plays(written):
    with pytest.raises(IllegalMoveError) as info:
        Position.start().parse_play(written, (3, 1))
    message = str(info.value)
    assert repr(written) in message and isinstance(info.value, ValueError)
    for play in ("8/5 6/5", "24/20", "13/10 8/7"):
        assert play in message, message


@settings(max_examples=300, **SETTINGS)
@given(positions(("contact", "playout", "bearoff_hit")), dice_st,
       st.text(alphabet="0123456789/*()baroffBAROFFØ ,", max_size=20))
def test_parse_never_raises_anything_else(position, dice, text):
    try:
        play = position.parse_play(text, dice)
    except (InvalidNotationError, IllegalMoveError):
        return
    assert play.result in results(legal_plays(position, dice))


# ------------------------------------------------------------ seeded random playouts
def test_random_playouts_keep_every_invariant():
    rng = random.Random(7)
    visited = 0
    for _ in range(25):
        for position in playout_positions(rng):  # each step plays a random legal play
            visited += 1
            assert position.checkers() == (15, 15), show(position)
            position.validate()  # no point held by both sides
            assert position.swap().swap() == position
            assert Position.from_position_id(position.position_id()) == position, show(position)
            assert position.outcome() is None
            dice = random_dice(rng)
            assert legal_plays(position, dice), show(position, dice)  # never no action at all
    assert visited > 1000


def test_random_playouts_end_with_an_outcome():
    rng = random.Random(11)
    kinds = set()
    for _ in range(40):
        position = Position.start()
        for _turn in range(1000):
            play = rng.choice(legal_plays(position, random_dice(rng)))
            done = outcome(play.result)
            if done is not None:
                assert done.winner == 0, show(play.result)  # only the mover can finish
                kinds.add(done.kind)
                break
            position = play.result.swap()
        else:
            pytest.fail("a random game did not finish in 1000 turns")
    assert "single" in kinds


# ------------------------------------------------------------------- outcome
@pytest.mark.parametrize(
    "text, expected",
    [  # pos(): o's checkers in x's numbering; x's home board is x's 1..6, o's is x's 19..24
        ("x; o 1:2 6:3", Outcome(0, "single")),  # o has borne off 10
        ("x; o 12 13:14", Outcome(0, "gammon")),  # none off, none in x's home board
        ("x; o 19:15", Outcome(0, "gammon")),  # all in o's own home board
        ("x; o 6 13:14", Outcome(0, "backgammon")),  # one left in x's home board
        ("x; o 1:15", Outcome(0, "backgammon")),
        ("x; o bar 13:14", Outcome(0, "backgammon")),  # one on the bar
        ("x 6; o", Outcome(1, "single")),
        ("x 19:15; o", Outcome(1, "backgammon")),  # x's 19 is in o's home board
        ("x 7:15; o", Outcome(1, "gammon")),
        ("x 18:15; o", Outcome(1, "gammon")),
        ("x bar:15; o", Outcome(1, "backgammon")),
        ("x 6; o 19", None),
    ],
)
def test_outcome(text, expected):
    position = pos(text)
    assert outcome(position) == expected, show(position)
    assert position.outcome() == expected
    if expected is not None:
        flipped = outcome(position.swap())
        assert (flipped.winner, flipped.kind) == (1 - expected.winner, expected.kind)


@pytest.mark.parametrize(
    "kind, cube, options, points",
    [
        ("single", 1, {}, 1),
        ("gammon", 1, {}, 2),
        ("backgammon", 1, {}, 3),
        ("backgammon", 4, {}, 12),
        ("gammon", 1, {"jacoby": True}, 1),
        ("backgammon", 1, {"jacoby": True}, 1),
        ("gammon", 2, {"jacoby": True, "cube_turned": True}, 4),
        ("backgammon", 2, {"jacoby": True, "cube_turned": True}, 6),
        ("backgammon", 2, {"gammons": "no_backgammons"}, 4),
        ("gammon", 2, {"gammons": "no_backgammons"}, 4),
        ("gammon", 8, {"gammons": "none"}, 8),
        ("backgammon", 8, {"gammons": "none"}, 8),
        ("single", 64, {"jacoby": True, "gammons": "none"}, 64),
    ],
)
def test_score_points(kind, cube, options, points):
    assert score_points(Outcome(0, kind), cube, **options) == points


def test_score_points_rejects_an_unknown_gammon_rule():
    with pytest.raises(ValueError):
        score_points(Outcome(0, "gammon"), 1, gammons="sometimes")


@settings(max_examples=100, **SETTINGS)
@given(
    st.sampled_from(["single", "gammon", "backgammon"]),
    st.sampled_from([1, 2, 4, 8, 16, 32, 64]),
    st.booleans(),
    st.booleans(),
)
def test_scoring_options_only_ever_lower_the_points(kind, cube, jacoby, turned):
    full = score_points(Outcome(0, kind), cube)
    assert full == cube * {"single": 1, "gammon": 2, "backgammon": 3}[kind]
    capped = score_points(Outcome(0, kind), cube, gammons="no_backgammons", jacoby=jacoby,
                          cube_turned=turned)
    none = score_points(Outcome(0, kind), cube, gammons="none", jacoby=jacoby, cube_turned=turned)
    assert cube == none <= capped <= full
    assume(kind != "single")
    assert score_points(Outcome(0, kind), cube, jacoby=True, cube_turned=False) == cube
