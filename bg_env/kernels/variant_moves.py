"""Every variant's movement rules as numba kernels, one small function per rule: the
kernels' single copy of the rules of :mod:`bg_env.rules.variants` (``docs/RULES.md`` §2-§4
and §7).

The pure-Python rules (``variants/steps.py``, ``plakoto.py``, ``nardy.py``,
``caucasian.py``, ``geometry.py``) stay as the reference: the brute-force generator
:func:`~bg_env.rules.variants.variant_sequences` applies them and
``tests/core/test_variant_kernels.py`` checks these kernels against it on random positions
of every variant. :mod:`bg_env.kernels.variant_search` searches the plays of a roll with
:func:`step`.

A board in the middle of a turn is one ``int64`` row of :data:`ROW` columns (what the
Python rules keep in :class:`~bg_env.rules.variants.steps.TurnState`): the player's and the
opponent's 26 counts (:class:`~bg_env.rules.position.Position` layout), the pin masks
(Plakoto), how many of the player's checkers on each point hit in his home board this
turn (Caucasian), how many more checkers may leave the head (Long Nardy) and whether the
game ended during the play. A variant is an ``int64`` array of :data:`N_PARAMS` numbers
(:func:`variant_params`). Kernels trust their input (a board of the variant, dice 1..6).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..rules.variants.caucasian import HOME_TOP
from ..rules.variants.nardy import HEAD
from ..rules.variants.plakoto import MOTHER

__all__ = [
    "ME", "OPP", "PIN_ME", "PIN_OPP", "HITTERS", "HEAD_LEFT", "OVER", "ROW", "N_PARAMS",
    "variant_params", "start_row", "step", "ILLEGAL",
]

# columns of a row
ME, OPP, PIN_ME, PIN_OPP, HITTERS, HEAD_LEFT, OVER = 0, 26, 52, 53, 54, 80, 81
ROW = 82
BOARD = 54
"""The first :data:`BOARD` columns are the board (counts and pins): what makes two plays
the same play."""

# the variant's numbers (variant_params)
(V_SAME_WAY, V_LANDING, V_FIRST_HIT_WINS, V_NO_HIDE, V_NARDY, V_MOTHER, V_CHECKERS,
 V_HIDE_TOP, V_HITTER_OFF, V_BLOCK_ENTERED) = range(10)
N_PARAMS = 10
L_HIT, L_PIN, L_BLOCKED = 0, 1, 2
_LANDINGS = {"hit": L_HIT, "pin": L_PIN, "blocked": L_BLOCKED}

ILLEGAL = -1
""":func:`step`: the move is not legal."""
_ONLY_WAY = -2
"""A Caucasian hitter bearing off: legal only when the die plays no other way."""

_BAR = 25


def variant_params(variant) -> np.ndarray:
    """A :class:`~bg_env.rules.variants.Variant` as the kernels' ``int64[N_PARAMS]``."""
    out = np.zeros(N_PARAMS, np.int64)
    out[V_SAME_WAY] = variant.geometry == "same_way"
    out[V_LANDING] = _LANDINGS[variant.landing]
    out[V_FIRST_HIT_WINS] = variant.first_hit_wins
    out[V_NO_HIDE] = variant.no_hit_and_hide
    out[V_NARDY] = variant.nardy_rules
    out[V_MOTHER] = variant.mother
    out[V_CHECKERS] = variant.checkers
    out[V_HIDE_TOP] = variant.hide_zone_top
    out[V_HITTER_OFF] = variant.hitter_bears_off
    out[V_BLOCK_ENTERED] = variant.six_block == "entered"
    return out


# ------------------------------------------------------------------ geometry
@njit(cache=True)
def opp_index(vr, point):
    """The opponent's number of the player's ``point`` (``variants.geometry.opp_index``)."""
    if vr[V_SAME_WAY]:
        return point - 12 if point > 12 else point + 12
    return 25 - point


# ------------------------------------------------------------------ Long Nardy
@njit(cache=True)
def head_stops_one_checker(vr, opp, die):
    """Four moves of ``die`` by one checker from the head are stopped, first by the
    opponent's head (``nardy._head_stops_one_checker``)."""
    point = HEAD
    for _ in range(4):
        point -= die
        if point < 1:
            return False
        q = opp_index(vr, point)
        if opp[q]:
            return q == HEAD
    return False


@njit(cache=True)
def head_allowance(vr, me, opp, d1, d2):
    """How many checkers may leave the head this turn (``nardy.head_allowance``): one;
    two on the first roll with 6-6, 4-4 or 3-3 when the opponent's head stops one
    checker; 0 when the Long Nardy rules are off."""
    if not vr[V_NARDY]:
        return 0
    double = d1 == d2 and (d1 == 6 or d1 == 4 or d1 == 3)
    if double and me[HEAD] == vr[V_CHECKERS] and head_stops_one_checker(vr, opp, d1):
        return 2
    return 1


@njit(cache=True)
def head_closed(vr, head_left, source):
    """No more checkers may leave the head this turn (``nardy.head_closed``)."""
    return vr[V_NARDY] != 0 and source == HEAD and head_left == 0


@njit(cache=True)
def blocks_illegally(vr, row):
    """Six or more consecutive points (along the opponent's way) held by the player that
    may not stand (:func:`block_allowed`; ``nardy.blocks_illegally``)."""
    held = 0  # bit q: the player holds the opponent's point q
    for p in range(1, 25):
        if row[ME + p]:
            held |= 1 << opp_index(vr, p)
    run = 0
    for q in range(24, 0, -1):
        run = run + 1 if (held >> q) & 1 else 0
        if run >= 6:
            lowest = q
            while lowest > 1 and (held >> (lowest - 1)) & 1:
                lowest -= 1
            if not block_allowed(vr, row, lowest):
                return True
    return False


@njit(cache=True)
def block_allowed(vr, row, lowest):
    """A block whose lowest point is the opponent's ``lowest`` may stand: an opposing
    checker past it, or with ``six_block="entered"`` one in its home board or borne off
    (``nardy._block_allowed``)."""
    first, stop = (0, 7) if vr[V_BLOCK_ENTERED] else (1, lowest)
    for k in range(first, stop):
        if row[OPP + k]:
            return True
    return False


# ------------------------------------------------------------------ Plakoto
@njit(cache=True)
def is_pinned(row, source):
    """The player's checker on ``source`` is pinned and cannot move (``plakoto.is_pinned``)."""
    return (row[PIN_ME] >> source) & 1 == 1


@njit(cache=True)
def pin_landing(row, child, dest, q):
    """Plakoto: a landing on ``dest`` (the opponent's ``q``): writes the new pin into
    ``child``; returns 1 when it pinned, 0 when not, :data:`ILLEGAL` when the point is
    closed (``plakoto.pin_landing``)."""
    theirs = row[OPP + q]
    if theirs >= 2:
        return ILLEGAL
    if theirs == 1 and not (row[PIN_OPP] >> q) & 1:
        if row[ME + dest]:
            return ILLEGAL  # the opponent's checker there pins one of ours
        child[PIN_OPP] = row[PIN_OPP] | (1 << q)
        return 1
    return 0


@njit(cache=True)
def release(vr, child, source):
    """The opponent's checker pinned where the player's last checker left is free again
    (``plakoto.release``)."""
    q = opp_index(vr, source)
    if child[ME + source] == 0 and (child[PIN_OPP] >> q) & 1:
        child[PIN_OPP] &= ~(1 << q)


# ------------------------------------------------------------------ Caucasian
@njit(cache=True)
def has_mover(vr, row, source, as_hitter):
    """A checker of the kind asked for (a home-board hitter or another) stands on
    ``source`` (``caucasian.has_mover``)."""
    if not vr[V_NO_HIDE]:
        return not as_hitter
    hitters = row[HITTERS + source]
    movers = hitters if as_hitter else row[ME + source] - hitters
    return movers > 0


@njit(cache=True)
def track_hitters(vr, child, source, dest, as_hitter, hit):
    """The hitters after a move (``caucasian.track``)."""
    if not vr[V_NO_HIDE]:
        return
    if as_hitter:
        child[HITTERS + source] -= 1
    if as_hitter or (hit and dest <= vr[V_HIDE_TOP]):
        child[HITTERS + dest] += 1


# ------------------------------------------------------------------ one move
@njit(cache=True)
def may_move_from(vr, row, source, as_hitter):
    """A checker of the kind asked for may leave ``source``: one stands there; the bar
    first (only with a bar); not pinned; the head not closed (``steps._may_move_from``)."""
    if row[ME + source] == 0:
        return False
    if source == _BAR:
        if vr[V_LANDING] != L_HIT:
            return False
    elif row[ME + _BAR]:
        return False
    if is_pinned(row, source) or head_closed(vr, row[HEAD_LEFT], source):
        return False
    return has_mover(vr, row, source, as_hitter)


@njit(cache=True)
def land(vr, row, child, dest, as_hitter):
    """A landing on ``dest``, written into ``child``: 1 hit (or pinned), 0 not,
    :data:`ILLEGAL` when the point is closed (``steps._land``)."""
    if as_hitter and row[ME + dest] > 0:
        return ILLEGAL  # a Caucasian hitter may not hide
    q = opp_index(vr, dest)
    theirs = row[OPP + q]
    landing = vr[V_LANDING]
    if landing == L_HIT:
        if theirs >= 2:
            return ILLEGAL
        if theirs == 1:
            child[OPP + q] = 0
            child[OPP + _BAR] += 1
            return 1
        return 0
    if landing == L_PIN:
        return pin_landing(row, child, dest, q)
    return ILLEGAL if theirs else 0


@njit(cache=True)
def bear_off(vr, row, source, die, as_hitter):
    """A checker may bear off from ``source`` with ``die``: every checker home, a die
    larger than the point only from the highest point; :data:`_ONLY_WAY` for a Caucasian
    hitter unless the variant lets hitters bear off (``steps._bear_off``)."""
    for p in range(HOME_TOP + 1, 26):
        if row[ME + p]:
            return ILLEGAL
    if source - die < 0:
        for p in range(source + 1, HOME_TOP + 1):
            if row[ME + p]:
                return ILLEGAL
    return _ONLY_WAY if as_hitter and not vr[V_HITTER_OFF] else 0


@njit(cache=True)
def ends_game(vr, hit, q):
    """The move ends the game: any hit in sudden death, a pin on the mother in Plakoto
    (``steps._ends_game``)."""
    return hit and (vr[V_FIRST_HIT_WINS] != 0 or (vr[V_MOTHER] != 0 and q == MOTHER))


@njit(cache=True)
def move_once(vr, row, child, source, die, as_hitter, hitter_off):
    """One checker moved from ``source`` by ``die``, written into ``child``: 1 hit, 0 not,
    :data:`ILLEGAL`; a Caucasian hitter bearing off gives :data:`_ONLY_WAY` unless
    ``hitter_off``."""
    if not may_move_from(vr, row, source, as_hitter):
        return ILLEGAL
    child[:] = row
    dest = source - die
    q = 0
    if dest >= 1:
        q = opp_index(vr, dest)
        hit = land(vr, row, child, dest, as_hitter)
        if hit == ILLEGAL:
            return ILLEGAL
    else:
        hit = bear_off(vr, row, source, die, as_hitter)
        if hit == ILLEGAL or (hit == _ONLY_WAY and not hitter_off):
            return hit
        hit, dest = 0, 0
    child[ME + source] -= 1
    child[ME + dest] += 1
    if vr[V_LANDING] == L_PIN:
        release(vr, child, source)
    if vr[V_NARDY] and blocks_illegally(vr, child):
        return ILLEGAL
    track_hitters(vr, child, source, dest, as_hitter, hit == 1)
    if vr[V_NARDY] and source == HEAD:
        child[HEAD_LEFT] -= 1
    child[OVER] = ends_game(vr, hit == 1, q)
    return hit


@njit(cache=True)
def die_playable_otherwise(vr, row, scratch, die):
    """Some move with ``die`` other than a Caucasian hitter bearing off is legal
    (``steps._die_playable_otherwise``)."""
    for source in range(_BAR, 0, -1):
        for as_hitter in (False, True):
            if move_once(vr, row, scratch, source, die, as_hitter, False) >= 0:
                return True
    return False


@njit(cache=True)
def step(vr, row, child, scratch, source, die, as_hitter):
    """One checker moved from ``source`` by ``die`` (by a Caucasian hitter when
    ``as_hitter``) under every rule (``steps.step``): the board after it in ``child``;
    returns 1 when it hit (or pinned), 0 when not, :data:`ILLEGAL` (``child`` then
    undefined). ``scratch`` is a row the Caucasian "only way" test may write."""
    hit = move_once(vr, row, child, source, die, as_hitter, False)
    if hit != _ONLY_WAY:
        return hit
    if die_playable_otherwise(vr, row, scratch, die):
        return ILLEGAL
    return move_once(vr, row, child, source, die, as_hitter, True)


@njit(cache=True)
def start_row(vr, me, opp, pin_me, pin_opp, d1, d2, row):
    """The row at the start of a turn with ``d1``-``d2`` (``steps.start_state``)."""
    row[:] = 0
    for p in range(26):
        row[ME + p] = me[p]
        row[OPP + p] = opp[p]
    row[PIN_ME] = pin_me
    row[PIN_OPP] = pin_opp
    row[HEAD_LEFT] = head_allowance(vr, row[ME:ME + 26], row[OPP:OPP + 26], d1, d2)
