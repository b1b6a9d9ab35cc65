"""Gymnasium vector envs: ``gymnasium.make_vec(..., vectorization_mode="vector_entry_point")``.

Description:
    ``gymnasium.make_vec("bg_env/Backgammon-v0", num_envs=N,
    vectorization_mode="vector_entry_point")`` returns :class:`BackgammonVectorEnv`: ``N``
    games of one learner against a built-in opponent (``opponent="random"`` or
    ``"pubeval"``), all stepped by one call to
    the numba kernels (:class:`~bg_env.envs.kernel_batch.KernelBatch`, the engine of
    :func:`bg_env.make_vec_env` too; every variant, money games or matches, cube and
    context block as configured); no Stable-Baselines3 needed. Any other opponent, pubeval
    in Plakoto or Long Nardy (:func:`~bg_env.envs.kernel_batch.kernels_play`) or a
    ``render_mode`` cannot run on the kernels: then (and for
    ``bg_env/BackgammonPlays-v0``, the play-level view) the result is a
    :class:`MaskedSyncVectorEnv` of the single-game envs, with the same API.

Observation:
    ``(N,) + single observation`` (:mod:`bg_env.envs.observation`; the play-level view's
    candidate table, :mod:`bg_env.envs.play_env`).

Action:
    ``(N,)`` actions of the single env's ``Discrete`` space. :meth:`action_masks` gives
    ``(N, n_actions)`` bool, one row per game: the legal actions of each learner.

Rewards:
    As the single env: 0 until a game ends, then +-points from the learner's side.

Episode End:
    Autoreset in the same step (``metadata["autoreset_mode"]`` is ``SAME_STEP``): the
    step that ends a game returns the first observation of the next one, with the last
    observation in ``infos["final_obs"][i]`` and the ended game's info (``outcome``,
    ``points``, ``cube_value``, ``winner``, or ``illegal_action``) in
    ``infos["final_info"]``; ``terminations``/``truncations`` tell why it ended
    (truncated: ``max_turns``).

Seeding:
    ``reset(seed=s)`` seeds game ``i`` with ``s + i`` (a list gives one seed per game);
    same seed and actions, same games.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, SyncVectorEnv, VectorEnv
from gymnasium.vector.utils import batch_space

from ..core.actions import N_ACTIONS
from ..core.game import PURE_PYTHON
from .backgammon import EnvConfig
from .gym_env import BackgammonEnv
from .kernel_batch import KernelBatch, kernels_play

__all__ = ["BackgammonVectorEnv", "MaskedSyncVectorEnv", "make_moves_vector_env",
           "make_plays_vector_env"]

_SINGLE_ENV_KEYS = ("learner", "illegal_action", "illegal_reward")


class BackgammonVectorEnv(VectorEnv):
    """``num_envs`` games against a built-in opponent on the kernels (module docstring).

    Args:
        num_envs: how many games.
        **kwargs: the single env's arguments (``learner``, ``illegal_action``,
            ``illegal_reward``) and :class:`~bg_env.envs.backgammon.EnvConfig` keys.
    """

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}

    def __init__(self, num_envs: int = 1, **kwargs):
        self.batch = KernelBatch(num_envs, **kwargs)
        self.num_envs = self.batch.num_envs
        self.single_observation_space = self.batch.observation_space
        self.single_action_space = spaces.Discrete(N_ACTIONS)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self.render_mode = None

    def reset(self, *, seed: int | list | None = None, options: dict | None = None):
        if options:
            raise ValueError(
                f"options={options!r}: the kernels start every game from the opening; use "
                "vectorization_mode='sync' to start from a position")
        if seed is not None:
            self.batch.seed(seed)
            super().reset(seed=seed if isinstance(seed, (int, np.integer)) else None)
        return self.batch.reset(), {}

    def step(self, actions):
        obs, rewards, dones, infos = self.batch.step(actions)
        truncated = np.array([bool(info.get("TimeLimit.truncated")) for info in infos]) & dones
        terminated = dones & ~truncated
        out: dict[str, Any] = {}
        for i in np.flatnonzero(dones).tolist():
            info = dict(infos[i])
            final_obs = info.pop("terminal_observation")
            info.pop("TimeLimit.truncated")
            out = self._add_info(out, {"final_obs": final_obs, "final_info": info}, i)
        return obs, rewards.astype(np.float64), terminated, truncated, out

    def action_masks(self) -> np.ndarray:
        """``(num_envs, N_ACTIONS)`` bool: each game's legal actions."""
        return self.batch.action_masks()

    def render(self):
        return None


class MaskedSyncVectorEnv(SyncVectorEnv):
    """Gymnasium's ``SyncVectorEnv`` (same-step autoreset) with :meth:`action_masks`."""

    def __init__(self, env_fns, **kwargs):
        kwargs.setdefault("autoreset_mode", AutoresetMode.SAME_STEP)
        super().__init__(env_fns, **kwargs)

    def action_masks(self) -> np.ndarray:
        """``(num_envs, n_actions)`` bool: each game's legal actions."""
        return np.stack(self.call("action_masks"))


def make_moves_vector_env(num_envs: int = 1, opponent: Any = "random", **kwargs) -> VectorEnv:
    """The vector entry point of ``bg_env/Backgammon-v0``: the kernels when they can
    play the configuration (:func:`~bg_env.envs.kernel_batch.kernels_play`: random or
    pubeval opponent, pubeval not in Plakoto or Long Nardy, no rendering), else a
    :class:`MaskedSyncVectorEnv` of
    :class:`~bg_env.envs.gym_env.BackgammonEnv`."""
    config = {k: v for k, v in kwargs.items() if k not in _SINGLE_ENV_KEYS}
    if (not PURE_PYTHON and kwargs.get("render_mode") is None
            and kernels_play(opponent, EnvConfig.from_kwargs(**config))):
        return BackgammonVectorEnv(num_envs, opponent=opponent, **kwargs)
    _check_num_envs(num_envs)
    return MaskedSyncVectorEnv(
        [lambda: BackgammonEnv(opponent=opponent, **kwargs) for _ in range(num_envs)])


def make_plays_vector_env(num_envs: int = 1, **kwargs) -> VectorEnv:
    """The vector entry point of ``bg_env/BackgammonPlays-v0``: a
    :class:`MaskedSyncVectorEnv` of :class:`~bg_env.envs.play_env.BackgammonPlaysEnv`."""
    from .play_env import BackgammonPlaysEnv

    _check_num_envs(num_envs)
    return MaskedSyncVectorEnv([lambda: BackgammonPlaysEnv(**kwargs) for _ in range(num_envs)])


def _check_num_envs(num_envs) -> None:
    if not isinstance(num_envs, (int, np.integer)) or isinstance(num_envs, bool) or num_envs < 1:
        raise ValueError(f"num_envs={num_envs!r}: expected a positive integer")
