"""The fixed action space of draughts: one action is one hop of a piece, and a move -- a
capture sequence included -- is the hops of its path, one after another.

Action ``((square - 1) * 4 + d) * (size - 1) + (k - 1)``: the piece on ``square`` goes
``k`` squares along diagonal ``d`` of :data:`~bg_env.draughts.board.DIRECTIONS`
(up-left, up-right, down-left, down-right, on the board as numbered, white at the bottom).
A man's step is ``k = 1``, a man's jump ``k = 2``, a flying king's hop any ``k``. So
``squares * 4 * (size - 1)`` actions: 1,800 on 10x10, 896 on 8x8.

>>> from bg_env.draughts.board import geometry
>>> a = hop_action(geometry(10), 32, 28)
>>> a, hop_of(geometry(10), a)
(1125, (32, 28))
"""

from __future__ import annotations

from .board import Geometry

__all__ = ["n_actions", "hop_action", "hop_of", "path_actions", "turned_action"]


def n_actions(g: Geometry) -> int:
    """The size of the action space on board ``g``."""
    return (len(g.cells) - 1) * 4 * (g.size - 1)


def hop_action(g: Geometry, start: int, end: int) -> int:
    """The action of a hop from ``start`` to ``end`` (on one diagonal).

    Raises:
        ValueError: the two squares are not on one diagonal.
    """
    line = g.lines.get((start, end))
    if line is None:
        raise ValueError(f"squares {start} and {end} are not on one diagonal")
    return ((start - 1) * 4 + line[0]) * (g.size - 1) + line[1]


def hop_of(g: Geometry, action: int) -> tuple[int, int] | None:
    """``(start, end)`` of ``action``, or ``None`` when it leaves the board."""
    start, rest = divmod(action, 4 * (g.size - 1))
    d, k = divmod(rest, g.size - 1)
    ray = g.rays[start + 1][d]
    return (start + 1, ray[k]) if k < len(ray) else None


def path_actions(g: Geometry, path: tuple[int, ...]) -> list[int]:
    """The hops of a move's path, as actions."""
    return [hop_action(g, a, b) for a, b in zip(path, path[1:])]


def turned_action(g: Geometry, action: int) -> int:
    """The action of the same hop on the board turned half round (square ``s`` is square
    ``n + 1 - s`` there, direction ``d`` is ``3 - d``): how the side at the top sees its
    actions. Turning twice gives the action back."""
    per_square = 4 * (g.size - 1)
    square, rest = divmod(action, per_square)
    d, k = divmod(rest, g.size - 1)
    return ((len(g.cells) - 2 - square) * 4 + (3 - d)) * (g.size - 1) + k
