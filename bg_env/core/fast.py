"""Fast legal-play generation: numba kernels over numpy arrays, checked against
:mod:`bg_env.core.moves`.

Rules source: ``docs/RULES.md`` §2 (moving, the max-dice and larger-die rules), §3
(bar), §4 (bearing off). The rules are those of :mod:`bg_env.core.moves`, which is the
truth; this module is the fast path (DESIGN.md, "Principles") and is tested against it.

Boards are two ``int8`` (or ``int64``) arrays of 26 counts, ``me`` and ``opp``, laid out as
:class:`~bg_env.core.position.Position` (index 0 = off, 1..24 = points in that side's own
numbering, 25 = bar), with at most 15 checkers of the player on roll on the board.
Kernels never modify their inputs.

* :func:`fast_legal_plays` (a kernel): every distinct play as arrays of results and
  action indices.
* :func:`fast_legal_plays_into` (a kernel): the same into the caller's buffers, for hot
  loops (returning arrays to Python costs more than the search).
* :func:`legal_plays_fast`: the same as :func:`bg_env.core.moves.legal_plays`, the same
  :class:`~bg_env.core.moves.Play` objects in the same order.
* :func:`next_move_mask` (a kernel): :func:`bg_env.core.moves.legal_next_moves` as a mask
  over the 150 move actions (``(source - 1) * 6 + (die - 1)``).
* :func:`turn_plan` (a kernel): how many dice a roll must use and whether only the larger
  die may be played, the two numbers :func:`next_move_mask` needs at the start of a turn.
* :func:`play_and_settle`, :func:`move_mask_into`, :func:`plan_turn`, :func:`roll_dice`
  (kernels): one game's checker play step by step, and its dice drawn from a numpy
  generator (the fast path of :class:`~bg_env.core.game.Game`).

Unchecked paths: the kernels trust their input (26 counts, no point held by both sides,
dice 1..6) apart from raising ``ValueError`` for a negative count or more than 15 checkers
on the board; :func:`legal_plays_fast` checks the dice. Kernels are compiled once (the
internal helpers when the module is first imported, the public kernels on first use, per
array dtype) and cached on disk (``cache=True``); later processes load them in about a
second.

The search follows :func:`~bg_env.core.moves.legal_plays`: doubles in non-increasing
source order, two different dice in both orders, sources from the bar down; a play is
kept the first time its result (mover's checkers plus the opposing blots hit) is met among
the plays using the most dice, so the kept move lists are the ones ``legal_plays`` keeps.
"""

from __future__ import annotations

import struct

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

try:
    from numba.cpython.unsafe.numbers import leading_zeros as _leading_zeros
except ImportError:  # pragma: no cover - numba moved its intrinsic

    @njit(cache=True)
    def _leading_zeros(x):
        n = 64
        while x != 0:
            x >>= 1
            n -= 1
        return n

from .actions import decode_move
from .move_kernels import apply_move_kernel, use_die_kernel
from .moves import Move, Play, dice_to_play
from .position import Position

__all__ = [
    "fast_legal_plays",
    "fast_legal_plays_into",
    "legal_plays_fast",
    "next_move_mask",
    "turn_plan",
    "roll_dice",
    "plan_turn",
    "play_and_settle",
    "move_mask_into",
    "N_MOVE_ACTIONS",
]

N_MOVE_ACTIONS = 150
"""Number of checker-move actions: ``(source - 1) * 6 + (die - 1)``, source 1..25."""

_EMPTY = -1
_NO_MOVE = -1

# Argument types of the internal helpers. They are compiled for these types only (when
# the module is first imported, then loaded from numba's cache): numba would otherwise
# compile a helper again for every constant it is called with.
_I = types.int64
_B = types.boolean
_A = types.int64[::1]

# Rows of the search's per-depth state (``_search``).
_SRC, _HIT, _OUT, _LO, _HI, _HM, _MOVED, _OCC = 0, 1, 2, 3, 4, 5, 6, 7


# ----------------------------------------------------------------- single-move rules
@njit(cache=True)
def _prepare(me_in, opp_in):
    """The mover's checkers as a work copy, and what the opponent's checkers allow.

    Returns ``(me, open_mask, blot_mask, outside)``: bit ``p`` of ``open_mask`` is set when
    the mover may land on his point ``p`` (fewer than two opposing checkers there, RULES
    §2), of ``blot_mask`` when one opposing checker stands there (a hit, RULES §3);
    ``outside`` counts the mover's checkers not in his home board (points 7..24 and the
    bar, RULES §4). Hits never close a point, so both masks hold for the whole turn.
    """
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
    open_mask = 0
    blot_mask = 0
    for p in range(1, 25):
        c = opp_in[25 - p]
        if c < 2:
            open_mask |= 1 << p
        if c == 1:
            blot_mask |= 1 << p
    outside = 0
    for p in range(7, 26):
        outside += me[p]
    return me, open_mask, blot_mask, outside


@njit((_I,), cache=True)
def _top_bit(x):
    """Index of the highest set bit of ``x > 0``."""
    return 63 - _leading_zeros(x)


@njit((_A,), cache=True)
def _occupied(me):
    """Bit mask of the points 1..25 holding checkers of the mover."""
    occ = 0
    for p in range(1, 26):
        if me[p] != 0:
            occ |= 1 << p
    return occ


@njit((_I, _I, _I, _I, _I), cache=True)
def _next_source(occ, top, die, outside, open_mask):
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
        return _top_bit(cand)
    if outside != 0:
        return 0
    if top >= die and (occ >> die) & 1:
        return die  # bear off from the point of the die
    low = min(top, die - 1)
    lower = occ & ((2 << low) - 1)
    if lower == 0:
        return 0
    s = _top_bit(lower)
    if (occ & ~((2 << s) - 1)) != 0:
        return 0  # a checker on a higher point: the larger die must move it
    return s


@njit((_I, _I), cache=True)
def _dest(source, die):
    """Where a checker moved from ``source`` by ``die`` lands (0 = borne off)."""
    d = source - die
    return d if d > 0 else 0


@njit((_I, _I, _I), cache=True)
def _outside_after(outside, source, dest):
    """``outside`` after a move: a checker from 7..25 into the home board comes in."""
    return outside - 1 if (source >= 7 and dest <= 6) else outside


@njit((_A, _I, _I, _I), cache=True)
def _move(me, occ, source, dest):
    """Move one checker in ``me`` (unchecked); returns the new occupied-points mask."""
    me[source] -= 1
    if me[source] == 0:
        occ &= ~(1 << source)
    me[dest] += 1
    if dest > 0:
        occ |= 1 << dest
    return occ


# --------------------------------------------------------------- max dice usable
@njit((_A, _I, _I, _I, _A, _I, _B, _I), cache=True)
def _max_in_order(me, occ, outside, open_mask, seq, n, same, target):
    """The most dice of ``seq[:n]`` playable in that order (stops at ``target``).

    With ``same`` (all dice equal) sources are searched in non-increasing order, which
    loses no play (see :func:`bg_env.core.moves.legal_plays`). ``me`` is changed during
    the search and restored before returning.
    """
    st = np.empty((3, 5), np.int64)  # per depth: source, outside, occupied mask
    best = 0
    d = 0
    st[0, 0] = 25
    st[1, 0] = outside
    st[2, 0] = occ
    while True:
        if d < n:
            die = seq[d]
            s = _next_source(st[2, d], st[0, d], die, st[1, d], open_mask)
            if s != 0:
                st[0, d] = s
                dest = _dest(s, die)
                st[2, d + 1] = _move(me, st[2, d], s, dest)
                st[1, d + 1] = _outside_after(st[1, d], s, dest)
                d += 1
                if d > best:
                    best = d
                    if best >= target:
                        while d > 0:
                            d -= 1
                            s = st[0, d]
                            me[_dest(s, seq[d])] -= 1
                            me[s] += 1
                        return best
                if d < n:
                    st[0, d] = s if same else 25
                continue
        if d == 0:
            return best
        d -= 1
        s = st[0, d]
        me[_dest(s, seq[d])] -= 1
        me[s] += 1
        st[0, d] = s - 1


@njit((_A, _I, _I, _I, _A, _I, _I), cache=True)
def _max_usable(me, occ, outside, open_mask, dice, n, target):
    """How many of ``dice[:n]`` can be played in some order, capped at ``target``.

    The dice are all equal (a double) or two; other mixes raise ``ValueError``.
    """
    if target > n:
        target = n
    if target <= 0:
        return 0
    same = True
    for i in range(1, n):
        if dice[i] != dice[0]:
            same = False
    if same:
        return _max_in_order(me, occ, outside, open_mask, dice, n, True, target)
    if n != 2:
        raise ValueError("remaining dice must be all equal, or two dice")
    seq = np.empty(2, np.int64)
    seq[0] = dice[0]
    seq[1] = dice[1]
    first = _max_in_order(me, occ, outside, open_mask, seq, 2, False, target)
    if first >= target:
        return first
    seq[0] = dice[1]
    seq[1] = dice[0]
    return max(first, _max_in_order(me, occ, outside, open_mask, seq, 2, False, target))


@njit(cache=True)
def mask_into(me, opp, remaining, n, moves_left, larger_only, mask):
    """:func:`next_move_mask` for ``remaining[:n]`` into ``mask`` (all zeros on entry, any
    dtype; ``mask[action] = 1`` for each legal move). Returns how many moves are legal and
    the last of them (-1 when none)."""
    count = 0
    last = -1
    if moves_left <= 0 or n == 0:
        return count, last
    work, open_mask, _, outside = _prepare(me, opp)
    occ = _occupied(work)
    rest = np.empty(4, np.int64)
    for i in range(n):
        die = np.int64(remaining[i])
        seen = False
        for j in range(i):
            if remaining[j] == die:
                seen = True
        if seen or (larger_only != 0 and die != larger_only):
            continue
        k = 0
        for j in range(n):
            if j != i:
                rest[k] = remaining[j]
                k += 1
        s = _next_source(occ, 25, die, outside, open_mask)
        while s != 0:
            legal = True
            if moves_left > 1:
                dest = _dest(s, die)
                occ2 = _move(work, occ, s, dest)
                o = _outside_after(outside, s, dest)
                usable = _max_usable(work, occ2, o, open_mask, rest, k, moves_left - 1)
                legal = usable >= moves_left - 1
                work[dest] -= 1
                work[s] += 1
            if legal:
                a = (s - 1) * 6 + die - 1
                mask[a] = 1
                count += 1
                last = a
            s = _next_source(occ, s - 1, die, outside, open_mask)
    return count, last


@njit(cache=True)
def next_move_mask(me, opp, remaining, moves_left, larger_only):
    """The legal next moves of a partial play, as a ``bool[150]`` mask (a kernel).

    The same as :func:`bg_env.core.moves.legal_next_moves`: a move is legal when it starts
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
    :func:`next_move_mask` at the start of the turn.
    """
    work, open_mask, _, outside = _prepare(me, opp)
    occ = _occupied(work)
    dice = np.empty(4, np.int64)
    if d1 == d2:
        for i in range(4):
            dice[i] = d1
        return _max_usable(work, occ, outside, open_mask, dice, 4, 4), 0
    dice[0] = d1
    dice[1] = d2
    need = _max_usable(work, occ, outside, open_mask, dice, 2, 2)
    if need == 1:
        larger = max(d1, d2)
        if _next_source(occ, 25, larger, outside, open_mask) != 0:
            return 1, larger
    return need, 0


# ------------------------------------------------------------ one game, step by step
# The kernels behind :class:`bg_env.core.game.Game`'s fast path: a board is one
# ``int8[52]`` array (``me`` then ``opp``, as :meth:`Game.board_array
# <bg_env.core.game.Game.board_array>`), never written; a move is logged as the code
# ``action + 150 * hit`` (9 bits each, first move in the low bits).

@intrinsic
def _call_next_uint32(typingctx, fn, state):
    """``fn(state)`` for a C function ``uint32_t fn(void *)`` given by address (the
    ``next_uint32`` of a numpy ``BitGenerator``'s ``ctypes`` interface)."""
    if not (isinstance(fn, types.Integer) and isinstance(state, types.Integer)):
        return None
    sig = types.uint32(fn, state)

    def codegen(context, builder, signature, args):
        ptr = ir.IntType(8).as_pointer()
        fnty = ir.FunctionType(ir.IntType(32), [ptr])
        callee = builder.inttoptr(args[0], fnty.as_pointer())
        return builder.call(callee, [builder.inttoptr(args[1], ptr)])

    return sig, codegen


@njit(cache=True)
def die_from(fn, state):
    """One die, exactly as ``numpy.random.Generator.integers(1, 7)`` draws it from the
    same bit generator: Lemire's method on ``next_uint32``, rejecting as numpy does."""
    m = np.uint64(_call_next_uint32(fn, state)) * np.uint64(6)
    if (m & np.uint64(0xFFFFFFFF)) < np.uint64(6):
        # numpy's threshold: (UINT32_MAX - 5) % 6 == 4
        while (m & np.uint64(0xFFFFFFFF)) < np.uint64(4):
            m = np.uint64(_call_next_uint32(fn, state)) * np.uint64(6)
    return np.int64(m >> np.uint64(32)) + 1


@njit(cache=True)
def roll_dice(fn, state):
    """Two dice drawn as two calls of ``Generator.integers(1, 7)`` would draw them, from
    the bit generator whose ``ctypes.next_uint32`` and ``ctypes.state_address`` are
    ``fn`` and ``state`` (a kernel; not thread-safe: the generator's lock is not taken)."""
    d1 = die_from(fn, state)
    return d1, die_from(fn, state)


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
        count, a = mask_into(me, opp, rem, n, moves_left, larger_only, mask)
        if count != 1:
            break
        mask[a] = 0
    if n_moves:
        for p in range(26):
            board[p] = me[p]
            board[26 + p] = opp[p]
    return count, moves_left, n_moves, log


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


@njit((_A, _I, _I, _I, _I, _I, types.int64[:, ::1], types.int32[::1]), cache=True)
def _dfs(me, open_mask, blot_mask, outside, d1, d2, store, table):
    """The search of :func:`_search` into fixed buffers (no array is reassigned here,
    which keeps numba's reference counting out of the loop).

    Returns ``(n, best)``: the plays stored and the best rank (:func:`_score`); ``n`` is
    -1 when ``store`` is full (the caller retries with larger buffers).
    """
    double = d1 == d2
    nd = 4 if double else 2
    larger = max(d1, d2)
    cap = store.shape[0]
    mask = table.shape[0] - 1
    st = np.empty((8, 5), np.int64)
    seq = np.empty(4, np.int64)
    n = 0
    best = -1
    lo0 = 0
    hi0 = 0
    for p in range(1, 16):
        lo0 |= me[p] << (4 * (p - 1))
    for p in range(16, 26):
        hi0 |= me[p] << (4 * (p - 16))
    occ0 = _occupied(me)
    for order in range(1 if double else 2):
        for i in range(nd):
            seq[i] = d1
        if order == 1:
            seq[0] = d2
        else:
            seq[1] = d2
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
                die = seq[d]
                s = _next_source(st[_OCC, d], st[_SRC, d], die, st[_OUT, d], open_mask)
                if s != 0:
                    st[_MOVED, d] = 1
                    st[_SRC, d] = s
                    dest = _dest(s, die)
                    st[_OCC, d + 1] = _move(me, st[_OCC, d], s, dest)
                    hm = st[_HM, d]
                    hit = 0
                    if dest >= 1 and (blot_mask >> dest) & 1 and not (hm >> dest) & 1:
                        hit = 1
                        hm |= 1 << dest
                    st[_HIT, d] = hit
                    lo, hi = _key_move(st[_LO, d], st[_HI, d], s, dest)
                    st[_OUT, d + 1] = _outside_after(st[_OUT, d], s, dest)
                    d += 1
                    st[_LO, d] = lo
                    st[_HI, d] = hi
                    st[_HM, d] = hm
                    st[_MOVED, d] = 0
                    if d < nd:
                        st[_SRC, d] = s if double else 25
                    continue
            if st[_MOVED, d] == 0:
                # A play of d moves that cannot go on: keep it when it ranks best so far
                # and its result is new.
                score = _score(double, d, seq[0], larger)
                if score > best:
                    best = score
                    n = 0
                    table[:] = _EMPTY
                if score == best:
                    lo = st[_LO, d]
                    hi = st[_HI, d]
                    hm = st[_HM, d]
                    i = _slot(lo, hi, hm, mask)
                    found = False
                    while table[i] != _EMPTY:
                        r = table[i]
                        if store[r, 0] == lo and store[r, 1] == hi and store[r, 2] == hm:
                            found = True
                            break
                        i = (i + 1) & mask
                    if not found:
                        if n == cap:
                            while d > 0:  # restore the board before giving up
                                d -= 1
                                s = st[_SRC, d]
                                me[_dest(s, seq[d])] -= 1
                                me[s] += 1
                            return -1, best
                        store[n, 0] = lo
                        store[n, 1] = hi
                        store[n, 2] = hm
                        for j in range(4):
                            if j < d:
                                store[n, 3 + j] = (
                                    (st[_SRC, j] - 1) * 6 + seq[j] - 1 + 150 * st[_HIT, j]
                                )
                            else:
                                store[n, 3 + j] = _NO_MOVE
                        table[i] = n
                        n += 1
            if d == 0:
                break
            d -= 1
            s = st[_SRC, d]
            me[_dest(s, seq[d])] -= 1
            me[s] += 1
            st[_SRC, d] = s - 1
    return n, best


@njit(cache=True)
def _search(me_in, opp_in, d1, d2):
    """Every distinct legal play, packed.

    Returns ``(store, n, moves)``: ``store[:n]`` holds one row per play in the order of
    :func:`bg_env.core.moves.legal_plays`, the result's key (columns 0-2: mover's
    checkers 1..15 and 16..25 at 4 bits a point, bit mask of the points where a blot was
    hit) and its moves (columns 3-6: ``action + 150 * hit``, -1 padded); ``moves`` is how
    many dice each play uses.
    """
    me, open_mask, blot_mask, outside = _prepare(me_in, opp_in)
    cap = 64
    while True:
        store = np.empty((cap, 7), np.int64)
        table = np.full(4 * cap, _EMPTY, np.int32)
        n, best = _dfs(me, open_mask, blot_mask, outside, d1, d2, store, table)
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
def fast_legal_plays(me, opp, d1, d2):
    """Every distinct legal play for the roll ``d1-d2`` (a kernel).

    Args:
        me, opp: the position, 26 counts each (``Position.me``/``.opp`` as arrays).
        d1, d2: the dice, 1..6 (unchecked).

    Returns:
        ``(results_me, results_opp, actions, n_moves)``: ``int8[K, 26]`` result boards
        (not swapped), ``int16[K, 4]`` action indices in playable order padded with -1,
        and how many dice every play uses. One row per distinct result, in the order of
        :func:`bg_env.core.moves.legal_plays`; one row with no action when no die can
        be played.
    """
    store, n, moves = _search(me, opp, d1, d2)
    res_me = np.empty((n, 26), np.int8)
    res_opp = np.empty((n, 26), np.int8)
    actions = np.empty((n, 4), np.int16)
    for r in range(n):
        _result_row(me, opp, store[r, 0], store[r, 1], store[r, 2], res_me[r], res_opp[r])
        for j in range(4):
            code = store[r, 3 + j]
            actions[r, j] = code % 150 if code >= 0 else -1
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
    for r in range(n):
        _result_row(me, opp, store[r, 0], store[r, 1], store[r, 2], out_me[r], out_opp[r])
        for j in range(4):
            code = store[r, 3 + j]
            out_actions[r, j] = code % 150 if code >= 0 else -1
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
    """Every distinct legal play: :func:`bg_env.core.moves.legal_plays` computed by the
    kernel (the same plays, moves and order).

    Building the Python objects costs more than the search, so they are made lean: the
    dataclasses' ``__init__`` is skipped (the kernel's boards need no checks), the board
    tuples are unpacked straight from bytes, and :class:`~bg_env.core.moves.Move` objects
    are shared.

    Raises:
        ValueError: a die is not 1..6, or the position is not valid for the kernels.
    """
    d1, d2 = dice
    if not (1 <= d1 <= 6 and 1 <= d2 <= 6):
        dice_to_play(dice)  # raises the library's error
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
