"""Reading ``.mat`` records (the format is described in :mod:`bg_env.records`, which
re-exports these functions): the text parsed into :class:`~bg_env.records.model.MatchRecord`
and every game replayed through :class:`~bg_env.game.game.Game` (:mod:`bg_env.records.replay`).

Every play must be one of the legal plays of its roll, every cube action must be allowed,
the game must end where the record ends and with the points the ``Wins`` line gives, and
each score line must be the sum of the games before it. Anything else raises
:class:`~bg_env.records.replay.RecordError`, naming the line of the text (counted from 1, as editors
count), the game and the move number: ``line 14 (game 2, move 5, player 1): illegal play
...`` (:func:`~bg_env.records.replay.place`).
"""

from __future__ import annotations

import re

from ..game.game import Game, GameResult, Rules
from ..game.match import Match
from .model import MAX_CUBE, GameRecord, MatchRecord, check_rules
from .replay import (
    DOUBLE_ACTION, DROP_ACTION, ROLL_ACTION, TAKE_ACTION, Action, RecordError, place, replay,
)

__all__ = ["parse_mat", "read_mat", "replay_game"]

_RIGHT_COLUMN = 20
"""A lone action starting at or after this column of its line is the second player's."""
_Line = tuple[int, str]
"""A line of the text and its number, counted from 1 (as errors name it)."""

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
        rules: the rules of money games (default: cube on, no Jacoby, ``max_cube``
            4096 as GNU Backgammon); match games are played under the match's rules
            (Crawford rule included).

    Returns:
        the :class:`MatchRecord`, each game's winner, points and outcome from the replay.

    Raises:
        RecordError: malformed text, an illegal play or cube action, a result or score
            that the replay contradicts; the message names the line of the text (from 1),
            the game and the move number.
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
    for number, game_line, block in blocks:
        record.games.append(_read_game(number, game_line, block, record, match, rules))
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


def _game_blocks(lines: list[str], start: int) -> list[tuple[int, int, list[_Line]]]:
    """``(game number, the line number of 'Game k', its lines after it)`` for every game,
    ``lines[start:]`` being the text after the header (line numbers counted from 1)."""
    blocks: list[tuple[int, int, list[_Line]]] = []
    for i, line in enumerate(lines[start:], start=start + 1):
        m = _GAME.match(line)
        if m:
            blocks.append((int(m.group(1)), i, []))
            if int(m.group(1)) != len(blocks):
                raise RecordError(f"line {i}: 'Game {m.group(1)}' where game {len(blocks)} "
                                  "was expected")
        elif blocks:
            blocks[-1][2].append((i, line))
        elif line.strip() and not line.lstrip().startswith(";"):
            raise RecordError(f"line {i}: {line.strip()!r} before 'Game 1'")
    return blocks


def _read_game(number: int, game_line: int, block: list[_Line], record: MatchRecord,
               match: Match | None, rules: Rules) -> GameRecord:
    """Parse one game's lines (after ``Game k`` on line ``game_line``), replay them and check
    its score line and result."""
    body = [(i, line) for i, line in block if line.strip()]
    if not body:
        raise RecordError(f"{place(number, line=game_line)}: no score line")
    score = _read_score(number, body[0], record)
    score_at = place(number, line=body[0][0])
    actions, wins = _read_actions(number, body[1:])
    if match is not None:
        if match.is_over:
            raise RecordError(f"{score_at}: the match was already over at {score[0]}-{score[1]}")
        game_rules = match.game_rules()
    else:
        game_rules = rules
    if not actions:
        raise RecordError(f"{score_at}: no moves after the score line (a game starts with the "
                          "opening roll)")
    game = replay(actions, game_rules, number, finished=wins is None)
    wins_at = place(number, line=wins[2]) if wins is not None else ""
    r = game.result or _resignation(wins_at, game, wins)
    if wins is not None and wins[:2] != (r.winner, r.points):
        who = "first" if wins[0] == 0 else "second"
        raise RecordError(f"{wins_at}: the record says the {who} player wins {wins[1]} "
                          f"point(s) but the replay ends with {record.players[r.winner]} "
                          f"winning {r.points} ({r.outcome})")
    if match is not None:
        match.record(r)
    return GameRecord(actions, r.winner, int(r.points), r.outcome, score)


def _read_score(number: int, line: _Line, record: MatchRecord) -> tuple[int, int]:
    """The points of game ``number``'s score line, which must be the sum of the games before
    it in ``record``; the names there fill the players' names the comments did not give."""
    score_line = _SCORE.match(line[1])
    if not score_line:
        raise RecordError(f"{place(number, line=line[0])}: expected the score line "
                          f"'name : points  name : points', got {line[1].strip()!r}")
    names = (score_line.group(1), score_line.group(3))
    record.players = tuple(c or n for c, n in zip(record.players, names))
    score = (int(score_line.group(2)), int(score_line.group(4)))
    if score != record.points():
        raise RecordError(f"{place(number, line=line[0])}: the score line says "
                          f"{score[0]}-{score[1]} but the games before it make "
                          f"{record.points()[0]}-{record.points()[1]}")
    return score


def _resignation(where: str, game: Game, wins: tuple[int, int, int]) -> GameResult:
    """The result of a game that stops before its end with ``Wins N points`` (``wins``:
    the winner, the points, the line): the loser resigned a single game, a gammon or a
    backgammon (``N`` = 1, 2 or 3 times the cube)."""
    winner, points, _ = wins
    if points not in (game.cube_value, 2 * game.cube_value, 3 * game.cube_value):
        raise RecordError(f"{where}: the game stops before its end with 'Wins {points}' at "
                          f"cube {game.cube_value}: a resignation scores 1, 2 or 3 times the cube")
    return GameResult(winner, "resign", game.cube_value, points)


def _read_actions(number: int, lines: list[_Line]
                  ) -> tuple[list[Action], tuple[int, int, int] | None]:
    """The actions of game ``number``'s numbered lines, each knowing its line of the text,
    and its ``Wins`` line as ``(player, points, line)``."""
    actions: list[Action] = []
    wins = None
    for i, line in lines:
        m = _WINS.match(line)
        if m:
            wins = (0 if len(m.group(1)) < _RIGHT_COLUMN else 1, int(m.group(2)), i)
            continue
        m = _NUMBERED.match(line)
        if not m:
            raise RecordError(f"{place(number, line=i)}: cannot read line {line.strip()!r} "
                              "(expected 'N) ...' or 'Wins N points')")
        if wins is not None:
            raise RecordError(f"{place(number, line=i)}: move {m.group(1)} after the 'Wins' "
                              "line")
        move, content = int(m.group(1)), m.group(2)
        here = place(number, move, line=i)
        for column, (kind, dice, moves, cube) in _columns(here, len(line) - len(content),
                                                          content):
            if kind == "wins":
                wins = (column, cube, i)
                continue
            if wins is not None:
                raise RecordError(f"{here}: {kind} after the 'Wins' entry")
            if actions and actions[-1].player == column:
                raise RecordError(f"{here}: the same player acts twice in a row")
            actions.append(Action(column, kind, dice, moves, cube, line=move, file_line=i))
    return actions, wins


def _columns(here: str, offset: int, content: str) -> list:
    """``(column, (kind, dice, moves, cube))`` for the actions of a numbered line whose
    ``content`` starts at ``offset``: of two, the first is the first player's; a lone one
    is the second player's when it starts at or after :data:`_RIGHT_COLUMN`."""
    found = _line_actions(here, content)
    if len(found) == 1:
        return [(1 if offset + found[0][0] >= _RIGHT_COLUMN else 0, found[0][1])]
    return [(column, item[1]) for column, item in enumerate(found)]


def _line_actions(here: str, content: str) -> list:
    """``(start, (kind, dice, moves, cube))`` for the one or two actions of a line (``here``:
    where the line is, for errors)."""
    found = []
    pos = 0
    for m in _ACTION.finditer(content):
        gap = content[pos:m.start()]
        if gap.strip():
            raise RecordError(f"{here}: cannot read {gap.strip()!r}")
        pos = m.end()
        if m.group("other"):
            raise RecordError(f"{here}: {m.group('other')!r} is not supported")
        if m.group("roll"):
            dice = (int(m.group("dice")[0]), int(m.group("dice")[1]))
            item = (ROLL_ACTION, dice, _read_moves(here, m.group("moves")), 0)
        elif m.group("double"):
            item = (DOUBLE_ACTION, None, (), int(m.group("cube")))
        elif m.group("wins"):
            item = ("wins", None, (), int(m.group("points")))
        else:
            item = (TAKE_ACTION if m.group("take") else DROP_ACTION, None, (), 0)
        found.append((m.start(), item))
    if content[pos:].strip():
        raise RecordError(f"{here}: cannot read {content[pos:].strip()!r}")
    if not found or len(found) > 2:
        raise RecordError(f"{here}: expected one or two actions, "
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
    """Replay a finished game's record through the engine (see :func:`bg_env.records.replay.replay`;
    default rules: cube on, ``max_cube`` 4096) and return the finished :class:`Game`.

    Raises:
        RecordError: an illegal play or cube action, or a record that stops before the end
            of the game or goes on after it; the message names game ``number`` and the move.
    """
    return replay(record.actions, rules or Rules(max_cube=MAX_CUBE), number)
