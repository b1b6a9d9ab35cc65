"""The draughts board: its squares (PDN numbering), their diagonals, a position, and FEN.

Squares are the dark squares, numbered ``1..n`` row by row from the top left, as PDN and
the FMJD number them: on 10x10 square 1 is the second square of the top row, 5 the last,
6 the first of the second row (Manoury's numbering); 8x8 boards alike (1..32). White
plays from the bottom (the highest numbers) up, black from the top down.

A position is the piece on every square -- ``1`` a white man, ``2`` a white king, ``-1``
a black man, ``-2`` a black king, ``0`` empty -- and the colour to move (``WHITE`` = 1,
``BLACK`` = -1). FEN is PDN's: ``"W:W31-50:B1-20"`` (the side to move, then each
colour's squares, ``K`` before a king's, ranges allowed).
"""

from __future__ import annotations

from dataclasses import dataclass

from .geometry import DIRECTIONS, Geometry, geometry
from .variants import DraughtsVariant, get_variant

__all__ = ["WHITE", "BLACK", "MAN", "KING", "DIRECTIONS", "Geometry", "geometry",
           "DraughtsPosition", "InvalidFenError"]

WHITE, BLACK = 1, -1
MAN, KING = 1, 2
COLOURS = {WHITE: "W", BLACK: "B"}


class InvalidFenError(ValueError):
    """A FEN that does not read as a position of the variant."""


def crown_row(variant: DraughtsVariant, colour: int) -> int:
    """The row where ``colour``'s men are crowned: the far side."""
    return 0 if colour == WHITE else variant.size - 1


@dataclass(frozen=True)
class DraughtsPosition:
    """A draughts position: the variant, the board and the colour to move.

    >>> pos = DraughtsPosition.start("international")
    >>> pos.fen()
    'W:W31-50:B1-20'
    >>> pos.board[31], pos.board[20], pos.board[25]
    (1, -1, 0)
    """

    variant: DraughtsVariant
    board: tuple[int, ...]
    """``board[s]`` for square ``s`` in ``1..n`` (``board[0]`` is 0)."""
    turn: int
    """The colour to move: :data:`WHITE` (1) or :data:`BLACK` (-1)."""

    @classmethod
    def start(cls, variant="international") -> "DraughtsPosition":
        """The start: each side's men on its first ``men_rows`` rows."""
        v = get_variant(variant)
        n, first = v.squares, v.back_rows * v.per_row
        board = [0] * (n + 1)
        for s in range(first + 1, first + v.men + 1):
            board[s] = -MAN
            board[n + 1 - s] = MAN
        return cls(v, tuple(board), WHITE if v.first == "white" else BLACK)

    @classmethod
    def from_fen(cls, fen: str, variant="international") -> "DraughtsPosition":
        """The position of a PDN FEN (``"W:W31-50:B1-20"``; ``K`` marks a king).

        Raises:
            InvalidFenError: the FEN does not read, names a square twice or off the
                board, or puts a man on the row where it would be a king.
        """
        v = get_variant(variant)
        text = fen.strip().rstrip(".")
        fields = [f.strip() for f in text.split(":")]
        if not fields or fields[0].upper() not in ("W", "B") or len(fields) > 3:
            raise InvalidFenError(f"FEN {fen!r}: expected 'W:W..:B..' or 'B:W..:B..'")
        board = [0] * (v.squares + 1)
        for field in fields[1:]:
            if not field or field[0].upper() not in ("W", "B"):
                raise InvalidFenError(f"FEN {fen!r}: field {field!r} starts with neither W nor B")
            colour = WHITE if field[0].upper() == "W" else BLACK
            for item in filter(None, (x.strip() for x in field[1:].split(","))):
                for square, king in _fen_squares(item, fen, v.squares):
                    if board[square]:
                        raise InvalidFenError(f"FEN {fen!r}: square {square} given twice")
                    board[square] = colour * (KING if king else MAN)
        pos = cls(v, tuple(board), WHITE if fields[0].upper() == "W" else BLACK)
        pos.check()
        return pos

    def check(self) -> None:
        """Raise :class:`InvalidFenError` when a man stands on its crown row."""
        g = self.variant.geometry
        for s in range(1, self.variant.squares + 1):
            p = self.board[s]
            if abs(p) == MAN and g.row(s) == crown_row(self.variant, 1 if p > 0 else -1):
                who = "white" if p > 0 else "black"
                raise InvalidFenError(f"a {who} man on square {s}, its crown row (it would "
                                      "be a king)")

    def fen(self) -> str:
        """PDN FEN, runs of three or more men written as ranges."""
        parts = [COLOURS[self.turn]]
        for colour in (WHITE, BLACK):
            parts.append(COLOURS[colour] + _fen_list(self.board, colour))
        return ":".join(parts)

    def pieces(self, colour: int) -> list[int]:
        """The squares of ``colour``'s pieces, ascending."""
        return [s for s in range(1, len(self.board)) if self.board[s] * colour > 0]

    def __str__(self) -> str:
        """The board as text: ``w``/``b`` men, ``W``/``B`` kings, ``.`` empty dark squares."""
        g = self.variant.geometry
        marks = {0: ".", MAN: "w", KING: "W", -MAN: "b", -KING: "B"}
        rows = []
        for r in range(g.size):
            rows.append(" ".join(marks[self.board[g.square(r, c)]] if g.square(r, c) else " "
                                 for c in range(g.size)).rstrip())
        rows.append(f"{'white' if self.turn == WHITE else 'black'} to move")
        return "\n".join(rows)


def _fen_squares(item: str, fen: str, n: int):
    """``(square, king)`` of one FEN item: ``"31"``, ``"K7"``, ``"31-35"``."""
    king = item[:1].upper() == "K"
    body = item[1:] if king else item
    try:
        low, _, high = body.partition("-")
        first, last = int(low), int(high or low)
    except ValueError:
        raise InvalidFenError(f"FEN {fen!r}: {item!r} is not a square, 'K'+square or a "
                              "range a-b") from None
    if not (1 <= first <= last <= n):
        raise InvalidFenError(f"FEN {fen!r}: {item!r}: squares are 1..{n}")
    return [(s, king) for s in range(first, last + 1)]


def _fen_list(board: tuple[int, ...], colour: int) -> str:
    """``colour``'s squares for a FEN field: kings first as ``K<n>``, then men, runs of
    three or more as ranges."""
    kings = [s for s in range(1, len(board)) if board[s] == colour * KING]
    men = [s for s in range(1, len(board)) if board[s] == colour * MAN]
    items = [f"K{s}" for s in kings]
    i = 0
    while i < len(men):
        j = i
        while j + 1 < len(men) and men[j + 1] == men[j] + 1:
            j += 1
        if j - i >= 2:
            items.append(f"{men[i]}-{men[j]}")
        else:
            items.extend(str(s) for s in men[i:j + 1])
        i = j + 1
    return ",".join(items)
