"""The play-level PettingZoo AEC env (``bg_env.backgammon_plays_v0``): conformance, the
candidates against the move generators, the chosen play applied, rewards under several
variants, illegal actions, seeding, configuration errors, truncation and rendering."""

from __future__ import annotations

import copy

import numpy as np
import pytest
from pettingzoo.test import api_test, render_test, seed_test

from bg_env import backgammon_plays_v0, backgammon_v0
from bg_env.game.game import IllegalActionError, Phase
from bg_env.rules.moves import legal_plays
from bg_env.rules.position import Position
from bg_env.rules.variants import explode
from bg_env.envs.context import standard_view
from bg_env.envs.play_env import N_FEATURES, PRESENT, candidate_features
from bg_env.envs.plays_aec import PlaysEnvConfig, raw_env

START = "4HPwATDgc/ABMA"


def done(env) -> bool:
    a = env.agent_selection
    return env.terminations[a] or env.truncations[a]


def expected_table(env) -> np.ndarray:
    """The rows the observation should hold, built here from the plays' results."""
    views = [standard_view(p.result, env.game.variant) for p in env.plays]
    rows = candidate_features(np.array([v.me for v in views]), np.array([v.opp for v in views]))
    table = np.zeros((env.max_candidates, N_FEATURES), dtype=np.float32)
    table[: len(rows)] = rows
    return table


def play_random_game(env, seed: int, rng: np.random.Generator, checks: dict | None = None):
    """Play one game with uniformly random rows; return the rewards each agent received
    and the final infos. With ``checks`` (a dict of counters), check every decision."""
    env.reset(seed=seed)
    total = dict.fromkeys(env.possible_agents, 0.0)
    final_info = {}
    for agent in env.agent_iter(max_iter=100_000):
        obs, reward, term, trunc, info = env.last()
        total[agent] += reward
        if term or trunc:
            final_info[agent] = info
            env.step(None)
            continue
        if checks is not None:
            check_decision(env, agent, obs, info, checks)
        mask = obs["action_mask"]
        index = int(rng.choice(np.flatnonzero(mask)))
        g = env.game
        turns, chosen = g.turns, env.plays[index]
        env.step(index)
        if checks is not None:
            if g.phase == Phase.OVER and g.turns == turns:  # this play ended the game
                assert g.position == chosen.result
                checks["ended"] += 1
            elif g.phase != Phase.OVER and g.turns == turns + 1:  # the other side asked next
                # (from where its turn began: its forced moves, if any, are made)
                start = g.turn_start if g.phase == Phase.MOVE else g.position
                assert start == chosen.result.swap()
                assert env.agent_selection != agent
                checks["applied"] += 1
    assert not env.agents, "the game did not end"
    return total, final_info


def check_decision(env, agent, obs, info, checks) -> None:
    g = env.game
    k = env.max_candidates
    n = len(env.plays)
    other = next(a for a in env.possible_agents if a != agent)
    assert agent == env.possible_agents[g.turn]
    # forced turns are never asked: at least two candidates
    assert 2 <= n <= k and obs["action_mask"].sum() == n
    assert (obs["action_mask"][:n] == 1).all() and (obs["action_mask"][n:] == 0).all()
    assert not env.observe(other)["action_mask"].any()
    assert obs["observation"].dtype == np.float32 and obs["observation"].shape == (k * N_FEATURES,)
    table = obs["observation"].reshape(k, N_FEATURES)
    np.testing.assert_array_equal(table, expected_table(env))
    np.testing.assert_array_equal(table[:, PRESENT], obs["action_mask"])
    # the rows are the distinct legal plays of the roll, in board order, up to the cut
    results = [p.result for p in env.plays]
    assert len(set(results)) == n
    assert all(p.start == g.position for p in env.plays)
    legal = {p.result for p in g.legal_continuations()}
    assert info["n_plays"] == len(legal) and info["dropped"] == len(legal) - n
    if len(legal) <= k:
        assert set(results) == legal
    else:
        assert n == k and set(results) < legal
        checks["cut"] += 1
    keys = [(r.me, r.opp) for r in results]
    assert keys == sorted(keys)
    if g.variant.name == "standard":  # the reference, from where the turn began
        assert len(legal) == len(legal_plays(g.turn_start, g.dice))
        if len(legal) <= k:
            assert set(results) == {p.result for p in legal_plays(g.turn_start, g.dice)}
    checks["decisions"] += 1


# ------------------------------------------------------------------ conformance
@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("config", [{}, {"variant": "plakoto", "reward": "win", "max_candidates": 8}],
                         ids=["default", "plakoto_k8"])
def test_api_test(config):
    api_test(backgammon_plays_v0.env(**config), num_cycles=300)
    api_test(backgammon_plays_v0.raw_env(**config), num_cycles=200)


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_seed_test():
    seed_test(backgammon_plays_v0.env, num_cycles=300)


def test_spaces():
    env = backgammon_plays_v0.raw_env(max_candidates=16)
    for a in env.possible_agents:
        assert env.action_space(a).n == 16
        assert env.observation_space(a)["observation"].shape == (16 * N_FEATURES,)
        assert env.observation_space(a)["action_mask"].shape == (16,)
    env.reset(seed=3)
    obs = env.observe(env.agent_selection)
    assert env.observation_space(env.agent_selection).contains(obs)


# ------------------------------------------------------------------ random games
@pytest.mark.parametrize("variant", ["standard", "plakoto", "long_nardy", "hypergammon1"])
def test_random_games(variant):
    env = backgammon_plays_v0.raw_env(variant=variant)
    rng = np.random.default_rng(7)
    checks = {"decisions": 0, "applied": 0, "ended": 0, "cut": 0}
    games = 80 if variant == "hypergammon1" else 3  # hypergammon1: choices are rare
    for seed in range(games):
        total, info = play_random_game(env, seed, rng, checks)
        assert total["player_0"] + total["player_1"] == 0
        points = info["player_0"]["points"]
        assert info["player_0"] == info["player_1"]
        assert points >= 1 and all(abs(r) == points for r in total.values())
        assert total[info["player_0"]["winner"]] == points
    assert checks["decisions"] > 0
    if variant != "hypergammon1":  # (there, the next choice is rarely the next turn's)
        assert checks["decisions"] >= games and checks["applied"] > 0


def test_points_and_win_rewards():
    """reward="win" gives +-1 where reward="points" gives the game's points (same seed,
    same random choices: the same game)."""
    seen_more_than_one = False
    for seed in range(8):
        by_kind = {}
        for kind in ("points", "win"):
            env = backgammon_plays_v0.raw_env(variant="hypergammon2", reward=kind)
            by_kind[kind] = play_random_game(env, seed, np.random.default_rng(seed))
        (pts, info), (win, info_w) = by_kind["points"], by_kind["win"]
        assert info == info_w
        winner, points = info["player_0"]["winner"], info["player_0"]["points"]
        assert pts[winner] == points and win[winner] == 1
        assert sum(win.values()) == 0
        seen_more_than_one |= points > 1
    assert seen_more_than_one  # a gammon among the games: the two kinds differ


def test_candidate_cut_past_k():
    env = backgammon_plays_v0.raw_env(max_candidates=4)
    rng = np.random.default_rng(1)
    checks = {"decisions": 0, "applied": 0, "ended": 0, "cut": 0}
    play_random_game(env, 5, rng, checks)
    assert checks["cut"] > 0


@pytest.mark.parametrize("options, agent, dice", [
    ({"agent": "player_1"}, "player_1", None),
    ({"dice": (6, 6)}, "player_0", (6, 6)),
    ({"agent": "player_1", "dice": (2, 1)}, "player_1", (2, 1)),
])
def test_start_options_without_a_position_start_at_the_start_position(options, agent, dice):
    """As in the checker-move env (``bg_env.envs.start``): no opening roll, the start
    position, that agent on roll with those dice (or a turn's roll, doubles included)."""
    from bg_env import backgammon_v0

    env = backgammon_plays_v0.raw_env()
    env.reset(seed=3, options=options)
    assert env.agent_selection == agent and env.game.turns == 0
    assert env.game.turn_start == Position.from_position_id(START)
    assert dice is None or env.dice == dice
    moves = backgammon_v0.raw_env()
    moves.reset(seed=3, options=options)
    assert moves.agent_selection == agent and tuple(moves.game.dice) == env.dice


def test_chosen_row_is_played():
    env = backgammon_plays_v0.raw_env()
    env.reset(options={"position_id": START, "dice": (3, 1), "agent": "player_1"})
    assert env.agent_selection == "player_1" and env.dice == (3, 1)
    assert len(env.plays) == 16  # 3-1 from the start: 16 distinct plays
    notations = [p.notation for p in env.plays]
    row = notations.index("8/5 6/5")
    chosen = env.plays[row]
    expected = next(p for p in legal_plays(Position.from_position_id(START), (3, 1))
                    if p.notation == "8/5 6/5")
    assert chosen.result == expected.result
    env.step(row)
    assert env.game.turns == 1 and env.agent_selection == "player_0"
    assert env.position == expected.result.swap()


def test_nuclear_bomb_question():
    env = backgammon_plays_v0.raw_env(variant="nuclear", max_turns=40)
    env.reset(seed=0)
    asked = 0
    rng = np.random.default_rng(0)
    for _ in range(200):
        if done(env):
            break
        if env.decision == "bomb":
            asked += 1
            assert len(env.plays) == 2 and env.dice is None
            assert env.plays[0].result == env.position
            assert env.plays[1].result == explode(env.position) != env.position
            assert env.infos[env.agent_selection]["decision"] == "bomb"
            side = env.game.turn
            env.step(1)
            assert env.game.bomb_owner == 1 - side
        else:
            env.step(int(rng.integers(len(env.plays))))
    assert asked > 0


# ------------------------------------------------------------------ illegal actions
def test_illegal_row_raises_and_changes_nothing():
    env = backgammon_plays_v0.raw_env()
    env.reset(seed=11)
    n = len(env.plays)
    agent = env.agent_selection
    game = copy.deepcopy(env.game)
    rng_state = env.np_random.bit_generator.state
    before = (env.game.position, env.game.dice, env.game.turn, list(env.plays), agent,
              env.observe(agent)["observation"].copy(), dict(env.rewards))
    for bad in (n, env.max_candidates - 1, env.max_candidates, -1, 1.5):
        with pytest.raises(IllegalActionError) as err:
            env.step(bad)
        assert repr(bad) in str(err.value) and f"{n} candidates" in str(err.value)
        after = (env.game.position, env.game.dice, env.game.turn, list(env.plays),
                 env.agent_selection, env.observe(agent)["observation"], dict(env.rewards))
        assert after[:5] == before[:5] and after[6] == before[6]
        assert env.game == game and env.np_random.bit_generator.state == rng_state
        np.testing.assert_array_equal(after[5], before[5])
    env.step(0)  # a legal row still works
    assert env.agent_selection != agent or env.game.turns > 0


def test_floats_and_bools_are_refused_as_in_the_checker_move_env():
    env = backgammon_plays_v0.raw_env()
    env.reset(seed=11)
    game, agent = copy.deepcopy(env.game), env.agent_selection
    for bad in (1.0, 0.0, True, False, np.True_, np.float64(1.0), np.array(1.0)):
        with pytest.raises(IllegalActionError, match="expected an integer action index"):
            env.step(bad)
        assert env.game == game and env.agent_selection == agent
    env.step(np.array(1))  # a 0-d integer array is an integer, as numpy's integers are
    assert env.game != game and len(env.plays) >= 2
    env.step(np.int64(0))


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("make", [backgammon_plays_v0.env, backgammon_v0.env])
def test_a_bool_action_in_the_wrapped_envs_is_named(make):
    env = make()
    env.reset(seed=11)
    agent = env.agent_selection
    with pytest.raises(IllegalActionError, match="action True: expected an integer"):
        env.step(True)
    assert env.agent_selection == agent and not any(env.terminations.values())


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_illegal_row_in_wrapped_env_ends_the_game():
    env = backgammon_plays_v0.env()
    env.reset(seed=11)
    offender = env.agent_selection
    other = next(a for a in env.possible_agents if a != offender)
    obs, *_ = env.last()
    padding = int(obs["action_mask"].sum())
    assert padding < env.unwrapped.max_candidates
    env.step(padding)
    assert all(env.terminations.values())
    assert env._cumulative_rewards[offender] == -1 and env._cumulative_rewards[other] == 0
    with pytest.raises(AssertionError):  # out of the action space: rejected
        env2 = backgammon_plays_v0.env()
        env2.reset(seed=1)
        env2.step(env2.unwrapped.max_candidates)


# ------------------------------------------------------------------ seeding
def trajectory(seed: int, variant: str = "standard") -> list:
    env = backgammon_plays_v0.raw_env(variant=variant)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    out = []
    for agent in env.agent_iter(max_iter=10_000):
        obs, reward, term, trunc, _ = env.last()
        if term or trunc:
            out.append((agent, reward))
            env.step(None)
            continue
        index = int(rng.integers(int(obs["action_mask"].sum())))
        out.append((agent, env.game.dice, env.position, index, obs["observation"].tobytes()))
        env.step(index)
    return out


def test_same_seed_same_trajectory():
    for variant in ("standard", "plakoto"):
        a, b = trajectory(3, variant), trajectory(3, variant)
        assert a == b
        assert trajectory(4, variant) != a  # the seed matters


# ------------------------------------------------------------------ configuration
@pytest.mark.parametrize("kwargs, words", [
    ({"bogus": 1}, ["bogus", "max_candidates", "variant"]),
    ({"cube": True}, ["cube", "cubeless"]),
    ({"variant": "chess"}, ["chess", "standard"]),
    ({"reward": "money"}, ["money", "points"]),
    ({"max_candidates": 1}, ["max_candidates"]),
    ({"max_turns": 0}, ["max_turns"]),
    ({"render_mode": "svg"}, ["svg", "ansi", "rgb_array"]),
])
def test_config_errors(kwargs, words):
    with pytest.raises(ValueError) as err:
        backgammon_plays_v0.raw_env(**kwargs)
    assert all(w in str(err.value) for w in words)


def test_config_keys():
    assert {"variant", "gammons", "reward", "max_candidates", "max_turns"} <= set(PlaysEnvConfig.keys())
    env = raw_env(cube=False, gammons="none", variant="nackgammon")
    assert env.game.rules.cube is False and env.config.game_rules.gammons == "none"


def test_max_turns_truncates():
    env = backgammon_plays_v0.raw_env(max_turns=6)
    env.reset(seed=2)
    steps = 0
    while not done(env):
        env.step(0)
        steps += 1
    assert env.game.phase != Phase.OVER and env.game.turns >= 6  # (forced turns: no decision)
    assert all(env.truncations.values()) and not any(env.terminations.values())
    assert 0 < steps <= 6 and not env.observe(env.agent_selection)["action_mask"].any()
    assert all(r == 0 for r in env._cumulative_rewards.values())


# ------------------------------------------------------------------ render
@pytest.mark.filterwarnings("ignore::UserWarning")
def test_render_test(capsys):
    render_test(lambda render_mode=None: backgammon_plays_v0.env(render_mode=render_mode))


def test_render_ansi_and_human(capsys):
    env = backgammon_plays_v0.raw_env(render_mode="ansi")
    env.reset(options={"position_id": START, "dice": (6, 5)})
    text = env.render()
    assert START in text and "6-5" in text and "candidates" in text
    human = backgammon_plays_v0.raw_env(render_mode="human")
    human.reset(options={"position_id": START, "dice": (6, 5)})
    assert human.render() is None
    assert START in capsys.readouterr().out
