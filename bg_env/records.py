"""Game records in the Jellyfish ``.mat`` format, the text format GNU Backgammon imports
(``import mat FILE``) and exports: written from games played here, read back and replayed.

A record looks like this (the layout is GNU Backgammon's; the names here are examples)::

    ; [Player 1 "td"]
    ; [Player 2 "pubeval"]
    ; [Jacoby "Off"]

     0 point match

     Game 1
     td : 0                         pubeval : 0
      1)                             31: 8/5 6/5
      2) 52: 13/8 24/22              63: 25/22* 8/2
      ...
     12) 64: 6/2 6/0                  Doubles => 2
     13)  Drops
          Wins 1 point

* ``N point match``: the match length; ``0 point match`` is a money session.
* Each game: ``Game k``, the score line (each player's name and points before the game),
  then numbered lines, each with an action of the first player (left column) and of the
  second (right column). Actions alternate between the players -- a roll answers a roll
  or a take, a take or a drop answers a double -- so the left column of the first line
  is empty when the second player wins the opening roll.
* A roll: the two dice, a colon, and the play as checker moves ``from/to`` in the
  mover's own numbering (as :class:`~bg_env.core.position.Position` counts), one move per
  die in playable order, ``*`` after a hit; the bar is ``25`` and off is ``0``. A roll
  with no legal move is the dice and the colon alone. (Reading also accepts ``bar``,
  ``off``, paths such as ``24/18/13`` and repeats such as ``8/4(2)``.)
* Cube actions: ``Doubles => 2`` (the cube value offered), ``Takes``, ``Drops``.
* ``Wins N point(s)`` in the winner's column ends the game.

GNU Backgammon reads a player's name from the score line up to the colon, at most 31
bytes. Names written there are therefore cut to 31 UTF-8 bytes, with ``:``, ``,``, white
space and control characters replaced by ``_``, the second made distinct (``_2``) from an
equal first (:mod:`bg_env.record_names`); the full names go into ``; [Player 1 "..."]``
comments, which :func:`parse_mat` prefers.

GNU Backgammon scores imported money games under its own ``jacoby`` setting (on by
default; the ``; [Jacoby "Off"]`` comment written here is ignored by version 1.07): type
``set jacoby off`` before ``import mat FILE`` to score gammons as they were played here.

Reading (:func:`read_mat`, :func:`parse_mat`) replays every game through
:class:`~bg_env.core.game.Game` (:mod:`bg_env.replay`) under the given rules (match games
under the match's Crawford rule): every play must be one of the legal plays of its roll,
every cube action must be allowed, the game must end where the record ends and with the
points the ``Wins`` line gives, and each score line must be the sum of the games before it.
Anything else raises :class:`RecordError`, naming the game and the move number.

Recording: set ``game.events = []`` on a :class:`~bg_env.core.game.Game` before its first
play ends, play it, then :meth:`MatchRecord.add_game` (or :meth:`GameRecord.from_game`).

Not supported (the format or GNU Backgammon's import has no place for them): rule
variants, beavers, the Jacoby rule, automatic doubles, other gammon rules or cube
progressions, a cube without limit or above 4096 (GNU Backgammon's ``MAX_CUBE``),
unfinished games. A game read that stops before its end with ``Wins N points`` is a
resignation (outcome ``"resign"``), as GNU Backgammon reads it; a last roll there with no
play where plays exist (``62:``) is the dice of a player who resigned after rolling.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .core.game import Game, GameResult, Phase, Rules
from .core.match import Match
from .core.position import Position
from .record_names import comment_name, mat_name, score_line_names
from .replay import (
    DOUBLE_ACTION, DROP_ACTION, ROLL_ACTION, TAKE_ACTION, Action, RecordError, replay,
)

__all__ = [
    "Action", "GameRecord", "MAX_CUBE", "MatchRecord", "RecordError",
    "check_rules", "format_mat", "parse_mat", "read_mat", "write_mat", "replay_game", "mat_name",
]

_LEFT_WIDTH = 28
"""Width of the left column after ``NNN) `` (as GNU Backgammon writes it)."""
_RIGHT_COLUMN = 20
"""A lone action starting at or after this column of its line is the second player's."""
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
        score: the players' points before this game (match score, or session totals).
    """

    actions: list[Action]
    winner: int
    points: int
    outcome: str = ""
    score: tuple[int, int] = (0, 0)

    @classmethod
    def from_game(cls, game: Game, first_side: int = 0) -> "GameRecord":
        """The record of a finished ``game`` whose :attr:`~bg_env.core.game.Game.events`
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
    """A ``.mat`` file: the players, the match length (0: a money session) and the games.

    Attributes:
        players: the two players' names (first = left column).
        length: the match length in points; 0 for a money session.
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
    }
    bad = [f"{k}={getattr(rules, k)!r}" for k, v in unsupported.items() if v]
    if bad:
        raise RecordError(f"rules {', '.join(bad)}: a .mat record holds standard games with a "
                          f"geometric cube of at most max_cube={MAX_CUBE}, all gammons, no "
                          "Jacoby rule, no beavers and no automatic doubles")


# --------------------------------------------------------------------------- writing
def format_mat(match: MatchRecord) -> str:
    """The text of a ``.mat`` record (see the module docstring)."""
    if not isinstance(match.length, int) or match.length < 0:
        raise RecordError(f"match length {match.length!r}: expected 0 (money) or more points")
    lines = [f'; [Player {i + 1} "{comment_name(n)}"]' for i, n in enumerate(match.players)]
    if match.length == 0:  # (GNU Backgammon 1.07 ignores it: see the module docstring)
        lines.append('; [Jacoby "Off"]')
    lines += ["", f" {match.length} point match", ""]
    names = score_line_names(match.players)
    for number, game in enumerate(match.games, start=1):
        lines.append(f" Game {number}")
        lines.append(_score_line(names, game.score))
        lines += _game_lines(game)
        lines.append("")
    return "\n".join(lines) + "\n"


def _score_line(names: tuple[str, str], score: tuple[int, int]) -> str:
    """`` name : points`` of the first player padded to GNU Backgammon's 31 columns, then
    the second's; at least one space between them (GNU Backgammon's import finds the second
    name after the white space that ends the first score)."""
    left = f"{names[0]} : {score[0]}"
    return f" {left:<30} {names[1]} : {score[1]}"


def _game_lines(game: GameRecord) -> list[str]:
    """The numbered action lines of one game and its ``Wins`` line."""
    lines: list[str] = []
    row = ""
    for i, action in enumerate(game.actions):
        if i == 0 and action.player == 1:  # the second player opens: empty left column
            row = f"{1:3d}) " + " " * _LEFT_WIDTH
        column = 1 if row else 0
        if action.player != column:
            raise RecordError(f"game actions do not alternate between the players: {action}")
        text = action.text()
        if column == 0:  # at least two spaces before the right column (GNU Backgammon's split)
            row = f"{len(lines) + 1:3d}) " + text.ljust(max(_LEFT_WIDTH, len(text) + 2))
        else:
            lines.append((row + text).rstrip())
            row = ""
    wins = f"Wins {game.points} point{'s' if game.points != 1 else ''}"
    if row and game.winner == 1:  # (after the first player's drop: on the same line, as
        lines.append(row + wins)  # GNU Backgammon writes it; on a line of its own it
        return lines              # imports as one more game)
    if row:
        lines.append(row.rstrip())
    lines.append((" " * 6 if game.winner == 0 else " " * 33) + wins)
    return lines


def write_mat(path, match: MatchRecord) -> None:
    """Write ``match`` to ``path`` as a ``.mat`` file."""
    text = format_mat(match)
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(text)


# --------------------------------------------------------------------------- reading
_HEADER = re.compile(r"^\s*(\d+)\s+point\s+match\b", re.IGNORECASE)
_COMMENT_PLAYER = re.compile(r'^\s*;\s*\[\s*Player\s+([12])\s+"(.*)"\s*\]', re.IGNORECASE)
_GAME = re.compile(r"^\s*Game\s+(\d+)\s*$", re.IGNORECASE)
_SCORE = re.compile(r"^\s*(\S.*?)\s*:\s*(\d+)\s+(\S.*?)\s*:\s*(\d+)\s*$")
_NUMBERED = re.compile(r"^\s*(\d+)\)(.*)$")
_WINS = re.compile(r"^(\s*)Wins\s+(\d+)\s+points?\b", re.IGNORECASE)
_POINT = r"(?:\d{1,2}|bar|off)"
_ACTION = re.compile(
    rf"(?P<roll>(?P<dice>[1-6][1-6]):(?P<moves>(?:[ \t]+{_POINT}(?:/{_POINT}\*?)+(?:\(\d\))?)*))"
    r"|(?P<double>Doubles\s*=>\s*(?P<cube>\d+))|(?P<take>Takes)|(?P<drop>Drops)"
    r"|(?P<wins>Wins\s+(?P<points>\d+)\s+points?(?:\s+and\s+the\s+match)?)"
    r"|(?P<other>Beavers|Raccoons|Resigns)",
    re.IGNORECASE,
)


def read_mat(path, rules: Rules | None = None) -> MatchRecord:
    """Read and replay the ``.mat`` file ``path`` (see :func:`parse_mat`)."""
    with open(path, encoding="utf-8-sig", errors="replace") as fh:  # (XG writes a BOM)
        text = fh.read()
    try:
        return parse_mat(text, rules)
    except RecordError as exc:
        raise RecordError(f"{path}: {exc}") from None


def parse_mat(text: str, rules: Rules | None = None) -> MatchRecord:
    """Parse a ``.mat`` record and replay every game through the engine.

    Args:
        text: the record.
        rules: the rules of a money session (default: cube on, no Jacoby, ``max_cube``
            4096 as GNU Backgammon); match games are played under the match's rules
            (Crawford rule included).

    Returns:
        the :class:`MatchRecord`, each game's winner, points and outcome from the replay.

    Raises:
        RecordError: malformed text, an illegal play or cube action, a result or score
            that the replay contradicts; the message names the game and move number.
    """
    rules = rules if rules is not None else Rules(max_cube=MAX_CUBE)
    check_rules(rules)
    lines = text.splitlines()
    length, names, start = _read_header(lines)
    blocks = _game_blocks(lines, start)
    if not blocks:
        raise RecordError("no game in the record (expected lines 'Game 1', ...)")
    match = _match(length, rules, start) if length else None
    record = MatchRecord(names, length)
    for number, block in blocks:
        record.games.append(_read_game(number, block, record, match, rules))
    return record


def _match(length: int, rules: Rules, header_line: int) -> Match:
    """The :class:`Match` of the header's length; :class:`RecordError` if it cannot be."""
    try:
        return Match(length, rules)
    except ValueError as exc:
        raise RecordError(f"line {header_line}: '{length} point match': {exc}") from None


def _read_header(lines: list[str]) -> tuple[int, tuple[str, str], int]:
    """The match length, the players' names from comments, and the line after the header."""
    names = ["", ""]
    for i, line in enumerate(lines):
        m = _COMMENT_PLAYER.match(line)
        if m:
            names[int(m.group(1)) - 1] = m.group(2)
            continue
        m = _HEADER.match(line)
        if m:
            return int(m.group(1)), (names[0], names[1]), i + 1
        if line.strip() and not line.lstrip().startswith(";"):
            raise RecordError(f"line {i + 1}: expected 'N point match', got {line.strip()!r}")
    raise RecordError("no 'N point match' line: not a .mat record")


def _game_blocks(lines: list[str], start: int) -> list[tuple[int, list[str]]]:
    """``(game number, its lines after 'Game k')`` for every game."""
    blocks: list[tuple[int, list[str]]] = []
    for line in lines[start:]:
        m = _GAME.match(line)
        if m:
            blocks.append((int(m.group(1)), []))
            if int(m.group(1)) != len(blocks):
                raise RecordError(f"'Game {m.group(1)}' where game {len(blocks)} was expected")
        elif blocks:
            blocks[-1][1].append(line)
        elif line.strip() and not line.lstrip().startswith(";"):
            raise RecordError(f"{line.strip()!r} before 'Game 1'")
    return blocks


def _read_game(number: int, block: list[str], record: MatchRecord, match: Match | None,
               rules: Rules) -> GameRecord:
    """Parse one game's lines, replay them and check its score line and result."""
    where = f"game {number}"
    body = [line for line in block if line.strip()]
    if not body:
        raise RecordError(f"{where}: no score line")
    score_line = _SCORE.match(body[0])
    if not score_line:
        raise RecordError(f"{where}: expected the score line 'name : points  name : points', "
                          f"got {body[0].strip()!r}")
    names = (score_line.group(1), score_line.group(3))
    record.players = tuple(c or n for c, n in zip(record.players, names))
    score = (int(score_line.group(2)), int(score_line.group(4)))
    if score != record.points():
        raise RecordError(f"{where}: the score line says {score[0]}-{score[1]} but the games "
                          f"before it make {record.points()[0]}-{record.points()[1]}")
    actions, wins = _read_actions(where, body[1:])
    if match is not None:
        if match.is_over:
            raise RecordError(f"{where}: the match was already over at {score[0]}-{score[1]}")
        game_rules = match.game_rules()
    else:
        game_rules = rules
    game = replay(actions, game_rules, number, finished=wins is None)
    r = game.result or _resignation(where, game, wins)
    if wins is not None and wins != (r.winner, r.points):
        who = "first" if wins[0] == 0 else "second"
        raise RecordError(f"{where}: the record says the {who} player wins {wins[1]} point(s) "
                          f"but the replay ends with {record.players[r.winner]} winning "
                          f"{r.points} ({r.outcome})")
    if match is not None:
        match.record(r)
    return GameRecord(actions, r.winner, int(r.points), r.outcome, score)


def _resignation(where: str, game: Game, wins: tuple[int, int]) -> GameResult:
    """The result of a game that stops before its end with ``Wins N points``: the loser
    resigned a single game, a gammon or a backgammon (``N`` = 1, 2 or 3 times the cube)."""
    winner, points = wins
    if points not in (game.cube_value, 2 * game.cube_value, 3 * game.cube_value):
        raise RecordError(f"{where}: the game stops before its end with 'Wins {points}' at "
                          f"cube {game.cube_value}: a resignation scores 1, 2 or 3 times the cube")
    return GameResult(winner, "resign", game.cube_value, points)


def _read_actions(where: str, lines: list[str]) -> tuple[list[Action], tuple[int, int] | None]:
    """The actions of a game's numbered lines, and its ``Wins`` line as ``(player, points)``."""
    actions: list[Action] = []
    wins = None
    for line in lines:
        m = _WINS.match(line)
        if m:
            wins = (0 if len(m.group(1)) < _RIGHT_COLUMN else 1, int(m.group(2)))
            continue
        m = _NUMBERED.match(line)
        if not m:
            raise RecordError(f"{where}: cannot read line {line.strip()!r} (expected 'N) ...' "
                              "or 'Wins N points')")
        if wins is not None:
            raise RecordError(f"{where}: move {m.group(1)} after the 'Wins' line")
        number, content = int(m.group(1)), m.group(2)
        offset = len(line) - len(content)
        found = _line_actions(where, number, content)
        if len(found) == 1:
            column = 1 if offset + found[0][0] >= _RIGHT_COLUMN else 0
            found = [(column, found[0][1])]
        else:
            found = [(column, item[1]) for column, item in enumerate(found)]
        for column, (kind, dice, moves, cube) in found:
            if kind == "wins":
                wins = (column, cube)
                continue
            if wins is not None:
                raise RecordError(f"{where}, move {number}: {kind} after the 'Wins' entry")
            if actions and actions[-1].player == column:
                raise RecordError(f"{where}, move {number}: the same player acts twice in a row")
            actions.append(Action(column, kind, dice, moves, cube, line=number))
    return actions, wins


def _line_actions(where: str, number: int, content: str) -> list:
    """``(start, (kind, dice, moves, cube))`` for the one or two actions of a line."""
    found = []
    pos = 0
    for m in _ACTION.finditer(content):
        gap = content[pos:m.start()]
        if gap.strip():
            raise RecordError(f"{where}, move {number}: cannot read {gap.strip()!r}")
        pos = m.end()
        if m.group("other"):
            raise RecordError(f"{where}, move {number}: {m.group('other')!r} is not supported")
        if m.group("roll"):
            dice = (int(m.group("dice")[0]), int(m.group("dice")[1]))
            item = (ROLL_ACTION, dice, _read_moves(f"{where}, move {number}", m.group("moves")), 0)
        elif m.group("double"):
            item = (DOUBLE_ACTION, None, (), int(m.group("cube")))
        elif m.group("wins"):
            item = ("wins", None, (), int(m.group("points")))
        else:
            item = (TAKE_ACTION if m.group("take") else DROP_ACTION, None, (), 0)
        found.append((m.start(), item))
    if content[pos:].strip():
        raise RecordError(f"{where}, move {number}: cannot read {content[pos:].strip()!r}")
    if not found or len(found) > 2:
        raise RecordError(f"{where}, move {number}: expected one or two actions, "
                          f"found {len(found)} in {content.strip()!r}")
    return found


def _point(text: str) -> int:
    text = text.rstrip("*").lower()
    return 25 if text == "bar" else 0 if text == "off" else int(text)


def _read_moves(where: str, text: str) -> tuple[tuple[int, int, bool], ...]:
    """Checker moves ``(from, to, hit)`` of a play written ``24/18 13/10*`` (also paths
    ``24/18/13`` and repeats ``8/4(2)``)."""
    moves = []
    for token in text.split():
        repeat = 1
        m = re.match(r"^(.*)\((\d)\)$", token)
        if m:
            token, repeat = m.group(1), int(m.group(2))
        points = token.split("/")
        for _ in range(repeat):
            for a, b in zip(points, points[1:]):
                src, dst = _point(a), _point(b)
                if not (1 <= src <= 25 and 0 <= dst <= 24 and dst < src):
                    raise RecordError(f"{where}: {token!r} is not a move from 25..1 down to 24..0")
                moves.append((src, dst, b.endswith("*")))
    return tuple(moves)


def replay_game(record: GameRecord, rules: Rules | None = None, number: int = 1) -> Game:
    """Replay a finished game's record through the engine (see :func:`bg_env.replay.replay`;
    default rules: cube on, ``max_cube`` 4096) and return the finished :class:`Game`.

    Raises:
        RecordError: an illegal play or cube action, or a record that stops before the end
            of the game or goes on after it; the message names game ``number`` and the move.
    """
    return replay(record.actions, rules or Rules(max_cube=MAX_CUBE), number)
