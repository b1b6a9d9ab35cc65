"""Tesauro's *pubeval* in numba kernels: the published weights, the input encoding and the
choice of a play, for the batched pubeval opponent of the vector envs (among the standard
plays, :func:`pubeval_best`, or among any result boards, :func:`best_result`: a variant's
plays, :mod:`bg_env.kernels.opponents`).

Source. Gerald Tesauro (IBM Research), ``pubeval.c``, 1993, "provided as a public service
to the backgammon programming community"; the same file ships in GNU Backgammon as
``pub_eval.c`` (https://git.savannah.gnu.org/cgit/gnubg.git/tree/pub_eval.c). The weight
vectors ``wr``/``wc`` and the encoding ``setx`` were read there; the weights below are
copied (they are data), the code is ours. :mod:`agents.players.pubeval` documents the encoding and
imports the weights from here (one copy).

A play's result is scored from the mover's side as ``w . x`` (``WR`` in a race, ``WC`` with
contact; the race flag is the position's *before* the play, as Tesauro prescribes), and
``WIN_SCORE`` when the mover has borne everything off. The best score wins; exact ties go to
the smallest GNU Backgammon Position ID (compared as strings), as ``agents.players.pubeval.best_of``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .fast import fast_legal_plays

__all__ = ["WR", "WC", "WIN_SCORE", "is_race", "pubeval_value", "pubeval_values", "best_result",
           "pubeval_best"]

# fmt: off
WR = np.array([
    .00000, -.17160, .27010, .29906, -.08471, .00000, -1.40375,
    -1.05121, .07217, -.01351, .00000, -1.29506, -2.16183, .13246,
    -1.03508, .00000, -2.29847, -2.34631, .17253, .08302, .00000,
    -1.27266, -2.87401, -.07456, -.34240, .00000, -1.34640, -2.46556,
    -.13022, -.01591, .00000, .27448, .60015, .48302, .25236, .00000,
    .39521, .68178, .05281, .09266, .00000, .24855, -.06844, -.37646,
    .05685, .00000, .17405, .00430, .74427, .00576, .00000, .12392,
    .31202, -.91035, -.16270, .00000, .01418, -.10839, -.02781, -.88035,
    .00000, 1.07274, 2.00366, 1.16242, .22520, .00000, .85631, 1.06349,
    1.49549, .18966, .00000, .37183, -.50352, -.14818, .12039, .00000,
    .13681, .13978, 1.11245, -.12707, .00000, -.22082, .20178, -.06285,
    -.52728, .00000, -.13597, -.19412, -.09308, -1.26062, .00000, 3.05454,
    5.16874, 1.50680, 5.35000, .00000, 2.19605, 3.85390, .88296, 2.30052,
    .00000, .92321, 1.08744, -.11696, -.78560, .00000, -.09795, -.83050,
    -1.09167, -4.94251, .00000, -1.00316, -3.66465, -2.56906, -9.67677,
    .00000, -2.77982, -7.26713, -3.40177, -12.32252, .00000, 3.42040,
], dtype=np.float64)
"""Race weights (Tesauro's ``wr``)."""

WC = np.array([
    .25696, -.66937, -1.66135, -2.02487, -2.53398, -.16092, -1.11725,
    -1.06654, -.92830, -1.99558, -1.10388, -.80802, .09856, -.62086,
    -1.27999, -.59220, -.73667, .89032, -.38933, -1.59847, -1.50197,
    -.60966, 1.56166, -.47389, -1.80390, -.83425, -.97741, -1.41371,
    .24500, .10970, -1.36476, -1.05572, 1.15420, .11069, -.38319, -.74816,
    -.59244, .81116, -.39511, .11424, -.73169, -.56074, 1.09792, .15977,
    .13786, -1.18435, -.43363, 1.06169, -.21329, .04798, -.94373, -.22982,
    1.22737, -.13099, -.06295, -.75882, -.13658, 1.78389, .30416, .36797,
    -.69851, .13003, 1.23070, .40868, -.21081, -.64073, .31061, 1.59554,
    .65718, .25429, -.80789, .08240, 1.78964, .54304, .41174, -1.06161,
    .07851, 2.01451, .49786, .91936, -.90750, .05941, 1.83120, .58722,
    1.28777, -.83711, -.33248, 2.64983, .52698, .82132, -.58897, -1.18223,
    3.35809, .62017, .57353, -.07276, -.36214, 4.37655, .45481, .21746,
    .10504, -.61977, 3.54001, .04612, -.18108, .63211, -.87046, 2.47673,
    -.48016, -1.27157, .86505, -1.11342, 1.24612, -.82385, -2.77082,
    1.23606, -1.59529, .10438, -1.30206, -4.11520, 5.62596, -2.75800,
], dtype=np.float64)
"""Contact weights (Tesauro's ``wc``)."""
# fmt: on

WIN_SCORE = 99999999.0
"""Score of a position in which the mover has borne off every checker."""

_WEIGHTS = np.stack([WC, WR])  # row 0: contact, row 1: race
_B64 = np.frombuffer(
    b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/", dtype=np.uint8).copy()


@njit(cache=True)
def is_race(me, opp):
    """No contact left (``Position.is_race``): the two back checkers add to less than 25."""
    my_back = 0
    opp_back = 0
    for p in range(1, 26):
        if me[p] != 0:
            my_back = p
        if opp[p] != 0:
            opp_back = p
    return my_back + opp_back < 25


@njit(cache=True)
def _block_value(w, k, mine, theirs):
    """Tesauro's five inputs of one point (block ``k``) times their weights."""
    v = 0.0
    if mine == 0 and theirs == 1:
        v += w[5 * k]
    if mine == 1:
        v += w[5 * k + 1]
    if mine >= 2:
        v += w[5 * k + 2]
    if mine == 3:
        v += w[5 * k + 3]
    if mine >= 4:
        v += w[5 * k + 4] * ((mine - 3) / 2.0)
    return v


@njit(cache=True)
def pubeval_value(me, opp, race):
    """The pubeval score of a result board (mover's side, not swapped); ``race`` picks
    the weights. ``WIN_SCORE`` when the mover is all off."""
    off = True
    for p in range(1, 26):
        if me[p] != 0:
            off = False
    if off:
        return WIN_SCORE
    w = _WEIGHTS[1] if race else _WEIGHTS[0]
    v = 0.0
    for k in range(24):
        p = 24 - k
        v += _block_value(w, k, me[p], opp[25 - p])
    v += w[120] * (opp[25] / 2.0)
    v += w[121] * (me[0] / 15.0)
    return v


@njit(cache=True)
def pubeval_values(res_me, res_opp, race, out):
    """:func:`pubeval_value` of every result board ``res_me[i]``/``res_opp[i]`` into
    ``out[i]``, with the weights of ``race[i]``."""
    for i in range(res_me.shape[0]):
        out[i] = pubeval_value(res_me[i], res_opp[i], race[i])


@njit(cache=True)
def _position_id_chars(me, opp, out):
    """The 14 characters (byte codes) of the Position ID of ``me``/``opp``."""
    key = np.zeros(10, np.uint8)
    i = 0
    for side in range(2):
        board = opp if side == 0 else me
        for point in range(1, 26):
            for _ in range(board[point]):
                key[i // 8] |= np.uint8(1 << (i % 8))
                i += 1
            i += 1
    for c in range(14):
        bit = 6 * c
        v = 0
        for b in range(6):
            j = bit + b
            if j < 80 and (key[j // 8] >> (7 - j % 8)) & 1:
                v |= 1 << (5 - b)
        out[c] = _B64[v]


@njit(cache=True)
def _id_less(me_a, opp_a, me_b, opp_b):
    """Whether board a's Position ID sorts before board b's (as Python strings)."""
    a = np.empty(14, np.uint8)
    b = np.empty(14, np.uint8)
    _position_id_chars(me_a, opp_a, a)
    _position_id_chars(me_b, opp_b, b)
    for c in range(14):
        if a[c] != b[c]:
            return a[c] < b[c]
    return False


@njit(cache=True)
def best_result(res_me, res_opp, n, race):
    """The row of the best of the ``n`` result boards ``res_me[k]``/``res_opp[k]`` (the
    mover's side, not swapped): the highest :func:`pubeval_value`, exact ties to the
    smallest Position ID (``agents.players.pubeval.best_of``)."""
    best = 0
    best_v = -np.inf
    for r in range(n):
        v = pubeval_value(res_me[r], res_opp[r], race)
        if v > best_v or (v == best_v and _id_less(res_me[r], res_opp[r],
                                                     res_me[best], res_opp[best])):
            best = r
            best_v = v
    return best


@njit(cache=True)
def pubeval_best(me, opp, d1, d2, race):
    """Pubeval's play for the roll ``d1-d2`` (a kernel over :func:`fast_legal_plays`).

    Returns ``(results_me, results_opp, actions, best)``: the legal plays as
    :func:`~bg_env.kernels.fast.fast_legal_plays` gives them and the row of the best.
    """
    res_me, res_opp, actions, _ = fast_legal_plays(me, opp, d1, d2)
    return res_me, res_opp, actions, best_result(res_me, res_opp, res_me.shape[0], race)
