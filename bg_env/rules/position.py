"""A backgammon position seen from the player on roll, and GNU Backgammon Position IDs.

Rules source: ``docs/RULES.md`` §1 (board, numbering, start). Each side's checkers are
stored in that side's own numbering, as GNU Backgammon and wildbg do:

* index 0: checkers borne off;
* index 1..24: points 1..24, counted from that side's own home (it moves 24 -> 1);
* index 25: the bar.

``me`` is the player on roll, ``opp`` his opponent. The opponent's checker on *his* point
``q`` stands on the player's point ``25 - q``. Swapping the two arrays gives the board as
the opponent sees it (``Position.swap``).

GNU Backgammon Position ID (gnubg manual, "Position ID"): for the player *not* on roll
first, then the player on roll, for each of that side's points 1..24 and then the bar,
write as many 1-bits as checkers followed by one 0-bit; the 80 bits, packed
least-significant bit first into 10 bytes, are written in base64 without padding
(14 characters). The start position is ``4HPwATDgc/ABMA``.

The rules methods (:meth:`Position.legal_plays`, :meth:`~Position.parse_play`,
:meth:`~Position.outcome`) call :mod:`.moves`, :mod:`.magriel` and :mod:`.outcome`, which
read a board's ``me`` and ``opp`` without importing this module: the position sits above
them (and below the variants, whose Plakoto board is a Position).
"""

from __future__ import annotations

import base64
import binascii
from dataclasses import dataclass

from .board import BAR, NUM_POINTS, OFF, STANDARD_START, InvalidPositionError
from .magriel import match_play, split_record_line
from .moves import Play, check_dice, legal_plays
from .outcome import Outcome, outcome

__all__ = [
    "BAR",
    "OFF",
    "NUM_POINTS",
    "Position",
    "InvalidPositionError",
    "STANDARD_START",
    "MAX_CHECKERS",
]

MAX_CHECKERS = 15
"""Most checkers a side may have (borne off included); variants play with 15 or fewer."""


def _check_unused_bits(position_id: str, key: bytes) -> None:
    """The 14th character of a Position ID carries the last 2 bits of the 80 and 4 unused
    bits, which must be 0 (else two IDs would name one board): the ID must be the
    canonical base64 of its 10 bytes."""
    if base64.b64encode(key).decode("ascii")[:14] != position_id:
        raise InvalidPositionError(
            f"Position ID {position_id!r}: the last character has unused low bits set "
            f"(expected {base64.b64encode(key).decode('ascii')[:14]!r} for this board)"
        )


def _side(layout: dict[int, int], checkers: int) -> tuple[int, ...]:
    arr = [0] * 26
    for point, n in layout.items():
        if not 1 <= point <= 25:
            raise InvalidPositionError(f"point {point} is not 1..24 or 25 (bar)")
        arr[point] += n
    on_board = sum(arr)
    if on_board > checkers:
        raise InvalidPositionError(f"{on_board} checkers placed, more than {checkers}")
    arr[OFF] = checkers - on_board
    return tuple(arr)


@dataclass(frozen=True, slots=True)
class Position:
    """A board seen from the player on roll.

    Attributes:
        me: the player on roll's checkers, 26 counts in his own numbering
            (0 = borne off, 1..24 = points, 25 = bar).
        opp: the opponent's checkers, 26 counts in the opponent's own numbering.

    >>> Position.start().position_id()
    '4HPwATDgc/ABMA'
    """

    me: tuple[int, ...]
    opp: tuple[int, ...]

    def __post_init__(self) -> None:
        for name in ("me", "opp"):
            side = getattr(self, name)
            if not isinstance(side, tuple):
                object.__setattr__(self, name, tuple(int(x) for x in side))
                side = getattr(self, name)
            if len(side) != 26 or min(side) < 0:
                raise InvalidPositionError(
                    f"{name} must be 26 non-negative counts (off, points 1..24, bar), got {side!r}"
                )
            if sum(side) > MAX_CHECKERS:
                raise InvalidPositionError(
                    f"{name} has {sum(side)} checkers (borne off included), more than "
                    f"{MAX_CHECKERS}: {side!r}"
                )

    # ----------------------------------------------------------------- construction
    @classmethod
    def _unchecked(cls, me: tuple[int, ...], opp: tuple[int, ...]) -> "Position":
        """Build from two 26-tuples without validation (the move generator's fast path;
        its inputs come from valid positions)."""
        pos = object.__new__(cls)
        object.__setattr__(pos, "me", me)
        object.__setattr__(pos, "opp", opp)
        return pos

    @classmethod
    def start(cls, layout: dict[int, int] | None = None, checkers: int = 15) -> "Position":
        """The starting position for a layout given in each side's own numbering."""
        side = _side(layout or STANDARD_START, checkers)
        return cls(side, side)

    @classmethod
    def from_layout(
        cls, me: dict[int, int], opp: dict[int, int], checkers: int = 15
    ) -> "Position":
        """Build a position from ``{point: count}`` maps in each side's own numbering
        (25 = bar); the rest of each side's ``checkers`` are borne off."""
        pos = cls(_side(me, checkers), _side(opp, checkers))
        pos.validate()
        return pos

    @classmethod
    def from_position_id(cls, position_id: str, checkers: int = 15, validate: bool = True) -> "Position":
        """Decode a GNU Backgammon Position ID (14 characters of base64). ``validate=False``
        skips the check that no point is held by both sides in standard geometry (a
        variant checks its own: :meth:`bg_env.rules.variants.Variant.position_from_id`).

        Raises:
            InvalidPositionError: the string is not a Position ID of a legal board.
        """
        if not isinstance(position_id, str) or len(position_id) != 14:
            raise InvalidPositionError(
                f"Position ID {position_id!r}: expected 14 base64 characters"
            )
        try:
            key = base64.b64decode(position_id + "==", validate=True)
        except (binascii.Error, ValueError) as exc:
            raise InvalidPositionError(f"Position ID {position_id!r}: not base64 ({exc})") from None
        _check_unused_bits(position_id, key)
        bits = int.from_bytes(key, "little")
        sides: list[list[int]] = [[0] * 26, [0] * 26]
        side, point, used = 0, 1, 0
        for i in range(80):
            if side == 2:
                if (bits >> i) & 1:
                    raise InvalidPositionError(f"Position ID {position_id!r}: trailing bits set")
                continue
            if (bits >> i) & 1:
                sides[side][point] += 1
                used += 1
            else:
                point += 1
                if point == 26:
                    side, point = side + 1, 1
        if side != 2:
            raise InvalidPositionError(f"Position ID {position_id!r}: too many checkers")
        for s in sides:
            n = sum(s)
            if n > checkers:
                raise InvalidPositionError(
                    f"Position ID {position_id!r}: a side has {n} checkers, more than {checkers}"
                )
            s[OFF] = checkers - n
        pos = cls(tuple(sides[1]), tuple(sides[0]))
        if validate:
            pos.validate()
        return pos

    # ------------------------------------------------------------------ encodings
    def position_id(self) -> str:
        """GNU Backgammon's Position ID of this board (player on roll = ``me``)."""
        bits, i = 0, 0
        for side in (self.opp, self.me):
            for point in range(1, 26):
                n = side[point]
                bits |= ((1 << n) - 1) << i
                i += n + 1
        return base64.b64encode(bits.to_bytes(10, "little")).decode("ascii")[:14]

    def gnubg_board(self) -> list[list[int]]:
        """The 2x25 board GNU Backgammon's Python bindings use: ``[opp, me]``, each
        point 1..24 at index 0..23 and the bar at index 24."""
        return [list(self.opp[1:26]), list(self.me[1:26])]

    @classmethod
    def from_gnubg_board(cls, board, checkers: int = 15) -> "Position":
        """Inverse of :meth:`gnubg_board`."""
        opp = [checkers - sum(board[0])] + list(board[0])
        me = [checkers - sum(board[1])] + list(board[1])
        return cls(tuple(me), tuple(opp))

    # ---------------------------------------------------------------- properties
    def swap(self) -> "Position":
        """The same board seen from the opponent's side."""
        return Position(self.opp, self.me)

    def pips(self) -> tuple[int, int]:
        """Pip counts ``(me, opp)``: checkers on the bar count 25."""
        return (
            sum(p * n for p, n in enumerate(self.me)),
            sum(p * n for p, n in enumerate(self.opp)),
        )

    def opp_at(self, point: int) -> int:
        """Opponent checkers on the player's ``point`` (1..24)."""
        return self.opp[25 - point]

    def checkers(self) -> tuple[int, int]:
        """Total checkers of each side, borne off included."""
        return sum(self.me), sum(self.opp)

    def validate(self, allow_shared_points: bool = False) -> None:
        """Raise :class:`InvalidPositionError` if both sides hold the same point."""
        if allow_shared_points:
            return
        for p in range(1, 25):
            if self.me[p] and self.opp[25 - p]:
                raise InvalidPositionError(
                    f"point {p} holds {self.me[p]} of the player's and "
                    f"{self.opp[25 - p]} of the opponent's checkers"
                )

    def is_race(self) -> bool:
        """True when no contact is left: every checker of the player is past every
        checker of the opponent."""
        my_back = max((p for p in range(1, 26) if self.me[p]), default=0)
        opp_back = max((p for p in range(1, 26) if self.opp[p]), default=0)
        return my_back + opp_back < 25

    # ------------------------------------------------------------------ rules
    def legal_plays(self, dice: tuple[int, int]) -> list[Play]:
        """Every distinct legal play for ``dice`` (see :mod:`bg_env.rules.moves`).

        Raises:
            ValueError: ``dice`` are not two integers 1..6.
        """
        return legal_plays(self, check_dice(dice))

    def parse_play(self, text: str, dice: tuple[int, int] | None = None) -> Play:
        """The legal play written ``text`` in Magriel notation, standard rules (see
        :mod:`bg_env.rules.magriel`; a variant's plays: :func:`bg_env.rules.notation.parse_play`).
        ``text`` may be a record line with its roll (``"4-2: 8/4 6/4"``), and ``dice`` then
        left out.

        Raises:
            InvalidNotationError: ``text`` is not notation, or its roll is not ``dice``.
            IllegalMoveError: no legal play, or more than one, matches.
            ValueError: ``dice`` are not two integers 1..6.
        """
        dice, text = split_record_line(text, dice)
        dice = check_dice(dice)
        return match_play(self, text, dice, legal_plays(self, dice))

    def outcome(self) -> Outcome | None:
        """The :class:`~bg_env.rules.outcome.Outcome` if the game is over, else ``None``."""
        return outcome(self)

    # ------------------------------------------------------------------ text
    def __repr__(self) -> str:
        checkers = sum(self.me)
        if sum(self.opp) == checkers == 15:
            return f"Position.from_position_id({self.position_id()!r})"
        return f"Position({self.me!r}, {self.opp!r})"

    def __str__(self) -> str:
        return render_text(self)

    def _repr_svg_(self) -> str:
        """The board as SVG, from the player on roll's side (a notebook's display; see
        :func:`bg_env.rules.svg.position_svg`)."""
        from .svg import position_svg

        return position_svg(self)


def render_text(pos: Position, dice: tuple[int, ...] | None = None, extra: list[str] | None = None,
                status: str = "on roll") -> str:
    """A plain-text board from the player on roll's side: ``X`` is the player on roll
    (moving from 24 down to 1, home at the bottom right; ``status`` says what he does
    now, e.g. ``"to take"`` when the board is seen from a doubled player), ``O`` the opponent; a pinned
    Plakoto checker is drawn in lower case under its pinner. The opponent's checker on his
    point ``q`` is drawn on the player's ``25 - q`` (for Long Nardy's board, pass
    :func:`bg_env.envs.context.standard_view` of the position)."""

    pinned = getattr(pos, "pinned", (0, 0))  # Plakoto (variants.PinnedPosition)

    def cell(p: int, row: int) -> str:
        mine, theirs = pos.me[p], pos.opp[25 - p]
        if mine and theirs:  # Plakoto: the pinned checker (lower case) is at the edge
            stack = ["x"] + ["O"] * theirs if pinned[0] >> p & 1 else ["o"] + ["X"] * mine
        else:
            stack = ["X"] * mine or ["O"] * theirs
        n = len(stack)
        if n > row:
            if row == 4 and n > 5:
                return f"{n:>2} "
            return f" {stack[row]} "
        return " . "

    top = list(range(13, 25))
    bottom = list(range(12, 0, -1))
    lines = [f" Position ID: {pos.position_id()}"]
    lines.append(" " + "".join(f"{p:>3}" for p in top[:6]) + " |   |" + "".join(f"{p:>3}" for p in top[6:]))
    lines.append(" +" + "-" * 18 + "+---+" + "-" * 18 + "+")
    for row in range(5):
        bar = f" {pos.opp[25]} " if row == 0 and pos.opp[25] else "   "
        lines.append(
            " |" + "".join(cell(p, row) for p in top[:6]) + "|" + bar + "|"
            + "".join(cell(p, row) for p in top[6:]) + "|"
        )
    lines.append(" |" + " " * 18 + "|BAR|" + " " * 18 + "|")
    for row in range(4, -1, -1):
        bar = f" {pos.me[25]} " if row == 0 and pos.me[25] else "   "
        lines.append(
            " |" + "".join(cell(p, row) for p in bottom[:6]) + "|" + bar + "|"
            + "".join(cell(p, row) for p in bottom[6:]) + "|"
        )
    lines.append(" +" + "-" * 18 + "+---+" + "-" * 18 + "+")
    lines.append(" " + "".join(f"{p:>3}" for p in bottom[:6]) + " |   |" + "".join(f"{p:>3}" for p in bottom[6:]))
    mine, theirs = pos.pips()
    counts = f" X ({status}): pips {mine}, bar {pos.me[25]}, off {pos.me[0]}"
    counts += f" | O: pips {theirs}, bar {pos.opp[25]}, off {pos.opp[0]}"
    lines.append(counts)
    if dice:
        lines.append(" dice: " + "-".join(str(d) for d in dice))
    lines.extend(extra or [])
    return "\n".join(lines)
