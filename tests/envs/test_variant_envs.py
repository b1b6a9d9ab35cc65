"""Variants through the environments: the PettingZoo env (API test, random games), the
Gymnasium env and the vector env (on the kernels, or the single envs for other opponents)."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from pettingzoo.test import api_test

import bg_env  # noqa: F401  (registers the Gymnasium ids)
from bg_env import backgammon_v0
from bg_env.rules.actions import BOMB
from bg_env.envs.vector import BackgammonVecEnv, make_vec_env

SPECIAL = ["plakoto", "long_nardy", "nuclear", "sudden_death", "caucasian", "hypergammon1"]


@pytest.mark.parametrize("variant", ["plakoto", "long_nardy", "nuclear", "sudden_death",
                                     "hypergammon1"])
def test_pettingzoo_api_test_passes_for_variants(variant):
    api_test(backgammon_v0.env(variant=variant), num_cycles=200)


@pytest.mark.parametrize("variant", SPECIAL)
def test_random_games_through_the_aec_env_pay_the_points(variant):
    env = backgammon_v0.env(variant=variant, cube=True)
    rng = np.random.default_rng(5)
    for seed in range(2):
        env.reset(seed=seed)
        total = {a: 0.0 for a in env.possible_agents}
        for agent in env.agent_iter():
            obs, reward, terminated, truncated, info = env.last()
            total[agent] += reward
            if terminated or truncated:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            if BOMB in legal and len(legal) > 1 and rng.random() > 0.05:
                legal = legal[legal != BOMB]
            env.step(int(rng.choice(legal)))
        assert sum(total.values()) == 0
        assert abs(total[info["winner"]]) == info["points"] > 0
        assert env.unwrapped.game.variant.name == variant


def test_gym_env_plays_a_variant_against_pubeval():
    env = gym.make("bg_env/Backgammon-v0", opponent="pubeval", variant="nackgammon", cube=False)
    obs, info = env.reset(seed=3)
    done, steps = False, 0
    while not done:
        legal = np.flatnonzero(env.unwrapped.action_masks())
        obs, reward, terminated, truncated, info = env.step(int(legal[0]))
        done = terminated or truncated
        steps += 1
    assert reward != 0 and info["outcome"] in ("single", "gammon", "backgammon")


def test_vector_env_uses_the_general_path_for_variants():
    fast = make_vec_env(2, seed=0, variant="long_nardy")
    assert isinstance(fast.unwrapped, BackgammonVecEnv)
    venv = make_vec_env(3, variant="long_nardy", cube=False, seed=0,
                        opponent=lambda env: env.legal_actions()[0])
    assert not isinstance(venv.unwrapped, BackgammonVecEnv)
    venv.reset()
    for _ in range(50):
        masks = venv.action_masks()
        assert masks.shape == (3, 156) and masks.any(axis=1).all()
        venv.step(np.array([np.flatnonzero(m)[0] for m in masks]))
    assert all(e.unwrapped.game_env.game.variant.name == "long_nardy" for e in venv.envs)


def test_play_level_gym_env_plays_long_nardy_and_refuses_nuclear():
    from bg_env.envs.context import standard_view
    from bg_env.envs.play_env import BackgammonPlaysEnv, play_features

    env = BackgammonPlaysEnv(variant="long_nardy", learner="player_0")
    obs, info = env.reset(seed=2)
    rows = obs.reshape(env.max_candidates, -1)
    n = int(info["action_mask"].sum())
    from bg_env.envs.play_env import candidate_features

    view = standard_view(env.candidates[0].result, "long_nardy")
    expected = candidate_features(np.array([view.me]), np.array([view.opp]))[0]
    assert np.array_equal(rows[0], expected)  # the opponent drawn where his checkers stand
    unmapped = play_features([env.candidates[0]])[0]
    assert not np.array_equal(rows[0][96:192], unmapped[96:192])
    assert n >= 1
    with pytest.raises(ValueError, match="variant='nuclear'.*backgammon_plays_v0"):
        BackgammonPlaysEnv(variant="nuclear")


def _observations(variant: str, seed: int, steps: int, **config):
    """(game, observation of the agent to act) along a random game."""
    env = backgammon_v0.raw_env(variant=variant, cube=False, **config)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        if env.terminations[env.agent_selection]:
            return
        side = env.possible_agents.index(env.agent_selection)
        obs = env.observe(env.agent_selection)
        yield env.game, side, obs["observation"]
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(rng.choice(legal[legal != BOMB] if len(legal) > 1 else legal)))


def test_context_block_says_the_variant_and_one_shape_fits_all():
    from bg_env.envs.context import CONTEXT_SIZE, VARIANT_ORDER
    from bg_env.envs.observation import TESAURO_SIZE

    shapes = set()
    for variant in VARIANT_ORDER:
        game, side, obs = next(_observations(variant, 0, 1, context=True))
        shapes.add(obs.shape)
        assert obs[TESAURO_SIZE + VARIANT_ORDER.index(variant)] == 1
        assert obs[TESAURO_SIZE:TESAURO_SIZE + len(VARIANT_ORDER)].sum() == 1
    assert shapes == {(TESAURO_SIZE + CONTEXT_SIZE,)}
    game, side, obs = next(_observations("standard", 0, 1))
    assert obs.shape == (TESAURO_SIZE,)  # standard money game: no block unless asked


def test_context_block_shows_plakoto_pins_from_the_observer_side():
    from bg_env.envs.observation import TESAURO_SIZE

    seen = 0
    for game, side, obs in _observations("plakoto", 1, 400):
        ctx = obs[TESAURO_SIZE:]
        pos = game.position if side == game.turn else game.position.swap()
        mine, theirs = pos.pinned
        assert [p for p in range(1, 25) if ctx[13 + p]] == [p for p in range(1, 25) if mine >> p & 1]
        assert [p for p in range(1, 25) if ctx[37 + p]] == [25 - q for q in range(24, 0, -1) if theirs >> q & 1]
        seen += bool(mine or theirs)
    assert seen > 0


def test_long_nardy_board_is_encoded_where_the_checkers_stand():
    from bg_env.envs.context import standard_view
    from bg_env.envs.observation import encode_board

    for game, side, obs in _observations("long_nardy", 2, 30):
        pos = game.position if side == game.turn else game.position.swap()
        assert np.array_equal(obs[:196], encode_board(standard_view(pos, "long_nardy")))
    # the opponent's head (15 checkers on his 24) is on the observer's 12-point at the start
    game, side, obs = next(_observations("long_nardy", 2, 1))
    assert obs[96 + 4 * 11: 96 + 4 * 12].tolist() == [1, 1, 1, 6]


def test_context_block_shows_who_owns_the_bomb():
    from bg_env.envs.observation import TESAURO_SIZE

    env = backgammon_v0.raw_env(variant="nuclear", cube=False)
    env.reset(seed=0)
    while BOMB not in env.legal_actions():
        env.step(env.legal_actions()[0])
    agent = env.agent_selection
    ctx = env.observe(agent)["observation"][TESAURO_SIZE:]
    assert ctx[11:14].tolist() == [0, 0, 1]  # nobody owns it; the actor may set it off
    env.step(BOMB)
    ctx = env.observe(agent)["observation"][TESAURO_SIZE:]
    assert ctx[11:13].tolist() == [0, 1]  # now the opponent's


def test_vector_env_plays_match_play_context_and_variants_on_the_kernels():
    from bg_env.envs.context import CONTEXT_SIZE
    from bg_env.envs.observation import TESAURO_SIZE

    for config in (dict(match_length=3), dict(context=True)):
        venv = make_vec_env(2, seed=1, **config)
        assert isinstance(venv.unwrapped, BackgammonVecEnv)
        assert venv.reset().shape == (2, TESAURO_SIZE + CONTEXT_SIZE)
    venv = make_vec_env(2, seed=1, variant="plakoto")
    assert isinstance(venv.unwrapped, BackgammonVecEnv)
    assert venv.reset().shape == (2, TESAURO_SIZE + CONTEXT_SIZE)


def test_every_env_reads_a_position_id_with_the_variant_checker_count():
    from bg_env import backgammon_plays_v0
    from bg_env.rules.variants import get_variant
    from bg_env.envs.play_env import BackgammonPlaysEnv

    start = get_variant("hypergammon2").start_position()
    pid = start.position_id()
    raw = backgammon_v0.raw_env(variant="hypergammon2")
    raw.reset(options={"position_id": pid, "dice": (6, 5)})
    plays = backgammon_plays_v0.raw_env(variant="hypergammon2")
    plays.reset(options={"position_id": pid, "dice": (6, 5)})
    gym_plays = BackgammonPlaysEnv(variant="hypergammon2", learner="player_0")
    gym_plays.reset(options={"position_id": pid, "dice": (6, 5)})
    for game in (raw.game, plays.game, gym_plays.game):
        assert game.turn_start == start or game.phase != "move"
        assert sum(game.position.me) == 2 and game.position.me[0] <= 2


def test_batch_vec_env_refuses_what_its_kernels_cannot_play():
    for variant in ("plakoto", "long_nardy"):
        with pytest.raises(ValueError, match=f"variant='{variant}'.*do not play.*'pubeval'"):
            BackgammonVecEnv(2, variant=variant, opponent="pubeval")
    for variant in ("hypergammon1", "nackgammon", "longgammon", "nuclear", "sudden_death",
                    "plakoto", "long_nardy", "caucasian"):
        BackgammonVecEnv(2, variant=variant)
    BackgammonVecEnv(2, variant="sudden_death", opponent="pubeval")
