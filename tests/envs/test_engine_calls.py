"""What the AEC env's fast path does to go faster keeps the env's behaviour: the kernels
called through their compiled entry points (:func:`bg_env.kernels.engine.compiled`), the
generator's addresses read from its capsule, the action spaces seeded when first used,
and the observations and reward dicts handed out never written again."""

from __future__ import annotations

import copy
import ctypes
import random

import gymnasium
import numpy as np
import pytest

from bg_env import backgammon_v0
from bg_env.actions import N_ACTIONS
from bg_env.game.game import PURE_PYTHON, Rules

pytestmark = pytest.mark.skipif(PURE_PYTHON, reason="the engine needs numba")

MASK = np.ones(N_ACTIONS, np.int8)


def _samples(space, n: int = 6) -> list[int]:
    return [int(space.sample(MASK)) for _ in range(n)]


def _seeded(seed: int) -> list[int]:
    return _samples(gymnasium.spaces.Discrete(N_ACTIONS, seed=seed))


def test_reset_seed_gives_each_action_space_the_draws_of_a_space_seeded_so():
    env = backgammon_v0.env()
    env.reset(seed=11)
    for i, agent in enumerate(env.possible_agents):
        assert _samples(env.action_space(agent)) == _seeded(11 + i)
    env.reset(seed=11)  # seeded again: the same draws again
    twin = copy.deepcopy(env)
    assert _samples(env.action_space("player_1")) == _seeded(12)
    assert _samples(twin.action_space("player_1")) == _seeded(12)
    env.reset()  # no seed: the spaces go on
    reference = gymnasium.spaces.Discrete(N_ACTIONS, seed=12)
    _samples(reference)
    assert _samples(env.action_space("player_1")) == _samples(reference)
    env.reset(seed=11)
    env.action_space("player_0").seed(3)  # the user's own seed wins
    assert _samples(env.action_space("player_0")) == _seeded(3)


def test_reset_without_seed_does_not_restart_the_action_spaces():
    env = backgammon_v0.env()
    env.reset(seed=5)
    space = env.action_space("player_0")
    first = _samples(space, 3)
    env.reset()
    reference = gymnasium.spaces.Discrete(N_ACTIONS, seed=5)
    assert first == _samples(reference, 3)
    assert _samples(space, 3) == _samples(reference, 3)


@pytest.mark.parametrize("bit_generator", [np.random.PCG64, np.random.PCG64DXSM,
                                           np.random.MT19937, np.random.Philox,
                                           np.random.SFC64])
def test_bit_generator_addresses_are_those_of_the_ctypes_interface(bit_generator):
    from bg_env.kernels.io import bit_generator_pointers

    rng = np.random.Generator(bit_generator(7))
    interface = rng.bit_generator.ctypes
    expected = (ctypes.cast(interface.next_uint32, ctypes.c_void_p).value,
                interface.state_address)
    assert bit_generator_pointers(rng) == expected
    assert bit_generator_pointers(random.Random(7)) is None


def test_engine_refuses_masked_out_and_out_of_range_actions_and_keeps_its_state():
    from bg_env.kernels.engine import EngineGame

    engine = EngineGame(Rules(cube=False))
    rng = np.random.default_rng(4)
    assert engine.open(rng)
    state = engine.games.state.copy()
    before = (engine.phase, engine.actor, engine.turns, engine.mask.copy())
    for action in (int(np.flatnonzero(engine.mask == 0)[0]), N_ACTIONS, -1):
        assert not engine.act(action, rng)
    assert not engine.act(int(np.flatnonzero(engine.mask)[0]), random.Random(0))
    assert (engine.phase, engine.actor, engine.turns) == before[:3]
    assert (engine.mask == before[3]).all() and (engine.games.state == state).all()


@pytest.mark.parametrize("encoder", ["tesauro", "compact"])
def test_compiled_calls_give_the_dispatchers_results(encoder):
    """An engine playing through the compiled entry points of the env's kernels and the
    same kernels called through numba's dispatcher on arrays of their own play the same
    game and encode the same observations."""
    from bg_env.kernels.games import Games
    from bg_env.kernels.engine import EngineGame, compiled
    from bg_env.kernels.io import bit_generator_pointers
    from bg_env.envs.observation import engine_kernels, observation_space

    open_kernel, act_kernel = engine_kernels(encoder)
    space = observation_space(encoder)
    out, theirs = (np.zeros((1,) + space.shape, space.dtype) for _ in range(2))
    rules = Rules(cube=True)
    engine, games = EngineGame(rules), Games(1, rules)
    engine.use_kernels(open_kernel, act_kernel, out)
    row, mask = (games.state[0], games.me[0], games.opp[0], games.rules), np.zeros_like(
        engine.mask)
    rng_engine, rng = np.random.default_rng(9), np.random.default_rng(9)
    pointers = bit_generator_pointers(rng)
    assert compiled(act_kernel, (*row, mask, 0, *pointers, out)) is not act_kernel
    assert engine.open(rng_engine)
    assert (engine.phase, engine.actor, engine.turns) == open_kernel(*row, mask, *pointers,
                                                                     theirs)
    pick = random.Random(9).choice
    while not engine.over:
        assert (engine.mask == mask).all() and (engine.games.state == games.state).all()
        assert (out == theirs).all()
        action = pick(np.flatnonzero(mask).tolist())
        assert engine.act(action, rng_engine)
        assert (engine.phase, engine.actor, engine.turns) == act_kernel(*row, mask, action,
                                                                        *pointers, theirs)
    assert (engine.games.state == games.state).all() and (out == theirs).all()
    plain = lambda *args: args  # noqa: E731 - not a numba dispatcher: itself
    assert compiled(plain, (1, 2)) is plain


def _play(env, seed: int) -> list[tuple]:
    """A seeded random game through the AEC loop, keeping what it hands out (references)
    and, beside each, a copy taken when it was handed out."""
    env.reset(seed=seed)
    pick = random.Random(seed).randrange
    kept = []
    while True:
        obs, _, terminated, truncated, _ = env.last()
        other = env.observe("player_1" if env.agent_selection == "player_0" else "player_0")
        kept.append((obs, copy.deepcopy(obs), other, copy.deepcopy(other), env.rewards,
                     dict(env.rewards)))
        if terminated or truncated:
            return kept
        legal = obs["action_mask"].nonzero()[0]
        env.step(int(legal[pick(len(legal))]))


@pytest.mark.parametrize("config", [{}, {"cube": True}, {"variant": "plakoto"},
                                    {"observation": "compact"}])
def test_observations_and_rewards_handed_out_are_never_written_again(config):
    env = backgammon_v0.env(**config)
    kept = _play(env, 21)
    _play(env, 22)  # a new game in the same env
    assert len(kept) > 2
    for obs, then, other, other_then, rewards, rewards_then in kept:
        for got, was in ((obs, then), (other, other_then)):
            assert (got["observation"] == was["observation"]).all()
            assert (got["action_mask"] == was["action_mask"]).all()
        assert rewards == rewards_then
    assert kept[-1][4] != {"player_0": 0, "player_1": 0}  # the game paid its winner
