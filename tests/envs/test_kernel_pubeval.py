"""The Gymnasium env's built-in ``opponent="pubeval"`` (:class:`bg_env.envs.gym_env.KernelPubeval`,
deciding in the kernels): the same games as ``agents.players.pubeval.PubevalAgent`` from the
same seeds, with the cube, in matches, in the variants with standard moves, from a started
position, across resets in the middle of a game and in a copy; a game on the kernels stays
there; the variants whose moves are not standard get the agent."""

from __future__ import annotations

import copy
import pickle

import gymnasium as gym
import numpy as np
import pytest

import bg_env  # noqa: F401  (registers the envs)
from agents.players.pubeval import PubevalAgent
from bg_env.envs.gym_env import KernelPubeval
from bg_env.game.game import PURE_PYTHON


def play(opponent, seed: int, steps: int, reset_every: int = 0, options=None, **config):
    """What the learner sees over ``steps`` random steps (its own generator), reset at
    each episode's end and every ``reset_every`` steps."""
    env = gym.make("bg_env/Backgammon-v0", opponent=opponent, **config)
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed, options=options)
    seen = [obs.tobytes()]
    for k in range(1, steps + 1):
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        obs, reward, term, trunc, info = env.step(action)
        seen.append((action, reward, term, trunc, obs.tobytes(), info["action_mask"].tobytes()))
        if term or trunc or (reset_every and k % reset_every == 0):
            obs, info = env.reset()
            seen.append(obs.tobytes())
    return seen


CONFIGS = [{}, {"cube": True}, {"match_length": 5, "cube": True},
           {"variant": "nackgammon"}, {"variant": "nuclear", "cube": True},
           {"variant": "hypergammon3"}, {"cube": True, "beaver": True, "jacoby": True}]


@pytest.mark.parametrize("config", CONFIGS,
                         ids=lambda c: "-".join(map(str, c.values())) or "standard")
def test_the_built_in_pubeval_plays_the_agents_games(config):
    env = gym.make("bg_env/Backgammon-v0", opponent="pubeval", **config)
    assert isinstance(env.unwrapped.opponent.__self__, KernelPubeval)
    for seed in (1, 2):
        assert play("pubeval", seed, 1500, **config) == play(PubevalAgent(), seed, 1500, **config)


def test_resets_in_the_middle_of_a_turn_and_a_started_position_change_nothing():
    for every in (3, 7, 40):
        assert play("pubeval", 5, 1200, every) == play(PubevalAgent(), 5, 1200, every)
    options = {"position_id": "4HPwATDgc/ABMA", "dice": (6, 5)}
    assert play("pubeval", 6, 600, options=options) == play(PubevalAgent(), 6, 600, options=options)


@pytest.mark.skipif(PURE_PYTHON, reason="BG_ENV_PURE_PYTHON=1: no kernels fast path")
def test_a_game_on_the_kernels_stays_there_against_pubeval():
    env = gym.make("bg_env/Backgammon-v0", opponent="pubeval")
    obs, info = env.reset(seed=3)
    rng = np.random.default_rng(3)
    for _ in range(200):
        assert env.unwrapped.game_env.on_kernels
        obs, _, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        if term or trunc:
            obs, info = env.reset()


def test_a_copy_and_a_pickle_go_on_as_the_original():
    env = gym.make("bg_env/Backgammon-v0", opponent="pubeval", cube=True).unwrapped
    obs, info = env.reset(seed=9)
    rng = np.random.default_rng(9)
    for _ in range(25):
        obs, _, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        if term or trunc:
            obs, info = env.reset()
    twins = [copy.deepcopy(env), pickle.loads(pickle.dumps(env))]
    runs = []
    for e in [env, *twins]:
        r, i, out = np.random.default_rng(10), info, []
        for _ in range(300):
            o, rew, term, trunc, i = e.step(int(r.choice(np.flatnonzero(i["action_mask"]))))
            out.append((o.tobytes(), rew, term, trunc))
            if term or trunc:
                o, i = e.reset()
        runs.append(out)
    assert runs[0] == runs[1] == runs[2]


def test_variants_whose_moves_are_not_standard_get_the_agent():
    env = gym.make("bg_env/Backgammon-v0", opponent="pubeval", variant="sudden_death")
    assert isinstance(env.unwrapped.opponent.__self__, PubevalAgent)
    raw = gym.make("bg_env/Backgammon-v0", variant="sudden_death").unwrapped.game_env
    raw.reset(seed=0)
    with pytest.raises(ValueError, match="standard moves only"):
        KernelPubeval().act(raw)
