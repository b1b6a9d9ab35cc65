"""One roll of a variant played one checker move at a time (``docs/RULES.md`` §2, §7)."""

from __future__ import annotations

from ..moves import Move, Play
from ..position import Position
from .catalog import get_variant
from .sequences import sequences_with_boards
from .spec import Variant

__all__ = ["VariantTurn"]


class VariantTurn:
    """One roll of a variant played one checker move at a time (what :class:`Game` uses
    for the variants whose moves are not standard).

    Holds every legal move sequence of the roll (:func:`variant_sequences`) and narrows
    them as moves are made, so the legal next moves are exactly the next moves of some
    complete legal play (DESIGN.md, "Actions").
    """

    def __init__(self, variant: "Variant | str", pos: Position, dice: tuple[int, int]):
        self.variant = get_variant(variant)
        self.start = pos
        self.sequences = sequences_with_boards(self.variant, pos, dice)
        """``(moves, boards)`` of every legal sequence still open (see
        :func:`~bg_env.core.variants.sequences.sequences_with_boards`)."""
        self.made = 0

    @property
    def moves_to_play(self) -> int:
        """How many more moves the longest legal play still has."""
        return max(len(m) for m, _ in self.sequences) - self.made

    def next_moves(self) -> list[Move]:
        """The legal next moves (with their hit flags), one per action, ascending."""
        k, out = self.made, {}
        for moves, _ in self.sequences:
            if len(moves) > k:
                out.setdefault(moves[k].action, moves[k])
        return [out[a] for a in sorted(out)]

    def next_actions(self) -> list[int]:
        """The legal next checker-move actions, ascending; empty when the play is done."""
        return [m.action for m in self.next_moves()]

    def move(self, action: int) -> tuple[Position, bool]:
        """Make one legal next move; the new position and whether it hit (or pinned).

        Raises:
            ValueError: ``action`` is not a legal next move.
        """
        k = self.made
        left = [s for s in self.sequences if len(s[0]) > k and s[0][k].action == action]
        if not left:
            raise ValueError(f"action {action} is not a legal next move (legal: {self.next_actions()})")
        self.sequences, self.made = left, k + 1
        moves, boards = left[0]
        return boards[k + 1], moves[k].hit

    def continuations(self, current: Position) -> list[Play]:
        """Every distinct way to finish the play from ``current`` (the position after the
        moves made so far), one :class:`Play` per result."""
        plays: dict[Position, Play] = {}
        for moves, boards in self.sequences:
            plays.setdefault(boards[-1], Play(current, moves[self.made :], boards[-1]))
        return list(plays.values())
