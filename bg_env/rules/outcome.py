"""End of game and points: single game, gammon, backgammon.

Rules source: ``docs/RULES.md`` §5. The first side to bear off all its checkers wins.
The win is a *gammon* (2x) when the loser has borne off none, a *backgammon* (3x) when,
besides, the loser still has a checker on the bar or in the winner's home board. The
points are the cube value times that multiplier, subject to the options:

* ``jacoby``: gammons and backgammons count as single games while the cube has not been
  turned (money play);
* ``gammons``: ``"all"`` (default), ``"no_backgammons"`` (backgammons count as gammons),
  or ``"none"`` (every win is single).
"""

from __future__ import annotations

from dataclasses import dataclass

from .board import OFF, Board

__all__ = ["Outcome", "outcome", "loss_kind", "is_game_over", "score_points", "GAMMON_RULES"]

GAMMON_RULES = ("all", "no_backgammons", "none")
_MULTIPLIER = {"single": 1, "gammon": 2, "backgammon": 3, "hit": 1, "mother": 2}
"""``hit`` (a sudden-death win) is a single game; ``mother`` (a pinned Plakoto mother) is a
double game that the options treat as a gammon: single under the Jacoby rule while the
cube has not been turned, and with ``gammons="none"`` (RULES.md §7)."""


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended, relative to the position it was read from.

    Attributes:
        winner: 0 when the player on roll in that position (``me``) won, 1 for ``opp``,
            ``None`` for a draw (kind ``"draw"``: Long Nardy's ``last_roll_draw``).
        kind: ``"single"``, ``"gammon"`` or ``"backgammon"`` as the board shows it,
            before any scoring option.
    """

    winner: int | None
    kind: str
    """Also ``"hit"``, ``"mother"`` or ``"draw"`` in the variants that end a game that way."""

    @property
    def multiplier(self) -> int:
        """1, 2 or 3 for single, gammon, backgammon."""
        return _MULTIPLIER[self.kind]


def loss_kind(loser: tuple[int, ...], backgammon_possible: bool = True) -> str:
    """What the loser's checkers say: none off is a gammon; none off and one on the bar
    or in the winner's home board (the loser's points 19..24) is a backgammon, where
    ``backgammon_possible`` (the variants without the backgammon pass ``False``).

    The rule's one Python copy; its kernel twin is
    :func:`bg_env.kernels.moves.loss_kind_kernel` (``tests/core/test_move_kernels.py``)."""
    if loser[OFF]:
        return "single"
    if backgammon_possible and any(loser[19:26]):
        return "backgammon"
    return "gammon"


def outcome(pos: Board) -> Outcome | None:
    """The outcome if one side has borne off all its checkers, else ``None``."""
    if not any(pos.me[1:26]):
        return Outcome(0, loss_kind(pos.opp))
    if not any(pos.opp[1:26]):
        return Outcome(1, loss_kind(pos.me))
    return None


def is_game_over(pos: Board) -> bool:
    """Whether either side has borne off all its checkers."""
    return outcome(pos) is not None


def score_points(
    result: Outcome, cube_value: int = 1, *, jacoby: bool = False, cube_turned: bool = False,
    gammons: str = "all",
) -> int:
    """Points the winner scores: cube value x multiplier under the options above.

    >>> score_points(Outcome(0, "backgammon"), 2, gammons="no_backgammons")
    4
    """
    if gammons not in GAMMON_RULES:
        raise ValueError(f"gammons={gammons!r}: expected one of {GAMMON_RULES}")
    multiplier = result.multiplier
    if gammons == "none" or (jacoby and not cube_turned):
        multiplier = 1
    elif gammons == "no_backgammons":
        multiplier = min(multiplier, 2)
    return cube_value * multiplier
