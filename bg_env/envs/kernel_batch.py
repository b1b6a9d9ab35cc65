"""Many single-agent games against a built-in opponent (random or pubeval), stepped by one
kernel call.

The engine room of the batched vector envs: Stable-Baselines3's
(:class:`bg_env.envs.vector.BackgammonVecEnv`) and Gymnasium's
(:class:`bg_env.envs.gym_vector.BackgammonVectorEnv`) are thin adapters over
:class:`KernelBatch`, which needs neither library. All games live in the numpy arrays of
:class:`bg_env.core.batch.Games`; one call to the kernels steps them all (the learner's
action, then the random opponent's decisions until the learner must act again). A game
that ends is started again at once, in the same step (its last observation and result are
reported in that step's info). Standard money games without the context block only
(:attr:`EnvConfig.batch_kernels_apply <bg_env.envs.backgammon.EnvConfig.batch_kernels_apply>`).
"""

from __future__ import annotations

import numpy as np

from ..core import batch, batch_opponents
from ..core.actions import N_ACTIONS
from ..core.game import IllegalActionError
from .backgammon import EnvConfig
from .observation import encode_games, observation_space

__all__ = ["KernelBatch", "AGENTS", "KERNEL_OPPONENTS"]

AGENTS = ("player_0", "player_1")

RUNNING, TERMINATED, TRUNCATED, ILLEGAL = 0, 1, 2, 3
"""The kernels' status codes of a game after a step."""

KERNEL_OPPONENTS = tuple(batch_opponents.OPPONENTS)
"""The opponents the kernels play themselves (:mod:`bg_env.core.batch`,
:mod:`bg_env.core.batch_opponents`)."""


class KernelBatch:
    """``num_envs`` games of one learner against a built-in opponent.

    Args:
        num_envs: how many games.
        learner: ``None`` (the learner's colour drawn per game), ``"player_0"`` or
            ``"player_1"``.
        illegal_action: ``"lose"`` (the game ends, reward ``illegal_reward``) or
            ``"raise"`` (:class:`~bg_env.core.game.IllegalActionError`, nothing stepped).
        illegal_reward: the reward for an illegal action under ``"lose"``.
        opponent: ``"random"`` (uniform over the legal actions) or ``"pubeval"``
            (Tesauro's pubeval, cubeless, as ``agents.pubeval.PubevalAgent``).
        **config: :class:`~bg_env.envs.backgammon.EnvConfig` keys (no ``render_mode``).

    Raises:
        ValueError: a bad argument, or a configuration the kernels cannot play.
    """

    def __init__(self, num_envs: int, learner: str | None = None, illegal_action: str = "lose",
                 illegal_reward: float = -1.0, opponent: str = "random", **config):
        if opponent not in KERNEL_OPPONENTS:
            raise ValueError(f"opponent={opponent!r}: the kernels play {list(KERNEL_OPPONENTS)}")
        if (not isinstance(num_envs, (int, np.integer)) or isinstance(num_envs, bool)
                or num_envs < 1):
            raise ValueError(f"num_envs={num_envs!r}: expected a positive integer")
        if learner not in (None,) + AGENTS:
            raise ValueError(f"learner={learner!r}: expected None, 'player_0' or 'player_1'")
        if illegal_action not in ("lose", "raise"):
            raise ValueError(f"illegal_action={illegal_action!r}: expected 'lose' or 'raise'")
        self.config = EnvConfig.from_kwargs(**config)
        if not self.config.batch_kernels_apply:
            raise ValueError(
                "the batched kernels play standard money games without the context block; "
                "use make_vec_env for variants, matches or context=True")
        if self.config.render_mode is not None:
            raise ValueError("render_mode: the batched kernels do not render; use GymVecEnv")
        self.num_envs = int(num_envs)
        self.opponent = opponent
        self.games = batch.Games(self.num_envs, self.config.rules())
        self.learner = -1 if learner is None else AGENTS.index(learner)
        self.illegal_action = illegal_action
        self.illegal_reward = float(illegal_reward)
        self.max_turns = self.config.max_turns or 0
        self.observation_space = observation_space(self.config.observation)
        self.sides = np.zeros(self.num_envs, dtype=np.int64)
        """The learner's side (0 = ``player_0``) in each game."""
        self.status = np.zeros(self.num_envs, dtype=np.int64)
        """Each game's status after the last step: 0 running, 1 over, 2 truncated at
        ``max_turns``, 3 ended by an illegal action."""
        self._obs = np.zeros((self.num_envs,) + self.observation_space.shape,
                             dtype=self.observation_space.dtype)
        self._actions = np.zeros(self.num_envs, dtype=np.int64)

    def seed(self, seed) -> None:
        """Seed the games' generators (:meth:`bg_env.core.batch.Games.seed`: an int seeds
        game ``i`` with ``seed + i``; a list gives one seed per game)."""
        self.games.seed(seed)

    def reset(self) -> np.ndarray:
        """New games everywhere; the learners' observations."""
        self._start(np.ones(self.num_envs, dtype=bool))
        self.status[:] = RUNNING
        return self.observe()

    def step(self, actions) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[dict]]:
        """Play one learner decision in every game, then the opponent's until each
        learner must act again. Returns ``(observations, rewards, dones, infos)``; a
        finished game's info holds ``terminal_observation``, ``TimeLimit.truncated`` and
        its result (``outcome``, ``points``, ``cube_value``, ``winner``) or
        ``illegal_action``, and the game has started again."""
        g = self.games
        self._actions[:] = np.asarray(actions).reshape(self.num_envs)
        actions = self._actions
        if self.illegal_action == "raise":
            legal = (actions >= 0) & (actions < N_ACTIONS)
            legal[legal] = g.mask[np.flatnonzero(legal), actions[legal]]
            if not legal.all():
                i = int(np.flatnonzero(~legal)[0])
                raise IllegalActionError(
                    f"env {i}: action {actions[i]} is not legal; legal: "
                    f"{np.flatnonzero(g.mask[i]).tolist()}"
                )
        batch_opponents.step_against(batch_opponents.OPPONENTS[self.opponent], g.state, g.me,
                                     g.opp, g.seeds, g.rules, g.mask, self.sides, actions,
                                     self.max_turns, self.status)
        rewards = np.zeros(self.num_envs, dtype=np.float32)
        dones = self.status != RUNNING
        infos: list[dict] = [{} for _ in range(self.num_envs)]
        if dones.any():
            self._finish_episodes(dones, rewards, infos)
        return self.observe(), rewards, dones, infos

    def _finish_episodes(self, dones: np.ndarray, rewards: np.ndarray, infos: list[dict]) -> None:
        """Rewards and infos of the finished games, then new games in their place."""
        terminal = self.observe()
        state = self.games.state
        value = self.config.reward == "points"
        for i in np.flatnonzero(dones).tolist():
            status = self.status[i]
            info = infos[i]
            info["terminal_observation"] = terminal[i]
            info["TimeLimit.truncated"] = bool(status == TRUNCATED)
            if status == TERMINATED:
                points = int(state[i, batch.POINTS])
                winner = int(state[i, batch.WINNER])
                reward = points if value else 1
                rewards[i] = reward if winner == self.sides[i] else -reward
                info.update(outcome=batch.OUTCOMES[state[i, batch.OUTCOME]], points=points,
                            cube_value=int(state[i, batch.CUBE_VALUE]), winner=AGENTS[winner])
            elif status == ILLEGAL:
                rewards[i] = self.illegal_reward
                info["illegal_action"] = int(self._actions[i])
        self._start(dones)

    def _start(self, which: np.ndarray) -> None:
        g = self.games
        batch_opponents.start_episodes(batch_opponents.OPPONENTS[self.opponent], g.state, g.me,
                                       g.opp, g.seeds, g.rules, g.mask, which, self.sides,
                                       self.learner, self.max_turns)

    def observe(self) -> np.ndarray:
        """The learners' observations, ``(num_envs,) + observation shape`` (a copy)."""
        encode_games(self.games, self.sides, self.config.observation, self._obs)
        return self._obs.copy()

    def action_masks(self) -> np.ndarray:
        """``(num_envs, N_ACTIONS)`` bool: the legal actions of each game's learner."""
        return self.games.mask.copy()
