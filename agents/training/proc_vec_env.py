"""Many games in a few processes: a Stable-Baselines3 ``VecEnv`` for ``--workers N``.

SB3's ``SubprocVecEnv`` runs one env per process, so 16 games side by side would take
16 processes (each with its own torch and numba, a few hundred MB). :class:`ProcessVecEnv`
spreads ``n`` envs over ``workers`` processes instead, each stepping its share one after
the other, with SB3's ``VecEnv`` semantics (an env that ends is reset at once and its last
observation put in ``info["terminal_observation"]``). With one worker it is no faster
than SB3's ``DummyVecEnv``; training uses that then.

The processes start by ``forkserver`` where available, else ``spawn`` (as SB3's), so the
env factories must be picklable (cloudpickle) and each worker imports what they need.
Each worker limits torch to one thread.
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

import gymnasium as gym
import numpy as np
from stable_baselines3.common.env_util import is_wrapped
from stable_baselines3.common.vec_env.base_vec_env import CloudpickleWrapper, VecEnv

from ..processes import worker_context

__all__ = ["ProcessVecEnv", "split_evenly"]


def split_evenly(n: int, parts: int) -> list[range]:
    """``range(n)`` cut into ``parts`` consecutive slices whose sizes differ by at most one.

    >>> [list(r) for r in split_evenly(5, 2)]
    [[0, 1, 2], [3, 4]]
    """
    size, extra = divmod(n, parts)
    bounds = [0]
    for i in range(parts):
        bounds.append(bounds[-1] + size + (i < extra))
    return [range(a, b) for a, b in zip(bounds, bounds[1:])]


def _step(env: gym.Env, action) -> tuple:
    obs, reward, terminated, truncated, info = env.step(action)
    done = terminated or truncated
    info["TimeLimit.truncated"] = truncated and not terminated
    reset_info: dict = {}
    if done:
        info["terminal_observation"] = obs
        obs, reset_info = env.reset()
    return obs, reward, done, info, reset_info


def _reset(env: gym.Env, seed, options) -> tuple:
    return env.reset(seed=seed, **({"options": options} if options else {}))


def _serve(envs: list[gym.Env], cmd: str, data: Any) -> Any:
    """One command for this worker's envs (``data`` per env, or with local indices)."""
    if cmd == "step":
        return [_step(env, a) for env, a in zip(envs, data)]
    if cmd == "reset":
        return [_reset(env, s, o) for env, s, o in zip(envs, *data)]
    if cmd == "spaces":
        return envs[0].observation_space, envs[0].action_space
    name, indices, payload = data
    chosen = [envs[i] for i in indices]
    if cmd == "env_method":
        args, kwargs = payload
        return [env.get_wrapper_attr(name)(*args, **kwargs) for env in chosen]
    if cmd == "get_attr":
        return [env.get_wrapper_attr(name) for env in chosen]
    if cmd == "set_attr":
        return [env.set_wrapper_attr(name, payload) for env in chosen]
    if cmd == "is_wrapped":
        return [is_wrapped(env, payload) for env in chosen]
    raise ValueError(f"ProcessVecEnv worker: unknown command {cmd!r}")


def _worker(remote, parent_remote, fns: CloudpickleWrapper) -> None:  # pragma: no cover
    import torch  # (runs in the child process)

    torch.set_num_threads(1)
    parent_remote.close()
    envs = [fn() for fn in fns.var]
    while True:
        try:
            cmd, data = remote.recv()
        except (EOFError, KeyboardInterrupt):
            break
        if cmd == "close":
            for env in envs:
                env.close()
            remote.close()
            break
        try:
            remote.send((True, _serve(envs, cmd, data)))
        except Exception as exc:  # the parent re-raises it
            remote.send((False, exc))


class ProcessVecEnv(VecEnv):
    """``len(env_fns)`` envs in ``workers`` processes (see the module docstring).

    Raises:
        ValueError: ``workers`` is not between 1 and the number of envs.
    """

    def __init__(self, env_fns: Sequence[Callable[[], gym.Env]], workers: int,
                 start_method: str | None = None) -> None:
        n = len(env_fns)
        if not isinstance(workers, int) or not 1 <= workers <= n:
            raise ValueError(f"workers={workers!r}: expected 1..{n} (one env at least each)")
        ctx = worker_context(start_method)
        self.slices = split_evenly(n, workers)
        self.remotes, self.processes = [], []
        for part in self.slices:
            remote, child = ctx.Pipe()
            fns = CloudpickleWrapper([env_fns[i] for i in part])
            proc = ctx.Process(target=_worker, args=(child, remote, fns), daemon=True)
            proc.start()
            child.close()
            self.remotes.append(remote)
            self.processes.append(proc)
        self.closed = False
        self.waiting = False
        self.remotes[0].send(("spaces", None))
        observation_space, action_space = self._receive(self.remotes[0])
        super().__init__(n, observation_space, action_space)

    @staticmethod
    def _receive(remote) -> Any:
        ok, value = remote.recv()
        if not ok:
            raise value
        return value

    def _gather(self, remotes) -> list:
        """The workers' answers, in env order; a worker's error is raised here once every
        asked worker has answered (so the pipes stay in step)."""
        answers = [remote.recv() for remote in remotes]
        self.waiting = False
        for ok, value in answers:
            if not ok:
                raise value
        return [item for _, value in answers for item in value]

    def step_async(self, actions: np.ndarray) -> None:
        for remote, part in zip(self.remotes, self.slices):
            remote.send(("step", [actions[i] for i in part]))
        self.waiting = True

    def step_wait(self):
        results = self._gather(self.remotes)
        obs, rewards, dones, infos, self.reset_infos = zip(*results)
        self.reset_infos = list(self.reset_infos)
        return (np.stack(obs), np.array(rewards, dtype=np.float32),
                np.array(dones, dtype=bool), list(infos))

    def reset(self):
        for remote, part in zip(self.remotes, self.slices):
            remote.send(("reset", ([self._seeds[i] for i in part],
                                   [self._options[i] for i in part])))
        obs, infos = zip(*self._gather(self.remotes))
        self.reset_infos = list(infos)
        self._reset_seeds()
        self._reset_options()
        return np.stack(obs)

    def _ask(self, cmd: str, name: Any, indices, payload: Any = None) -> list:
        """Send ``cmd`` to the workers holding ``indices``, each with its local indices."""
        wanted = set(self._get_indices(indices))
        asked = []
        for remote, part in zip(self.remotes, self.slices):
            local = [i - part.start for i in part if i in wanted]
            if local:
                remote.send((cmd, (name, local, payload)))
                asked.append(remote)
        return self._gather(asked)

    def env_method(self, method_name: str, *method_args, indices=None, **method_kwargs) -> list:
        return self._ask("env_method", method_name, indices, (method_args, method_kwargs))

    def get_attr(self, attr_name: str, indices=None) -> list:
        return self._ask("get_attr", attr_name, indices)

    def set_attr(self, attr_name: str, value: Any, indices=None) -> None:
        self._ask("set_attr", attr_name, indices, value)

    def env_is_wrapped(self, wrapper_class: type[gym.Wrapper], indices=None) -> list[bool]:
        return self._ask("is_wrapped", None, indices, wrapper_class)

    def close(self) -> None:
        """Stop the workers (also after one died, e.g. on Ctrl-C)."""
        if self.closed:
            return
        self.closed = True
        for remote in self.remotes:
            try:
                if self.waiting:
                    remote.recv()
                remote.send(("close", None))
            except (EOFError, OSError):  # that worker is gone already
                pass
        for proc in self.processes:
            proc.join(timeout=10)
            if proc.is_alive():
                proc.terminate()
