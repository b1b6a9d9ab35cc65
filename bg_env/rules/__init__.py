"""The rules of backgammon: positions, legal plays, notation, IDs and scoring (numpy-free)."""

from .moves import (
    Move,
    Play,
    apply_move,
    dice_to_play,
    legal_next_moves,
    legal_plays,
    legal_plays_reference,
    max_dice_usable,
    single_moves,
)
from .match_id import InvalidMatchIdError, InvalidXgidError, MatchState, from_xgid, to_xgid
from .notation import IllegalMoveError, InvalidNotationError, format_play, parse_play
from .outcome import GAMMON_RULES, Outcome, is_game_over, outcome, score_points
from .position import BAR, OFF, STANDARD_START, InvalidPositionError, Position
from .variants import VARIANTS, PinnedPosition, Variant, get_variant, legal_plays_variant

__all__ = [
    "BAR",
    "OFF",
    "STANDARD_START",
    "GAMMON_RULES",
    "IllegalMoveError",
    "InvalidMatchIdError",
    "InvalidXgidError",
    "MatchState",
    "PinnedPosition",
    "VARIANTS",
    "Variant",
    "get_variant",
    "legal_plays_variant",
    "from_xgid",
    "to_xgid",
    "InvalidNotationError",
    "InvalidPositionError",
    "Move",
    "Outcome",
    "Play",
    "Position",
    "apply_move",
    "dice_to_play",
    "format_play",
    "is_game_over",
    "legal_next_moves",
    "legal_plays",
    "legal_plays_reference",
    "legal_results",
    "max_dice_usable",
    "outcome",
    "parse_play",
    "score_points",
    "single_moves",
]


def legal_results(position_id: str, dice: tuple[int, int]) -> set[str]:
    """The Position IDs of every legal play's result (not swapped).

    >>> "4HPwATCwZ/ABMA" in legal_results("4HPwATDgc/ABMA", (3, 1))  # 8/5 6/5
    True
    """
    pos = Position.from_position_id(position_id)
    return {play.result.position_id() for play in legal_plays(pos, dice)}
