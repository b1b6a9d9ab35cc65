"""The no-hit-and-hide rule. The Caucasian variant's (``docs/RULES.md`` §7): a checker that
hits in its own home board (points 1..6) may not, later in the same turn, move to a point
that holds one of its own checkers ("no hit and hide"), nor bear off, unless bearing off is
the only way to play the die (seed 000's notes: "kill and bear off (if no other move) -
allowed"). Seed 003's short-backgammon rule (``Rules(no_hit_and_hide=True)``, §10): a hit
anywhere (``Variant.hide_zone_top`` 24) makes the hitter, which may bear off freely
(``Variant.hitter_bears_off``).

The turn remembers how many of the player's checkers on each point are such hitters
(``hitters``); when a point holds both a hitter and other checkers, a move from it may be
made by either, and both are searched. The "only way" condition needs the other moves of
the die, so it is checked where every move is known (``steps``).
"""

from __future__ import annotations

__all__ = ["HOME_TOP", "start_hitters", "has_mover", "hides", "track"]

HOME_TOP = 6
"""The highest point of the home board."""


def start_hitters(variant) -> tuple[int, ...]:
    """No hitters at the start of the turn (an empty tuple when the rule is off)."""
    return (0,) * 26 if variant.no_hit_and_hide else ()


def has_mover(variant, hitters: tuple[int, ...], count: int, source: int, as_hitter: bool) -> bool:
    """A checker of the kind asked for (a home-board hitter, or another one) stands on
    ``source``, which holds ``count`` of the player's checkers. Without the rule every
    checker is of the other kind."""
    if not variant.no_hit_and_hide:
        return not as_hitter
    movers = hitters[source] if as_hitter else count - hitters[source]
    return movers > 0


def hides(as_hitter: bool, mine_at_dest: int) -> bool:
    """A hitter moving on to a point that holds the player's own checkers."""
    return as_hitter and mine_at_dest > 0


def track(
    variant, hitters: tuple[int, ...], source: int, dest: int, as_hitter: bool, hit: bool
) -> tuple[int, ...]:
    """The hitters after a move: a hitter that moves stays one; a hit on the player's
    points ``1..variant.hide_zone_top`` (the home board in Caucasian) makes the mover one."""
    if not variant.no_hit_and_hide:
        return hitters
    out = list(hitters)
    if as_hitter:
        out[source] -= 1
    if as_hitter or (hit and dest <= variant.hide_zone_top):
        out[dest] += 1
    return tuple(out)
