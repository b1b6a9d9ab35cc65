"""The kernels' single copies of the rules against their pure-Python references (the oracles):
moving a checker, using a die, the loss kind and the next cube value."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from bg_env.rules.actions import decode_move, encode_move
from bg_env.kernels.batch import next_cube_kernel
from bg_env.rules.cube import next_cube_value
from bg_env.kernels.moves import HIT, apply_move_kernel, loss_kind_kernel, use_die_kernel
from bg_env.rules.moves import move_checker
from bg_env.rules.outcome import loss_kind

KINDS = ("single", "gammon", "backgammon")


@st.composite
def boards(draw):
    """Two sides of 26 counts, no point 1..24 held by both (point p of one side is 25 - p of the other)."""
    me, opp = [0] * 26, [0] * 26
    for _ in range(draw(st.integers(1, 15))):
        me[draw(st.integers(1, 25))] += 1
    for _ in range(draw(st.integers(0, 15))):
        p = draw(st.integers(0, 25))
        if 1 <= p <= 24 and me[25 - p]:
            continue
        opp[p] += 1
    return me, opp


@settings(max_examples=300, deadline=None)
@given(boards(), st.integers(1, 6), st.data())
def test_apply_move_kernel_matches_move_checker(board, die, data):
    me, opp = board
    source = data.draw(st.sampled_from([p for p in range(1, 26) if me[p]]))
    want_me, want_opp, want_hit = move_checker(tuple(me), tuple(opp), source, die)
    a_me, a_opp = np.array(me, np.int64), np.array(opp, np.int64)
    action = encode_move(source, die)
    code = apply_move_kernel(a_me, a_opp, action)
    assert tuple(a_me) == want_me and tuple(a_opp) == want_opp
    assert code == action + HIT * want_hit
    assert decode_move(code % HIT) == (source, die)


def test_apply_move_kernel_hits_a_blot_and_bears_off():
    me, opp = np.zeros(26, np.int64), np.zeros(26, np.int64)
    me[13], me[3], opp[25 - 7] = 1, 1, 1
    assert apply_move_kernel(me, opp, encode_move(13, 6)) == encode_move(13, 6) + HIT
    assert me[7] == 1 and opp[25] == 1 and opp[18] == 0
    assert apply_move_kernel(me, opp, encode_move(3, 5)) == encode_move(3, 5)
    assert me[0] == 1 and me[3] == 0


@settings(deadline=None)
@given(st.lists(st.integers(1, 6), min_size=1, max_size=4), st.data())
def test_use_die_kernel_removes_one_die(dice, data):
    die = data.draw(st.sampled_from(dice))
    arr = np.array([9] + dice + [0] * (4 - len(dice)), np.int64)
    n = use_die_kernel(arr, 1, len(dice), die)
    rest = list(dice)
    rest.remove(die)
    assert n == len(dice) - 1
    assert sorted(arr[1:1 + n]) == sorted(rest) and arr[1 + n] == 0 and arr[0] == 9


@settings(deadline=None)
@given(st.lists(st.integers(0, 3), min_size=26, max_size=26), st.booleans())
def test_loss_kind_kernel_matches_loss_kind(loser, backgammon_possible):
    want = loss_kind(tuple(loser), backgammon_possible)
    assert KINDS[loss_kind_kernel(np.array(loser, np.int64), backgammon_possible)] == want


def test_loss_kind_names_each_kind():
    loser = [0] * 26
    loser[25] = 1
    assert loss_kind(tuple(loser)) == "backgammon"
    assert loss_kind(tuple(loser), backgammon_possible=False) == "gammon"
    loser[0] = 1
    assert loss_kind(tuple(loser)) == "single"


@settings(deadline=None)
@given(st.integers(1, 1 << 20), st.booleans())
def test_next_cube_kernel_matches_next_cube_value(value, arithmetic):
    progression = "arithmetic" if arithmetic else "geometric"
    assert next_cube_kernel(value, arithmetic) == next_cube_value(value, progression)
