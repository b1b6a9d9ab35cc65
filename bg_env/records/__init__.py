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

* ``N point match``: the match length; ``0 point match`` is money play.
* Each game: ``Game k``, the score line (each player's name and points before the game),
  then numbered lines, each with an action of the first player (left column) and of the
  second (right column). Actions alternate between the players -- a roll answers a roll
  or a take, a take or a drop answers a double -- so the left column of the first line
  is empty when the second player wins the opening roll.
* A roll: the two dice, a colon, and the play as checker moves ``from/to`` in the
  mover's own numbering (as :class:`~bg_env.rules.position.Position` counts), one move per
  die in playable order, ``*`` after a hit; the bar is ``25`` and off is ``0``. A roll
  with no legal move is the dice and the colon alone. (Reading also accepts ``bar``,
  ``off``, paths such as ``24/18/13`` and repeats such as ``8/4(2)``.)
* Cube actions: ``Doubles => 2`` (the cube value offered), ``Takes``, ``Drops``.
* ``Wins N point(s)`` in the winner's column ends the game.

GNU Backgammon reads a player's name from the score line up to the colon, at most 31
bytes. Names written there are therefore cut to 31 UTF-8 bytes, with ``:``, ``,``, white
space and control characters replaced by ``_``, the second made distinct (``_2``) from an
equal first (:mod:`bg_env.records.names`); the full names go into ``; [Player 1 "..."]``
comments, which :func:`parse_mat` prefers.

GNU Backgammon scores imported money games under its own ``jacoby`` setting (on by
default; the ``; [Jacoby "Off"]`` comment written here is ignored by version 1.07): type
``set jacoby off`` before ``import mat FILE`` to score gammons as they were played here.

Reading (:func:`read_mat`, :func:`parse_mat`) replays every game through
:class:`~bg_env.game.game.Game` (:mod:`bg_env.records.replay`) under the given rules (match games
under the match's Crawford rule): every play must be one of the legal plays of its roll,
every cube action must be allowed, the game must end where the record ends and with the
points the ``Wins`` line gives, and each score line must be the sum of the games before it.
Anything else raises :class:`RecordError`, naming the line of the text (counted from 1),
the game and the move number: ``line 14 (game 2, move 5, player 1): illegal play ...``.

This package's modules: :mod:`~bg_env.records.writer` writes, :mod:`~bg_env.records.reader`
reads, :mod:`~bg_env.records.model` holds the data classes, :mod:`~bg_env.records.replay`
replays a game's actions through the engine and :mod:`~bg_env.records.names` makes the
players' names fit. Import all of them from :mod:`bg_env.records`.

Recording: set ``game.events = []`` on a :class:`~bg_env.game.game.Game` before its first
play ends, play it, then :meth:`MatchRecord.add_game` (or :meth:`GameRecord.from_game`).

Not supported (the format or GNU Backgammon's import has no place for them): rule
variants, beavers, the Jacoby rule, automatic doubles, other gammon rules or cube
progressions, a cube without limit or above 4096 (GNU Backgammon's ``MAX_CUBE``),
unfinished games. A game read that stops before its end with ``Wins N points`` is a
resignation (outcome ``"resign"``), as GNU Backgammon reads it; a last roll there with no
play where plays exist (``62:``) is the dice of a player who resigned after rolling.
"""

from .model import MAX_CUBE, GameRecord, MatchRecord, check_rules
from .names import mat_name
from .reader import parse_mat, read_mat, replay_game
from .replay import Action, RecordError
from .writer import format_mat, write_mat

__all__ = [
    "Action", "GameRecord", "MAX_CUBE", "MatchRecord", "RecordError",
    "check_rules", "format_mat", "parse_mat", "read_mat", "write_mat", "replay_game", "mat_name",
]
