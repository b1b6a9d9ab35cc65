"""Copies of every env (``copy.deepcopy``, ``pickle``, ``cloudpickle``), made mid-game, are
independent envs that go on exactly as the original would, in this process and in a new
one; the original is untouched by the copy's play.

Each case (``copy_driver.CASES``) is built twice in the same state: ``env`` is copied and
``twin`` is the reference. The copy, then ``env``, then ``twin`` are driven with the same
policy: all three must show the same observations, masks, rewards and dice. A copy that
drew its dice from the original's generator (as the kernels' raw pointers once made it)
changes what ``env`` shows afterwards; in another process it crashed.
"""

from __future__ import annotations

import copy
import os
import pickle
import subprocess
import sys
from pathlib import Path

import cloudpickle
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from copy_driver import CASES, drive, make_case  # noqa: E402

COPIERS = {
    "deepcopy": copy.deepcopy,
    "pickle": lambda env: pickle.loads(pickle.dumps(env)),
    "cloudpickle": lambda env: cloudpickle.loads(cloudpickle.dumps(env)),
}


@pytest.fixture(scope="module")
def references():
    """Each case's trace from a fresh twin (never copied)."""
    return {name: drive(*make_case(name)) for name in CASES}


def _informative(trace: list) -> bool:
    """The trace shows a game going on: several distinct entries."""
    return len({repr(t) for t in trace}) > 10


@pytest.mark.parametrize("how", sorted(COPIERS))
@pytest.mark.parametrize("name", CASES)
def test_copy_continues_exactly_and_leaves_the_original_alone(name, how, references):
    kind, env = make_case(name)
    clone = COPIERS[how](env)
    assert clone is not env
    copied = drive(kind, clone)  # first: a copy sharing the generator would move env's dice
    original = drive(kind, env)
    assert _informative(references[name])
    assert copied == references[name]
    assert original == references[name]


def test_copy_of_a_copy_is_independent_too():
    """Two deep copies of the kernels' env, driven in turn, each go on as the original."""
    kind, env = make_case("raw_kernels")
    first, second = copy.deepcopy(env), copy.deepcopy(env)
    assert drive(kind, first) == drive(kind, second) == drive(kind, env)


@pytest.mark.parametrize("dumps", [pickle.dumps, cloudpickle.dumps], ids=["pickle", "cloudpickle"])
def test_pickled_envs_continue_exactly_in_a_new_process(dumps, references, tmp_path):
    envs = {name: make_case(name) for name in CASES}
    envs_file, traces_file = tmp_path / "envs.pkl", tmp_path / "traces.pkl"
    envs_file.write_bytes(dumps(envs))
    root = Path(__file__).resolve().parents[2]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(root), os.environ.get("PYTHONPATH", "")]))
    done = subprocess.run(
        [sys.executable, str(Path(__file__).with_name("copy_driver.py")), str(envs_file),
         str(traces_file)], cwd=root, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    traces = pickle.loads(traces_file.read_bytes())
    for name in CASES:
        assert traces[name] == references[name], name
    for name, (kind, original) in envs.items():  # and the originals are untouched
        assert drive(kind, original) == references[name], name
