"""The play-level view as a PettingZoo AEC environment: one step chooses a whole play.

Description:
    ``bg_env.backgammon_plays_v0.env(**config)``: a cubeless game for two agents,
    ``player_0`` and ``player_1`` (PettingZoo classic style, as
    :mod:`bg_env.envs.backgammon`). Each step the agent on roll picks one of the legal
    plays of its roll, seen as the candidates' afterstates: the same candidates, order,
    cut and features as the Gymnasium play env ``bg_env/BackgammonPlays-v0``
    (:mod:`bg_env.envs.play_env`), here for self-play between two learners. Every rule
    variant can be played (``variant=``, :data:`bg_env.rules.variants.VARIANTS`).

Observation:
    ``{"observation": float32[K * N_FEATURES], "action_mask": int8[K]}`` with ``K =
    max_candidates``. For the agent on roll ``observation`` is the flat ``(K,
    N_FEATURES)`` table of :mod:`bg_env.envs.play_env` (row ``i``: the features of
    candidate ``i``'s resulting board from the mover's side, built by
    :func:`~bg_env.envs.play_env.play_features` / ``candidate_features``; padding rows
    all zeros) and ``action_mask`` marks the real candidates. The other agent, and
    everyone once the game is over, gets zeros for both. In Long Nardy the opponent's
    checkers are renumbered onto the mover's points first
    (:func:`~bg_env.envs.context.standard_view`), as the checker-move encoders do; Plakoto
    pins and the nuclear bomb's owner are not in the table (the 201 columns have no room
    for them).

Candidates:
    All distinct legal plays of the roll (one per resulting board), ordered and, past
    ``K``, cut exactly as in the Gymnasium env (:func:`~bg_env.envs.play_env.
    order_candidates`). :attr:`raw_env.plays` holds the :class:`~bg_env.rules.moves.Play`
    objects behind the rows, in row order (``plays[i]`` is row ``i``); ``infos[agent]``
    of the agent on roll gives ``n_plays`` (the count before the cut) and ``dropped``.
    Nuclear: before rolling, a side that may set off the bomb is asked first, with two
    rows: row 0 rolls (its board unchanged), row 1 sets off the bomb (its board after
    the blast); the rows' plays have no moves and ``infos[agent]["decision"]`` is
    ``"bomb"`` (``"play"`` otherwise). A bomb that would change nothing (no blots) is not
    offered: the side just rolls. After that roll, moves forced from the start may
    already be made, so ``plays[i].start`` is the position now, not the turn's start.

Forced turns:
    A turn with exactly one legal play (a forced play, or no legal move at all) is played
    automatically and never asked: the agent on roll always has at least two candidates.
    A game can end (or be truncated) inside ``reset()`` or a ``step()`` without the other
    agent ever being asked.

Action:
    ``Discrete(K)``: the index of a candidate row. The raw env raises
    :class:`~bg_env.game.game.IllegalActionError` for an index out of range or on a
    padding row, or an action that is not an integer (``3.0``, ``True``; numpy integers
    pass), naming the action and the number of candidates, and changes nothing;
    :func:`env` ends the game instead, ``-1`` to the offender (PettingZoo's
    ``TerminateIllegalWrapper``).

Rewards:
    0 until the game ends; then ``+points`` to the winner and ``-points`` to the loser,
    ``points`` = 1, 2 or 3 times the cube value (always 1 here, save ``auto_doubles``
    which never applies cubeless) under the variant's scoring and ``gammons``
    (``reward="points"``: :attr:`GameResult.points`), or +-1 (``reward="win"``). At the
    end ``infos[agent]`` holds ``outcome``, ``cube_value``, ``points`` and ``winner``.

Episode End:
    Terminated when the game ends (a cubeless game always does); truncated at the first
    decision once ``max_turns`` turns have been completed, when that is set (turns with
    one legal play are played without a decision, so the count may pass it).

Arguments:
    See :class:`PlaysEnvConfig`. An unknown key or a bad value raises ``ValueError``
    naming it; ``cube=True`` is an error (the view is cubeless).

``reset(seed=..., options={"position_id": ID, "dice": (a, b), "agent": "player_1"})``
starts with ``agent`` (``player_0`` by default) on roll in the position ``ID`` (from
that agent's side) with the given dice or a roll; without options, the opening roll.
The same seed gives the same game.

Version History:
    * v0: initial release.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv

from ..rules.actions import BOMB, ROLL
from ..game.game import Game, IllegalActionError, Phase, Rules, action_index, check_dice
from ..rules.cube import check_count
from ..rules.moves import Play
from ..rules.position import Position, render_text
from ..rules.variants import PinnedPosition, explode
from .candidates import (
    DEFAULT_MAX_CANDIDATES,
    MAX_CANDIDATES,
    FEATURE_HIGH,
    N_FEATURES,
    order_candidates,
    play_features,
)
from .config import DEFAULT_MAX_TURNS, MAX_TURNS, game_info, game_rewards
from .frame import game_frame, result_line
from .start import check_options, step_refused
from .wrappers import wrap

__all__ = ["env", "raw_env", "PlaysEnvConfig", "IllegalActionError"]

REWARDS = ("points", "win")
RENDER_MODES = ("ansi", "human", "rgb_array")
START_OPTIONS = ("position_id", "dice", "agent")
"""The keys ``reset(options=...)`` accepts."""


@dataclass(frozen=True)
class PlaysEnvConfig:
    """Everything the play-level AEC env can be configured with: the rule options of
    :class:`~bg_env.game.game.Rules` (``variant``, ``gammons``, ``jacoby``, ...; ``cube``
    only as ``False``), passed flat to :meth:`from_kwargs`, and the fields below."""

    game_rules: Rules = field(default_factory=lambda: Rules(cube=False))
    """The rule options; always cubeless."""
    reward: str = "points"
    """``"points"`` (1, 2 or 3 under the variant's scoring) or ``"win"`` (+-1)."""
    max_candidates: int = DEFAULT_MAX_CANDIDATES
    """K: the number of candidate rows (and of actions)."""
    max_turns: int | None = DEFAULT_MAX_TURNS
    """Truncate the game at the first decision after this many completed turns (``None``
    = never)."""
    render_mode: str | None = None
    """``"ansi"``, ``"human"`` or ``"rgb_array"``."""

    def __post_init__(self) -> None:
        if self.game_rules.cube:
            raise ValueError("cube=True: the play-level env is cubeless (cube=False only)")
        if self.reward not in REWARDS:
            raise ValueError(f"reward={self.reward!r}: expected one of {list(REWARDS)}")
        check_count("max_candidates", self.max_candidates, 2, MAX_CANDIDATES)
        if self.max_turns is not None:
            check_count("max_turns", self.max_turns, 1, MAX_TURNS, "or None: never")
        if self.render_mode not in (None,) + RENDER_MODES:
            raise ValueError(
                f"render_mode={self.render_mode!r}: expected None or one of {list(RENDER_MODES)}")

    @classmethod
    def keys(cls) -> list[str]:
        """Every key :meth:`from_kwargs` accepts."""
        return Rules.keys() + [f.name for f in fields(cls) if f.name != "game_rules"]

    @classmethod
    def from_kwargs(cls, **kwargs) -> "PlaysEnvConfig":
        """Build a config from flat keys, naming any unknown key and the allowed ones."""
        known = cls.keys()
        unknown = sorted(set(kwargs) - set(known))
        if unknown:
            raise ValueError(f"unknown config key(s) {unknown}; allowed keys: {known}")
        rule_keys = set(Rules.keys())
        rules = {k: v for k, v in kwargs.items() if k in rule_keys}
        if rules.get("cube", False) is not False:
            raise ValueError(f"cube={rules['cube']!r}: the play-level env is cubeless (cube=False only)")
        rules["cube"] = False
        return cls(Rules(**rules), **{k: v for k, v in kwargs.items() if k not in rule_keys})


def env(**kwargs) -> AECEnv:
    """The environment with PettingZoo's standard wrappers (as
    :func:`bg_env.envs.backgammon.env`): an illegal action ends the game against the
    offender (reward -1), actions out of range are rejected, the API order is enforced."""
    return wrap(raw_env(**kwargs), illegal_reward=-1)


class raw_env(AECEnv):
    """The play-level view without wrappers: an illegal action raises
    :class:`IllegalActionError` and leaves the state unchanged. See the module docstring."""

    metadata = {
        "name": "backgammon_plays_v0",
        "render_modes": list(RENDER_MODES),
        "is_parallelizable": False,
        "render_fps": 2,
    }

    def __init__(self, **kwargs):
        super().__init__()
        self.config = PlaysEnvConfig.from_kwargs(**kwargs)
        self.render_mode = self.config.render_mode
        self.max_candidates = k = self.config.max_candidates
        self.possible_agents = ["player_0", "player_1"]
        self.agents = self.possible_agents[:]
        space = spaces.Dict({
            "observation": spaces.Box(-FEATURE_HIGH, FEATURE_HIGH, shape=(k * N_FEATURES,), dtype=np.float32),
            "action_mask": spaces.Box(0, 1, shape=(k,), dtype=np.int8),
        })
        self.observation_spaces = {a: space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(k) for a in self.possible_agents}
        self.np_random, _ = seeding.np_random(None)
        self.game = Game(self.config.game_rules)
        self.plays: list[Play] = []
        """The plays behind the candidate rows of the agent on roll, in row order (empty
        when nobody is asked: the game is over or truncated)."""
        self.decision = "play"
        """``"play"`` or, in the nuclear variant before a roll, ``"bomb"``."""
        self._n_plays = 0
        self._table: np.ndarray | None = None
        self._started = False  # reset() has been called
        self._reset_bookkeeping()

    # ------------------------------------------------------------------ API
    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def observe(self, agent):
        if agent not in self.possible_agents:
            raise ValueError(f"agent {agent!r}: expected one of {self.possible_agents}")
        k = self.max_candidates
        mask = np.zeros(k, dtype=np.int8)
        if agent != self.agent_selection or not self.plays:
            return {"observation": np.zeros(k * N_FEATURES, dtype=np.float32), "action_mask": mask}
        if self._table is None:
            table = np.zeros((k, N_FEATURES), dtype=np.float32)
            table[: len(self.plays)] = self._features(self.plays)
            self._table = table.reshape(-1)
        mask[: len(self.plays)] = 1
        return {"observation": self._table.copy(), "action_mask": mask}

    def _features(self, plays: list[Play]) -> np.ndarray:
        return play_features(plays, self.game.variant)

    def reset(self, seed=None, options=None):
        """Start a game.

        Args:
            seed: seeds the environment's generator (one seed, one game) and the agents'
                action spaces (``seed + i`` for agent i), so that
                ``action_space(agent).sample(mask)`` repeats too.
            options: optional ``position_id`` (the board from the side of the agent on
                roll; the start position by default), ``dice`` (``(a, b)``, that agent's
                roll) and ``agent`` (the agent on roll, ``player_0`` by default), as the
                checker-move env takes them (:mod:`bg_env.envs.start`): with any of them the
                game starts there without an opening roll; with none, the opening roll.

        Raises:
            ValueError: an unknown key or a bad value, naming it (the env is unchanged).
        """
        options = check_options(options, START_OPTIONS)
        rng = seeding.np_random(seed)[0] if seed is not None else self.np_random
        if options:
            game = self._start_at(options, rng)
        else:
            game = Game(self.config.game_rules)
            game.opening(rng)
        self.np_random, self.game = rng, game
        if seed is not None:
            for i, agent in enumerate(self.possible_agents):  # action_space(a).sample(mask)
                self.action_spaces[agent].seed(seed + i)
        self.agents = self.possible_agents[:]
        self._started = True
        self._reset_bookkeeping()
        self._advance()
        if self.game.phase == Phase.OVER:
            self._accumulate_rewards()

    def _start_at(self, options, rng) -> Game:
        agent = options.get("agent", "player_0")
        if agent not in self.possible_agents:
            raise ValueError(f"options['agent']={agent!r}: expected one of {self.possible_agents}")
        rules = self.config.game_rules
        variant = Game(rules).variant
        pos = (variant.position_from_id(options["position_id"]) if "position_id" in options
               else variant.start_position())
        dice = check_dice(options["dice"], "options['dice']") if "dice" in options else None
        return Game.from_position(pos, rng, rules, turn=self.possible_agents.index(agent),
                                  dice=dice)

    def _reset_bookkeeping(self) -> None:
        self.rewards = {a: 0 for a in self.agents}
        self._cumulative_rewards = {a: 0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.game.turn]

    def _advance(self) -> None:
        """Play the one-choice turns until an agent has a real choice, the game is over
        or truncated; set the candidates, ``agent_selection``, rewards and infos."""
        g, rng = self.game, self.np_random
        self.plays, self._n_plays, self._table, self.decision = [], 0, None, "play"
        max_turns = self.config.max_turns
        while True:
            if g.phase == Phase.OVER:
                self._finish()
                return
            if max_turns is not None and g.turns >= max_turns:
                for a in self.agents:
                    self.truncations[a] = True
                self.agent_selection = self.possible_agents[g.turn]
                return
            if g.phase == Phase.CUBE:  # nuclear: the bomb question (cubeless: nothing else)
                blast = explode(g.position)
                if blast == g.position:
                    g.step(ROLL, rng)
                    continue
                self.decision = "bomb"
                self.plays = [Play(g.position, (), g.position), Play(g.position, (), blast)]
                self._n_plays = 2
                break
            plays = g.legal_continuations()
            if len(plays) == 1:
                g.play(plays[0], rng)
                continue
            self._n_plays = len(plays)
            self.plays, _ = order_candidates(plays, self.max_candidates)
            break
        agent = self.agent_selection = self.possible_agents[g.turn]
        for a in self.agents:
            self.infos[a] = {}
        self.infos[agent] = {"decision": self.decision, "n_plays": self._n_plays,
                             "dropped": self._n_plays - len(self.plays)}

    def _finish(self) -> None:
        r = self.game.result
        self.rewards.update(game_rewards(r, self.possible_agents, self.config.reward))
        for a in self.agents:
            self.terminations[a] = True
            self.infos[a] = game_info(r, self.possible_agents)
        self.agent_selection = self.possible_agents[self.game.actor]

    def step(self, action):
        agent = self.agent_selection
        if not self.agents:  # every agent is done and removed: the episode is over
            raise step_refused(True)
        if self.terminations[agent] or self.truncations[agent]:
            return self._was_dead_step(action)
        if not self._started:
            raise step_refused(False)
        index = self._candidate_index(action)
        if self.decision == "bomb":
            self.game.step(BOMB if index == 1 else ROLL, self.np_random)
        else:
            self.game.play(self.plays[index], self.np_random)
        self._cumulative_rewards[agent] = 0
        self.rewards = dict.fromkeys(self.agents, 0)
        self._advance()
        if self.game.phase == Phase.OVER:
            self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _candidate_index(self, action) -> int:
        """``action`` as the row of a real candidate of the agent on roll: an integer
        (Python or numpy, or a 0-d integer array), as the checker-move env takes it.

        Raises:
            IllegalActionError: not an integer (``3.0``, ``True``) or not a candidate's row,
                naming it and the candidates.
        """
        n = len(self.plays)
        legal = f"{n} candidates, legal actions 0..{n - 1}"
        try:
            index = action_index(action)
        except IllegalActionError:
            raise IllegalActionError(
                f"action {action!r}: expected an integer action index; "
                f"{self.agent_selection} has {legal}") from None
        if not 0 <= index < n:
            raise IllegalActionError(
                f"action {action!r} is not a candidate of {self.agent_selection}: {legal}")
        return index

    # ------------------------------------------------------------- accessors
    @property
    def dice(self) -> tuple[int, int] | None:
        """The roll the agent on roll is playing (``None`` before a roll or at the end)."""
        g = self.game
        return tuple(g.dice) if g.phase == Phase.MOVE and g.dice else None

    @property
    def position(self) -> Position:
        """The board from the side of the agent on roll."""
        return self.game.position

    # --------------------------------------------------------------- render
    def render(self):
        if self.render_mode is None:
            import gymnasium

            gymnasium.logger.warn("render() called without a render_mode; pass render_mode=...")
            return None
        g = self.game
        frame = game_frame(g, tuple(self.possible_agents))
        if self.render_mode == "rgb_array":
            return frame.image()
        extra = [f"{frame.line()}; {len(self.plays)} candidates ({self.decision})"]
        if g.result:
            extra.append(result_line(g.result, self.possible_agents))
        text = render_text(frame.board, frame.dice, extra, status=frame.text_status)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def _repr_png_(self) -> bytes:
        """The picture of the game (a notebook's display), whatever the render mode."""
        return game_frame(self.game, tuple(self.possible_agents)).png()

    def close(self):
        pass
