"""The legal plays of a roll under any variant, as numba kernels over the rows of
:mod:`bg_env.kernels.variant_moves` (``docs/RULES.md`` §2 and §7): the kernels' copy of
:mod:`bg_env.rules.variants.tree` (and tested, like it, against the brute-force reference
:func:`~bg_env.rules.variants.variant_sequences`).

A turn in progress is a *frontier*: the rows the moves made so far may have reached (one,
except where a Caucasian hitter and another checker share the point a move left: both
are followed, as the tree does), the dice still to play and how many of them the play
must still use (``need``). A move is legal from a row when the row after it can still use
``need - 1`` dice (a row where the game has ended uses them all: :func:`most_dice`); at
the start of a turn with two different dice of which only one can be used, only the
larger may be played if it can.

Kernels: :func:`most_dice`, :func:`mask_into` (the legal next moves as a mask and their
hit flags), :func:`advance` (a move made: the next frontier), :func:`longest` (how many
moves the longest legal play still has) and :func:`plays_into` (every distinct way to
finish, one per resulting board). Work arrays come from the caller (:func:`work_arrays`,
one ``int64`` array cut by :func:`work_views`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .variant_moves import BOARD, OVER, ROW, V_FIRST_HIT_WINS, V_MOTHER, V_NO_HIDE, ME, step

__all__ = ["most_dice", "mask_into", "advance", "longest", "plays_into", "work_arrays",
           "work_views", "MAX_FRONTIER", "HIT_CODE"]

MAX_FRONTIER = 32
"""The most rows a frontier holds."""
HIT_CODE = 150
"""Added to a move's action in :func:`plays_into`'s move lists when it hit (or pinned)."""
_LEVELS = 6
"""Rows of the search stack: the start and one per die (at most 4), plus one spare."""


def work_arrays() -> np.ndarray:
    """The search's work arrays as one ``int64`` array (:func:`work_views` cuts it): a
    stack of rows, the dice left at each level, a scratch row and the move iterator of
    each level (shared by every call in a thread: the kernels are not re-entrant)."""
    return np.zeros((2 * _LEVELS + 2, ROW), np.int64)


@njit(cache=True)
def work_views(work):
    """``(stack, dice, scratch, it)`` of :func:`work_arrays`' array."""
    return (work[:_LEVELS], work[_LEVELS:2 * _LEVELS, :4], work[2 * _LEVELS],
            work[2 * _LEVELS + 1, :_LEVELS])


@njit(cache=True)
def _drop_die(dice, level, i, nd):
    """The dice of ``level + 1``: those of ``level`` without its ``i``-th."""
    k = 0
    for j in range(nd):
        if j != i:
            dice[level + 1, k] = dice[level, j]
            k += 1


@njit(cache=True)
def _repeat(dice, level, i):
    """The ``i``-th die at ``level`` equals an earlier one (equal dice are the same move)."""
    for j in range(i):
        if dice[level, j] == dice[level, i]:
            return True
    return False


@njit(cache=True)
def _next_edge(vr, stack, dice, scratch, it, level, nd):
    """The next move from ``stack[level]`` with the ``nd`` dice ``dice[level]``, by the
    iterator ``it[level]`` (dice in order, equal dice once, sources from the bar down, a
    Caucasian hitter after another checker): the board after it in ``stack[level + 1]``
    and the dice left in ``dice[level + 1]``; returns the action plus :data:`HIT_CODE`
    when it hit, or -1 when there are no more moves."""
    kinds = 2 if vr[V_NO_HIDE] else 1
    per_die = 25 * kinds
    row = stack[level]
    while True:
        c = it[level]
        if c >= nd * per_die:
            return -1
        it[level] = c + 1
        i = c // per_die
        r = c - i * per_die
        if r == 0 and _repeat(dice, level, i):
            it[level] = (i + 1) * per_die
            continue
        source = 25 - r // kinds
        if row[ME + source] == 0:
            continue
        die = dice[level, i]
        hit = step(vr, row, stack[level + 1], scratch, source, die, r % kinds == 1)
        if hit < 0:
            continue
        _drop_die(dice, level, i, nd)
        return (source - 1) * 6 + die - 1 + HIT_CODE * hit


@njit(cache=True)
def most_dice(vr, stack, dice, scratch, it, top, nd):
    """The most of the ``nd`` dice ``dice[top]`` the row ``stack[top]`` can use (all of
    them where the game has ended), by a depth-first search over the levels above
    ``top`` (the only levels of the work arrays it writes)."""
    if nd == 0 or stack[top, OVER]:
        return nd
    best = 0
    level = top
    it[top] = 0
    while True:
        if _next_edge(vr, stack, dice, scratch, it, level, nd - (level - top)) < 0:
            if level == top:
                return best
            level -= 1
            continue
        depth = level + 1 - top
        over = stack[level + 1, OVER] != 0
        got = nd if over else depth
        if got > best:
            best = got
            if best == nd:
                return best
        if not over and depth < nd:
            level += 1
            it[level] = 0


@njit(cache=True)
def _keeps_need(vr, stack, dice, scratch, it, level, nd, need):
    """The row ``stack[level]`` (reached by a move) can still use ``need`` dice."""
    return need <= 0 or stack[level, OVER] != 0 or most_dice(
        vr, stack, dice, scratch, it, level, nd) >= need


@njit(cache=True)
def _larger_only(mask, dice, nd, larger):
    """The larger-die rule: keep only the moves of die ``larger`` if there are any;
    returns how many moves are left."""
    some = False
    count = 0
    for a in range(150):
        if mask[a] and a % 6 + 1 == larger:
            some = True
    for a in range(150):
        if mask[a] and some and a % 6 + 1 != larger:
            mask[a] = 0
        count += mask[a]
    return count


@njit(cache=True)
def mask_into(vr, frontier, n_rows, dice_left, nd, need, larger, mask, hits, stack, dice,
              scratch, it):
    """The legal next moves from the ``n_rows`` rows of ``frontier`` with the ``nd`` dice
    ``dice_left`` of which the play must use ``need``: ``mask[action]`` (``int8[156]``,
    only the 150 checker moves written) and ``hits[action]`` set; ``larger`` (a die, or 0)
    applies the larger-die rule. Returns how many moves are legal."""
    mask[:150] = 0
    hits[:] = 0
    if need == 0:
        return 0
    kinds = 2 if vr[V_NO_HIDE] else 1
    for f in range(n_rows):
        stack[0] = frontier[f]
        row = stack[0]
        if row[OVER]:
            continue
        dice[0, :nd] = dice_left[:nd]
        for i in range(nd):
            if _repeat(dice, 0, i):
                continue
            die = dice[0, i]
            for source in range(25, 0, -1):
                action = (source - 1) * 6 + die - 1
                if row[ME + source] == 0 or mask[action]:
                    continue
                for h in range(kinds):
                    hit = step(vr, row, stack[1], scratch, source, die, h == 1)
                    if hit < 0:
                        continue
                    _drop_die(dice, 0, i, nd)
                    if _keeps_need(vr, stack, dice, scratch, it, 1, nd - 1, need - 1):
                        mask[action] = 1
                        hits[action] = hit
                        break
    if larger:
        return _larger_only(mask, dice_left, nd, larger)
    count = 0
    for a in range(150):
        count += mask[a]
    return count


@njit(cache=True)
def _same_row(rows, k, row, width):
    """``rows[k, :width]`` equals ``row[:width]``."""
    for c in range(width):
        if rows[k, c] != row[c]:
            return False
    return True


@njit(cache=True)
def _known(rows, n, row, width):
    """``row[:width]`` equals one of the first ``n`` rows of ``rows``."""
    for k in range(n):
        if _same_row(rows, k, row, width):
            return True
    return False


@njit(cache=True)
def advance(vr, frontier, n_rows, dice_left, nd, need, action, out, stack, dice, scratch, it):
    """The legal move ``action`` (checked by :func:`mask_into`) made from every row of
    ``frontier`` it is legal from, each way it can be made: the next frontier in ``out``
    (distinct rows); returns how many rows."""
    source = action // 6 + 1
    die = action % 6 + 1
    i = 0
    while dice_left[i] != die:
        i += 1
    kinds = 2 if vr[V_NO_HIDE] else 1
    n_out = 0
    for f in range(n_rows):
        stack[0] = frontier[f]
        if stack[0, OVER]:
            continue
        dice[0, :nd] = dice_left[:nd]
        for h in range(kinds):
            if step(vr, stack[0], stack[1], scratch, source, die, h == 1) < 0:
                continue
            _drop_die(dice, 0, i, nd)
            if not _keeps_need(vr, stack, dice, scratch, it, 1, nd - 1, need - 1):
                continue
            if not _known(out, n_out, stack[1], ROW):
                if n_out == MAX_FRONTIER:
                    raise ValueError("too many boards in a variant turn's frontier")
                out[n_out] = stack[1]
                n_out += 1
    return n_out


@njit(cache=True)
def _longest_from(vr, stack, dice, scratch, it, nd, need):
    """The most moves along legal moves from ``stack[0]`` (which must use ``need`` of its
    ``nd`` dice; a move that ends the game ends the play)."""
    if need == 0 or stack[0, OVER]:
        return 0
    most = 0
    level = 0
    it[0] = 0
    while True:
        if _next_edge(vr, stack, dice, scratch, it, level, nd - level) < 0:
            if level == 0:
                return most
            level -= 1
            continue
        depth = level + 1
        if not _keeps_need(vr, stack, dice, scratch, it, depth, nd - depth, need - depth):
            continue
        if depth > most:
            most = depth
            if most == need:
                return most
        if not stack[depth, OVER] and depth < need:
            level = depth
            it[level] = 0


@njit(cache=True)
def longest(vr, frontier, n_rows, dice_left, nd, need, count, stack, dice, scratch, it):
    """How many moves the longest legal play from the frontier still has (``count``: how
    many legal next moves :func:`mask_into` found). Shorter than ``need`` only where
    every longer play is cut short by a move that ends the game."""
    if count == 0:
        return 0
    if need == 1 or not (vr[V_FIRST_HIT_WINS] or vr[V_MOTHER]):
        return need
    most = 0
    for f in range(n_rows):
        stack[0] = frontier[f]
        dice[0, :nd] = dice_left[:nd]
        got = _longest_from(vr, stack, dice, scratch, it, nd, need)
        if got > most:
            most = got
    return most


@njit(cache=True)
def _board_hash(row):
    """A hash of the board part of a row (counts and pins)."""
    h = np.int64(1469598103934665603)
    for c in range(BOARD):
        h = (h ^ row[c]) * np.int64(1099511628211)
    return h


@njit(cache=True)
def _record(row, moves, n_moves, out_rows, out_moves, out_len, found, table):
    """Keep the play ending on ``row`` with the ``n_moves`` ``moves`` unless a play to the
    same board is kept already; returns the number of plays kept."""
    size = table.shape[0]
    slot = _board_hash(row) & (size - 1)
    while table[slot]:
        if _same_row(out_rows, table[slot] - 1, row, BOARD):
            return found
        slot = (slot + 1) & (size - 1)
    if found == out_rows.shape[0]:
        raise ValueError("too many distinct plays for the buffers")
    out_rows[found] = row[:BOARD]
    out_moves[found, :] = 0
    out_moves[found, :n_moves] = moves[:n_moves]
    out_len[found] = n_moves
    table[slot] = found + 1
    return found + 1


@njit(cache=True)
def _finish(vr, stack, dice, scratch, it, nd, need, root_mask, out_rows, out_moves, out_len,
            found, table):
    """Every way to finish from ``stack[0]`` along legal moves (the first of them among
    ``root_mask``), recorded by :func:`_record` at each row with no legal move left;
    returns the number of plays kept."""
    moves = np.zeros(4, np.int64)
    followed = np.zeros(_LEVELS, np.bool_)
    level = 0
    it[0] = 0
    while True:
        code = -1
        if need - level > 0 and not stack[level, OVER]:
            code = _next_edge(vr, stack, dice, scratch, it, level, nd - level)
        if code >= 0:
            depth = level + 1
            if level == 0 and not root_mask[code % HIT_CODE]:
                continue
            if not _keeps_need(vr, stack, dice, scratch, it, depth, nd - depth, need - depth):
                continue
            followed[level] = True
            moves[level] = code
            level = depth
            it[level] = 0
            followed[level] = False
            continue
        if not followed[level]:
            found = _record(stack[level], moves, level, out_rows, out_moves, out_len, found,
                            table)
        if level == 0:
            return found
        level -= 1


@njit(cache=True)
def plays_into(vr, frontier, n_rows, dice_left, nd, need, mask, out_rows, out_moves, out_len,
               table, stack, dice, scratch, it):
    """Every distinct way to finish the play from the frontier whose legal next moves are
    ``mask`` (:func:`mask_into`): the board after it (``out_rows[k]``, :data:`BOARD`
    columns) and its moves (``out_moves[k, :out_len[k]]``, actions plus
    :data:`HIT_CODE` for a hit), one play per board, the first found (bar and high points
    first); returns how many. ``table`` (``int64``, a power of two longer than the
    buffers) is cleared here."""
    table[:] = 0
    found = 0
    for f in range(n_rows):
        stack[0] = frontier[f]
        dice[0, :nd] = dice_left[:nd]
        found = _finish(vr, stack, dice, scratch, it, nd, need, mask, out_rows, out_moves,
                        out_len, found, table)
    return found

