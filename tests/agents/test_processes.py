"""Worker pools of the agents (agents/processes.py): ``as_finished`` gives every job's
result once, raises a job's own error, and a worker that dies stops it with an error
instead of a wait (labelling's pool used to wait forever)."""

from __future__ import annotations

import os
from concurrent.futures.process import BrokenProcessPool

import pytest

from agents.processes import as_finished


def square_or_fail(job: tuple[int, int]) -> int:
    value, home = job
    if value == -1:
        raise ValueError("job -1 refused")
    if value == -2 and os.getpid() != home:
        os._exit(3)  # a worker killed in the middle of a job
    return value * value


def test_every_job_comes_back_once():
    jobs = [(v, os.getpid()) for v in range(7)]
    assert sorted(as_finished(square_or_fail, jobs, workers=2)) == [v * v for v in range(7)]


def test_a_jobs_error_is_raised_as_it_was():
    with pytest.raises(ValueError, match="job -1 refused"):
        list(as_finished(square_or_fail, [(1, 0), (-1, 0)], workers=2))


def test_a_worker_that_dies_stops_the_pool_with_an_error():
    with pytest.raises(BrokenProcessPool):
        list(as_finished(square_or_fail, [(3, os.getpid()), (-2, os.getpid())], workers=2))
