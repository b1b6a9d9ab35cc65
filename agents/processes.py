"""How the agents' worker processes start (training's self-play workers, the process
vector env, evaluation and labelling workers): ``forkserver`` where the platform has it,
else ``spawn``, as SB3's SubprocVecEnv; never ``fork``, which can hang a process whose
torch threads have started. And how they end: a pool's workers watch the process that
started them and end when it is gone, a ``kill -9`` included (:func:`end_with`), so no
worker (nor the forkserver they keep alive) is left running."""

from __future__ import annotations

import contextlib
import multiprocessing as mp
import os
import signal
import threading
import time
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from typing import Callable, Iterable, Iterator

__all__ = ["worker_context", "ignore_interrupt", "process_pool", "as_finished", "new_pool",
           "end_with", "alive"]

WATCH_SECONDS = 1.0
"""How often a worker looks whether the process that started it is still there."""


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
    pool = new_pool(workers, initializer, initargs)
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


def new_pool(workers: int, initializer: Callable = ignore_interrupt,
             initargs: tuple = ()) -> ProcessPoolExecutor:
    """A ``ProcessPoolExecutor`` of ``workers`` processes from :func:`worker_context`,
    each of which runs ``initializer(*initargs)`` and ends when this process is gone
    (:func:`end_with`)."""
    return ProcessPoolExecutor(workers, mp_context=worker_context(), initializer=_start_watched,
                               initargs=(os.getpid(), initializer, initargs))


def _start_watched(parent: int, initializer: Callable, initargs: tuple) -> None:
    end_with(parent)
    initializer(*initargs)


def end_with(parent: int, every: float = WATCH_SECONDS) -> threading.Thread:
    """Watch, from a daemon thread, the process ``parent`` (the one that started this
    worker: a worker's own parent is the forkserver, which outlives a killed caller) and
    end this process at once when it is gone."""
    def watch() -> None:
        while alive(parent):
            time.sleep(every)
        os._exit(1)

    thread = threading.Thread(target=watch, name=f"end-with-{parent}", daemon=True)
    thread.start()
    return thread


def alive(pid: int, proc: str = "/proc") -> bool:
    """Whether process ``pid`` runs (a zombie, dead but not yet reaped, does not): read
    from ``proc`` where the system has it, else asked of the system (macOS has no
    ``/proc``)."""
    if os.path.isdir(proc):
        try:
            with open(f"{proc}/{pid}/stat", encoding="ascii") as fh:
                return fh.read().rsplit(")", 1)[1].split()[0] != "Z"
        except OSError:
            return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # it runs, as another user
        return True
    return True
