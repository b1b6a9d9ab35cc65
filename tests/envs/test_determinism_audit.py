"""Determinism and copies at the edges that ``test_copy.py``, ``test_gym.py`` and
``test_pettingzoo.py`` leave out: one seed, one game, whoever draws the random numbers;
a copy made at any moment goes on as the original."""

from __future__ import annotations

import pickle
import warnings

import gymnasium
import numpy as np
import pytest

import bg_env  # noqa: F401 (registers the Gymnasium ids)
from agents import load_agent

GYM_IDS = ("bg_env/Backgammon-v0", "bg_env/BackgammonPlays-v0")


def _legal(env) -> np.ndarray:
    return np.flatnonzero(env.unwrapped.action_masks())


def _gym_rollout(env, seed: int, steps: int = 120) -> list:
    """Observations, rewards and flags of a seeded run with a fixed policy; a finished
    episode is followed by ``reset()`` without a seed."""
    obs, _ = env.reset(seed=seed)
    trace = [obs.tobytes()]
    for step in range(steps):
        legal = _legal(env)
        obs, reward, terminated, truncated, _ = env.step(int(legal[(7 * step + 3) % len(legal)]))
        trace.append((obs.tobytes(), reward, terminated, truncated))
        if terminated or truncated:
            obs, _ = env.reset()
            trace.append(obs.tobytes())
    return trace


# ------------------------------------------------------------------ opponents' own generators
@pytest.mark.parametrize("env_id", GYM_IDS)
def test_reset_seed_repeats_the_game_against_an_opponent_with_its_own_generator(env_id):
    """``random:3`` draws from its own generator: ``reset(seed=s)`` restarts it, so the same
    env reseeded plays the same games, and ``load_agent("random")`` (seeded from nowhere)
    too. Before, the opponent's stream went on and the second run differed
    (``check_env``: "Using `env.reset(seed=123)` is non-deterministic")."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for opponent in ("random:3", load_agent("random")):
            env = gymnasium.make(env_id, opponent=opponent)
            first = _gym_rollout(env, seed=5)
            assert _gym_rollout(env, seed=5) == first


def test_opponents_with_their_own_seeds_still_differ():
    """``random:7`` and ``random:8`` under the same env seed play different games."""
    traces = [_gym_rollout(gymnasium.make("bg_env/BackgammonPlays-v0", opponent=f"random:{s}"),
                           seed=5, steps=40) for s in (7, 8)]
    assert traces[0] != traces[1]


# ------------------------------------------------------------------ vector envs
def _vector_rollout(venv, steps: int = 12) -> list:
    """A vector env stepped with a fixed masked policy (same-step autoreset)."""
    trace = []
    for step in range(steps):
        masks = venv.action_masks()
        actions = [int(np.flatnonzero(m)[(7 * step + i) % m.sum()]) for i, m in enumerate(masks)]
        obs, rewards, terminated, truncated, _ = venv.step(np.array(actions))
        trace.append((obs.tobytes(), rewards.tobytes(), terminated.tobytes(), truncated.tobytes()))
    return trace


@pytest.mark.parametrize("env_id, kwargs", [
    ("bg_env/BackgammonPlays-v0", {}),
    ("bg_env/Backgammon-v0", {"opponent": "random:3"}),  # not on the kernels: single envs
])
def test_the_vector_entry_points_single_env_fallback_pickles_mid_game(env_id, kwargs):
    """``gymnasium.make_vec(..., vectorization_mode="vector_entry_point")`` off the kernels
    is a ``SyncVectorEnv`` of single envs, which keeps its env makers: made as lambdas they
    did not pickle (``Can't pickle local object``); as ``functools.partial`` they do, and
    the copy goes on as the original."""
    def make():
        venv = gymnasium.make_vec(env_id, num_envs=2, vectorization_mode="vector_entry_point",
                                  **kwargs)
        venv.reset(seed=21)
        _vector_rollout(venv, 5)
        return venv

    reference = _vector_rollout(make())
    assert _vector_rollout(pickle.loads(pickle.dumps(make()))) == reference


# ------------------------------------------------------------------ agents copied with the env
def _agent_drives(env, agent, steps: int = 60) -> list:
    """``agent`` plays both sides of the AEC ``env``; the actions and rewards."""
    trace = []
    for _ in range(steps):
        a = env.agent_selection
        if env.terminations[a] or env.truncations[a]:
            env.reset()
            trace.append("reset")
            continue
        action = agent.act(env)
        env.step(action)
        trace.append((action, tuple(env.rewards.values())))
    return trace


def test_an_agent_copied_with_the_env_mid_play_goes_on_with_its_plan():
    """A whole-play agent plans a turn and plays it move by move. Copied together with the
    env in the middle of that turn (``copy.deepcopy((env, agent))``, a pickle of both, as
    search and worker processes do), the copy finishes the same play and goes on as the
    original. The plan was keyed by ``id(game)``: the copy's game has another id, so the
    copy drew a new play; and an id reused by a later game could revive a stale plan."""
    import copy

    from bg_env import backgammon_v0

    env, agent = backgammon_v0.raw_env(), load_agent("random:1")
    env.reset(seed=31)
    for _ in range(200):  # until the agent is in the middle of a play of several moves
        mover = env.agent_selection
        env.step(agent.act(env))
        if env.agent_selection == mover and env.game.played:
            break
    assert env.game.played
    clones = [copy.deepcopy((env, agent)), pickle.loads(pickle.dumps((env, agent)))]
    original = _agent_drives(env, agent)
    for clone_env, clone_agent in clones:
        assert _agent_drives(clone_env, clone_agent) == original
