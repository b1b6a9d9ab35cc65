"""Magriel notation for every variant: :func:`parse_play` reads a play under the rules of a
``variant``; writing and the text itself are :mod:`bg_env.rules.magriel`'s (re-exported here).

Notation source: ``docs/RULES.md`` §8.
"""

from __future__ import annotations

from .magriel import (EMPTY_PLAY, IllegalMoveError, InvalidNotationError, format_play,
                      match_play, roll_text)
from .moves import Play, legal_plays
from .position import Position
from .variants import get_variant, legal_plays_variant

__all__ = ["format_play", "parse_play", "roll_text", "InvalidNotationError", "IllegalMoveError",
           "EMPTY_PLAY"]


def parse_play(pos: Position, text: str, dice: tuple[int, int], variant: str = "standard") -> Play:
    """The legal play that ``text`` describes under the rule ``variant`` (a ``*`` also
    marks a Plakoto pin).

    Raises:
        InvalidNotationError: ``text`` is not notation.
        IllegalMoveError: no legal play, or more than one, matches; the message lists the
            legal plays.
    """
    rules = get_variant(variant)
    if rules.standard_moves:
        plays = legal_plays(pos, dice)
    else:
        plays = legal_plays_variant(rules, pos, dice)
    return match_play(pos, text, dice, plays)
