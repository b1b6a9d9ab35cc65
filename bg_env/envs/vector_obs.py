"""Parts of the vector env's observations (:class:`~bg_env.envs.kernel_batch.KernelBatch`)
that are not the plain encoders':

* the variants whose moves are not standard (Plakoto, Caucasian, Long Nardy, sudden
  death), :class:`VariantObserver`: every row encoded from its learner's side by the
  single env's own kernel (:func:`bg_env.envs.engine_obs.encode_engine_games`: the
  encoder's board, Long Nardy's board in the standard view, the context block with the
  variant and the Plakoto pins read from the rows' variant turns,
  :class:`~bg_env.kernels.batch_variants.VariantRows`); the kernel is given no match block
  and leaves the match slots at zero;
* the match slots of the context block in match play (:func:`match_slots`,
  :data:`bg_env.envs.context.MATCH_SLOTS`: in match play, points away, Crawford,
  match-winning chance), per row from the batch's match array, for every variant;
* the encoder's observations of some rows of the batch alone (:func:`encode_board_rows`:
  the games that have just started again).
"""

from __future__ import annotations

import numpy as np

from numba import njit

from ..kernels import match as batch_match
from ..kernels.borrow import borrowed
from ..game.game import PURE_PYTHON
from . import engine_obs
from .context import match_blocks
from .observation import row_kernel

__all__ = ["VariantObserver", "match_slots", "encode_board_rows"]


def match_slots(match: np.ndarray, sides: np.ndarray, pre: np.ndarray, post: np.ndarray,
                dtype) -> np.ndarray:
    """The match slots of the context block of each row, seen from ``sides[i]``:
    ``(n, 6)`` of ``dtype`` (float32, or int8: the ``"compact"`` form, points away as
    integers and the match-winning chance in percent): the batch's matches seen from each
    row's side, through :func:`~bg_env.envs.context.match_blocks`.

    Args:
        match: ``(n, M_COLUMNS)``, the matches (:mod:`bg_env.kernels.match`).
        sides: ``int64[n]``, the observing side of each row.
        pre, post: the match equity tables (:func:`bg_env.envs.kernel_batch.met_tables`).
        dtype: the observation's dtype.
    """
    n = match.shape[0]
    rows = np.arange(n)
    score = match[:, batch_match.M_SCORE0:batch_match.M_SCORE0 + 2]
    away = np.maximum(match[:, [batch_match.M_LENGTH]] - score, 0)
    equity = np.empty(n, dtype=np.float64)
    batch_match.equities(match, sides, pre, post, equity)
    block = match_blocks(np.stack([away[rows, sides], away[rows, 1 - sides]], axis=1),
                         match[:, batch_match.M_CRAWFORD], batch_match.post_crawfords(match),
                         equity, integer=dtype == np.int8)
    return block.astype(dtype)


def encode_board_rows(encoder: str, state: np.ndarray, me: np.ndarray, opp: np.ndarray,
                      sides: np.ndarray, out: np.ndarray, rows: np.ndarray) -> None:
    """The encoder's observations (:func:`bg_env.envs.observation.encode_games`) of the
    games ``rows`` of the batch's arrays alone, from ``sides[i]``, into ``out[i]`` (the
    other rows left as they are).

    Raises:
        ValueError: an unknown encoder; RuntimeError: the kernels are off (pure Python).
    """
    _encode_rows(state, me, opp, sides, out, rows, row_kernel(encoder))


if not PURE_PYTHON:
    @njit(cache=True)
    def _encode_rows(state, me, opp, sides, out, rows, encode_row):
        """``encode_row`` (:func:`~bg_env.envs.observation.row_kernel`) of the rows
        ``rows``."""
        state, me, opp, out = borrowed(state), borrowed(me), borrowed(opp), borrowed(out)
        for i in rows:
            encode_row(state[i], me[i], opp[i], sides[i], out[i])


class VariantObserver:
    """The observations of ``games`` (a :class:`~bg_env.kernels.games.Games` with variant
    turns) under ``config`` (an :class:`~bg_env.envs.config.EnvConfig`).

    Args:
        config: the env's configuration.
        games: the games, whose ``variant_rows`` are not ``None``.

    Raises:
        ValueError: ``games`` have no variant turns.
    """

    def __init__(self, config, games) -> None:
        if games.variant_rows is None:
            raise ValueError(f"variant={config.game_rules.variant!r}: its moves are standard; "
                             "the vector env's own encoders observe it")
        self.games = games
        self.extra = engine_obs.encoder_extra(config, games)
        """The kernel's arguments after ``out`` (views of ``games``' arrays: a copy or a
        pickle of the batch keeps them shared with its own ``games``)."""

    def encode(self, sides: np.ndarray, out: np.ndarray, rows: np.ndarray | None = None) -> None:
        """Row ``i``'s observation from side ``sides[i]`` into ``out[i]`` (board and, when
        the config has it, the money game's context block), for the rows ``rows`` (all
        when ``None``)."""
        g = self.games
        if rows is None:
            engine_obs.encode_engine_games(g.state, g.me, g.opp, sides, out, *self.extra)
        else:
            engine_obs.encode_engine_rows(g.state, g.me, g.opp, sides, out,
                                          np.asarray(rows, np.int64), *self.extra)
