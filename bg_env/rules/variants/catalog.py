"""Every variant by name (``docs/RULES.md`` §7), and the outcome of a board under a variant
given by name."""

from __future__ import annotations

from ..outcome import Outcome
from ..position import Position
from .scoring import outcome_of
from .spec import Variant

__all__ = ["VARIANTS", "get_variant", "variant_outcome"]

_HYPER = {1: {24: 1}, 2: {24: 1, 23: 1}, 3: {24: 1, 23: 1, 22: 1}}

VARIANTS: dict[str, Variant] = {
    v.name: v
    for v in (
        Variant("standard", description="standard backgammon"),
        Variant("nackgammon", {24: 2, 23: 2, 13: 4, 8: 3, 6: 4},
                description="Nick Ballard's variant: two more back checkers"),
        *(
            Variant(f"hypergammon{n}", _HYPER[n], checkers=n,
                    description=f"hypergammon with {n} checker{'s' * (n > 1)} each")
            for n in (1, 2, 3)
        ),
        Variant("longgammon", {24: 15}, description="all 15 checkers start on the 24-point"),
        Variant("sudden_death", first_hit_wins=True, max_kind="single",
                description="the first hit wins the game"),
        Variant("nuclear", bomb=True, description="one bomb that sends every blot to the bar"),
        Variant("plakoto", {24: 15}, landing="pin", mother=True, max_kind="gammon",
                description="Greek tavli: pinning instead of hitting, the mother checker"),
        Variant("caucasian", no_hit_and_hide=True,
                description="no hit and hide in the home board"),
        Variant("long_nardy", {24: 15}, geometry="same_way", landing="blocked", nardy_rules=True,
                max_kind="gammon", fresh_first_roll=True,
                description="no hitting, both sides move the same way round"),
    )
}
VARIANTS["hypergammon"] = VARIANTS["hypergammon3"]


def get_variant(name: "str | Variant") -> Variant:
    """The :class:`Variant` called ``name``.

    Raises:
        ValueError: an unknown name (the message lists the known ones).
    """
    if isinstance(name, Variant):
        return name
    try:
        return VARIANTS[name]
    except (KeyError, TypeError):
        raise ValueError(f"variant={name!r}: expected one of {sorted(VARIANTS)}") from None


def variant_outcome(variant: "Variant | str", pos: Position) -> Outcome | None:
    """How the game stands in ``pos`` under ``variant``: an :class:`Outcome` (``winner`` 0
    for the player on roll's side, ``me``) or ``None`` while it goes on (see
    :mod:`bg_env.rules.variants.scoring`)."""
    return outcome_of(get_variant(variant), pos)

