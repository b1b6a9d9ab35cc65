"""How the agents' worker processes start (training's self-play workers, the process
vector env, evaluation and labelling workers): ``forkserver`` where the platform has it,
else ``spawn``, as SB3's SubprocVecEnv; never ``fork``, which can hang a process whose
torch threads have started."""

from __future__ import annotations

import contextlib
import multiprocessing as mp
import signal
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from typing import Callable, Iterable, Iterator

__all__ = ["worker_context", "ignore_interrupt", "process_pool", "as_finished"]


def worker_context(method: str | None = None):
    """The multiprocessing context that workers start from: ``method`` if given, else
    ``forkserver`` where available, else ``spawn``."""
    if method is None:
        method = "forkserver" if "forkserver" in mp.get_all_start_methods() else "spawn"
    return mp.get_context(method)


def ignore_interrupt() -> None:
    """A worker leaves Ctrl-C to its caller, which stops the pool (a worker that took it
    too would print its own traceback)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@contextlib.contextmanager
def process_pool(workers: int, initializer: Callable = ignore_interrupt,
                 initargs: tuple = ()) -> Iterator[ProcessPoolExecutor]:
    """A ``ProcessPoolExecutor`` of ``workers`` processes from :func:`worker_context`, each
    started by ``initializer`` (which should call :func:`ignore_interrupt`). A worker that
    dies raises ``BrokenProcessPool`` where its result is read, instead of a wait. On
    leaving, by an error or Ctrl-C too, no new job starts and the workers end after theirs,
    not waited for."""
    pool = ProcessPoolExecutor(workers, mp_context=worker_context(), initializer=initializer,
                               initargs=initargs)
    try:
        yield pool
    finally:
        pool.shutdown(wait=False, cancel_futures=True)


def as_finished(fn: Callable, jobs: Iterable, workers: int) -> Iterator:
    """``fn(job)`` of each job, in the order they finish, computed by ``workers`` processes
    (:func:`process_pool`; ``fn`` and the jobs must pickle).

    Raises:
        BrokenProcessPool: a worker died (killed, or crashed in compiled code), instead of
            a wait for its job; the error a job raised is raised here as it was.
    """
    jobs = list(jobs)
    with process_pool(max(1, min(workers, len(jobs)))) as pool:
        waiting = {pool.submit(fn, job) for job in jobs}
        while waiting:
            finished, waiting = wait(waiting, return_when=FIRST_COMPLETED)
            for future in finished:
                yield future.result()
