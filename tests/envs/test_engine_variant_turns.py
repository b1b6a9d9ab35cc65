"""``env(variant=...)`` for the variants whose moves are not standard plays on the engine
(:mod:`bg_env.core.variant_rows`, observations by :mod:`bg_env.envs.engine_obs`), and
is the game the :class:`Game` path plays: two envs with the same seed, one on the engine
and one handed over to a Game (reading ``env.game``) right after ``reset``, give the same
observations (both agents, both encoders, with and without the context block), masks,
rewards, terminations and infos after every decision.
"""

from __future__ import annotations

import copy
import pickle
import random

import numpy as np
import pytest

pytest.importorskip("numba")

from bg_env.actions import ROLL, TAKE  # noqa: E402
from bg_env.envs.backgammon import raw_env  # noqa: E402

VARIANTS = ("plakoto", "caucasian", "long_nardy")


def on_engine(env) -> bool:
    return env.on_kernels


def assert_same_env(a, b, where: str) -> None:
    assert a.agent_selection == b.agent_selection, where
    for agent in a.possible_agents:
        oa, ob = a.observe(agent), b.observe(agent)
        np.testing.assert_array_equal(oa["observation"], ob["observation"],
                                      err_msg=f"{agent} observation: {where}")
        np.testing.assert_array_equal(oa["action_mask"], ob["action_mask"],
                                      err_msg=f"{agent} mask: {where}")
        assert oa["observation"].dtype == ob["observation"].dtype
    assert a._cumulative_rewards == b._cumulative_rewards, where  # noqa: SLF001
    assert (a.terminations, a.truncations, a.infos) == (b.terminations, b.truncations,
                                                         b.infos), where


def pick(mask: np.ndarray, rnd: random.Random) -> int:
    legal = np.flatnonzero(mask).tolist()
    if ROLL in legal and rnd.random() < 0.8:
        return ROLL
    if TAKE in legal and rnd.random() < 0.8:
        return TAKE
    return rnd.choice(legal)


def play_pair(seed: int, **config) -> int:
    fast, slow = raw_env(**config), raw_env(**config)
    fast.reset(seed=seed)
    slow.reset(seed=seed)
    assert on_engine(fast) and on_engine(slow)
    assert_same_env(fast, slow, "reset")
    slow.game  # noqa: B018 - hands the game over to a Game
    assert not on_engine(slow)
    rnd = random.Random(seed)
    steps = 0
    while not any(fast.terminations.values()):
        where = f"{config} seed {seed} step {steps}"
        agent = fast.agent_selection
        action = pick(fast.observe(agent)["action_mask"], rnd)
        fast.step(action)
        slow.step(action)
        assert on_engine(fast), where
        assert_same_env(fast, slow, where)
        steps += 1
    return steps


@pytest.mark.parametrize("cube", [False, True])
@pytest.mark.parametrize("variant", VARIANTS)
def test_engine_env_is_the_game_env(variant, cube):
    steps = sum(play_pair(seed, variant=variant, cube=cube) for seed in range(3))
    assert steps > 20


@pytest.mark.parametrize("variant", ["plakoto", "long_nardy"])
@pytest.mark.parametrize("options", [dict(observation="compact"), dict(context=False),
                                     dict(observation="compact", context=False)])
def test_engine_env_encoders(variant, options):
    assert sum(play_pair(seed, variant=variant, cube=True, **options) for seed in range(2)) > 20


@pytest.mark.parametrize("variant", ["plakoto", "long_nardy"])
def test_copies_go_on_as_the_original(variant):
    """A deepcopy and a pickle of an engine env mid-game continue as the original does."""
    env = raw_env(variant=variant)
    env.reset(seed=3)
    rnd = random.Random(3)
    for _ in range(15):
        env.step(pick(env.observe(env.agent_selection)["action_mask"], rnd))
    copies = [copy.deepcopy(env), pickle.loads(pickle.dumps(env))]
    for _ in range(200):
        if any(env.terminations.values()):
            break
        action = pick(env.observe(env.agent_selection)["action_mask"], rnd)
        for e in [env, *copies]:
            e.step(action)
        for c in copies:
            assert_same_env(env, c, variant)


def test_mid_turn_hand_over_keeps_the_turn():
    """Reading ``env.game`` in the middle of a Plakoto turn gives the Game of that turn:
    the moves made, the dice left, the pins."""
    env = raw_env(variant="plakoto", cube=False)
    env.reset(seed=11)
    rnd = random.Random(11)
    made = 0
    for _ in range(200):
        agent = env.agent_selection
        action = pick(env.observe(agent)["action_mask"], rnd)
        env.step(action)
        made = made + 1 if env.agent_selection == agent and action < 150 else 0
        if made == 2:  # two moves of this turn made, the turn goes on
            break
    assert made == 2 and env.on_kernels
    expected = env.observe(env.agent_selection)
    game = env.game
    assert game.phase == "move" and len(game.played) >= 2 and not env.on_kernels
    got = env.observe(env.agent_selection)
    np.testing.assert_array_equal(got["observation"], expected["observation"])
    np.testing.assert_array_equal(got["action_mask"], expected["action_mask"])
