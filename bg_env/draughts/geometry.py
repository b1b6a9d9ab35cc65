"""The squares of a draughts board and their lines: PDN's numbering of the playable
squares, row by row from the top left, and for each square the squares along each of its
four directions.

A board of draughts proper plays on the dark squares, the diagonals its lines: square 1
is the second square of the top row (PDN, the FMJD), or the first on the Italian board
(``dark_top_left``). Turkish draughts plays on every square (``orthogonal``), its lines
the rows and columns: square 1 is the top-left one, 64 the bottom-right.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property, lru_cache

__all__ = ["DIRECTIONS", "ORTHOGONAL", "Geometry", "geometry"]

DIRECTIONS = ((-1, -1), (-1, 1), (1, -1), (1, 1))
"""Diagonal steps ``(row, column)``: up-left, up-right, down-left, down-right (up: toward
square 1, white's forward)."""
ORTHOGONAL = ((-1, 0), (0, -1), (0, 1), (1, 0))
"""The lines of a board played on every square (Turkish draughts): up, left, right, down.
In both orders direction ``3 - d`` is direction ``d`` turned half round."""


@dataclass(frozen=True)
class Geometry:
    """The squares of a ``size`` x ``size`` board."""

    size: int
    dark_top_left: bool
    """Whether the top-left corner square is a playable one (the Italian board)."""
    orthogonal: bool
    """Every square is played, along rows and columns (:data:`ORTHOGONAL`)."""
    cells: tuple[tuple[int, int], ...]
    """``cells[s]``: square ``s``'s ``(row, column)`` (``cells[0]`` unused)."""
    rays: tuple[tuple[tuple[int, ...], ...], ...]
    """``rays[s][d]``: the squares from ``s`` (not included) to the edge in direction
    ``d`` of :data:`DIRECTIONS`, nearest first."""

    def square(self, row: int, col: int) -> int:
        """The number of the dark square at ``(row, col)`` (0 when off the board or light)."""
        if not (0 <= row < self.size and 0 <= col < self.size):
            return 0
        if self.orthogonal:
            return row * self.size + col + 1
        if (row + col) % 2 != (0 if self.dark_top_left else 1):
            return 0
        return row * (self.size // 2) + col // 2 + 1

    def row(self, square: int) -> int:
        return self.cells[square][0]

    @cached_property
    def lines(self) -> dict[tuple[int, int], tuple[int, int]]:
        """``lines[start, end]``: ``(d, k)`` when ``end`` is the ``k``-th square (0 the
        nearest) from ``start`` along direction ``d`` (made once a board)."""
        return {(s, to): (d, k) for s in range(1, len(self.cells))
                for d, ray in enumerate(self.rays[s]) for k, to in enumerate(ray)}


@lru_cache(maxsize=None)
def geometry(size: int, dark_top_left: bool = False, orthogonal: bool = False) -> Geometry:
    """The :class:`Geometry` of a board of ``size`` (made once)."""
    half, first = size // 2, int(bool(dark_top_left))
    if orthogonal:
        cells = [(0, 0)] + [(r, c) for r in range(size) for c in range(size)]
    else:
        cells = [(0, 0)] + [(r, 2 * c + (1 - r % 2 if not first else r % 2))
                            for r in range(size) for c in range(half)]
    probe = Geometry(size, bool(dark_top_left), bool(orthogonal), tuple(cells), ())
    rays = [()]
    for s in range(1, len(cells)):
        r, c = cells[s]
        out = []
        for dr, dc in (ORTHOGONAL if orthogonal else DIRECTIONS):
            ray, k = [], 1
            while probe.square(r + k * dr, c + k * dc):
                ray.append(probe.square(r + k * dr, c + k * dc))
                k += 1
            out.append(tuple(ray))
        rays.append(tuple(out))
    return Geometry(size, bool(dark_top_left), bool(orthogonal), tuple(cells), tuple(rays))


