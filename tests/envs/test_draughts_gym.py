"""The draughts Gymnasium env (``gymnasium.make("bg_env/Draughts-v0")``): Gymnasium's env
checker, the learner in both seats against an opponent, rewards, illegal actions, seeds."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import bg_env  # noqa: F401  (registers the envs)
from bg_env.envs.draughts_gym import DraughtsGymEnv


def test_gymnasium_env_checker(capsys):
    check_env(gym.make("bg_env/Draughts-v0", variant="english").unwrapped)
    capsys.readouterr()  # (the checker makes the env with render_mode="human" too)


def test_pettingzoo_registry_has_the_two_agent_env():
    import pettingzoo

    if not hasattr(pettingzoo, "aec_registry"):
        pytest.skip("PettingZoo < 1.27 has no registry")
    env = pettingzoo.make("aec", "bg_env/Draughts-v0")
    env.reset(seed=0)
    assert env.unwrapped.metadata["name"] == "draughts_v0"


def play_out(env, rng) -> tuple[float, int, dict]:
    total, steps, info = 0.0, 0, {}
    while True:
        mask = env.unwrapped.action_masks()
        assert mask.any()
        _, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        total, steps = total + reward, steps + 1
        if terminated or truncated:
            return total, steps, info


@pytest.mark.parametrize("learner", ["player_0", "player_1"])
def test_a_learner_plays_either_seat_to_the_end(learner):
    env = gym.make("bg_env/Draughts-v0", variant="russian", learner=learner)
    rng = np.random.default_rng(0)
    for seed in range(4):
        obs, info = env.reset(seed=seed)
        assert obs.shape == (8, 8, 6) and info["opening_reward"] == 0.0
        assert env.unwrapped.game_env.agent_selection == learner
        assert obs[5:, :, 0].sum() == 12  # its own men at its bottom
        total, steps, info = play_out(env, rng)
        assert total in (-1.0, 0.0, 1.0) and steps > 5
        assert info["reason"] in ("no moves", "repetition", "quiet moves", "endgame")
        assert not env.unwrapped.action_masks().any()


def test_the_same_seed_plays_the_same_game():
    def game(seed):
        env = gym.make("bg_env/Draughts-v0", variant="english")
        env.reset(seed=seed)
        rng, fens = np.random.default_rng(seed), []
        while True:
            mask = env.unwrapped.action_masks()
            _, _, done, _, _ = env.step(int(rng.choice(np.flatnonzero(mask))))
            fens.append(env.unwrapped.game_env.fen())
            if done:
                return env.unwrapped.learner, fens
    assert game(5) == game(5) and game(5) != game(6)


def test_an_illegal_action_is_a_loss_or_raises():
    env = gym.make("bg_env/Draughts-v0", learner="player_0")
    env.reset(seed=0)
    illegal = int(np.flatnonzero(~env.unwrapped.action_masks())[0])
    _, reward, terminated, _, info = env.step(illegal)
    assert reward == -1.0 and terminated and info["illegal_action"] == illegal
    with pytest.raises(RuntimeError, match="finished episode"):
        env.step(0)
    strict = gym.make("bg_env/Draughts-v0", learner="player_0", illegal_action="raise")
    strict.reset(seed=0)
    fen = strict.unwrapped.game_env.fen()
    with pytest.raises(ValueError, match=f"action {illegal} is not a legal hop of player_0"):
        strict.step(illegal)
    assert strict.unwrapped.game_env.fen() == fen


def test_an_opponent_object_or_callable_plays():
    def first(env):
        return int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0])

    class First:
        def act(self, env):
            return first(env)

    for opponent in (first, First()):
        env = DraughtsGymEnv(opponent=opponent, variant="english", learner="player_1")
        obs, _ = env.reset(seed=0)
        assert env.game_env.game.plies == 1  # the opponent (black, first) has moved
        assert play_out(env, np.random.default_rng(0))[1] > 0


def test_bad_arguments_are_named():
    with pytest.raises(ValueError, match="learner='white'"):
        DraughtsGymEnv(learner="white")
    with pytest.raises(ValueError, match="opponent=3"):
        DraughtsGymEnv(opponent=3)
    with pytest.raises(ValueError, match="illegal_action='skip'"):
        DraughtsGymEnv(illegal_action="skip")


def test_the_episode_is_truncated_at_max_moves():
    env = gym.make("bg_env/Draughts-v0", variant="english", max_moves=6, learner="player_1")
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    for _ in range(10):
        legal = np.flatnonzero(env.unwrapped.action_masks())
        _, reward, terminated, truncated, info = env.step(int(rng.choice(legal)))
        if terminated or truncated:
            break
    assert truncated and not terminated and reward == 0.0
    assert info["reason"] == "move limit" and not env.unwrapped.action_masks().any()
    assert env.unwrapped.game_env.game.plies == 6
    with pytest.raises(ValueError, match="max_moves=0"):
        DraughtsGymEnv(max_moves=0)
