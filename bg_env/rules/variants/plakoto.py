"""Plakoto's own movement rules (``docs/RULES.md`` §7): pinning instead of hitting, the
pinned checker held, the pin released when the pinner's last checker leaves, the mother."""

from __future__ import annotations

__all__ = ["is_pinned", "pin_landing", "release", "pins_mother", "MOTHER"]

MOTHER = 24
"""The opponent's starting point: pinning his last checker there ends the game."""


def is_pinned(pinned: tuple[int, int], source: int) -> bool:
    """The player's checker on ``source`` is pinned and cannot move."""
    return bool(pinned[0] >> source & 1)


def pin_landing(
    pinned: tuple[int, int], mine: int, theirs: int, q: int
) -> tuple[tuple[int, int], bool] | None:
    """A landing on the point the opponent numbers ``q`` that holds ``mine`` of the
    player's and ``theirs`` of the opponent's checkers: the new pins and whether the move
    pinned, or ``None`` when the point is closed (two or more opposing checkers, or one
    that pins a checker of the player's there). A point the player already pins is his:
    he may add checkers to it."""
    if theirs >= 2:
        return None
    if theirs == 1 and not pinned[1] >> q & 1:
        if mine:
            return None  # the opponent's checker there pins one of ours
        return (pinned[0], pinned[1] | 1 << q), True
    return pinned, False


def release(pinned: tuple[int, int], left_empty: bool, q_source: int) -> tuple[int, int]:
    """The opponent's checker pinned on the point the player left (``q_source`` in the
    opponent's numbering) is free again once the player's last checker there has left."""
    if left_empty and pinned[1] >> q_source & 1:
        return pinned[0], pinned[1] & ~(1 << q_source)
    return pinned


def pins_mother(q: int) -> bool:
    """A pin on the opponent's own point ``q`` that is his mother's point ends the game."""
    return q == MOTHER
