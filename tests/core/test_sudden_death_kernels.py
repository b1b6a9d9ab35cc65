"""Sudden death's play kernels (``bg_env.core.sudden_death_kernels``) against
:class:`Game` (which plays sudden death on the variant search, itself tested against the
brute-force reference): on many random positions and rolls, the legal moves and the moves
still to make, at the start of the turn and after each move of a random play."""

from __future__ import annotations

import random

import numpy as np
import pytest

pytest.importorskip("numba")

from bg_env.actions import N_ACTIONS  # noqa: E402
from bg_env.core.game import Game, Phase, Rules  # noqa: E402
from bg_env.core.mask_kernels import mask_into, turn_plan  # noqa: E402
from bg_env.core.position import Position  # noqa: E402
from bg_env.core.sudden_death_kernels import (  # noqa: E402
    hit_play_longest, hit_play_mask_into, hit_play_plan,
)
from helpers import random_cases  # noqa: E402

RULES = Rules(cube=False, variant="sudden_death")


def kernel_turn(me, opp, dice, first, plan):
    """The kernels' ``(mask, moves_left)`` of a board with ``dice`` left; ``plan``: the
    turn's ``(hit_play, moves_left, larger_only)`` (``first``: no move made yet)."""
    hit_play, moves_left, larger = plan
    mask = np.zeros(N_ACTIONS, np.int8)
    nd = len(dice)
    d = np.zeros(4, np.int64)
    d[:nd] = dice
    if hit_play:
        if not first:
            moves_left = hit_play_longest(me, opp, d, nd)
        if moves_left:
            hit_play_mask_into(me, opp, d, nd, mask)
    else:
        mask_into(me, opp, d, nd, moves_left, larger, mask)
    return mask, moves_left


def check_turn(position, dice, rnd) -> int:
    """Walk one random play of ``dice`` from ``position``, comparing at every move;
    returns how many moves were compared."""
    try:
        game = Game.from_position(position, None, RULES, dice=dice)
    except ValueError:  # a checker on the bar: the game is already over
        return 0
    me = np.array(position.me, np.int64)
    opp = np.array(position.opp, np.int64)
    hit_play, longest = hit_play_plan(me, opp, *dice)
    if hit_play:
        plan = (True, longest, 0)
    else:
        plan = (False, *turn_plan(me, opp, *dice))
    first, moves_left, compared = True, plan[1], 0
    while game.phase == Phase.MOVE and game.moves_left:
        if not hit_play:  # a standard turn counts its moves down (as in test_batch)
            plan = (False, moves_left, plan[2])
        mask, moves_left = kernel_turn(me, opp, list(game.remaining), first, plan)
        where = f"{position.position_id()} {dice} after {[str(m) for m in game.played]}"
        assert moves_left == game.moves_left, where
        np.testing.assert_array_equal(mask, game.legal_mask_int8(), err_msg=where)
        compared += 1
        action = rnd.choice(game.legal_actions())
        game._apply_move(action)
        board = game.position
        me, opp = np.array(board.me, np.int64), np.array(board.opp, np.int64)
        first = False
        moves_left -= 1
    return compared


def crowded_position(rnd: random.Random) -> Position:
    """A board without checkers on the bar, where moves are often blocked and blots often
    stand in reach: each side's checkers on a few points (the player's sometimes all home),
    no point shared."""
    me, opp = [0] * 26, [0] * 26
    home = rnd.random() < 0.3
    points = rnd.sample(range(1, 7) if home else range(1, 25), rnd.randint(2, 6 if home else 9))
    for k in range(rnd.randint(3, 15)):
        me[points[k % len(points)]] += 1
    me[0] = 15 - sum(me)
    free = [q for q in range(1, 25) if not me[25 - q]]
    for k, q in enumerate(rnd.sample(free, rnd.randint(2, 10))):
        opp[q] = 1 if k % 3 == 0 else rnd.randint(2, 4)
    while sum(opp) > 15:
        q = max(range(1, 25), key=lambda q: opp[q])
        opp[q] -= 1
    opp[0] = 15 - sum(opp)
    return Position(tuple(me), tuple(opp))


def test_sudden_death_kernels_match_game():
    rnd = random.Random(0)
    compared = sum(check_turn(pos, dice, rnd) for _, pos, dice in random_cases(600, seed=7))
    assert compared > 500


def test_sudden_death_kernels_match_game_when_blocked():
    rnd = random.Random(1)
    compared = 0
    for _ in range(1500):
        dice = (rnd.randint(1, 6), rnd.randint(1, 6))
        compared += check_turn(crowded_position(rnd), dice, rnd)
    assert compared > 1500


def test_a_hit_ends_the_play_and_counts_as_every_die():
    # x on 13 and 8 with 6-5: 13/8 hits nothing, 13/7* hits; 8/2* hits with the 6.
    from helpers import pos

    position = pos("x 13:1 8:1; o 7:1 2:1 24:13")
    game = Game.from_position(position, None, RULES, dice=(6, 5))
    me, opp = np.array(position.me, np.int64), np.array(position.opp, np.int64)
    hit_play, longest = hit_play_plan(me, opp, 6, 5)
    assert hit_play and longest == game.moves_left
    mask, _ = kernel_turn(me, opp, [6, 5], True, (True, longest, 0))
    np.testing.assert_array_equal(mask, game.legal_mask_int8())
    assert mask[(13 - 1) * 6 + 6 - 1] and mask[(8 - 1) * 6 + 6 - 1]  # 13/7* and 8/2*
