"""The Gymnasium vector envs' autoreset modes (same-step, the default, and next-step,
Gymnasium's own default that its vector wrappers expect) and their refusal of misuse, on
the kernels (:class:`~bg_env.envs.gym_vector.BackgammonVectorEnv`) and on the fallback
of single envs (:class:`~bg_env.envs.gym_vector.MaskedSyncVectorEnv`)."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode
from gymnasium.wrappers.vector import NormalizeObservation, RecordEpisodeStatistics

import bg_env  # noqa: F401  (registers the ids)
from bg_env.game.game import PURE_PYTHON, IllegalActionError
from bg_env.envs.gym_vector import BackgammonVectorEnv, MaskedSyncVectorEnv

N = 3


def first_legal(game):
    """An opponent that is not built in, so that the fallback of single envs is made."""
    return game.legal_actions()[0]


CONFIGS = {
    "kernels, cube": {"cube": True},
    "kernels, pubeval": {"opponent": "pubeval"},
    "kernels, 3-point match": {"match_length": 3, "cube": True},
    "single envs": {"opponent": first_legal, "cube": True},
}


def make(mode, **config):
    return gym.make_vec("bg_env/Backgammon-v0", num_envs=N,
                        vectorization_mode="vector_entry_point", autoreset_mode=mode, **config)


def pick(mask: np.ndarray) -> int:
    """A deterministic choice that depends on the mask alone (the middle legal action)."""
    legal = np.flatnonzero(mask)
    return int(legal[len(legal) // 2])


def decisions(mode, config, steps: int) -> list[list[tuple]]:
    """Each game row's decisions as ``(observation, action, reward, ended, last
    observation)``, whichever autoreset mode made them: the ignored step after an end
    (next-step) is left out, the last observation is ``final_obs`` (same-step) or the
    observation returned (next-step)."""
    venv = make(mode, **config)
    obs, _ = venv.reset(seed=5)
    rows: list[list[tuple]] = [[] for _ in range(N)]
    ended = np.zeros(N, dtype=bool)
    for _ in range(steps):
        masks = venv.unwrapped.action_masks()
        actions = np.array([pick(m) for m in masks])
        new, rewards, term, trunc, info = venv.step(actions)
        for i in range(N):
            if ended[i]:  # next-step: the action was ignored, a new game begins
                assert rewards[i] == 0 and not term[i] and not trunc[i]
                assert masks[i].all()  # every action marked legal: any is ignored
                continue
            done = bool(term[i] or trunc[i])
            last = None
            if done:
                last = info["final_obs"][i] if mode == "same_step" else new[i]
            rows[i].append((obs[i].tobytes(), int(actions[i]), float(rewards[i]), done,
                            None if last is None else last.tobytes()))
        ended = (term | trunc) if mode == "next_step" else np.zeros(N, dtype=bool)
        obs = new
    return rows


@pytest.mark.parametrize("config", CONFIGS.values(), ids=CONFIGS.keys())
def test_next_step_plays_the_same_games_as_same_step(config):
    same, following = decisions("same_step", config, 400), decisions("next_step", config, 400)
    for a, b in zip(same, following):
        k = min(len(a), len(b))
        assert k > 100 and a[:k] == b[:k]
        assert sum(d[3] for d in a[:k]) >= 2  # games ended (and new ones began) in the run


@pytest.mark.parametrize("config", CONFIGS.values(), ids=CONFIGS.keys())
def test_next_step_gives_gymnasiums_episode_statistics(config):
    """Gymnasium's RecordEpisodeStatistics counts every step under next-step autoreset
    (under same-step, Gymnasium 1.2 drops the first step of each later episode)."""
    venv = RecordEpisodeStatistics(make("next_step", **config))
    venv.reset(seed=1)
    total, length, ended, episodes = np.zeros(N), np.zeros(N, int), np.zeros(N, bool), 0
    for _ in range(600):
        _, rewards, term, trunc, info = venv.step(
            np.array([pick(m) for m in venv.unwrapped.action_masks()]))
        for i in np.flatnonzero(~ended):
            total[i] += rewards[i]
            length[i] += 1
            if term[i] or trunc[i]:
                assert info["episode"]["r"][i] == total[i]
                assert info["episode"]["l"][i] == length[i]
                episodes += 1
        ended = term | trunc
        total[ended], length[ended] = 0, 0
    assert episodes >= 3


def test_next_step_lets_gymnasiums_observation_wrappers_in():
    with pytest.raises(AssertionError):  # Gymnasium's own check of the autoreset mode
        NormalizeObservation(make("same_step"))
    venv = NormalizeObservation(make("next_step"))
    obs, _ = venv.reset(seed=0)
    obs, *_ = venv.step(np.array([pick(m) for m in venv.unwrapped.action_masks()]))
    assert obs.shape == (N,) + venv.single_observation_space.shape


def test_the_ignored_action_may_be_anything():
    venv = make("next_step", cube=True, illegal_action="raise")
    venv.reset(seed=3)
    for _ in range(300):
        _, _, term, trunc, _ = venv.step(np.array([pick(m) for m in venv.action_masks()]))
        if (term | trunc).any():
            break
    ended = term | trunc
    actions = np.where(ended, 999, [pick(m) for m in venv.action_masks()])
    _, rewards, term, _, _ = venv.step(actions)  # 999 is not legal, but it is not played
    assert not term[ended].any() and (rewards[ended] == 0).all()


@pytest.mark.parametrize("mode", ["same_step", "SameStep", AutoresetMode.SAME_STEP])
def test_the_mode_is_named_as_gymnasium_names_it(mode):
    venv = make(mode)
    assert venv.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
    assert make("NEXT_STEP").metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP


@pytest.mark.parametrize("config", [{}, {"opponent": first_legal}])
def test_an_unknown_mode_is_named(config):
    with pytest.raises(ValueError, match="autoreset_mode='later'"):
        make("later", **config)
    with pytest.raises(ValueError, match="autoreset_mode"):
        make(AutoresetMode.DISABLED, **config)


def test_the_default_is_still_same_step():
    venv = gym.make_vec("bg_env/Backgammon-v0", num_envs=2, vectorization_mode="vector_entry_point")
    assert venv.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP


# ------------------------------------------------------------------ misuse
@pytest.mark.skipif(PURE_PYTHON, reason="the kernels' env")
@pytest.mark.parametrize("make_env", [
    lambda: BackgammonVectorEnv(2),
    lambda: bg_env.make_vec_env(2),
], ids=["gymnasium", "sb3"])
def test_the_kernels_refuse_misuse_as_the_single_envs_do(make_env):
    venv = make_env()
    with pytest.raises(RuntimeError, match="reset"):
        venv.step(np.array([0, 0]))
    venv.reset()
    legal = np.array([pick(m) for m in venv.action_masks()])
    for bad, word in [(legal + 0.9, "dtype float64"), (legal.astype(bool), "dtype bool")]:
        with pytest.raises(IllegalActionError, match=word):  # as the single envs say it
            venv.step(bad)
    for bad, word in [(legal.reshape(2, 1), r"shape \(2, 1\)"), (legal[:1], r"shape \(1,\)")]:
        with pytest.raises(ValueError, match=word):
            venv.step(bad)
    venv.step(legal)  # nothing was stepped by the refused calls: the actions are legal


@pytest.mark.parametrize("config", [{"cube": True}, {"opponent": first_legal}],
                         ids=["kernels", "single envs"])
def test_a_copy_taken_right_after_a_game_ended_goes_on_as_the_original(config):
    import copy
    import pickle

    venv = make("next_step", **config).unwrapped
    venv.reset(seed=2)
    for _ in range(500):
        _, _, term, trunc, _ = venv.step(np.array([pick(m) for m in venv.action_masks()]))
        if (term | trunc).any():
            break
    assert (term | trunc).any()
    copies = [copy.deepcopy(venv)]
    if config.get("opponent") is None:  # (a local function does not pickle)
        copies.append(pickle.loads(pickle.dumps(venv)))
    runs = []
    for env in [venv, *copies]:
        steps = []
        for _ in range(30):
            masks = env.action_masks()
            obs, rewards, term, trunc, _ = env.step(np.array([pick(m) for m in masks]))
            steps.append((masks.tobytes(), obs.tobytes(), rewards.tolist(), term.tolist()))
        runs.append(steps)
    assert all(run == runs[0] for run in runs[1:])


@pytest.mark.parametrize("mode", ["same_step", "next_step"])
def test_a_negative_action_is_illegal_not_a_skip(mode):
    """The kernels' SKIP is -1: a user's -1 must still be an illegal action."""
    venv = make(mode, illegal_action="raise")
    venv.reset(seed=0)
    with pytest.raises(IllegalActionError, match="action -1 is not legal"):
        venv.step(np.array([-1] + [pick(m) for m in venv.action_masks()[1:]]))
    venv = make(mode)  # illegal_action="lose": the game is forfeited
    venv.reset(seed=0)
    _, rewards, term, _, info = venv.step(
        np.array([-1] + [pick(m) for m in venv.action_masks()[1:]]))
    assert term[0] and rewards[0] == -1
    ended = info["final_info"] if mode == "same_step" else info
    assert ended["illegal_action"][0] == -1


def test_a_partial_reset_keeps_the_other_ended_games_pending():
    """Gymnasium's reset(options={"reset_mask": m}) restarts the games in m only; a game
    outside m that has just ended still has its next action ignored, so its mask row
    stays all legal (it was all illegal: the finished game's)."""
    venv = make("next_step", opponent=first_legal).unwrapped
    venv.reset(seed=4)
    for _ in range(500):
        _, _, term, trunc, _ = venv.step(np.array([pick(m) for m in venv.action_masks()]))
        ended = term | trunc
        if ended.any() and not ended.all():
            break
    venv.reset(options={"reset_mask": ~ended})
    assert venv.action_masks()[ended].all() and venv.action_masks().any(axis=1).all()
