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
    ``autoreset_mode`` (an argument: Gymnasium's ``AutoresetMode`` or its name,
    ``"same_step"`` or ``"next_step"``; ``metadata["autoreset_mode"]`` says which):

    * ``SAME_STEP`` (the default): the step that ends a game returns the first
      observation of the next one, with the last observation in ``infos["final_obs"][i]``
      and the ended game's info (``outcome``, ``points``, ``cube_value``, ``winner``, or
      ``illegal_action``) in ``infos["final_info"]``.
    * ``NEXT_STEP`` (Gymnasium's own default, which its vector observation wrappers and
      its ``RecordEpisodeStatistics`` expect): the step that ends a game returns its last
      observation and its info in ``infos`` (as the single env's last step); the next
      step ignores that game's action and returns the first observation of the next
      game, reward 0, not terminated. In that row :meth:`action_masks` marks every action
      legal (any is ignored), so that a masked policy always has one to pick.

    ``terminations``/``truncations`` tell why a game ended (truncated: ``max_turns``).

Infos:
    On the kernels, a step's infos hold the games that ended (the legal actions come from
    :meth:`action_masks`); ``reset(options=...)`` (one dict for every game, the single
    env's keys: ``position_id``, ``xgid``, ``match_id``, ``dice``, ``agent``) starts the
    games there and its infos hold ``opening_reward`` (and the result of a game that
    ended before the learner's first decision, which then starts again from the
    opening: :meth:`KernelBatch.reset <bg_env.envs.kernel_batch.KernelBatch.reset>`);
    a plain ``reset()``'s infos are empty. The fallback of single envs
    passes on theirs (``action_mask``, ``opening_reward``, ...), as ``SyncVectorEnv``
    does.

Seeding:
    ``reset(seed=s)`` seeds game ``i`` with ``s + i`` (a list gives one seed per game);
    same seed and actions, same games.
"""

from __future__ import annotations

from functools import partial
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, SyncVectorEnv, VectorEnv
from gymnasium.vector.utils import batch_space

from ..rules.actions import N_ACTIONS
from ..game.game import PURE_PYTHON
from .backgammon import EnvConfig
from .gym_env import BackgammonEnv
from .kernel_batch import KernelBatch, kernels_play

__all__ = ["BackgammonVectorEnv", "MaskedSyncVectorEnv", "make_moves_vector_env",
           "make_plays_vector_env", "autoreset_mode_of"]

_SINGLE_ENV_KEYS = ("learner", "illegal_action", "illegal_reward")


class BackgammonVectorEnv(VectorEnv):
    """``num_envs`` games against a built-in opponent on the kernels (module docstring).

    Args:
        num_envs: how many games.
        autoreset_mode: ``SAME_STEP`` (the default) or ``NEXT_STEP`` (module docstring).
        **kwargs: the single env's arguments (``learner``, ``illegal_action``,
            ``illegal_reward``) and :class:`~bg_env.envs.backgammon.EnvConfig` keys.
    """

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}

    def __init__(self, num_envs: int = 1, autoreset_mode: Any = AutoresetMode.SAME_STEP,
                 **kwargs):
        mode = autoreset_mode_of(autoreset_mode)
        self.metadata = {**self.metadata, "autoreset_mode": mode}
        self._next_step = mode == AutoresetMode.NEXT_STEP
        self.batch = KernelBatch(num_envs, **kwargs)
        self._ended = np.zeros(self.batch.num_envs, dtype=bool)
        """Next-step autoreset: the games that ended in the last step (their next action
        is ignored and the next game's first observation returned)."""
        self.num_envs = self.batch.num_envs
        self.single_observation_space = self.batch.observation_space
        self.single_action_space = spaces.Discrete(N_ACTIONS)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self.render_mode = None

    def reset(self, *, seed: int | list | None = None, options: dict | None = None):
        per_game = [options] * self.num_envs if options else None
        obs = self.batch.reset(per_game, seed)  # (bad options raise, nothing changed)
        if seed is not None:
            super().reset(seed=seed if isinstance(seed, (int, np.integer)) else None)
        self._ended[:] = False
        out: dict[str, Any] = {}
        for i, info in enumerate(self.batch.reset_infos):
            if info:
                out = self._add_info(out, info, i)
        return obs, out

    def step(self, actions):
        skip = self._ended.copy() if self._next_step else None
        obs, rewards, dones, infos = self.batch.step(actions, skip)
        truncated = np.array([bool(info.get("TimeLimit.truncated")) for info in infos]) & dones
        terminated = dones & ~truncated
        out: dict[str, Any] = {}
        for i in np.flatnonzero(dones).tolist():
            info = dict(infos[i])
            final_obs = info.pop("terminal_observation")
            info.pop("TimeLimit.truncated")
            if self._next_step:
                obs[i] = final_obs
                out = self._add_info(out, info, i)
            else:
                out = self._add_info(out, {"final_obs": final_obs, "final_info": info}, i)
        if self._next_step:
            self._ended[:] = dones
        return obs, rewards.astype(np.float64), terminated, truncated, out

    def action_masks(self) -> np.ndarray:
        """``(num_envs, N_ACTIONS)`` bool: each game's legal actions (every action in a
        game that has just ended under next-step autoreset: the action is ignored)."""
        masks = self.batch.action_masks()
        masks[self._ended] = True
        return masks

    def render(self):
        return None

    def _repr_png_(self) -> bytes:
        """The picture of the first game (a notebook's display)."""
        return self.batch.png(0)


class MaskedSyncVectorEnv(SyncVectorEnv):
    """Gymnasium's ``SyncVectorEnv`` (same-step autoreset unless ``autoreset_mode`` says
    otherwise) with :meth:`action_masks`."""

    def __init__(self, env_fns, autoreset_mode: Any = AutoresetMode.SAME_STEP, **kwargs):
        super().__init__(env_fns, autoreset_mode=autoreset_mode_of(autoreset_mode), **kwargs)
        self._ended = np.zeros(self.num_envs, dtype=bool)
        """Next-step autoreset: the games that ended in the last step."""

    def reset(self, *, seed=None, options=None):
        which = (options or {}).get("reset_mask")  # (Gymnasium's partial reset)
        self._ended[slice(None) if which is None else np.asarray(which, dtype=bool)] = False
        return super().reset(seed=seed, options=options)

    def step(self, actions):
        obs, rewards, terminations, truncations, infos = super().step(actions)
        if self.autoreset_mode == AutoresetMode.NEXT_STEP:
            self._ended[:] = terminations | truncations
        return obs, rewards, terminations, truncations, infos

    def action_masks(self) -> np.ndarray:
        """``(num_envs, n_actions)`` bool: each game's legal actions (every action in a
        game that has just ended under next-step autoreset: the action is ignored)."""
        masks = np.stack(self.call("action_masks"))
        masks[self._ended] = True
        return masks

    def _repr_png_(self) -> bytes:
        """The picture of the first game (a notebook's display)."""
        return self.envs[0].unwrapped._repr_png_()


def autoreset_mode_of(mode) -> AutoresetMode:
    """Gymnasium's ``AutoresetMode`` from itself, its value (``"NextStep"``) or its name in
    any case (``"next_step"``); this env plays ``SAME_STEP`` and ``NEXT_STEP``.

    Raises:
        ValueError: any other value, named.
    """
    if isinstance(mode, str):
        found = [m for m in AutoresetMode if mode in (m.value, m.name, m.name.lower())]
        mode = found[0] if found else mode
    if mode not in (AutoresetMode.SAME_STEP, AutoresetMode.NEXT_STEP):
        raise ValueError(f"autoreset_mode={mode!r}: expected 'same_step' or 'next_step' "
                         "(gymnasium.vector.AutoresetMode.SAME_STEP or NEXT_STEP)")
    return mode


def make_moves_vector_env(num_envs: int = 1, opponent: Any = "random", **kwargs) -> VectorEnv:
    """The vector entry point of ``bg_env/Backgammon-v0``: the kernels when they can
    play the configuration (:func:`~bg_env.envs.kernel_batch.kernels_play`: random or
    pubeval opponent, pubeval not in Plakoto or Long Nardy, no rendering), else a
    :class:`MaskedSyncVectorEnv` of
    :class:`~bg_env.envs.gym_env.BackgammonEnv`."""
    mode = kwargs.pop("autoreset_mode", AutoresetMode.SAME_STEP)  # (checked by either env)
    config = {k: v for k, v in kwargs.items() if k not in _SINGLE_ENV_KEYS}
    if (not PURE_PYTHON and kwargs.get("render_mode") is None
            and kernels_play(opponent, EnvConfig.from_kwargs(**config))):
        return BackgammonVectorEnv(num_envs, autoreset_mode=mode, opponent=opponent, **kwargs)
    _check_num_envs(num_envs)
    return MaskedSyncVectorEnv([partial(BackgammonEnv, opponent=opponent, **kwargs)] * num_envs,
                               autoreset_mode=mode)


def make_plays_vector_env(num_envs: int = 1, **kwargs) -> VectorEnv:
    """The vector entry point of ``bg_env/BackgammonPlays-v0``: a
    :class:`MaskedSyncVectorEnv` of :class:`~bg_env.envs.play_env.BackgammonPlaysEnv`."""
    from .play_env import BackgammonPlaysEnv

    mode = kwargs.pop("autoreset_mode", AutoresetMode.SAME_STEP)  # (checked by the env)
    _check_num_envs(num_envs)
    return MaskedSyncVectorEnv([partial(BackgammonPlaysEnv, **kwargs)] * num_envs,
                               autoreset_mode=mode)


def _check_num_envs(num_envs) -> None:
    if not isinstance(num_envs, (int, np.integer)) or isinstance(num_envs, bool) or num_envs < 1:
        raise ValueError(f"num_envs={num_envs!r}: expected a positive integer")
