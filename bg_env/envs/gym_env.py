"""A single-agent Gymnasium view: one learner against a fixed opponent.

Description:
    ``gymnasium.make("bg_env/Backgammon-v0", opponent="random")``. The learner plays one
    side of a :class:`~bg_env.envs.backgammon.raw_env` game (its colour drawn at random
    each episode unless ``learner`` fixes it); the opponent's decisions are made inside
    :meth:`step`. Every learner decision is one step, as in the two-agent env.

Observation:
    The two-agent env's observation vector from the learner's side (``"tesauro"``:
    float32[212] by default; see :mod:`bg_env.envs.observation`). The legal actions come
    from :meth:`action_masks`, the method sb3-contrib's ``MaskablePPO`` calls, and are
    also in ``info["action_mask"]``.

Action:
    ``Discrete(156)`` as in :mod:`bg_env.actions`.

Rewards:
    The two-agent reward from the learner's side: 0 until the game ends, then
    +-points (or +-1 with ``reward="win"``). The opponent's decisions before the
    learner's first one are made in :meth:`reset`; what they paid the learner (a game
    started by ``options`` that the opponent finishes at once, a match game's equity) is
    ``info["opening_reward"]`` of the reset (no step repeats it).

Illegal actions:
    An action outside the mask (as ``gymnasium.utils.env_checker`` and SB3's
    ``check_env`` send) ends the episode as a loss by forfeit: reward
    ``illegal_reward`` (-1 by default), ``terminated=True``, ``info["illegal_action"]``
    set, and the mask (``info["action_mask"]``, :meth:`action_masks`) all zeros, as at
    the end of a game. With ``illegal_action="raise"`` it raises ``IllegalActionError``
    instead. The game state is never corrupted.

Rendering:
    ``render_mode="human"`` prints the text board once a :meth:`reset` and once a
    :meth:`step` (the learner's turn, or the game's end), as Gymnasium's envs do;
    ``"ansi"`` and ``"rgb_array"`` return the text board and the picture from
    :meth:`render`.

Arguments:
    The keywords of :class:`BackgammonEnv` (its docstring lists them).
"""

from __future__ import annotations

from typing import Any, Callable

import gymnasium as gym
import numpy as np
from gymnasium.utils import seeding

from ..rules.actions import N_ACTIONS
from ..game.game import IllegalActionError, action_index
from ..kernels.batch_variants import uses_variant_turn
from ..kernels.opponents import PUBEVAL_KEY, new_work, pubeval_turn_action
from .backgammon import raw_env
from .config import check_reward
from .opponents import make_opponent, opponent_step, seed_opponent
from .start import step_refused

__all__ = ["BackgammonEnv", "RandomPolicy", "KernelPubeval", "resolve_opponent"]

_NO_ACTIONS = np.zeros(N_ACTIONS, dtype=np.int8)
"""The mask when the learner has no action (episode over, or the opponent to play); shared
and read-only: masks are replaced, never written into."""
_NO_ACTIONS.flags.writeable = False


class RandomPolicy:
    """Uniform over the legal actions of the agent to act, from the env's generator."""

    def act(self, env: raw_env) -> int:
        legal = env.legal_actions()
        return int(legal[env.np_random.integers(len(legal))])


class KernelPubeval:
    """Tesauro's pubeval as the built-in ``opponent="pubeval"`` of a variant with standard
    moves: it decides in the kernels (:func:`bg_env.kernels.opponents.pubeval_turn_action`,
    as the vector env's pubeval does), so a game on the kernels stays there. The same
    decisions as ``agents.players.pubeval.PubevalAgent``: its favourite play each turn,
    never doubles, always takes."""

    name = "pubeval"

    def __init__(self) -> None:
        self._work = new_work()
        self._key = np.full(PUBEVAL_KEY, -1, np.int64)

    def act(self, env: raw_env) -> int:
        s, me, opp, vt = env.kernel_row()
        if vt is not None:
            raise ValueError("KernelPubeval plays variants with standard moves only")
        return int(pubeval_turn_action(s, me, opp, self._key, self._work))


def resolve_opponent(opponent: Any, variant: str = "standard") -> Callable[[raw_env], int]:
    """Turn an agent, a callable or a spec string into ``f(env) -> action``; ``"random"``
    and (for a ``variant`` with standard moves) ``"pubeval"`` are built in."""
    if opponent is None or opponent == "random":
        return RandomPolicy().act
    if opponent == "pubeval" and not uses_variant_turn(variant):
        return KernelPubeval().act
    if isinstance(opponent, str):
        return make_opponent(opponent).act
    if hasattr(opponent, "act"):
        return opponent.act
    if callable(opponent):
        return opponent
    raise ValueError(f"opponent={opponent!r}: expected an agent with act(env), a callable or a spec")


def _game_seed(rng: np.random.Generator) -> int:
    """The game's seed, drawn from the env's freshly seeded generator."""
    return int(rng.integers(2**31))


class BackgammonEnv(gym.Env):
    """One learner against a fixed opponent, one checker move or cube decision a step:
    ``gymnasium.make("bg_env/Backgammon-v0", opponent="pubeval")``. The observation,
    actions, rewards and rendering are in the module docstring (:mod:`bg_env.envs.gym_env`).

    Args:
        opponent: an agent object with ``act(env) -> int``, a callable ``f(env) -> int``, or
            a spec string; ``"random"`` (uniform over the legal actions) is built in, other
            specs (``"pubeval"``, ``"td"``, ...) are looked up in the opponent registry
            (:mod:`bg_env.envs.opponents`), which the agents package fills. An opponent with
            a generator of its own (``"random:7"``, ``agents.RandomAgent``) is reseeded by
            ``reset(seed=...)`` (:func:`~bg_env.envs.opponents.seed_opponent`): one seed, one game.
        learner: ``None`` (random colour per episode), ``"player_0"`` or ``"player_1"``.
        illegal_action: ``"lose"`` (default) or ``"raise"``.
        illegal_reward: the learner's reward for an illegal action under ``"lose"``.
        **config: every keyword of :func:`bg_env.backgammon_v0.env` (``variant``,
            ``cube``, ``reward``, ``observation``, ``match_length``, ...).

    Example:
        >>> import gymnasium as gym, bg_env
        >>> env = gym.make("bg_env/Backgammon-v0", opponent="random")
        >>> obs, info = env.reset(seed=0)
        >>> obs.shape, int(env.unwrapped.action_masks().sum()) > 0
        ((212,), True)
    """

    metadata = {"render_modes": ["ansi", "human", "rgb_array"], "render_fps": 2}

    def __init__(self, opponent: Any = "random", learner: str | None = None,
                 illegal_action: str = "lose", illegal_reward: float = -1.0, **config):
        if learner not in (None, "player_0", "player_1"):
            raise ValueError(f"learner={learner!r}: expected None, 'player_0' or 'player_1'")
        if illegal_action not in ("lose", "raise"):
            raise ValueError(f"illegal_action={illegal_action!r}: expected 'lose' or 'raise'")
        human = config.get("render_mode") == "human"
        # "human": the game is drawn once a reset() and a step(), as Gymnasium's envs do,
        # not at each of the opponent's decisions inside a step (the two-agent env's way)
        self.game_env = raw_env(**{**config, "render_mode": "ansi"} if human else config)
        self.render_mode = "human" if human else self.game_env.render_mode
        self.opponent = resolve_opponent(opponent, self.game_env.config.rules().variant_spec)
        self.learner_choice = learner
        self.learner = learner or "player_0"
        self.illegal_action = illegal_action
        self.illegal_reward = check_reward("illegal_reward", illegal_reward)
        self.observation_space = self.game_env.observation_space("player_0")["observation"]
        self.action_space = gym.spaces.Discrete(N_ACTIONS)
        self._mask = _NO_ACTIONS
        self._over = True
        self._started = False  # reset() has been called

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        # A seed reseeds the game's generator from ours; otherwise the game continues its
        # own. The game refuses bad options first, changing nothing; only then are this
        # env's and the opponent's generators reseeded.
        fresh = None if seed is None else seeding.np_random(seed)[0]
        self.game_env.reset(seed=None if fresh is None else _game_seed(fresh), options=options)
        super().reset(seed=seed)
        if seed is not None:
            _game_seed(self.np_random)  # the draw above: the generator goes on from there
            seed_opponent(self.opponent, seed)
        self._await_opponent()
        if self.learner_choice is None:
            self.learner = self.game_env.possible_agents[int(self.np_random.integers(2))]
        else:
            self.learner = self.learner_choice
        reward = float(self.game_env.rewards[self.learner]) + self._play_opponent()
        self._over = self._done()
        obs, info = self._observe()
        info["opening_reward"] = reward
        self._started = True
        self._show()
        return obs, info

    def _show(self) -> None:
        """In ``"human"`` mode, the board as the learner's turn (or the game's end) has it."""
        if self.render_mode == "human":
            self.render()

    def _done(self) -> bool:
        g = self.game_env
        return g.terminations[self.learner] or g.truncations[self.learner]

    def _await_opponent(self) -> None:
        """The episode counts as over, with no legal action, until the opponent has played
        and :meth:`_observe` says otherwise: if the opponent fails (an error in it, or an
        answer :func:`~bg_env.envs.opponents.opponent_step` refuses), the episode stays over
        rather than go on from a half-played turn."""
        self._over = True
        self._mask = _NO_ACTIONS

    def _play_opponent(self) -> float:
        """The opponent decides until the learner must act or the episode ends; the
        learner's rewards on the way, summed (in match play with ``match_reward="equity"``
        every game that ends pays one)."""
        g = self.game_env
        reward = 0.0
        while not self._done() and g.agent_selection != self.learner:
            opponent_step(g, self.opponent(g))
            reward += float(g.rewards[self.learner])
        return reward

    def _observe(self, forfeit: bool = False):
        """The learner's observation and info; after a ``forfeit`` (an illegal action ended
        the episode) the mask is all zeros, as at the end of a game."""
        obs = self.game_env.observe(self.learner)
        self._mask = _NO_ACTIONS if forfeit else obs["action_mask"]
        info = {"action_mask": self._mask.copy()}
        info.update(self.game_env.infos[self.learner])
        return obs["observation"], info

    def action_masks(self) -> np.ndarray:
        """Boolean mask of the learner's legal actions (sb3-contrib's MaskablePPO)."""
        return self._mask.astype(bool)

    def step(self, action):
        if self._over:
            raise step_refused(self._started)
        action = action_index(action)  # numpy integers pass; 3.7 raises
        g = self.game_env
        if not (0 <= action < N_ACTIONS and self._mask[action]):
            if self.illegal_action == "raise":
                raise IllegalActionError(
                    f"action {action} is not legal; legal: {np.flatnonzero(self._mask).tolist()}"
                )
            self._over = True
            obs, info = self._observe(forfeit=True)
            info["illegal_action"] = action
            self._show()
            return obs, self.illegal_reward, True, False, info
        g.step(action)
        self._await_opponent()
        reward = float(g.rewards[self.learner])
        if not self._done():
            reward += self._play_opponent()
        self._over = self._done()
        terminated = bool(g.terminations[self.learner])
        truncated = bool(g.truncations[self.learner]) and not terminated
        obs, info = self._observe()
        self._show()
        return obs, reward, terminated, truncated, info

    @property
    def phase(self) -> str:
        return self.game_env.game.phase

    def render(self):
        """``"ansi"``: the text board; ``"rgb_array"``: the picture; ``"human"``: the text
        board printed (also by each :meth:`reset` and :meth:`step`)."""
        if self.render_mode == "human":
            print(self.game_env.render())
            return None
        return self.game_env.render()

    def _repr_png_(self) -> bytes:
        """The picture of the game (a notebook's display), whatever the render mode."""
        return self.game_env._repr_png_()

    def close(self):
        self.game_env.close()

