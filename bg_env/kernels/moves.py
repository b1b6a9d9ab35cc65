"""The checker-move rules as numba kernels, the one copy every kernel calls.

:func:`apply_move_kernel` is :func:`bg_env.rules.moves.move_checker` (the pure-Python
reference and test oracle) on ``int`` arrays, in place; ``tests/core/test_move_kernels.py``
checks one against the other. :func:`use_die_kernel` takes a played die out of a list of
remaining dice; :func:`loss_kind_kernel` is :func:`bg_env.rules.outcome.loss_kind` as a
number (0 single, 1 gammon, 2 backgammon). Kernels cannot call Python, so these are the
kernels' single copy of each rule; the batch kernels (:mod:`bg_env.kernels.batch`) and the
one-game kernels (:mod:`bg_env.kernels.masks`, :mod:`bg_env.kernels.fast`) both call them.

The single-move rules of the move masks and the legal-play search (RULES §2-4) are here
too, public for those two modules: :func:`board_bits` (what the opponent's checkers allow,
in bits, of a board the caller vouches for), :func:`checked_copy` (a board checked and
copied) and :func:`prepare_move_masks` (both, and the blots), :func:`next_source` (the next
source a die can move from), and the bookkeeping of one move (:func:`landing_point`,
:func:`shift_checker`, :func:`outside_after`, :func:`occupied_mask`, :func:`top_bit`).
"""

from __future__ import annotations

import numpy as np
from numba import njit, types

try:
    from numba.cpython.unsafe.numbers import leading_zeros as _leading_zeros
except ImportError:  # pragma: no cover - numba moved its intrinsic

    @njit(cache=True)
    def _leading_zeros(x):
        n = 64
        while x != 0:
            x >>= 1
            n -= 1

# Argument types of the single-move helpers. They are compiled for these types only (when
# the module is first imported, then loaded from numba's cache): numba would otherwise
# compile a helper again for every constant it is called with.
_I = types.int64
_A = types.int64[::1]

__all__ = [
    "HIT",
    "apply_move_kernel",
    "use_die_kernel",
    "loss_kind_kernel",
    "prepare_move_masks",
    "checked_copy",
    "board_bits",
    "top_bit",
    "occupied_mask",
    "next_source",
    "landing_point",
    "outside_after",
    "shift_checker",
]

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


# ----------------------------------------------------------------- single-move rules
@njit(cache=True)
def checked_copy(me_in, opp_in):
    """The mover's checkers as an ``int64[26]`` work copy, the board checked: ``ValueError``
    for a negative count or more than 15 of the mover's checkers on the board."""
    me = np.empty(26, np.int64)
    on_board = 0
    for p in range(26):
        c = me_in[p]
        if c < 0 or opp_in[p] < 0:
            raise ValueError("a checker count is negative")
        me[p] = c
        on_board += c
    if on_board - me[0] > 15:
        raise ValueError("the player on roll has more than 15 checkers on the board")
    return me


@njit(cache=True, inline="always")
def board_bits(me, opp):
    """``(occ, open_mask, outside)`` of a board the caller vouches for (counts of 0 or
    more, at most 15 checkers a side): :func:`occupied_mask` of ``me`` and
    :func:`prepare_move_masks`'s ``open_mask`` and ``outside``, in one pass, nothing
    checked, copied or allocated (the batch kernels' boards, which only legal moves
    change)."""
    occ = 0
    open_mask = 0
    outside = 0
    for p in range(1, 26):
        c = me[p]
        if c != 0:
            occ |= 1 << p
            if p >= 7:
                outside += c
        if p < 25 and opp[25 - p] < 2:
            open_mask |= 1 << p
    return occ, open_mask, outside


@njit(cache=True)
def prepare_move_masks(me_in, opp_in):
    """The mover's checkers as a work copy (:func:`checked_copy`), and what the opponent's
    checkers allow.

    Returns ``(me, open_mask, blot_mask, outside)``: bit ``p`` of ``open_mask`` is set when
    the mover may land on his point ``p`` (fewer than two opposing checkers there, RULES
    §2), of ``blot_mask`` when one opposing checker stands there (a hit, RULES §3);
    ``outside`` counts the mover's checkers not in his home board (points 7..24 and the
    bar, RULES §4); the first and last as :func:`board_bits` gives them. Hits never close
    a point, so both masks hold for the whole turn.
    """
    me = checked_copy(me_in, opp_in)
    _, open_mask, outside = board_bits(me, opp_in)
    blot_mask = 0
    for p in range(1, 25):
        if opp_in[25 - p] == 1:
            blot_mask |= 1 << p
    return me, open_mask, blot_mask, outside


@njit((_I,), cache=True)
def top_bit(x):
    """Index of the highest set bit of ``x > 0``."""
    return 63 - _leading_zeros(x)


@njit((_A,), cache=True)
def occupied_mask(me):
    """Bit mask of the points 1..25 holding checkers of the mover."""
    occ = 0
    for p in range(1, 26):
        if me[p] != 0:
            occ |= 1 << p
    return occ


@njit((_I, _I, _I, _I, _I), cache=True)
def next_source(occ, top, die, outside, open_mask):
    """The highest source ``<= top`` from which one checker may move with ``die``, or 0.

    ``occ`` has bit ``p`` set for each point (25 = bar) holding a checker of the mover.
    The rules of a single move (RULES §2-4): checkers on the bar enter first (source 25
    only); the checker lands on an open point; bearing off needs every checker home
    (``outside == 0``), and a die larger than the point needs no checker on a higher one.
    """
    if top <= 0:
        return 0
    if (occ >> 25) & 1:
        if top >= 25 and (open_mask >> (25 - die)) & 1:
            return 25
        return 0
    # ordinary moves: sources die+1..top landing on an open point
    cand = occ & (open_mask << die) & ((2 << top) - 1) & ~((2 << die) - 1)
    if cand != 0:
        return top_bit(cand)
    if outside != 0:
        return 0
    if top >= die and (occ >> die) & 1:
        return die  # bear off from the point of the die
    low = min(top, die - 1)
    lower = occ & ((2 << low) - 1)
    if lower == 0:
        return 0
    s = top_bit(lower)
    if (occ & ~((2 << s) - 1)) != 0:
        return 0  # a checker on a higher point: the larger die must move it
    return s


@njit((_I, _I), cache=True)
def landing_point(source, die):
    """Where a checker moved from ``source`` by ``die`` lands (0 = borne off)."""
    d = source - die
    return d if d > 0 else 0


@njit((_I, _I, _I), cache=True)
def outside_after(outside, source, dest):
    """``outside`` after a move: a checker from 7..25 into the home board comes in."""
    return outside - 1 if (source >= 7 and dest <= 6) else outside


@njit((_A, _I, _I, _I), cache=True)
def shift_checker(me, occ, source, dest):
    """Move one checker in ``me`` (unchecked); returns the new occupied-points mask."""
    me[source] -= 1
    if me[source] == 0:
        occ &= ~(1 << source)
    me[dest] += 1
    if dest > 0:
        occ |= 1 << dest
    return occ
