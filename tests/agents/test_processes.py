"""Worker pools of the agents (agents/processes.py): ``as_finished`` gives every job's
result once, raises a job's own error, and a worker that dies stops it with an error
instead of a wait (labelling's pool used to wait forever)."""

from __future__ import annotations

import os
import sys
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


WORKERS_SCRIPT = """
import sys, time
from agents.processes import process_pool

def nap(_):
    time.sleep(120)

if __name__ == "__main__":
    with process_pool(2) as pool:
        jobs = [pool.submit(nap, i) for i in range(2)]
        print("started", flush=True)
        time.sleep(120)
"""


def _marked(mark: str) -> list[int]:
    """The processes whose environment holds ``mark`` (the script and all it started)."""
    import os

    found = []
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open(f"/proc/{name}/environ", "rb") as fh:
                    if mark.encode() in fh.read():
                        found.append(int(name))
            except OSError:
                continue
    return found


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_workers_end_when_their_caller_is_killed(tmp_path):
    """kill -9 of the process that started a pool leaves no worker (nor the forkserver
    they kept alive) running."""
    import os
    import signal
    import subprocess
    import time
    import uuid

    script = tmp_path / "pool.py"
    script.write_text(WORKERS_SCRIPT)
    mark = f"BG_ENV_TEST_{uuid.uuid4().hex}"
    env = dict(os.environ, **{mark: "1"})
    caller = subprocess.Popen([sys.executable, str(script)], env=env, stdout=subprocess.PIPE,
                              text=True)
    try:
        assert caller.stdout.readline().strip() == "started"
        deadline = time.time() + 60
        while len(_marked(mark)) < 4 and time.time() < deadline:  # caller, server, 2 workers
            time.sleep(0.2)
        assert len(_marked(mark)) >= 4
        caller.send_signal(signal.SIGKILL)
        caller.wait()
        deadline = time.time() + 30
        while _marked(mark) and time.time() < deadline:
            time.sleep(0.2)
        assert _marked(mark) == []
    finally:
        for pid in _marked(mark):
            os.kill(pid, signal.SIGKILL)


def test_alive_asks_the_system_where_there_is_no_proc(tmp_path):
    """Without /proc (macOS) a worker must not take its caller for dead: an unreadable
    /proc entry used to read as a dead caller, and every worker ended within a second."""
    import subprocess

    from agents.processes import alive

    nowhere = str(tmp_path / "no-proc")
    assert alive(os.getpid(), proc=nowhere)
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()  # reaped: its pid is free
    assert not alive(gone.pid, proc=nowhere)
    assert alive(os.getpid()) and not alive(gone.pid)
