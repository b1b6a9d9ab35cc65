"""One roll of lookahead for the TD network (``td:2ply``, ``TDAgent(..., plies=1)``).

The 0-ply agent rates each legal play by the network's view of its afterstate. The search
rates a play by what the opponent can do to it: for each of the 21 distinct rolls (weight
1/36 for a double, 2/36 otherwise) the opponent answers with his best play by the same
network at 0-ply, and the play's value is the probability-weighted average, over the
rolls, of the network's outputs after that reply, seen from our side. Only the ``prune``
plays that 0-ply rates best are searched (all of them when ``prune`` is ``None``).

In TD-Gammon's naming this is "2-ply" (our play, then the opponent's); GNU Backgammon
calls the same search "1-ply". A play that ends the game, and a reply that ends it, are
scored by the board (single, gammon, backgammon), not by the network.

The network is called once per search: the afterstates of every reply to every roll of
every searched play go through it in one batch. Replies come from the numba generator
(:func:`bg_env.kernels.fast.fast_legal_plays`) when it is compiled, else from
:func:`bg_env.rules.moves.legal_plays` (the same plays in the same order).
"""

from __future__ import annotations

import numpy as np
import torch

from bg_env.game.game import PURE_PYTHON
from bg_env.rules.moves import Play, legal_plays
from bg_env.rules.outcome import outcome
from bg_env.rules.position import Position
from bg_env.kernels.pubeval import is_race, pubeval_values
from bg_env.envs.candidates import board_features

from ..config import check_whole
from .td_features import N_FEATURES, numpy_equity, plays_features, terminal_target

__all__ = ["ROLLS", "search_values", "lookahead_values", "search_choice", "check_prune",
           "check_leaves", "segment_argmax", "segment_top", "pubeval_pruned"]

ROLLS: tuple[tuple[int, int, float], ...] = tuple(
    (a, b, (1.0 if a == b else 2.0) / 36.0) for a in range(1, 7) for b in range(a, 7)
)
"""The 21 distinct rolls ``(die, die, probability)``."""

_ROLL_WEIGHTS = np.array([w for _, _, w in ROLLS], dtype=np.float32)
_FLIP = np.array([1, 3, 4, 1, 2])  # flip_outputs as an index: P(win) becomes 1 - P(win)


def check_prune(prune, name: str = "prune", what: str = "plays to search") -> int | None:
    """``prune`` as the number of plays to search (``None``: all); ``name`` and ``what``
    word the error for another such count (``leaves``: replies to rate).

    Raises:
        ValueError: not a positive integer or ``None``, naming the value.
    """
    if prune is None:
        return None
    return check_whole(name, prune, 1, f"a positive number of {what}, or None for all of them")


def check_leaves(leaves) -> int | None:
    """``leaves`` (:func:`lookahead_values`) as a positive number, or None.

    Raises:
        ValueError: not a positive integer or ``None``, naming the value.
    """
    return check_prune(leaves, "leaves", "replies to rate at the last roll")


def flip_numpy(v: np.ndarray) -> np.ndarray:
    """Output rows seen from the other side (:func:`agents.players.td.flip_outputs` in numpy)."""
    out = v[..., _FLIP].copy()
    out[..., 0] = 1.0 - v[..., 0]
    return out


def _replies(me: np.ndarray, opp: np.ndarray, d1: int, d2: int) -> tuple[np.ndarray, np.ndarray]:
    """Result boards ``(mover, other)`` of every legal play for ``d1-d2``, the mover's view."""
    if not PURE_PYTHON:
        from bg_env.kernels.fast import fast_legal_plays

        res_me, res_opp, _, _ = fast_legal_plays(me, opp, d1, d2)
        return res_me, res_opp
    plays = legal_plays(Position(tuple(int(x) for x in me), tuple(int(x) for x in opp)), (d1, d2))
    return (np.array([p.result.me for p in plays], dtype=np.int8),
            np.array([p.result.opp for p in plays], dtype=np.int8))


def _terminal_rows(res_me: np.ndarray, res_opp: np.ndarray, out: np.ndarray) -> np.ndarray:
    """Overwrite ``out``'s rows whose afterstate ends the game with the board's result;
    returns which rows those are."""
    ended = res_me[:, 1:].sum(axis=1) == 0
    for i in np.flatnonzero(ended):
        done = outcome(Position(tuple(int(x) for x in res_me[i]), tuple(int(x) for x in res_opp[i])))
        out[i] = terminal_target(done.kind)
    return ended


def search_values(net, plays: list[Play], plies: int = 1,
                  leaves: int | None = None) -> np.ndarray:
    """For each of ``plays``, the expected outputs (five probabilities, the mover's view)
    after every opponent roll and his 0-ply best reply (``plies=1``; more plies and
    ``leaves``: see :func:`lookahead_values`): ``(len(plays), 5)`` float32."""
    me = np.array([p.result.me for p in plays], dtype=np.int8).reshape(-1, 26)
    opp = np.array([p.result.opp for p in plays], dtype=np.int8).reshape(-1, 26)
    return lookahead_values(net, me, opp, plies, leaves)


LOOKAHEAD_CHUNK = 256
"""Afterstates whose replies go through the network together below the first ply (each
brings ~9,000 rows at two plies, so the batches stay near 100 MB)."""


def lookahead_values(net, me: np.ndarray, opp: np.ndarray, plies: int,
                     leaves: int | None = None) -> np.ndarray:
    """The outputs (the mover's view) of afterstates ``(me, opp)`` (``[N, 26]`` boards; ``me``
    just moved) with ``plies`` rolls of lookahead: at 0 the network's; at ``n`` the average
    over the opponent's 21 rolls of the value, at ``n - 1``, of his best reply by the
    network at 0-ply (seen from our side). A board that ends the game is scored by its
    result. Two plies is GNU Backgammon's "2-ply" (each side's reply chosen at 0-ply, the
    leaves at 0-ply); it costs about 21 times one ply (~9,000 network rows an afterstate
    against ~420). ``leaves``: at the last roll, each reply is chosen among only the
    ``leaves`` best by pubeval (:func:`pubeval_pruned`), the network rating those alone."""
    if plies < 0:
        raise ValueError(f"plies={plies!r}: expected 0 or more rolls of lookahead")
    leaves = check_leaves(leaves)
    if plies == 0:
        return _network_values(net, me, opp)
    out = np.empty((len(me), 5), dtype=np.float32)
    live = np.flatnonzero(~_terminal_rows(me, opp, out))
    if len(live) == 0:
        return out
    boards_me, boards_opp, segments = [], [], []
    for i in live:  # the opponent moves next: his checkers are "me" in his own numbering
        mover, other = opp[i].astype(np.int64), me[i].astype(np.int64)
        for d1, d2, _ in ROLLS:
            res_me, res_opp = _replies(mover, other, d1, d2)
            boards_me.append(res_me)
            boards_opp.append(res_opp)
            segments.append(len(res_me))
    all_me, all_opp = np.concatenate(boards_me), np.concatenate(boards_opp)
    segments = np.asarray(segments)
    if plies == 1 and leaves is not None:
        race = np.repeat([is_race(opp[i].astype(np.int64), me[i].astype(np.int64))
                          for i in live], len(ROLLS))
        rows, segments = pubeval_pruned(all_me, all_opp, np.repeat(race, segments),
                                        segments, leaves)
        all_me, all_opp = all_me[rows], all_opp[rows]
    static = _network_values(net, all_me, all_opp)
    starts = np.concatenate([[0], np.cumsum(segments)[:-1]])
    best = segment_argmax(numpy_equity(static), starts, segments)
    if plies == 1:
        theirs = static[best]
    else:
        theirs = np.concatenate([
            lookahead_values(net, all_me[best[k:k + LOOKAHEAD_CHUNK]],
                             all_opp[best[k:k + LOOKAHEAD_CHUNK]], plies - 1, leaves)
            for k in range(0, len(best), LOOKAHEAD_CHUNK)])
    ours = flip_numpy(theirs).reshape(len(live), len(ROLLS), 5)
    out[live] = np.einsum("r,nrk->nk", _ROLL_WEIGHTS, ours)
    return out


def pubeval_pruned(res_me: np.ndarray, res_opp: np.ndarray, race: np.ndarray,
                   segments: np.ndarray, leaves: int) -> tuple[np.ndarray, np.ndarray]:
    """The rows of the ``leaves`` best result boards of each segment (one roll's replies,
    ``segments`` long, one after another) by pubeval (``race``: a flag a row, the position's
    before the play), in row order, and the segments' new lengths. A segment of ``leaves``
    rows or fewer is kept whole; among equal scores the first rows are kept."""
    scores = np.empty(len(res_me))
    pubeval_values(res_me.astype(np.int64), res_opp.astype(np.int64), race, scores)
    return segment_top(scores, segments, leaves), np.minimum(segments, leaves)


def _network_values(net, me: np.ndarray, opp: np.ndarray) -> np.ndarray:
    """The network's outputs of afterstates (the mover's view), a finished game's by its
    board."""
    rows = board_features(np.concatenate([me, opp], axis=1))[:, :N_FEATURES]
    with torch.inference_mode():
        out = net(torch.from_numpy(rows)).numpy()
    _terminal_rows(me, opp, out)
    return out


def segment_argmax(x: np.ndarray, starts: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """Index into ``x`` of the first maximum of each segment ``x[start:start+length]``."""
    peaks = np.maximum.reduceat(x, starts)
    segment = np.repeat(np.arange(len(starts)), lengths)
    hits = np.flatnonzero(x == peaks[segment])
    first = np.full(len(starts), -1)
    seg_of_hit = segment[hits]
    # hits are in increasing order: the first hit of each segment is its first maximum
    keep = np.ones(len(hits), dtype=bool)
    keep[1:] = seg_of_hit[1:] != seg_of_hit[:-1]
    first[seg_of_hit[keep]] = hits[keep]
    return first


def segment_top(x: np.ndarray, lengths: np.ndarray, k: int) -> np.ndarray:
    """Indices into ``x`` of the ``k`` highest values of each segment (consecutive, of
    ``lengths``; the first on equal values), in increasing order."""
    segment = np.repeat(np.arange(len(lengths)), lengths)
    order = np.lexsort((-x, segment))  # by segment, then highest first (stable on ties)
    starts = np.concatenate([[0], np.cumsum(lengths)[:-1]])
    rank = np.arange(len(order)) - starts[segment[order]]
    return np.sort(order[rank < k])


def search_choice(net, plays: list[Play], prune: int | None) -> tuple[int, np.ndarray, np.ndarray]:
    """The index of the play the search picks, the indices searched (best 0-ply first)
    and their searched equities."""
    with torch.inference_mode():
        static = numpy_equity(net(torch.from_numpy(plays_features(plays))).numpy())
    order = np.argsort(-static, kind="stable")
    searched = order if prune is None else order[:prune]
    equities = numpy_equity(search_values(net, [plays[i] for i in searched]))
    return int(searched[int(np.argmax(equities))]), searched, equities
