"""The data of a ``.mat`` game record (:mod:`bg_env.records`): a :class:`GameRecord` per
game, a :class:`MatchRecord` for the file, and the rules such a record can hold.

These sit below both the writer (:mod:`bg_env.records`) and the reader
(:mod:`bg_env.records.reader`), so that :mod:`bg_env.records` can re-export the reader
without an import circle. Users import them from :mod:`bg_env.records`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..game.game import Game, Phase, Rules
from ..rules.position import Position
from .replay import DOUBLE_ACTION, DROP_ACTION, ROLL_ACTION, TAKE_ACTION, Action, RecordError

__all__ = ["GameRecord", "MAX_CUBE", "MatchRecord", "check_rules"]

MAX_CUBE = 4096
"""The highest cube GNU Backgammon holds (its ``MAX_CUBE``, ``1 << 12``): records are
written and read with a ``max_cube`` of 1 .. 4096, by default 4096."""


@dataclass
class GameRecord:
    """One game: its actions in order and how it ended.

    Attributes:
        actions: the :class:`Action` list, alternating between the players.
        winner: the player (0 or 1) who won.
        points: what the winner scored.
        outcome: ``"single"``, ``"gammon"``, ``"backgammon"``, ``"drop"`` or ``"resign"``
            (read from a record whose game stops with ``Wins N points``).
        score: the players' points before this game (match score, or the money games' running totals).
    """

    actions: list[Action]
    winner: int
    points: int
    outcome: str = ""
    score: tuple[int, int] = (0, 0)

    @classmethod
    def from_game(cls, game: Game, first_side: int = 0) -> "GameRecord":
        """The record of a finished ``game`` whose :attr:`~bg_env.game.game.Game.events`
        were kept from its first play on; ``first_side`` is the side (0 or 1) the first
        player of the record played.

        Raises:
            RecordError: the game is not over, its events were not kept from the start,
                or it used rules or actions a ``.mat`` record cannot hold.
        """
        check_rules(game.rules)
        if first_side not in (0, 1):
            raise RecordError(f"first_side={first_side!r}: expected the side 0 or 1")
        if game.phase != Phase.OVER or game.result is None:
            raise RecordError("the game is not over: only finished games can be recorded")
        if not game.events:
            raise RecordError("the game kept no events: set game.events = [] before its "
                              "first play ends")
        player = (lambda side: side) if first_side == 0 else (lambda side: 1 - side)
        actions = [_action_of_event(event, player) for event in game.events]
        first = game.events[0]
        if first[0] != "play" or first[4] != Position.start():
            raise RecordError("the game's events do not start with the opening play: set "
                              "game.events = [] before the first play ends")
        r = game.result
        return cls(actions, player(r.winner), int(r.points), r.outcome)


def _action_of_event(event: tuple, player) -> Action:
    """The :class:`Action` of one entry of ``Game.events``."""
    kind, side = event[0], event[1]
    if kind == "play":
        _, _, dice, moves, _, _ = event
        triples = tuple((m.source, m.dest, bool(m.hit)) for m in moves)
        return Action(player(side), ROLL_ACTION, (int(dice[0]), int(dice[1])), triples)
    if kind == "double":
        return Action(player(side), DOUBLE_ACTION, cube=int(event[2]))
    if kind in ("take", "drop"):
        return Action(player(side), TAKE_ACTION if kind == "take" else DROP_ACTION)
    raise RecordError(f"a {kind!r} cannot be written in a .mat record")


@dataclass
class MatchRecord:
    """A ``.mat`` file: the players, the match length (0: money games) and the games.

    Attributes:
        players: the two players' names (first = left column).
        length: the match length in points; 0 for money games.
        games: the :class:`GameRecord` list, in order.
    """

    players: tuple[str, str] = ("player_0", "player_1")
    length: int = 0
    games: list[GameRecord] = field(default_factory=list)

    def points(self) -> tuple[int, int]:
        """The points each player won over all games."""
        won = [0, 0]
        for g in self.games:
            won[g.winner] += g.points
        return won[0], won[1]

    def add(self, record: GameRecord) -> GameRecord:
        """Append a game, its score line set to the points won so far."""
        record.score = self.points()
        self.games.append(record)
        return record

    def add_game(self, game: Game, first_side: int = 0) -> GameRecord:
        """Append the finished ``game`` (see :meth:`GameRecord.from_game`)."""
        return self.add(GameRecord.from_game(game, first_side))


def check_rules(rules: Rules) -> None:
    """Raise :class:`RecordError` unless ``.mat`` records (and GNU Backgammon's import of
    them) can hold games played under ``rules``."""
    unsupported = {
        "variant": rules.variant != "standard",
        "jacoby": rules.jacoby,
        "beaver": rules.beaver,
        "max_cube": not 1 <= rules.max_cube <= MAX_CUBE,
        "auto_doubles": rules.auto_doubles != 0,
        "gammons": rules.gammons != "all",
        "cube_progression": rules.cube_progression != "geometric",
        **{option: True for option in rules.variant_options},
    }
    bad = [f"{k}={getattr(rules, k)!r}" for k, v in unsupported.items() if v]
    if bad:
        raise RecordError(f"rules {', '.join(bad)}: a .mat record holds standard games with a "
                          f"geometric cube of at most max_cube={MAX_CUBE}, all gammons, no "
                          "Jacoby rule, no beavers, no automatic doubles and no rule options "
                          "(RULES.md §10)")

