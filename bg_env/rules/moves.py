"""Checker moves, plays and legal-play generation.

Rules source: ``docs/RULES.md`` §2 (moving), §3 (hitting and entering), §4 (bearing off).

* A *move* is one checker moved by one die; a *play* is a player's whole turn.
* The player must use as many dice as can be used; if only one of two different dice can
  be used, the larger one when it can; doubles are played four times.
* Two plays ending in the same position are the same play.

Two generators live here and are tested against each other:

* :func:`legal_plays_reference` enumerates every order of every die and every checker,
  then applies the rules as written. Slow and obviously correct; it is the truth.
* :func:`legal_plays` prunes orderings that cannot give new positions (doubles in
  non-increasing source order; both orders for two different dice) and is what the rest
  of the library uses.

A move's action index is ``(source - 1) * 6 + (die - 1)`` (:mod:`bg_env.rules.actions`):
``source`` 1..24 or 25 for the bar.

The generators read a board's ``me`` and ``opp`` only and build their results with the
class of the board they were given (a :class:`~bg_env.rules.position.Position`), so this
module sits below the position, whose ``legal_plays`` method calls it.
"""

from __future__ import annotations

import operator
from dataclasses import dataclass
from functools import cached_property

from .actions import decode_move
from .board import BAR, OFF, Board
from .magriel import format_play

__all__ = [
    "Move",
    "Play",
    "single_moves",
    "apply_move",
    "move_checker",
    "legal_plays",
    "legal_plays_reference",
    "max_dice_usable",
    "legal_next_moves",
    "dice_to_play",
    "check_dice",
]

Side = tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Move:
    """One checker moved by one die, from the mover's side.

    Attributes:
        source: point 1..24, or 25 for the bar.
        die: the die value 1..6 used.
        hit: whether the move hits an opposing blot.
    """

    source: int
    die: int
    hit: bool = False

    @property
    def dest(self) -> int:
        """Destination point 1..24, or 0 when the checker is borne off."""
        return max(self.source - self.die, OFF)

    @property
    def action(self) -> int:
        """The action index (:mod:`bg_env.rules.actions`): ``(source - 1) * 6 + (die - 1)``."""
        return (self.source - 1) * 6 + (self.die - 1)

    def __str__(self) -> str:
        src = "bar" if self.source == BAR else str(self.source)
        dst = "off" if self.dest == OFF else str(self.dest)
        return f"{src}/{dst}{'*' if self.hit else ''}"


def dice_to_play(dice: tuple[int, int] | list[int]) -> list[int]:
    """The dice a roll gives to play: doubles four times.

    Raises:
        ValueError: ``dice`` are not two integers 1..6 (:func:`check_dice`).
    """
    a, b = check_dice(dice)
    return [a] * 4 if a == b else [a, b]


def check_dice(dice, name: str = "dice") -> tuple[int, int]:
    """``dice`` as two ``int`` 1..6 (a roll given from outside).

    Raises:
        ValueError: not two integers 1..6 (a string, floats, booleans, three dice...),
            naming ``name`` and the value.
    """
    values = None
    if not isinstance(dice, (str, bytes)):
        try:
            values = tuple(dice)
        except TypeError:
            pass
    if values is None or len(values) != 2 or not all(_is_die(d) for d in values):
        raise ValueError(f"{name}={dice!r}: expected two integer dice 1..6, e.g. (3, 1)")
    return operator.index(values[0]), operator.index(values[1])


def _is_die(value) -> bool:
    """An integer 1..6 (Python's or numpy's; not a bool, a float or a string)."""
    if isinstance(value, bool):
        return False
    try:
        return 1 <= operator.index(value) <= 6
    except TypeError:  # floats, strings, numpy bools
        return False


# ----------------------------------------------------------------- single-move rules
def _is_open(opp: Side, dest: int) -> bool:
    """A point is open when it holds fewer than two opposing checkers (RULES §2)."""
    return opp[25 - dest] < 2


def _all_home(me: Side) -> bool:
    """Bearing off is allowed only when every checker is in the home board (RULES §4)."""
    return not any(me[7:26])


def _no_checker_above(me: Side, source: int) -> bool:
    """A die larger than the point may bear off only when no checker stands on a
    higher point of the home board (RULES §4)."""
    return not any(me[source + 1 : 7])


def _move_is_legal(me: Side, opp: Side, source: int, die: int) -> bool:
    """Whether one checker may move from ``source`` with ``die`` (no other dice
    considered): bar first, open destination, bear-off conditions."""
    if me[source] == 0:
        return False
    if me[BAR] and source != BAR:
        return False  # checkers on the bar must enter first (RULES §3)
    dest = source - die
    if dest >= 1:
        return _is_open(opp, dest)
    if not _all_home(me):
        return False
    return dest == 0 or _no_checker_above(me, source)


def move_checker(me: Side, opp: Side, source: int, die: int) -> tuple[Side, Side, bool]:
    """Move one checker without checking legality; returns the new sides and the hit flag.

    The rule's one Python copy; its kernel twin is
    :func:`bg_env.kernels.moves.apply_move_kernel` (``tests/core/test_move_kernels.py``)."""
    dest = max(source - die, OFF)
    new_me = list(me)
    new_me[source] -= 1
    new_me[dest] += 1
    hit = dest >= 1 and opp[25 - dest] == 1
    if hit:
        new_opp = list(opp)
        new_opp[25 - dest] = 0
        new_opp[BAR] += 1
        return tuple(new_me), tuple(new_opp), True
    return tuple(new_me), opp, False


def single_moves(pos: Board, die: int) -> list[Move]:
    """Every legal single-checker move with one die, ignoring the other dice."""
    out = []
    for source in range(25, 0, -1):
        if _move_is_legal(pos.me, pos.opp, source, die):
            dest = source - die
            hit = dest >= 1 and pos.opp[25 - dest] == 1
            out.append(Move(source, die, hit))
    return out


def apply_move(pos: Board, move: Move | int) -> Board:
    """Play one move (a :class:`Move` or an action index) after checking it on its own.

    Raises:
        ValueError: the move is not legal on its own in this position.
    """
    if not isinstance(move, Move):
        move = Move(*decode_move(operator.index(move)))
    if not _move_is_legal(pos.me, pos.opp, move.source, move.die):
        raise ValueError(f"move {move} (source {move.source}, die {move.die}) is not legal here")
    me, opp, _ = move_checker(pos.me, pos.opp, move.source, move.die)
    return type(pos)(me, opp)


# --------------------------------------------------------------------------- plays
@dataclass(frozen=True)
class Play:
    """A whole turn: the moves in playable order and the resulting position.

    Attributes:
        start: the position before the play.
        moves: the checker moves, in an order that can be played one by one.
        result: the position after the play, still seen from the same player.
    """

    start: Board
    moves: tuple[Move, ...]
    result: Board

    @property
    def actions(self) -> tuple[int, ...]:
        """The moves as action indices, playable one by one."""
        return tuple(m.action for m in self.moves)

    @cached_property
    def notation(self) -> str:
        """Magriel notation, e.g. ``13/7*/5`` or ``8/4(2) 6/2(2)``; empty play: ``Ø``."""
        return format_play(self.moves)

    def __str__(self) -> str:
        return self.notation

    def __repr__(self) -> str:
        return f"<Play {self.notation} -> {self.result.position_id()}>"


def _finish(
    pos: Board, dice: list[int], seqs: list[tuple[tuple[Move, ...], Side, Side]]
) -> list[Play]:
    """Apply the max-dice and larger-die rules, then keep one play per result."""
    most = max(len(m) for m, _, _ in seqs)
    kept = [s for s in seqs if len(s[0]) == most]
    if most == 1 and dice[0] != dice[1]:
        larger = max(dice)
        with_larger = [s for s in kept if s[0][0].die == larger]
        if with_larger:
            kept = with_larger
    plays: dict[tuple[Side, Side], Play] = {}
    make = type(pos)._unchecked
    for moves, me, opp in kept:
        if (me, opp) not in plays:
            plays[(me, opp)] = Play(pos, moves, make(me, opp))
    return list(plays.values())


def legal_plays_reference(pos: Board, dice: tuple[int, int]) -> list[Play]:
    """Every distinct legal play, by brute force over all orders (slow, the truth).

    Args:
        pos: the position, from the player on roll.
        dice: the two dice rolled.

    Returns:
        One :class:`Play` per distinct resulting position; one empty play when no die
        can be played.
    """
    to_play = dice_to_play(dice)
    seqs: list[tuple[tuple[Move, ...], Side, Side]] = []

    def extend(me: Side, opp: Side, remaining: list[int], moves: tuple[Move, ...]) -> None:
        moved = False
        for i, die in enumerate(remaining):
            for source in range(1, 26):
                if _move_is_legal(me, opp, source, die):
                    moved = True
                    me2, opp2, hit = move_checker(me, opp, source, die)
                    rest = remaining[:i] + remaining[i + 1 :]
                    extend(me2, opp2, rest, moves + (Move(source, die, hit),))
        if not moved:
            seqs.append((moves, me, opp))

    extend(pos.me, pos.opp, to_play, ())
    return _finish(pos, list(dice), seqs)


def legal_plays(pos: Board, dice: tuple[int, int]) -> list[Play]:
    """Every distinct legal play (the library's generator; see the module docstring).

    Doubles are searched in non-increasing source order: any legal double play can be
    reordered that way (a checker only reaches a point from a higher one, and a bear-off
    with a larger die needs the higher points already emptied), so no result is lost.
    """
    to_play = dice_to_play(dice)
    seqs: list[tuple[tuple[Move, ...], Side, Side]] = []
    if len(to_play) == 4:
        die = to_play[0]

        def extend_double(me: Side, opp: Side, left: int, top: int, moves: tuple[Move, ...]) -> None:
            moved = False
            if left:
                for source in range(top, 0, -1):
                    if me[source] and _move_is_legal(me, opp, source, die):
                        moved = True
                        me2, opp2, hit = move_checker(me, opp, source, die)
                        extend_double(me2, opp2, left - 1, source, moves + (Move(source, die, hit),))
            if not moved:
                seqs.append((moves, me, opp))

        extend_double(pos.me, pos.opp, 4, 25, ())
    else:
        for first, second in ((to_play[0], to_play[1]), (to_play[1], to_play[0])):
            me, opp = pos.me, pos.opp
            for s1 in range(25, 0, -1):
                if not (me[s1] and _move_is_legal(me, opp, s1, first)):
                    continue
                me1, opp1, hit1 = move_checker(me, opp, s1, first)
                m1 = Move(s1, first, hit1)
                moved = False
                for s2 in range(25, 0, -1):
                    if me1[s2] and _move_is_legal(me1, opp1, s2, second):
                        moved = True
                        me2, opp2, hit2 = move_checker(me1, opp1, s2, second)
                        seqs.append(((m1, Move(s2, second, hit2)), me2, opp2))
                if not moved:
                    seqs.append(((m1,), me1, opp1))
        if not seqs:
            seqs.append(((), pos.me, pos.opp))
    return _finish(pos, list(dice), seqs)


# ----------------------------------------------------------- step-by-step play support
def max_dice_usable(pos: Board, remaining: list[int]) -> int:
    """How many of ``remaining`` dice can be played in some order from ``pos``."""
    return _max_dice(pos.me, pos.opp, remaining)


def _max_dice(me: Side, opp: Side, remaining: list[int]) -> int:
    """:func:`max_dice_usable` of the two sides ``me`` and ``opp``."""

    def best(me: Side, opp: Side, rem: tuple[int, ...]) -> int:
        top = 0
        for i, die in enumerate(sorted(set(rem), reverse=True)):
            for source in range(25, 0, -1):
                if me[source] and _move_is_legal(me, opp, source, die):
                    me2, opp2, _ = move_checker(me, opp, source, die)
                    j = rem.index(die)
                    got = 1 + best(me2, opp2, rem[:j] + rem[j + 1 :])
                    if got == len(rem):
                        return got
                    top = max(top, got)
        return top

    return best(me, opp, tuple(remaining))


def legal_next_moves(
    pos: Board, remaining: list[int], moves_left: int, larger_only: int = 0
) -> list[Move]:
    """The moves that start some complete legal play from a partial play.

    Args:
        pos: the position after the moves made so far this turn.
        remaining: the dice not yet used.
        moves_left: how many more dice the turn's legal plays use (the turn's maximum
            minus the moves made).
        larger_only: at the start of a turn in which only one of two different dice can
            be played, the larger die when it is playable (else 0).

    Returns:
        Every legal next move, one per (source, die); empty when the play is complete.
    """
    if moves_left <= 0:
        return []
    out = []
    for die in sorted(set(remaining), reverse=True):
        if larger_only and die != larger_only:
            continue
        rest = list(remaining)
        rest.remove(die)
        for source in range(25, 0, -1):
            if pos.me[source] and _move_is_legal(pos.me, pos.opp, source, die):
                me2, opp2, hit = move_checker(pos.me, pos.opp, source, die)
                if moves_left == 1 or _max_dice(me2, opp2, rest) >= moves_left - 1:
                    out.append(Move(source, die, hit))
    return out
