"""Fast legal-play generation: numba kernels over numpy arrays, checked against
:mod:`bg_env.rules.moves`.

Rules source: ``docs/RULES.md`` §2 (moving, the max-dice and larger-die rules), §3
(bar), §4 (bearing off). The rules are those of :mod:`bg_env.rules.moves`, which is the
truth; this module is the fast path (the same rules compiled, never a second copy of
them) and is tested against it.

Boards are two ``int8`` (or ``int64``) arrays of 26 counts, ``me`` and ``opp``, laid out as
:class:`~bg_env.rules.position.Position` (index 0 = off, 1..24 = points in that side's own
numbering, 25 = bar), with at most 15 checkers of the player on roll on the board.
Kernels never modify their inputs.

* :func:`fast_legal_plays` (a kernel): every distinct play as arrays of results and
  action indices.
* :func:`fast_legal_plays_into` (a kernel): the same into the caller's buffers, for hot
  loops (returning arrays to Python costs more than the search).
* :func:`legal_plays_fast`: the same as :func:`bg_env.rules.moves.legal_plays`, the same
  :class:`~bg_env.rules.moves.Play` objects in the same order.

The legal next moves of a partial play as masks, and one game's checker play step by step,
are in :mod:`bg_env.kernels.masks`; the single-move rules all of them share in
:mod:`bg_env.kernels.moves`; dice drawn from a numpy generator in
:mod:`bg_env.kernels.dice`.

Unchecked paths: the kernels trust their input (26 counts, no point held by both sides,
dice 1..6) apart from raising ``ValueError`` for a negative count or more than 15 checkers
on the board; :func:`legal_plays_fast` checks the dice. Kernels are compiled once (the
internal helpers when the module is first imported, the public kernels on first use, per
array dtype) and cached on disk (``cache=True``); later processes load them in about a
second.

The search follows :func:`~bg_env.rules.moves.legal_plays`: doubles in non-increasing
source order, two different dice in both orders, sources from the bar down; a play is
kept the first time its result (mover's checkers plus the opposing blots hit) is met among
the plays using the most dice, so the kept move lists are the ones ``legal_plays`` keeps.
"""

from __future__ import annotations

import struct

import numpy as np
from numba import njit, types

from ..rules.actions import decode_move
from .masks import N_MOVE_ACTIONS
from .moves import (
    landing_point,
    shift_checker,
    next_source,
    occupied_mask,
    outside_after,
    prepare_move_masks,
    top_bit,
)
from ..rules.moves import Move, Play, check_dice
from ..rules.position import Position

__all__ = [
    "fast_legal_plays",
    "fast_legal_plays_into",
    "legal_plays_fast",
    "MOVE_CODES",
]

_EMPTY = -1
_NO_MOVE = -1

# Argument types of the internal helpers. They are compiled for these types only (when
# the module is first imported, then loaded from numba's cache): numba would otherwise
# compile a helper again for every constant it is called with.
_I = types.int64
_B = types.boolean
_A = types.int64[::1]

# Rows of the search's per-depth state (``_dfs``): columns are the depths 0..4.
_SRC, _HIT, _OUT, _LO, _HI, _HM, _MOVED, _OCC, _DIE = 0, 1, 2, 3, 4, 5, 6, 7, 8
_STATE_ROWS = 9
_STORE_COLS = 7
_TABLE_PER_ROW = 4  # hash-table slots per stored play (a power of two)


# --------------------------------------------------------------------- full plays
@njit((_I, _I, _I, _I), cache=True)
def _key_move(lo, hi, source, dest):
    """Update the result key (4 bits per point: 1..15 in ``lo``, 16..25 in ``hi``) for
    one checker moved from ``source`` to ``dest``."""
    if source <= 15:
        lo -= 1 << (4 * (source - 1))
    else:
        hi -= 1 << (4 * (source - 16))
    if dest >= 16:
        hi += 1 << (4 * (dest - 16))
    elif dest >= 1:
        lo += 1 << (4 * (dest - 1))
    return lo, hi


@njit((_I, _I, _I, _I), cache=True)
def _slot(lo, hi, hm, mask):
    """Hash-table slot of a result key (``lo`` < 2**60, ``hi`` < 2**40, ``hm`` < 2**25;
    no step overflows, as numba's signed arithmetic must not)."""
    h = lo ^ (lo >> 21) ^ (lo >> 42) ^ (hi << 3) ^ (hi >> 19) ^ (hm << 11)
    h = ((h ^ (h >> 29)) & 0x3FFFFFFF) * 2654435761
    return (h >> 16) & mask


@njit((_B, _I, _I, _I), cache=True)
def _score(double, depth, first_die, larger):
    """Rank of a play by the max-dice and larger-die rules (RULES §2): more dice first;
    a single die of two different ones ranks higher when it is the larger."""
    if double or depth != 1:
        return 2 * depth
    return 3 if first_die == larger else 2


@njit(inline="always", cache=True)
def _find(table, store, lo, hi, hm):
    """The slot of the key ``(lo, hi, hm)`` in ``table`` (open addressing over the rows of
    ``store``): ``(slot, True)`` when it is there, else ``(free slot, False)``."""
    mask = table.shape[0] - 1
    i = _slot(lo, hi, hm, mask)
    while table[i] != _EMPTY:
        r = table[i]
        if store[r, 0] == lo and store[r, 1] == hi and store[r, 2] == hm:
            return i, True
        i = (i + 1) & mask
    return i, False


@njit((_A, types.int64[:, ::1], _I), cache=True)
def _undo(me, st, d):
    """Take back the moves of depths ``0..d-1`` on ``me``."""
    while d > 0:
        d -= 1
        s = st[_SRC, d]
        me[landing_point(s, st[_DIE, d])] -= 1
        me[s] += 1


@njit(inline="always", cache=True)
def _keep(store, table, st, n, best, d, lo, hi, hm, double, larger):
    """A play of ``d`` moves (the moves in ``st``, the result's key ``lo, hi, hm``): stored
    when it ranks best so far (the earlier plays are dropped when it ranks higher) and its
    result is new. Returns ``(n, best)`` after it; ``n`` is -1 when ``store`` is full."""
    score = _score(double, d, st[_DIE, 0], larger)
    if score < best:
        return n, best
    if score > best:
        best = score
        n = 0
        if not double:
            table[:] = _EMPTY
    i = 0
    if not double:  # doubles never repeat a result (see _dfs)
        i, found = _find(table, store, lo, hi, hm)
        if found:
            return n, best
    if n == store.shape[0]:
        return -1, best
    store[n, 0] = lo
    store[n, 1] = hi
    store[n, 2] = hm
    for j in range(4):
        if j < d:
            store[n, 3 + j] = (st[_SRC, j] - 1) * 6 + st[_DIE, j] - 1 + 150 * st[_HIT, j]
        else:
            store[n, 3 + j] = _NO_MOVE
    if not double:
        table[i] = n
    return n + 1, best


@njit((_A, _I, _I, _I, _I, _I, types.int64[:, ::1], _A, types.int64[:, ::1]), cache=True)
def _dfs(me, open_mask, blot_mask, outside, d1, d2, store, table, st):
    """The search of :func:`_search` into fixed buffers: ``store`` (the plays), ``table``
    (their hash table, a power of two long, 4 slots a row; only two different dice need
    it) and ``st`` (the state of each depth). No array is reassigned here, which keeps
    numba's reference counting out of the loop. The last die's move is not made on
    ``me``: the play is complete, its key is all that is needed.

    Two shortcuts skip only plays that would be dropped as repeats, so the plays kept and
    their order are those of the full search:

    * Doubles: sources go in non-increasing order, so every multiset of sources is met
      once, and two multisets never give the same board (the highest point where they
      differ tells them apart), nor the same hits; the plays need no hash table.
    * Two different dice, the second order (``d2`` first): once the first order has used
      both dice, with no checker on the bar and two or more outside the home board (so no
      move bears off and none is made legal by the other), the moves of two different
      checkers commute, and their play was met in the first order. Only one checker moved
      by both dice from a point the mover did not hold can give a new board (its
      intermediate point differs), so the second move is searched from that point only.

    Returns ``(n, best)``: the plays stored and the best rank (:func:`_score`); ``n`` is
    -1 when ``store`` is full (the caller retries with larger buffers).
    """
    double = d1 == d2
    nd = 4 if double else 2
    larger = max(d1, d2)
    n = 0
    best = -1
    lo0 = 0
    hi0 = 0
    for p in range(1, 16):
        lo0 |= me[p] << (4 * (p - 1))
    for p in range(16, 26):
        hi0 |= me[p] << (4 * (p - 16))
    occ0 = occupied_mask(me)
    commute = me[25] == 0 and outside >= 2
    for order in range(1 if double else 2):
        for i in range(nd):
            st[_DIE, i] = d1
        if order == 1:
            st[_DIE, 0] = d2
        else:
            st[_DIE, 1] = d2
        only_same = order == 1 and commute and best == 4
        d = 0
        st[_SRC, 0] = 25
        st[_MOVED, 0] = 0
        st[_OUT, 0] = outside
        st[_LO, 0] = lo0
        st[_HI, 0] = hi0
        st[_HM, 0] = 0
        st[_OCC, 0] = occ0
        while True:
            if d < nd:
                die = st[_DIE, d]
                s = next_source(st[_OCC, d], st[_SRC, d], die, st[_OUT, d], open_mask)
                if s != 0 and only_same and d == 1 and s != landing_point(st[_SRC, 0], st[_DIE, 0]):
                    s = 0
                if s != 0:
                    st[_MOVED, d] = 1
                    st[_SRC, d] = s
                    dest = landing_point(s, die)
                    hm = st[_HM, d]
                    hit = 0
                    if dest >= 1 and (blot_mask >> dest) & 1 and not (hm >> dest) & 1:
                        hit = 1
                        hm |= 1 << dest
                    st[_HIT, d] = hit
                    lo, hi = _key_move(st[_LO, d], st[_HI, d], s, dest)
                    if d == nd - 1:  # the last die: a whole play
                        n, best = _keep(store, table, st, n, best, nd, lo, hi, hm, double, larger)
                        if n < 0:
                            _undo(me, st, d)  # restore the board before giving up
                            return -1, best
                        st[_SRC, d] = s - 1
                        continue
                    st[_OCC, d + 1] = shift_checker(me, st[_OCC, d], s, dest)
                    st[_OUT, d + 1] = outside_after(st[_OUT, d], s, dest)
                    d += 1
                    st[_LO, d] = lo
                    st[_HI, d] = hi
                    st[_HM, d] = hm
                    st[_MOVED, d] = 0
                    if double:
                        st[_SRC, d] = s
                    elif only_same:  # the same checker, from a point not held before
                        st[_SRC, d] = dest if me[dest] == 1 else 0
                    else:
                        st[_SRC, d] = 25
                    continue
            if st[_MOVED, d] == 0:  # a play of d moves that cannot go on
                n, best = _keep(store, table, st, n, best, d, st[_LO, d], st[_HI, d],
                                st[_HM, d], double, larger)
                if n < 0:
                    _undo(me, st, d)
                    return -1, best
            if d == 0:
                break
            d -= 1
            s = st[_SRC, d]
            me[landing_point(s, st[_DIE, d])] -= 1
            me[s] += 1
            st[_SRC, d] = s - 1
    return n, best


@njit(cache=True)
def _search(me_in, opp_in, d1, d2):
    """Every distinct legal play, packed.

    Returns ``(store, n, moves)``: ``store[:n]`` holds one row per play in the order of
    :func:`bg_env.rules.moves.legal_plays`, the result's key (columns 0-2: mover's
    checkers 1..15 and 16..25 at 4 bits a point, bit mask of the points where a blot was
    hit) and its moves (columns 3-6: ``action + 150 * hit``, -1 padded); ``moves`` is how
    many dice each play uses. The buffers are one allocation (store, hash table, state).
    """
    me, open_mask, blot_mask, outside = prepare_move_masks(me_in, opp_in)
    cap = 64
    while True:
        rows = cap * _STORE_COLS
        slots = cap * _TABLE_PER_ROW
        work = np.empty(rows + slots + _STATE_ROWS * 5, np.int64)
        store = work[:rows].reshape((cap, _STORE_COLS))
        table = work[rows:rows + slots]
        st = work[rows + slots:].reshape((_STATE_ROWS, 5))
        n, best = _dfs(me, open_mask, blot_mask, outside, d1, d2, store, table, st)
        if n >= 0:
            break
        cap *= 8
    if d1 == d2 or best != 3:
        moves = best // 2
    else:
        moves = 1
    return store, n, moves


@njit(cache=True)
def _result_row(me_in, opp_in, lo, hi, hm, out_me, out_opp):
    """Decode a result key into the two boards."""
    total = 0
    for p in range(26):
        total += me_in[p]
        out_opp[p] = opp_in[p]
    on_board = 0
    for p in range(1, 16):
        c = (lo >> (4 * (p - 1))) & 15
        out_me[p] = c
        on_board += c
    for p in range(16, 26):
        c = (hi >> (4 * (p - 16))) & 15
        out_me[p] = c
        on_board += c
    out_me[0] = total - on_board
    if hm != 0:
        for p in range(1, 25):
            if (hm >> p) & 1:
                out_opp[25 - p] = 0
                out_opp[25] += 1


@njit(cache=True)
def _results_into(me_in, opp_in, store, n, out_me, out_opp, out_actions):
    """Rows ``0..n-1`` of :func:`_search`'s ``store`` decoded into the result boards and
    action indices (:func:`_result_row` for every row at once: the checker total is counted
    once, the rows are written without a view per row)."""
    total = 0
    for p in range(26):
        total += me_in[p]
    for r in range(n):
        lo = store[r, 0]
        hi = store[r, 1]
        hm = store[r, 2]
        on_board = 0
        for p in range(1, 16):
            c = (lo >> (4 * (p - 1))) & 15
            out_me[r, p] = c
            on_board += c
        for p in range(16, 26):
            c = (hi >> (4 * (p - 16))) & 15
            out_me[r, p] = c
            on_board += c
        out_me[r, 0] = total - on_board
        for p in range(26):
            out_opp[r, p] = opp_in[p]
        while hm != 0:  # the blots hit, one bit each
            p = top_bit(hm)
            hm ^= 1 << p
            out_opp[r, 25 - p] = 0
            out_opp[r, 25] += 1
        for j in range(4):
            code = store[r, 3 + j]
            out_actions[r, j] = code - 150 if code >= 150 else code


@njit(cache=True)
def fast_legal_plays(me, opp, d1, d2):
    """Every distinct legal play for the roll ``d1-d2`` (a kernel).

    Args:
        me, opp: the position, 26 counts each (``Position.me``/``.opp`` as arrays).
        d1, d2: the dice, 1..6 (unchecked).

    Returns:
        ``(results_me, results_opp, actions, n_moves)``: ``int8[K, 26]`` result boards
        (not swapped), ``int16[K, 4]`` action indices in playable order padded with -1,
        and how many dice every play uses. One row per distinct result, in the order of
        :func:`bg_env.rules.moves.legal_plays`; one row with no action when no die can
        be played.
    """
    store, n, moves = _search(me, opp, d1, d2)
    res_me = np.empty((n, 26), np.int8)
    res_opp = np.empty((n, 26), np.int8)
    actions = np.empty((n, 4), np.int16)
    _results_into(me, opp, store, n, res_me, res_opp, actions)
    return res_me, res_opp, actions, moves


@njit(cache=True)
def fast_legal_plays_into(me, opp, d1, d2, out_me, out_opp, out_actions):
    """:func:`fast_legal_plays` writing into the caller's buffers (a kernel; no arrays
    are returned, which saves most of the cost of a call from Python).

    Returns:
        ``(K, n_moves)``. Rows ``0..K-1`` of ``out_me``, ``out_opp`` (``[N, 26]``) and
        ``out_actions`` (``[N, 4]``) are written when ``K <= N``; when the buffers are too
        small nothing is written and ``K`` tells the rows needed.
    """
    store, n, moves = _search(me, opp, d1, d2)
    if n > out_me.shape[0] or n > out_opp.shape[0] or n > out_actions.shape[0]:
        return n, moves
    _results_into(me, opp, store, n, out_me, out_opp, out_actions)
    return n, moves


@njit(cache=True)
def _plays_for_python(board, d1, d2):
    """The plays packed in bytes for :func:`legal_plays_fast`: per row the result's two
    boards (bytes 0-51), whether it hits (52), then each move as a little-endian
    ``uint16`` code ``action + 150 * hit`` (as many as the dice used)."""
    me = board[:26]
    opp = board[26:]
    store, n, moves = _search(me, opp, d1, d2)
    out = np.empty((n, 53 + 2 * moves), np.uint8)
    for r in range(n):
        _result_row(me, opp, store[r, 0], store[r, 1], store[r, 2], out[r, :26], out[r, 26:52])
        out[r, 52] = store[r, 2] != 0
        for j in range(moves):
            code = store[r, 3 + j]
            out[r, 53 + 2 * j] = code & 255
            out[r, 54 + 2 * j] = code >> 8
    return out


# --------------------------------------------------------------- Python objects
MOVE_CODES: tuple[Move, ...] = tuple(
    Move(*decode_move(a), hit) for hit in (False, True) for a in range(N_MOVE_ACTIONS)
)
"""Every Move, indexed by ``action + 150 * hit`` (Move is immutable, so they are shared)."""

_new = object.__new__
_set_me = Position.__dict__["me"].__set__  # Position is a slots dataclass
_set_opp = Position.__dict__["opp"].__set__
_board = struct.Struct("26B").unpack_from
_codes = tuple(struct.Struct(f"<{m}H").unpack_from for m in range(5))


def legal_plays_fast(pos: Position, dice: tuple[int, int]) -> list[Play]:
    """Every distinct legal play: :func:`bg_env.rules.moves.legal_plays` computed by the
    kernel (the same plays, moves and order).

    Building the Python objects costs more than the search, so they are made lean: the
    dataclasses' ``__init__`` is skipped (the kernel's boards need no checks), the board
    tuples are unpacked straight from bytes, and :class:`~bg_env.rules.moves.Move` objects
    are shared.

    Raises:
        ValueError: a die is not 1..6, or the position is not valid for the kernels.
    """
    try:
        d1, d2 = dice
    except (TypeError, ValueError):
        d1 = d2 = None
    if type(d1) is not int or type(d2) is not int or not (1 <= d1 <= 6 and 1 <= d2 <= 6):
        d1, d2 = check_dice(dice)  # numpy's integers, or the library's error
    board = np.frombuffer(bytearray(pos.me + pos.opp), np.int8)  # faster than np.array
    packed = _plays_for_python(board, d1, d2)
    k, width = packed.shape
    buf = packed.tobytes()
    codes = _codes[(width - 53) // 2]
    moves_all = MOVE_CODES
    opp = pos.opp
    out = []
    append = out.append
    for off in range(0, k * width, width):
        result = _new(Position)
        _set_me(result, _board(buf, off))
        _set_opp(result, _board(buf, off + 26) if buf[off + 52] else opp)
        play = _new(Play)
        fields = play.__dict__
        fields["start"] = pos
        fields["moves"] = tuple([moves_all[c] for c in codes(buf, off + 53)])
        fields["result"] = result
        append(play)
    return out
