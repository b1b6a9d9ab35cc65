"""The vector env's observations of the variants whose moves are not standard (Plakoto,
Caucasian, Long Nardy, sudden death): every row of a :class:`~bg_env.envs.kernel_batch.KernelBatch`
encoded from its learner's side by the single env's own kernel
(:func:`bg_env.envs.engine_obs.encode_engine_games`: the encoder's board, Long Nardy's
board in the standard view, the context block with the variant and the Plakoto pins read
from the rows' variant turns, :class:`~bg_env.core.batch_variants.VariantRows`).

In match play the block's match slots (:data:`bg_env.envs.context.MATCH_SLOTS`:
in match play, points away, Crawford, match-winning chance) come from the vector env's
match encoder, as for the other variants; the engine's kernel is given no match block
here and leaves them at zero.
"""

from __future__ import annotations

import numpy as np

from . import engine_obs

__all__ = ["VariantObserver"]


class VariantObserver:
    """The observations of ``games`` (a :class:`~bg_env.core.batch.Games` with variant
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

    def encode(self, sides: np.ndarray, out: np.ndarray) -> None:
        """Row ``i``'s observation from side ``sides[i]`` into ``out[i]`` (board and, when
        the config has it, the money game's context block)."""
        g = self.games
        engine_obs.encode_engine_games(g.state, g.me, g.opp, sides, out, *self.extra)
