"""Magriel notation for every variant: :func:`parse_play` reads a play under the rules of a
``variant``; writing and the text itself are :mod:`bg_env.rules.magriel`'s (re-exported here).

Notation source: ``docs/RULES.md`` §8.
"""

from __future__ import annotations

from .magriel import (EMPTY_PLAY, IllegalMoveError, InvalidNotationError, format_play,
                      format_record_line, match_play, roll_text, split_record_line)
from .moves import Play, check_dice, legal_plays
from .position import Position
from .variants import get_variant, legal_plays_variant

__all__ = ["format_play", "parse_play", "roll_text", "InvalidNotationError", "IllegalMoveError",
           "EMPTY_PLAY", "format_record_line", "split_record_line"]


def parse_play(pos: Position, text: str, dice: tuple[int, int] | None = None,
               variant: str = "standard") -> Play:
    """The legal play that ``text`` describes under the rule ``variant`` (a ``*`` also
    marks a Plakoto pin). ``text`` may be a whole record line with its roll
    (``"4-2: 8/4 6/4"``, :func:`split_record_line`): ``dice`` may then be left out.

    Raises:
        InvalidNotationError: ``text`` is not notation, or its roll is not ``dice``.
        IllegalMoveError: no legal play, or more than one, matches; the message lists the
            legal plays.

    >>> parse_play(Position.start(), "4-2: 8/4 6/4").result.position_id()
    '4HPwATCYZ/ABMA'
    """
    dice, text = split_record_line(text, dice)
    dice = check_dice(dice)
    rules = get_variant(variant)
    if rules.standard_moves:
        plays = legal_plays(pos, dice)
    else:
        plays = legal_plays_variant(rules, pos, dice)
    return match_play(pos, text, dice, plays)
