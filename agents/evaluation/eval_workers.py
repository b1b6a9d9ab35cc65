"""The pairs of an evaluation played in worker processes (``evaluate(..., workers=N)``,
``bg-env eval --workers N``), with the same games and statistics as one process.

A pair's games depend only on its seed (the ``i``-th of the evaluation's seed list) and on
the agents. Agents that keep no state from game to game (td, pubeval, gnubg, ppo) play a
pair the same in any process, so the pairs are handed out to the workers and their
results read back in order: the statistics, the records and the checkpoints are made in
the calling process exactly as when it plays the pairs itself. An agent that draws from a
generator of its own (``random``) carries that generator from one game to the next; its
games depend on the order they are played in, and such an agent is refused.

Each worker gets a copy of the agents once (they are pickled: a network's weights, not
its file) and runs torch on a share of the caller's threads (``bg-env eval
--torch-threads``, 1 unless told). Workers are started with ``forkserver`` where the
platform has it, else ``spawn``: never ``fork``, which can hang a process whose torch
threads have started. Both import the caller's main module again, so a script that calls
``evaluate(..., workers=N)`` does so under ``if __name__ == "__main__":``. A worker that
dies stops the evaluation with ``BrokenProcessPool`` (``concurrent.futures``), not a wait.
"""

from __future__ import annotations

import sys
from typing import Callable, Iterator

from bg_env.envs.opponents import opponent_generator_state

from ..config import check_whole
from ..processes import ignore_interrupt, process_pool

__all__ = ["play_pair", "pair_results", "check_workers"]

_AGENTS: tuple | None = None
"""A worker's copy of the two agents (A, B)."""


def play_pair(agents: tuple, play: Callable, seed: int) -> list[tuple[int, object]]:
    """``[(A's side, play(seats, seed))]`` for the two games of a pair: A first as side 0,
    then as side 1, both from ``seed`` (the same dice)."""
    agent_a, agent_b = agents
    return [(0, play((agent_a, agent_b), seed)), (1, play((agent_b, agent_a), seed))]


def check_workers(workers, agents: tuple) -> int:
    """``workers`` as a whole number of 1 or more, after checking that more than one can
    play these ``agents`` the same as one.

    Raises:
        ValueError: ``workers`` is not a whole number of 1 or more; more than one worker
            for an agent with its own generator (named).
    """
    workers = check_whole("workers", workers, 1)
    if workers > 1:
        for agent in agents:
            if opponent_generator_state(agent) is not None or callable(getattr(agent, "seed",
                                                                                 None)):
                name = getattr(agent, "name", type(agent).__name__)
                raise ValueError(
                    f"workers={workers}: agent {name!r} draws from its own generator from one "
                    f"game to the next (it has an rng or a seed method), so its games depend "
                    f"on the order they are played in; evaluate it with one worker")
    return workers


def pair_results(agents: tuple, play: Callable, seeds, workers: int) -> Iterator[list]:
    """:func:`play_pair` of each seed in ``seeds``, in order, played by ``workers``
    processes (``play`` must pickle: a module-level function or a ``partial`` of one).

    Raises:
        BrokenProcessPool: a worker died (killed, or crashed in compiled code); the error
            a worker's game raised is raised here as it was.
    """
    tasks = [(play, int(seed)) for seed in seeds]
    workers = max(1, min(workers, len(tasks)))
    torch = sys.modules.get("torch")  # the caller's threads, shared among the workers
    threads = max(1, torch.get_num_threads() // workers) if torch is not None else None
    with process_pool(workers, _start_worker, (agents, threads)) as pool:
        yield from pool.map(_worker_pair, tasks)


def _start_worker(agents: tuple, threads: int | None) -> None:
    """A worker keeps the agents and leaves Ctrl-C to the caller, which stops the pool (a
    worker that took it too would print its own traceback)."""
    global _AGENTS
    _AGENTS = agents
    ignore_interrupt()
    if threads is not None:
        import torch

        torch.set_num_threads(threads)


def _worker_pair(task: tuple[Callable, int]) -> list:
    play, seed = task
    return play_pair(_AGENTS, play, seed)
