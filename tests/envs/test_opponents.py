"""The opponent registry: spec strings reach the envs without bg_env importing agents."""

from __future__ import annotations

import os
import subprocess
import sys
from importlib import metadata

import gymnasium as gym
import pytest

from bg_env.envs import opponents
from bg_env.envs.opponents import ENTRY_POINT_GROUP, make_opponent, register_opponent

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")


class _Last:
    """Plays the highest legal action; remembers the spec it was made from."""

    def __init__(self, spec: str) -> None:
        self.spec = spec
        self.calls = 0

    def act(self, env) -> int:
        self.calls += 1
        return int(env.legal_actions()[-1])


def test_a_registered_kind_reaches_the_gym_env():
    register_opponent("test-last", _Last)
    env = gym.make("bg_env/Backgammon-v0", opponent="test-last:x", learner="player_0")
    env.reset(seed=1)
    opponent = env.unwrapped.opponent.__self__
    assert isinstance(opponent, _Last) and opponent.spec == "test-last:x"
    for _ in range(40):  # the learner plays; the opponent answers
        _, _, done, _, _ = env.step(int(env.unwrapped.action_masks().nonzero()[0][0]))
        if done:
            break
    assert opponent.calls > 0


def test_unknown_kind_is_named_with_the_known_ones():
    register_opponent("test-last", _Last)
    with pytest.raises(ValueError, match="nosuch.*test-last"):
        make_opponent("nosuch:1")
    with pytest.raises(ValueError, match="nosuch"):
        gym.make("bg_env/BackgammonPlays-v0", opponent="nosuch")


@pytest.mark.parametrize("kind", ["", "a:b", 3])
def test_bad_kind_is_refused(kind):
    with pytest.raises(ValueError, match="kind"):
        register_opponent(kind, _Last)


def test_an_entry_point_is_loaded_when_its_kind_is_asked(monkeypatch):
    declared = [metadata.EntryPoint(name="test-echo", value="builtins:str",
                                    group=ENTRY_POINT_GROUP)]
    monkeypatch.setattr(opponents.metadata, "entry_points",
                        lambda group: declared if group == ENTRY_POINT_GROUP else [])
    assert "test-echo" in opponents.known_opponents()
    assert make_opponent("test-echo:7") == "test-echo:7"  # the factory got the whole spec


@pytest.mark.slow
def test_gym_make_resolves_pubeval_through_the_entry_point_without_importing_agents():
    """In a fresh process: bg_env alone, the entry point declared as in pyproject.toml
    (the shared venv's install predates it, so it is patched in), then gym.make (in a
    variant whose moves are not standard: in the others "pubeval" is built in)."""
    code = f"""
import sys
from importlib import metadata
import gymnasium as gym
import bg_env
from bg_env.envs import opponents
assert "agents" not in sys.modules
ep = metadata.EntryPoint(name="pubeval", value="agents:load_agent", group={ENTRY_POINT_GROUP!r})
opponents.metadata.entry_points = lambda group: [ep]
env = gym.make("bg_env/Backgammon-v0", opponent="pubeval", variant="sudden_death")
print(type(env.unwrapped.opponent.__self__).__name__)
"""
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                         text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "PubevalAgent"


def test_pyproject_declares_every_agent_kind():
    import tomllib

    import agents

    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as fh:
        declared = tomllib.load(fh)["project"]["entry-points"][ENTRY_POINT_GROUP]
    assert set(declared) == set(agents.SPECS)
    assert set(declared.values()) == {"agents:load_agent"}
