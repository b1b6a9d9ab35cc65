"""Hand-made inputs for the TD network: what the 200 board units show only through many
hidden units (Tesauro's later TD-Gammon and GNU Backgammon's nets add such features).

For an afterstate seen from the player who just moved (``me``; the opponent rolls next):

====  ===========================================================================
 0    the opponent's shots: the share of his 36 rolls that can hit a blot of mine
 1    the pips I would lose to his hit: over his 36 rolls, the farthest-advanced
      blot of mine that the roll can hit (its distance from my bar), / 36 / 24
 2    my shots at his blots, the same count with the sides swapped (as if I rolled)
 3    the pips he would lose to my hit, the same with the sides swapped
 4    my longest prime: consecutive points I hold (2+ checkers), / 6, at most 1
 5    his longest prime, the same
 6    if he has checkers on the bar: the share of rolls on which he cannot enter
      (both dice land on points I hold), else 0
 7    the same for me, against his home board
====  ===========================================================================

The hit rule (:func:`can_hit`) is an approximation of a legal play, stated in full
there: it finds every blot that some sequence of the roll's dice can reach along open
points, with checkers on the bar entered first, but does not apply the rule that a play
must use as many dice as it can. ``tests/agents/test_td_inputs.py`` compares it with the
legal plays of :func:`bg_env.rules.moves.legal_plays` on random positions (it is never
below them, and equal on almost every roll).

One copy of each rule: the functions are plain Python over numpy arrays, and
:func:`extra_inputs` runs them compiled by numba (``njit`` of the same functions).
"""

from __future__ import annotations

import functools

import numpy as np

__all__ = ["N_EXTRA", "EXTRA_NAMES", "extra_inputs", "extra_inputs_python", "boards_of",
           "can_hit", "roll_hits", "hit_stats", "longest_prime", "dance_share"]

N_EXTRA = 8
EXTRA_NAMES = ("opp_shots", "opp_pip_gain", "my_shots", "my_pip_gain",
               "my_prime", "opp_prime", "opp_dance", "my_dance")


# ------------------------------------------------------------------ the rules (plain Python)
def decode_row(row, board):
    """Write into ``board`` (52 counts: the mover's 26, then the opponent's, each in its
    own numbering: 0 off, 1..24 points, 25 bar) the board whose network features are
    ``row``: the inverse of :func:`~bg_env.envs.play_env.board_features`' first 196
    columns (a point's units are ``[n>=1, n>=2, n>=3, (n-3)/2]``)."""
    for p in range(1, 25):
        k = 4 * (p - 1)
        board[p] = int(round(row[k] + row[k + 1] + row[k + 2] + 2.0 * row[k + 3]))
        j = 96 + 4 * (24 - p)  # his point p stands at our point 25 - p
        board[26 + p] = int(round(row[j] + row[j + 1] + row[j + 2] + 2.0 * row[j + 3]))
    board[25] = int(round(row[192] * 2.0))
    board[51] = int(round(row[193] * 2.0))
    board[0] = int(round(row[194] * 15.0))
    board[26] = int(round(row[195] * 15.0))


def _blocked(target, s):
    """The hitter's point ``s`` (his numbering) is held by the target side (2+ checkers)."""
    return target[25 - s] >= 2


def _reach(hitter, target, s, d, steps, entry):
    """Some checker of the hitter's, on his points 1..24 or entering on ``entry`` (0:
    none), lands on his point ``s`` with at most ``steps`` moves of ``d`` along open
    points: looking back from ``s``, the nearest checker before a blocked point."""
    q = s
    for _ in range(steps):
        q += d
        if q > 24:
            return False
        if q == entry or hitter[q] > 0:
            return True
        if _blocked(target, q):
            return False
    return False


def can_hit(hitter, target, s, d1, d2):
    """The hitter's roll ``(d1, d2)`` can land a checker on his point ``s`` (a blot).

    With checkers on the bar he enters first (a die ``d`` lands on his point ``25 - d``).
    Two or more up and a non-double: only the entering checkers land. One up: the entering
    checker lands with one die, then the other die moves any checker (the entered one
    too). A double moves up to four times ``d``, the entries first (none move on when the
    entry point is held against him), each checker along open points. No checker up:
    either die from any checker, or both dice from one checker through an open point."""
    bar = hitter[25]
    if d1 == d2:
        if bar == 0:
            return _reach(hitter, target, s, d1, 4, 0)
        entry = 25 - d1
        if _blocked(target, entry):
            return False
        left = 4 - min(bar, 4)
        return s == entry or (left > 0 and _reach(hitter, target, s, d1, left, entry))
    if bar >= 2:
        return s == 25 - d1 or s == 25 - d2
    if bar == 1:
        for d, other in ((d1, d2), (d2, d1)):
            entry = 25 - d
            if _blocked(target, entry):
                continue
            if s == entry or _reach(hitter, target, s, other, 1, entry):
                return True
        return False
    if _reach(hitter, target, s, d1, 1, 0) or _reach(hitter, target, s, d2, 1, 0):
        return True
    far = s + d1 + d2
    return (far <= 24 and hitter[far] > 0
            and (not _blocked(target, s + d1) or not _blocked(target, s + d2)))


def roll_hits(hitter, target, d1, d2):
    """The pips the target loses to the hitter's roll ``(d1, d2)``: the largest hitter
    point number (= the hit checker's distance from its bar) among the target's blots the
    roll can hit (:func:`can_hit`), 0 when it hits none. Counts are each side's own
    numbering; the target's point ``q`` is the hitter's ``25 - q``; a point with 2+
    target checkers blocks."""
    return _gain(hitter, target, d1, d2, _top_blot(hitter, target))


def _top_blot(hitter, target):
    """The highest hitter point holding a target blot that some hitter checker stands
    above (a checker moves only towards its home; 25: the bar), 0: none."""
    behind = 0
    for p in range(25, 0, -1):
        if hitter[p] > 0:
            behind = p
            break
    for s in range(behind - 1, 0, -1):
        if target[25 - s] == 1:
            return s
    return 0


def _gain(hitter, target, d1, d2, top):
    """:func:`roll_hits`, looking at the blots on the hitter's points ``top``
    (:func:`_top_blot`) and below."""
    for s in range(top, 0, -1):
        if target[25 - s] == 1 and can_hit(hitter, target, s, d1, d2):
            return s
    return 0


def hit_stats(hitter, target):
    """``(shots, pips)``: the hitter's rolls out of 36 that hit a blot of the target's,
    and the sum over the 36 rolls of :func:`roll_hits`."""
    shots = 0
    pips = 0
    top = _top_blot(hitter, target)
    if top == 0:
        return shots, pips
    for d1 in range(1, 7):
        for d2 in range(d1, 7):
            weight = 1 if d1 == d2 else 2
            gain = _gain(hitter, target, d1, d2, top)
            if gain > 0:
                shots += weight
                pips += weight * gain
    return shots, pips


def longest_prime(side):
    """The longest run of consecutive points 1..24 holding 2+ of ``side``'s checkers."""
    best = 0
    run = 0
    for p in range(1, 25):
        if side[p] >= 2:
            run += 1
            if run > best:
                best = run
        else:
            run = 0
    return best


def dance_share(on_bar, home):
    """The share of rolls on which ``on_bar``'s checkers cannot enter against ``home``
    (both dice on points of its home board held by 2+), 0 with none on the bar."""
    if on_bar[25] == 0:
        return 0.0
    closed = 0
    for p in range(1, 7):
        if home[p] >= 2:
            closed += 1
    return (closed / 6.0) ** 2


def boards_rows(x, boards):
    """:func:`decode_row` of each row of ``x`` into the rows of ``boards``."""
    for r in range(x.shape[0]):
        decode_row(x[r], boards[r])


def extras_rows(x, out):
    """:data:`N_EXTRA` inputs of each row of the 200 network features ``x`` into ``out``."""
    board = np.zeros(52, dtype=np.int64)
    me = board[:26]
    opp = board[26:]
    for r in range(x.shape[0]):
        decode_row(x[r], board)
        shots, pips = hit_stats(opp, me)
        out[r, 0] = shots / 36.0
        out[r, 1] = pips / (36.0 * 24.0)
        shots, pips = hit_stats(me, opp)
        out[r, 2] = shots / 36.0
        out[r, 3] = pips / (36.0 * 24.0)
        out[r, 4] = min(longest_prime(me), 6) / 6.0
        out[r, 5] = min(longest_prime(opp), 6) / 6.0
        out[r, 6] = dance_share(opp, me)
        out[r, 7] = dance_share(me, opp)


# ------------------------------------------------------------------ compiled, the same rules
@functools.cache
def _kernels() -> dict:
    """``extras_rows`` and ``boards_rows`` with every rule they call compiled by numba
    (on the first call, a few seconds), or the plain functions without numba."""
    g = globals()
    try:
        from numba import njit
    except ImportError:  # pragma: no cover - numba is a dependency, kept optional here
        return {"extras_rows": extras_rows, "boards_rows": boards_rows}
    names = ("decode_row", "_blocked", "_reach", "can_hit", "_top_blot", "_gain", "roll_hits",
             "hit_stats", "longest_prime", "dance_share", "extras_rows", "boards_rows")
    space = dict(g)
    for name in names:  # each rule is compiled against the compiled rules it calls
        space[name] = njit(cache=False)(_rebind(g[name], space))
    return {"extras_rows": space["extras_rows"], "boards_rows": space["boards_rows"]}


def _rebind(func, space):
    import types

    return types.FunctionType(func.__code__, space, func.__name__, func.__defaults__,
                              func.__closure__)


def _rows(x: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(x, dtype=np.float32).reshape(-1, x.shape[-1])


def extra_inputs(x: np.ndarray) -> np.ndarray:
    """The ``(N, 8)`` hand-made inputs of ``(N, 200)`` network feature rows (compiled)."""
    x = _rows(x)
    out = np.empty((len(x), N_EXTRA), dtype=np.float32)
    _kernels()["extras_rows"](x, out)
    return out


def boards_of(x: np.ndarray) -> np.ndarray:
    """The ``(N, 52)`` int64 boards (:func:`decode_row`) of network feature rows
    (compiled)."""
    x = _rows(x)
    boards = np.zeros((len(x), 52), dtype=np.int64)
    _kernels()["boards_rows"](x, boards)
    return boards


def extra_inputs_python(x: np.ndarray) -> np.ndarray:
    """:func:`extra_inputs` by the plain-Python rules (the reference the tests compare)."""
    x = _rows(x)
    out = np.empty((len(x), N_EXTRA), dtype=np.float32)
    extras_rows(x, out)
    return out
