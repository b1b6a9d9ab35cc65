"""The nuclear bomb (``docs/RULES.md`` §7)."""

from __future__ import annotations

from ..board import BAR
from ..position import Position

__all__ = ["explode"]


def _blast(side: tuple[int, ...]) -> tuple[int, ...]:
    """One side's blots (points holding one checker) moved to its bar."""
    out = list(side)
    for p in range(1, 25):
        if out[p] == 1:
            out[p], out[BAR] = 0, out[BAR] + 1
    return tuple(out)


def explode(pos: Position) -> Position:
    """The nuclear bomb: every blot (a point with one checker) of both sides goes to the
    bar."""
    return Position(_blast(pos.me), _blast(pos.opp))
