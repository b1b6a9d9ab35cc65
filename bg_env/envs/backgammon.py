"""Backgammon as a PettingZoo AEC environment (classic-env style).

Description:
    A money game (or match) of backgammon for two agents, ``player_0`` and
    ``player_1``, with the doubling cube when ``cube=True`` (off by default, as in every
    view). Every decision is one step: the cube (roll or double), the answer to a
    double (take, drop, beaver), and each checker move. The same agent keeps acting until
    its play is complete. Decisions with one answer are not asked (see
    :mod:`bg_env.core.game`). Rules: ``shared/RULES.md``; GNU Backgammon agrees with the
    legal plays.

    Any rule variant (``variant=``, :mod:`bg_env.core.variants`) and match play
    (``match_length=N``: the episode is a match to N points, with the Crawford rule).

Observation:
    ``{"observation": vector, "action_mask": int8[N_ACTIONS]}`` from the observing agent's
    side; the mask is all zeros for the agent not acting. Encoders and their layouts:
    :mod:`bg_env.envs.observation` (``"tesauro"`` float32[212] by default), followed by
    the context block of :mod:`bg_env.envs.context` (68 values: variant, bomb, pins,
    match score) when ``context`` is on (by default for every variant but standard and
    in match play).

Action:
    ``Discrete(156)``: checker moves ``(source - 1) * 6 + (die - 1)`` (source 25 = bar, a
    destination below 1 bears off), then ``ROLL``, ``DOUBLE``, ``TAKE``, ``DROP``,
    ``BEAVER``, ``BOMB`` (:mod:`bg_env.actions`). A checker move is legal exactly when it
    starts some complete legal play from the current partial play.

Rewards:
    0 until the game ends; then ``+points`` to the winner and ``-points`` to the loser with
    ``points = cube value x (1, 2 or 3)`` (``reward="points"``), or +-1 (``reward="win"``).
    A drop scores the cube value before the double. At the end ``infos[agent]`` holds
    ``outcome`` (single/gammon/backgammon/drop, or hit/mother in the variants that end
    that way), ``cube_value``, ``points``, ``winner``. Match play: +-1 when the match
    ends (``match_reward="result"``), or twice each game's change in match-winning
    chances after every game (``"equity"``, Kazaross-XG2); infos then hold ``game`` (the
    finished game's outcome), ``score``, and at the end ``winner``, ``games`` and
    ``crawford_games``.

Episode End:
    Terminated when a side has borne off all its checkers or a double is dropped (in
    match play: when a side reaches the match length); truncated after ``max_turns``
    turns of a game when that is set.

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
from pettingzoo.utils.env_logger import EnvLogger

from ..core.actions import N_ACTIONS
from ..core.game import PURE_PYTHON, Game, IllegalActionError, Phase, Rules, _bit_generator_pointers
from ..core.position import Position, render_text
from ..core.match import MET_MAX_AWAY, Match
from .context import CONTEXT_SIZE, encode_context, standard_view
from .frame import game_frame
from .observation import BOARD_SIZE, ENCODERS, encode, encode_board, observation_space

if not PURE_PYTHON:
    from ..core import engine
    from .observation import _games_compact, _games_tesauro
    from ..core.batch import CUBE_VALUE, OUTCOME, OUTCOMES, P_OVER, POINTS, WINNER, Games

__all__ = ["env", "raw_env", "EnvConfig", "IllegalActionError"]

REWARDS = ("points", "win")
MATCH_REWARDS = ("result", "equity")
_START_OPTIONS = ("position_id", "match_id", "dice")
RENDER_MODES = ("ansi", "human", "rgb_array")
CUBE_DEFAULT = False
"""Every env view plays without the doubling cube unless given ``cube=True``: with the cube
on, random play ends almost every game in a dropped double, which is what a first
training run then learns (the play-level views are cubeless in any case)."""


@dataclass(frozen=True)
class EnvConfig:
    """Everything an environment can be configured with (money game): the rule options of
    :class:`~bg_env.core.game.Rules` (``cube``, ``jacoby``, ``beaver``, ``auto_doubles``,
    ``max_cube``, ``gammons``, ``cube_progression``), passed flat to :meth:`from_kwargs`,
    and the fields below."""

    game_rules: Rules = field(default_factory=lambda: Rules(cube=CUBE_DEFAULT))
    """The rule options (see :class:`~bg_env.core.game.Rules`). The cube is off unless
    ``cube=True`` (:data:`CUBE_DEFAULT`)."""
    reward: str = "points"
    """``"points"`` (cube x gammon multiplier) or ``"win"`` (+-1)."""
    observation: str = "tesauro"
    """Observation encoder name (:data:`bg_env.envs.observation.ENCODERS`)."""
    max_turns: int | None = None
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
    score) to the observation; ``None``: whenever the variant is not standard or a match
    is played."""

    def __post_init__(self) -> None:
        if self.reward not in REWARDS:
            raise ValueError(f"reward={self.reward!r}: expected one of {list(REWARDS)}")
        if self.observation not in ENCODERS:
            raise ValueError(f"observation={self.observation!r}: expected one of {list(ENCODERS)}")
        if self.render_mode not in (None,) + RENDER_MODES:
            raise ValueError(f"render_mode={self.render_mode!r}: expected None or one of {list(RENDER_MODES)}")
        if self.max_turns is not None and (not isinstance(self.max_turns, int) or self.max_turns < 1):
            raise ValueError(f"max_turns={self.max_turns!r}: expected None or a positive integer")
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
        """Whether the array kernels (:mod:`bg_env.core.batch`, :mod:`bg_env.core.engine`)
        can play these games: standard money games without the context block."""
        return (self.game_rules.variant == "standard" and not self.match_length
                and not self.uses_context)

    @property
    def uses_context(self) -> bool:
        """Whether observations carry the context block."""
        if self.context is not None:
            return self.context
        return self.game_rules.variant != "standard" or self.match_length > 0

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


# The three wrappers below are PettingZoo's (subclasses: ``isinstance`` holds), with
# ``step``/``observe``/``last`` written out to read the per-step attributes straight on the
# raw env and to call the next wrapper directly instead of through ``super()`` and
# ``BaseWrapper``: the same checks, in the same order, with the same effects (PettingZoo
# 1.24-1.27), at a fraction of the calls; they cost more than the game's own step.

@_forward_per_step_attributes
class TerminateIllegalWrapper(wrappers.TerminateIllegalWrapper):
    """PettingZoo's: an action outside the last observed ``action_mask`` ends the game
    against the offender."""

    def observe(self, agent):
        obs = self.env.observe(agent)
        raw = self._raw_env
        if agent == raw.agent_selection:
            self._prev_obs = obs
            infos = raw.infos
            self._prev_info = infos[agent] if agent in infos else {}
        return obs

    def step(self, action) -> None:
        raw = self._raw_env
        current_agent = raw.agent_selection
        if self._prev_obs is None:
            self.observe(current_agent)
        prev = self._prev_obs
        if isinstance(prev, dict):
            assert "action_mask" in prev, (
                f"`action_mask` not found in dictionary observation: {prev}. Action mask must "
                "either be in `observation['action_mask']` or `info['action_mask']` to use "
                "TerminateIllegalWrapper."
            )
            prev_mask = prev["action_mask"]
        else:
            assert self._prev_info is not None
            assert "action_mask" in self._prev_info, (
                f"`action_mask` not found in info for non-dictionary observation: "
                f"{self._prev_info}. Action mask must either be in observation['action_mask'] "
                "or info['action_mask'] to use TerminateIllegalWrapper."
            )
            prev_mask = self._prev_info["action_mask"]
        self._prev_obs = None
        self._prev_info = None
        agent = raw.agent_selection
        if self._terminated and (raw.terminations[agent] or raw.truncations[agent]):
            raw._was_dead_step(action)
        elif not raw.terminations[agent] and not raw.truncations[agent] and not prev_mask[action]:
            EnvLogger.warn_on_illegal_move()
            raw._cumulative_rewards[agent] = 0
            raw.terminations = dict.fromkeys(raw.agents, True)
            raw.truncations = dict.fromkeys(raw.agents, True)
            raw.rewards = dict.fromkeys(raw.truncations, 0)
            raw.rewards[current_agent] = float(self._illegal_value)
            raw._accumulate_rewards()
            raw._deads_step_first()
            self._terminated = True
        else:
            self.env.step(action)


@_forward_per_step_attributes
class AssertOutOfBoundsWrapper(wrappers.AssertOutOfBoundsWrapper):
    """PettingZoo's: an action outside the action space fails an assertion."""

    def step(self, action) -> None:
        raw = self._raw_env
        agent = raw.agent_selection
        assert (
            action is None and (raw.terminations[agent] or raw.truncations[agent])
        ) or raw.action_space(agent).contains(action), "action is not in action space"
        self.env.step(action)


class OrderEnforcingWrapper(wrappers.OrderEnforcingWrapper):
    """PettingZoo's: calls before ``reset()`` are errors."""

    def step(self, action) -> None:
        if not self._has_reset:
            EnvLogger.error_step_before_reset()
        elif not self._raw_env.agents:
            self._has_updated = True
            EnvLogger.warn_step_after_terminated_truncated()
        else:
            self._has_updated = True
            self.env.step(action)

    def observe(self, agent):
        if not self._has_reset:
            EnvLogger.error_observe_before_reset()
        return self.env.observe(agent)

    def last(self, observe: bool = True):
        if not self._has_reset:  # as reading agent_selection before reset
            raise AttributeError("agent_selection cannot be accessed before reset")
        raw = self._raw_env
        agent = raw.agent_selection
        assert agent is not None
        observation = self.env.observe(agent) if observe else None  # (self.observe checks reset)
        return (observation, raw._cumulative_rewards[agent], raw.terminations[agent],
                raw.truncations[agent], raw.infos[agent])

    def __str__(self) -> str:
        return str(self.env)

    def _repr_png_(self) -> bytes:
        """The raw env's picture (PettingZoo's wrappers do not forward ``_`` names)."""
        return self.unwrapped._repr_png_()


_forward_per_step_attributes(
    OrderEnforcingWrapper, guarded=("agent_selection", "agents", "rewards", "terminations",
                              "truncations", "infos"),
)


class raw_env(AECEnv):
    """Backgammon without wrappers: an illegal action raises :class:`IllegalActionError`
    and leaves the state unchanged. See the module docstring.

    Speed: a standard game started without options runs on the array kernels of
    :mod:`bg_env.core.engine`, its dice drawn from ``np_random`` exactly as
    :class:`~bg_env.core.game.Game` draws them. Reading :attr:`game` (or an accessor that
    uses it: ``position_id()``, ``dice``, ``render()``, ...) or an illegal action hands the
    game over to a :class:`~bg_env.core.game.Game` that plays the rest of it, the same
    game; the engine comes back at the next ``reset()``."""

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
        obs_space = observation_space(self.config.observation)
        if self.config.uses_context:
            obs_space = spaces.Box(
                min(obs_space.low.min(), 0), max(obs_space.high.max(), 100 if obs_space.dtype == np.int8 else 1),
                shape=(obs_space.shape[0] + CONTEXT_SIZE,), dtype=obs_space.dtype)
        space = spaces.Dict(
            {
                "observation": obs_space,
                "action_mask": spaces.Box(0, 1, shape=(N_ACTIONS,), dtype=np.int8),
            }
        )
        self.observation_spaces = {a: space for a in self.possible_agents}
        self.match: Match | None = None
        """The match being played (``match_length`` > 0), else ``None``."""
        self.action_spaces = {a: _ActionSpace(N_ACTIONS) for a in self.possible_agents}
        self.np_random, _ = seeding.np_random(None)
        self._sides = {a: i for i, a in enumerate(self.possible_agents)}
        rules = self.config.rules()
        # The fast path: a standard game without start options runs on the array kernels
        # of :mod:`bg_env.core.engine`, with the dice of ``np_random`` as ``Game`` draws
        # them; reading ``game`` hands the game over to a :class:`Game` (the same game,
        # the same dice to come) that plays the rest of it.
        self._engine = None
        if not PURE_PYTHON and self.config.batch_kernels_apply:
            self._engine = Games(1, rules)
            self._row = (self._engine.state[0], self._engine.me[0], self._engine.opp[0],
                         self._engine.rules)
            self._engine_mask = np.zeros(N_ACTIONS, np.int8)
            self._engine_sides = (np.zeros(1, np.int64), np.ones(1, np.int64))
            obs_space = space["observation"]
            self._obs_shape, self._obs_dtype = (1,) + obs_space.shape, obs_space.dtype
            # encode_games's kernel and its arrays (called directly: this is the hot path)
            kernel = _games_tesauro if self.config.observation == "tesauro" else _games_compact
            self._encoder = (kernel, self._engine.state, self._engine.me, self._engine.opp)
        self._pointers: tuple = (None, None)
        self._fast = False
        self._phase = self._actor = 0
        self.game = Game(rules)
        self._reset_bookkeeping()

    @property
    def game(self) -> Game:
        """The game being played (a :class:`~bg_env.core.game.Game`). In the fast path the
        state lives in arrays; the first read makes the Game (``last_play`` is then empty)
        and the environment goes on with it."""
        if self._fast:
            self._fast = False
            self._game = self._engine.game(0)
        return self._game

    @game.setter
    def game(self, value: Game) -> None:
        self._fast = False
        self._game = value

    def _dice_pointers(self):
        """The dice kernel's view of ``np_random`` (``None`` when it is not a numpy
        ``Generator``)."""
        rng = self.np_random
        if self._pointers[0] is not rng:
            self._pointers = (rng, _bit_generator_pointers(rng))
        return self._pointers[1]

    # ------------------------------------------------------------------ API
    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def observe(self, agent):
        side = self._sides.get(agent)
        if side is None:
            side = self.possible_agents.index(agent)  # ValueError naming the agent
        if self._fast:
            out = np.empty(self._obs_shape, self._obs_dtype)
            kernel, state, me, opp = self._encoder
            kernel(state, me, opp, self._engine_sides[side], out)  # observation.encode_games
            if self._phase != P_OVER and self._actor == side:
                mask = self._engine_mask.copy()
            else:
                mask = np.zeros(N_ACTIONS, dtype=np.int8)
            return {"observation": out[0], "action_mask": mask}
        g = self.game
        # Fresh arrays at every call (encoding is one kernel call: cheaper than caching
        # and copying).
        if g.phase != Phase.OVER and g.actor == side:
            mask = g.legal_mask_int8()
        else:
            mask = np.zeros(N_ACTIONS, dtype=np.int8)
        obs = encode(g, side, self.config.observation)
        if self.config.uses_context:
            compact = self.config.observation == "compact"
            if g.variant.geometry != "opposite" and not compact:  # Long Nardy: the real board
                view = standard_view(g.position if side == g.turn else g.position.swap(), g.variant)
                obs[:BOARD_SIZE] = encode_board(view)
            obs = np.concatenate([obs, encode_context(g, side, self.match, integer=compact)])
        return {"observation": obs, "action_mask": mask}

    def reset(self, seed=None, options=None):
        """Start a game.

        Args:
            seed: seeds the environment's generator (one seed, one game) and the agents'
                action spaces (``seed + i`` for agent i), so that
                ``action_space(agent).sample(mask)`` repeats too.
            options: optional ``position_id`` (board from the side of the agent to act),
                ``match_id`` (GNU Backgammon Match ID: cube, player on roll, dice),
                ``dice`` (``(a, b)``: the first turn's roll), ``agent`` (the agent on
                roll, ``player_0`` by default, when no Match ID says so). Other keys are
                ignored. Without options: the standard opening roll.
        """
        if seed is not None:
            self.np_random, _ = seeding.np_random(seed)
            for i, agent in enumerate(self.possible_agents):  # action_space(a).sample(mask)
                self.action_spaces[agent].seed(seed + i)
        options = options or {}
        self.agents = self.possible_agents[:]
        if self._engine is not None and not any(k in options for k in _START_OPTIONS):
            pointers = self._dice_pointers()
            if pointers is not None:
                phase, actor, turns = engine.open_game(*self._row, self._engine_mask, *pointers)
                self._fast = True
                self._reset_bookkeeping(actor)
                self._sync_engine(phase, actor, turns)
                return
        self.match = None
        if self.config.match_length:
            self.match = Match(self.config.match_length, self.config.rules())
            if "match_id" in options:  # the score and Crawford flag carry over
                from ..core.match_id import MatchState

                state = MatchState.from_match_id(options["match_id"])
                if state.match_length:
                    self.match = Match.from_state(state, self.config.rules())
            self.game = Game(self.match.game_rules())
        else:
            self.game = Game(self.config.rules())
        if any(k in options for k in _START_OPTIONS):
            self._reset_from(options)
        else:
            self.game.opening(self.np_random)
        self.game.settle(self.np_random)
        self._reset_bookkeeping()
        self._sync_after_step()

    def _reset_from(self, options) -> None:
        g = self.game
        variant = g.variant
        if "position_id" in options:
            pos = variant.position_from_id(options["position_id"])
        else:
            pos = variant.start_position()
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
        if pending:  # a double is on offer: the board is from the taker's side
            g.position = pos.swap()
            g.offer_double()
            return
        g.position = pos
        g.begin_turn(self.np_random, dice)

    def _reset_bookkeeping(self, actor: int | None = None) -> None:
        self.rewards = {a: 0 for a in self.agents}
        self._cumulative_rewards = {a: 0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.game.actor if actor is None else actor]

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            return self._was_dead_step(action)
        if self._fast:
            a = int(action)
            if 0 <= a < N_ACTIONS and self._engine_mask[a]:
                rng, pointers = self._pointers
                if rng is not self.np_random:
                    pointers = self._dice_pointers()
                if pointers is not None:
                    if self._sides[agent] != self._actor:  # pragma: no cover - by agent_selection
                        raise IllegalActionError(f"{agent} is not the agent to act")
                    phase, actor, turns = engine.act(*self._row, self._engine_mask, a, *pointers)
                    self._cumulative_rewards[agent] = 0
                    self.rewards = dict.fromkeys(self.agents, 0)
                    if phase != P_OVER and self.config.max_turns is None:
                        self._phase, self._actor = phase, actor  # (_sync_engine, in short)
                        self.agent_selection = self.possible_agents[actor]
                    else:
                        self._sync_engine(phase, actor, turns)
                        if phase == P_OVER:
                            self._accumulate_rewards()
                    if self.render_mode == "human":
                        self.render()
                    return
            # an illegal action (the Game raises, naming it), or no numpy generator: the
            # Game takes the game over
        game = self.game
        if self._sides[agent] != game.actor:  # pragma: no cover - guarded by agent_selection
            raise IllegalActionError(f"{agent} is not the agent to act")
        game.step(action, self.np_random)  # raises, state unchanged, if illegal
        self._cumulative_rewards[agent] = 0
        self.rewards = dict.fromkeys(self.agents, 0)
        self._sync_after_step()
        if game.phase == Phase.OVER:  # before the end every reward is 0: nothing to add
            self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _sync_engine(self, phase: int, actor: int, turns: int) -> None:
        """:meth:`_sync_after_step` for the fast path."""
        self._phase, self._actor = phase, actor
        if phase == P_OVER:
            state = self._row[0]
            points = int(state[POINTS])
            value = points if self.config.reward == "points" else 1
            winner = self.possible_agents[int(state[WINNER])]
            for a in self.agents:
                self.rewards[a] = value if a == winner else -value
                self.terminations[a] = True
                self.infos[a] = {
                    "outcome": OUTCOMES[int(state[OUTCOME])], "cube_value": int(state[CUBE_VALUE]),
                    "points": points, "winner": winner,
                }
        elif self.config.max_turns is not None and turns >= self.config.max_turns:
            for a in self.agents:
                self.truncations[a] = True
        self.agent_selection = self.possible_agents[actor]

    def _sync_after_step(self) -> None:
        g = self.game
        if not g._settled:
            g.settle(self.np_random)  # forced moves are not asked
        if g.phase == Phase.OVER and self.match is not None:
            g = self._next_game_of_match(g.result)
            if g.phase == Phase.OVER:  # the match is over: rewards and infos are set
                self.agent_selection = self.possible_agents[g.actor]
                return
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

    def _next_game_of_match(self, result) -> Game:
        """Match play: record the finished game, pay its reward, and start the next game
        (returned) unless the match is over (then the finished game is returned, with the
        match's rewards and infos set)."""
        match = self.match
        equity = self.config.match_reward == "equity"
        change = [2 * match.equity_change(result, side) for side in (0, 1)] if equity else [0, 0]
        match.record(result)
        game_info = {"outcome": result.outcome, "cube_value": result.cube_value,
                     "points": result.points, "winner": self.possible_agents[result.winner]}
        for side, a in enumerate(self.possible_agents):
            self.rewards[a] = change[side]
            self.infos[a] = {"game": game_info, "score": match.score}
        if not match.is_over:
            self.game = match.new_game(self.np_random)
            self.game.settle(self.np_random)
            return self.game
        winner = self.possible_agents[match.winner]
        for side, a in enumerate(self.possible_agents):
            if not equity:
                self.rewards[a] = 1 if side == match.winner else -1
            self.terminations[a] = True
            self.infos[a] = {"game": game_info, "score": match.score, "winner": winner,
                             "games": match.games, "crawford_games": match.crawford_games_played}
        return self.game

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
        """GNU Backgammon Match ID of the current state (money game: length 0; in match
        play the length, the score and the Crawford flag)."""
        from ..core.match_id import MatchState

        g = self.game
        if self.match is not None:
            return self.match.match_id(g.turn, game=g)
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
            return game_frame(self.game, tuple(self.possible_agents)).image()
        text = self._text()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def _repr_png_(self) -> bytes:
        """The picture of the game (a notebook's display), whatever the render mode."""
        return game_frame(self.game, tuple(self.possible_agents)).png()

    def _text(self) -> str:
        g = self.game
        frame = game_frame(g, tuple(self.possible_agents))
        extra = [f"{frame.line()}; phase {g.phase}; cube {g.cube_value} "
                 f"({'centred' if g.cube_owner == -1 else self.possible_agents[g.cube_owner]})"]
        if g.played:
            extra.append(" played so far: " + " ".join(str(m) for m in g.played))
        if g.variant.name != "standard":
            extra.append(f" variant {g.variant.name}" + (
                f"; bomb {'unowned' if g.bomb_owner < 0 else self.possible_agents[g.bomb_owner]}"
                if g.variant.bomb else ""))
        if self.match is not None:
            m = self.match
            extra.append(f" match to {m.length}: {m.score[0]}-{m.score[1]}"
                         + (" (Crawford game)" if m.crawford else "")
                         + (" (post-Crawford)" if m.post_crawford else ""))
        if g.result:
            extra.append(f" {self.possible_agents[g.result.winner]} wins {g.result.points} ({g.result.outcome})")
        return render_text(frame.board, frame.dice, extra, status=frame.text_status)

    def close(self):
        pass
