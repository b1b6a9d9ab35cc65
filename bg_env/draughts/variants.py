"""The draughts variants: what sets each one's rules apart (source: the project's seed
002, the FMJD rules of international draughts, and each variant's own federation rules;
docs/draughts.md states them).

Every variant here plays on the dark squares of a square board, numbered 1.. from the
top left as PDN numbers them (square 1 is the second square of the top row), white at
the bottom (the highest numbers), black at the top. Men move one square diagonally
forward; kings move along diagonals; capturing is compulsory, a capture sequence is one
move, and the captured pieces come off after the whole sequence (each jumped once, and
until then they block). What differs:

========================  =====  =====  ==========  ========  =====  ===========  =========
variant                   board  men    first       men take  kings  most pieces  crowned
                                        to move     backward  fly    taken        mid-take
========================  =====  =====  ==========  ========  =====  ===========  =========
``international``         10x10  20     white       yes       yes    required     no
``brazilian``             8x8    12     white       yes       yes    required     no
``russian``               8x8    12     white       yes       yes    free choice  yes
``english``               8x8    12     black       no        no     free choice  ends move
``losing``                10x10  20     white       yes       yes    required     no
``italian``               8x8    12     white       no        no     required     ends move
``turkish``               8x8    16     white       no        yes    required     no
========================  =====  =====  ==========  ========  =====  ===========  =========

``losing`` (the "losing game", giveaway) plays the international moves; the side that
cannot move (no pieces left, or all blocked) wins instead of losing. ``italian`` plays on
a board turned a quarter (its top-left square is playable), men may not take kings, and
among the captures that take the most pieces it prefers a king's, then the most kings
taken, then the king met first. ``turkish`` plays on every square along rows and columns
(``orthogonal``): men forward and sideways, a piece taken off at once, no capture straight
back.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from .geometry import geometry

__all__ = ["DraughtsVariant", "VARIANTS", "get_variant"]


@dataclass(frozen=True)
class DraughtsVariant:
    """One variant's rules (see the module docstring's table)."""

    name: str
    size: int
    """Squares on a side of the board (8 or 10)."""
    men_rows: int
    """Rows of men each side starts with (3 on 8x8, 4 on 10x10)."""
    first: str
    """The colour that moves first, ``"white"`` or ``"black"``."""
    men_capture_backward: bool
    flying_kings: bool
    """Kings move and take at any distance along a diagonal (else one square)."""
    most_captures: bool
    """A capture must take the most pieces there are to take (else any sequence)."""
    crown_mid_capture: bool
    """A man that reaches the crown row during a capture is crowned at once and goes on
    taking as a king (Russian); else it stays a man unless the move ends there."""
    capture_ends_at_crown: bool
    """A man that reaches the crown row by a capture is crowned and the move ends
    (English)."""
    losing: bool = False
    """The side that cannot move wins (the losing game)."""
    dark_top_left: bool = False
    """The board's top-left square is a playable one (the Italian board; PDN's others
    start on the second square)."""
    men_take_kings: bool = True
    """Men may take kings (not in Italian draughts)."""
    capture_priorities: bool = False
    """Italian draughts' order among the captures that take the most pieces: a king's
    capture before a man's, then the one that takes the most kings, then the one that
    meets a king first."""
    orthogonal: bool = False
    """Turkish draughts: every square is played, the pieces move along rows and columns,
    men forward and sideways (and take so), a piece taken comes off at once, and a king
    does not turn back within a capture."""
    back_rows: int = 0
    """Empty rows behind each side's men at the start (1 in Turkish draughts)."""

    def __getstate__(self) -> dict:
        """Pickled without the cached :attr:`geometry` (made again on first use)."""
        state = self.__dict__.copy()
        state.pop("geometry", None)
        return state

    @cached_property
    def geometry(self):
        """The board's :class:`~bg_env.draughts.geometry.Geometry` (made once: the move
        generator reads it at every step)."""
        return geometry(self.size, self.dark_top_left, self.orthogonal)

    @property
    def squares(self) -> int:
        """Playable squares: 50 on 10x10, 32 on 8x8 (the dark ones), 64 in Turkish."""
        return self.size * self.size // (1 if self.orthogonal else 2)

    @property
    def per_row(self) -> int:
        """Playable squares in a row."""
        return self.size // (1 if self.orthogonal else 2)

    @property
    def men(self) -> int:
        """Men each side starts with."""
        return self.men_rows * self.per_row


VARIANTS: dict[str, DraughtsVariant] = {
    v.name: v for v in (
        DraughtsVariant("international", 10, 4, "white", True, True, True, False, False),
        DraughtsVariant("brazilian", 8, 3, "white", True, True, True, False, False),
        DraughtsVariant("russian", 8, 3, "white", True, True, False, True, False),
        DraughtsVariant("english", 8, 3, "black", False, False, False, False, True),
        DraughtsVariant("losing", 10, 4, "white", True, True, True, False, False, losing=True),
        DraughtsVariant("italian", 8, 3, "white", False, False, True, False, True,
                        dark_top_left=True, men_take_kings=False, capture_priorities=True),
        DraughtsVariant("turkish", 8, 2, "white", False, True, True, False, False,
                        orthogonal=True, back_rows=1),
    )
}
"""Every variant by name."""


def get_variant(name) -> DraughtsVariant:
    """The variant named ``name`` (or ``name`` itself when it is one).

    Raises:
        ValueError: an unknown name, naming the known ones.
    """
    if isinstance(name, DraughtsVariant):
        return name
    if name not in VARIANTS:
        raise ValueError(f"draughts variant {name!r} unknown; expected one of {list(VARIANTS)}")
    return VARIANTS[name]
