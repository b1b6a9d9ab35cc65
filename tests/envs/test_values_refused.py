"""Values that used to pass silently are refused by name, and the env is left as it was:
booleans where a count is meant, integers past what the kernels hold, a cube limit off the
cube's progression, a reward that is no number, a candidate count that cannot be
allocated, a seed list of the wrong length."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest

import bg_env
from bg_env import backgammon_plays_v0, backgammon_v0
from bg_env.game import Rules


@pytest.mark.parametrize("kwargs, words", [
    ({"max_turns": True}, "max_turns=True: expected a whole number"),
    ({"max_turns": 2**64}, "max_turns=18446744073709551616"),
    ({"max_turns": 0}, "max_turns=0"),
    ({"cube": True, "max_cube": 2**64}, "max_cube=18446744073709551616"),
    ({"cube": True, "max_cube": True}, "max_cube=True"),
    ({"cube": True, "max_cube": 3}, "max_cube=3: not a value the cube reaches"),
    ({"cube": True, "max_cube": 48}, "max_cube=48"),
    ({"cube": True, "auto_doubles": 2**70}, "auto_doubles=1180591620717411303424"),
    ({"cube": True, "auto_doubles": True}, "auto_doubles=True"),
])
def test_env_options_out_of_range_are_named(kwargs, words):
    with pytest.raises(ValueError, match=words.replace("(", r"\(")):
        backgammon_v0.env(**kwargs)


@pytest.mark.parametrize("max_cube", [0, 1, 2, 64, 2**30])
def test_cube_limits_on_the_geometric_progression_pass(max_cube):
    assert Rules(max_cube=max_cube).max_cube == max_cube


def test_the_arithmetic_progression_reaches_every_value():
    assert Rules(cube_progression="arithmetic", max_cube=3).max_cube == 3


@pytest.mark.parametrize("make", [
    lambda r: gymnasium.make("bg_env/Backgammon-v0", illegal_reward=r),
    lambda r: gymnasium.make("bg_env/BackgammonPlays-v0", illegal_reward=r),
    lambda r: bg_env.make_vec_env(2, illegal_reward=r),
])
@pytest.mark.parametrize("reward", ["x", float("nan"), float("inf"), True, None])
def test_an_illegal_reward_that_is_no_number_is_named(make, reward):
    with pytest.raises(ValueError, match="illegal_reward="):
        make(reward)


@pytest.mark.parametrize("make", [
    lambda k: gymnasium.make("bg_env/BackgammonPlays-v0", max_candidates=k),
    lambda k: backgammon_plays_v0.env(max_candidates=k),
])
def test_a_candidate_count_too_large_to_hold_is_named(make):
    with pytest.raises(ValueError, match="max_candidates=1000000: expected a whole number"):
        make(10**6)
    make(1024)  # the largest allowed still builds


def test_a_vector_seed_list_of_the_wrong_length_is_named_and_changes_nothing():
    venv = gymnasium.make_vec("bg_env/Backgammon-v0", num_envs=3,
                              vectorization_mode="vector_entry_point")
    first, _ = venv.reset(seed=[1, 2, 3])
    with pytest.raises(ValueError, match="a list of 2 seeds for 3 games"):
        venv.reset(seed=[1, 2])
    with pytest.raises(ValueError, match="seed -1"):
        venv.reset(seed=[1, 2, -1])
    again, _ = venv.reset(seed=[1, 2, 3])
    assert np.array_equal(first, again)


def _match_id(**changes) -> str:
    from dataclasses import replace

    from bg_env.rules.match_id import MatchState

    money = MatchState(player_on_roll=0, turn=0, jacoby=False)
    return replace(money, **changes).match_id()


@pytest.mark.parametrize("kwargs, changes, words", [
    ({"cube": True}, {"cube_owner": 0}, "a cube of 1 owned by player 0"),
    ({"cube": True}, {"jacoby": True}, "has the Jacoby rule on; this env plays jacoby=False"),
    ({"cube": True, "jacoby": True}, {}, "has the Jacoby rule off; this env plays jacoby=True"),
])
def test_a_match_id_the_env_cannot_honour_is_named_and_the_game_goes_on(kwargs, changes, words):
    env = backgammon_v0.env(**kwargs)
    env.reset(seed=0)
    before = env.unwrapped.match_id()
    with pytest.raises(ValueError, match=words):
        env.reset(seed=0, options={"match_id": _match_id(**changes)})
    assert env.unwrapped.match_id() == before


def test_a_match_id_that_fits_starts_the_game():
    env = backgammon_v0.env(cube=True, jacoby=True)
    env.reset(seed=0, options={"match_id": _match_id(jacoby=True, cube_value=2, cube_owner=1)})
    assert env.unwrapped.game.cube_value == 2


def test_games_are_bounded_by_default_and_the_cap_can_be_lifted():
    import random

    from bg_env.envs.config import DEFAULT_MAX_TURNS

    assert backgammon_v0.env().unwrapped.config.max_turns == DEFAULT_MAX_TURNS == 2000
    assert backgammon_v0.env(max_turns=None).unwrapped.config.max_turns is None
    assert backgammon_plays_v0.env().unwrapped.config.max_turns == DEFAULT_MAX_TURNS
    env, rng = backgammon_v0.env(variant="nuclear"), random.Random(0)
    for seed in range(20):  # random nuclear games run 6,000 turns on average
        env.reset(seed=seed)
        for agent in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            env.step(None if terminated or truncated else
                     rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
        assert env.unwrapped.game.turns <= DEFAULT_MAX_TURNS
        if truncated:
            assert env.unwrapped.game.turns == DEFAULT_MAX_TURNS
            break
    assert truncated
