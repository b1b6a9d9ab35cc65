"""The Tianshou recipe ``examples/tianshou_dqn.py``: Tianshou's PettingZoo wrapper on the
AEC env, a masked DQN learner against a masked random player. Skipped when Tianshou is not
installed (``pip install -e ".[tianshou]"``)."""

from __future__ import annotations

import importlib.util
import types
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("tianshou")

from bg_env import backgammon_v0  # noqa: E402

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def load_example(name: str):
    spec = importlib.util.spec_from_file_location(name, EXAMPLES / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def script(monkeypatch):
    """The script, its env made raw: an action outside the mask raises instead of ending
    the game (``env()``'s wrapper would score it as a loss and go on)."""
    module = load_example("tianshou_dqn")
    monkeypatch.setattr(module, "backgammon_v0", types.SimpleNamespace(env=backgammon_v0.raw_env))
    return module


def test_every_step_has_the_same_info_keys(script):
    env = script.make_env(script.parse_args(["--smoke"]))
    obs, info = env.reset(seed=0)
    infos = [info]
    rng = np.random.default_rng(0)
    terminated = truncated = False
    while not (terminated or truncated):
        action = int(rng.choice(np.flatnonzero(obs["mask"])))
        obs, rewards, terminated, truncated, info = env.step(action)
        infos.append(info)
    assert {tuple(sorted(i)) for i in infos} == {("points", "winner")}
    assert all(i == {"points": 0, "winner": -1} for i in infos[:-1])
    final = infos[-1]
    assert final["winner"] in (0, 1) and final["points"] > 0
    assert rewards[final["winner"]] == final["points"] == -rewards[1 - final["winner"]]


@pytest.mark.slow
def test_example_script_trains_one_epoch(script):
    """``python examples/tianshou_dqn.py --smoke``: one epoch of DQN, then test games."""
    out = script.main(["--smoke"])
    assert out["info"].train_step >= 200
    rewards = out["test_rewards"]
    assert len(rewards) == 2
    assert set(np.abs(rewards)) <= {1.0, 2.0, 3.0}  # every game played to its end
