"""The kernels a :class:`~bg_env.game.game.Game` calls: the state machine of
:mod:`bg_env.kernels.batch` on the Game's one row, with ``HOLD`` set.

With ``HOLD`` set the turn kernels stop at each complete play, before the turn passes (the
Game keeps its ``last_play`` and game records, then calls :func:`game_end_play`), and at
each roll to make (``NEED_ROLL``: the Game rolls from the generator it was given, which
may be any object with numpy's ``integers``, and calls :func:`game_rolled`). Everything
else -- forced moves, the cube, the end of the game, every variant's turn -- is the
batch's kernels, the same that the environments' engine and the vector envs run.

Each kernel takes the row (``s``, ``me``, ``opp``), the rules array, the mask to write
the legal actions into, and ``vt`` (the variant turns, ``None`` for standard moves). The
dice source arguments of the batch kernels are given a dummy generator (``seeds``):
with ``HOLD`` set no kernel draws a die.
"""

from __future__ import annotations

from numba import njit

from ..rules.actions import DOUBLE
from .batch import (
    N_DICE, N_PLAYED, NEED_ROLL, OPEN_BY, P_CUBE, PHASE, ROLL0, ROLL1, STARTER, TURN,
    apply_move_row, begin_turn_row, end_turn_row, open_from, open_row, rolled_row, settle_row,
    start_play_row, step_row, write_mask,
)
from .borrow import borrowed

__all__ = ["game_open", "game_act", "game_rolled", "game_end_play", "game_begin", "game_apply",
           "game_settle"]


@njit(cache=True)
def game_open(s, me, opp, rules, mask, seeds, vt, layout, starter):
    """A new game: the variant's start (``layout``) or the board in ``me``/``opp``, then
    the opening roll, or with ``starter`` 0 or 1 that side's first roll (left to the Game:
    ``NEED_ROLL``)."""
    s, me, opp, rules, mask, seeds = (borrowed(s), borrowed(me), borrowed(opp), borrowed(rules),
                                      borrowed(mask), borrowed(seeds))
    s[OPEN_BY] = starter + 1
    if layout:
        open_row(s, me, opp, rules, mask, seeds, 0, 0, 0, vt)
    else:
        open_from(s, me, opp, rules, mask, seeds, 0, 0, 0, vt)


@njit(cache=True)
def game_act(s, me, opp, rules, mask, action, seeds, vt):
    """The legal ``action`` (unchecked) of the side that must decide."""
    s, me, opp, rules, mask, seeds = (borrowed(s), borrowed(me), borrowed(opp), borrowed(rules),
                                      borrowed(mask), borrowed(seeds))
    step_row(s, me, opp, rules, mask, action, seeds, 0, 0, 0, vt)


@njit(cache=True)
def game_rolled(s, me, opp, rules, mask, d1, d2, seeds, vt):
    """The roll the row waits for is ``d1``-``d2``; forced moves are played."""
    s, me, opp, rules, mask, seeds = (borrowed(s), borrowed(me), borrowed(opp), borrowed(rules),
                                      borrowed(mask), borrowed(seeds))
    rolled_row(s, me, opp, rules, d1, d2, vt, 0)
    settle_row(s, me, opp, rules, mask, seeds, 0, 0, 0, vt)


@njit(cache=True)
def game_end_play(s, me, opp, rules, mask, seeds, vt):
    """The complete play ends the turn (or the game); the next turn begins."""
    s, me, opp, rules, mask, seeds = (borrowed(s), borrowed(me), borrowed(opp), borrowed(rules),
                                      borrowed(mask), borrowed(seeds))
    end_turn_row(s, me, opp, rules, seeds, 0, 0, 0, vt)
    settle_row(s, me, opp, rules, mask, seeds, 0, 0, 0, vt)


@njit(cache=True)
def game_begin(s, me, opp, rules, mask, d1, d2, offer, seeds, vt):
    """A turn begins in the row's position (a game started anywhere): a double on offer
    (``offer``), ``d1``-``d2`` rolled, or (``d1`` 0) the cube question or a roll. Forced
    moves are not played (:func:`game_settle`): the moves given as already made are
    checked against the mask first."""
    s, me, opp, rules, mask, seeds = (borrowed(s), borrowed(me), borrowed(opp), borrowed(rules),
                                      borrowed(mask), borrowed(seeds))
    s[PHASE], s[N_DICE], s[N_PLAYED], s[ROLL0], s[ROLL1], s[NEED_ROLL] = P_CUBE, 0, 0, 0, 0, 0
    if s[STARTER] < 0:  # a game started anywhere: its first turn is this one
        s[STARTER] = s[TURN]
    if offer:
        step_row(s, me, opp, rules, mask, DOUBLE, seeds, 0, 0, 0, vt)
    elif d1 == 0:
        begin_turn_row(s, me, opp, rules, seeds, 0, 0, 0, vt)
    else:
        start_play_row(s, me, opp, d1, d2, vt, 0)
    write_mask(s, me, opp, rules, mask, vt, 0)


@njit(cache=True)
def game_apply(s, me, opp, rules, mask, action, vt):
    """One legal checker move (unchecked) without the forced ones after it."""
    s, me, opp, rules, mask = (borrowed(s), borrowed(me), borrowed(opp), borrowed(rules),
                               borrowed(mask))
    apply_move_row(s, me, opp, action, vt, 0)
    write_mask(s, me, opp, rules, mask, vt, 0)


@njit(cache=True)
def game_settle(s, me, opp, rules, mask, seeds, vt):
    """Forced moves until a decision, a complete play or a roll to make."""
    s, me, opp, rules, mask, seeds = (borrowed(s), borrowed(me), borrowed(opp), borrowed(rules),
                                      borrowed(mask), borrowed(seeds))
    settle_row(s, me, opp, rules, mask, seeds, 0, 0, 0, vt)
