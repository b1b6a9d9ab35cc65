"""How the agents' worker processes start (training's self-play workers, the process
vector env, evaluation workers): ``forkserver`` where the platform has it, else ``spawn``,
as SB3's SubprocVecEnv; never ``fork``, which can hang a process whose torch threads have
started."""

from __future__ import annotations

import multiprocessing as mp

__all__ = ["worker_context"]


def worker_context(method: str | None = None):
    """The multiprocessing context that workers start from: ``method`` if given, else
    ``forkserver`` where available, else ``spawn``."""
    if method is None:
        method = "forkserver" if "forkserver" in mp.get_all_start_methods() else "spawn"
    return mp.get_context(method)
