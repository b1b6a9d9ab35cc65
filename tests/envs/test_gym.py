"""The single-agent Gymnasium environment: conformance (Gymnasium and SB3 checkers),
masks, illegal actions, seeding and determinism, options, and a MaskablePPO smoke run."""

from __future__ import annotations


import gymnasium
import numpy as np
import pytest

import bg_env  # noqa: F401  (registers bg_env/Backgammon-v0)
from bg_env.actions import DOUBLE, N_ACTIONS, ROLL, TAKE
from bg_env.rules import Position
from bg_env.game.game import IllegalActionError, Phase
from bg_env.envs.gym_env import BackgammonEnv
from helpers import assert_one_board_a_call

ENV_ID = "bg_env/Backgammon-v0"
START = "4HPwATDgc/ABMA"


def make(**kwargs) -> BackgammonEnv:
    return gymnasium.make(ENV_ID, **kwargs).unwrapped


def legal(info) -> np.ndarray:
    return np.flatnonzero(info["action_mask"])


def pick(info, rng) -> int:
    """A random legal action that mostly rolls and takes, so games are not all drops."""
    acts = legal(info)
    if ROLL in acts and rng.random() < 0.9:
        return ROLL
    if TAKE in acts and rng.random() < 0.9:
        return TAKE
    return int(rng.choice(acts))


# ------------------------------------------------------------------ conformance
def test_registered_and_spaces():
    env = gymnasium.make(ENV_ID, opponent="random")
    assert isinstance(env.unwrapped, BackgammonEnv)
    assert env.action_space == gymnasium.spaces.Discrete(N_ACTIONS)
    obs, info = env.reset(seed=0)
    assert env.observation_space.contains(obs)
    assert info["action_mask"].shape == (N_ACTIONS,) and info["action_mask"].any()


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("config", [{}, {"observation": "compact", "beaver": True}, {"cube": False}])
def test_gymnasium_check_env(config):
    from gymnasium.utils.env_checker import check_env

    check_env(make(**config), skip_render_check=True)


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_gymnasium_check_env_render():
    from gymnasium.utils.env_checker import check_env

    check_env(make(render_mode="ansi"))


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_sb3_check_env():
    pytest.importorskip("stable_baselines3")
    from stable_baselines3.common.env_checker import check_env

    check_env(make(), warn=True)
    check_env(make(observation="compact"), warn=True)


# ------------------------------------------------------------------ masks and illegal actions
def test_action_masks_equal_info_mask_at_every_step():
    env = make()
    rng = np.random.default_rng(0)
    steps = 0
    for episode in range(5):
        obs, info = env.reset(seed=episode)
        while True:
            masks = env.action_masks()
            assert masks.dtype == bool and masks.shape == (N_ACTIONS,)
            assert np.array_equal(masks, info["action_mask"].astype(bool))
            assert masks.any()
            # the mask is the learner's legal actions in the underlying game
            g = env.game_env
            assert g.agent_selection == env.learner
            assert np.flatnonzero(masks).tolist() == sorted(g.legal_actions())
            obs, reward, terminated, truncated, info = env.step(pick(info, rng))
            steps += 1
            if terminated or truncated:
                assert not env.action_masks().any()
                break
            assert reward == 0
    assert steps > 100


def test_the_random_opponent_plays_on_the_kernels():
    # its legal actions are read from the kernels' mask: the game is never handed over
    # to the slower Game (the same game: the engine and the Game roll the same dice)
    env = make()
    for episode in range(3):
        obs, info = env.reset(seed=episode)
        terminated = truncated = False
        while not (terminated or truncated):
            assert env.game_env.on_kernels
            obs, _, terminated, truncated, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
    assert env.game_env.on_kernels


@pytest.mark.parametrize("phase", ["move", "cube"])
def test_illegal_action_ends_episode_with_minus_one(phase):
    env = make(learner="player_0", cube=True)
    opts = {"position_id": START, "dice": (3, 1)} if phase == "move" else {"position_id": START}
    obs, info = env.reset(seed=0, options=opts)
    assert env.phase == phase
    pid = env.game_env.position_id()
    bad = int(np.flatnonzero(info["action_mask"] == 0)[0])
    obs, reward, terminated, truncated, info = env.step(bad)
    assert reward == -1 and terminated and not truncated
    assert info["illegal_action"] == bad
    assert env.game_env.position_id() == pid  # the game was not touched
    with pytest.raises(RuntimeError):
        env.step(bad)
    # a reset starts cleanly afterwards
    obs, info = env.reset(seed=1)
    assert "illegal_action" not in info


def test_out_of_range_action_is_illegal():
    env = make()
    env.reset(seed=3)
    obs, reward, terminated, truncated, info = env.step(N_ACTIONS + 7)
    assert reward == -1 and terminated and info["illegal_action"] == N_ACTIONS + 7


def test_forfeit_leaves_no_legal_action_as_a_game_end_does():
    env = gymnasium.make(ENV_ID)
    _, info = env.reset(seed=0)
    bad = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, _, terminated, _, info = env.step(bad)
    assert terminated and info["illegal_action"] == bad
    assert info["action_mask"].dtype == np.int8 and not info["action_mask"].any()
    assert not env.unwrapped.action_masks().any()


@pytest.mark.parametrize("env_id", [ENV_ID, "bg_env/BackgammonPlays-v0"])
def test_step_before_reset_asks_for_reset(env_id):
    env = gymnasium.make(env_id).unwrapped
    with pytest.raises(RuntimeError, match=r"before reset\(\); call reset\(\) first"):
        env.step(0)
    _, info = env.reset(seed=0)
    env.step(int(legal(info)[0]))


def test_illegal_action_raise_mode_and_custom_reward():
    env = make(illegal_action="raise")
    obs, info = env.reset(seed=0)
    bad = int(np.flatnonzero(info["action_mask"] == 0)[0])
    before = env.game_env.position_id()
    with pytest.raises(IllegalActionError):
        env.step(bad)
    assert env.game_env.position_id() == before
    env.step(int(legal(info)[0]))  # still usable
    env = make(illegal_reward=-3.0)
    obs, info = env.reset(seed=0)
    _, reward, terminated, _, _ = env.step(int(np.flatnonzero(info["action_mask"] == 0)[0]))
    assert reward == -3.0 and terminated


@pytest.mark.parametrize(
    "kwargs, word",
    [({"learner": "player_2"}, "learner"), ({"illegal_action": "ignore"}, "illegal_action"),
     ({"rewards": "win"}, "rewards"), ({"opponent": 42}, "opponent")],
)
def test_bad_arguments_raise_value_error(kwargs, word):
    with pytest.raises(ValueError) as err:
        make(**kwargs)
    assert word in str(err.value)


def test_max_turns_truncates_not_terminates():
    env = make(max_turns=4, cube=False)
    rng = np.random.default_rng(1)
    obs, info = env.reset(seed=0)
    for _ in range(200):
        obs, reward, terminated, truncated, info = env.step(pick(info, rng))
        if terminated or truncated:
            break
    assert truncated and not terminated and reward == 0
    assert env.game_env.game.turns == 4


# ------------------------------------------------------------------ colours, seeds, determinism
def test_learner_colour_varies_across_episodes():
    env = make()
    env.reset(seed=123)
    colours = [env.learner]
    for _ in range(30):
        env.reset()
        colours.append(env.learner)
    assert set(colours) == {"player_0", "player_1"}
    # and the learner is really the agent asked to act
    assert env.game_env.agent_selection == env.learner


@pytest.mark.parametrize("learner", ["player_0", "player_1"])
def test_fixed_learner_colour(learner):
    env = make(learner=learner)
    for seed in range(5):
        env.reset(seed=seed)
        assert env.learner == learner and env.game_env.agent_selection == learner


def _rollout(env, seed, episodes=3, policy_seed=0):
    """A seeded trajectory: observations, rewards, flags and masks, step by step."""
    rng = np.random.default_rng(policy_seed)
    trace = []
    obs, info = env.reset(seed=seed)
    for episode in range(episodes):
        if episode:
            obs, info = env.reset()
        trace.append(("reset", env.learner, obs.tobytes(), info["action_mask"].tobytes()))
        while True:
            action = pick(info, rng)
            obs, reward, terminated, truncated, info = env.step(action)
            trace.append((action, obs.tobytes(), reward, terminated, truncated,
                          info["action_mask"].tobytes(), info.get("outcome")))
            if terminated or truncated:
                break
    return trace


def test_same_seed_same_trajectory():
    a = _rollout(make(), seed=42)
    b = _rollout(make(), seed=42)
    assert len(a) == len(b) > 20
    for i, (x, y) in enumerate(zip(a, b)):
        assert x == y, f"trajectories differ at step {i}"
    # the same env object reseeded repeats itself too
    env = make()
    assert _rollout(env, seed=42) == _rollout(env, seed=42) == a


def test_different_seeds_give_different_trajectories():
    a = _rollout(make(), seed=1, episodes=1)
    b = _rollout(make(), seed=2, episodes=1)
    assert a != b


def test_episode_return_is_final_points():
    env = make(learner="player_0")
    rng = np.random.default_rng(5)
    seen = set()
    for seed in range(12):
        obs, info = env.reset(seed=seed)
        total = info.get("opening_reward", 0.0)
        while True:
            obs, reward, terminated, truncated, info = env.step(pick(info, rng))
            total += reward
            if terminated or truncated:
                break
        g = env.game_env.game
        assert g.phase == Phase.OVER
        sign = 1 if env.game_env.possible_agents[g.result.winner] == env.learner else -1
        assert total == sign * g.result.points
        assert info["outcome"] == g.result.outcome and info["cube_value"] == g.result.cube_value
        seen.add(sign)
    assert seen == {1, -1}


def test_reset_options_pass_through():
    pid = Position.from_layout({6: 2, 5: 2, 3: 3, 1: 1}, {6: 4, 5: 3, 4: 3, 2: 1}).position_id()
    env = make(learner="player_0")
    obs, info = env.reset(seed=0, options={"position_id": pid, "dice": (6, 5)})
    assert env.game_env.position_id() == pid
    assert sorted(env.game_env.dice) == [5, 6]
    assert env.phase == Phase.MOVE and env.action_masks().any()


def test_game_decided_before_the_learner_moves_reports_the_result_at_reset():
    """From a position where the opponent is on roll and bears off his last checker, the
    episode is over at reset: no legal action, the loss in ``info["opening_reward"]``."""
    pid = Position.from_layout({1: 1}, {6: 5, 5: 5, 4: 5}).position_id()

    def roller(env):
        acts = env.legal_actions()
        return ROLL if ROLL in acts else acts[0]

    env = make(learner="player_0", opponent=roller)
    obs, info = env.reset(seed=0, options={"position_id": pid, "agent": "player_1"})
    assert info["opening_reward"] == -2 and info["outcome"] == "gammon"
    assert info["winner"] == "player_1"
    assert not env.action_masks().any()
    with pytest.raises(RuntimeError):
        env.step(0)


def test_opponent_as_callable_and_agent_object():
    calls = []

    def first(env):
        calls.append(env.agent_selection)
        return int(env.legal_actions()[0])

    class Roller:
        def act(self, env):
            acts = env.legal_actions()
            return ROLL if ROLL in acts else int(acts[-1] if DOUBLE not in acts else acts[0])

    for opponent in (first, Roller()):
        env = make(opponent=opponent, learner="player_1")
        obs, info = env.reset(seed=0)
        for _ in range(30):
            obs, reward, terminated, truncated, info = env.step(int(legal(info)[0]))
            if terminated or truncated:
                break
    assert calls and set(calls) == {"player_0"}


# ------------------------------------------------------------------ training smoke test
@pytest.mark.slow
@pytest.mark.filterwarnings("ignore")
def test_maskable_ppo_smoke():
    sb3_contrib = pytest.importorskip("sb3_contrib")
    from sb3_contrib.common.maskable.utils import get_action_masks

    import torch

    threads = torch.get_num_threads()
    torch.set_num_threads(1)  # a tiny MLP: threads only add overhead
    try:
        env = make()
        env.reset(seed=0)
        model = sb3_contrib.MaskablePPO("MlpPolicy", env, n_steps=64, batch_size=32, seed=0,
                                        verbose=0, device="cpu")
        model.learn(total_timesteps=300)
    finally:
        torch.set_num_threads(threads)
    assert model.num_timesteps >= 300
    obs, info = env.reset(seed=7)
    for _ in range(50):
        masks = get_action_masks(env)
        action, _ = model.predict(obs, action_masks=masks, deterministic=True)
        assert masks[int(action)], "MaskablePPO chose a masked-out action"
        obs, reward, terminated, truncated, info = env.step(int(action))
        assert "illegal_action" not in info
        if terminated or truncated:
            obs, info = env.reset()


@pytest.mark.parametrize("learner", ["player_0", "player_1"])
def test_human_mode_draws_the_board_once_a_reset_and_a_step(learner, capsys):
    """As Gymnasium's envs: one board a call (the old view drew none at a reset where the
    learner moves first, and one for each of the opponent's decisions inside a step)."""
    env = gymnasium.make("bg_env/Backgammon-v0", render_mode="human", learner=learner, cube=True)
    assert_one_board_a_call(env, capsys)
