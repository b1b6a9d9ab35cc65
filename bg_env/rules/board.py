"""The words every rules module shares: the board's indices, the standard start, the error
for a bad board, and what "a board" is to a function that only reads it.

Rules source: ``docs/RULES.md`` §1. This module is the bottom of the rules layer: it imports
nothing from the project, so every other rules module (moves, notation, outcome, the
position itself, the variants) may import it.
"""

from __future__ import annotations

from typing import Protocol

__all__ = ["OFF", "BAR", "NUM_POINTS", "STANDARD_START", "InvalidPositionError", "Board"]

OFF = 0
"""Index of the borne-off tray in a side's checker array."""
BAR = 25
"""Index of the bar in a side's checker array (the bar is the 25-point: entering with
die ``d`` is a move from 25 to ``25 - d``)."""
NUM_POINTS = 24

STANDARD_START: dict[int, int] = {24: 2, 13: 5, 8: 3, 6: 5}
"""Standard starting layout, in each side's own numbering (RULES.md §1)."""


class InvalidPositionError(ValueError):
    """A board, Position ID or checker layout that is not a valid backgammon position."""


class Board(Protocol):
    """What the move generator and the scoring read of a board: each side's 26 checker
    counts in its own numbering (0 = off, 1..24 = points, 25 = bar). A
    :class:`~bg_env.rules.position.Position` is one; the generators build their results
    with the class of the board they were given, so they need not import it."""

    me: tuple[int, ...]
    opp: tuple[int, ...]
