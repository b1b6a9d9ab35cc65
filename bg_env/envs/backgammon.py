"""Backgammon as a PettingZoo AEC environment (classic-env style).

Description:
    A money game of backgammon for two agents, ``player_0`` and ``player_1``, with the
    doubling cube. Every decision is one step: the cube (roll or double), the answer to a
    double (take, drop, beaver), and each checker move. The same agent keeps acting until
    its play is complete. Decisions with one answer are not asked (see
    :mod:`bg_env.core.game`). Rules: ``shared/RULES.md``; GNU Backgammon agrees with the
    legal plays.

Observation:
    ``{"observation": vector, "action_mask": int8[N_ACTIONS]}`` from the observing agent's
    side; the mask is all zeros for the agent not acting. Encoders and their layouts:
    :mod:`bg_env.envs.observation` (``"tesauro"`` float32[212] by default).

Action:
    ``Discrete(156)``: checker moves ``(source - 1) * 6 + (die - 1)`` (source 25 = bar, a
    destination below 1 bears off), then ``ROLL``, ``DOUBLE``, ``TAKE``, ``DROP``,
    ``BEAVER``, ``BOMB`` (:mod:`bg_env.actions`). A checker move is legal exactly when it
    starts some complete legal play from the current partial play.

Rewards:
    0 until the game ends; then ``+points`` to the winner and ``-points`` to the loser with
    ``points = cube value x (1, 2 or 3)`` (``reward="points"``), or +-1 (``reward="win"``).
    A drop scores the cube value before the double. At the end ``infos[agent]`` holds
    ``outcome`` (single/gammon/backgammon/drop), ``cube_value``, ``points``, ``winner``.

Episode End:
    Terminated when a side has borne off all its checkers or a double is dropped;
    truncated after ``max_turns`` turns when that is set.

Arguments:
    See :class:`EnvConfig`. An unknown key or bad value raises ``ValueError`` naming it.

Version History:
    * v0: initial release.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ..core.actions import N_ACTIONS
from ..core.game import Game, IllegalActionError, Phase, Rules
from ..core.position import Position, render_text
from .observation import ENCODERS, encode, observation_space

__all__ = ["env", "raw_env", "EnvConfig", "IllegalActionError"]

REWARDS = ("points", "win")
RENDER_MODES = ("ansi", "human", "rgb_array")


@dataclass(frozen=True)
class EnvConfig:
    """Everything an environment can be configured with (money game): the rule options of
    :class:`~bg_env.core.game.Rules` (``cube``, ``jacoby``, ``beaver``, ``auto_doubles``,
    ``max_cube``, ``gammons``, ``cube_progression``), passed flat to :meth:`from_kwargs`,
    and the fields below."""

    game_rules: Rules = field(default_factory=Rules)
    """The rule options (see :class:`~bg_env.core.game.Rules`)."""
    reward: str = "points"
    """``"points"`` (cube x gammon multiplier) or ``"win"`` (+-1)."""
    observation: str = "tesauro"
    """Observation encoder name (:data:`bg_env.envs.observation.ENCODERS`)."""
    max_turns: int | None = None
    """Truncate the game after this many turns (``None`` = never)."""
    render_mode: str | None = None
    """``"ansi"``, ``"human"`` or ``"rgb_array"``."""

    def __post_init__(self) -> None:
        if self.reward not in REWARDS:
            raise ValueError(f"reward={self.reward!r}: expected one of {list(REWARDS)}")
        if self.observation not in ENCODERS:
            raise ValueError(f"observation={self.observation!r}: expected one of {list(ENCODERS)}")
        if self.render_mode not in (None,) + RENDER_MODES:
            raise ValueError(f"render_mode={self.render_mode!r}: expected None or one of {list(RENDER_MODES)}")
        if self.max_turns is not None and (not isinstance(self.max_turns, int) or self.max_turns < 1):
            raise ValueError(f"max_turns={self.max_turns!r}: expected None or a positive integer")

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
        rules = Rules(**{k: v for k, v in kwargs.items() if k in rule_keys})
        return cls(rules, **{k: v for k, v in kwargs.items() if k not in rule_keys})

    def rules(self) -> Rules:
        return self.game_rules


def env(**kwargs) -> AECEnv:
    """The environment with PettingZoo's standard wrappers: an illegal action ends the
    game against the offender (reward -1), actions out of range are rejected, and the
    API order is enforced."""
    inner = raw_env(**kwargs)
    wrapped = TerminateIllegalWrapper(inner, illegal_reward=-1)
    wrapped = AssertOutOfBoundsWrapper(wrapped)
    return OrderEnforcingWrapper(wrapped)


class _ActionSpace(spaces.Discrete):
    """``Discrete(N_ACTIONS)`` checking a plain ``int`` directly (gymnasium's ``contains``
    goes through numpy, which cost more than a game step; ``AssertOutOfBoundsWrapper``
    calls it at every step)."""

    def contains(self, x) -> bool:
        if type(x) is int:
            return bool(self.start <= x < self.start + self.n)
        return super().contains(x)


_PER_STEP = ("agent_selection", "agents", "rewards", "_cumulative_rewards", "terminations",
             "truncations", "infos")
"""The attributes an AEC loop (and the wrappers) read at every step."""


def _forward_per_step_attributes(cls: type, guarded: tuple[str, ...] = ()) -> type:
    """Give a PettingZoo wrapper class properties that read (and write) the
    :data:`_PER_STEP` attributes straight on the raw env.

    PettingZoo's ``BaseWrapper.__getattr__`` fetches them through every wrapper in turn,
    which cost more than the game's own step; the values are the same. Names in
    ``guarded`` raise ``AttributeError`` before ``reset()``, as ``OrderEnforcingWrapper``
    does.
    """

    def forward(name: str) -> property:
        check = name in guarded

        def get(self):
            if check and not self._has_reset:
                raise AttributeError(f"{name} cannot be accessed before reset")
            return getattr(self._raw_env, name)

        def set_(self, value):
            setattr(self._raw_env, name, value)

        return property(get, set_)

    wrapper_init = cls.__init__

    def __init__(self, env, *args, **kwargs):
        wrapper_init(self, env, *args, **kwargs)
        self._raw_env = env.unwrapped

    cls.__init__ = __init__
    for name in _PER_STEP:
        setattr(cls, name, forward(name))
    return cls


@_forward_per_step_attributes
class TerminateIllegalWrapper(wrappers.TerminateIllegalWrapper):
    """PettingZoo's, reading the per-step attributes directly."""


@_forward_per_step_attributes
class AssertOutOfBoundsWrapper(wrappers.AssertOutOfBoundsWrapper):
    """PettingZoo's, reading the per-step attributes directly."""


class OrderEnforcingWrapper(wrappers.OrderEnforcingWrapper):
    """PettingZoo's, reading the per-step attributes directly."""

    def __str__(self) -> str:
        return str(self.env)


_forward_per_step_attributes(
    OrderEnforcingWrapper, guarded=("agent_selection", "agents", "rewards", "terminations",
                              "truncations", "infos"),
)


class raw_env(AECEnv):
    """Backgammon without wrappers: an illegal action raises :class:`IllegalActionError`
    and leaves the state unchanged. See the module docstring."""

    metadata = {
        "name": "backgammon_v0",
        "render_modes": list(RENDER_MODES),
        "is_parallelizable": False,
        "render_fps": 2,
    }

    def __init__(self, **kwargs):
        super().__init__()
        self.config = EnvConfig.from_kwargs(**kwargs)
        self.render_mode = self.config.render_mode
        self.possible_agents = ["player_0", "player_1"]
        self.agents = self.possible_agents[:]
        space = spaces.Dict(
            {
                "observation": observation_space(self.config.observation),
                "action_mask": spaces.Box(0, 1, shape=(N_ACTIONS,), dtype=np.int8),
            }
        )
        self.observation_spaces = {a: space for a in self.possible_agents}
        self.action_spaces = {a: _ActionSpace(N_ACTIONS) for a in self.possible_agents}
        self.np_random, _ = seeding.np_random(None)
        self.game = Game(self.config.rules())
        self._observed: list[tuple | None] = [None, None]
        self._reset_bookkeeping()

    # ------------------------------------------------------------------ API
    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def observe(self, agent):
        side = self.possible_agents.index(agent)
        g = self.game
        # Observations are cached per agent until the state changes (the wrappers and the
        # training loop observe the same state more than once); callers get copies.
        key = (g, g.position, g.phase, g.turn, tuple(g.remaining), g.moves_left,
               g.larger_only, g.cube_value, g.cube_owner, g._pending)
        cached = self._observed[side]
        if cached is None or cached[0] != key:
            mask = np.zeros(N_ACTIONS, dtype=np.int8)
            if g.phase != Phase.OVER and g.actor == side:
                mask[:] = g.legal_mask()
            cached = (key, encode(g, side, self.config.observation), mask)
            self._observed[side] = cached
        return {"observation": cached[1].copy(), "action_mask": cached[2].copy()}

    def reset(self, seed=None, options=None):
        """Start a game.

        Args:
            seed: seeds the environment's generator (one seed, one game).
            options: optional ``position_id`` (board from the side of the agent to act),
                ``match_id`` (GNU Backgammon Match ID: cube, player on roll, dice),
                ``dice`` (``(a, b)``: the first turn's roll), ``agent`` (the agent on
                roll, ``player_0`` by default, when no Match ID says so). Other keys are
                ignored. Without options: the standard opening roll.
        """
        if seed is not None:
            self.np_random, _ = seeding.np_random(seed)
        options = options or {}
        self.agents = self.possible_agents[:]
        self.game = Game(self.config.rules())
        if any(k in options for k in ("position_id", "match_id", "dice")):
            self._reset_from(options)
        else:
            self.game.opening(self.np_random)
        self.game.settle(self.np_random)
        self._reset_bookkeeping()
        self._sync_after_step()

    def _reset_from(self, options) -> None:
        g = self.game
        pos = Position.from_position_id(options["position_id"]) if "position_id" in options else Position.start()
        agent = options.get("agent", "player_0")
        if agent not in self.possible_agents:
            raise ValueError(f"options['agent']={agent!r}: expected one of {self.possible_agents}")
        g.turn = self.possible_agents.index(agent)
        dice = options.get("dice")
        pending = False
        if "match_id" in options:
            from ..core.match_id import MatchState

            state = MatchState.from_match_id(options["match_id"])
            if state.game_state not in (0, 1):
                raise ValueError(f"options['match_id']={options['match_id']!r}: the game is not in play")
            g.turn = state.player_on_roll
            g.cube_value = state.cube_value
            g.cube_owner = state.cube_owner
            g.cube_turned = state.cube_value > 1
            pending = state.double_offered
            if dice is None and state.dice[0] and not pending:
                dice = state.dice
        if dice is not None:
            dice = tuple(int(d) for d in dice)
            if len(dice) != 2 or not all(1 <= d <= 6 for d in dice):
                raise ValueError(f"options['dice']={options['dice']!r}: expected two dice 1..6")
        if pos.outcome() is not None:
            raise ValueError(f"options['position_id']={options['position_id']!r}: the game is already over")
        if pending:  # a double is on offer: the board is from the taker's side
            g.position = pos.swap()
            g.offer_double()
            return
        g.position = pos
        g.begin_turn(self.np_random, dice)

    def _reset_bookkeeping(self) -> None:
        self.rewards = {a: 0 for a in self.agents}
        self._cumulative_rewards = {a: 0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.game.actor]

    def step(self, action):
        if self.terminations[self.agent_selection] or self.truncations[self.agent_selection]:
            return self._was_dead_step(action)
        side = self.possible_agents.index(self.agent_selection)
        if side != self.game.actor:  # pragma: no cover - guarded by agent_selection
            raise IllegalActionError(f"{self.agent_selection} is not the agent to act")
        self.game.step(int(action), self.np_random)  # raises, state unchanged, if illegal
        self._cumulative_rewards[self.agent_selection] = 0
        self.rewards = {a: 0 for a in self.agents}
        self._sync_after_step()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _sync_after_step(self) -> None:
        g = self.game
        g.settle(self.np_random)  # forced moves are not asked
        if g.phase == Phase.OVER:
            r = g.result
            value = r.points if self.config.reward == "points" else 1
            winner = self.possible_agents[r.winner]
            for a in self.agents:
                self.rewards[a] = value if a == winner else -value
                self.terminations[a] = True
                self.infos[a] = {
                    "outcome": r.outcome, "cube_value": r.cube_value,
                    "points": r.points, "winner": winner,
                }
        elif self.config.max_turns is not None and g.turns >= self.config.max_turns:
            for a in self.agents:
                self.truncations[a] = True
        self.agent_selection = self.possible_agents[g.actor]

    # ------------------------------------------------------------- accessors
    @property
    def position(self) -> Position:
        """The board from the side of the agent to act."""
        g = self.game
        return g.position if g.actor == g.turn else g.position.swap()

    @property
    def dice(self) -> tuple[int, ...]:
        """The dice the agent to act still has to play (empty outside checker play)."""
        return tuple(self.game.remaining) if self.game.phase == Phase.MOVE else ()

    def position_id(self) -> str:
        """GNU Backgammon Position ID from the side of the agent to act."""
        return self.position.position_id()

    def match_id(self) -> str:
        """GNU Backgammon Match ID of the current state (money game: length 0)."""
        from ..core.match_id import MatchState

        g = self.game
        return MatchState(
            cube_value=g.cube_value, cube_owner=g.cube_owner, player_on_roll=g.turn,
            crawford=False, game_state=2 if g.phase == Phase.OVER else 1, turn=g.actor,
            double_offered=g.phase in (Phase.TAKE, Phase.BEAVER_TAKE), resigned=0,
            dice=tuple(g.dice) if g.dice and g.phase == Phase.MOVE else (0, 0),
            match_length=0, score=(0, 0),
        ).match_id()

    def legal_actions(self) -> list[int]:
        """Legal actions of the agent to act."""
        return self.game.legal_actions()

    # --------------------------------------------------------------- render
    def render(self):
        if self.render_mode is None:
            import gymnasium

            gymnasium.logger.warn("render() called without a render_mode; pass render_mode=...")
            return None
        if self.render_mode == "rgb_array":
            from .render import render_rgb

            g = self.game
            view = g.position if g.turn == 0 else g.position.swap()
            owner = None if g.cube_owner == -1 else g.cube_owner
            return render_rgb(view, dice=g.dice if g.phase == Phase.MOVE else None,
                              cube_value=g.cube_value, cube_owner=owner)
        text = self._text()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def _text(self) -> str:
        g = self.game
        agent = self.possible_agents[g.turn]
        extra = [f" {agent} (X) on turn; phase {g.phase}; cube {g.cube_value} "
                 f"({'centred' if g.cube_owner == -1 else self.possible_agents[g.cube_owner]})"]
        if g.played:
            extra.append(" played so far: " + " ".join(str(m) for m in g.played))
        if g.result:
            extra.append(f" {self.possible_agents[g.result.winner]} wins {g.result.points} ({g.result.outcome})")
        return render_text(g.position, g.dice if g.phase == Phase.MOVE else None, extra)

    def close(self):
        pass
