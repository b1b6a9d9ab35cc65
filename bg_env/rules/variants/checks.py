"""What makes a board possible in a variant (``docs/RULES.md`` §1 and §7), one check per
rule; each raises :class:`~bg_env.rules.board.InvalidPositionError` naming the problem.

The checks read the board's ``me`` and ``opp`` and, on a Plakoto board, its ``pinned``
masks; they take the variant's numbers as arguments, so the Plakoto board itself
(:class:`~bg_env.rules.variants.pinned.PinnedPosition`) can use them.
"""

from __future__ import annotations

from typing import Callable

from ..board import BAR, Board, InvalidPositionError

__all__ = ["check_checker_count", "check_bar", "check_shared_points", "check_pinned_points"]


def _sides(pos: Board):
    return (("player", pos.me), ("opponent", pos.opp))


def check_checker_count(pos: Board, name: str, checkers: int) -> None:
    """Each side has the variant's number of checkers, borne off included."""
    for who, side in _sides(pos):
        if sum(side) != checkers:
            raise InvalidPositionError(
                f"{name}: the {who} has {sum(side)} checkers, expected {checkers}"
            )


def check_bar(pos: Board, name: str, has_bar: bool) -> None:
    """No checker on the bar in a variant without one (Plakoto, Long Nardy)."""
    if has_bar:
        return
    for who, side in _sides(pos):
        if side[BAR]:
            raise InvalidPositionError(f"{name} has no bar, but the {who} has checkers on it")


def _pinned_pair(pinned: tuple[int, int], p: int, q: int, mine: int, theirs: int) -> bool:
    """Plakoto: the point holds one side's lone pinned checker under the other's."""
    me_pinned, opp_pinned = pinned[0] >> p & 1, pinned[1] >> q & 1
    mine_held = me_pinned and mine == 1 and not opp_pinned
    theirs_held = opp_pinned and theirs == 1 and not me_pinned
    return bool(mine_held or theirs_held)


def check_shared_points(pos: Board, name: str, to_opp: Callable[[int], int], pins: bool) -> None:
    """No point holds checkers of both sides, except (``pins``) a pinned checker under its
    pinner. ``to_opp`` maps the player's point to the opponent's numbering."""
    pinned = getattr(pos, "pinned", (0, 0))
    for p in range(1, 25):
        q = to_opp(p)
        mine, theirs = pos.me[p], pos.opp[q]
        if not (mine and theirs) or (pins and _pinned_pair(pinned, p, q, mine, theirs)):
            continue
        raise InvalidPositionError(
            f"{name}: point {p} holds {mine} of the player's and {theirs} of the "
            "opponent's checkers"
        )


def check_pinned_points(pos: Board, name: str) -> None:
    """Plakoto: a point marked pinned holds exactly one checker of its side."""
    pinned = getattr(pos, "pinned", (0, 0))
    for side, mask in ((pos.me, pinned[0]), (pos.opp, pinned[1])):
        for p in range(1, 25):
            if mask >> p & 1 and side[p] != 1:
                raise InvalidPositionError(f"{name}: a pinned point {p} must hold one checker")
