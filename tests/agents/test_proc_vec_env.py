"""ProcessVecEnv: many envs in a few processes, as SB3's DummyVecEnv would step them."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

pytest.importorskip("stable_baselines3")

from stable_baselines3.common.vec_env import DummyVecEnv  # noqa: E402

from agents.training.proc_vec_env import ProcessVecEnv, split_evenly  # noqa: E402


class Countdown(gym.Env):
    """Observation: [ident, steps left]; ends after ``ident + 2`` steps; action 9 is bad."""

    observation_space = gym.spaces.Box(-1.0, 100.0, (2,), np.float32)
    action_space = gym.spaces.Discrete(10)

    def __init__(self, ident: int) -> None:
        self.ident = ident

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        self.left = self.ident + 2 + int(self.np_random.integers(2))
        return np.array([self.ident, self.left], np.float32), {"seeded": seed}

    def step(self, action):
        if action == 9:
            raise ValueError(f"action {action}: bad")
        self.left -= 1
        obs = np.array([self.ident, self.left], np.float32)
        return obs, float(action), self.left == 0, False, {}

    def who(self, x):
        return self.ident, x


def _fns(n):
    return [lambda i=i: Countdown(i) for i in range(n)]


def test_split_evenly_covers_every_index_once():
    parts = split_evenly(7, 3)
    assert [len(p) for p in parts] == [3, 2, 2]
    assert [i for p in parts for i in p] == list(range(7))


def test_steps_like_dummy_vec_env_and_raises_workers_errors():
    procs, dummy = ProcessVecEnv(_fns(5), workers=2), DummyVecEnv(_fns(5))
    try:
        for venv in (procs, dummy):
            venv.seed(11)
        assert np.array_equal(procs.reset(), dummy.reset())
        assert procs.reset_infos == dummy.reset_infos
        rng = np.random.default_rng(0)
        for _ in range(8):
            actions = rng.integers(0, 9, size=5)
            (o1, r1, d1, i1), (o2, r2, d2, i2) = procs.step(actions), dummy.step(actions)
            assert np.array_equal(o1, o2) and np.array_equal(r1, r2) and np.array_equal(d1, d2)
            for a, b in zip(i1, i2):
                assert a.keys() == b.keys()
                if "terminal_observation" in a:
                    assert np.array_equal(a["terminal_observation"], b["terminal_observation"])
        assert procs.env_method("who", "x", indices=[1, 3]) == [(1, "x"), (3, "x")]
        assert procs.get_attr("ident") == list(range(5))
        procs.set_attr("ident", 7, indices=[4])
        assert procs.get_attr("ident", indices=[4]) == [7]
        with pytest.raises(ValueError, match="action 9"):
            procs.step(np.array([0, 0, 0, 9, 0]))
        assert procs.env_method("who", 1) == [(i, 1) for i in (0, 1, 2, 3, 7)]  # still in step
    finally:
        procs.close()
        dummy.close()
    assert not any(p.is_alive() for p in procs.processes)


@pytest.mark.parametrize("workers", [0, 6])
def test_workers_outside_one_to_n_envs_are_refused(workers):
    with pytest.raises(ValueError, match="workers"):
        ProcessVecEnv(_fns(5), workers=workers)
