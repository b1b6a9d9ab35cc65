"""Match play through the PettingZoo env (``match_length=N``): the episode is the match,
the Crawford rule, rewards, the score in the observation and in the Match ID."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import api_test

from bg_env import backgammon_v0
from bg_env.rules.actions import DOUBLE
from bg_env.rules.match_id import MatchState
from bg_env.envs.context import CONTEXT_SIZE
from bg_env.envs.observation import TESAURO_SIZE


def play_match(seed: int, **config):
    """Random legal actions until the match ends; returns the raw env, each agent's total
    reward, per-step (game number, crawford flag, mask had DOUBLE) records."""
    env = backgammon_v0.env(**config)
    raw = env.unwrapped
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    total = dict.fromkeys(env.possible_agents, 0.0)
    steps, paid = [], []
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        total[agent] += reward
        if reward:
            paid.append(reward)
        if terminated or truncated:
            env.step(None)
            continue
        m = raw.match
        steps.append((m.games, m.crawford, bool(obs["action_mask"][DOUBLE]), obs["observation"]))
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return raw, total, steps, paid, info


def test_a_seven_point_match_runs_to_the_end_with_one_crawford_game():
    for seed in range(30):
        raw, total, steps, _, info = play_match(seed, match_length=7, cube=True)
        m = raw.match
        assert m.is_over and max(m.score) >= 7 and info["winner"] == f"player_{m.winner}"
        assert total[info["winner"]] == 1 and sum(total.values()) == 0
        crawford_games = {g for g, crawford, _, _ in steps if crawford}
        assert len(crawford_games) == m.crawford_games_played <= 1
        assert not any(double for _, crawford, double, _ in steps if crawford)  # no cube
        if crawford_games:
            later = [double for g, _, double, _ in steps if g > max(crawford_games)]
            if later:
                assert any(later), "doubling comes back after the Crawford game"
                return
    pytest.fail("no seed gave a match with a Crawford game and a post-Crawford game")


def test_equity_rewards_are_paid_after_each_game_and_sum_to_the_result():
    raw, total, _, paid, info = play_match(4, match_length=5, match_reward="equity")
    assert raw.match.games >= 2 and len(paid) >= raw.match.games  # a reward after every game
    assert total[info["winner"]] == pytest.approx(1.0) and sum(total.values()) == pytest.approx(0)


def test_the_observation_carries_the_score():
    env = backgammon_v0.raw_env(match_length=7)
    env.reset(seed=2)
    obs = env.observe(env.agent_selection)["observation"]
    assert obs.shape == (TESAURO_SIZE + CONTEXT_SIZE,)
    ctx = obs[TESAURO_SIZE:]
    assert ctx[0] == 1  # standard variant
    assert ctx[62] == 1 and ctx[63] == ctx[64] == pytest.approx(7 / 25)
    assert ctx[67] == pytest.approx(0.5)  # 7-away each: even
    plain = backgammon_v0.raw_env()
    plain.reset(seed=2)
    assert plain.observe(plain.agent_selection)["observation"].shape == (TESAURO_SIZE,)


def test_match_id_carries_the_score_and_reset_restores_it():
    env = backgammon_v0.raw_env(match_length=7)
    env.reset(seed=0)
    # a mid-match state: 3-5 in a 7-point match, crawford off
    state = MatchState.from_match_id(env.match_id())
    assert state.match_length == 7 and state.score == (0, 0)
    from dataclasses import replace

    mid = replace(state, score=(3, 5), dice=(0, 0), player_on_roll=0, turn=0)
    env.reset(seed=0, options={"match_id": mid.match_id(), "position_id": "4HPwATDgc/ABMA"})
    assert env.match.score == (3, 5)
    back = MatchState.from_match_id(env.match_id())
    assert back.score == (3, 5) and back.match_length == 7 and not back.crawford
    crawford = replace(mid, score=(6, 2), crawford=True)
    env.reset(seed=0, options={"match_id": crawford.match_id(), "position_id": "4HPwATDgc/ABMA"})
    assert env.match.crawford and not env.game.may_double()


@pytest.mark.parametrize("bad, message", [
    (dict(match_length=30), "match_length=30"),
    (dict(match_length=7, jacoby=True), "jacoby=True"),
    (dict(match_length=7, match_reward="mwc"), "match_reward='mwc'"),
    (dict(context="yes"), "context='yes'"),
])
def test_bad_match_options_name_themselves(bad, message):
    with pytest.raises(ValueError, match=message):
        backgammon_v0.env(**bad)


def test_pettingzoo_api_test_in_match_play():
    api_test(backgammon_v0.env(match_length=3, cube=True), num_cycles=300)


@pytest.mark.parametrize("jacoby", [True, False])
def test_a_money_games_match_id_carries_the_jacoby_rule(jacoby):
    env = backgammon_v0.raw_env(cube=True, jacoby=jacoby)
    env.reset(seed=3)
    assert MatchState.from_match_id(env.match_id()).jacoby is jacoby
