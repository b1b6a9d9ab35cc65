"""The rule options of the sources (``docs/RULES.md`` §10): rules a variant leaves off by
default that a player of it may want on. Each is a :class:`~bg_env.rules.cube.Rules`
field; :func:`with_options` turns a variant and its options into the :class:`Variant` the
game plays (the kernels read it like any other), :func:`check_options` refuses an option
the variant cannot have, naming it.

* ``no_hit_and_hide`` (seed 003, short backgammon): a checker that hits may not move on,
  in the same turn, to a point that holds the player's own checkers. For the variants whose
  checkers hit; not ``caucasian`` (its own home-board rule) or ``sudden_death`` (the first
  hit ends the game).
* ``six_block`` (seed 003, Long Nardy): when six consecutive points may be held:
  ``"passed"`` (the main rule: an opposing checker is already past them) or ``"entered"``
  (the alternative: once an opposing checker has entered its home board).
* ``house_mars`` (seed 003, Long Nardy): a loser with every checker in his home board and
  none borne off loses three times the stake (a mars without it is two).
* ``last_roll_draw`` (seed 003 §4.3, Long Nardy): when the side that started bears off
  his last checker, the other has a last roll; if he bears off his last checkers with it,
  the game is a draw (no points).
* ``next_starter`` (seed 003, Long Nardy): who starts a match's next game: ``"roll"`` (the
  opening roll, as every game), ``"black"`` (the side that moved second in the game before)
  or ``"winner"`` (the winner of the game before). A match rule: the board's rules, and so
  the :class:`Variant`, stay the same.
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache

from .catalog import get_variant
from .spec import Variant

__all__ = ["OPTION_DEFAULTS", "SIX_BLOCK_RULES", "NEXT_STARTERS", "check_options", "with_options"]

SIX_BLOCK_RULES = ("passed", "entered")
"""The values of ``six_block``: the main rule first."""
NEXT_STARTERS = ("roll", "black", "winner")
"""The values of ``next_starter``: the default first."""
OPTION_DEFAULTS = {"no_hit_and_hide": False, "six_block": "passed", "house_mars": False,
                   "last_roll_draw": False, "next_starter": "roll"}
"""Every rule option and its default (the variant's own rules)."""


def _check_values(options: dict) -> None:
    for name in ("no_hit_and_hide", "house_mars", "last_roll_draw"):
        if not isinstance(options[name], bool):
            raise ValueError(f"{name}={options[name]!r}: expected True or False")
    for name, values in (("six_block", SIX_BLOCK_RULES), ("next_starter", NEXT_STARTERS)):
        if options[name] not in values:
            raise ValueError(f"{name}={options[name]!r}: expected one of {list(values)}")


def _why_not_no_hit_and_hide(variant: Variant) -> str:
    if variant.no_hit_and_hide:
        return "it has its own no-hit-and-hide rule (in the home board)"
    if variant.first_hit_wins:
        return "its first hit ends the game"
    if variant.landing != "hit":
        return f"its checkers do not hit (landing={variant.landing!r})"
    return ""


def _why_not_long_nardy(variant: Variant) -> str:
    return "" if variant.nardy_rules else "a Long Nardy rule (variant='long_nardy')"


_WHY_NOT = {"no_hit_and_hide": _why_not_no_hit_and_hide, "six_block": _why_not_long_nardy,
            "house_mars": _why_not_long_nardy, "last_roll_draw": _why_not_long_nardy,
            "next_starter": _why_not_long_nardy}
_BOARD_OPTIONS = ("no_hit_and_hide", "six_block", "house_mars", "last_roll_draw")
"""The options that change the :class:`Variant` (not ``next_starter``, a match rule)."""


def check_options(name: "str | Variant", **options) -> None:
    """Raise ValueError, naming the option, unless every option given has a value it may
    take and the variant ``name`` can be played with it (the options not given keep
    their defaults, :data:`OPTION_DEFAULTS`).

    >>> check_options("standard", house_mars=True)
    Traceback (most recent call last):
    ValueError: house_mars=True: not an option of variant='standard': a Long Nardy rule (variant='long_nardy')
    """
    unknown = sorted(set(options) - set(OPTION_DEFAULTS))
    if unknown:
        raise ValueError(f"unknown rule option(s) {unknown}; known: {list(OPTION_DEFAULTS)}")
    options = {**OPTION_DEFAULTS, **options}
    _check_values(options)
    variant = get_variant(name)
    for option, value in options.items():
        if value != OPTION_DEFAULTS[option]:
            why = _WHY_NOT[option](variant)
            if why:
                raise ValueError(f"{option}={value!r}: not an option of "
                                 f"variant={variant.name!r}: {why}")


@lru_cache(maxsize=None)
def _made(name: str, on: tuple[tuple[str, object], ...]) -> Variant:
    """The catalogue's variant ``name`` with the options ``on`` (``(option, value)`` pairs,
    those off its default)."""
    variant = get_variant(name)
    if not on:
        return variant
    values = dict(on)
    changes: dict = {}
    if values.get("no_hit_and_hide"):
        changes.update(no_hit_and_hide=True, hide_zone_top=24, hitter_bears_off=True)
    if "six_block" in values:
        changes.update(six_block=values["six_block"])
    if values.get("house_mars"):
        changes.update(house_mars=True, max_kind="backgammon")
    if values.get("last_roll_draw"):
        changes.update(last_roll_draw=True)
    return replace(variant, **changes, options=tuple(values))


def with_options(name: "str | Variant", **options) -> Variant:
    """The variant ``name`` under the rule options given (checked by
    :func:`check_options`): the catalogue's own :class:`Variant` when every option keeps
    its default, else a copy with the options' rules (the same ``name``; ``options`` lists
    the ones on). Made once per set of options, so the kernels' caches keyed by the object
    keep it."""
    check_options(name, **options)
    on = tuple((k, options[k]) for k in _BOARD_OPTIONS
               if k in options and options[k] != OPTION_DEFAULTS[k])
    return _made(get_variant(name).name, on)
