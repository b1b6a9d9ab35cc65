"""``env(variant=...)`` plays every variant's money games on the engine (the rules array's
columns, :mod:`bg_env.kernels.batch_rules`; the turns of the variants whose moves are not
standard, :mod:`bg_env.kernels.batch_variants`; observations with the context block by
:mod:`bg_env.envs.engine_obs`), and is the game the :class:`Game` path plays: two envs
with the same seed, one on the engine and one handed over to a Game (reading ``env.game``)
right after ``reset``, give the same observations (both agents, both encoders, with and
without the context block), masks, rewards, terminations and infos after every decision;
a game handed over in the middle goes on as the Game would have played it. Asking the
engine's env for its ``legal_actions()`` leaves it on the kernels.
"""

from __future__ import annotations

import copy
import pickle
import random

import numpy as np
import pytest

pytest.importorskip("numba")

from bg_env.actions import BOMB, ROLL, TAKE  # noqa: E402
from bg_env.envs.backgammon import raw_env  # noqa: E402
from bg_env.envs.context import CONTEXT_SIZE, VARIANT_ORDER  # noqa: E402

VARIANTS = VARIANT_ORDER
"""Every variant (standard included: with the context block it runs on engine_obs)."""
MIN_STEPS = {"hypergammon1": 8}
"""Decisions three games make at least (20 but in the shortest variant)."""


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
    assert a.legal_actions() == b.legal_actions(), where  # read on the kernels as they are
    assert a._cumulative_rewards == b._cumulative_rewards, where  # noqa: SLF001
    assert (a.terminations, a.truncations, a.infos) == (b.terminations, b.truncations,
                                                         b.infos), where


def pick(mask: np.ndarray, rnd: random.Random) -> int:
    legal = np.flatnonzero(mask).tolist()
    if BOMB in legal and rnd.random() < 0.3:  # nuclear: set off the bomb now and then
        return BOMB
    if ROLL in legal and rnd.random() < 0.8:
        return ROLL
    if TAKE in legal and rnd.random() < 0.8:
        return TAKE
    return rnd.choice(legal)


def play_pair(seed: int, hand_over_at: int = -1, **config) -> int:
    """Play a game on both envs (``slow`` on a Game from the start; ``fast`` handed over
    to a Game at decision ``hand_over_at``, if any); returns the decisions played."""
    fast, slow = raw_env(**config), raw_env(**config)
    fast.reset(seed=seed)
    slow.reset(seed=seed)
    assert on_engine(fast) and on_engine(slow)
    assert_same_env(fast, slow, "reset")
    slow.game  # noqa: B018 - hands the game over to a Game
    assert not on_engine(slow)
    rnd = random.Random(seed)
    steps = 0
    while not any(fast.terminations.values()) and not any(fast.truncations.values()):
        where = f"{config} seed {seed} step {steps}"
        agent = fast.agent_selection
        if steps == hand_over_at:
            fast.game  # noqa: B018 - the engine's game handed over mid-game
        action = pick(fast.observe(agent)["action_mask"], rnd)
        fast.step(action)
        slow.step(action)
        assert on_engine(fast) == (hand_over_at < 0 or steps < hand_over_at), where
        assert_same_env(fast, slow, where)
        steps += 1
    return steps


@pytest.mark.parametrize("cube", [False, True])
@pytest.mark.parametrize("variant", VARIANTS)
def test_engine_env_is_the_game_env(variant, cube):
    steps = sum(play_pair(seed, variant=variant, cube=cube) for seed in range(3))
    assert steps > MIN_STEPS.get(variant, 20)


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_game_handed_over_mid_game_goes_on_as_game(variant):
    for seed in range(3):
        play_pair(10 + seed, hand_over_at=3 + 5 * seed, variant=variant, cube=True)


def test_nuclear_bomb_on_the_engine_is_the_game_bomb():
    """Random play sets off the bomb on the engine, which plays on (no hand-over)."""
    bombs = 0
    for seed in range(3):
        env = raw_env(variant="nuclear", cube=True)
        env.reset(seed=seed)
        rnd = random.Random(seed)
        while not any(env.terminations.values()) and not any(env.truncations.values()):
            action = pick(env.observe(env.agent_selection)["action_mask"], rnd)
            bombs += action == BOMB
            env.step(action)
            assert env.on_kernels
    assert bombs > 0


def test_every_variant_runs_on_the_kernels_with_its_context_block():
    for variant in VARIANTS[1:]:
        env = raw_env(variant=variant)
        env.reset(seed=0)
        assert env.on_kernels, variant
        obs = env.observe(env.agent_selection)["observation"]
        assert obs.shape[0] == 212 + CONTEXT_SIZE
    env = raw_env(match_length=3)  # match play too (tests/envs/test_engine_match.py)
    env.reset(seed=0)
    assert env.on_kernels


@pytest.mark.parametrize("variant", ["plakoto", "long_nardy", "nuclear", "hypergammon2"])
@pytest.mark.parametrize("options", [dict(observation="compact"), dict(context=False),
                                     dict(observation="compact", context=False)])
def test_engine_env_encoders(variant, options):
    assert sum(play_pair(seed, variant=variant, cube=True, **options) for seed in range(2)) > 20


@pytest.mark.parametrize("variant", ["plakoto", "long_nardy", "nuclear", "sudden_death"])
def test_copies_go_on_as_the_original(variant):
    """A deepcopy and a pickle of an engine env mid-game continue as the original does."""
    env = raw_env(variant=variant)
    env.reset(seed=3)
    rnd = random.Random(3)
    for _ in range(15):
        if any(env.terminations.values()):  # (sudden death: a short game) the next one
            env.reset()
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
    for _ in range(40):
        mask = env.observe(env.agent_selection)["action_mask"]
        env.step(pick(mask, rnd))
        if env._engine.games.state[0][19] == 1:  # noqa: SLF001 - one move made this turn
            break
    expected = env.observe(env.agent_selection)
    game = env.game
    assert game.phase == "move" and len(game.played) == 1
    got = env.observe(env.agent_selection)
    np.testing.assert_array_equal(got["observation"], expected["observation"])
    np.testing.assert_array_equal(got["action_mask"], expected["action_mask"])
