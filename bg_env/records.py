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
Anything else raises :class:`RecordError`, naming the line of the text (counted from 1),
the game and the move number: ``line 14 (game 2, move 5, player 1): illegal play ...``.

This module writes; the reader is :mod:`bg_env.record_reader` and the data classes are in
:mod:`bg_env.record_model`. Import all of them from here.

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

from .files import write_atomically
from .record_model import MAX_CUBE, GameRecord, MatchRecord, check_rules
from .record_names import comment_name, mat_name, score_line_names
from .record_reader import parse_mat, read_mat, replay_game
from .replay import Action, RecordError

__all__ = [
    "Action", "GameRecord", "MAX_CUBE", "MatchRecord", "RecordError",
    "check_rules", "format_mat", "parse_mat", "read_mat", "write_mat", "replay_game", "mat_name",
]

_LEFT_WIDTH = 28
"""Width of the left column after ``NNN) `` (as GNU Backgammon writes it)."""


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
    """Write ``match`` to ``path`` as a ``.mat`` file, atomically
    (:func:`bg_env.files.write_atomically`: a kill mid-write leaves the old file whole)."""
    write_atomically(path, format_mat(match))

