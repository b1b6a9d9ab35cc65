"""Writing ``.mat`` records: :func:`format_mat` (the text) and :func:`write_mat` (a file,
written atomically). The format is described in :mod:`bg_env.records`."""

from __future__ import annotations

from ..files import write_atomically
from .model import GameRecord, MatchRecord
from .names import comment_name, score_line_names
from .replay import RecordError

__all__ = ["format_mat", "write_mat"]

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

