"""Backgammon as a PettingZoo AEC environment (classic-env style).

Description:
    A money game (or match) of backgammon for two agents, ``player_0`` and
    ``player_1``, with the doubling cube when ``cube=True`` (off by default, as in every
    view). Every decision is one step: the cube (roll or double), the answer to a
    double (take, drop, beaver), and each checker move. The same agent keeps acting until
    its play is complete. Decisions with one answer are not asked (see
    :mod:`bg_env.game.game`). Rules: ``docs/RULES.md``; GNU Backgammon agrees with the
    legal plays.

    Any rule variant (``variant=``, :mod:`bg_env.rules.variants`) and match play
    (``match_length=N``: the episode is a match to N points, with the Crawford rule).

Observation:
    ``{"observation": vector, "action_mask": int8[N_ACTIONS]}`` from the observing agent's
    side; the mask is all zeros for the agent not acting. Encoders and their layouts:
    :mod:`bg_env.envs.observation` (``"tesauro"`` float32[212] by default), followed by
    the context block of :mod:`bg_env.envs.context` (72 values: variant, bomb, pins,
    match score, rule options) when ``context`` is on (by default for every variant but
    standard, in match play and with a rule option on).

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

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv

from ..rules.actions import N_ACTIONS
from ..game.game import PURE_PYTHON, Game, IllegalActionError, Phase, action_index
from ..game.match import Match
from ..rules.position import Position
from .action_space import ActionSpace
from .config import CUBE_DEFAULT, RENDER_MODES, EnvConfig, game_info, game_rewards
from .context import context_space, observe_game
from .frame import game_frame, game_text
from .observation import engine_kernels, games_kernel, observation_space
from .start import START_OPTIONS, check_options, start_game, step_refused
from .wrappers import (  # (the wrappers are also importable from here, as before)
    AssertOutOfBoundsWrapper, OrderEnforcingWrapper, TerminateIllegalWrapper, wrap)

if not PURE_PYTHON:
    from ..kernels.batch import P_OVER
    from ..kernels.engine import EngineGame
    from .engine_obs import (
        encode_engine_games, encoder_extra, engine_obs_extra, engine_obs_kernels, match_block,
        uses_engine_obs, write_match_block,
    )

__all__ = ["env", "raw_env", "EnvConfig", "IllegalActionError", "START_OPTIONS", "CUBE_DEFAULT"]


def env(**kwargs) -> AECEnv:
    """Backgammon for two agents, ``player_0`` and ``player_1``, as a PettingZoo AEC env,
    with PettingZoo's standard wrappers (:mod:`bg_env.envs.wrappers`): an illegal action
    ends the game against the offender (reward -1), actions out of range are rejected,
    and the API order is enforced. One step is one checker move or cube decision.

    Args:
        variant: the rule variant, ``"standard"`` (default), ``"nackgammon"``,
            ``"hypergammon1"``..``"hypergammon3"``, ``"longgammon"``, ``"sudden_death"``,
            ``"nuclear"``, ``"plakoto"``, ``"caucasian"`` or ``"long_nardy"``
            (``bg_env.VARIANTS``; docs/RULES.md §7).
        cube: play with the doubling cube (default False).
        jacoby: gammons count single until a double is taken (default False).
        beaver: a doubled player may beaver (default False).
        auto_doubles: opening ties that double the stake automatically (default 0).
        max_cube: the highest cube value, 0 for no limit (default 64).
        gammons: ``"all"`` (default), ``"no_backgammons"`` or ``"none"``.
        cube_progression: ``"geometric"`` (2, 4, 8; default) or ``"arithmetic"``.
        no_hit_and_hide: a checker that hits may not move on, that turn, to a point of the
            player's own (default False; docs/RULES.md §10).
        six_block: Long Nardy's six-point block: ``"passed"`` (default: allowed once an
            opposing checker is past it) or ``"entered"`` (once one has entered its home).
        house_mars: Long Nardy: a loser with every checker home and none off loses three
            times the stake (default False).
        last_roll_draw: Long Nardy: the side that did not start has a last roll when the
            other is off; both off is a draw, reward 0 (default False).
        next_starter: Long Nardy match play: who starts each next game, ``"roll"``
            (default), ``"black"`` (who moved second) or ``"winner"`` (the last winner).
        reward: ``"points"`` (cube x 1, 2 or 3; default) or ``"win"`` (+-1).
        observation: the encoder, ``"tesauro"`` (float32[212]; default) or ``"compact"``.
        context: append the 72-value context block (variant, bomb, pins, match score,
            rule options); ``None`` (default): in every variant but standard, in match
            play and with a rule option on.
        match_length: 0 (default) for a money game, N (1..25) for a match to N points.
        match_reward: ``"result"`` (+-1 at the match's end; default) or ``"equity"``.
        max_turns: truncate a game after this many turns (default 2000,
            :data:`~bg_env.envs.config.DEFAULT_MAX_TURNS`; None: never).
        render_mode: ``None`` (default), ``"ansi"``, ``"human"`` or ``"rgb_array"``.

    Returns:
        The wrapped env; ``env.unwrapped`` is the :class:`raw_env`.

    Raises:
        ValueError: an unknown keyword or a bad value, named in the message.

    Example:
        >>> from bg_env import backgammon_v0
        >>> env = backgammon_v0.env(cube=True)
        >>> env.reset(seed=0)
        >>> env.agent_selection, env.action_space("player_0")
        ('player_0', Discrete(156))

    ``reset(seed=..., options=...)`` starts from a ``position_id``, ``match_id`` or
    ``xgid`` with given ``dice``. The observation, actions and rewards are in the module
    documentation (:mod:`bg_env.envs.backgammon`) and on the env's docs page.
    """
    return wrap(raw_env(**kwargs), illegal_reward=-1)


class raw_env(AECEnv):
    """Backgammon without wrappers: an illegal action raises :class:`IllegalActionError`
    and leaves the state unchanged. It takes the keywords of :func:`env`; the observation,
    actions and rewards are in the module docstring.

    Speed: a money game of any variant (with or without the context block and the cube),
    and each game of a match, started without options runs on the array kernels of
    :class:`bg_env.kernels.engine.EngineGame`, its dice drawn from ``np_random`` exactly as
    :class:`~bg_env.game.game.Game` draws them (the match itself is a
    :class:`~bg_env.game.match.Match`, as before). Reading :attr:`game` (or an accessor that
    uses it: ``position_id()``, ``dice``, ``render()``, ...) or an illegal action hands the
    game over to a :class:`~bg_env.game.game.Game` that plays the rest of it, the same
    game; the engine comes back at the next game (``reset()``, or a match's next game).

    Copies (``copy.deepcopy``, ``pickle``, ``cloudpickle``) are independent envs that go
    on exactly as the original would, in this process or another."""

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
            obs_space = context_space(obs_space)
        space = spaces.Dict(
            {
                "observation": obs_space,
                "action_mask": spaces.Box(0, 1, shape=(N_ACTIONS,), dtype=np.int8),
            }
        )
        self.observation_spaces = {a: space for a in self.possible_agents}
        self.match: Match | None = None
        """The match being played (``match_length`` > 0), else ``None``."""
        self.action_spaces = {a: ActionSpace(N_ACTIONS) for a in self.possible_agents}
        self.np_random, _ = seeding.np_random(None)
        self._sides = {a: i for i, a in enumerate(self.possible_agents)}
        self._no_rewards = dict.fromkeys(self.possible_agents, 0)  # (copied: cheaper than made)
        rules = self.config.rules()
        # The fast path: a game started without options runs on the kernels, on the
        # engine of its rules (a match's Crawford game has no cube): self._engines.
        self._engine = None
        if not PURE_PYTHON and self.config.batch_kernels_apply:
            self._engines, self._engine_rules = {rules: EngineGame(rules)}, rules
            self._engine = self._engines[rules]
            self._engine_sides = (np.zeros(1, np.int64), np.ones(1, np.int64))
            self._obs_shape, self._obs_dtype = (1,) + obs_space.shape, obs_space.dtype
            # The observation of the side to act, encoded by the kernel that played the
            # last decision (engine_kernels): the next last() copies it.
            self._next_obs = np.zeros(self._obs_shape, self._obs_dtype)
            self._mblock = match_block(self.config)  # the match's part of the context
        self._derive()
        self._fast = False
        self.game = Game(rules)
        self._started = False  # reset() has been called
        self._reset_bookkeeping()

    def _derive(self) -> None:
        """The observation kernels and the arrays they read (called directly: this is the
        hot path); made again in a copy, never copied."""
        self._encoder, self._encoders = None, {}
        if self._engine is not None:
            for engine in self._engines.values():
                self._bind(engine)
            self._encoder = self._encoders[self._engine_rules]
            self._next_obs_row = self._next_obs[0]

    def _bind(self, engine) -> None:
        """``engine``'s kernels (they encode the next observation into ``_next_obs``), and
        its observation kernel with its arguments into ``_encoders``."""
        games = engine.games
        kernel, encoder_args = games_kernel(self.config.observation), ()
        obs_extra = (self._next_obs,)  # the open/act kernels' last arguments
        open_kernel, act_kernel = engine_kernels(self.config.observation)
        if uses_engine_obs(self.config, games):  # the context block, a variant's turns
            kernel, open_kernel, act_kernel = encode_engine_games, *engine_obs_kernels()
            encoder_args = encoder_extra(self.config, games, self._mblock)
            obs_extra = engine_obs_extra(self.config, games, self._next_obs, self._mblock)
        engine.use_kernels(open_kernel, act_kernel, *obs_extra)
        self._encoders[games.game_rules] = (kernel, games.state, games.me, games.opp,
                                            self._engine_sides, self._obs_shape,
                                            self._obs_dtype, encoder_args)

    def _start_on_engine(self, match: Match | None, rng) -> bool:
        """Start the money game, or ``match``'s current game, on the kernels (on the
        engine of its rules); ``False`` (nothing started) when ``rng`` is not a numpy
        ``Generator``. ``match.game`` is ``None`` until :attr:`game` is read."""
        if match is not None:
            rules = match.game_rules()
            if rules not in self._engines:
                self._engines[rules] = EngineGame(rules)
                self._bind(self._engines[rules])
            self._engine, self._engine_rules = self._engines[rules], rules
            self._encoder = self._encoders[rules]
            write_match_block(self._mblock, match)
            match.game = None
        if not self._engine.open(rng, None if match is None else match.next_starter()):
            return False
        self._fast = True
        return True

    def _encode_next(self) -> None:
        """Encode the observation of the side to act into ``_next_obs`` again (the match's
        part of the context changed)."""
        kernel, state, me, opp, sides, _, _, extra = self._encoder
        kernel(state, me, opp, sides[self._engine.actor], self._next_obs, *extra)

    def __getstate__(self) -> dict:
        state = self.__dict__.copy()
        for name in ("_encoder", "_encoders", "_next_obs_row"):
            state.pop(name, None)
        return state

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self._derive()

    @property
    def game(self) -> Game:
        """The game being played (a :class:`~bg_env.game.game.Game`). In the fast path the
        state lives in arrays; the first read makes the Game (``last_play`` is then empty)
        and the environment goes on with it."""
        if self._fast:
            self._fast = False
            self._game = Game.from_games(self._engine.games, 0)
            if self.match is not None:
                self.match.game = self._game
        return self._game

    @game.setter
    def game(self, value: Game) -> None:
        self._fast = False
        self._game = value

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
            engine = self._engine
            if engine.actor == side:  # encoded when the last decision was played
                return {"observation": self._next_obs_row.copy(),
                        "action_mask": engine.mask.copy() if engine.phase != P_OVER
                        else np.zeros(N_ACTIONS, dtype=np.int8)}
            kernel, state, me, opp, sides, shape, dtype, extra = self._encoder
            out = np.empty(shape, dtype)
            kernel(state, me, opp, sides[side], out, *extra)  # encode_games
            return {"observation": out[0], "action_mask": np.zeros(N_ACTIONS, dtype=np.int8)}
        g = self.game
        # Fresh arrays at every call (encoding is one kernel call: cheaper than caching
        # and copying).
        if g.phase != Phase.OVER and g.actor == side:
            mask = g.legal_mask_int8()
        else:
            mask = np.zeros(N_ACTIONS, dtype=np.int8)
        return {"observation": observe_game(g, side, self.config, self.match), "action_mask": mask}

    def reset(self, seed=None, options=None):
        """Start a game.

        Args:
            seed: seeds the environment's generator (one seed, one game) and the agents'
                action spaces (``seed + i`` for agent i), so that
                ``action_space(agent).sample(mask)`` repeats too.
            options: where to start (:mod:`bg_env.envs.start`): ``position_id`` (board from
                the side of the agent to act), ``match_id`` (GNU Backgammon Match ID: cube,
                player on roll, dice; in match play the score), ``xgid``, ``dice``
                (``(a, b)``: the first turn's roll), ``agent`` (the agent on roll,
                ``player_0`` by default, when no ID says so). Without options: the
                standard opening roll.

        Raises:
            ValueError: an unknown option key or a bad value, naming it; the env is left
                as it was.
        """
        options = check_options(options)
        rng = seeding.np_random(seed)[0] if seed is not None else self.np_random
        if options:
            game, match = start_game(options, self.config, rng, self.possible_agents)
        self.np_random = rng
        if seed is not None:
            for i, agent in enumerate(self.possible_agents):  # action_space(a).sample(mask)
                self.action_spaces[agent].seed_on_use(seed + i)
        self.agents = self.possible_agents[:]
        self._started = True
        if not options:
            match = Match(self.config.match_length, self.config.rules()) if self.config.match_length else None
            if self._engine is not None and self._start_on_engine(match, rng):
                self.match = match
                self._reset_bookkeeping(self._engine.actor)
                self._sync()
                return
            game = match.new_game(rng) if match else Game(self.config.rules())
            if not match:
                game.opening(rng)
        self.match, self.game = match, game
        self._reset_bookkeeping()
        self._sync()

    def _reset_bookkeeping(self, actor: int | None = None) -> None:
        self.rewards = {a: 0 for a in self.agents}
        self._cumulative_rewards = {a: 0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.game.actor if actor is None else actor]

    def step(self, action):
        agent = self.agent_selection
        if not self.agents:  # every agent is done and removed: the episode is over
            raise step_refused(True)
        if self.terminations[agent] or self.truncations[agent]:
            return self._was_dead_step(action)
        if type(action) is not int:
            action = action_index(action)  # numpy integers pass; 3.7 raises
        engine = self._engine
        if self._fast and engine.act(action, self.np_random):
            self._cumulative_rewards[agent] = 0
            self.rewards = self._no_rewards.copy()  # (all agents play until the game ends)
            cap = self.config.max_turns
            if engine.phase != P_OVER and (cap is None or engine.turns < cap):
                self.agent_selection = self.possible_agents[engine.actor]  # (_sync, in short)
            else:
                over = engine.phase == P_OVER  # (in match play the next game may start)
                self._sync()
                if over:
                    self._accumulate_rewards()
        else:
            # an illegal action (the Game raises, naming it), or no numpy generator: the
            # Game takes the game over (or reset() was never called)
            if not self._started:
                raise step_refused(False)
            game = self.game
            if self._sides[agent] != game.actor:  # pragma: no cover - by agent_selection
                raise IllegalActionError(f"{agent} is not the agent to act")
            game.step(action, self.np_random)  # raises, state unchanged, if illegal
            self._cumulative_rewards[agent] = 0
            self.rewards = dict.fromkeys(self.agents, 0)
            self._sync()
            if game.phase == Phase.OVER:  # before the end every reward is 0: nothing to add
                self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _sync(self) -> None:
        """After a reset or a step: the next game of a match started,
        and rewards, terminations, truncations, infos and ``agent_selection`` set."""
        if self._fast:
            if self._engine.over and self.match is not None and self._next_game_of_match(
                    self._engine.result()):  # the match is over: rewards and infos are set
                self.agent_selection = self.possible_agents[self._engine.actor]
                return
        else:
            g = self.game
            if g.phase == Phase.OVER and self.match is not None and self._next_game_of_match(
                    g.result):  # the match is over: rewards and infos are set
                self.agent_selection = self.possible_agents[g.actor]
                return
        if self._fast:  # (the next game of a match may have started on the kernels)
            engine = self._engine
            result = engine.result() if engine.over else None
            actor, turns = engine.actor, engine.turns
        else:
            g = self.game
            result, actor, turns = g.result if g.phase == Phase.OVER else None, g.actor, g.turns
        if result is not None:
            self._pay(result)
        elif self.config.max_turns is not None and turns >= self.config.max_turns:
            for a in self.agents:
                self.truncations[a] = True
        self.agent_selection = self.possible_agents[actor]

    def _pay(self, r) -> None:
        """A finished money game (or match game with its own episode): rewards, infos."""
        self.rewards.update(game_rewards(r, self.possible_agents, self.config.reward))
        for a in self.agents:
            self.terminations[a] = True
            self.infos[a] = game_info(r, self.possible_agents)

    def _next_game_of_match(self, result) -> bool:
        """Match play: record the finished game, pay its reward, and start the next game
        (on the kernels when it can) unless the match is over; whether it is over (then
        the match's rewards and infos are set)."""
        match = self.match
        equity = self.config.match_reward == "equity"
        change = [2 * match.equity_change(result, side) for side in (0, 1)] if equity else [0, 0]
        match.record(result)
        last_game = game_info(result, self.possible_agents)
        for side, a in enumerate(self.possible_agents):
            self.rewards[a] = change[side]
            self.infos[a] = {"game": last_game, "score": match.score}
        if not match.is_over:
            if self._engine is None or not self._start_on_engine(match, self.np_random):
                self.game = match.new_game(self.np_random)
            return False
        winner = self.possible_agents[match.winner]
        for side, a in enumerate(self.possible_agents):
            if not equity:
                self.rewards[a] = 1 if side == match.winner else -1
            self.terminations[a] = True
            self.infos[a] = {"game": last_game, "score": match.score, "winner": winner,
                             "games": match.games, "crawford_games": match.crawford_games_played}
        if self._fast:  # the last observation shows the final score
            write_match_block(self._mblock, match)
            self._encode_next()
        return True

    # ------------------------------------------------------------- accessors
    @property
    def on_kernels(self) -> bool:
        """Whether the game being played runs on the kernels now (the fast path), not on a
        :class:`~bg_env.game.game.Game` (reading :attr:`game` hands it over)."""
        return self._fast

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
        """GNU Backgammon Position ID from the side of the agent to act. With a double on
        offer that is the doubled side; GNU Backgammon's own ID at that moment is the
        doubler's (its player on roll), and its ``set matchid`` refuses such a state."""
        return self.position.position_id()

    def match_id(self) -> str:
        """GNU Backgammon Match ID of the current state (money game: length 0 and the
        Jacoby flag; in match play the length, the score and the Crawford flag)."""
        g = self.game
        return g.match_id() if self.match is None else self.match.match_id(g.turn, game=g)

    def kernel_row(self) -> tuple:
        """The game being played as the kernels read it, ``(state, me, opp, vt)``: views of
        its row of :mod:`bg_env.kernels.batch` (``vt``: the variant turns, ``None`` when
        its moves are standard), read without handing a game on the kernels over to a
        Game. For built-in opponents that decide in the kernels; to read only."""
        games = self._engine.games if self._fast else self.game.games
        vt = games.kernel_variant_args
        return games.state[0], games.me[0], games.opp[0], (vt[0] if vt else None)

    def legal_actions(self) -> list[int]:
        """Legal actions of the agent to act, ascending (none once the game is over); on the
        kernels read from their mask, the game staying there."""
        if self._fast:
            engine = self._engine
            return engine.mask.nonzero()[0].tolist() if engine.phase != P_OVER else []
        return self.game.legal_actions()

    # --------------------------------------------------------------- render
    def render(self):
        if self.render_mode is None:
            import gymnasium

            gymnasium.logger.warn("render() called without a render_mode; pass render_mode=...")
            return None
        if self.render_mode == "rgb_array":
            return game_frame(self.game, tuple(self.possible_agents), self.match).image()
        text = game_text(self.game, tuple(self.possible_agents), self.match)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def _repr_png_(self) -> bytes:
        """The picture of the game (a notebook's display), whatever the render mode."""
        return game_frame(self.game, tuple(self.possible_agents), self.match).png()

    def close(self):
        pass
