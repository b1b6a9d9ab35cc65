"""A game of draughts played hop by hop: the state an env steps (:mod:`.actions`: one
action a hop), the end of the game, and the draw rules.

A move is played one hop at a time: the first hop chooses among the legal moves, each
later hop among those that began so; a hop that every remaining choice shares is played
at once, and the move ends when its path is complete (only then do the pieces taken come
off). Every distinct move has one path (:func:`~.moves.distinct`).

The game ends (:attr:`DraughtsGame.result`) when the side to move has no legal move: it
loses (wins in the losing game). It is drawn by

* repetition: the same position, with the same side to move, for the third time;
* quiet moves: ``quiet_limit`` moves in a row (both sides') by kings without a capture:
  25 each in international, Brazilian and losing draughts (FMJD art. 6.1), 15 each in
  Russian, 40 each in English and Italian;
* the FMJD endgame rules (international family): a lone king against three pieces with a
  king among them, 16 moves each; against two pieces or fewer (a king among them), 5 each;
  in Russian draughts a lone king against two pieces with a king among them, or against
  three (a king among them) while it holds the main road (the long diagonal, 4-29) and
  none of them stands on it, 5 moves each; and with kings on both sides, 30 moves each in
  endings of four or five pieces (both sides' together), 60 each in endings of six or
  seven, without a capture or a crowning (the Russian federation's rules, 7.2.6); in
  Turkish draughts one piece against one, 2 moves each. An endgame rule counts from the
  first move made in its position and starts again when the pieces change: a capture,
  and under the Russian 7.2.6 rule a crowning. Turkish draughts has no quiet-move rule.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from .actions import hop_action
from .board import KING, DraughtsPosition
from .moves import DraughtsMove, apply_move, legal_moves

__all__ = ["DraughtsGame", "IllegalHopError", "QUIET_LIMITS"]

QUIET_LIMITS = {"international": 50, "brazilian": 50, "losing": 50, "russian": 30,
                "english": 80, "italian": 80}
"""Moves in a row (both sides', so twice each side's) by kings without a capture that
draw the game, by variant."""


class IllegalHopError(ValueError):
    """An action that is not a legal hop now."""


@dataclass
class DraughtsGame:
    """A game from ``position`` (the variant's start by default)."""

    position: DraughtsPosition
    hops: list[int] = field(default_factory=list)
    """The squares of the move being played: its start and the landings so far."""
    seen: Counter = field(default_factory=Counter)
    """How often each ``(board, side to move)`` has stood at a move's start."""
    quiet: int = 0
    """Moves in a row by kings without a capture."""
    endgame: int = 0
    """Moves played under an endgame rule (0 while none applies)."""
    plies: int = 0
    """Moves completed."""
    result: tuple[int, str] | None = None
    """Once over: ``(winner, reason)``, the winner's colour (1 white, -1 black) or 0 for a
    draw; the reason ``"no moves"``, ``"repetition"``, ``"quiet moves"`` or ``"endgame"``."""
    initial: DraughtsPosition | None = None
    """The position the game started from (``position`` when not given)."""
    played: list[DraughtsMove] = field(default_factory=list)
    """The moves made, in order (:func:`~bg_env.draughts.pdn.write_pdn` writes them)."""
    generator: Callable[[DraughtsPosition], list[DraughtsMove]] = field(
        default=legal_moves, repr=False, compare=False)
    """What lists the legal moves of a position: the reference
    :func:`~bg_env.draughts.moves.legal_moves`, or its compiled fast path
    :func:`bg_env.kernels.draughts.fast_legal_moves` (the same moves in the same order;
    the envs use it)."""

    def __post_init__(self) -> None:
        if self.initial is None:
            self.initial = self.position
        self._moves = self.generator(self.position)
        self._rule = self._endgame_rule()  # (the position's, kept until the next move)
        self.seen[self._key()] += 1
        if not self._moves:
            self.result = (self._no_moves_winner(), "no moves")

    @classmethod
    def start(cls, variant="international") -> "DraughtsGame":
        return cls(DraughtsPosition.start(variant))

    # ------------------------------------------------------------------ state
    @property
    def variant(self):
        return self.position.variant

    @property
    def turn(self) -> int:
        """The colour to move (1 white, -1 black)."""
        return self.position.turn

    def _key(self) -> tuple:
        return self.position.board, self.position.turn

    def moves_going(self) -> list[DraughtsMove]:
        """The legal moves that begin with the hops played so far."""
        n = len(self.hops)
        return [m for m in self._moves if list(m.path[:n]) == self.hops] if n else self._moves

    def taken(self) -> tuple[int, ...]:
        """The pieces taken so far in the move being played (still on the board)."""
        going = self.moves_going()
        return going[0].captured[:max(len(self.hops) - 1, 0)] if going else ()

    def board_now(self) -> list[int]:
        """The board as it stands in the move being played: the moving piece where it has
        got to (back on its start, if a capture has brought it there), its start otherwise
        empty; the pieces taken so far still on it."""
        board = list(self.position.board)
        if self.hops:
            piece, board[self.hops[0]] = board[self.hops[0]], 0
            board[self.hops[-1]] = piece
        return board

    def _by_next_hop(self) -> dict[int, list[DraughtsMove]]:
        """The legal moves that begin with the hops played so far, by the action of their
        next hop (the first: the move's first two squares; after that one landing a
        hop), in the moves' order (made once a hop: hops only grow within a move)."""
        key = (self.plies, len(self.hops))
        cached = getattr(self, "_going", None)
        if cached is None or cached[0] != key:
            by: dict[int, list[DraughtsMove]] = {}
            g, k = self.variant.geometry, max(len(self.hops), 1)
            for m in self.moves_going():
                by.setdefault(hop_action(g, m.path[k - 1], m.path[k]), []).append(m)
            cached = self._going = (key, by)
        return cached[1]

    def legal_actions(self) -> list[int]:
        """The hops that may be played now (ascending), none once the game is over."""
        if self.result is not None:
            return []
        return sorted(self._by_next_hop())

    # ------------------------------------------------------------------ play
    def step(self, action: int) -> None:
        """Play the hop ``action``, then the hops every remaining choice shares; the move
        is made when complete.

        Raises:
            IllegalHopError: ``action`` is not among :meth:`legal_actions` (nothing changed).
        """
        going = self._by_next_hop().get(action) if self.result is None else None
        if not going:
            raise IllegalHopError(f"action {action!r} is not a legal hop now; legal: "
                                  f"{self.legal_actions()}")
        self.hops = list(going[0].path[:max(len(self.hops), 1) + 1])
        self._go_on(going)

    def _go_on(self, going: list[DraughtsMove]) -> None:
        """Play the hops that every move still ``going`` shares; make the move once its
        path is complete (no legal path is the start of another)."""
        while True:
            n = len(self.hops)
            done = [m for m in going if len(m.path) == n]
            if done:
                return self.play(done[0])
            nexts = {m.path[n] for m in going}
            if len(nexts) > 1:
                return
            self.hops.append(nexts.pop())
            going = [m for m in going if m.path[n] == self.hops[-1]]

    def play(self, move: DraughtsMove) -> None:
        """Make the whole legal ``move`` (unchecked: one of :func:`legal_moves`)."""
        kings_only = abs(self.position.board[move.start]) == KING and not move.captured
        before = self._rule
        self.position = apply_move(self.position, move)
        self.played.append(move)
        self.hops = []
        self.plies += 1
        self.quiet = self.quiet + 1 if kings_only else 0
        self.seen[self._key()] += 1
        self._moves = self.generator(self.position)
        rule = self._rule = self._endgame_rule()
        # (counted from the first move made under a rule, not the one that made it)
        self.endgame = self.endgame + 1 if rule[0] and rule == before else 0
        self.result = self._ended(rule[0])

    # ------------------------------------------------------------------ the end
    def _no_moves_winner(self) -> int:
        """The side to move cannot move: it loses, or in the losing game wins."""
        return self.turn if self.variant.losing else -self.turn

    def _ended(self, limit: int) -> tuple[int, str] | None:
        """The result after a move, ``limit`` the endgame rule's now (0: none)."""
        if not self._moves:
            return self._no_moves_winner(), "no moves"
        if self.seen[self._key()] >= 3:
            return 0, "repetition"
        quiet = QUIET_LIMITS.get(self.variant.name)
        if quiet is not None and self.quiet >= quiet:
            return 0, "quiet moves"
        if limit and self.endgame >= limit:
            return 0, "endgame"
        return None

    def _endgame_rule(self) -> tuple[int, tuple[int, ...]]:
        """``(limit, pieces)``: the moves (both sides') an endgame rule allows now, 0 when
        none applies -- the FMJD's, a lone king against 3 pieces with a king, 32; against 1
        or 2 with a king, 10; Russian draughts' (:func:`_russian_endgame_rule`); in Turkish
        draughts one piece against one, 4 -- and the pieces whose change starts its count
        again (each side's number; men and kings apart under the Russian 7.2.6 rule)."""
        name = self.variant.name
        board = self.position.board
        if name == "russian":
            return _russian_endgame_rule(board)
        if name not in ("international", "brazilian", "turkish"):
            return 0, ()
        sides = [[p for p in board if p * c > 0] for c in (1, -1)]
        counts = (len(sides[0]), len(sides[1]))
        if name == "turkish":
            return (4 if counts == (1, 1) else 0), counts
        for lone, other in (sides, sides[::-1]):
            if len(lone) == 1 and abs(lone[0]) == KING and any(abs(p) == KING for p in other):
                return (32 if len(other) == 3 else 10 if len(other) <= 2 else 0), counts
        return 0, counts


MAIN_ROAD = (4, 8, 11, 15, 18, 22, 25, 29)
"""The squares of the long diagonal of the 8x8 board (Russian draughts' main road)."""


def _russian_endgame_rule(board: tuple[int, ...]) -> tuple[int, tuple[int, ...]]:
    """Russian draughts' endgame rules, ``(limit, pieces)`` as
    :meth:`DraughtsGame._endgame_rule` gives them: a lone king against two pieces with a
    king among them, or against three with a king among them while it stands on the main
    road and they do not, 5 moves each (10); else, with kings on both sides, 30 moves each
    (60) in endings of 4 or 5 pieces in all and 60 each (120) in endings of 6 or 7, counted
    again after a capture or a crowning (the Russian federation's rules, 7.2.6: "the balance
    of forces has not changed"); else 0. (Three kings or more against one also end by the
    quiet-move rule, 15 moves each.)"""
    squares = range(1, len(board))
    sides = [[s for s in squares if board[s] * colour > 0] for colour in (1, -1)]
    kings = [sum(abs(board[s]) == KING for s in side) for side in sides]
    counts = (len(sides[0]), len(sides[1]))
    for me, you in ((0, 1), (1, 0)):
        lone, other = sides[me], sides[you]
        if len(lone) != 1 or not kings[me] or not kings[you]:
            continue
        if len(other) == 2:
            return 10, counts
        on_road = any(s in MAIN_ROAD for s in other)
        if len(other) == 3 and lone[0] in MAIN_ROAD and not on_road:
            return 10, counts
    pieces = counts[0] + counts[1]
    if not all(kings) or not 4 <= pieces <= 7:
        return 0, counts
    return (60 if pieces <= 5 else 120), (counts[0] - kings[0], kings[0],
                                          counts[1] - kings[1], kings[1])
