"""Legal moves of draughts as a numba kernel: the fast path of
:func:`bg_env.draughts.moves.legal_moves`, the same rules compiled and tested against it
(``tests/core/test_draughts_kernel.py``: the same moves, in the same order, in random
games and random positions of every variant).

The rules are the reference's, one small function each (:mod:`bg_env.draughts.moves`
says them in words): :func:`_enemy` and :func:`_empty` (what a capture may jump and land
on), :func:`_man_may_take` (Italian), :func:`_jumps_into` (the single captures of a
piece), :func:`_stops` (English: a capture that crowns ends the move), :func:`_crowned_mid`
(Russian: crowned during the capture), :func:`_options` (where a capture sequence goes
on), :func:`_captures_of` (every complete sequence, depth first), :func:`_steps_of` (the
moves without a capture), :func:`_most_taken`, :func:`_by_priority` (Italian) and
:func:`_distinct`.

Three arrays carry everything, since each array a numba call passes costs more than these
rules' work: a board (the reference's ``board`` tuple as ``int64[n + 1]``), the variant's
table (:func:`variant_table`: each square's lines and row, the rule switches and the
directions each piece moves in, all taken from the reference's own functions) and one
work array per call (a capture search's stack; the moves found).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..draughts.board import KING, DraughtsPosition, crown_row
from ..draughts.moves import DraughtsMove, forward, man_capture_directions

__all__ = ["SPEC", "variant_table", "legal_move_arrays", "fast_legal_moves"]

SPEC = ("flying_kings", "most_captures", "crown_mid_capture", "capture_ends_at_crown",
        "men_take_kings", "capture_priorities", "orthogonal")
"""The rule switches of a variant the kernels read, in the order of the table's row 0
(then the white and the black crown rows, then the directions: :func:`variant_table`;
whether men take backward is in the directions)."""
_FLY, _MOST, _MID, _ENDS, _MEN_TAKE_KINGS, _PRIORITY, _ORTHO, _CROWN_W, _CROWN_B = range(
    len(SPEC) + 2)
_ORDER = len(SPEC) + 2
"""Row 0 from this column: ``order[c, kind, i]`` (``c`` 0 white, 1 black; ``kind`` 0 a
man's steps, 1 a man's captures, 2 a king's moves; -1 after the last direction)."""

_NOPT, _IDX, _PATH, _VICTIM, _KING, _BANNED, _TAKEN, _OPTS = range(8)
"""The columns of a capture search's stack (a row per depth): its options' count, the
one being tried, the square reached, the piece taken, whether the piece is a king now,
the direction it may not take next; (a row per square) whether that square's piece has
been taken; then the depth's options, four columns each."""
_MAX_OPTIONS = 40
"""Capture options at one square: four lines, at most nine landings on each."""


def variant_table(variant) -> np.ndarray:
    """The table of a :class:`~bg_env.draughts.variants.DraughtsVariant` (made once; equal
    variants share it): ``int64[n + 1, 4 * B + 1]``, ``B`` the board's size (at least 8,
    room for row 0). Row ``s`` (a square): for each direction ``d`` the line's length then its
    squares, nearest first (from column ``d * B``), and last the square's row. Row 0: the rule
    switches (:data:`SPEC`), the crown rows, the directions (:data:`_ORDER`)."""
    last = _LAST[0]
    if last is not None and last[0] is variant:
        return last[1]
    table = _TABLES.get(variant)
    if table is None:
        table = _TABLES[variant] = _make_table(variant)
    _LAST[0] = (variant, table)
    return table


_TABLES: dict = {}
_LAST: list = [None]
"""The variant last asked for and its table (no hashing for the common case)."""


def _make_table(variant) -> np.ndarray:
    g = variant.geometry
    n, block = len(g.cells) - 1, max(g.size, -(-(_ORDER + 23) // 4))  # (room for row 0)
    table = np.zeros((n + 1, 4 * block + 1), np.int64)
    for s in range(1, n + 1):
        for d, ray in enumerate(g.rays[s]):
            table[s, d * block] = len(ray)
            table[s, d * block + 1:d * block + 1 + len(ray)] = ray
        table[s, 4 * block] = g.cells[s][0]
    table[0, :_ORDER] = ([int(bool(getattr(variant, name))) for name in SPEC]
                         + [crown_row(variant, 1), crown_row(variant, -1)])
    order = np.full((2, 3, 4), -1, np.int64)
    pos = DraughtsPosition.start(variant)
    for c, colour in enumerate((1, -1)):
        for kind, dirs in enumerate((forward(pos, colour), man_capture_directions(pos, colour),
                                     range(4))):
            order[c, kind, :len(dirs)] = dirs
    table[0, _ORDER:_ORDER + 24] = order.ravel()
    return table


# ------------------------------------------------------------------ the table
@njit(cache=True)
def _ray(tab, s, d, k):
    """The ``k``-th square (0 nearest) along direction ``d`` from ``s``."""
    return tab[s, d * ((tab.shape[1] - 1) // 4) + 1 + k]


@njit(cache=True)
def _raylen(tab, s, d):
    return tab[s, d * ((tab.shape[1] - 1) // 4)]


@njit(cache=True)
def _row(tab, s):
    return tab[s, 4 * ((tab.shape[1] - 1) // 4)]


@njit(cache=True)
def _direction(tab, colour, kind, i):
    """The ``i``-th direction a piece of ``colour`` moves in (``kind`` as :data:`_ORDER`)."""
    return tab[0, _ORDER + (0 if colour > 0 else 12) + kind * 4 + i]


@njit(cache=True)
def _crown_row(tab, colour):
    return tab[0, _CROWN_W] if colour > 0 else tab[0, _CROWN_B]


# ------------------------------------------------------------------ single rules
@njit(cache=True)
def _enemy(board, work, square, colour):
    """An opponent's piece not taken yet in this move."""
    return board[square] * colour < 0 and work[square, _TAKEN] == 0


@njit(cache=True)
def _empty(board, tab, work, square, origin):
    """Empty now: no piece, the moving piece's start, or (Turkish) a piece taken."""
    return (board[square] == 0 or square == origin
            or (tab[0, _ORTHO] != 0 and work[square, _TAKEN] != 0))


@njit(cache=True)
def _man_may_take(board, tab, square):
    """Italian: a man may not take a king."""
    return tab[0, _MEN_TAKE_KINGS] != 0 or abs(board[square]) != KING


@njit(cache=True)
def _crowned_mid(tab, square, colour, king):
    """Russian: a man landing on its crown row during a capture is crowned at once."""
    return not king and tab[0, _MID] != 0 and _row(tab, square) == _crown_row(tab, colour)


@njit(cache=True)
def _stops(tab, square, colour, king):
    """English: a man that reaches the crown row by a capture stops there."""
    return not king and tab[0, _ENDS] != 0 and _row(tab, square) == _crown_row(tab, colour)


@njit(cache=True)
def _jumps_into(board, tab, work, row, at, colour, king, origin, banned, first_only):
    """The single captures from ``at`` into ``work[row]``'s option columns, four each:
    (victim, direction, first landing, end of landings) (indices along the line);
    returns how many (at most 1 with ``first_only``)."""
    n = 0
    for i in range(4):
        d = _direction(tab, colour, 2 if king else 1, i)
        if d < 0:
            break
        if d == banned:
            continue
        length = _raylen(tab, at, d)
        if king and tab[0, _FLY]:
            k = 0
            while k < length and _empty(board, tab, work, _ray(tab, at, d, k), origin):
                k += 1
            if k >= length - 1 or not _enemy(board, work, _ray(tab, at, d, k), colour):
                continue
            end = k + 1
            while end < length and _empty(board, tab, work, _ray(tab, at, d, end), origin):
                end += 1
            if end == k + 1:
                continue
            victim, lo = _ray(tab, at, d, k), k + 1
        elif (length >= 2 and _enemy(board, work, _ray(tab, at, d, 0), colour)
              and _empty(board, tab, work, _ray(tab, at, d, 1), origin)
              and (king or _man_may_take(board, tab, _ray(tab, at, d, 0)))):
            victim, lo, end = _ray(tab, at, d, 0), 1, 2
        else:
            continue
        c = _OPTS + 4 * n
        work[row, c], work[row, c + 1], work[row, c + 2], work[row, c + 3] = victim, d, lo, end
        n += 1
        if first_only:
            return n
    return n


@njit(cache=True)
def _options(board, tab, work, depth, at, colour, king, origin, banned, started):
    """Where a capture sequence standing on ``at`` goes on, into ``work[depth]``'s option
    columns, four each: (victim, landing, direction, king after); the landings from which
    it can take again when a capture has some, else all of them. Returns how many (0: the
    sequence is complete). ``work[-2]`` and ``work[-1]`` are scratch rows."""
    if started and _stops(tab, at, colour, king):
        return 0
    jumps, probe = work.shape[0] - 2, work.shape[0] - 1
    n = 0
    for j in range(_jumps_into(board, tab, work, jumps, at, colour, king, origin, banned,
                               False)):
        c = _OPTS + 4 * j
        victim, d = work[jumps, c], work[jumps, c + 1]
        lo, hi = work[jumps, c + 2], work[jumps, c + 3]
        back = 3 - d if tab[0, _ORTHO] else -1
        work[victim, _TAKEN] = 1
        first = n
        for k in range(lo, hi):
            to = _ray(tab, at, d, k)
            king_then = king or _crowned_mid(tab, to, colour, king)
            if (not _stops(tab, to, colour, king_then)
                    and _jumps_into(board, tab, work, probe, to, colour, king_then, origin,
                                    back, True) > 0):
                _option(work, depth, n, victim, to, d, king_then)
                n += 1
        if n == first:
            for k in range(lo, hi):
                to = _ray(tab, at, d, k)
                _option(work, depth, n, victim, to, d,
                        king or _crowned_mid(tab, to, colour, king))
                n += 1
        work[victim, _TAKEN] = 0
    return n


@njit(cache=True)
def _option(work, depth, n, victim, to, d, king):
    """Option ``n`` of ``work[depth]``."""
    c = _OPTS + 4 * n
    work[depth, c], work[depth, c + 1] = victim, to
    work[depth, c + 2], work[depth, c + 3] = d, king


# ------------------------------------------------------------------ the move list
# ``out``: a move a row, its path then the pieces it takes (2n columns), then the path's
# length (column -2) and whether the man is crowned (column -1).

@njit(cache=True)
def _grow(out):
    """The output array, twice as long."""
    bigger = np.empty((2 * out.shape[0], out.shape[1]), np.int64)
    bigger[:out.shape[0]] = out
    return bigger


@njit(cache=True)
def _captures_of(board, tab, work, origin, out, count):
    """Every complete capture sequence of the piece on ``origin``, depth first, written
    to ``out`` from row ``count``. Returns the new count, or -1 when ``out`` is full
    (nothing else changed)."""
    colour = 1 if board[origin] > 0 else -1
    was_king = abs(board[origin]) == KING
    work[0, _PATH], work[0, _IDX] = origin, 0
    work[0, _NOPT] = _options(board, tab, work, 0, origin, colour, was_king, origin, -1, False)
    depth = 0
    while True:
        if work[depth, _IDX] < work[depth, _NOPT]:
            c = _OPTS + 4 * work[depth, _IDX]
            victim, to = work[depth, c], work[depth, c + 1]
            d, king = work[depth, c + 2], work[depth, c + 3]
            work[depth, _IDX] += 1
            work[depth, _VICTIM] = victim
            work[victim, _TAKEN] = 1
            depth += 1
            work[depth, _PATH], work[depth, _KING], work[depth, _IDX] = to, king, 0
            work[depth, _BANNED] = 3 - d if tab[0, _ORTHO] else -1
            work[depth, _NOPT] = _options(board, tab, work, depth, to, colour, king != 0,
                                          origin, work[depth, _BANNED], True)
            if work[depth, _NOPT] > 0:
                continue
            if count == out.shape[0]:
                while depth > 0:
                    depth -= 1
                    work[work[depth, _VICTIM], _TAKEN] = 0
                return -1
            out[count, :depth + 1] = work[:depth + 1, _PATH]
            out[count, depth + 1:2 * depth + 1] = work[:depth, _VICTIM]
            out[count, -2] = depth + 1
            out[count, -1] = not was_king and (king != 0
                                               or _row(tab, to) == _crown_row(tab, colour))
            count += 1
        if depth == 0:
            return count
        depth -= 1
        work[work[depth, _VICTIM], _TAKEN] = 0


@njit(cache=True)
def _steps_of(board, tab, square, out, count):
    """The moves without a capture of the piece on ``square``, written as
    :func:`_captures_of` writes (-1: ``out`` is full)."""
    colour = 1 if board[square] > 0 else -1
    king = abs(board[square]) == KING
    for i in range(4):
        d = _direction(tab, colour, 2 if king else 0, i)
        if d < 0:
            break
        for k in range(_raylen(tab, square, d)):
            to = _ray(tab, square, d, k)
            if board[to] != 0:
                break
            if count == out.shape[0]:
                return -1
            out[count, 0], out[count, 1], out[count, -2] = square, to, 2
            out[count, -1] = not king and _row(tab, to) == _crown_row(tab, colour)
            count += 1
            if not (king and tab[0, _FLY]):
                break
    return count


@njit(cache=True)
def _most_taken(out, keep):
    """Keep only the sequences that take the most pieces."""
    most = 0
    for i in range(keep.shape[0]):
        if keep[i]:
            most = max(most, out[i, -2])
    for i in range(keep.shape[0]):
        keep[i] = keep[i] and out[i, -2] == most


@njit(cache=True)
def _king_places(board, out, i, places):
    """The places (0 first) among move ``i``'s victims that are kings, into ``places``;
    returns how many."""
    k = out[i, -2]
    n = 0
    for j in range(k - 1):
        if abs(board[out[i, k + j]]) == KING:
            places[n] = j
            n += 1
    return n


@njit(cache=True)
def _by_priority(board, out, keep):
    """Italian, among the captures that take the most: a king's before a man's, then those
    that take the most kings, then those that meet a king first."""
    m = keep.shape[0]
    any_king = False
    for i in range(m):
        any_king = any_king or (keep[i] and abs(board[out[i, 0]]) == KING)
    if any_king:
        for i in range(m):
            keep[i] = keep[i] and abs(board[out[i, 0]]) == KING
    places = np.empty((m, out.shape[1]), np.int64)
    counts = np.zeros(m, np.int64)
    most = 0
    for i in range(m):
        if keep[i]:
            counts[i] = _king_places(board, out, i, places[i])
            most = max(most, counts[i])
    best = -1
    for i in range(m):
        keep[i] = keep[i] and counts[i] == most
        if keep[i]:
            if best < 0:
                best = i
            else:
                for j in range(most):
                    if places[i, j] != places[best, j]:
                        if places[i, j] < places[best, j]:
                            best = i
                        break
    for i in range(m):
        if keep[i]:
            for j in range(most):
                if places[i, j] != places[best, j]:
                    keep[i] = False
                    break


@njit(cache=True)
def _victim_set(out, i):
    """Move ``i``'s victims as a bit set (bit ``s - 1`` for square ``s``)."""
    k = out[i, -2]
    bits = np.uint64(0)
    for j in range(k - 1):
        bits |= np.uint64(1) << np.uint64(out[i, k + j] - 1)
    return bits


@njit(cache=True)
def _distinct(out, keep, capturing):
    """One move for each start, end and set of pieces taken: the first found."""
    m = keep.shape[0]
    sets = np.zeros(m, np.uint64)
    for i in range(m):
        if not keep[i]:
            continue
        if capturing:
            sets[i] = _victim_set(out, i)
        end = out[i, out[i, -2] - 1]
        for j in range(i):
            if (keep[j] and out[j, 0] == out[i, 0] and out[j, out[j, -2] - 1] == end
                    and sets[j] == sets[i]):
                keep[i] = False
                break


@njit(cache=True)
def legal_move_arrays(board, turn, tab):
    """Every legal move of the side to move (``turn``: 1 white, -1 black) on ``board``
    (``int64[n + 1]``), as :func:`bg_env.draughts.moves.legal_moves` lists them; ``tab``:
    the variant's :func:`variant_table` (a kernel).

    Returns:
        ``(moves, capturing)``: a move a row, its path (``k`` squares, ``k`` in column
        -2) then, when ``capturing``, the ``k - 1`` pieces it takes in order; column -1:
        whether the man is crowned.
    """
    n = board.shape[0]
    work = np.empty((n + 2, _OPTS + 4 * _MAX_OPTIONS), np.int64)
    work[:, _TAKEN] = 0
    out = np.empty((64, 2 * n + 2), np.int64)
    count = 0
    for s in range(1, n):
        if board[s] * turn > 0 and _jumps_into(board, tab, work, n + 1, s, turn,
                                               abs(board[s]) == KING, s, -1, True):
            done = _captures_of(board, tab, work, s, out, count)
            while done < 0:
                out = _grow(out)
                done = _captures_of(board, tab, work, s, out, count)
            count = done
    capturing = count > 0
    if not capturing:
        for s in range(1, n):
            if board[s] * turn > 0:
                done = _steps_of(board, tab, s, out, count)
                while done < 0:
                    out = _grow(out)
                    done = _steps_of(board, tab, s, out, count)
                count = done
    keep = np.ones(count, np.bool_)
    if capturing:
        if tab[0, _MOST]:
            _most_taken(out, keep)
        if tab[0, _PRIORITY]:
            _by_priority(board, out, keep)
    _distinct(out, keep, capturing)
    picked = np.flatnonzero(keep)
    width = 2
    for i in picked:
        width = max(width, 2 * out[i, -2] - 1)
    moves = np.empty((picked.shape[0], width + 2), np.int64)
    for r in range(picked.shape[0]):
        moves[r, :width] = out[picked[r], :width]
        moves[r, -2:] = out[picked[r], -2:]
    return moves, capturing


def fast_legal_moves(pos) -> list[DraughtsMove]:
    """:func:`bg_env.draughts.moves.legal_moves` of ``pos`` from the kernel: the same
    moves in the same order."""
    moves, capturing = legal_move_arrays(np.array(pos.board, np.int64), pos.turn,
                                         variant_table(pos.variant))
    if capturing:
        return [DraughtsMove(tuple(row[:row[-2]]), tuple(row[row[-2]:2 * row[-2] - 1]),
                             row[-1] == 1) for row in moves.tolist()]
    return [DraughtsMove((row[0], row[1]), (), row[-1] == 1) for row in moves.tolist()]
