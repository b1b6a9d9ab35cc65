"""Sudden death's checker play as numba kernels (``docs/RULES.md`` §2 and §7): the first
hit wins, so a hit ends the play and the game.

The rules are those of :func:`bg_env.core.variants.variant_sequences` for a variant with
``first_hit_wins`` (the truth; :class:`~bg_env.core.game.Game` plays them through
:mod:`bg_env.core.variant_search`, and the batch kernels are tested against it in
lockstep): the legal plays are the standard sequences of moves cut at their first hit; a
play that ends in a hit counts as using all its dice; the play must use as many dice as
possible, and the larger die when only one of two can be used.

Before the first hit the board is a standard one and no point changes hands, so the
single-move rules of :mod:`bg_env.core.move_kernels` apply with the masks of the turn's
start. Two cases, decided when the dice are rolled (:func:`hit_play_plan`):

* no play of the roll can reach a hit and not all dice can be used: no hit is possible,
  the turn is a standard one (the standard kernels plan it and give its moves);
* otherwise the play must use every die (a hit counting as all of them): a move is legal
  when it hits, or when it is the last die, or when the dice left can still all be used
  or reach a hit (:func:`hit_play_mask_into`). The moves still to make
  (:class:`~bg_env.core.game.Game`'s ``moves_left``) are those of the longest such play
  (:func:`hit_play_longest`), 0 once a move has hit.

Kernels trust their input (boards of :mod:`bg_env.core.batch`, dice 1..6).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .move_kernels import _dest, _move, _next_source, _occupied, _outside_after, _prepare

__all__ = ["hit_play_plan", "hit_play_mask_into", "hit_play_longest"]


@njit(cache=True)
def _is_hit(blot_mask, dest):
    """A checker landing on ``dest`` hits (an opposing blot stands there)."""
    return dest >= 1 and ((blot_mask >> dest) & 1) == 1


@njit(cache=True)
def _repeat(rem, level, i):
    """The ``i``-th die at ``level`` equals an earlier one (the same moves)."""
    for j in range(i):
        if rem[level, j] == rem[level, i]:
            return True
    return False


@njit(cache=True)
def _undo(work, src, rem, di, level):
    """Take back the moves of levels ``level - 1`` down to 0."""
    for k in range(level - 1, -1, -1):
        s = src[k]
        dest = _dest(s, rem[k, di[k]])
        work[dest] -= 1
        work[s] += 1


@njit(cache=True)
def _walk(work, occ, outside, open_mask, blot_mask, dice, nd, first_only):
    """The longest play of the ``nd`` dice ``dice`` from ``work`` (``occ``, ``outside``
    its occupied points and checkers outside home) that uses them all or ends in a hit; 0
    when there is none. With ``first_only``, any such play's length (a yes/no answer,
    sooner). ``work`` is restored before returning."""
    if nd == 0:
        return 0
    rem = np.zeros((5, 4), np.int64)
    di = np.zeros(5, np.int64)
    src = np.zeros(5, np.int64)
    occs = np.zeros(5, np.int64)
    outs = np.zeros(5, np.int64)
    for k in range(nd):
        rem[0, k] = dice[k]
    occs[0] = occ
    outs[0] = outside
    src[0] = 26
    best = 0
    level = 0
    while True:
        n = nd - level
        found = False
        while di[level] < n:
            i = di[level]
            if _repeat(rem, level, i):
                di[level] += 1
                src[level] = 26
                continue
            s = _next_source(occs[level], src[level] - 1, rem[level, i], outs[level], open_mask)
            if s == 0:
                di[level] += 1
                src[level] = 26
                continue
            src[level] = s
            found = True
            break
        if not found:
            if level == 0:
                return best
            level -= 1
            s = src[level]
            dest = _dest(s, rem[level, di[level]])
            work[dest] -= 1
            work[s] += 1
            continue
        s = src[level]
        dest = _dest(s, rem[level, di[level]])
        if _is_hit(blot_mask, dest) or level + 1 == nd:
            if level + 1 > best:
                best = level + 1
            if first_only or best == nd:
                _undo(work, src, rem, di, level)
                return best
            continue
        occs[level + 1] = _move(work, occs[level], s, dest)
        outs[level + 1] = _outside_after(outs[level], s, dest)
        k = 0
        for j in range(n):
            if j != di[level]:
                rem[level + 1, k] = rem[level, j]
                k += 1
        level += 1
        di[level] = 0
        src[level] = 26


@njit(cache=True)
def hit_play_longest(me, opp, dice, nd):
    """How many moves the longest legal play of the ``nd`` dice ``dice`` has, where the
    play must use them all or end in a hit; 0 when no play does (then the turn is a
    standard one, :func:`hit_play_plan`)."""
    work, open_mask, blot_mask, outside = _prepare(me, opp)
    return _walk(work, _occupied(work), outside, open_mask, blot_mask, dice, nd, False)


@njit(cache=True)
def hit_play_plan(me, opp, d1, d2):
    """The dice are rolled: ``(hit_play, moves_left)``: whether the play must use every
    die or end in a hit, and then the moves of its longest play (else ``(False, 0)``:
    plan a standard turn)."""
    dice = np.empty(4, np.int64)
    dice[0] = d1
    dice[1] = d2
    dice[2] = d1
    dice[3] = d1
    longest = hit_play_longest(me, opp, dice, 4 if d1 == d2 else 2)
    return longest > 0, longest


@njit(cache=True)
def hit_play_mask_into(me, opp, dice, nd, mask):
    """The legal next moves of a play that must use the ``nd`` dice ``dice`` or end in a
    hit, into ``mask`` (zeros on entry, any dtype). Returns how many moves are legal and the
    last of them (-1 when none)."""
    count = 0
    last = -1
    if nd == 0:
        return count, last
    work, open_mask, blot_mask, outside = _prepare(me, opp)
    occ = _occupied(work)
    rest = np.empty(4, np.int64)
    for i in range(nd):
        die = np.int64(dice[i])
        seen = False
        for j in range(i):
            if dice[j] == die:
                seen = True
        if seen:
            continue
        k = 0
        for j in range(nd):
            if j != i:
                rest[k] = dice[j]
                k += 1
        s = _next_source(occ, 25, die, outside, open_mask)
        while s != 0:
            dest = _dest(s, die)
            legal = nd == 1 or _is_hit(blot_mask, dest)
            if not legal:
                occ2 = _move(work, occ, s, dest)
                o = _outside_after(outside, s, dest)
                legal = _walk(work, occ2, o, open_mask, blot_mask, rest, nd - 1, True) > 0
                work[dest] -= 1
                work[s] += 1
            if legal:
                a = (s - 1) * 6 + die - 1
                mask[a] = 1
                count += 1
                last = a
            s = _next_source(occ, s - 1, die, outside, open_mask)
    return count, last
