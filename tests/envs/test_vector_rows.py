"""The rows of a :class:`~bg_env.envs.kernel_batch.KernelBatch` are independent games:
the games of a batch of 8 are those of 8 batches of 1 with the same seeds and actions
(pubeval's work arrays, shared by the rows of a batch, carry nothing from one row or
decision to the next), and the observations a step returns, whose restarted rows alone
are encoded again, are those a full :meth:`~bg_env.envs.kernel_batch.KernelBatch.observe`
gives.
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("numba")

from bg_env.game.game import PURE_PYTHON  # noqa: E402
from bg_env.envs.kernel_batch import KernelBatch  # noqa: E402

pytestmark = pytest.mark.skipif(PURE_PYTHON, reason="BG_ENV_PURE_PYTHON=1: no numba kernels")

ROWS = 8
SEED = 40

INDEPENDENT = {
    "pubeval": dict(opponent="pubeval"),
    "pubeval_sudden_death": dict(opponent="pubeval", variant="sudden_death"),
    "pubeval_caucasian_context": dict(opponent="pubeval", variant="caucasian", cube=True),
    "pubeval_caucasian_match3": dict(opponent="pubeval", variant="caucasian", match_length=3,
                                     cube=True),
    "random_match5_compact": dict(match_length=5, cube=True, observation="compact"),
    "random_plakoto": dict(variant="plakoto"),
}
RESTARTS = {
    "standard": dict(),
    "context_compact": dict(context=True, observation="compact"),
    "nuclear": dict(variant="nuclear", cube=True, max_turns=30),
    "match3_context": dict(match_length=3, cube=True, match_reward="equity"),
    "match5_compact": dict(match_length=5, cube=True, observation="compact"),
    "long_nardy": dict(variant="long_nardy", max_turns=40),
    "plakoto_match3_compact": dict(variant="plakoto", match_length=3, observation="compact",
                                   max_turns=30),
    "pubeval_caucasian": dict(opponent="pubeval", variant="caucasian"),
}


def _trajectories(seeds: list[int], rows: list[int], config: dict, steps: int) -> list[list]:
    """``steps`` steps of one batch of ``len(seeds)`` games (game ``j`` seeded
    ``seeds[j]``, its learner's actions drawn by a generator of its own, seeded
    ``rows[j]``): per game, what each step returned for it."""
    kb = KernelBatch(len(seeds), **config)
    kb.seed(seeds)
    rngs = [np.random.default_rng(r) for r in rows]
    obs = kb.reset()
    out: list[list] = [[("reset", obs[j])] for j in range(len(seeds))]
    for _ in range(steps):
        masks = kb.action_masks()
        actions = np.array([rng.choice(np.flatnonzero(m)) for rng, m in zip(rngs, masks)])
        obs, rewards, dones, infos = kb.step(actions)
        for j in range(len(seeds)):
            info = dict(infos[j])
            terminal = info.pop("terminal_observation", None)
            out[j].append((obs[j], masks[j], rewards[j], dones[j], info, terminal))
    return out


def _assert_same(a: list, b: list, where: str) -> None:
    assert len(a) == len(b)
    for step, (x, y) in enumerate(zip(a, b)):
        for u, v in zip(x, y):
            if isinstance(u, np.ndarray) or isinstance(v, np.ndarray):
                np.testing.assert_array_equal(u, v, err_msg=f"{where} step {step}")
            else:
                assert u == v, f"{where} step {step}"


@pytest.mark.parametrize("name", list(INDEPENDENT))
def test_a_batch_of_8_plays_the_games_of_8_batches_of_1(name):
    config = INDEPENDENT[name]
    steps = 60
    seeds = [SEED + j for j in range(ROWS)]
    together = _trajectories(seeds, list(range(ROWS)), config, steps)
    finished = sum(bool(t[3]) for row in together for t in row[1:])
    assert finished >= 2  # games restarted within the batch
    for j in range(ROWS):
        alone = _trajectories([seeds[j]], [j], config, steps)[0]
        _assert_same(together[j], alone, f"{name} row {j}")


@pytest.mark.parametrize("name", list(RESTARTS))
def test_step_observations_equal_a_full_observe(name):
    """The observations a step returns (every row encoded, then the restarted rows
    alone) are those of a full observation of the batch, and a finished game's
    ``terminal_observation`` is not its restarted row's."""
    kb = KernelBatch(12, **RESTARTS[name])
    kb.seed(5)
    rng = np.random.default_rng(5)
    kb.reset()
    finished = differ = 0
    for _ in range(80):
        masks = kb.action_masks()
        obs, _, dones, infos = kb.step(np.array([rng.choice(np.flatnonzero(m))
                                                 for m in masks]))
        np.testing.assert_array_equal(obs, kb.observe())
        for i in np.flatnonzero(dones):
            finished += 1
            differ += not np.array_equal(infos[i]["terminal_observation"], obs[i])
    assert finished >= 3 and differ == finished
