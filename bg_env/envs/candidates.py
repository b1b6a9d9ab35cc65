"""The play-level views' candidate rows: the features of an afterstate (the 201 values
laid out in :mod:`bg_env.envs.play_env`'s docstring, "Observation"), computed by numpy or a
numba kernel (tested equal), and the order and cut of a roll's candidate plays ("Candidates"
there). The play-level env, the play-level AEC env and the agents that score afterstates
(td, ppo) share them; :mod:`bg_env.envs.play_env` re-exports every name.
"""

from __future__ import annotations

import numpy as np

from ..rules.moves import Play

__all__ = ["N_FEATURES", "PRESENT", "FEATURE_HIGH", "DEFAULT_MAX_CANDIDATES",
           "candidate_features", "play_features", "board_features", "order_candidates", "keep_key"]

N_FEATURES = 201
"""Features per candidate row (see the module docstring for the layout)."""
PRESENT = 200
"""Index of the "real candidate" flag in a row."""
DEFAULT_MAX_CANDIDATES = 64
"""The candidate rows a play-level view shows unless told otherwise."""
MAX_CANDIDATES = 1024
"""The most candidate rows a play-level view may show: above any roll's count of distinct
plays (434 is the most seen), and an observation of 1024 x 201 floats (0.8 MB)."""
FEATURE_HIGH = 8.0  # largest magnitude of any feature: (15 - 3) / 2, 15 / 2, 375 / 50
_POINTS = np.arange(26)
_UNITS = np.array([[n >= 1, n >= 2, n >= 3, (n - 3) / 2 if n > 3 else 0] for n in range(16)],
                  dtype=np.float32)
"""Tesauro's 4 units for 0..15 checkers on a point."""


def candidate_features(me: np.ndarray, opp: np.ndarray) -> np.ndarray:
    """Rows of the observation for afterstates given as ``(N, 26)`` count arrays.

    Args:
        me: the mover's counts after the play, own numbering (0 off, 25 bar).
        opp: the opponent's counts, own numbering.

    Returns:
        ``(N, N_FEATURES)`` float32, every row flagged present. Columns 0..195 equal
        :func:`~bg_env.envs.observation.encode_boards` (computed here by table look-up).
    """
    me = np.asarray(me, dtype=np.intp).reshape(-1, 26)
    opp = np.asarray(opp, dtype=np.intp).reshape(-1, 26)
    n = me.shape[0]
    out = np.empty((n, N_FEATURES), dtype=np.float32)
    out[:, 0:96] = _UNITS[me[:, 1:25]].reshape(n, 96)
    out[:, 96:192] = _UNITS[opp[:, 24:0:-1]].reshape(n, 96)  # his point 25-p at our p
    out[:, 192] = me[:, 25] / 2
    out[:, 193] = opp[:, 25] / 2
    out[:, 194] = me[:, 0] / 15
    out[:, 195] = opp[:, 0] / 15
    pip_me = me @ _POINTS
    pip_opp = opp @ _POINTS
    out[:, 196] = pip_me / 167.0
    out[:, 197] = pip_opp / 167.0
    out[:, 198] = (pip_opp - pip_me) / 50.0
    back_me = (me[:, 1:] > 0) * _POINTS[1:]
    back_opp = (opp[:, 1:] > 0) * _POINTS[1:]
    out[:, 199] = (back_me.max(axis=1) + back_opp.max(axis=1)) < 25
    out[:, PRESENT] = 1.0
    return out


def play_features(plays: list[Play], variant=None) -> np.ndarray:
    """:func:`candidate_features` of the results of ``plays`` (mover's view); the numba
    kernel :func:`_features_kernel` when numba is installed (tested equal). In Long
    Nardy (``variant``'s geometry ``"same_way"``) the results are first renumbered with
    :func:`~bg_env.envs.context.standard_view` so that the opponent's checkers stand where
    they are on the board."""
    if not plays:
        return np.zeros((0, N_FEATURES), dtype=np.float32)
    if variant is not None and variant.geometry != "opposite":
        from .context import standard_view

        views = [standard_view(p.result, variant) for p in plays]
        return candidate_features(np.array([v.me for v in views]), np.array([v.opp for v in views]))
    raw = b"".join([bytes(p.result.me + p.result.opp) for p in plays])
    return board_features(np.frombuffer(raw, dtype=np.uint8).reshape(len(plays), 52))


def board_features(boards: np.ndarray) -> np.ndarray:
    """:func:`candidate_features` of ``(N, 52)`` uint8 afterstates (the mover's 26 counts,
    then the opponent's), by the numba kernel when numba is installed (tested equal)."""
    boards = np.ascontiguousarray(boards, dtype=np.uint8).reshape(-1, 52)
    if _features_kernel is not None:
        out = np.empty((len(boards), N_FEATURES), dtype=np.float32)
        _features_kernel(boards, _UNITS, out)
        return out
    return candidate_features(boards[:, :26], boards[:, 26:])


def _make_kernel():
    """The fast path of :func:`candidate_features` for ``(N, 52)`` uint8 boards (me then
    opp), or ``None`` without numba. Unchecked: trusts valid boards."""
    try:
        from numba import njit
    except ImportError:  # pragma: no cover - numba is optional
        return None

    @njit(cache=True)
    def kernel(boards, units, out):  # pragma: no cover - compiled
        for r in range(boards.shape[0]):
            pip_me = 0
            pip_opp = 0
            back_me = 0
            back_opp = 0
            for p in range(1, 26):
                m = boards[r, p]
                o = boards[r, 26 + p]
                pip_me += p * m
                pip_opp += p * o
                if m > 0:
                    back_me = p
                if o > 0:
                    back_opp = p
            for p in range(1, 25):
                m = boards[r, p]
                o = boards[r, 26 + 25 - p]
                for j in range(4):
                    out[r, 4 * (p - 1) + j] = units[m, j]
                    out[r, 96 + 4 * (p - 1) + j] = units[o, j]
            out[r, 192] = boards[r, 25] / 2.0
            out[r, 193] = boards[r, 51] / 2.0
            out[r, 194] = boards[r, 0] / 15.0
            out[r, 195] = boards[r, 26] / 15.0
            out[r, 196] = pip_me / 167.0
            out[r, 197] = pip_opp / 167.0
            out[r, 198] = (pip_opp - pip_me) / 50.0
            out[r, 199] = 1.0 if back_me + back_opp < 25 else 0.0
            out[r, 200] = 1.0

    return kernel


_features_kernel = _make_kernel()


def _board_key(play: Play) -> tuple:
    return (play.result.me, play.result.opp)


def keep_key(play: Play) -> tuple:
    """Truncation preference: fewest own blots, then most opponent pips, then board."""
    me, opp = play.result.me, play.result.opp
    blots = sum(1 for n in me[1:25] if n == 1)
    opp_pips = sum(p * n for p, n in enumerate(opp))
    return (blots, -opp_pips, me, opp)


def order_candidates(plays: list[Play], max_candidates: int) -> tuple[list[Play], int]:
    """The candidate rows for ``plays`` and how many plays were cut (see "Candidates").

    >>> from bg_env.rules.position import Position
    >>> rows, cut = order_candidates(Position.start().legal_plays((3, 1)), 64)
    >>> len(rows), cut
    (16, 0)
    """
    n = len(plays)
    if n > max_candidates:
        plays = sorted(plays, key=keep_key)[:max_candidates]
    return sorted(plays, key=_board_key), n - len(plays)
