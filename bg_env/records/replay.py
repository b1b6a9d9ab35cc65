"""Game records replayed through the engine: every play and cube action checked.

A record is a list of :class:`Action` (a roll and its play, a double, a take, a drop), the
players alternating. :func:`replay` plays them through :class:`~bg_env.game.game.Game`,
feeding the record's dice to the game as its random generator: each play must leave the
board as one of the legal plays of its roll does, each cube action must be the decision
the game asks for, and the record must end where the game does. Anything else raises
:class:`RecordError` naming the game and the move (:func:`place`), and the line of the file
for actions read from one. :mod:`bg_env.records` reads and writes the actions as GNU
Backgammon's ``.mat`` text.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..rules.actions import DOUBLE, DROP, ROLL, TAKE
from ..game.game import Game, Phase, Rules, next_cube_value
from ..rules.moves import legal_plays
from ..rules.position import Position

__all__ = ["Action", "RecordError", "place", "replay", "ROLL_ACTION", "DOUBLE_ACTION",
           "TAKE_ACTION", "DROP_ACTION"]

ROLL_ACTION, DOUBLE_ACTION, TAKE_ACTION, DROP_ACTION = "roll", "double", "take", "drop"
"""The kinds of :class:`Action`."""


class RecordError(ValueError):
    """A record that cannot be written or read: malformed text, an illegal play or cube
    action, or a game the format cannot hold. The message names the game and move, and for
    text the line of the file (:func:`place`)."""


@dataclass(frozen=True)
class Action:
    """One entry of a record: a roll and its play, or a cube action.

    Attributes:
        player: 0 for the first player (left column), 1 for the second.
        kind: ``"roll"``, ``"double"``, ``"take"`` or ``"drop"``.
        dice: the roll (``kind == "roll"``), the larger die first whatever order it is
            given in (as Jellyfish writes it; GNU Backgammon's export keeps the order rolled
            and its import reads either).
        moves: the play as ``(from, to, hit)`` checker moves in the mover's numbering
            (from 25 = the bar, to 0 = off); empty when nothing could be played.
        cube: the cube value offered (``kind == "double"``).
        line: the move number of the record line it was read from (0 when not read).
        file_line: the line of the text it was read from, counted from 1 as editors do (0
            when not read); errors name it, so that the file can be opened there.
    """

    player: int
    kind: str
    dice: tuple[int, int] | None = None
    moves: tuple[tuple[int, int, bool], ...] = ()
    cube: int = 0
    line: int = field(default=0, compare=False)
    file_line: int = field(default=0, compare=False)

    def __post_init__(self) -> None:
        if self.dice is not None and self.dice[0] < self.dice[1]:  # the larger die first
            object.__setattr__(self, "dice", (self.dice[1], self.dice[0]))

    def text(self) -> str:
        """The action as a ``.mat`` column entry."""
        if self.kind == ROLL_ACTION:
            moves = " ".join(f"{a}/{b}{'*' if hit else ''}" for a, b, hit in self.moves)
            return f"{self.dice[0]}{self.dice[1]}: {moves}".rstrip()
        if self.kind == DOUBLE_ACTION:
            return f" Doubles => {self.cube}"
        return " Takes" if self.kind == TAKE_ACTION else " Drops"


def place(game: int, move: int = 0, player: int | None = None, line: int = 0) -> str:
    """Where in a record a problem is, as error messages name it: ``line 14 (game 2, move 5,
    player 1)`` for text read from a file (``line``, counted from 1, says where to open it),
    ``game 2, move 5, player 1`` for actions not read from text; a move, player or line of 0
    or None is not known and left out.

    >>> place(2, 5, 0, line=14)
    'line 14 (game 2, move 5, player 1)'
    >>> place(2, 5)
    'game 2, move 5'
    """
    parts = [f"game {game}"] + ([f"move {move}"] if move else [])
    parts += [f"player {player + 1}"] if player is not None else []
    inner = ", ".join(parts)
    return f"line {line} ({inner})" if line else inner


def _at(number: int, action: Action, player: bool = True) -> str:
    """:func:`place` of ``action`` in game ``number``, naming its player or not."""
    return place(number, action.line, action.player if player else None, action.file_line)


class _RecordedDice:
    """The dice of a record, served to :class:`Game` as its random generator (a Game draws
    each roll as two ``rng.integers(1, 7)``)."""

    def __init__(self, rolls: list[tuple[int, int]]) -> None:
        self._dice = [d for roll in reversed(rolls) for d in reversed(roll)]

    def integers(self, low, high=None, size=None):
        if size is not None or not self._dice:
            raise _OutOfDice
        return self._dice.pop()


class _OutOfDice(Exception):
    """The game wants a roll the record does not have."""


def replay(actions: list[Action], rules: Rules | None = None, number: int = 1,
           finished: bool = True) -> Game:
    """Play ``actions`` through :class:`Game` from the opening (player 0 plays side 0) and
    return the game, its :attr:`~Game.events` kept: finished, or with ``finished=False`` as
    it stands where the actions stop (a resignation; a last roll with no play where legal
    plays exist is the resigning player's dice, not played).

    Raises:
        RecordError: an illegal play, a cube action out of turn or not allowed, or
            actions that stop before the game ends or go on after it; the message names
            game ``number``, the move and the action's :attr:`~Action.file_line` when it
            has one (:func:`place`).
    """
    rules = rules if rules is not None else Rules()
    if not actions or actions[0].kind != ROLL_ACTION:
        where = _at(number, actions[0], False) if actions else place(number)
        raise RecordError(f"{where}: a game starts with the opening roll")
    first = actions[0]
    if first.dice[0] == first.dice[1]:
        raise RecordError(f"{_at(number, first, False)}: the opening roll cannot be a double "
                          f"({first.dice[0]}{first.dice[1]})")
    dice = _RecordedDice([a.dice for a in actions[1:] if a.kind == ROLL_ACTION])
    game = Game(rules, turn=first.player)
    game.events = []
    checked = 0
    try:
        game.begin_turn(dice, first.dice)
        checked = _check_events(number, game, actions, 0)
        while game.phase != Phase.OVER and checked < len(actions):
            if not finished and _dice_before_resignation(game, actions, checked):
                checked += 1  # the dice rolled before the resignation: no play
                break
            _drive(number, game, actions[checked], dice)
            checked = _check_events(number, game, actions, checked)
    except _OutOfDice:  # the game wants a roll after the record's last one
        checked = _check_events(number, game, actions, checked)
    if game.phase != Phase.OVER and finished:
        last = _at(number, actions[-1], False)
        raise RecordError(f"{last}: the record ends before the game is over")
    if checked < len(actions):
        extra = actions[checked]
        why = "after the end of the game" if game.phase == Phase.OVER else "where the game rolls"
        raise RecordError(f"{_at(number, extra, False)}: a {extra.kind} {why}")
    return game


def _dice_before_resignation(game: Game, actions: list[Action], checked: int) -> bool:
    """Whether ``actions[checked]`` is the record's last action, a roll with no play where
    the game has legal plays of those dice: GNU Backgammon writes the dice of a player who
    resigns after rolling that way (its import reads them as ``MOVE_SETDICE``)."""
    action = actions[checked]
    if checked != len(actions) - 1 or action.kind != ROLL_ACTION or action.moves:
        return False
    if game.phase != Phase.MOVE or action.player != game.actor:
        return False
    start = game.turn_start
    return (sorted(action.dice) == sorted(game.dice)
            and any(p.result != start for p in game.legal_continuations()))


def _asked(game: Game) -> str:
    who = f"player {game.actor + 1}"
    return {Phase.CUBE: f"{who} to double or roll", Phase.TAKE: f"{who} to take or drop",
            Phase.MOVE: f"{who} to play {game.dice}"}.get(game.phase, f"{who} to roll")


def _check_events(number: int, game: Game, actions: list[Action], checked: int) -> int:
    """Check the game's new events against the record's actions (of game ``number``); the
    count checked."""
    events = game.events
    while checked < len(events):
        if checked >= len(actions):
            raise RecordError(f"{_at(number, actions[-1], False)}: the game goes on after the "
                              "last action of the record")
        event, action = events[checked], actions[checked]
        here = _at(number, action)
        kind = {"play": ROLL_ACTION, "double": DOUBLE_ACTION, "take": TAKE_ACTION,
                "drop": DROP_ACTION}.get(event[0], event[0])
        if kind != action.kind or event[1] != action.player:
            raise RecordError(f"{here}: the record has a {action.kind} where the game has "
                              f"player {event[1] + 1} {kind}")
        if kind == ROLL_ACTION:
            _, _, dice, moves, start, result = event
            target = _apply_moves(here, start, action.moves)
            if target != result:
                raise RecordError(_illegal(here, action, start, dice))
        elif kind == DOUBLE_ACTION and action.cube != event[2]:
            raise RecordError(f"{here}: 'Doubles => {action.cube}' but the cube goes to {event[2]}")
        checked += 1
    return checked


def _drive(number: int, game: Game, action: Action, dice: _RecordedDice) -> None:
    """Make the game take ``action`` (of game ``number``), the decision it asks for now."""
    here = _at(number, action)
    if action.player != game.actor:
        raise RecordError(f"{here}: {action.kind} out of turn; the game asks {_asked(game)}")
    phase = game.phase
    if phase == Phase.CUBE and action.kind in (ROLL_ACTION, DOUBLE_ACTION):
        game.step(DOUBLE if action.kind == DOUBLE_ACTION else ROLL, dice)
    elif phase == Phase.TAKE and action.kind in (TAKE_ACTION, DROP_ACTION):
        game.step(TAKE if action.kind == TAKE_ACTION else DROP, dice)
    elif phase == Phase.MOVE and action.kind == ROLL_ACTION:
        if sorted(action.dice) != sorted(game.dice):
            raise RecordError(f"{here}: the record rolls {action.dice}, the game {game.dice}")
        start = game.turn_start
        target = _apply_moves(here, start, action.moves)
        plays = [p for p in game.legal_continuations() if p.result == target]
        if not plays:
            raise RecordError(_illegal(here, action, start, game.dice))
        game.play(plays[0], dice)
    else:
        why = _why_no_double(game) if action.kind == DOUBLE_ACTION else ""
        raise RecordError(f"{here}: a {action.kind} is not allowed here{why}; the game asks "
                          f"{_asked(game)}")


def _why_no_double(game: Game) -> str:
    """Why a double the record has is refused: the cube limit, or the cube not available."""
    limit = game.rules.max_cube
    doubled = next_cube_value(game.cube_value, game.rules.cube_progression)
    if limit and doubled > limit:
        return f" (the cube would go to {doubled}, over the rules' max_cube={limit})"
    return " (the cube is not available)"


def _illegal(here: str, action: Action, start: Position, dice) -> str:
    legal = sorted({p.notation for p in legal_plays(start, tuple(dice))})
    shown = ", ".join(legal[:30]) + (" ..." if len(legal) > 30 else "")
    return f"{here}: illegal play {action.text().strip()!r}; legal plays: {shown}"


def _apply_moves(here: str, start: Position, moves) -> Position:
    """The board after moving checkers ``(from, to, hit)`` (the hit flag is not trusted:
    a lone opposing checker where one lands is hit)."""
    me, opp = list(start.me), list(start.opp)
    for src, dst, _ in moves:
        if me[src] == 0:
            where = "on the bar" if src == 25 else f"on the {src}-point"
            raise RecordError(f"{here}: move {src}/{dst}: no checker of the mover's {where}")
        if 0 < dst and opp[25 - dst] >= 2:
            raise RecordError(f"{here}: move {src}/{dst}: the {dst}-point is held by the opponent")
        me[src] -= 1
        me[dst] += 1
        if 0 < dst and opp[25 - dst] == 1:
            opp[25 - dst], opp[25] = 0, opp[25] + 1
    return Position(tuple(me), tuple(opp))
