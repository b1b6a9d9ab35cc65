"""Legal-move masks: the legal next checker moves of a partial play, and one game's
checker play step by step, as numba kernels checked against :mod:`bg_env.rules.moves`.

Rules source: ``docs/RULES.md`` §2 (moving, the max-dice and larger-die rules), §3
(bar), §4 (bearing off). The rules are those of :mod:`bg_env.rules.moves`, which is the
truth; this module is the fast path (the same rules compiled, never a second copy of
them) and is tested against it.
The single-move rules it builds on are in :mod:`bg_env.kernels.moves`; boards are as
in :mod:`bg_env.kernels.fast` (two arrays of 26 counts, ``me`` and ``opp``).

* :func:`next_move_mask` (a kernel): :func:`bg_env.rules.moves.legal_next_moves` as a mask
  over the 150 move actions (``(source - 1) * 6 + (die - 1)``).
* :func:`turn_plan` (a kernel): how many dice a roll must use and whether only the larger
  die may be played, the two numbers :func:`next_move_mask` needs at the start of a turn.
* :func:`mask_into` (a kernel): :func:`next_move_mask` into the caller's buffer, the board
  checked and copied; :func:`row_mask_into` and :func:`row_turn_plan`: the same on a board
  the caller vouches for, searched in place (the batch kernels' entry points).
* :func:`play_and_settle`, :func:`move_mask_into`, :func:`plan_turn` (kernels): one game's
  checker play step by step (the fast path of :class:`~bg_env.game.game.Game`).

Unchecked paths: the kernels trust their input (26 counts, no point held by both sides,
dice 1..6) apart from raising ``ValueError`` for a negative count or more than 15 checkers
on the board.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types

from .moves import (
    landing_point,
    shift_checker,
    next_source,
    outside_after,
    checked_copy,
    board_bits,
    apply_move_kernel,
    use_die_kernel,
)

__all__ = [
    "N_MOVE_ACTIONS",
    "mask_into",
    "row_mask_into",
    "next_move_mask",
    "turn_plan",
    "row_turn_plan",
    "plan_turn",
    "move_mask_into",
    "play_and_settle",
]

N_MOVE_ACTIONS = 150
"""Number of checker-move actions: ``(source - 1) * 6 + (die - 1)``, source 1..25."""

# Argument types of the internal helpers. They are compiled for these types only (when
# the module is first imported, then loaded from numba's cache): numba would otherwise
# compile a helper again for every constant it is called with.
_I = types.int64
_A = types.int64[::1]


# --------------------------------------------------------------- max dice usable
@njit((_A, _I, _I, _I, _I, _I, _I), cache=True)
def _max_of_double(me, occ, outside, open_mask, die, n, target):
    """The most of ``n`` dice all showing ``die`` (a double) that can be played, capped at
    ``target``: a depth-first search over sources in non-increasing order, which loses no
    play (see :func:`bg_env.rules.moves.legal_plays`). ``me`` is changed during the search
    and restored before returning; the search allocates nothing (the source tried at each
    depth is kept in ``path``, five bits a depth, and a move is undone on the way back)."""
    target = min(target, n)
    if target <= 0:
        return 0
    best = 0
    d = 0
    path = 0
    top = 25  # the highest source left to try at depth d
    while True:
        if d < n:
            s = next_source(occ, top, die, outside, open_mask)
            if s != 0:
                path = (path & ~(31 << (5 * d))) | (s << (5 * d))
                dest = landing_point(s, die)
                occ = shift_checker(me, occ, s, dest)
                outside = outside_after(outside, s, dest)
                d += 1
                if d > best:
                    best = d
                    if best >= target:
                        while d > 0:
                            d -= 1
                            s = (path >> (5 * d)) & 31
                            me[landing_point(s, die)] -= 1
                            me[s] += 1
                        return best
                top = s  # the next die moves a checker from s or below
                continue
        if d == 0:
            return best
        d -= 1
        s = (path >> (5 * d)) & 31
        dest = landing_point(s, die)
        me[dest] -= 1
        if dest > 0 and me[dest] == 0:
            occ &= ~(1 << dest)
        me[s] += 1
        occ |= 1 << s
        if s >= 7 and dest <= 6:
            outside += 1
        top = s - 1


@njit((_A, _I, _I, _I, _I, _I), cache=True)
def _two_usable(me, occ, outside, open_mask, a, b):
    """How many of two different dice ``a`` and ``b`` can be played, 0 to 2: 2 when some
    move of one die leaves the other playable. ``me`` is restored before returning."""
    best = 0
    for first, second in ((a, b), (b, a)):
        s = next_source(occ, 25, first, outside, open_mask)
        while s != 0:
            best = 1
            dest = landing_point(s, first)
            occ2 = shift_checker(me, occ, s, dest)
            both = next_source(occ2, 25, second, outside_after(outside, s, dest),
                               open_mask) != 0
            me[dest] -= 1
            me[s] += 1
            if both:
                return 2
            s = next_source(occ, s - 1, first, outside, open_mask)
    return best


@njit(cache=True)
def mask_into(me, opp, remaining, n, moves_left, larger_only, mask):
    """:func:`next_move_mask` for ``remaining[:n]`` into ``mask`` (all zeros on entry, any
    dtype; ``mask[action] = 1`` for each legal move). Returns how many moves are legal and
    the last of them (-1 when none). The board is checked and not changed: this is
    :func:`row_mask_into` on a checked copy."""
    return row_mask_into(checked_copy(me, opp), opp, remaining, n, moves_left, larger_only,
                         mask)


@njit(cache=True, inline="always")
def row_mask_into(me, opp, remaining, n, moves_left, larger_only, mask):
    """:func:`mask_into` on a board the caller vouches for (the batch kernels' rows:
    ``me`` an ``int64[26]`` that only legal moves changed), searched in place (``me`` is
    changed during the search and restored), nothing checked or allocated."""
    if moves_left <= 0 or n == 0:
        return 0, -1
    occ, open_mask, outside = board_bits(me, opp)
    count = 0
    last = -1
    for i in range(n):
        die = np.int64(remaining[i])
        seen = False
        for j in range(i):
            if remaining[j] == die:
                seen = True
        if seen or (larger_only != 0 and die != larger_only):
            continue
        # the die left after this one: the other of two, or (a double's dice after the
        # first being skipped as seen) the same
        other = np.int64(remaining[n - 1 - i])
        s = next_source(occ, 25, die, outside, open_mask)
        while s != 0:
            legal = True
            if moves_left > 1:
                dest = landing_point(s, die)
                occ2 = shift_checker(me, occ, s, dest)
                o = outside_after(outside, s, dest)
                if moves_left == 2:  # one more die to play: a source for it
                    legal = next_source(occ2, 25, other, o, open_mask) != 0
                else:  # a double: the rest of it
                    legal = _max_of_double(me, occ2, o, open_mask, die, n - 1,
                                           moves_left - 1) >= moves_left - 1
                me[dest] -= 1
                me[s] += 1
            if legal:
                a = (s - 1) * 6 + die - 1
                mask[a] = 1
                count += 1
                last = a
            s = next_source(occ, s - 1, die, outside, open_mask)
    return count, last


@njit(cache=True)
def next_move_mask(me, opp, remaining, moves_left, larger_only):
    """The legal next moves of a partial play, as a ``bool[150]`` mask (a kernel).

    The same as :func:`bg_env.rules.moves.legal_next_moves`: a move is legal when it starts
    some complete legal play from this position.

    Args:
        me, opp: the position after the moves made so far (26 counts each).
        remaining: the dice not yet used (0 to 4 values: all equal, or two dice).
        moves_left: how many more dice the turn's legal plays use.
        larger_only: the larger die when only one of two different dice can be used and
            the larger is playable (see :func:`turn_plan`), else 0.

    Returns:
        ``bool[150]``, true at ``(source - 1) * 6 + (die - 1)`` for each legal move.
    """
    mask = np.zeros(N_MOVE_ACTIONS, np.bool_)
    mask_into(me, opp, remaining, remaining.shape[0], moves_left, larger_only, mask)
    return mask


@njit(cache=True)
def turn_plan(me, opp, d1, d2):
    """What a roll demands: ``(moves_needed, larger_only)`` (a kernel).

    ``moves_needed`` is the most dice of the roll that can be played (RULES §2; up to four
    for a double). ``larger_only`` is the larger die when the dice differ, only one of
    them can be used and the larger is playable; else 0. Both go to
    :func:`next_move_mask` at the start of the turn. The board is checked and not changed:
    this is :func:`row_turn_plan` on a checked copy.
    """
    return row_turn_plan(checked_copy(me, opp), opp, d1, d2)


@njit(cache=True, inline="always")
def row_turn_plan(me, opp, d1, d2):
    """:func:`turn_plan` on a board the caller vouches for, searched in place as
    :func:`row_mask_into` searches."""
    occ, open_mask, outside = board_bits(me, opp)
    if d1 == d2:
        return _max_of_double(me, occ, outside, open_mask, d1, 4, 4), 0
    need = _two_usable(me, occ, outside, open_mask, d1, d2)
    if need == 1:
        larger = max(d1, d2)
        if next_source(occ, 25, larger, outside, open_mask) != 0:
            return 1, larger
    return need, 0


# ------------------------------------------------------------ one game, step by step
# The kernels behind :class:`bg_env.game.game.Game`'s fast path: a board is one
# ``int8[52]`` array (``me`` then ``opp``, as :meth:`Game.board_array
# <bg_env.game.game.Game.board_array>`), never written; a move is logged as the code
# ``action + 150 * hit`` (9 bits each, first move in the low bits).

@njit(cache=True)
def plan_turn(board, mask, d1, d2):
    """:func:`turn_plan` for a ``Game`` board (``int8[52]``), and the legal first moves
    into ``mask`` (``int8[156]``, overwritten): ``(moves_needed, larger_only, count)``
    with ``count`` the number of legal first moves (a kernel)."""
    me = board[:26]
    opp = board[26:]
    moves, larger = turn_plan(me, opp, d1, d2)
    mask[:] = 0
    if moves == 0:
        return moves, larger, 0
    rem = np.empty(4, np.int64)
    rem[0] = d1
    rem[1] = d2
    rem[2] = d1
    rem[3] = d1
    n = 4 if d1 == d2 else 2
    count, _ = mask_into(me, opp, rem, n, moves, larger, mask)
    return moves, larger, count


@njit(cache=True)
def move_mask_into(board, mask, remaining, moves_left, larger_only):
    """:func:`next_move_mask` for a ``Game`` board (``int8[52]``) into ``mask``
    (``int8[156]``, overwritten); returns how many moves are legal (a kernel)."""
    mask[:] = 0
    return mask_into(board[:26], board[26:], remaining, remaining.shape[0], moves_left,
                      larger_only, mask)[0]


@njit(cache=True)
def play_and_settle(board, mask, remaining, moves_left, larger_only, action):
    """Play the checker move ``action`` (unchecked; -1 for none), then every forced move
    (the only legal next move), until a real decision or the end of the play (a kernel).

    Returning arrays to Python costs more than the work, so the results are written into
    the caller's buffers.

    Args:
        board: ``int8[52]``, the position; overwritten with the position after the moves.
        mask: ``int8[156]``, overwritten with the legal next moves (all zeros when the play
            is complete).
        remaining: the dice not yet used (0 to 4 values).
        moves_left, larger_only: as for :func:`next_move_mask`.
        action: a legal move of ``board``, or -1.

    Returns:
        ``(count, moves_left_after, n_moves, log)``: how many next moves are legal, the
        dice still to use, and the ``n_moves`` moves made, logged as codes (see above).
    """
    me = np.empty(26, np.int64)
    opp = np.empty(26, np.int64)
    for p in range(26):
        me[p] = board[p]
        opp[p] = board[26 + p]
    rem = np.zeros(4, np.int64)
    n = remaining.shape[0]
    for i in range(n):
        rem[i] = remaining[i]
    mask[:] = 0
    n_moves = 0
    log = 0
    count = 0
    a = action
    while True:
        if a >= 0:
            code = apply_move_kernel(me, opp, a)
            log |= code << (9 * n_moves)
            n_moves += 1
            n = use_die_kernel(rem, 0, n, a % 6 + 1)
            moves_left -= 1
        if moves_left <= 0 or n == 0:
            count = 0
            break
        count, a = row_mask_into(me, opp, rem, n, moves_left, larger_only, mask)
        if count != 1:
            break
        mask[a] = 0
    if n_moves:
        for p in range(26):
            board[p] = me[p]
            board[26 + p] = opp[p]
    return count, moves_left, n_moves, log
