"""Legal moves of draughts, the slow reference: one small function per rule.

* Capturing is compulsory (:func:`legal_moves`); with ``most_captures`` only the
  sequences that take the most pieces are legal (:func:`most_taken`).
* A capture sequence is one move (:func:`capture_sequences`): it goes on while a piece
  can be taken (:func:`jumps`), a piece is jumped at most once, and the pieces taken come
  off after the whole move, blocking until then (:func:`apply_move`); the moving piece's
  own square is empty as soon as it leaves.
* Men step one square diagonally forward (:func:`steps`) and take forward, and backward
  where the variant says (``men_capture_backward``); kings step along any diagonal, at any
  distance when they fly, and take a piece anywhere ahead on a diagonal with an empty
  square right behind it, landing on any empty square beyond (:func:`king_jumps`).
* Turkish draughts: the same along rows and columns, men forward and sideways
  (:func:`forward`); a piece taken comes off at once (:func:`_empty`), and no piece takes
  straight back the way it came (:func:`turned_back`).
* Italian draughts: men may not take kings (:func:`man_may_take`), and among the
  captures that take the most, :func:`by_priority` chooses.
* Crowning (:func:`crowned`): a man ending its move on the far row becomes a king; in
  Russian draughts it is crowned the moment it gets there during a capture and takes on
  as a king (:func:`crowned_mid_capture`); in English draughts a capture that crowns a man
  ends the move there.
* Sequences that take the same pieces from the same square to the same square are one
  move (:func:`distinct`).
"""

from __future__ import annotations

from dataclasses import dataclass

from .board import KING, DraughtsPosition, crown_row

__all__ = ["DraughtsMove", "legal_moves", "apply_move", "steps", "jumps", "king_jumps",
           "capture_sequences", "most_taken", "by_priority", "distinct", "parse_move"]


@dataclass(frozen=True)
class DraughtsMove:
    """A move: the squares the piece visits (``path[0]`` where it starts, ``path[-1]``
    where it ends), the squares of the pieces it takes, in order, and whether it is
    crowned."""

    path: tuple[int, ...]
    captured: tuple[int, ...] = ()
    crowned: bool = False

    @property
    def start(self) -> int:
        return self.path[0]

    @property
    def end(self) -> int:
        return self.path[-1]

    @property
    def notation(self) -> str:
        """PDN: ``"32-28"``, or ``"19x30"`` for a capture (start and end)."""
        sep = "x" if self.captured else "-"
        return f"{self.start}{sep}{self.end}"

    @property
    def long_notation(self) -> str:
        """Every square visited: ``"19x2x11"`` (how PDN tells apart two captures with the
        same start and end)."""
        return ("x" if self.captured else "-").join(str(s) for s in self.path)


# ------------------------------------------------------------------ directions
def forward(pos: DraughtsPosition, colour: int) -> tuple[int, ...]:
    """The directions (indices of the board's lines) of ``colour``'s forward moves: the
    two forward diagonals, or in Turkish draughts forward and sideways."""
    if pos.variant.orthogonal:
        return (0, 1, 2) if colour > 0 else (3, 1, 2)
    return (0, 1) if colour > 0 else (2, 3)


def man_capture_directions(pos: DraughtsPosition, colour: int) -> tuple[int, ...]:
    """Where a man may take: forward, and backward where the variant allows it."""
    return (0, 1, 2, 3) if pos.variant.men_capture_backward else forward(pos, colour)


# ------------------------------------------------------------------ plain moves
def steps(pos: DraughtsPosition, square: int) -> list[DraughtsMove]:
    """The moves without a capture of the piece on ``square``: a man one square forward
    (or sideways, in Turkish draughts), a king along every line (as far as it is empty
    when kings fly, else one)."""
    piece, g = pos.board[square], pos.variant.geometry
    colour, king = (1 if piece > 0 else -1), abs(piece) == KING
    out = []
    for d in (range(4) if king else forward(pos, colour)):
        for to in g.rays[square][d]:
            if pos.board[to]:
                break
            out.append(DraughtsMove((square, to), (), crowned(pos, square, to, king)))
            if not (king and pos.variant.flying_kings):
                break
    return out


def crowned(pos: DraughtsPosition, start: int, end: int, king: bool) -> bool:
    """A man that ends its move on its crown row becomes a king."""
    colour = 1 if pos.board[start] > 0 else -1
    return not king and pos.variant.geometry.row(end) == crown_row(pos.variant, colour)


# ------------------------------------------------------------------ captures
def jumps(pos: DraughtsPosition, at: int, colour: int, king: bool, origin: int,
          taken: tuple[int, ...], banned: int = -1) -> list[tuple[int, tuple[int, ...], int]]:
    """The single captures open to a piece of ``colour`` on ``at`` (a king or not),
    midway through a move that began on ``origin`` (empty now) and has taken ``taken``
    (still on the board and not to be jumped again; in Turkish draughts off the board
    already): ``(square taken, landing squares, direction)``, none in direction
    ``banned``."""
    if king and pos.variant.flying_kings:
        return king_jumps(pos, at, colour, origin, taken, banned)
    g, out = pos.variant.geometry, []
    for d in (range(4) if king else man_capture_directions(pos, colour)):
        ray = g.rays[at][d]
        if (d != banned and len(ray) >= 2 and _enemy(pos, ray[0], colour, taken)
                and _empty(pos, ray[1], origin, taken)
                and (king or man_may_take(pos, ray[0]))):
            out.append((ray[0], (ray[1],), d))
    return out


def man_may_take(pos: DraughtsPosition, square: int) -> bool:
    """Whether a man may take the piece on ``square``: not a king in Italian draughts."""
    return pos.variant.men_take_kings or abs(pos.board[square]) != KING


def king_jumps(pos: DraughtsPosition, at: int, colour: int, origin: int,
               taken: tuple[int, ...], banned: int = -1) -> list[tuple[int, tuple[int, ...], int]]:
    """A flying king's captures: along each line, past empty squares, the first piece if
    it is an opponent's not yet taken, and every empty square right behind it up to the
    next piece (a taken piece blocks, but in Turkish draughts, where it is gone)."""
    g, out = pos.variant.geometry, []
    for d in range(4):
        if d == banned:
            continue
        ray = g.rays[at][d]
        k = 0
        while k < len(ray) and _empty(pos, ray[k], origin, taken):
            k += 1
        if k >= len(ray) - 1 or not _enemy(pos, ray[k], colour, taken):
            continue
        landings = []
        for to in ray[k + 1:]:
            if not _empty(pos, to, origin, taken):
                break
            landings.append(to)
        if landings:
            out.append((ray[k], tuple(landings), d))
    return out


def _enemy(pos: DraughtsPosition, square: int, colour: int, taken: tuple[int, ...]) -> bool:
    return pos.board[square] * colour < 0 and square not in taken


def _empty(pos: DraughtsPosition, square: int, origin: int, taken: tuple[int, ...]) -> bool:
    """Empty now: no piece, the moving piece's start, or in Turkish draughts a piece taken
    (off the board at once)."""
    return (pos.board[square] == 0 or square == origin
            or (pos.variant.orthogonal and square in taken))


def turned_back(pos: DraughtsPosition, d: int) -> int:
    """The direction a piece may not take next after taking in direction ``d``: straight
    back, in Turkish draughts (-1: none)."""
    return 3 - d if pos.variant.orthogonal else -1


def crowned_mid_capture(pos: DraughtsPosition, square: int, colour: int, king: bool) -> bool:
    """A man landing on its crown row during a capture: crowned at once where the variant
    says so (Russian)."""
    return (not king and pos.variant.crown_mid_capture
            and pos.variant.geometry.row(square) == crown_row(pos.variant, colour))


def capture_sequences(pos: DraughtsPosition, square: int) -> list[DraughtsMove]:
    """Every complete capture sequence of the piece on ``square``: it takes on while it
    can, from a landing square where it can when there is one."""
    piece = pos.board[square]
    colour, king = (1 if piece > 0 else -1), abs(piece) == KING
    out: list[DraughtsMove] = []
    _extend(pos, square, colour, king, king, (square,), (), -1, out)
    return out


def _extend(pos, origin, colour, was_king, king, path, taken, banned, out) -> None:
    """Depth-first: the sequences going on from ``path[-1]`` after taking ``taken``."""
    at = path[-1]
    options = (jumps(pos, at, colour, king, origin, taken, banned)
               if not _stops(pos, at, colour, king, path) else [])
    if not options:
        if taken:
            crown = (not was_king and (king or crowned(pos, origin, at, False)))
            out.append(DraughtsMove(path, taken, crown))
        return
    for victim, landings, d in options:
        after, back = taken + (victim,), turned_back(pos, d)
        going_on = [to for to in landings
                    if _can_go_on(pos, origin, colour, king, to, after, back)]
        for to in (going_on or landings):
            _extend(pos, origin, colour, was_king,
                    king or crowned_mid_capture(pos, to, colour, king), path + (to,), after,
                    back, out)


def _stops(pos, at, colour, king, path) -> bool:
    """English draughts: a man that reaches the crown row by a capture stops there."""
    return (len(path) > 1 and not king and pos.variant.capture_ends_at_crown
            and pos.variant.geometry.row(at) == crown_row(pos.variant, colour))


def _can_go_on(pos, origin, colour, king, to, taken, banned) -> bool:
    """Whether a piece landing on ``to`` could take again."""
    king = king or crowned_mid_capture(pos, to, colour, king)
    if _stops(pos, to, colour, king, (origin, to)):
        return False
    return bool(jumps(pos, to, colour, king, origin, taken, banned))


def most_taken(moves: list[DraughtsMove]) -> list[DraughtsMove]:
    """The moves that take the most pieces."""
    most = max(len(m.captured) for m in moves)
    return [m for m in moves if len(m.captured) == most]


def by_priority(pos: DraughtsPosition, moves: list[DraughtsMove]) -> list[DraughtsMove]:
    """Italian draughts, among the captures that take the most: a king's capture before a
    man's, then those that take the most kings, then those that meet a king first (the
    earliest kings in the order taken)."""
    if any(abs(pos.board[m.start]) == KING for m in moves):
        moves = [m for m in moves if abs(pos.board[m.start]) == KING]

    def kings(m):
        return [i for i, s in enumerate(m.captured) if abs(pos.board[s]) == KING]
    most = max(len(kings(m)) for m in moves)
    moves = [m for m in moves if len(kings(m)) == most]
    first = min(kings(m) for m in moves)
    return [m for m in moves if kings(m) == first]


def distinct(moves: list[DraughtsMove]) -> list[DraughtsMove]:
    """One move for each start, end and set of pieces taken (the first path found)."""
    seen, out = set(), []
    for m in moves:
        key = (m.start, m.end, frozenset(m.captured))
        if key not in seen:
            seen.add(key)
            out.append(m)
    return out


# ------------------------------------------------------------------ the moves
def legal_moves(pos: DraughtsPosition) -> list[DraughtsMove]:
    """Every legal move of the side to move (captures when there are any)."""
    mine = pos.pieces(pos.turn)
    captures = [m for s in mine for m in capture_sequences(pos, s)]
    if captures:
        if pos.variant.most_captures:
            captures = most_taken(captures)
        if pos.variant.capture_priorities:
            captures = by_priority(pos, captures)
        return distinct(captures)
    return [m for s in mine for m in steps(pos, s)]


def apply_move(pos: DraughtsPosition, move: DraughtsMove) -> DraughtsPosition:
    """The position after ``move`` (unchecked: one of :func:`legal_moves`): the piece moved
    (crowned when the move says so), the pieces taken removed, the other side to move."""
    board = list(pos.board)
    piece = board[move.start]
    board[move.start] = 0
    for s in move.captured:
        board[s] = 0
    board[move.end] = (KING if move.crowned else abs(piece)) * (1 if piece > 0 else -1)
    return DraughtsPosition(pos.variant, tuple(board), -pos.turn)


def parse_move(pos: DraughtsPosition, text: str) -> DraughtsMove:
    """The legal move written ``text``: ``"32-28"``, ``"19x30"`` or a full path
    ``"19x2x11"`` (needed only when two captures share start and end).

    Raises:
        ValueError: not a legal move here, or ambiguous (naming the candidates).
    """
    sep = "x" if "x" in text.lower() else "-"
    try:
        squares = tuple(int(s) for s in text.lower().split(sep))
    except ValueError:
        raise ValueError(f"move {text!r}: expected squares joined by '-' or 'x'") from None
    moves = legal_moves(pos)
    found = [m for m in moves if (m.path == squares if len(squares) > 2 else
                                  (m.start, m.end) == squares) and bool(m.captured) == (sep == "x")]
    if len(found) == 1:
        return found[0]
    if not found:
        raise ValueError(f"move {text!r} is not legal; legal: {[m.notation for m in moves]}")
    raise ValueError(f"move {text!r} is ambiguous: {[m.long_notation for m in found]}")

