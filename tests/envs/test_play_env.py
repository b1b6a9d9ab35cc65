"""The play-level Gymnasium env (``bg_env/BackgammonPlays-v0``): conformance, candidates
against the rules on random positions, masks and padding, the cut past K, illegal
actions, rewards, opponents and seeding."""

from __future__ import annotations

import random

import gymnasium
import numpy as np
import pytest
from helpers import assert_one_board_a_call, random_turns

from bg_env.game.game import IllegalActionError
from bg_env.rules.position import Position
from bg_env.envs.candidates import keep_key
from bg_env.envs.observation import encode_boards
from bg_env.envs.play_env import (
    ENV_ID,
    N_FEATURES,
    PRESENT,
    BackgammonPlaysEnv,
    board_features,
    candidate_features,
    order_candidates,
    play_features,
    register,
)

START = "4HPwATDgc/ABMA"


def table(obs: np.ndarray, env: BackgammonPlaysEnv) -> np.ndarray:
    return obs.reshape(env.max_candidates, N_FEATURES)



def results(plays) -> set:
    return {p.result for p in plays}


# ------------------------------------------------------------------ conformance
def test_registered_and_spaces():
    register()
    env = gymnasium.make(ENV_ID, opponent="random")
    assert isinstance(env.unwrapped, BackgammonPlaysEnv)
    assert env.action_space == gymnasium.spaces.Discrete(64)
    assert env.observation_space.shape == (64 * N_FEATURES,)
    obs, info = env.reset(seed=0)
    assert env.observation_space.contains(obs)
    assert info["action_mask"].shape == (64,) and info["action_mask"].sum() >= 2


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("kwargs", [{}, {"max_candidates": 16, "reward": "win"},
                                    {"opponent": "pubeval", "gammons": "none"}])
def test_gymnasium_check_env(kwargs):
    from gymnasium.utils.env_checker import check_env

    register()
    check_env(gymnasium.make(ENV_ID, render_mode="ansi", **kwargs).unwrapped)


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_sb3_check_env():
    pytest.importorskip("stable_baselines3")
    from stable_baselines3.common.env_checker import check_env

    check_env(BackgammonPlaysEnv(), warn=True)
    check_env(BackgammonPlaysEnv(max_candidates=8, opponent="pubeval"), warn=True)


def test_render_ansi_shows_the_learners_board():
    env = BackgammonPlaysEnv(render_mode="ansi")
    env.reset(seed=1, options={"position_id": START, "dice": (3, 1)})
    text = env.render()
    assert isinstance(text, str) and "learner" in text and "candidates: 16" in text


@pytest.mark.parametrize("learner", ["player_0", "player_1"])
def test_human_mode_prints_the_board_once_a_reset_and_a_step(learner, capsys):
    """``gymnasium.make(..., render_mode="human")`` (it wrapped the env in Gymnasium's
    pygame ``HumanRendering`` when the env did not list "human", and reset() raised)."""
    assert_one_board_a_call(gymnasium.make(ENV_ID, render_mode="human", learner=learner), capsys)


# ------------------------------------------------------------------ candidates
def test_candidates_are_the_legal_plays_on_random_positions():
    env = BackgammonPlaysEnv(max_candidates=1024)
    checked = 0
    for pos, dice, plays in random_turns(3, 400):
        if len(plays) < 2:
            continue
        options = {"position_id": pos.position_id(), "dice": dice}
        obs, info = env.reset(seed=checked, options=options)
        assert results(env.candidates) == results(plays), (pos.position_id(), dice)
        assert len(env.candidates) == len(plays) == info["n_plays"] and info["dropped"] == 0
        rows = table(obs, env)
        np.testing.assert_array_equal(rows[: len(plays)], play_features(env.candidates))
        checked += 1
    assert checked > 300


def test_rows_mask_and_padding_agree_at_every_step():
    env = BackgammonPlaysEnv(opponent="random")
    rng = np.random.default_rng(0)
    steps = 0
    for episode in range(4):
        obs, info = env.reset(seed=episode)
        done = False
        while not done:
            rows, mask = table(obs, env), env.action_masks()
            n = len(env.candidates)
            assert mask.dtype == bool and mask.sum() == n >= 2
            np.testing.assert_array_equal(mask, info["action_mask"])
            np.testing.assert_array_equal(rows[:, PRESENT] > 0, mask)
            assert not rows[n:].any()
            assert all(p.start == env.candidates[0].start for p in env.candidates)
            obs, reward, done, truncated, info = env.step(int(rng.choice(np.flatnonzero(mask))))
            assert not truncated
            steps += 1
    assert steps > 50


def test_info_mask_is_int8_so_gymnasium_samples_a_legal_action():
    env = gymnasium.make(ENV_ID, opponent="random")
    _, info = env.reset(seed=0)
    for _ in range(2):  # after reset, then after a step
        assert info["action_mask"].dtype == np.int8
        action = env.action_space.sample(mask=info["action_mask"])
        assert info["action_mask"][action] == 1 and env.unwrapped.action_masks()[action]
        assert env.unwrapped.action_masks().dtype == bool
        _, _, terminated, _, info = env.step(action)
        assert not terminated


def test_order_is_by_resulting_board_whatever_the_input_order():
    plays = Position.start().legal_plays((6, 4))
    ordered, cut = order_candidates(plays, 64)
    assert cut == 0
    assert [(p.result.me, p.result.opp) for p in ordered] == sorted(
        (p.result.me, p.result.opp) for p in plays)
    shuffled = list(plays)
    random.Random(1).shuffle(shuffled)
    assert [p.result for p in order_candidates(shuffled, 64)[0]] == [p.result for p in ordered]


def test_features_match_the_board_encoder():
    plays = [p for _, _, ps in random_turns(5, 200) for p in ps[:3]]
    me = np.array([p.result.me for p in plays])
    opp = np.array([p.result.opp for p in plays])
    ref = candidate_features(me, opp)
    np.testing.assert_array_equal(ref[:, :196], encode_boards(me, opp))
    np.testing.assert_allclose(play_features(plays), ref, rtol=0, atol=1e-6)
    np.testing.assert_allclose(board_features(np.concatenate([me, opp], axis=1)), ref, rtol=0, atol=1e-6)
    pips_me = (me * np.arange(26)).sum(1)
    np.testing.assert_allclose(ref[:, 196], pips_me / 167, rtol=1e-6)
    assert set(np.unique(ref[:, 199])) <= {0.0, 1.0} and (ref[:, PRESENT] == 1).all()
    assert ref.min() >= -8 and ref.max() <= 8


# ------------------------------------------------------------------ more than K plays
def test_past_k_keeps_the_plays_leaving_fewest_blots():
    plays = Position.start().legal_plays((2, 2))
    assert len(plays) == 75  # more than the default K = 64
    env = BackgammonPlaysEnv()
    obs, info = env.reset(seed=0, options={"position_id": START, "dice": (2, 2)})
    assert info["n_plays"] == 75 and info["dropped"] == 11 and len(env.candidates) == 64
    assert env.action_masks().all()
    expected = sorted(plays, key=keep_key)[:64]
    assert results(env.candidates) == results(expected)
    kept = {p.result for p in env.candidates}
    dropped = [p for p in plays if p.result not in kept]
    blots = lambda p: sum(n == 1 for n in p.result.me[1:25])  # noqa: E731
    assert max(map(blots, env.candidates)) <= min(map(blots, dropped))
    # the kept plays are still presented in board order
    keys = [(p.result.me, p.result.opp) for p in env.candidates]
    assert keys == sorted(keys)


def test_small_k_cuts_deterministically():
    plays = Position.start().legal_plays((1, 1))
    a, cut = order_candidates(plays, 5)
    b, _ = order_candidates(list(reversed(plays)), 5)
    assert cut == len(plays) - 5 and [p.result for p in a] == [p.result for p in b]


# ------------------------------------------------------------------ illegal actions
def test_padding_index_is_a_loss_by_forfeit():
    env = BackgammonPlaysEnv()
    env.reset(seed=0, options={"position_id": START, "dice": (3, 1)})
    before = env.game.position
    obs, reward, terminated, truncated, info = env.step(40)  # 16 candidates
    assert (reward, terminated, truncated) == (-1.0, True, False)
    assert info["illegal_action"] == 40 and env.game.position == before
    assert not env.action_masks().any() and not obs.any()
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)


def test_illegal_action_can_raise():
    env = BackgammonPlaysEnv(illegal_action="raise")
    env.reset(seed=0, options={"position_id": START, "dice": (3, 1)})
    with pytest.raises(IllegalActionError, match="candidate 16"):
        env.step(16)
    env.step(0)  # the state is intact


# ------------------------------------------------------------------ rewards and opponents
@pytest.mark.parametrize("reward", ["points", "win"])
def test_rewards_at_the_end_from_the_learners_side(reward):
    env = BackgammonPlaysEnv(opponent="random", reward=reward)
    rng = np.random.default_rng(1)
    sides = set()
    for episode in range(12):
        env.reset(seed=100 + episode)
        sides.add(env.learner)
        done = False
        while not done:
            _, r, done, _, info = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
            if not done:
                assert r == 0
        sign = 1 if info["winner"] == env.learner else -1
        assert r == sign * (info["points"] if reward == "points" else 1)
        assert info["outcome"] in ("single", "gammon", "backgammon")
    assert sides == {"player_0", "player_1"}


def test_opponent_forms():
    seen = []

    class First:
        def choose_play(self, plays, env):
            seen.append(len(plays))
            return plays[0]

    for opponent in (First(), lambda plays, env: len(plays) - 1, "pubeval", "random"):
        env = BackgammonPlaysEnv(opponent=opponent, learner="player_1")
        env.reset(seed=3)
        assert env.learner == "player_1" and env.side == 1
        for _ in range(3):
            env.step(0)
    assert seen
    with pytest.raises(ValueError, match="opponent"):
        BackgammonPlaysEnv(opponent=42)


def test_bad_arguments_are_named():
    for kwargs, word in (({"cube": True}, "cubeless"), ({"jacob": True}, "jacob"),
                         ({"max_candidates": 0}, "max_candidates"), ({"reward": "x"}, "reward"),
                         ({"learner": "me"}, "learner")):
        with pytest.raises(ValueError, match=word):
            BackgammonPlaysEnv(**kwargs)
    env = BackgammonPlaysEnv()
    with pytest.raises(ValueError, match=r"option.*'dice_roll'.*unknown"):
        env.reset(options={"dice_roll": (1, 2)})


def test_dice_without_a_position_start_the_learner_at_the_start_position():
    env = BackgammonPlaysEnv(opponent="random", learner="player_1")
    env.reset(seed=4, options={"dice": (6, 6)})
    assert env.game.turn == env.side == 1 and env.game.dice == (6, 6)
    assert env.game.position == Position.from_position_id(START)
    with pytest.raises(ValueError, match=r"options\['dice'\]"):
        env.reset(options={"dice": (6, 7)})


def test_forced_turns_are_asked_only_without_skip_forced():
    counts = {}
    for skip in (True, False):
        env = BackgammonPlaysEnv(opponent="random", skip_forced=skip)
        env.reset(seed=11)
        sizes, done = [], False
        while not done:
            sizes.append(len(env.candidates))
            _, _, done, _, _ = env.step(0)
        counts[skip] = min(sizes)
    assert counts[True] >= 2 and counts[False] == 1


def test_a_forced_first_play_at_a_start_position_is_asked_without_skip_forced():
    # the learner's last checker on its 2-point and 1-1: 2/1/off is the only play, and it
    # wins a gammon (the opponent has borne off none)
    last_checker = Position((14, 0, 1) + (0,) * 23, (0,) * 6 + (15,) + (0,) * 19).position_id()
    options = {"position_id": last_checker, "dice": (1, 1)}
    with pytest.raises(ValueError, match="ends before the learner has a choice"):
        BackgammonPlaysEnv(opponent="random").reset(seed=0, options=options)
    env = BackgammonPlaysEnv(opponent="random", skip_forced=False)
    env.reset(seed=0, options=options)
    assert len(env.candidates) == 1 and env.game.turn == env.side
    _, reward, done, _, _ = env.step(0)
    assert done and reward == 2.0


# ------------------------------------------------------------------ seeding
def test_same_seed_same_episode():
    def run(seed):
        env = BackgammonPlaysEnv(opponent="random")
        obs, _ = env.reset(seed=seed)
        trace = [obs.sum()]
        done = False
        while not done:
            obs, r, done, _, _ = env.step(len(env.candidates) // 2)
            trace.append((obs.sum(), r))
        return trace

    assert run(7) == run(7)
    assert run(7) != run(8)
