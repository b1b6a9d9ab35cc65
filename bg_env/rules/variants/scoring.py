"""How a variant's game ends and what the board says it is worth (``docs/RULES.md`` §5, §7).

Besides bearing off: in sudden death a checker on the bar means its side was hit (kind
``"hit"``, a single game); in Plakoto a pinned mother (kind ``"mother"``, a double game that
the scoring options treat as a gammon). A variant may cap the kind of win (``max_kind``):
Plakoto and Long Nardy know no backgammons, sudden death no gammons. Long Nardy's triple,
"house mars" (``house_mars``, §10), is its kind ``"backgammon"``.
"""

from __future__ import annotations

from ..board import BAR, OFF
from ..outcome import Outcome, loss_kind
from ..position import Position
from .pinned import pins_of

__all__ = ["outcome_of", "outcome_after_play"]

_KINDS = ("single", "gammon", "backgammon")
_MOTHER = 24
"""A side's starting point in Plakoto, where its "mother" checker stands."""


def _loss_kind(variant, loser: tuple[int, ...]) -> str:
    """What the loser's checkers say (single, gammon, backgammon), capped at the
    variant's ``max_kind``. Only the backgammon family has the backgammon: a checker on
    the bar or in the winner's home board."""
    kind = loss_kind(loser, variant.geometry == "opposite")
    if kind == "gammon" and _house_mars(variant, loser):
        kind = "backgammon"
    return _KINDS[min(_KINDS.index(kind), _KINDS.index(variant.max_kind))]


def _house_mars(variant, loser: tuple[int, ...]) -> bool:
    """Long Nardy with ``house_mars``: the loser, none of whose checkers is off, has every
    one in his home board (points 1..6): a triple game."""
    return variant.house_mars and not any(loser[7:26])


def _hit_ends(variant, pos: Position) -> Outcome | None:
    """Sudden death: the side with a checker on the bar was hit and lost."""
    if not variant.first_hit_wins:
        return None
    if pos.opp[BAR]:
        return Outcome(0, "hit")
    if pos.me[BAR]:
        return Outcome(1, "hit")
    return None


def _mother_ends(variant, pos: Position) -> Outcome | None:
    """Plakoto: the side whose mother (last checker on its 24-point) is pinned lost."""
    if not variant.mother:
        return None
    pinned = pins_of(pos)
    if pinned[1] >> _MOTHER & 1:
        return Outcome(0, "mother")
    if pinned[0] >> _MOTHER & 1:
        return Outcome(1, "mother")
    return None


def _bear_off_ends(variant, pos: Position) -> Outcome | None:
    """The side that has borne off every checker won."""
    if not any(pos.me[1:26]):
        return Outcome(0, _loss_kind(variant, pos.opp))
    if not any(pos.opp[1:26]):
        return Outcome(1, _loss_kind(variant, pos.me))
    return None


def outcome_of(variant, pos: Position) -> Outcome | None:
    """How the game stands in ``pos`` under ``variant`` (a
    :class:`~bg_env.rules.variants.Variant`): an :class:`Outcome` (``winner`` 0 for the
    player on roll's side, ``me``) or ``None`` while it goes on."""
    return _hit_ends(variant, pos) or _mother_ends(variant, pos) or _bear_off_ends(variant, pos)


def outcome_after_play(variant, pos: Position, mover_started: bool) -> Outcome | None:
    """How the game stands after a play of ``me`` (``pos`` still seen from the mover;
    ``mover_started``: the mover had the game's first turn): as :func:`outcome_of`, but in
    Long Nardy with ``last_roll_draw`` the starter who is off leaves the other side a last
    roll (``None``: the game goes on), and that side off too after it is a draw
    (``Outcome(None, "draw")``)."""
    if variant.last_roll_draw and not any(pos.me[1:26]):
        if not any(pos.opp[1:26]):
            return Outcome(None, "draw")
        if mover_started:
            return None
    return outcome_of(variant, pos)
