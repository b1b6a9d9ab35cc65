"""GNU Backgammon Match IDs and eXtreme Gammon XGIDs (``bg_env.rules.match_id``).

Referees: the gnubg manual's worked Match ID example, gnubg's ``matchid.c`` (bit 66,
dice order) and ``set.c``/``positionid.c`` (how gnubg reads an XGID). gnubg-nn has no
Match ID or XGID function, so it only checks the Position IDs of decoded boards.
"""

from __future__ import annotations

import base64
import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bg_env.rules.match_id import (
    InvalidMatchIdError,
    InvalidXgidError,
    MatchState,
    from_xgid,
    to_xgid,
)
from bg_env.rules.position import InvalidPositionError, Position
from helpers import pos

MAX = 32767
START_XGID = "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10"
ODD_XGID = "XGID=aFDaA--------------a-Acbb-:1:-1:1:42:3:0:0:7:10"
ODD_BOARD = "x 1:6 2:4 4:1 21:1; o bar:1 3:1 19:1 22:3 23:2 24:2"  # ODD_XGID, in X's numbering


def _id_from_bits(bits: int) -> str:
    return base64.b64encode(bits.to_bytes(9, "little")).decode()


def _gnubg_position_id(position: Position) -> str:
    gnubg_nn = pytest.importorskip("gnubg_nn")
    return gnubg_nn.position_id(position.gnubg_board())


# ------------------------------------------------------------ documented examples
def test_manual_match_id_example_decodes():
    # gnubg manual, "A technical description of the Match ID": 2-4 in a 9-point match,
    # player 0 holds a 2-cube, player 1 has just rolled 52.
    assert base64.b64decode("QYkqASAAIAAA") == bytes.fromhex("41892A012000200000")
    state = MatchState.from_match_id("QYkqASAAIAAA")
    assert (state.match_length, state.score) == (9, (2, 4))
    assert (state.cube_value, state.cube_owner) == (2, 0)
    assert (state.player_on_roll, state.turn, state.dice) == (1, 1, (5, 2))
    assert (state.game_state, state.crawford, state.double_offered) == (1, False, False)
    assert state.resigned == 0
    assert state.jacoby  # bit 66 clear: gnubg >= 1.0 reads "Jacoby on"


def test_manual_match_id_example_encodes_with_the_higher_die_first():
    state = MatchState(cube_value=2, cube_owner=0, player_on_roll=1, turn=1, dice=(2, 5),
                       match_length=9, score=(2, 4), jacoby=True)
    assert state.match_id() == "QYkqASAAIAAA"


def test_cube_value_is_stored_as_its_logarithm():
    # manual: "a 8-cube is encoded as 0011 binary (or 3)"
    key = base64.b64decode(MatchState(cube_value=8, cube_owner=1).match_id())
    assert key[0] & 0x0F == 3


def test_centred_money_match_id():
    # cAgAAAAAAAAA, read by the manual's layout: money game, 1-cube centred,
    # player 1 on roll and to decide, no game started yet.
    state = MatchState.from_match_id("cAgAAAAAAAAA")
    assert state == MatchState(cube_value=1, cube_owner=-1, player_on_roll=1, turn=1,
                               game_state=0, match_length=0, score=(0, 0), jacoby=True)
    assert state.match_id() == "cAgAAAAAAAAA"


def test_jacoby_rule_sits_inverted_in_bit_66():
    # gnubg matchid.c: SetBits(auchKey, 66, 1, !fJacoby); its IDs without Jacoby end in E.
    assert MatchState(jacoby=True).match_id().endswith("A")
    assert MatchState(jacoby=False).match_id().endswith("E")
    state = MatchState.from_match_id("8IhuACAACAAE")
    assert not state.jacoby
    assert (state.match_length, state.score, state.crawford) == (3, (2, 1), True)
    assert state.dice == (5, 3)
    assert state.match_id() == "8IhuACAACAAE"


def test_xgid_opening_position():
    position, state = from_xgid(START_XGID)
    assert position == Position.start()
    assert position.position_id() == "4HPwATDgc/ABMA" == _gnubg_position_id(position)
    assert state == MatchState(player_on_roll=0, turn=0, dice=(5, 2))
    assert to_xgid(position, state) == START_XGID
    assert from_xgid(START_XGID.removeprefix("XGID=")) == (position, state)


def test_xgid_board_is_read_from_x_side():
    # index 0 O's bar, 1..24 X's points, 25 X's bar (gnubg PositionFromXG)
    position, state = from_xgid(ODD_XGID)
    assert position == pos(ODD_BOARD)
    assert (position.me[0], position.opp[0]) == (3, 5)
    assert position.position_id() == _gnubg_position_id(position)
    assert state == MatchState(cube_value=2, cube_owner=1, player_on_roll=0, turn=0, dice=(4, 2),
                               match_length=7, score=(3, 0))
    assert to_xgid(position, state) == ODD_XGID


def test_xgid_with_o_on_roll_gives_the_board_from_o_side():
    xgid = ODD_XGID.replace(":1:42:", ":-1:42:")
    position, state = from_xgid(xgid)
    assert position == pos(ODD_BOARD).swap()
    assert position.position_id() == _gnubg_position_id(position)
    assert (state.player_on_roll, state.turn, state.cube_owner, state.score) == (1, 1, 1, (3, 0))
    assert to_xgid(position, state) == xgid


def test_xgid_double_offered_waits_on_the_other_player():
    position, state = from_xgid("XGID=-b----E-C---eE---c-e----B-:1:-1:-1:D:0:0:0:0:10")
    assert state.double_offered and state.dice == (0, 0)
    assert (state.player_on_roll, state.turn) == (1, 0)  # O doubled, X answers
    assert (state.cube_value, state.cube_owner) == (2, 1)  # the cube before the double
    assert to_xgid(position, state).endswith(":1:-1:-1:D:0:0:0:0:10")


@pytest.mark.parametrize(
    "tail, crawford, jacoby, written",
    [("0:0:0:0:10", False, False, "0"), ("0:0:1:0:10", False, True, "1"),
     ("0:0:3:0:10", False, True, "1"),  # beavers allowed: read past
     ("4:6:1:7:10", True, False, "1"), ("4:6:0:7:10", False, False, "0")],
)
def test_xgid_rule_flags(tail, crawford, jacoby, written):
    position, state = from_xgid(f"XGID=-b----E-C---eE---c-e----B-:0:0:1:00:{tail}")
    assert (state.crawford, state.jacoby) == (crawford, jacoby)
    assert to_xgid(position, state).split(":")[7] == written


# ------------------------------------------------------------------ round trips
@st.composite
def match_states(draw) -> MatchState:
    length = draw(st.one_of(st.just(0), st.integers(1, 25), st.integers(1, MAX)))
    top = length or MAX
    dice = draw(st.one_of(st.just((0, 0)), st.tuples(st.integers(1, 6), st.integers(1, 6))))
    return MatchState(
        cube_value=1 << draw(st.integers(0, 15)), cube_owner=draw(st.sampled_from((-1, 0, 1))),
        player_on_roll=draw(st.integers(0, 1)), crawford=bool(length) and draw(st.booleans()),
        game_state=draw(st.integers(0, 4)), turn=draw(st.integers(0, 1)),
        double_offered=draw(st.booleans()), resigned=draw(st.integers(0, 3)), dice=dice,
        match_length=length, score=(draw(st.integers(0, top)), draw(st.integers(0, top))),
        jacoby=draw(st.booleans()),
    )


@st.composite
def xgid_states(draw) -> MatchState:
    """States an XGID holds: a game in play, no resignation, no Jacoby flag in a match."""
    s, doubled = draw(match_states()), draw(st.booleans())
    return dataclasses.replace(
        s, game_state=1, resigned=0, double_offered=doubled,
        dice=(0, 0) if doubled else s.dice,
        turn=1 - s.player_on_roll if doubled else s.player_on_roll,
        jacoby=s.jacoby and not s.match_length,
    )


@st.composite
def positions(draw) -> Position:
    """15 checkers a side anywhere (off, points, bar), never two sides on one point."""
    me = [0] * 26
    for slot in draw(st.lists(st.integers(0, 25), min_size=15, max_size=15)):
        me[slot] += 1
    free = [q for q in range(26) if q in (0, 25) or not me[25 - q]]
    opp = [0] * 26
    for slot in draw(st.lists(st.sampled_from(free), min_size=15, max_size=15)):
        opp[slot] += 1
    return Position(tuple(me), tuple(opp))


@given(match_states())
def test_match_id_round_trips(state):
    match_id = state.match_id()
    assert len(match_id) == 12
    decoded = MatchState.from_match_id(match_id)
    assert decoded == dataclasses.replace(state, dice=tuple(sorted(state.dice, reverse=True)))
    assert decoded.match_id() == match_id


@settings(max_examples=300)
@given(positions(), xgid_states())
def test_xgid_round_trips(position, state):
    xgid = to_xgid(position, state)
    decoded_position, decoded_state = from_xgid(xgid)
    assert (decoded_position, decoded_state) == (position, state)
    assert decoded_position.position_id() == position.position_id()
    assert to_xgid(decoded_position, decoded_state) == xgid


# ---------------------------------------------------------------------- refusals
def _bits(**fields: int) -> int:
    starts = {"owner": 4, "crawford": 7, "state": 8, "die1": 15, "die2": 18, "length": 21,
              "score0": 36}
    return sum(v << starts[k] for k, v in fields.items())


@pytest.mark.parametrize(
    "bad, expected",
    [("QYkqASAAIAA", "12 base64"), ("QYkqASAAIAA!", "12 base64"), ("QYkqASAAIAAAA", "12 base64"),
     (_id_from_bits(_bits(die1=7, die2=1)), "dice"), (_id_from_bits(_bits(die1=3)), "dice"),
     (_id_from_bits(_bits(state=5)), "game state"), (_id_from_bits(_bits(owner=2)), "cube owner"),
     (_id_from_bits(_bits(crawford=1)), "Crawford"),
     (_id_from_bits(_bits(length=5, score0=6)), "exceeds the match length"),
     (_id_from_bits(1 << 67), "past bit 66")],
)
def test_malformed_match_id_is_refused_by_name(bad, expected):
    with pytest.raises(InvalidMatchIdError, match=expected) as info:
        MatchState.from_match_id(bad)
    assert repr(bad) in str(info.value)


def test_match_id_that_is_not_a_string_is_refused():
    with pytest.raises(InvalidMatchIdError, match="12 base64"):
        MatchState.from_match_id(None)


@pytest.mark.parametrize(
    "fields",
    [dict(cube_value=3), dict(cube_value=1 << 16), dict(cube_owner=2), dict(player_on_roll=2),
     dict(game_state=5), dict(resigned=4), dict(dice=(7, 1)), dict(dice=(0, 3)),
     dict(match_length=MAX + 1), dict(score=(-1, 0)), dict(crawford=True)],
)
def test_invalid_match_state_is_refused(fields):
    with pytest.raises(ValueError, match="invalid match state"):
        MatchState(**fields)


@pytest.mark.parametrize(
    "bad, expected",
    [("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0", "10 fields"),
     ("XGID=-b----E-C---eE---c-e----B:0:0:1:52:0:0:0:0:10", "26 characters"),
     ("XGID=-b----E-C---eE---c-e----Q-:0:0:1:52:0:0:0:0:10", "26 characters"),
     ("XGID=Ab----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10", "O's bar"),
     ("XGID=-b----E-C---eE---c-e----Bb:0:0:1:52:0:0:0:0:10", "X's bar"),
     ("XGID=-b----E-C---eE---c-e----P-:0:0:1:52:0:0:0:0:10", "over 15"),
     ("XGID=-b----E-C---eE---c-e----B-:x:0:1:52:0:0:0:0:10", "integers"),
     ("XGID=-b----E-C---eE---c-e----B-:16:0:1:52:0:0:0:0:10", "cube exponent"),
     ("XGID=-b----E-C---eE---c-e----B-:0:2:1:52:0:0:0:0:10", "cube position"),
     ("XGID=-b----E-C---eE---c-e----B-:0:0:0:52:0:0:0:0:10", "turn"),
     ("XGID=-b----E-C---eE---c-e----B-:1:1:1:B:0:0:0:0:10", "beaver"),
     ("XGID=-b----E-C---eE---c-e----B-:0:0:1:72:0:0:0:0:10", "dice"),
     ("XGID=-b----E-C---eE---c-e----B-:0:0:1:05:0:0:0:0:10", "dice"),
     ("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:2:7:10", "rule flags"),
     ("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:8:0:0:7:10", "exceeds the match length")],
)
def test_malformed_xgid_is_refused_by_name(bad, expected):
    with pytest.raises(InvalidXgidError, match=expected) as info:
        from_xgid(bad)
    assert repr(bad) in str(info.value)


@pytest.mark.parametrize(
    "state, expected",
    [(MatchState(game_state=2), "game state"), (MatchState(resigned=1, turn=1), "resignation"),
     (MatchState(turn=1), "not on roll"),
     (MatchState(double_offered=True, turn=1, dice=(3, 1)), "double")],
)
def test_state_an_xgid_cannot_hold_is_refused(state, expected):
    with pytest.raises(InvalidXgidError, match=expected):
        to_xgid(Position.start(), state)


def test_board_with_a_shared_point_is_refused():
    shared = Position(Position.start().me, tuple(int(i == 19) for i in range(26)))  # O on my 6
    with pytest.raises(InvalidPositionError):
        to_xgid(shared, MatchState())


# ------------------------------------------------------------ Position IDs and boards
_B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"


def test_position_id_with_stray_low_bits_is_refused():
    # the 14th character holds bits 78-79 of the board and 4 unused low bits: only the
    # canonical character names the board; the 15 others used to decode to the same one
    start = "4HPwATDgc/ABMA"
    assert Position.from_position_id(start) == Position.start()
    last = _B64.index(start[-1])
    stray = [start[:-1] + _B64[last | low] for low in range(1, 16)]
    for bad in stray:
        with pytest.raises(InvalidPositionError, match="unused low bits") as info:
            Position.from_position_id(bad)
        assert repr(bad) in str(info.value)


def test_position_id_with_data_in_the_last_character_still_decodes():
    # a board whose last two bits are used: the last character differs from 'A'
    full = Position((0,) * 25 + (15,), (0,) * 25 + (15,))  # both sides' 15 on the bar
    pid = full.position_id()
    assert Position.from_position_id(pid, validate=False) == full


@pytest.mark.parametrize("count", [16, 25])
def test_position_with_more_than_15_checkers_a_side_is_refused(count):
    too_many = (count - 2, 2) + (0,) * 24  # count checkers: borne off and on the 1-point
    with pytest.raises(InvalidPositionError, match=f"me has {count} checkers") as info:
        Position(too_many, Position.start().opp)
    assert "more than 15" in str(info.value)
    with pytest.raises(InvalidPositionError, match=f"opp has {count} checkers"):
        Position(Position.start().me, too_many)
    with pytest.raises(InvalidPositionError, match="more than 15"):
        Position.start(checkers=count)


def test_position_with_15_or_fewer_checkers_a_side_is_accepted():
    assert sum(Position.start(checkers=15).me) == 15
    assert Position.start({24: 2, 23: 1}, checkers=3).checkers() == (3, 3)  # hypergammon
