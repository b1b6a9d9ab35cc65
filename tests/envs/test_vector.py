"""The vector environment: Stable-Baselines3's VecEnv API, auto-reset, masks and
observations equal to the single env's, seeding, the general (per-game) path, episode
statistics (``VecMonitor``), and MaskablePPO smoke runs."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("stable_baselines3")

from stable_baselines3.common.vec_env import (  # noqa: E402
    VecEnv,
    VecMonitor,
    is_vecenv_wrapped,
)

from bg_env.actions import N_ACTIONS  # noqa: E402
from bg_env.game.game import PURE_PYTHON, Game, IllegalActionError, Phase  # noqa: E402
from bg_env.envs.observation import COMPACT_SIZE, TESAURO_SIZE, encode  # noqa: E402
from bg_env.envs.vector import (  # noqa: E402
    BackgammonVecEnv,
    GymVecEnv,
    bench_vec_env,
    make_vec_env,
)

AGENTS = ("player_0", "player_1")
fast_path = pytest.mark.skipif(PURE_PYTHON, reason="BG_ENV_PURE_PYTHON=1: no numba kernels")


def random_actions(venv, rng) -> np.ndarray:
    masks = venv.action_masks()
    return np.array([rng.choice(np.flatnonzero(m)) for m in masks])


def rollout(venv, steps: int, seed: int = 0):
    """Observations, masks, rewards, dones of ``steps`` random steps."""
    rng = np.random.default_rng(seed)
    out = [(venv.reset(), venv.action_masks())]
    for _ in range(steps):
        obs, rewards, dones, infos = venv.step(random_actions(venv, rng))
        out.append((obs, venv.action_masks(), rewards, dones))
    return out


# ------------------------------------------------------------------ VecEnv API
@fast_path
def test_fast_path_is_chosen():
    assert isinstance(make_vec_env(2).unwrapped, BackgammonVecEnv)
    assert isinstance(make_vec_env(2, monitor=False), BackgammonVecEnv)
    assert isinstance(make_vec_env(2, opponent=lambda env: env.legal_actions()[0]).unwrapped,
                      GymVecEnv)
    for config in ({"cube": True}, {"match_length": 7, "cube": True}, {"context": True},
                   {"match_length": 5, "opponent": "pubeval", "observation": "compact"}):
        assert isinstance(make_vec_env(2, **config).unwrapped, BackgammonVecEnv), config
    assert isinstance(make_vec_env(2, variant="nackgammon").unwrapped, BackgammonVecEnv)
    assert isinstance(make_vec_env(2, variant="plakoto").unwrapped, BackgammonVecEnv)
    assert isinstance(make_vec_env(2, variant="plakoto", render_mode="ansi").unwrapped,
                      GymVecEnv)
    with pytest.raises(ValueError, match="view"):
        make_vec_env(2, view="boards")
    with pytest.raises(ValueError, match="num_envs"):
        make_vec_env(0)
    with pytest.raises(ValueError, match="unknown config"):
        make_vec_env(2, colour="white")


@pytest.mark.parametrize("observation,size,dtype", [("tesauro", TESAURO_SIZE, np.float32),
                                                     ("compact", COMPACT_SIZE, np.int8)])
def test_shapes_and_spaces(observation, size, dtype):
    venv = make_vec_env(3, observation=observation, seed=1)
    assert isinstance(venv, VecEnv) and venv.num_envs == 3
    assert venv.action_space.n == N_ACTIONS and venv.observation_space.shape == (size,)
    obs = venv.reset()
    assert obs.shape == (3, size) and obs.dtype == dtype
    assert all(venv.observation_space.contains(o) for o in obs)
    masks = venv.action_masks()
    assert masks.shape == (3, N_ACTIONS) and masks.dtype == bool and masks.any(axis=1).all()
    venv.step_async(random_actions(venv, np.random.default_rng(0)))
    obs, rewards, dones, infos = venv.step_wait()
    assert obs.shape == (3, size) and rewards.shape == (3,) and rewards.dtype == np.float32
    assert dones.shape == (3,) and dones.dtype == bool and len(infos) == 3


@fast_path
def test_masks_for_sb3_contrib():
    from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported

    venv = make_vec_env(4, seed=2)
    venv.reset()
    assert is_masking_supported(venv)
    np.testing.assert_array_equal(get_action_masks(venv), venv.action_masks())
    rows = venv.env_method("action_masks", indices=[1, 3])
    np.testing.assert_array_equal(np.stack(rows), venv.action_masks()[[1, 3]])
    assert venv.get_attr("learner") == [AGENTS[s] for s in venv.sides]
    assert venv.env_is_wrapped(object) == [False] * 4


@fast_path
def test_auto_reset_and_terminal_observation():
    venv = make_vec_env(8, seed=3, cube=False)
    rng = np.random.default_rng(3)
    venv.reset()
    finished = 0
    while finished < 12:
        obs, rewards, dones, infos = venv.step(random_actions(venv, rng))
        assert (rewards[~dones] == 0).all()
        for i in np.flatnonzero(dones):
            info = infos[i]
            finished += 1
            assert info["TimeLimit.truncated"] is False
            assert info["outcome"] in ("single", "gammon", "backgammon")
            assert abs(rewards[i]) == info["points"] and info["winner"] in AGENTS
            terminal = info["terminal_observation"]
            assert terminal.shape == (TESAURO_SIZE,) and not np.array_equal(terminal, obs[i])
            assert terminal[207:212].sum() == 0  # nobody acts in a finished game
            assert obs[i][207:211].sum() == 1  # the new game asks the learner
            assert venv.action_masks()[i].any()


@fast_path
def test_rewards_follow_the_winner():
    venv = make_vec_env(16, seed=4, cube=False, learner="player_1")
    rng = np.random.default_rng(4)
    venv.reset()
    assert (venv.sides == 1).all()
    seen = 0
    while seen < 10:
        _, rewards, dones, infos = venv.step(random_actions(venv, rng))
        for i in np.flatnonzero(dones):
            sign = 1 if infos[i]["winner"] == "player_1" else -1
            assert rewards[i] == sign * infos[i]["points"]
            seen += 1


@fast_path
def test_truncation():
    venv = make_vec_env(4, seed=5, max_turns=6, reward="win")
    rng = np.random.default_rng(5)
    venv.reset()
    truncated = 0
    for _ in range(200):
        _, rewards, dones, infos = venv.step(random_actions(venv, rng))
        for i in np.flatnonzero(dones):
            if infos[i]["TimeLimit.truncated"]:
                truncated += 1
                assert rewards[i] == 0 and "outcome" not in infos[i]
            else:
                assert abs(rewards[i]) == 1
    assert truncated > 0


@fast_path
def test_illegal_actions():
    venv = make_vec_env(2, seed=6, illegal_reward=-3.0)
    venv.reset()
    good = random_actions(venv, np.random.default_rng(0))
    bad = int(np.flatnonzero(~venv.action_masks()[1])[0])
    _, rewards, dones, infos = venv.step(np.array([good[0], bad]))
    assert dones[1] and rewards[1] == -3.0 and infos[1]["illegal_action"] == bad
    assert infos[1]["TimeLimit.truncated"] is False
    strict = make_vec_env(2, seed=6, illegal_action="raise")
    strict.reset()
    before = strict.games.state.copy()
    with pytest.raises(IllegalActionError, match="env 0"):
        strict.step(np.array([N_ACTIONS + 3, good[1]]))
    np.testing.assert_array_equal(strict.games.state, before)
    for wrong in (np.array([good[0]]), np.array([good[0], good[1], good[1]])):
        with pytest.raises(ValueError, match=r"expected one action for each of the 2 games"):
            strict.step(wrong)
        np.testing.assert_array_equal(strict.games.state, before)


# ------------------------------------------------ the same game as the single env
CONFIGS = {"nocube": {"cube": False}, "cube": {"cube": True},
           "beaver_compact": {"cube": True, "beaver": True, "observation": "compact"}}


@fast_path
@pytest.mark.parametrize("config", list(CONFIGS.values()), ids=list(CONFIGS))
def test_masks_and_observations_equal_the_single_env(config):
    """Every state the vector env shows, rebuilt as a Game: the mask is the Game's mask
    and the observation :func:`encode`'s, from the learner's side."""
    venv = make_vec_env(6, seed=7, **config)
    rng = np.random.default_rng(7)
    obs = venv.reset()
    encoder = config.get("observation", "tesauro")
    for _ in range(150):
        masks = venv.action_masks()
        for i in range(venv.num_envs):
            game = Game.from_games(venv.games, i)
            side = int(venv.sides[i])
            assert game.phase != Phase.OVER and game.actor == side
            np.testing.assert_array_equal(masks[i], game.legal_mask())
            np.testing.assert_array_equal(obs[i], encode(game, side, encoder))
        obs, _, _, _ = venv.step(random_actions(venv, rng))


def test_same_seed_same_games():
    a = rollout(make_vec_env(4, seed=11), 120)
    b = rollout(make_vec_env(4, seed=11), 120)
    for x, y in zip(a, b):
        for u, v in zip(x, y):
            np.testing.assert_array_equal(u, v)
    c = rollout(make_vec_env(4, seed=12), 120)
    assert not all(np.array_equal(x[0], y[0]) for x, y in zip(a, c))


def test_seed_method_reseeds_at_reset():
    venv = make_vec_env(3)
    venv.seed(21)
    first = venv.reset()
    venv.seed(21)
    np.testing.assert_array_equal(venv.reset(), first)


# -------------------------------------------------------------- the general path
def test_general_path_with_an_agent_opponent():
    first = make_vec_env(3, opponent=lambda env: env.legal_actions()[0], seed=8, cube=False)
    assert isinstance(first.unwrapped, GymVecEnv)
    obs = first.reset()
    assert obs.shape == (3, TESAURO_SIZE) and first.action_masks().shape == (3, N_ACTIONS)
    rng = np.random.default_rng(8)
    done_any = False
    for _ in range(400):
        obs, rewards, dones, infos = first.step(random_actions(first, rng))
        for i in np.flatnonzero(dones):
            done_any = True
            assert "terminal_observation" in infos[i]
    assert done_any


def test_plays_view():
    pytest.importorskip("bg_env.envs.play_env")
    venv = make_vec_env(2, view="plays", seed=9)
    obs = venv.reset()
    masks = venv.action_masks()
    assert obs.shape[0] == 2 and masks.shape == (2, venv.action_space.n)
    rng = np.random.default_rng(9)
    for _ in range(30):
        venv.step(random_actions(venv, rng))


# ------------------------------------------------------------ episode statistics
@pytest.mark.parametrize("config", [
    pytest.param({}, id="kernels_random", marks=fast_path),
    pytest.param({"opponent": "pubeval", "cube": True}, id="kernels_pubeval", marks=fast_path),
    pytest.param({"view": "plays"}, id="gym_plays"),
])
def test_episode_statistics_in_the_last_info(config):
    """The info of the step that ends a game holds SB3's ``episode``: ``r`` the game's
    summed rewards, ``l`` its learner steps (``VecMonitor``, what SB3 logs and
    ``evaluate_policy`` reads); none with ``monitor=False``."""
    venv = make_vec_env(4, seed=17, **config)
    assert is_vecenv_wrapped(venv, VecMonitor)
    rng = np.random.default_rng(17)
    venv.reset()
    returns, lengths = np.zeros(4), np.zeros(4, dtype=int)
    episodes = []
    while len(episodes) < 6:
        _, rewards, dones, infos = venv.step(random_actions(venv, rng))
        returns += rewards
        lengths += 1
        for i in range(4):
            assert ("episode" in infos[i]) == dones[i]
        for i in np.flatnonzero(dones):
            episode = infos[i]["episode"]
            assert episode["r"] == pytest.approx(returns[i]) and episode["l"] == lengths[i]
            assert episode["t"] >= 0
            episodes.append((returns[i], lengths[i]))
            returns[i], lengths[i] = 0, 0
    assert any(r != 0 for r, _ in episodes) and len({n for _, n in episodes}) > 1
    bare = make_vec_env(2, seed=17, monitor=False, **config)
    assert not is_vecenv_wrapped(bare, VecMonitor)
    bare.reset()
    for _ in range(200):
        _, _, dones, infos = bare.step(random_actions(bare, rng))
        assert not any("episode" in info for info in infos)


class FirstLegal:
    """A policy for ``evaluate_policy``: each game's first legal action."""

    def __init__(self, venv):
        self.venv = venv

    def predict(self, obs, state=None, episode_start=None, deterministic=True):
        return self.venv.action_masks().argmax(axis=1), None


@pytest.mark.parametrize("config", [pytest.param({}, id="kernels", marks=fast_path),
                                    pytest.param({"view": "plays"}, id="gym_plays")])
def test_evaluate_policy_sees_the_monitor(config):
    import warnings

    from stable_baselines3.common.evaluation import evaluate_policy

    venv = make_vec_env(2, seed=18, **config)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no "not wrapped with a Monitor" warning
        rewards, lengths = evaluate_policy(FirstLegal(venv), venv, n_eval_episodes=4,
                                           return_episode_rewards=True)
    assert len(rewards) == len(lengths) == 4 and min(lengths) > 1


def test_the_monitored_env_copies_and_reads_through():
    """The wrapper survives deepcopy and pickling (SB3's ``VecMonitor`` alone does not)
    with its running episode counts, and reads the env's attributes through."""
    import copy
    import pickle

    venv = make_vec_env(3, seed=19)
    venv.reset()
    rng = np.random.default_rng(19)
    for _ in range(5):
        venv.step(random_actions(venv, rng))
    for twin in (copy.deepcopy(venv), pickle.loads(pickle.dumps(venv))):
        assert isinstance(twin, VecMonitor) and twin.venv is not venv.venv
        np.testing.assert_array_equal(twin.episode_lengths, venv.episode_lengths)
        np.testing.assert_array_equal(twin.action_masks(), venv.action_masks())
    assert venv.unwrapped is venv.venv
    assert venv.get_attr("learner") == venv.unwrapped.get_attr("learner")


def test_the_monitor_shows_the_reset_infos():
    """The wrapper's ``reset_infos`` are the games' (a new game's after an auto-reset)."""
    pytest.importorskip("bg_env.envs.play_env")
    venv = make_vec_env(2, view="plays", seed=20)
    venv.reset()
    assert all(info["n_plays"] > 0 for info in venv.reset_infos)
    first = list(venv.reset_infos)
    rng = np.random.default_rng(20)
    finished = set()
    while not finished:
        _, _, dones, _ = venv.step(random_actions(venv, rng))
        finished.update(np.flatnonzero(dones).tolist())
    assert venv.reset_infos is venv.unwrapped.reset_infos
    assert all(venv.reset_infos[i] is not first[i] for i in finished)


@fast_path
def test_bench_vec_env():
    games, steps = bench_vec_env(0.3, num_envs=8)
    assert games > 0 and steps > games


@pytest.mark.slow
def test_maskable_ppo_smoke():
    sb3_contrib = pytest.importorskip("sb3_contrib")
    venv = make_vec_env(8, seed=0, cube=False)
    model = sb3_contrib.MaskablePPO("MlpPolicy", venv, n_steps=32, batch_size=64, n_epochs=1,
                                    seed=0, verbose=0)
    model.learn(256)
    assert model.num_timesteps >= 256
    action, _ = model.predict(venv.reset(), action_masks=venv.action_masks())
    assert venv.action_masks()[np.arange(8), action].all()


@pytest.mark.slow
@fast_path
def test_maskable_ppo_logs_episode_statistics():
    """A tiny MaskablePPO run logs ``rollout/ep_rew_mean`` and ``ep_len_mean``."""
    sb3_contrib = pytest.importorskip("sb3_contrib")
    from stable_baselines3.common.logger import KVWriter, Logger

    class Keys(KVWriter):
        def __init__(self):
            self.keys = set()

        def write(self, key_values, key_excluded, step=0):
            self.keys.update(key_values)

    keys = Keys()
    venv = make_vec_env(8, opponent="pubeval", seed=0, cube=False)
    model = sb3_contrib.MaskablePPO("MlpPolicy", venv, n_steps=32, batch_size=128, n_epochs=1,
                                    seed=0)
    model.set_logger(Logger(None, [keys]))
    model.learn(512)
    assert len(model.ep_info_buffer) > 0
    assert {"rollout/ep_rew_mean", "rollout/ep_len_mean"} <= keys.keys


def test_env_method_action_masks_is_one_copy_of_the_masks_in_rows():
    """What sb3-contrib's get_action_masks stacks: each game's mask, in order, taken in
    one call (not a call per game), and a copy (writing to it changes no game)."""
    from sb3_contrib.common.maskable.utils import get_action_masks

    venv = make_vec_env(5, seed=0)
    venv.reset()
    inner = venv.unwrapped
    rows = inner.env_method("action_masks")
    assert len(rows) == 5 and np.array_equal(np.stack(rows), inner.action_masks())
    assert np.array_equal(get_action_masks(venv), inner.action_masks())
    assert [r.tolist() for r in inner.env_method("action_masks", indices=[3, 1])] == [
        inner.action_masks()[3].tolist(), inner.action_masks()[1].tolist()]
    rows[0][:] = False
    assert inner.action_masks()[0].any()
