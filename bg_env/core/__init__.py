"""Deprecated: the old home of the rules, kernels and game, kept importable for 0.x.

``bg_env.core`` was split by layer into :mod:`bg_env.rules` (pure Python),
:mod:`bg_env.kernels` (numba) and :mod:`bg_env.game`. The old module names still import
(``bg_env.core.game`` is :mod:`bg_env.game.game`, the same module object), so that code
written against them, and envs or models pickled with them, keep loading. New code imports
the new names; :data:`MOVED` lists where each module went. The aliases go in 1.0.
"""

from __future__ import annotations

from ..rules import *  # noqa: F401,F403  (the package's names were the rules')
from ..rules import __all__  # noqa: F401
from ..moved import keep_old_names

MOVED = {
    "actions": "bg_env.rules.actions", "board": "bg_env.rules.board",
    "moves": "bg_env.rules.moves", "magriel": "bg_env.rules.magriel",
    "outcome": "bg_env.rules.outcome", "position": "bg_env.rules.position",
    "svg": "bg_env.rules.svg", "notation": "bg_env.rules.notation",
    "match_id": "bg_env.rules.match_id", "cube": "bg_env.rules.cube",
    "variants": "bg_env.rules.variants",
    "move_kernels": "bg_env.kernels.moves", "kernel_io": "bg_env.kernels.io",
    "kernel_cache": "bg_env.kernels.cache", "dice_kernels": "bg_env.kernels.dice",
    "mask_kernels": "bg_env.kernels.masks", "fast": "bg_env.kernels.fast",
    "pubeval_kernels": "bg_env.kernels.pubeval", "batch": "bg_env.kernels.batch",
    "batch_opponents": "bg_env.kernels.opponents", "batch_match": "bg_env.kernels.match",
    "game_row": "bg_env.kernels.game_row", "engine": "bg_env.kernels.engine",
    "variant_kernels": "bg_env.kernels.variant_moves",
    "variant_search": "bg_env.kernels.variant_search",
    "variant_turn": "bg_env.kernels.variant_turn",
    "batch_variants": "bg_env.kernels.batch_variants",
    "batch_rules": "bg_env.kernels.batch_rules",
    "start": "bg_env.game.start", "game": "bg_env.game.game", "game_view": "bg_env.game.view",
    "game_cube": "bg_env.game.cube_decisions", "match": "bg_env.game.match",
}
"""Each old ``bg_env.core`` module and the module it is now."""

keep_old_names(__name__, MOVED)
