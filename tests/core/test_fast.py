"""The numba fast path (``bg_env.kernels.fast``) against the pure-Python rules engine.

The truth is :func:`bg_env.rules.moves.legal_plays_reference` (brute force) and
:func:`~bg_env.rules.moves.legal_plays`, which is tested against it; the fast path must give
the same plays (``legal_plays_fast``: the very same ``Play`` objects, in the same order),
and the same masks as :func:`~bg_env.rules.moves.legal_next_moves` along random partial
plays. Random positions come from ``tests/helpers.py`` (every phase: contact, checkers on
the bar, closed boards, bear-off with and without contact, races, playouts) with all 21
rolls; failures print the Position ID, the dice and the board.
"""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest
from helpers import PHASES, pos, random_position, show
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytest.importorskip("numba")

from bg_env.rules import (  # noqa: E402
    Move,
    Position,
    apply_move,
    dice_to_play,
    legal_next_moves,
    legal_plays,
    legal_plays_reference,
    max_dice_usable,
    single_moves,
)
from bg_env.kernels.fast import (  # noqa: E402
    fast_legal_plays,
    fast_legal_plays_into,
    legal_plays_fast,
)
from bg_env.kernels.masks import (  # noqa: E402
    N_MOVE_ACTIONS,
    next_move_mask,
    row_mask_into,
    row_turn_plan,
    turn_plan,
)

ROLLS = [(a, b) for a in range(1, 7) for b in range(a, 7)]  # the 21 rolls
SEED = 20240611


def arrays(position: Position) -> tuple[np.ndarray, np.ndarray]:
    return np.array(position.me, np.int8), np.array(position.opp, np.int8)


def kernel_plays(position: Position, dice: tuple[int, int]):
    """``fast_legal_plays`` as ``[(result, actions)]`` and the dice used."""
    rm, ro, actions, n_moves = fast_legal_plays(*arrays(position), dice[0], dice[1])
    rows = [
        (
            Position(tuple(rm[i].tolist()), tuple(ro[i].tolist())),
            tuple(a for a in actions[i].tolist() if a >= 0),
        )
        for i in range(len(rm))
    ]
    return rows, n_moves


def check_plays(position: Position, dice: tuple[int, int], truth=None) -> None:
    """Both fast entry points agree with ``legal_plays`` (and with ``truth`` if given)."""
    expected = legal_plays(position, dice)
    got = legal_plays_fast(position, dice)
    where = f"{position.position_id()} {dice}"
    assert [(p.moves, p.result) for p in got] == [(p.moves, p.result) for p in expected], show(
        position, dice, where, f"legal_plays      {expected}", f"legal_plays_fast {got}"
    )
    assert all(p.start is position for p in got)
    rows, n_moves = kernel_plays(position, dice)
    assert rows == [(p.result, p.actions) for p in expected], show(
        position, dice, where, "fast_legal_plays"
    )
    assert n_moves == len(expected[0].moves), show(position, dice, where, "n_moves")
    if truth is not None:
        assert {p.result for p in got} == {p.result for p in truth}, show(
            position, dice, where, "reference"
        )


# ------------------------------------------------------------------ known positions
@pytest.mark.parametrize(
    "text, dice, expected",
    [
        ("x 24:2 13:5 8:3 6:5; o 1:2 12:5 17:3 19:5", (3, 1), 16),  # the opening 3-1
        ("x 13; o 7", (6, 2), 2),  # 13/7*/5 and 13/5: a hit on the way is another play
        ("x 14; o 6:2", (6, 2), 1),  # either die but not both: the larger
        ("x 14; o 8:2 6:2", (6, 2), 1),  # only the smaller die can be played
        ("x 14 3:2; o 8:2", (6, 2), 1),  # only the 2 first plays both dice
        ("x bar:2 13:5 8:3 6:5; o 19:2 20:2 21:2 22:2 23:2 24:2", (6, 6), 1),  # closed out
        ("x bar:3 6:12; o 19:2 20:2 23:2", (4, 4), 2),  # three enter, the fourth 4 moves on
        ("x 5:2 4:1 1:1; o 24:2", (6, 5), 1),  # the larger die bears off from the highest point
        ("x 5:2 4:1 1:1; o 24:2", (6, 3), 2),  # 5/off 4/1 or 5/2 5/off
        ("x 8 3:2; o bar:1", (6, 4), 2),  # 8/2 3/off or 8/off: bear off once all are home
        ("x 2; o 1", (2, 1), 1),  # 2/1*/off uses both dice, so 2/off alone is not legal
        # only the 6 first moves one checker by both dice (12 is blocked): the second order
        ("x 13 8:2; o 12:2", (1, 6), 4),
        ("x 13 8:2; o 7", (1, 6), 7),  # 13/12/6 and 13/7*/6: the same board, another hit
        ("x 13 12 8:2; o 7", (1, 6), 11),  # 12 held: 13/12/6 is 13/12 12/6, met already
    ],
)
def test_known_positions(text, dice, expected):
    position = pos(text)
    check_plays(position, dice, legal_plays_reference(position, dice))
    check_plays(position, dice[::-1])
    assert len(legal_plays_fast(position, dice)) == expected, show(position, dice)


def test_no_legal_move_gives_one_row_without_actions():
    position = pos("x bar:2 13:5 8:3 6:5; o 19:2 20:2 21:2 22:2 23:2 24:2")
    me, opp = arrays(position)
    rm, ro, actions, n_moves = fast_legal_plays(me, opp, 5, 3)
    assert n_moves == 0 and actions.tolist() == [[-1, -1, -1, -1]]
    assert (rm[0] == me).all() and (ro[0] == opp).all()
    assert [p.moves for p in legal_plays_fast(position, (5, 3))] == [()]


def test_hit_flags_and_shared_moves():
    position = pos("x 13; o 7")
    hit = next(p for p in legal_plays_fast(position, (6, 2)) if p.result.opp[25])
    assert hit.moves == (Move(13, 6, True), Move(7, 2, False)) and hit.notation == "13/7*/5"


def test_kernels_accept_int64_and_leave_inputs_alone():
    position = Position.start()
    me, opp = np.array(position.me, np.int64), np.array(position.opp, np.int64)
    before = me.copy(), opp.copy()
    rm, ro, actions, n_moves = fast_legal_plays(me, opp, 6, 6)
    assert (me == before[0]).all() and (opp == before[1]).all()
    assert len(rm) == len(legal_plays(position, (6, 6))) and n_moves == 4
    assert turn_plan(me, opp, 6, 6) == (4, 0)
    mask = next_move_mask(*arrays(position), np.array([6, 6, 6, 6], np.int64), 4, 0)
    assert mask.sum() == 3  # 24/18, 13/7 and 8/2


def test_into_buffers_match_and_report_the_rows_needed():
    position = Position.start()
    me, opp = arrays(position)
    rm, ro, actions, n_moves = fast_legal_plays(me, opp, 1, 1)
    out_me, out_opp = np.zeros((64, 26), np.int8), np.zeros((64, 26), np.int8)
    out_actions = np.zeros((64, 4), np.int16)
    k, used = fast_legal_plays_into(me, opp, 1, 1, out_me, out_opp, out_actions)
    assert (k, used) == (len(rm), n_moves)
    assert (out_me[:k] == rm).all() and (out_opp[:k] == ro).all()
    assert (out_actions[:k] == actions).all()
    small = np.zeros((2, 26), np.int8)
    assert fast_legal_plays_into(me, opp, 1, 1, small, small, out_actions)[0] == len(rm)
    assert not small.any()


def test_bad_input_raises():
    with pytest.raises(ValueError):
        legal_plays_fast(Position.start(), (0, 3))
    me = np.zeros(26, np.int8)
    me[6] = 16
    with pytest.raises(ValueError):
        fast_legal_plays(me, np.zeros(26, np.int8), 3, 1)


def test_many_plays_grow_the_buffers():
    # Ones and twos spread out: 1-1 has several hundred distinct plays.
    position = pos("x 24 23 22 21 20 19 18 17 16 15 14 13 12 11 10; o 1:15")
    check_plays(position, (1, 1))
    assert len(legal_plays_fast(position, (1, 1))) > 512
    check_plays(position, (2, 1))  # two different dice: more than the first 64 rows too
    assert len(legal_plays_fast(position, (2, 1))) > 64


# ------------------------------------------------------------------ random sweeps
def random_positions(n: int, seed: int) -> list[tuple[str, Position]]:
    rng = random.Random(seed)
    phases = [PHASES[i % len(PHASES)] for i in range(n)]
    return [(phase, random_position(rng, phase)) for phase in phases]


@pytest.mark.parametrize("phase", PHASES)
def test_random_positions_every_roll_match_legal_plays(phase):
    rng = random.Random(f"{SEED}-{phase}")
    for _ in range(60):
        position = random_position(rng, phase)
        for d1, d2 in ROLLS:
            check_plays(position, (d1, d2))
            if d1 != d2:
                check_plays(position, (d2, d1))


@pytest.mark.parametrize("phase", PHASES)
def test_random_positions_match_the_reference(phase):
    rng = random.Random(f"{SEED}-ref-{phase}")
    for _ in range(3):
        position = random_position(rng, phase)
        for dice in ROLLS:
            check_plays(position, dice, legal_plays_reference(position, dice))


def with_opponent(draw, me: list[int]) -> Position:
    """The position of ``me`` (26 counts, 0 off) with up to 15 opposing checkers anywhere
    his points are free (bar included), the rest of each side borne off."""
    opp = [0] * 26
    for _ in range(draw(st.integers(0, 15))):
        q = draw(st.integers(1, 25))
        if q == 25 or me[25 - q] == 0:
            opp[q] += 1
    me[0] = 15 - sum(me)
    opp[0] = 15 - sum(opp)
    return Position(tuple(me), tuple(opp))


@st.composite
def boards(draw):
    """Any legal board: up to 15 checkers a side anywhere (bar included), no shared point."""
    me = [0] * 26
    for _ in range(draw(st.integers(1, 15))):
        me[draw(st.sampled_from([25] * 2 + list(range(1, 25))))] += 1
    return with_opponent(draw, me)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(position=boards(), dice=st.tuples(st.integers(1, 6), st.integers(1, 6)))
def test_hypothesis_boards_match_legal_plays(position, dice):
    check_plays(position, dice)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(position=boards(), dice=st.tuples(st.integers(1, 6), st.integers(1, 6)))
def test_hypothesis_boards_match_the_reference(position, dice):
    check_plays(position, dice, legal_plays_reference(position, dice))


@st.composite
def off_the_bar_boards(draw):
    """Boards where the search's second-order shortcut applies (no checker of the mover on
    the bar, two or more outside his home board), with opposing points and blots anywhere
    (intermediate points blocked for one order of the dice, hits on the way)."""
    me = [0] * 26
    for _ in range(draw(st.integers(2, 15))):
        me[draw(st.integers(7, 24))] += 1
    for _ in range(draw(st.integers(0, 13 - sum(me) + 2))):
        me[draw(st.integers(1, 24))] += 1
    return with_opponent(draw, me)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(position=off_the_bar_boards(), dice=st.tuples(st.integers(1, 6), st.integers(1, 6)))
def test_hypothesis_off_the_bar_boards_match_legal_plays(position, dice):
    check_plays(position, dice)
    check_plays(position, dice[::-1])


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(position=off_the_bar_boards(), dice=st.tuples(st.integers(1, 6), st.integers(1, 6)))
def test_hypothesis_off_the_bar_boards_match_the_reference(position, dice):
    check_plays(position, dice, legal_plays_reference(position, dice))


# ------------------------------------------------------------------ masks
def python_plan(position: Position, dice: tuple[int, int]) -> tuple[int, int]:
    """``turn_plan`` from the pure-Python helpers."""
    need = max_dice_usable(position, dice_to_play(dice))
    larger = max(dice)
    if dice[0] != dice[1] and need == 1 and single_moves(position, larger):
        return need, larger
    return need, 0


def python_mask(position: Position, remaining: list[int], moves_left: int, larger_only: int):
    return {m.action for m in legal_next_moves(position, remaining, moves_left, larger_only)}


def rows(position: Position) -> tuple[np.ndarray, np.ndarray]:
    """The board as the batch kernels hold it (``int64[26]`` each)."""
    return np.array(position.me, np.int64), np.array(position.opp, np.int64)


def unchanged(me: np.ndarray, opp: np.ndarray, position: Position) -> bool:
    return Position(tuple(me.tolist()), tuple(opp.tolist())) == position


def fast_mask(position: Position, remaining: list[int], moves_left: int, larger_only: int):
    """The compiled mask (``next_move_mask``), checked equal to the batch kernels' in-place
    search (``row_mask_into``), which leaves the board as it found it."""
    mask = next_move_mask(*arrays(position), np.array(remaining, np.int8), moves_left, larger_only)
    assert mask.shape == (N_MOVE_ACTIONS,) and mask.dtype == np.bool_
    me, opp = rows(position)
    in_place = np.zeros(N_MOVE_ACTIONS, np.bool_)
    row_mask_into(me, opp, np.array(remaining + [0] * (4 - len(remaining)), np.int64),
                  len(remaining), moves_left, larger_only, in_place)
    assert (in_place == mask).all() and unchanged(me, opp, position)
    return set(np.flatnonzero(mask).tolist())


def fast_plan(position: Position, dice: tuple[int, int]) -> tuple[int, int]:
    """``turn_plan``, checked equal to the in-place ``row_turn_plan`` (board unchanged)."""
    plan = turn_plan(*arrays(position), dice[0], dice[1])
    me, opp = rows(position)
    assert row_turn_plan(me, opp, dice[0], dice[1]) == plan
    assert unchanged(me, opp, position)
    return plan


def test_masks_match_legal_next_moves_along_random_partial_plays():
    rng = random.Random(SEED)
    for phase, position in random_positions(280, SEED + 1):
        for dice in rng.sample(ROLLS, 4) + [(6, 5), (2, 2)]:
            if rng.random() < 0.5:
                dice = dice[::-1]
            need, larger = fast_plan(position, dice)
            where = show(position, dice, f"{phase} {position.position_id()} {dice}")
            assert (need, larger) == python_plan(position, dice), where
            remaining, current, first = list(dice_to_play(dice)), position, True
            while True:
                only = larger if first else 0
                expected = python_mask(current, remaining, need, only)
                got = fast_mask(current, remaining, need, only)
                assert got == expected, where + f"\n after {current}"
                if not expected:
                    break
                action = rng.choice(sorted(expected))
                current = apply_move(current, action)
                remaining.remove(action % 6 + 1)
                need, first = need - 1, False
            assert need == 0, where


def plays_through_masks(position: Position, dice: tuple[int, int]) -> set[Position]:
    """Every result reached by following the fast masks to the end of the turn."""
    need, larger = fast_plan(position, dice)
    results: set[Position] = set()

    def walk(current: Position, remaining: list[int], left: int, only: int) -> None:
        actions = fast_mask(current, remaining, left, only)
        if not actions:
            assert left == 0, show(position, dice, f"stuck after {current}")
            results.add(current)
            return
        for action in actions:
            rest = list(remaining)
            rest.remove(action % 6 + 1)
            walk(apply_move(current, action), rest, left - 1, 0)

    walk(position, list(dice_to_play(dice)), need, larger)
    return results


def test_plays_built_through_masks_are_exactly_the_legal_plays():
    rng = random.Random(SEED + 2)
    for phase, position in random_positions(140, SEED + 3):
        rolls = rng.sample([r for r in ROLLS if r[0] != r[1]], 2) + [rng.choice([(1, 1), (2, 2)])]
        for dice in rolls:
            expected = {p.result for p in legal_plays(position, dice)}
            assert plays_through_masks(position, dice) == expected, show(
                position, dice, f"{phase} {position.position_id()} {dice}"
            )


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(position=boards(), dice=st.tuples(st.integers(1, 6), st.integers(1, 6)), data=st.data())
def test_hypothesis_masks_match_legal_next_moves(position, dice, data):
    """The compiled masks along a partial play Hypothesis chooses, on any board: the
    reference's legal next moves at every step."""
    need, larger = fast_plan(position, dice)
    assert (need, larger) == python_plan(position, dice)
    remaining, current, first = list(dice_to_play(dice)), position, True
    while True:
        only = larger if first else 0
        expected = python_mask(current, remaining, need, only)
        assert fast_mask(current, remaining, need, only) == expected, f"after {current}"
        if not expected:
            break
        action = data.draw(st.sampled_from(sorted(expected)))
        current = apply_move(current, action)
        remaining.remove(action % 6 + 1)
        need, first = need - 1, False
    assert need == 0


def test_doubles_near_the_bear_off_every_small_board_matches_the_reference():
    # every board of one to four checkers on points 1-12 (the rest borne off), one home
    # point closed, each double: the dice a double can use, as the reference counts them
    # (the search undoes its moves on the way back: a wrong undo shows up here, where a
    # checker coming home lets the others bear off)
    for k in range(1, 5):
        for points in itertools.combinations_with_replacement(range(1, 13), k):
            me = [0] * 26
            for p in points:
                me[p] += 1
            me[0] = 15 - k
            for closed in range(1, 7):
                opp = [0] * 26
                opp[0], opp[25 - closed] = 13, 2
                position = Position(tuple(me), tuple(opp))
                for die in range(1, 7):
                    need, _ = fast_plan(position, (die, die))
                    assert need == max_dice_usable(position, dice_to_play((die, die))), show(
                        position, (die, die), f"{points} closed {closed}")
