"""The checker-move rules as numba kernels, the one copy every kernel calls.

:func:`apply_move_kernel` is :func:`bg_env.core.moves.move_checker` (the pure-Python
reference and test oracle) on ``int`` arrays, in place; ``tests/core/test_move_kernels.py``
checks one against the other. :func:`use_die_kernel` takes a played die out of a list of
remaining dice; :func:`loss_kind_kernel` is :func:`bg_env.core.outcome.loss_kind` as a
number (0 single, 1 gammon, 2 backgammon). Kernels cannot call Python, so these are the
kernels' single copy of each rule; the batch kernels (:mod:`bg_env.core.batch`) and the
one-game kernels (:mod:`bg_env.core.fast`) both call them.
"""

from __future__ import annotations

from numba import njit

HIT = 150
"""Added to a move action in a move log when the move hit a blot."""


@njit(cache=True)
def apply_move_kernel(me, opp, action):
    """Move one checker for ``action`` (``(source - 1) * 6 + die - 1``, unchecked) in place;
    returns the logged code: ``action``, plus :data:`HIT` when a blot was hit."""
    source = action // 6 + 1
    die = action % 6 + 1
    dest = source - die
    if dest < 0:
        dest = 0
    me[source] -= 1
    me[dest] += 1
    if dest >= 1 and opp[25 - dest] == 1:
        opp[25 - dest] = 0
        opp[25] += 1
        return action + HIT
    return action


@njit(cache=True)
def use_die_kernel(dice, start, n, die):
    """Remove one ``die`` from the ``n`` remaining dice at ``dice[start:start + n]``
    (the last one fills its place, the freed slot becomes 0); returns ``n - 1``."""
    for k in range(n):
        if dice[start + k] == die:
            dice[start + k] = dice[start + n - 1]
            dice[start + n - 1] = 0
            break
    return n - 1


@njit(cache=True)
def loss_kind_kernel(loser, backgammon_possible):
    """0 single (the loser has borne a checker off), 1 gammon, 2 backgammon (also a
    checker on the bar or on the loser's points 19..24, where ``backgammon_possible``)."""
    if loser[0] > 0:
        return 0
    if backgammon_possible:
        for p in range(19, 26):
            if loser[p] > 0:
                return 2
    return 1
