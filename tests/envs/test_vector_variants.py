"""The vector env on the kernels in the variants whose moves are not standard: Plakoto,
Caucasian, Long Nardy and the no-hit-and-hide option against the random opponent, and pubeval where it judges the
boards (sudden death, Caucasian), in lockstep with the single Gymnasium env (the driver
``test_vector_match.lockstep``: the same dice, the same learner actions; observations,
masks, rewards, dones and infos equal at every step); pubeval's choice among a variant's
plays against ``agents.players.pubeval``'s; copies and pickles of a variant's vector env continue
as the original does.
"""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest

pytest.importorskip("numba")
pytest.importorskip("stable_baselines3")

from bg_env.kernels import batch  # noqa: E402
from bg_env.kernels.opponents import fitted_work, new_work, variant_plays  # noqa: E402
from bg_env.game.game import PURE_PYTHON, Game  # noqa: E402
from bg_env.kernels.pubeval import best_result, is_race  # noqa: E402
from bg_env.envs.context import CONTEXT_SIZE  # noqa: E402
from bg_env.envs.kernel_batch import KernelBatch, kernels_play, pubeval_judges  # noqa: E402
from bg_env.envs.observation import TESAURO_SIZE  # noqa: E402
from bg_env.envs.vector import BackgammonVecEnv, GymVecEnv, make_vec_env  # noqa: E402
from test_vector_match import lockstep  # noqa: E402

pytestmark = pytest.mark.skipif(PURE_PYTHON, reason="BG_ENV_PURE_PYTHON=1: no numba kernels")

RANDOM_CONFIGS = {
    "plakoto": dict(variant="plakoto"),
    "plakoto_cube": dict(variant="plakoto", cube=True),
    "plakoto_compact": dict(variant="plakoto", observation="compact", reward="win"),
    "plakoto_match5_equity": dict(variant="plakoto", match_length=5, cube=True,
                                  match_reward="equity"),
    "caucasian": dict(variant="caucasian"),
    "caucasian_cube": dict(variant="caucasian", cube=True),
    "caucasian_match3_compact": dict(variant="caucasian", match_length=3, cube=True,
                                     observation="compact"),
    "long_nardy": dict(variant="long_nardy"),
    "long_nardy_no_context": dict(variant="long_nardy", context=False),
    "long_nardy_cube_max_turns": dict(variant="long_nardy", cube=True, max_turns=30),
    "long_nardy_match3": dict(variant="long_nardy", match_length=3, cube=True),
    "long_nardy_match3_black": dict(variant="long_nardy", match_length=3, cube=True,
                                    next_starter="black"),
    "long_nardy_match5_winner_cube": dict(variant="long_nardy", match_length=5, cube=True,
                                          next_starter="winner", six_block="entered",
                                          house_mars=True, last_roll_draw=True),
    "long_nardy_last_roll_draw": dict(variant="long_nardy", last_roll_draw=True),
    "standard_no_hit_and_hide": dict(no_hit_and_hide=True),
    "nackgammon_no_hit_and_hide_cube": dict(variant="nackgammon", no_hit_and_hide=True, cube=True),
}
PUBEVAL_CONFIGS = {
    "sudden_death": dict(variant="sudden_death"),
    "sudden_death_cube": dict(variant="sudden_death", cube=True),
    "sudden_death_match5_context": dict(variant="sudden_death", match_length=5, cube=True),
    "caucasian_cube": dict(variant="caucasian", cube=True),
    "standard_no_hit_and_hide_cube": dict(no_hit_and_hide=True, cube=True),
}


def _pubeval_registered():
    pytest.importorskip("agents")
    import agents  # noqa: F401  (fills the opponent registry: "pubeval")


# ------------------------------------------------------ lockstep with the single env
@pytest.mark.parametrize("name", list(RANDOM_CONFIGS))
def test_random_opponent_in_lockstep_with_the_single_env(name):
    config = RANDOM_CONFIGS[name]
    seen = {}
    for seed, learner in ((1, "player_0"), (2, "player_1"), (3, "player_1")):
        for key, n in lockstep(config, "random", learner, seed, 250).items():
            seen[key] = seen.get(key, 0) + n
    assert seen["episodes"] >= 3
    if config.get("cube"):
        assert seen["doubles"] > 0
    if config.get("max_turns"):
        assert seen["truncated"] > 0


@pytest.mark.parametrize("name", list(PUBEVAL_CONFIGS))
def test_pubeval_in_lockstep_with_the_single_env(name):
    """The kernels' pubeval against ``PubevalAgent`` in the single env: the learner sees
    the boards pubeval's plays leave, so a different choice shows in the observations."""
    _pubeval_registered()
    seen = {}
    for seed, learner in ((4, "player_0"), (5, "player_1")):
        for key, n in lockstep(PUBEVAL_CONFIGS[name], "pubeval", learner, seed, 250).items():
            seen[key] = seen.get(key, 0) + n
    assert seen["episodes"] >= 2


# ------------------------------------------------------------ what the rows show
def _random_rollout(kb: KernelBatch, steps: int, seed: int):
    """The observations of ``steps`` random learner decisions."""
    rng = np.random.default_rng(seed)
    out = [kb.reset()]
    for _ in range(steps):
        masks = kb.action_masks()
        out.append(kb.step(np.array([rng.choice(np.flatnonzero(m)) for m in masks]))[0])
    return np.concatenate(out)


def test_plakoto_rows_show_the_pins_from_the_learners_side():
    kb = KernelBatch(8, variant="plakoto")
    kb.seed(0)
    obs = _random_rollout(kb, 80, 0)
    block = obs[:, TESAURO_SIZE:]
    assert block.shape[1] == CONTEXT_SIZE and (block[:, 8] == 1).all()  # plakoto's one-hot
    assert block[:, 14:38].any() and block[:, 38:62].any()  # pinned by either side


def test_long_nardy_rows_draw_the_standard_view():
    """With the context block the board is drawn in the standard view (the opponent's
    head, his 24-point, on the learner's 12-point), without it in the variant's numbering:
    the same games, different boards."""
    obs = []
    for context in (True, False):
        kb = KernelBatch(4, variant="long_nardy", context=context, learner="player_0")
        kb.seed(9)
        obs.append(_random_rollout(kb, 20, 9)[:, :TESAURO_SIZE])
    assert not np.array_equal(obs[0], obs[1])


# ------------------------------------------------------------ pubeval's choice
@pytest.mark.parametrize("variant", ["sudden_death", "caucasian"])
def test_kernel_pubeval_chooses_among_the_variants_plays_as_the_agent(variant):
    """At the learner's decisions of random games, the variant's ways to finish the play
    (:func:`variant_plays`, from small buffers grown as needed too) are the Game's
    continuations, and the kernels' pick is ``PubevalAgent``'s."""
    pytest.importorskip("agents")
    from agents.players.pubeval import PubevalAgent

    agent = PubevalAgent()
    kb = KernelBatch(8, variant=variant, learner="player_0")
    kb.seed(1)
    kb.reset()
    g, vt = kb.games, kb.games.variant_rows.kernel_args
    work = new_work()
    rng = np.random.default_rng(1)
    checked = several = 0
    for _ in range(60):
        for i in range(kb.num_envs):
            if g.state[i, batch.PHASE] != batch.P_MOVE:
                continue
            boards, moves, lengths, n = variant_plays(vt, i, work)
            small = new_work(1)
            got_small = variant_plays(vt, i, small)
            assert got_small[3] == n and np.array_equal(got_small[0][:n], boards[:n])
            assert np.array_equal(got_small[1][:n], moves[:n])
            if n > 1:  # grown for this decision; the next work holds them all
                assert small[-1][0] >= n and fitted_work(small)[1].shape[0] >= n
            else:
                assert fitted_work(small) is small
            plays = Game.from_games(g, i).legal_continuations()
            got = {(tuple(b[:26]), tuple(b[26:52])) for b in boards[:n].tolist()}
            assert got == {(p.result.me, p.result.opp) for p in plays}
            best = best_result(boards[:, :26], boards[:, 26:52], n, is_race(g.me[i], g.opp[i]))
            chosen = agent.choose_play(plays)
            assert (tuple(boards[best, :26]), tuple(boards[best, 26:52])) == (
                chosen.result.me, chosen.result.opp)
            checked += 1
            several += n > 1
        masks = kb.action_masks()
        kb.step(np.array([rng.choice(np.flatnonzero(m)) for m in masks]))
    assert checked > 200 and several > 100


# ------------------------------------------------------------ which envs, which errors
def test_make_vec_env_plays_every_variant_on_the_kernels():
    for variant in ("plakoto", "caucasian", "long_nardy"):
        venv = make_vec_env(2, variant=variant, match_length=3, cube=True)
        assert isinstance(venv.unwrapped, BackgammonVecEnv), variant
    for variant in ("sudden_death", "caucasian"):
        assert isinstance(make_vec_env(2, variant=variant, opponent="pubeval").unwrapped,
                          BackgammonVecEnv), variant


@pytest.mark.parametrize("variant", ["plakoto", "long_nardy"])
def test_pubeval_in_plakoto_and_long_nardy_stays_off_the_kernels(variant):
    from bg_env.envs.config import EnvConfig

    assert not pubeval_judges(variant)
    assert not kernels_play("pubeval", EnvConfig.from_kwargs(variant=variant))
    assert kernels_play("random", EnvConfig.from_kwargs(variant=variant))
    with pytest.raises(ValueError, match=f"variant='{variant}'.*pubeval"):
        KernelBatch(2, opponent="pubeval", variant=variant)
    _pubeval_registered()
    assert isinstance(make_vec_env(2, variant=variant, opponent="pubeval").unwrapped, GymVecEnv)


def test_gymnasium_vector_entry_point_plays_long_nardy_on_the_kernels():
    import gymnasium

    import bg_env  # noqa: F401  (registers the envs)
    from bg_env.envs.gym_vector import BackgammonVectorEnv

    venv = gymnasium.make_vec("bg_env/Backgammon-v0", num_envs=3, variant="long_nardy",
                              vectorization_mode="vector_entry_point")
    assert isinstance(venv, BackgammonVectorEnv)
    obs, _ = venv.reset(seed=0)
    assert obs.shape == (3, TESAURO_SIZE + CONTEXT_SIZE)
    assert (obs[:, TESAURO_SIZE + 10] == 1).all()  # long_nardy's one-hot


# ------------------------------------------------------------ copies continue
def _steps(venv, rng, n: int) -> list:
    out = []
    for _ in range(n):
        masks = venv.action_masks()
        obs, rewards, dones, _ = venv.step(np.array([rng.choice(np.flatnonzero(m))
                                                     for m in masks]))
        out.append((obs, venv.action_masks(), rewards, dones))
    return out


@pytest.mark.parametrize("config", [dict(variant="plakoto", cube=True),
                                    dict(variant="long_nardy", match_length=3, max_turns=15),
                                    dict(variant="sudden_death", opponent="pubeval")],
                         ids=["plakoto", "long_nardy_match", "sudden_death_pubeval"])
def test_copies_and_pickles_continue_as_the_original(config):
    cloudpickle = pytest.importorskip("cloudpickle")
    if config.get("opponent") == "pubeval":
        _pubeval_registered()
    venv = make_vec_env(4, seed=3, **config)
    venv.reset()
    _steps(venv, np.random.default_rng(0), 25)
    copies = [copy.deepcopy(venv), pickle.loads(pickle.dumps(venv)),
              cloudpickle.loads(cloudpickle.dumps(venv))]
    for twin in copies:
        assert twin.games.variant_rows is not venv.games.variant_rows
    expected = _steps(venv, np.random.default_rng(1), 60)
    assert any(step[3].any() for step in expected)  # some game ended and restarted
    for twin in copies:
        for got, want in zip(_steps(twin, np.random.default_rng(1), 60), expected):
            for a, b in zip(got, want):
                np.testing.assert_array_equal(a, b)
