"""The factories researchers reach for: PettingZoo's registry, Gymnasium's vector entry
point, ``bg_env.make_vec_env``, Stable-Baselines3's ``make_vec_env``; and the one cube
default they all share."""

from __future__ import annotations

import importlib
import warnings

import gymnasium
import numpy as np
import pettingzoo
import pytest
from pettingzoo.test import api_test

import bg_env
from bg_env import backgammon_plays_v0, backgammon_v0
from bg_env.rules.actions import DOUBLE, N_ACTIONS
from bg_env.game.game import PURE_PYTHON, Game
from bg_env.envs.backgammon import OrderEnforcingWrapper
from bg_env.envs.backgammon import raw_env as moves_raw_env
from bg_env.envs.gym_vector import BackgammonVectorEnv, MaskedSyncVectorEnv
from bg_env.envs.plays_aec import raw_env as plays_raw_env

fast_path = pytest.mark.skipif(PURE_PYTHON, reason="BG_ENV_PURE_PYTHON=1: no numba kernels")
AEC_IDS = [("bg_env/Backgammon-v0", moves_raw_env), ("bg_env/backgammon_v0", moves_raw_env),
           ("bg_env/BackgammonPlays-v0", plays_raw_env),
           ("bg_env/backgammon_plays_v0", plays_raw_env)]


# ------------------------------------------------------------------ PettingZoo
@pytest.mark.parametrize("env_id, raw", AEC_IDS, ids=[i for i, _ in AEC_IDS])
def test_pettingzoo_make_builds_the_aec_env(env_id, raw):
    env = pettingzoo.make("aec", env_id)
    assert isinstance(env, OrderEnforcingWrapper) and type(env.unwrapped) is raw
    env = pettingzoo.make("aec", env_id, reward="win", max_turns=7)  # kwargs reach the env
    assert env.unwrapped.config.reward == "win" and env.unwrapped.config.max_turns == 7
    with pytest.raises(ValueError, match="colour"):
        pettingzoo.make("aec", env_id, colour="white")


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("env_id", ["bg_env/Backgammon-v0", "bg_env/BackgammonPlays-v0"])
def test_pettingzoo_api_test_on_the_registry_made_env(env_id):
    api_test(pettingzoo.make("aec", env_id), num_cycles=300)


def test_pettingzoo_make_with_cube_on_the_checker_move_env():
    env = pettingzoo.make("aec", "bg_env/Backgammon-v0", cube=True)
    assert env.unwrapped.config.game_rules.cube


def test_importing_again_registers_nothing_twice():
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # PettingZoo and Gymnasium warn when overriding an id
        importlib.reload(bg_env)
    assert "bg_env/Backgammon-v0" in pettingzoo.aec_registry


# ------------------------------------------------------------------ Gymnasium vector
def _random_actions(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    assert masks.dtype == bool and masks.any(axis=1).all()  # every game has a legal action
    return np.array([rng.choice(np.flatnonzero(m)) for m in masks])


def _rollout(venv, steps: int, seed: int):
    """Random masked actions; returns the per-step records and the finished games' infos."""
    rng = np.random.default_rng(seed)
    obs, _ = venv.reset(seed=seed)
    records, finished = [obs.copy()], []
    for _ in range(steps):
        obs, rewards, terminated, truncated, infos = venv.step(
            _random_actions(venv.action_masks(), rng))
        records.append((obs.copy(), rewards.copy(), terminated.copy(), truncated.copy()))
        done = terminated | truncated
        assert (rewards[~done] == 0).all()  # rewards only when a game ends
        for i in np.flatnonzero(done):
            assert infos["_final_obs"][i] and infos["final_obs"][i].shape == obs.shape[1:]
            info = {k: v[i] for k, v in infos["final_info"].items() if not k.startswith("_")}
            finished.append((int(i), float(rewards[i]), info))
    return records, finished


@fast_path
def test_gymnasium_vector_entry_point_runs_the_kernels_with_one_mask_row_per_game():
    venv = gymnasium.make_vec("bg_env/Backgammon-v0", num_envs=8,
                              vectorization_mode="vector_entry_point")
    assert isinstance(venv, BackgammonVectorEnv) and venv.num_envs == 8
    assert venv.metadata["autoreset_mode"] == gymnasium.vector.AutoresetMode.SAME_STEP
    assert venv.observation_space.shape == (8,) + venv.single_observation_space.shape
    records, finished = _rollout(venv, 400, seed=3)
    assert len(finished) >= 8  # games end and restart
    for i, reward, info in finished:
        assert info["outcome"] in ("single", "gammon", "backgammon")  # the cube is off
        assert abs(reward) == info["points"] >= 1 and info["cube_value"] == 1
    # each row is that game's learner's legal actions
    masks = venv.action_masks()
    assert masks.shape == (8, N_ACTIONS)
    for i in range(8):
        game = Game.from_games(venv.batch.games, i)
        assert game.actor == venv.batch.sides[i]
        assert np.flatnonzero(masks[i]).tolist() == sorted(game.legal_actions())
    # same seed, same games
    again, _ = _rollout(gymnasium.make_vec("bg_env/Backgammon-v0", num_envs=8,
                                           vectorization_mode="vector_entry_point"), 400, seed=3)
    for a, b in zip(records[1:], again[1:]):
        for x, y in zip(a, b):
            assert np.array_equal(x, y)


@fast_path
def test_gymnasium_vector_illegal_action_ends_that_game_only():
    venv = gymnasium.make_vec("bg_env/Backgammon-v0", num_envs=3,
                              vectorization_mode="vector_entry_point")
    venv.reset(seed=0)
    masks = venv.action_masks()
    actions = [int(np.flatnonzero(m)[0]) for m in masks]
    actions[1] = int(np.flatnonzero(~masks[1])[0])
    _, rewards, terminated, truncated, infos = venv.step(actions)
    assert terminated.tolist() == [False, True, False] and not truncated.any()
    assert rewards[1] == -1 and infos["final_info"]["illegal_action"][1] == actions[1]
    _, info = venv.reset(options={"position_id": "4HPwATDgc/ABMA", "dice": (3, 1)})
    assert info["opening_reward"].tolist() == [0.0, 0.0, 0.0]  # (a start from the position)
    with pytest.raises(ValueError, match="options of game 0: .*'nonsense'"):
        venv.reset(options={"position_id": "nonsense"})


def test_gymnasium_vector_entry_point_falls_back_to_single_envs_with_masks():
    first = lambda env: env.legal_actions()[0]  # noqa: E731 - an opponent the kernels lack
    for venv in (gymnasium.make_vec("bg_env/Backgammon-v0", num_envs=2, opponent=first,
                                    vectorization_mode="vector_entry_point"),
                 gymnasium.make_vec("bg_env/Backgammon-v0", num_envs=2, variant="plakoto",
                                    render_mode="ansi", vectorization_mode="vector_entry_point"),
                 gymnasium.make_vec("bg_env/BackgammonPlays-v0", num_envs=2,
                                    vectorization_mode="vector_entry_point")):
        assert isinstance(venv, MaskedSyncVectorEnv)
        records, _ = _rollout(venv, 30, seed=1)
        masks = venv.action_masks()
        assert masks.shape == (2, venv.single_action_space.n)
        for i, row in enumerate(masks):
            assert np.array_equal(row, venv.envs[i].unwrapped.action_masks())


# ------------------------------------------------------------------ SB3
def test_bg_env_make_vec_env_is_the_batched_vec_env():
    pytest.importorskip("stable_baselines3")
    from bg_env.envs.vector import BackgammonVecEnv, make_vec_env

    assert bg_env.make_vec_env is make_vec_env
    venv = bg_env.make_vec_env(4, seed=2)
    if not PURE_PYTHON:
        assert isinstance(venv.unwrapped, BackgammonVecEnv)
    rng = np.random.default_rng(2)
    venv.reset()
    dones = 0
    for _ in range(300):
        masks = venv.action_masks()
        assert masks.shape == (4, N_ACTIONS)
        _, rewards, done, infos = venv.step(_random_actions(masks, rng))
        dones += int(done.sum())
        assert all("terminal_observation" in infos[i] for i in np.flatnonzero(done))
    assert dones > 0
    with pytest.raises(AttributeError, match="no attribute 'make_vec'"):
        bg_env.make_vec  # noqa: B018


@pytest.mark.parametrize("env_id", ["bg_env/BackgammonPlays-v0", "bg_env/Backgammon-v0"])
def test_sb3_make_vec_env_on_the_ids(env_id):
    pytest.importorskip("stable_baselines3")
    from stable_baselines3.common.env_util import make_vec_env

    venv = make_vec_env(env_id, n_envs=2, seed=0)  # asks for render_mode="rgb_array"
    obs = venv.reset()
    assert obs.shape[0] == 2
    frames = venv.get_images()
    assert len(frames) == 2 and all(f.shape == (480, 640, 3) for f in frames)
    masks = np.stack(venv.env_method("action_masks"))
    rng = np.random.default_rng(0)
    for _ in range(5):
        venv.step(_random_actions(masks, rng))
        masks = np.stack(venv.env_method("action_masks"))


# ------------------------------------------------------------------ the cube default
def _cube_questions(env, games: int, seed: int) -> int:
    """How often DOUBLE was legal over ``games`` random games of a raw env."""
    rng = np.random.default_rng(seed)
    asked = 0
    for game in range(games):
        env.reset(seed=seed + game)
        while not (env.terminations[env.agent_selection] or env.truncations[env.agent_selection]):
            legal = env.legal_actions()
            asked += DOUBLE in legal
            env.step(int(rng.choice(legal)))
    return asked


def test_the_cube_is_off_by_default_in_every_view_and_on_when_asked():
    assert not backgammon_v0.raw_env().config.game_rules.cube
    assert not backgammon_v0.env().unwrapped.config.game_rules.cube
    assert not backgammon_plays_v0.raw_env().config.game_rules.cube
    assert not gymnasium.make("bg_env/Backgammon-v0").unwrapped.game_env.config.game_rules.cube
    assert not gymnasium.make("bg_env/BackgammonPlays-v0").unwrapped.rules.cube
    if not PURE_PYTHON:
        venv = gymnasium.make_vec("bg_env/Backgammon-v0", num_envs=1,
                                  vectorization_mode="vector_entry_point")
        assert not venv.batch.config.game_rules.cube
    assert _cube_questions(backgammon_v0.raw_env(), 3, seed=0) == 0
    assert _cube_questions(backgammon_v0.raw_env(cube=True), 3, seed=0) > 0
