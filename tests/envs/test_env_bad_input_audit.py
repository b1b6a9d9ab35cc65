"""Bad input found by a robustness audit of the envs: each is an error that names the bad
value, and the env is left as it was, or, where part of a step already happened, refuses to
go on until ``reset()`` instead of going on wrongly."""

from __future__ import annotations

import re

import gymnasium
import numpy as np
import pytest

from bg_env import backgammon_plays_v0, backgammon_v0  # (importing bg_env registers the ids)
from bg_env.game.game import IllegalActionError


class _FailsOnCall:
    """An opponent that answers well, except ``bad`` at its ``n``-th call."""

    def __init__(self, bad, n: int = 3) -> None:
        self.bad, self.n, self.calls = bad, n, 0

    def __call__(self, *args):
        self.calls += 1
        if self.calls == self.n:
            return self.bad
        if len(args) == 2:  # the play-level env: f(plays, env)
            return 0
        return int(args[0].legal_actions()[0])  # the move-level env: f(env)


def _play_until_error(env) -> Exception:
    """The learner plays its first legal action until a step raises; that error."""
    env.reset(seed=4)
    for _ in range(200):
        try:
            _, _, terminated, _, _ = env.step(int(np.flatnonzero(env.unwrapped.action_masks())[0]))
        except IllegalActionError as exc:
            return exc
        assert not terminated, "the opponent's bad answer never came"
    raise AssertionError("no error")


@pytest.mark.parametrize("env_id", ["bg_env/Backgammon-v0", "bg_env/BackgammonPlays-v0"])
@pytest.mark.parametrize("bad", [None, "x", 999, -1, 3.7, np.array([1])])
def test_an_opponents_bad_answer_is_named_as_the_opponents(env_id, bad):
    # the move-level env raised int()'s TypeError/ValueError; the play-level env an
    # IndexError, or for -1 and 3.7 silently played plays[-1] or plays[3]
    env = gymnasium.make(env_id, opponent=_FailsOnCall(bad), learner="player_0")
    exc = _play_until_error(env)
    assert "the opponent's answer" in str(exc) and repr(bad)[:8] in str(exc)


@pytest.mark.parametrize("env_id", ["bg_env/Backgammon-v0", "bg_env/BackgammonPlays-v0"])
def test_after_an_opponents_error_the_episode_refuses_to_go_on(env_id):
    # before, the next step played the learner's action on the opponent's turn (move level)
    # or a stale candidate of the previous position (play level)
    env = gymnasium.make(env_id, opponent=_FailsOnCall(None), learner="player_0")
    _play_until_error(env)
    assert not env.unwrapped.action_masks().any()
    with pytest.raises(RuntimeError, match="finished episode; call reset"):
        env.step(0)
    env.reset(seed=4)  # and a reset starts afresh
    assert env.unwrapped.action_masks().any()


@pytest.mark.parametrize("env_id", ["bg_env/Backgammon-v0", "bg_env/BackgammonPlays-v0"])
def test_an_opponents_error_at_reset_ends_the_episode_that_was_running(env_id):
    env = gymnasium.make(env_id, learner="player_0")
    good = env.unwrapped.opponent
    for seed in range(5, 40):  # a seed whose opening roll is the opponent's
        env.unwrapped.opponent = good
        env.reset(seed=4)  # an episode under way, then a reset whose opponent fails
        env.unwrapped.opponent = _FailsOnCall(None, n=1)
        try:
            env.reset(seed=seed)
        except IllegalActionError as exc:
            assert "the opponent's answer" in str(exc)
            break
    else:
        raise AssertionError("the opponent never opened")
    assert not env.unwrapped.action_masks().any()
    with pytest.raises(RuntimeError, match="finished episode"):
        env.step(0)


# ------------------------------------------------------------------ the AEC envs
@pytest.mark.parametrize("module", [backgammon_v0, backgammon_plays_v0])
def test_a_raw_aec_env_refuses_a_step_once_every_agent_is_done(module):
    # once both agents had taken their dead step, step() raised KeyError: 'player_0'
    env = module.raw_env()
    env.reset(seed=3)
    for agent in env.agent_iter(2000):
        obs, _, terminated, truncated, _ = env.last()
        env.step(None if terminated or truncated else
                 int(np.flatnonzero(obs["action_mask"])[0]))
    assert env.agents == []
    for action in (0, None):
        with pytest.raises(RuntimeError, match="finished episode; call reset"):
            env.step(action)
    env.reset(seed=3)
    assert env.agents == ["player_0", "player_1"]


@pytest.mark.parametrize("module", [backgammon_v0, backgammon_plays_v0])
@pytest.mark.parametrize("action", [-1, 10**6, 3.0, "3", None])
def test_the_wrapped_env_names_an_action_outside_the_space(module, action):
    # PettingZoo's message was only "action is not in action space"
    env = module.env()
    env.reset(seed=3)
    agent = env.agent_selection
    before = env.observe(agent)["observation"].copy()
    with pytest.raises(AssertionError, match=rf"action {re.escape(repr(action))} of {agent} "
                                             r"is not in action space Discrete\("):
        env.step(action)
    assert env.agent_selection == agent and not any(env.terminations.values())
    assert np.array_equal(env.observe(agent)["observation"], before)


# ------------------------------------------------------------- the kernel vector envs
def _gymnasium_reset():
    venv = gymnasium.make_vec("bg_env/Backgammon-v0", num_envs=2,
                              vectorization_mode="vector_entry_point")
    return lambda options: venv.reset(seed=0, options=options)


def _sb3_reset():
    from bg_env import make_vec_env

    venv = make_vec_env(2, seed=0, monitor=False)

    def reset(options):
        venv.set_options(options)
        venv.reset()
    return reset


@pytest.mark.parametrize("make_reset", [_gymnasium_reset, _sb3_reset], ids=["gymnasium", "sb3"])
def test_the_kernel_vector_envs_name_an_unknown_reset_option_as_unknown(make_reset):
    reset = make_reset()
    with pytest.raises(ValueError, match=r"\['positon_id'\] unknown; allowed keys"):
        reset({"positon_id": "4HPwATDgc/ABMA"})
    with pytest.raises(ValueError, match="options of game 0: .*'4HPwATDgc/ABM'"):  # known, bad
        reset({"position_id": "4HPwATDgc/ABM"})


def test_the_bounds_check_stays_under_python_O():
    """The wrapped env's out-of-range check is no ``assert`` (``python -O`` drops those):
    ``step(-1)`` must not read the mask's last slot."""
    import subprocess
    import sys

    code = ("from bg_env import backgammon_v0\n"
            "env = backgammon_v0.env(); env.reset(seed=0)\n"
            "try:\n    env.step(-1)\nexcept AssertionError as exc:\n    print('refused:', exc)\n")
    done = subprocess.run([sys.executable, "-O", "-c", code], capture_output=True, text=True,
                          timeout=300)
    assert "refused: action -1 of player_0 is not in action space" in done.stdout, done.stderr
