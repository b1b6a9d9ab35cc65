"""The cube queries of :class:`~bg_env.game.game.Game`: may the side on turn double, set
off the bomb, may the doubled side beaver. The decisions themselves (the cube question
before the roll, the answers to a double) are played by the kernels of
:mod:`bg_env.kernels.batch`, like the rest of the game.

Rules source: ``docs/RULES.md`` §6 (the doubling cube, beavers, automatic doubles); the cube
rules themselves are the pure functions of :mod:`bg_env.rules.cube`, which this module calls.

:class:`CubeDecisions` is a mixin of :class:`~bg_env.game.game.Game`: it reads the
Game's ``phase``, ``rules``, ``cube_value``, ``cube_owner``, ``turn``, ``pending_cube`` and
``bomb_owner`` and holds no state of its own.
"""

from __future__ import annotations

from ..rules.cube import Phase, cube_value_allowed, next_cube_value
from ..rules.cube import may_double as _cube_may_double

__all__ = ["CubeDecisions"]


class CubeDecisions:
    """Game's cube queries (a mixin: see the module docstring)."""

    # ----------------------------------------------------------------- queries
    def may_double(self) -> bool:
        """Whether the side on turn may double now (RULES.md §6)."""
        return self.phase != Phase.OVER and _cube_may_double(
            self.rules, self.cube_value, self.cube_owner, self.turn)

    def may_bomb(self) -> bool:
        """Nuclear variant: whether the side on turn may set off the bomb now."""
        return (
            self.variant.bomb and self.phase != Phase.OVER and self.bomb_owner in (-1, self.turn)
        )

    def may_beaver(self) -> bool:
        """Whether the doubled side may beaver: the option is on and the redoubled value is
        within ``max_cube`` (RULES.md §6)."""
        nxt = next_cube_value(self.pending_cube, self.rules.cube_progression)
        return self.rules.beaver and cube_value_allowed(nxt, self.rules)
