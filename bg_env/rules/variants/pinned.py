"""The Plakoto board: a position plus which checkers are pinned (``docs/RULES.md`` §7)."""

from __future__ import annotations

from dataclasses import dataclass

from ..position import Position
from .checks import check_bar, check_pinned_points, check_shared_points

__all__ = ["PinnedPosition", "pins_of"]


@dataclass(frozen=True, slots=True)
class PinnedPosition(Position):
    """A Plakoto position: a :class:`Position` plus which checkers are pinned.

    ``pinned[0]`` has bit ``p`` set when the player's lone checker on his point ``p`` is
    pinned under the opponent's; ``pinned[1]`` the same for the opponent, in the
    opponent's numbering. Position IDs do not carry pins (they hold checker counts only).
    """

    pinned: tuple[int, int] = (0, 0)

    def swap(self) -> "PinnedPosition":
        """The same board seen from the opponent's side (unchecked: the swap of a valid
        board is valid)."""
        out = object.__new__(PinnedPosition)
        object.__setattr__(out, "me", self.opp)
        object.__setattr__(out, "opp", self.me)
        object.__setattr__(out, "pinned", (self.pinned[1], self.pinned[0]))
        return out

    def validate(self, allow_shared_points: bool = False) -> None:
        """Raise :class:`InvalidPositionError` if the board cannot occur in Plakoto: a
        checker on the bar, a point both sides hold that is not a pin, a pin on a point
        that does not hold one checker. (The number of checkers is the variant's check:
        :meth:`Variant.validate <bg_env.rules.variants.Variant.validate>`.)"""
        check_bar(self, "plakoto", has_bar=False)
        if not allow_shared_points:
            check_shared_points(self, "plakoto", lambda p: 25 - p, pins=True)
        check_pinned_points(self, "plakoto")

    def __repr__(self) -> str:
        return f"PinnedPosition({self.me!r}, {self.opp!r}, {self.pinned!r})"


def pins_of(pos: Position) -> tuple[int, int]:
    """The pin masks of ``pos``: ``(0, 0)`` for a board without pins."""
    return pos.pinned if isinstance(pos, PinnedPosition) else (0, 0)
