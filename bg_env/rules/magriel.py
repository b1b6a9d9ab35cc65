"""Magriel notation for plays: writing (``13/7*/5``, ``bar/22``, ``6/off``, ``8/4(2)``) and
reading it back to one of a list of legal plays.

Notation source: ``docs/RULES.md`` §8. This module knows the text only: the move generator
(:mod:`bg_env.rules.moves`) writes its plays with :func:`format_play`, and whoever has the
legal plays (:meth:`Position.parse_play <bg_env.rules.position.Position.parse_play>`,
:func:`bg_env.rules.notation.parse_play` for the variants) reads text with
:func:`match_play`.

Writing follows GNU Backgammon's habits: a checker that moves on is written as one path
(``24/13``), its intermediate point shown only when it hits there (``13/7*/5``); identical
paths are grouped (``8/4(2)``); paths are listed from the highest starting point down; a
play with no move is ``Ø``.

Parsing is tolerant: ``Bar``/``bar``, ``Off``/``off``, a missing ``*``, repeats written
``(2)`` or spelled out, any order of the parts, commas, and ``Ø`` for a die that cannot
be played. The text is matched to the legal play that leaves the player's checkers
where the text puts them; when that leaves more than one (routes hitting on different
intermediate points), the one whose hits are exactly the written ``*`` wins.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Protocol, Sequence

from .board import BAR, OFF, Board

__all__ = ["format_play", "match_play", "roll_text", "InvalidNotationError", "IllegalMoveError",
           "EMPTY_PLAY", "split_record_line", "format_record_line", "dice_unplayed"]

EMPTY_PLAY = "Ø"


class _Move(Protocol):
    """What is read of a move (:class:`bg_env.rules.moves.Move`)."""

    source: int
    dest: int
    hit: bool


class _Play(Protocol):
    """What is read of a play (:class:`bg_env.rules.moves.Play`)."""

    moves: tuple
    result: Board
    notation: str


class InvalidNotationError(ValueError):
    """Text that is not Magriel notation for a play."""


class IllegalMoveError(ValueError):
    """A play or move that the rules do not allow here (or that is ambiguous)."""


def _name(point: int) -> str:
    return "bar" if point == BAR else "off" if point == OFF else str(point)


def _paths(moves: Sequence[_Move]) -> list[list[tuple[int, bool]]]:
    """Chain the moves into checker paths: ``[(point, hit_there), ...]`` each."""
    paths: list[list[tuple[int, bool]]] = []
    for m in moves:
        for path in paths:
            if path[-1][0] == m.source and m.source != OFF:
                path.append((m.dest, m.hit))
                break
        else:
            paths.append([(m.source, False), (m.dest, m.hit)])
    return paths


def format_play(moves: Sequence[_Move]) -> str:
    """Magriel notation of a sequence of moves (see the module docstring)."""
    if not moves:
        return EMPTY_PLAY
    texts = []
    for path in _paths(moves):
        parts = [_name(path[0][0])]
        for i, (point, hit) in enumerate(path[1:], start=1):
            last = i == len(path) - 1
            if hit or last:
                parts.append(_name(point) + ("*" if hit else ""))
        texts.append((path[0][0], path[-1][0], "/".join(parts)))
    counts = Counter(texts)
    ordered = sorted(counts, key=lambda t: (-t[0], -t[1], t[2]))
    return " ".join(t[2] + (f"({counts[t]})" if counts[t] > 1 else "") for t in ordered)


_TOKEN = re.compile(r"^(bar|\d{1,2})((?:/(?:\d{1,2}|off)\*?)+)(?:\((\d)\))?$", re.IGNORECASE)
_NOTHING = {"ø", "Ø", "-", "none", "nothing", "(no", "move)", "cannot", "move"}


def _parse_text(text: str) -> tuple[Counter, set[int], set[int]]:
    """Parse notation into net checker changes ``{point: +/-n}``, starred points and the
    intermediate points written on a route (``6`` in ``7/6/4``)."""
    change: Counter = Counter()
    stars: set[int] = set()
    via: set[int] = set()
    starts: set[int] = set()
    ends: set[int] = set()
    if not isinstance(text, str):
        raise InvalidNotationError(f"play {text!r}: expected a string such as '13/7*/5'")
    for raw in re.split(r"[\s,;]+", text.strip()):
        token = raw.strip()
        if not token or token.lower() in _NOTHING or token == EMPTY_PLAY:
            continue
        token = token.replace(" ", "")
        match = _TOKEN.match(token)
        if not match:
            raise InvalidNotationError(
                f"play {text!r}: cannot read {raw!r}; write paths like '13/7*/5', "
                "'bar/22', '6/off' or '8/4(2)'"
            )
        points = [match.group(1)] + match.group(2).split("/")[1:]
        path = []
        for p in points:
            starred = p.endswith("*")
            p = p.rstrip("*").lower()
            value = BAR if p == "bar" else OFF if p == "off" else int(p)
            if not (0 <= value <= 25):
                raise InvalidNotationError(f"play {text!r}: point {p} is not 1..24, bar or off")
            if starred:
                stars.add(value)
            path.append(value)
        if any(b >= a for a, b in zip(path, path[1:])):
            raise InvalidNotationError(
                f"play {text!r}: {raw!r} does not move towards the 1-point"
            )
        via.update(path[1:-1])
        starts.add(path[0])
        ends.add(path[-1])
        count = int(match.group(3) or 1)
        change[path[0]] -= count
        change[path[-1]] += count
    via |= starts & ends  # "7/6 6/4" touches down on 6 like "7/6/4"
    return change, stars, via


def match_play(pos: Board, text: str, dice: tuple[int, int], plays: Sequence[_Play]) -> _Play:
    """The play among ``plays`` (the legal plays of ``dice`` from ``pos``) that ``text``
    describes (see the module docstring; a ``*`` also marks a Plakoto pin).

    Raises:
        InvalidNotationError: ``text`` is not notation.
        IllegalMoveError: no legal play, or more than one, matches; the message lists the
            legal plays.
    """
    change, stars, via = _parse_text(text)
    target = list(pos.me)
    for point, delta in change.items():
        target[point] += delta
    if min(target) < 0:
        raise IllegalMoveError(
            f"play {text!r} with {roll_text(dice)} moves checkers the player does not have; "
            f"legal plays: {_listing(plays)}"
        )
    matches = [p for p in plays if list(p.result.me) == target]
    if len(matches) > 1 and via:  # a route written out: it must touch down there
        routed = [p for p in matches if via <= {m.dest for m in p.moves}]
        matches = routed or matches
    if len(matches) > 1:
        exact = [p for p in matches if {m.dest for m in p.moves if m.hit} == stars]
        matches = exact or matches
    if len(matches) == 1:
        return matches[0]
    reason = "is ambiguous" if matches else "is not legal"
    raise IllegalMoveError(
        f"play {text!r} with {roll_text(dice)} {reason}; legal plays: {_listing(plays)}"
    )


_RECORD_LINE = re.compile(r"^\s*([1-6])-?([1-6])\s*:\s*(.*)$", re.S)


def split_record_line(text: str, dice=None) -> tuple[tuple[int, int], str]:
    """A record line's roll and play: ``"4-2: 8/4 6/4"`` (or ``"42: 8/4 6/4"``) gives
    ``((4, 2), "8/4 6/4")``; a play without a roll gives ``(dice, text)``.

    Raises:
        InvalidNotationError: a line whose roll is not ``dice`` (when both are given), or
            no roll at all and no ``dice``.

    >>> split_record_line("6-5: 6/1, Ø")
    ((6, 5), '6/1, Ø')
    """
    found = _RECORD_LINE.match(text) if isinstance(text, str) else None
    if found is None:
        if dice is None:
            raise InvalidNotationError(f"play {text!r}: no roll given; write it as a record "
                                       "line such as '4-2: 8/4 6/4', or give the dice")
        return dice, text
    rolled = (int(found.group(1)), int(found.group(2)))
    if dice is not None and sorted(rolled) != sorted(tuple(dice)):
        raise InvalidNotationError(f"play {text!r}: the line's roll {roll_text(rolled)} is not "
                                   f"the dice {roll_text(dice)}")
    return rolled, found.group(3)


def dice_unplayed(moves: Sequence[_Move], dice) -> int:
    """How many dice of the roll ``dice`` a play of ``moves`` leaves unplayed (four dice
    for a double)."""
    return (4 if dice[0] == dice[1] else 2) - len(moves)


def format_record_line(moves: Sequence[_Move], dice, lost: bool = True) -> str:
    """A record line: the roll, higher die first, and the play, with ``, Ø`` after a play
    that leaves a die unplayed as the sources write it (``lost=False``: without it).
    :func:`split_record_line` and the readers read it back.

    >>> from bg_env.rules.moves import Move
    >>> format_record_line([Move(6, 5)], (6, 5))
    '6-5: 6/1, Ø'
    """
    text = format_play(moves)
    if lost and moves and dice_unplayed(moves, dice) > 0:
        text += f", {EMPTY_PLAY}"
    return f"{roll_text(dice)}: {text}"


def roll_text(dice) -> str:
    """A roll as GNU Backgammon writes it, the higher die first: ``6-2``."""
    return f"{max(dice)}-{min(dice)}"


def _listing(plays: Sequence[_Play], limit: int = 40) -> str:
    names = sorted(p.notation for p in plays)
    more = f" ... ({len(names) - limit} more)" if len(names) > limit else ""
    return ", ".join(names[:limit]) + more
