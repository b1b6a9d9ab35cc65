"""The Tianshou recipe ``examples/tianshou_dqn.py``: the single-agent Gymnasium env (the
random opponent moves inside ``step``) in a wrapper that gives Tianshou's masked DQN its
``{"obs", "mask"}`` observation. Skipped when Tianshou is not installed
(``pip install -e ".[tianshou]"``)."""

from __future__ import annotations

from functools import partial
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("tianshou")

from tianshou.data import Collector, CollectStats, VectorReplayBuffer
from tianshou.env import DummyVectorEnv

from helpers import load_script  # noqa: E402

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def load_example(name: str):
    return load_script(EXAMPLES / f"{name}.py")


@pytest.fixture
def script():
    return load_example("tianshou_dqn")


def test_every_step_has_the_same_info_keys(script):
    env = script.make_env(script.parse_args(["--smoke"]))
    obs, info = env.reset(seed=0)
    infos = [info]
    rng = np.random.default_rng(0)
    terminated = truncated = False
    while not (terminated or truncated):
        action = int(rng.choice(np.flatnonzero(obs["mask"])))
        obs, reward, terminated, truncated, info = env.step(action)
        infos.append(info)
    assert {tuple(sorted(i)) for i in infos} == {("points", "winner")}
    assert all(i == {"points": 0, "winner": -1} for i in infos[:-1])
    final = infos[-1]
    assert final["winner"] in (0, 1) and final["points"] > 0
    assert reward == (final["points"] if final["winner"] == 0 else -final["points"])
    assert not obs["mask"].any()


def learner_rows(batch, seat: int):
    """The learner's transitions (rewards, done flags) in a buffer's batch: every row of a
    single-agent buffer; in a two-agent one, the rows the learner's seat acted in."""
    rew, done = np.asarray(batch.rew), np.asarray(batch.done)
    agent_id = getattr(batch.obs, "agent_id", None)
    if agent_id is None:
        return rew, done
    mine = np.asarray(agent_id) == f"player_{seat}"
    return rew[mine, seat], done[mine]


@pytest.mark.parametrize("seat", [0, 1])
def test_learner_transitions_carry_every_game_result(script, seat):
    """Tianshou credits a step's reward to its own transition: the learner's transitions
    must sum to the games' true results and its last one in each game must be done (a
    game that ends on the opponent's move, or the engine's forced move, included)."""
    args = script.parse_args(["--smoke", "--seat", f"player_{seat}"])
    envs = DummyVectorEnv([partial(script.make_env, args)])
    envs.seed(seat)
    buffer = VectorReplayBuffer(20_000, 1)
    collector = Collector[CollectStats](script.build(args), envs, buffer, exploration_noise=True)
    collector.reset()
    games = 12
    collector.collect(n_episode=games)
    batch = buffer[np.arange(len(buffer))]
    done = np.asarray(batch.done)
    winner, points = (np.asarray(batch.info[k])[done] for k in ("winner", "points"))
    assert done.sum() == games and (winner >= 0).all() and (points > 0).all()
    truth = np.where(winner == seat, points, -points).sum()
    rewards, learner_done = learner_rows(batch, seat)
    assert rewards.sum() == truth
    assert learner_done.sum() == games


@pytest.mark.slow
def test_example_script_trains_one_epoch(script):
    """``python examples/tianshou_dqn.py --smoke``: one epoch of DQN, then test games."""
    out = script.main(["--smoke"])
    assert out["info"].train_step >= 200
    rewards = out["test_rewards"]
    assert len(rewards) == 2
    assert set(np.abs(rewards)) <= {1.0, 2.0, 3.0}  # every game played to its end
