"""How the two sides' numberings face each other (``docs/RULES.md`` §1 and §7).

Each side counts the points from its own side, 24 down to 1. In the backgammon family the
opponent's point ``q`` is the player's ``25 - q``; in Long Nardy both sides move the same way
round, so the opponent's point ``q`` is the player's ``q + 12`` (``q <= 12``) or ``q - 12``.
"""

from __future__ import annotations

__all__ = ["opp_index"]


def opp_index(variant, point: int) -> int:
    """Index in the opponent's own numbering of the player's ``point`` (1..24) under
    ``variant`` (a :class:`~bg_env.rules.variants.Variant`, read for its ``geometry``)."""
    if variant.geometry == "same_way":
        return point - 12 if point > 12 else point + 12
    return 25 - point
