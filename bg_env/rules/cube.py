"""The doubling cube's rules, the options of a game and how a game ended.

Rules source: ``docs/RULES.md`` §5 (scoring options) and §6 (the doubling cube). Pure
Python: :class:`~bg_env.game.game.Game` (and through it the environments) asks these
functions whether a double is allowed and what the cube turns to; the kernels of
:mod:`bg_env.kernels.batch` follow them.

* :class:`Rules`: the rule options of a game (cube, Jacoby, beavers, automatic doubles,
  the highest cube, gammons, the cube's progression, the variant).
* :func:`next_cube_value`, :func:`cube_value_allowed`, :func:`may_double`: the cube.
* :class:`GameResult`, :class:`Phase`, :class:`IllegalActionError`: what a game reports.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields

import numpy as np

from .outcome import GAMMON_RULES
from .variants import OPTION_DEFAULTS, Variant, with_options

__all__ = ["Rules", "GameResult", "Phase", "IllegalActionError", "next_cube_value",
           "cube_value_allowed", "may_double", "check_cube"]


class IllegalActionError(ValueError):
    """An action that is not legal in the current state; the state is left unchanged."""


class Phase:
    """Names of the decision phases (plain strings, for readable logs and infos)."""

    CUBE = "cube"
    TAKE = "take"
    BEAVER_TAKE = "beaver_take"
    MOVE = "move"
    OVER = "over"

    ALL = (CUBE, TAKE, BEAVER_TAKE, MOVE, OVER)


MAX_CUBE_VALUE = 2**30
"""The highest ``max_cube`` (cube values are kept in 64-bit integers, far above it)."""

MAX_AUTO_DOUBLES = 30
"""The most automatic doubles a game may start with."""


def check_count(name: str, value, low: int, high: int, note: str = "") -> None:
    """Raise ValueError naming ``name`` unless ``value`` is a whole number (an ``int``, not
    True or False) in ``low..high``.

    >>> check_count("max_cube", True, 0, 64)
    Traceback (most recent call last):
    ValueError: max_cube=True: expected a whole number in 0..64
    """
    whole = isinstance(value, int) and not isinstance(value, bool)
    if not whole or not low <= value <= high:
        extra = f" ({note})" if note else ""
        raise ValueError(f"{name}={value!r}: expected a whole number in {low}..{high}{extra}")


def on_progression(value: int, progression: str) -> bool:
    """Whether the cube takes ``value`` under ``progression``: a power of two
    (``"geometric"``), any value from 1 (``"arithmetic"``)."""
    if progression == "arithmetic":
        return value >= 1
    return value >= 1 and value & (value - 1) == 0


@dataclass(frozen=True)
class Rules:
    """The rule options of a money game (RULES.md §5-§6)."""

    cube: bool = True
    """Play with the doubling cube."""
    jacoby: bool = False
    """Gammons and backgammons count single until a double has been taken (a cube
    owned). With ``cube=False`` no double is ever taken, so every gammon counts single,
    as GNU Backgammon scores it (its test is the centred cube alone)."""
    beaver: bool = False
    """A doubled player may beaver: redouble at once and keep the cube."""
    auto_doubles: int = 0
    """How many opening-roll ties double the stake automatically (0 = none)."""
    max_cube: int = 64
    """Highest cube value a double may reach; 0 = no limit."""
    gammons: str = "all"
    """``"all"``, ``"no_backgammons"`` (backgammons count as gammons) or ``"none"``."""
    cube_progression: str = "geometric"
    """``"geometric"`` (2, 4, 8, ...) or ``"arithmetic"`` (2, 3, 4, ...)."""
    variant: str = "standard"
    """The rule variant (:data:`bg_env.rules.variants.VARIANTS`; RULES.md §7)."""
    no_hit_and_hide: bool = False
    """A checker that hits may not move on, in the same turn, to a point that holds the
    player's own checkers; it may still move on to an empty point, or bear off (seed 003's
    short backgammon, RULES.md §10). Off by default, as in GNU Backgammon and tournament
    play; for the variants whose checkers hit (``caucasian`` has its own home-board rule)."""
    six_block: str = "passed"
    """Long Nardy: when six consecutive points may be held (RULES.md §7, §10):
    ``"passed"`` (the main rule, default: an opposing checker is already past them) or
    ``"entered"`` (seed 003's alternative: once an opposing checker has entered its home
    board)."""
    house_mars: bool = False
    """Long Nardy: a loser with every checker in his home board and none borne off loses
    three times the stake, "house mars" (seed 003, RULES.md §10; kind ``"backgammon"``).
    Off by default: the seed's numbered rules score 1 (oin) or 2 (mars)."""
    last_roll_draw: bool = False
    """Long Nardy: when the side that started bears off his last checker, the other side
    has a last roll; if it bears off his last checkers too, the game is a draw: no
    points, a reward of 0 for both, outcome ``"draw"`` and no winner (seed 003 §4.3,
    RULES.md §10). Off by default (the same source also says there is no draw)."""
    next_starter: str = "roll"
    """Long Nardy match play: who starts each game after the first (RULES.md §10):
    ``"roll"`` (default: the opening roll, as in every game), ``"black"`` (the side that
    moved second in the game before) or ``"winner"`` (the winner of the game before); the
    starter then rolls two dice. No effect in a single game."""

    def __post_init__(self) -> None:
        # the variant under the rule options, made once (it is read at every observation);
        # an unknown variant, a bad option value or one the variant cannot have raises
        object.__setattr__(self, "_variant_spec", with_options(self.variant, **self._options()))
        for name in ("cube", "jacoby", "beaver"):
            if not isinstance(getattr(self, name), (bool, np.bool_)):
                raise ValueError(f"{name}={getattr(self, name)!r}: expected True or False")
        if self.gammons not in GAMMON_RULES:
            raise ValueError(f"gammons={self.gammons!r}: expected one of {list(GAMMON_RULES)}")
        if self.cube_progression not in ("geometric", "arithmetic"):
            raise ValueError(
                f"cube_progression={self.cube_progression!r}: expected 'geometric' or 'arithmetic'"
            )
        check_count("max_cube", self.max_cube, 0, MAX_CUBE_VALUE, "0 = no limit")
        if self.max_cube and not on_progression(self.max_cube, self.cube_progression):
            raise ValueError(
                f"max_cube={self.max_cube!r}: not a value the cube reaches (the geometric "
                "progression: 1, 2, 4, 8, ...; 0 = no limit)")
        check_count("auto_doubles", self.auto_doubles, 0, MAX_AUTO_DOUBLES)

    @property
    def variant_spec(self) -> Variant:
        """The :class:`~bg_env.rules.variants.Variant` played: the variant with the rule
        options on (:data:`~bg_env.rules.variants.OPTION_DEFAULTS`)."""
        return self._variant_spec

    @property
    def variant_options(self) -> dict:
        """The rule options of the sources that are on (RULES.md §10), by name."""
        return {k: v for k, v in self._options().items() if v != OPTION_DEFAULTS[k]}

    def _options(self) -> dict:
        return {k: bool(v) if isinstance(v, np.bool_) else v
                for k, v in ((k, getattr(self, k)) for k in OPTION_DEFAULTS)}

    @classmethod
    def keys(cls) -> list[str]:
        return [f.name for f in fields(cls)]


@dataclass(frozen=True)
class GameResult:
    """How a game ended.

    Attributes:
        winner: the side (0 or 1) that won; ``None`` for a draw (Long Nardy's
            ``last_roll_draw``).
        outcome: ``"single"``, ``"gammon"``, ``"backgammon"``, ``"drop"``; in the variants
            ``"hit"`` (sudden death), ``"mother"`` (Plakoto) and ``"draw"`` (no points).
        cube_value: the cube value when the game ended (before the double for a drop).
        points: what the winner scores under the rules.
        starter: the side that had the game's first turn (``None`` when not known); not
            compared (two results are equal whoever started).
    """

    winner: int | None
    outcome: str
    cube_value: int
    points: int
    starter: int | None = field(default=None, compare=False)


def next_cube_value(value: int, progression: str = "geometric") -> int:
    """The cube value after one more double."""
    if progression == "arithmetic":
        return 2 if value < 2 else value + 1
    return value * 2


def cube_value_allowed(value: int, rules: Rules) -> bool:
    """Whether a double may take the cube to ``value``: within ``max_cube`` (0: no limit)."""
    return rules.max_cube == 0 or value <= rules.max_cube


def may_double(rules: Rules, cube_value: int, cube_owner: int, side: int) -> bool:
    """Whether ``side`` may double (RULES.md §6): the cube is in play, centred or his, and
    the next value is allowed. (The game's phase is the caller's to check.)"""
    if not rules.cube or cube_owner not in (-1, side):
        return False
    return cube_value_allowed(next_cube_value(cube_value, rules.cube_progression), rules)


def check_cube(rules: Rules, cube_value: int, cube_owner: int) -> None:
    """Check a cube set from outside (a Match ID, an XGID, a start position).

    Raises:
        ValueError: the value is not one the rules can reach (no cube, over ``max_cube``,
            not on the progression) or the owner is not -1, 0 or 1.
    """
    if cube_owner not in (-1, 0, 1) or isinstance(cube_owner, bool):
        raise ValueError(f"cube owner {cube_owner!r}: expected -1 (centred), 0 or 1")
    if not isinstance(cube_value, (int, np.integer)) or isinstance(cube_value, bool) or cube_value < 1:
        raise ValueError(f"cube value {cube_value!r}: expected an integer >= 1")
    if cube_value == 1:
        return
    if not rules.cube:
        raise ValueError(f"cube value {cube_value}: the cube is off in these rules (cube=False)")
    if not cube_value_allowed(cube_value, rules):
        raise ValueError(f"cube value {cube_value}: over max_cube={rules.max_cube}")
    if rules.cube_progression == "geometric" and cube_value & (cube_value - 1):
        raise ValueError(f"cube value {cube_value}: not a power of two (geometric cube)")
