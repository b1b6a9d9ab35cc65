"""The configuration of the checker-move environments (:mod:`bg_env.envs.backgammon`,
the Gymnasium and vector envs built on it): :class:`EnvConfig`, every key checked."""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass, field, fields

from ..game.game import Rules
from ..game.match import MET_MAX_AWAY, Match
from ..rules.cube import check_count
from ..rules.variants import get_variant
from .observation import ENCODERS

__all__ = ["EnvConfig", "REWARDS", "MATCH_REWARDS", "RENDER_MODES", "CUBE_DEFAULT", "game_info",
           "game_rewards"]

REWARDS = ("points", "win")
MATCH_REWARDS = ("result", "equity")
RENDER_MODES = ("ansi", "human", "rgb_array")
CUBE_DEFAULT = False
MAX_TURNS = 10**9
"""The highest ``max_turns`` (the kernels count turns in 64-bit integers)."""
DEFAULT_MAX_TURNS = 2000
"""Where a game is truncated unless ``max_turns`` says otherwise (``None``: never). Over
1,000 random games of each variant (``benchmarks/game_lengths.py``) the longest ran 440
turns, but nuclear's, whose bomb undoes progress: 6,192 turns on average, up to 47,935."""


def check_reward(name: str, value) -> float:
    """``value`` as a float, or ValueError naming ``name`` unless it is a finite real
    number (not True or False, not a string).

    >>> check_reward("illegal_reward", "x")
    Traceback (most recent call last):
    ValueError: illegal_reward='x': expected a finite number
    """
    if (not isinstance(value, numbers.Real) or isinstance(value, bool)
            or not math.isfinite(value)):
        raise ValueError(f"{name}={value!r}: expected a finite number")
    return float(value)
"""Every env view plays without the doubling cube unless given ``cube=True``: with the cube
on, random play ends almost every game in a dropped double, which is what a first
training run then learns (the play-level views are cubeless in any case)."""


@dataclass(frozen=True)
class EnvConfig:
    """Everything an environment can be configured with (money game): the rule options of
    :class:`~bg_env.game.game.Rules` (``cube``, ``jacoby``, ``beaver``, ``auto_doubles``,
    ``max_cube``, ``gammons``, ``cube_progression``), passed flat to :meth:`from_kwargs`,
    and the fields below."""

    game_rules: Rules = field(default_factory=lambda: Rules(cube=CUBE_DEFAULT))
    """The rule options (see :class:`~bg_env.game.game.Rules`). The cube is off unless
    ``cube=True`` (:data:`CUBE_DEFAULT`)."""
    reward: str = "points"
    """``"points"`` (cube x gammon multiplier) or ``"win"`` (+-1)."""
    observation: str = "tesauro"
    """Observation encoder name (:data:`bg_env.envs.observation.ENCODERS`)."""
    max_turns: int | None = DEFAULT_MAX_TURNS
    """Truncate the game after this many turns (``None`` = never); in match play, the
    turns of the game being played."""
    render_mode: str | None = None
    """``"ansi"``, ``"human"`` or ``"rgb_array"``."""
    match_length: int = 0
    """0: a money game is the episode. N (1..25): a match to N points is the episode."""
    match_reward: str = "result"
    """Match play: ``"result"`` (+-1 when the match ends) or ``"equity"`` (after every
    game, twice its change in match-winning chances, Kazaross-XG2; sums to +-1)."""
    context: bool | None = None
    """Append the context block (:mod:`bg_env.envs.context`: variant, bomb, pins, match
    score, rule options) to the observation; ``None``: whenever the variant is not
    standard, a match is played or a rule option is on."""

    def __post_init__(self) -> None:
        if self.reward not in REWARDS:
            raise ValueError(f"reward={self.reward!r}: expected one of {list(REWARDS)}")
        if self.observation not in ENCODERS:
            raise ValueError(f"observation={self.observation!r}: expected one of {list(ENCODERS)}")
        if self.render_mode not in (None,) + RENDER_MODES:
            raise ValueError(f"render_mode={self.render_mode!r}: expected None or one of {list(RENDER_MODES)}")
        if self.max_turns is not None:
            check_count("max_turns", self.max_turns, 1, MAX_TURNS, "or None: never")
        if (not isinstance(self.match_length, int) or isinstance(self.match_length, bool)
                or not 0 <= self.match_length <= MET_MAX_AWAY):
            raise ValueError(
                f"match_length={self.match_length!r}: expected 0 (money game) or 1..{MET_MAX_AWAY}")
        if self.match_reward not in MATCH_REWARDS:
            raise ValueError(f"match_reward={self.match_reward!r}: expected one of {list(MATCH_REWARDS)}")
        if self.context not in (None, True, False):
            raise ValueError(f"context={self.context!r}: expected None (automatic), True or False")
        if self.match_length:
            Match(self.match_length, self.game_rules)  # no Jacoby, beavers, auto doubles

    @property
    def batch_kernels_apply(self) -> bool:
        """Whether the single-game engine (:mod:`bg_env.kernels.engine`, the AEC env's fast
        path) can play these games: money games and matches of every variant, with or
        without the context block and the cube: always, now, as
        :attr:`vector_kernels_apply` (kept for the callers that ask)."""
        return True

    @property
    def vector_kernels_apply(self) -> bool:
        """Whether the batched vector envs (:class:`bg_env.envs.kernel_batch.KernelBatch`)
        can play these games on the kernels: every variant (standard, nackgammon,
        hypergammon1..3, longgammon, nuclear, sudden death, Plakoto, Caucasian, Long Nardy),
        money or match, with or without the cube and the context block
        (:func:`~bg_env.envs.kernel_batch.kernels_play` adds which opponents)."""
        get_variant(self.game_rules.variant)  # an unknown name raises
        return True

    @property
    def uses_context(self) -> bool:
        """Whether observations carry the context block."""
        if self.context is not None:
            return self.context
        return (self.game_rules.variant != "standard" or self.match_length > 0
                or bool(self.game_rules.variant_options))

    @classmethod
    def keys(cls) -> list[str]:
        """Every key :meth:`from_kwargs` accepts."""
        return Rules.keys() + [f.name for f in fields(cls) if f.name != "game_rules"]

    @classmethod
    def from_kwargs(cls, **kwargs) -> "EnvConfig":
        """Build a config from flat keys, naming any unknown key and the allowed ones."""
        known = cls.keys()
        unknown = sorted(set(kwargs) - set(known))
        if unknown:
            raise ValueError(f"unknown config key(s) {unknown}; allowed keys: {known}")
        rule_keys = set(Rules.keys())
        rules = Rules(**{"cube": CUBE_DEFAULT,
                         **{k: v for k, v in kwargs.items() if k in rule_keys}})
        return cls(rules, **{k: v for k, v in kwargs.items() if k not in rule_keys})

    def rules(self) -> Rules:
        return self.game_rules


def game_info(result, agents) -> dict:
    """The infos of a finished game (a :class:`~bg_env.game.game.GameResult`), ``agents``
    the env's agent names by side: outcome, cube value, points and the winner's name
    (``None`` for a draw)."""
    winner = None if result.winner is None else agents[result.winner]
    return {"outcome": result.outcome, "cube_value": result.cube_value,
            "points": result.points, "winner": winner}


def game_rewards(result, agents, reward: str) -> dict:
    """Each agent's reward for a finished game: ``+value`` to the winner and ``-value`` to
    the loser, ``value`` the game's points (``reward="points"``) or 1 (``"win"``); 0 to
    both for a draw."""
    if result.winner is None:
        return {a: 0 for a in agents}
    value = result.points if reward == "points" else 1
    return {a: value if side == result.winner else -value for side, a in enumerate(agents)}
