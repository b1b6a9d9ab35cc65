"""The bench's rows on the vector env (:func:`vec_stepper`) and MaskablePPO training on
it (:func:`ppo_training`), with the vector env's random agent (:func:`random_legal`);
:mod:`bg_env.bench.run` times them."""

from __future__ import annotations

import time
from functools import partial

import numpy as np

__all__ = ["random_legal", "vec_stepper", "ppo_training"]


def random_legal(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A uniform pick among each row's legal actions (``masks``: ``(n, N_ACTIONS)`` bool,
    each row with a legal action): row ``i``'s ``k``-th legal action, ``k`` uniform below
    its count, all rows in a few numpy calls (the random agent's own cost is not the
    env's)."""
    n, width = masks.shape
    starts = np.arange(0, (n + 1) * width, width)  # where each row begins, flattened
    legal = np.flatnonzero(masks)  # row-major: row i's legal actions, ascending, then i+1's
    bounds = legal.searchsorted(starts)  # row i's legal actions: legal[bounds[i]:bounds[i+1]]
    first = bounds[:-1]
    picked = legal[first + (rng.random(n) * (bounds[1:] - first)).astype(np.intp)]
    return picked - starts[:-1]


def vec_stepper(num_envs: int = 64, kernels: bool = True, monitor: bool = False,
                 as_maskable_ppo: bool = False, **config):
    """A callable stepping the vector env (``make_vec_env``, random opponent, cube off
    unless ``config`` says otherwise; ``kernels=False``: the single envs one after another)
    once with a uniform legal action per game, returning ``(episodes finished, steps)``
    (an episode is a game, a match with ``match_length``); None without
    Stable-Baselines3. The env is timed bare unless ``monitor`` (``make_vec_env``'s default:
    SB3's ``VecMonitor`` around it); ``as_maskable_ppo``: the masks read as MaskablePPO
    reads them (sb3-contrib's ``get_action_masks``), not by the env's own method."""
    try:
        from bg_env.envs.gym_env import BackgammonEnv
        from bg_env.envs.vector import GymVecEnv, make_vec_env
    except ImportError:
        return None
    config = {"cube": False, **config}
    if kernels:
        venv = make_vec_env(num_envs, seed=0, monitor=monitor, **config)
    else:
        venv = GymVecEnv([lambda: BackgammonEnv(opponent="random", **config)] * num_envs)
        venv.seed(0)
    venv.reset()
    rng = np.random.default_rng(0)
    masks_of = venv.action_masks
    if as_maskable_ppo:
        from sb3_contrib.common.maskable.utils import get_action_masks

        masks_of = partial(get_action_masks, venv)

    def one() -> tuple[int, int]:
        _, _, dones, _ = venv.step(random_legal(masks_of(), rng))
        return int(dones.sum()), num_envs

    return one


def _timers():
    """A VecEnv wrapper adding up the time spent in the env's calls, and a callback adding
    up the time spent collecting rollouts (imported late: SB3 is optional)."""
    from stable_baselines3.common.callbacks import BaseCallback
    from stable_baselines3.common.vec_env import VecEnvWrapper

    class TimedVecEnv(VecEnvWrapper):
        def __init__(self, venv):
            super().__init__(venv)
            self.seconds = 0.0

        def _time(self, fn, *args, **kwargs):
            t0 = time.perf_counter()
            try:
                return fn(*args, **kwargs)
            finally:
                self.seconds += time.perf_counter() - t0

        def reset(self):
            return self._time(self.venv.reset)

        def step_async(self, actions):
            self._time(self.venv.step_async, actions)

        def step_wait(self):
            return self._time(self.venv.step_wait)

        def env_method(self, method_name, *args, indices=None, **kwargs):
            return self._time(self.venv.env_method, method_name, *args, indices=indices, **kwargs)

    class RolloutTimer(BaseCallback):
        def __init__(self):
            super().__init__()
            self.seconds = 0.0

        def _on_rollout_start(self) -> None:
            self._t0 = time.perf_counter()

        def _on_rollout_end(self) -> None:
            self.seconds += time.perf_counter() - self._t0

        def _on_step(self) -> bool:
            return True

    return TimedVecEnv, RolloutTimer


def ppo_training(steps: int = 2048, num_envs: int = 16):
    """MaskablePPO (SB3 defaults but ``n_steps``, one torch thread) learning ``steps`` on
    the vector env, cube off: ``(steps/s, env share of learn(), env share of the
    rollouts)``, or None without sb3-contrib."""
    try:
        import torch
        from sb3_contrib import MaskablePPO

        from bg_env.envs.vector import make_vec_env
    except ImportError:
        return None
    TimedVecEnv, RolloutTimer = _timers()
    threads = torch.get_num_threads()
    torch.set_num_threads(1)  # one core, as the other rows; no oversubscription when loaded
    try:
        # warm-up (kernels, torch's first passes) on a tiny run
        MaskablePPO("MlpPolicy", make_vec_env(num_envs, cube=False, seed=1), n_steps=4,
                    batch_size=num_envs * 4, n_epochs=1, seed=1).learn(num_envs * 4)
        venv = TimedVecEnv(make_vec_env(num_envs, cube=False, seed=0))
        model = MaskablePPO("MlpPolicy", venv, n_steps=steps // num_envs, seed=0)
        venv.seconds, rollouts = 0.0, RolloutTimer()
        t0 = time.perf_counter()
        model.learn(steps, callback=rollouts)
        wall = time.perf_counter() - t0
    finally:
        torch.set_num_threads(threads)
    return steps / wall, venv.seconds / wall, venv.seconds / rollouts.seconds
