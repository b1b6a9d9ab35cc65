"""The vector env on the kernels in match play, with the cube and with the context block,
in lockstep with the single Gymnasium env (the reference: :class:`~bg_env.game.match.Match`
and :class:`~bg_env.game.game.Game` through the AEC env).

Both draw from the same dice: the single env's generator is a Python copy of the kernel
game's (``helpers.SplitMix``), and the random opponent draws its choice from it in both,
the same way. The learner's actions are chosen by the test. At every step the
observations (context block included), masks, rewards and dones must be equal; a finished
episode's infos too.
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("numba")

from bg_env.kernels import batch, match as batch_match  # noqa: E402
from bg_env.game.game import Game, GameResult, Rules  # noqa: E402
from bg_env.game.match import Match  # noqa: E402
from bg_env.envs.context import CONTEXT_SIZE, encode_context, encode_contexts  # noqa: E402
from bg_env.envs.gym_env import BackgammonEnv  # noqa: E402
from bg_env.envs.kernel_batch import KernelBatch, met_tables  # noqa: E402
from helpers import SplitMix  # noqa: E402

CONFIGS = {
    "match7_cube": dict(match_length=7, cube=True),
    "match5_equity_compact": dict(match_length=5, cube=True, match_reward="equity",
                                  observation="compact"),
    "match3_nocube_gammons": dict(match_length=3, cube=False, gammons="no_backgammons"),
    "match1": dict(match_length=1, cube=True),
    "match9_max_turns": dict(match_length=9, cube=True, max_turns=12),
    "money_cube": dict(cube=True),
    "money_cube_beaver_context": dict(cube=True, beaver=True, context=True),
    "money_context_compact": dict(context=True, observation="compact", reward="win"),
}
VARIANT_CONFIGS = {
    "nackgammon_cube": dict(variant="nackgammon", cube=True),
    # with the cube: without it a hypergammon1 game may end before the learner's first
    # decision, which the single env reports at reset and the kernels replay
    "hypergammon1_cube": dict(variant="hypergammon1", cube=True),
    "hypergammon2_compact": dict(variant="hypergammon2", observation="compact", cube=True),
    "hypergammon3_match5": dict(variant="hypergammon3", match_length=5, cube=True),
    "longgammon_max_turns": dict(variant="longgammon", max_turns=30, context=False),
    "sudden_death_cube": dict(variant="sudden_death", cube=True),
    "sudden_death_match3": dict(variant="sudden_death", match_length=3, cube=True),
    "nuclear_cube": dict(variant="nuclear", cube=True, max_turns=40),
    "nuclear_match3_compact": dict(variant="nuclear", match_length=3, cube=True,
                                   observation="compact", max_turns=25),
}
INFO_KEYS = ("outcome", "points", "cube_value", "winner", "game", "score", "games",
             "crawford_games")


def lockstep(config: dict, opponent: str, learner: str, seed: int, steps: int,
             options: dict | None = None) -> dict:
    """Play ``steps`` learner decisions through the kernels and the single env at once,
    both started from reset ``options`` when given; returns counts of what was seen."""
    kernels = KernelBatch(1, learner=learner, opponent=opponent, **config)
    kernels.seed(seed)
    single = BackgammonEnv(opponent=opponent, learner=learner, **config)
    single.game_env.np_random = SplitMix(kernels.games.seeds[0])
    rng = np.random.default_rng(seed)
    obs = kernels.reset(None if options is None else [options])
    expected, info = single.reset(options=options)
    if options is not None:
        where = f"{config} {options} {learner} seed {seed}"
        assert kernels.reset_infos[0]["opening_reward"] == np.float32(info["opening_reward"]), (
            where)
        if not single.action_masks().any():  # the game ended before the learner's decision
            np.testing.assert_array_equal(kernels.reset_infos[0]["terminal_observation"],
                                          expected, err_msg=where)
            expected, _ = single.reset()
    seen = {"episodes": 0, "crawford": 0, "doubles": 0, "truncated": 0}
    for step in range(steps):
        where = f"{config} {options} seed {seed} step {step}"
        np.testing.assert_array_equal(obs[0], expected, err_msg=where)
        mask = kernels.action_masks()[0]
        np.testing.assert_array_equal(mask, single.action_masks(), err_msg=where)
        action = int(rng.choice(np.flatnonzero(mask)))
        seen["doubles"] += action == 151
        obs, rewards, dones, infos = kernels.step(np.array([action]))
        expected, reward, terminated, truncated, info = single.step(action)
        assert rewards[0] == np.float32(reward), where
        assert dones[0] == (terminated or truncated), where
        if kernels.match_length:
            seen["crawford"] += int(kernels.match[0, batch_match.M_CRAWFORD])
        if dones[0]:
            seen["episodes"] += 1
            seen["truncated"] += truncated
            assert infos[0]["TimeLimit.truncated"] == truncated, where
            np.testing.assert_array_equal(infos[0]["terminal_observation"], expected,
                                          err_msg=where)
            if terminated:
                for key in INFO_KEYS:
                    assert infos[0].get(key) == info.get(key), (key, where)
            expected, _ = single.reset()
    return seen


def lockstep_both_sides(config: dict, seeds: tuple[int, int], steps: int = 250) -> dict:
    """:func:`lockstep` against the random opponent with the learner as ``player_0`` (the
    first seed), then as ``player_1`` (the second); the counts of both runs summed."""
    seen: dict = {}
    for seed, learner in zip(seeds, ("player_0", "player_1")):
        for key, n in lockstep(config, "random", learner, seed, steps).items():
            seen[key] = seen.get(key, 0) + n
    return seen


@pytest.mark.parametrize("name", list(CONFIGS))
def test_lockstep_with_the_single_env_against_random(name):
    config = CONFIGS[name]
    seen = lockstep_both_sides(config, seeds=(1, 2))
    assert seen["episodes"] >= 2
    if config.get("cube"):
        assert seen["doubles"] > 0
    if config.get("match_length", 1) > 1 and not config.get("max_turns"):
        assert seen["crawford"] > 0  # some Crawford game was played
    if config.get("max_turns"):
        assert seen["truncated"] > 0


@pytest.mark.parametrize("name", ["match7_cube", "money_cube_beaver_context"])
def test_lockstep_with_the_single_env_against_pubeval(name):
    pytest.importorskip("agents")
    import agents  # noqa: F401  (fills the opponent registry: "pubeval")

    seen = lockstep(CONFIGS[name], "pubeval", "player_0", 3, 250)
    assert seen["episodes"] >= 1


# ------------------------------------------------------------- the match rules
def test_record_and_equity_follow_match_on_random_results():
    """Random game results (gammons, cubes, jumps past 1-away) recorded by the kernel and
    by :class:`Match`: the same score, Crawford state, winner and match-winning chances."""
    pre, post = met_tables()
    rng = np.random.default_rng(0)
    state = np.zeros(batch.N_COLUMNS, np.int64)
    matches = crawford_games = 0
    for _ in range(300):
        length = int(rng.integers(1, 12))
        match, row = Match(length), np.zeros(batch_match.M_COLUMNS, np.int64)
        batch_match.new_match(row, length)
        while not match.is_over:
            cube = 1 if match.crawford else int(rng.choice([1, 1, 2, 4]))
            kind = int(rng.choice([1, 1, 1, 2, 3]))
            winner = int(rng.integers(2))
            match.record(GameResult(winner, "single", cube, cube * kind))
            state[batch.WINNER], state[batch.POINTS] = winner, cube * kind
            batch_match.record_game(row, state)
            score = (int(row[batch_match.M_SCORE0]), int(row[batch_match.M_SCORE0 + 1]))
            assert score == match.score
            assert bool(row[batch_match.M_CRAWFORD]) == match.crawford, match
            assert batch_match.post_crawford(row) == match.post_crawford, match
            assert row[batch_match.M_CRAWFORD_GAMES] == match.crawford_games_played
            for side in (0, 1):
                assert batch_match.match_equity_kernel(row, side, pre, post) == match.equity(side)
        assert row[batch_match.M_WINNER] == match.winner and row[batch_match.M_GAMES] == match.games
        matches += 1
        crawford_games += match.crawford_games_played
    assert matches == 300 and crawford_games > 50


@pytest.mark.parametrize("integer", [False, True])
def test_context_blocks_equal_encode_context_at_every_score(integer):
    """The batched context encoder against :func:`encode_context` at every score of a
    25-point match (pre-Crawford, Crawford and post-Crawford), from both sides."""
    pre, post = met_tables()
    game = Game(Rules())
    game.opening(np.random.default_rng(0))
    rows, expected = [], []
    for a in range(25):
        for b in range(25):
            for crawford in (False, True):
                if crawford and not (min(25 - a, 25 - b) == 1 and max(25 - a, 25 - b) > 1):
                    continue
                match = Match(25, score=(a, b), crawford=crawford)
                for side in (0, 1):
                    rows.append((a, b, crawford, side))
                    expected.append(encode_context(game, side, match, integer=integer))
    m = np.zeros((len(rows), batch_match.M_COLUMNS), np.int64)
    m[:, batch_match.M_LENGTH] = 25
    m[:, batch_match.M_WINNER] = -1
    m[:, batch_match.M_SCORE0:batch_match.M_SCORE0 + 2] = [r[:2] for r in rows]
    m[:, batch_match.M_CRAWFORD] = [r[2] for r in rows]
    sides = np.array([r[3] for r in rows], np.int64)
    equity = np.empty(len(rows))
    batch_match.equities(m, sides, pre, post, equity)
    away = 25 - m[:, batch_match.M_SCORE0:batch_match.M_SCORE0 + 2]
    away = np.stack([away[np.arange(len(rows)), sides], away[np.arange(len(rows)), 1 - sides]], 1)
    out = np.zeros((len(rows), CONTEXT_SIZE), np.int8 if integer else np.float32)
    encode_contexts(out, "standard", away, m[:, batch_match.M_CRAWFORD],
                    batch_match.post_crawfords(m), equity, integer)
    np.testing.assert_array_equal(out, np.stack(expected))


def test_gymnasium_vector_entry_point_plays_matches_on_the_kernels():
    import gymnasium

    import bg_env  # noqa: F401  (registers the envs)
    from bg_env.envs.gym_vector import BackgammonVectorEnv

    venv = gymnasium.make_vec("bg_env/Backgammon-v0", num_envs=4, match_length=3, cube=True,
                              vectorization_mode="vector_entry_point")
    assert isinstance(venv, BackgammonVectorEnv)
    assert venv.single_observation_space.shape == (212 + CONTEXT_SIZE,)  # context: automatic
    venv.reset(seed=0)
    rng = np.random.default_rng(0)
    finished = 0
    while finished < 4:
        masks = venv.action_masks()
        keys = rng.random(masks.shape)
        keys[~masks] = -1
        _, rewards, terminated, truncated, infos = venv.step(keys.argmax(1))
        assert not truncated.any()
        for i in np.flatnonzero(terminated):
            finished += 1
            final = infos["final_info"]
            assert max(final["score"][i]) >= 3 and final["winner"][i] in ("player_0", "player_1")
            assert abs(rewards[i]) == 1
        assert (rewards[~terminated] == 0).all()


@pytest.mark.parametrize("name", list(VARIANT_CONFIGS))
def test_variants_in_lockstep_with_the_single_env(name):
    seen = lockstep_both_sides(VARIANT_CONFIGS[name], seeds=(4, 5))
    assert seen["episodes"] >= 2


@pytest.mark.parametrize("variant", ["nackgammon", "hypergammon2", "nuclear"])
def test_variants_in_lockstep_against_pubeval(variant):
    pytest.importorskip("agents")
    import agents  # noqa: F401  (fills the opponent registry: "pubeval")

    seen = lockstep(dict(variant=variant, cube=True, max_turns=40), "pubeval", "player_0", 6,
                    250)
    assert seen["episodes"] >= 1
