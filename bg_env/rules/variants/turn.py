"""One roll of a variant played one checker move at a time (``docs/RULES.md`` §2, §7)."""

from __future__ import annotations

from ..moves import Move, Play
from ..position import Position
from .catalog import get_variant
from .spec import Variant
from .tree import finish_plays, play_tree

__all__ = ["VariantTurn"]


class VariantTurn:
    """One roll of a variant played one checker move at a time on the pure-Python tree
    (what :class:`Game` uses for the variants whose moves are not standard in the
    ``BG_ENV_PURE_PYTHON`` mode; otherwise it plays them on the kernels,
    :class:`bg_env.kernels.variant_turn.KernelVariantTurn`).

    Walks the roll's :class:`~bg_env.rules.variants.tree.PlayTree` as moves are made, so
    the legal next moves are exactly the next moves of some complete legal play
    (the action layout of :mod:`bg_env.rules.actions`). Where the same board is reached
    with different things the turn remembers (a Caucasian hitter or another checker moved
    from a shared point), every such node is followed.
    """

    def __init__(self, variant: "Variant | str", pos: Position, dice: tuple[int, int]):
        self.variant = get_variant(variant)
        self.start = pos
        tree = play_tree(self.variant, pos, dice)
        self._frontier = [(tree.root, tree.root_moves)]
        """``(node, legal edges)`` of every node the moves made so far may have reached."""
        self._longest = tree.longest
        self.made = 0

    @property
    def moves_to_play(self) -> int:
        """How many more moves the longest legal play still has."""
        return self._longest

    def _edges(self):
        for _, edges in self._frontier:
            yield from edges

    def next_moves(self) -> list[Move]:
        """The legal next moves (with their hit flags), one per action, ascending."""
        out: dict[int, Move] = {}
        for move, _ in self._edges():
            out.setdefault(move.action, move)
        return [out[a] for a in sorted(out)]

    def next_actions(self) -> list[int]:
        """The legal next checker-move actions, ascending; empty when the play is done."""
        return sorted({move.action for move, _ in self._edges()})

    def move(self, action: int) -> tuple[Position, bool]:
        """Make one legal next move; the new position and whether it hit (or pinned).

        Raises:
            ValueError: ``action`` is not a legal next move.
        """
        reached, hit = {}, False
        for move, child in self._edges():
            if move.action == action:
                reached[id(child)], hit = child, move.hit
        if not reached:
            raise ValueError(f"action {action} is not a legal next move (legal: {self.next_actions()})")
        nodes = list(reached.values())
        self._frontier = [(node, node.legal(self.variant)) for node in nodes]
        self._longest = max(node.longest(self.variant) for node in nodes)
        self.made += 1
        return nodes[0].board(self.variant), hit

    def continuations(self, current: Position) -> list[Play]:
        """Every distinct way to finish the play from ``current`` (the position after the
        moves made so far), one :class:`Play` per result."""
        return finish_plays(self.variant, current, self._frontier)
