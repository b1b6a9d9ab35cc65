"""Builds every env kind in a mid-game state and drives it with a fixed policy, recording
what it shows; used by ``test_copy.py`` in the test process and in a fresh process (run
as ``python copy_driver.py ENVS.pkl TRACES.pkl``: it unpickles ``{case: env}`` and
pickles ``{case: trace}``)."""

from __future__ import annotations

import pickle
import sys

import numpy as np

START = "4HPwATDgc/ABMA"
STEPS = 60


def _pick(mask, step: int) -> int:
    """A legal action chosen by a fixed rule (different choices at different steps)."""
    legal = np.flatnonzero(mask)
    return int(legal[(7 * step + 3) % len(legal)])


def drive_aec(env, steps: int = STEPS) -> list:
    """Step a PettingZoo AEC env (raw or wrapped); a finished game is followed by a
    ``reset()`` without seed (the env's own generator goes on)."""
    trace = []
    for step in range(steps):
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            trace.append(("end", dict(env.rewards), dict(env.infos[agent])))
            env.reset()
            continue
        obs = env.observe(agent)
        trace.append((agent, obs["observation"].tobytes(), obs["action_mask"].tobytes()))
        env.step(_pick(obs["action_mask"], step))
        trace.append(dict(env.rewards))
    return trace


def drive_gym(env, steps: int = STEPS) -> list:
    """Step a Gymnasium env with masks (``action_masks()``)."""
    trace = []
    for step in range(steps):
        mask = env.unwrapped.action_masks()
        obs, reward, terminated, truncated, info = env.step(_pick(mask, step))
        trace.append((obs.tobytes(), reward, terminated, truncated, info.get("dice")))
        if terminated or truncated:
            obs, info = env.reset()
            trace.append(("reset", obs.tobytes()))
    return trace


def drive_vec(venv, steps: int = STEPS // 4) -> list:
    """Step a Stable-Baselines3 VecEnv with masks (``action_masks()``)."""
    trace = []
    for step in range(steps):
        masks = venv.action_masks()
        venv.step_async(np.array([_pick(m, step + i) for i, m in enumerate(masks)]))
        obs, rewards, dones, _ = venv.step_wait()
        trace.append((obs.tobytes(), rewards.tobytes(), dones.tobytes()))
    return trace


def drive_gym_vector(venv, steps: int = STEPS // 4) -> list:
    """Step a Gymnasium ``VectorEnv`` with masks (``action_masks()``)."""
    trace = []
    for step in range(steps):
        masks = venv.action_masks()
        obs, rewards, terminated, truncated, _ = venv.step(
            np.array([_pick(m, step + i) for i, m in enumerate(masks)]))
        trace.append((obs.tobytes(), rewards.tobytes(), terminated.tobytes(), truncated.tobytes()))
    return trace


def drive(kind: str, env) -> list:
    return {"aec": drive_aec, "gym": drive_gym, "vec": drive_vec,
            "gym_vector": drive_gym_vector}[kind](env)


def _mid_play(env, seed: int):
    """Step until the agent to act has just made a checker move and must make another
    (in the middle of a play)."""
    env.reset(seed=seed)
    for step in range(400):
        agent = env.agent_selection
        mask = env.observe(agent)["action_mask"]
        action = _pick(mask, step)
        env.step(action)
        if action < 150 and env.agent_selection == agent and not env.terminations[agent]:
            return env
    raise AssertionError("no play of two moves in 400 steps")


def _stepped(env, seed: int, steps: int = 11, options=None):
    env.reset(seed=seed, options=options)
    for step in range(steps):
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            env.reset()
            continue
        env.step(_pick(env.observe(agent)["action_mask"], step))
    return env


def make_case(name: str):
    """``(kind, env)``: the env of case ``name`` in its mid-game state (the same state
    every time it is made)."""
    import gymnasium

    import bg_env  # noqa: F401 (registers the Gymnasium ids)
    from bg_env import backgammon_plays_v0, backgammon_v0
    from bg_env.rules.actions import DOUBLE
    from bg_env.envs.vector import make_vec_env

    if name == "raw_kernels":  # the fast path, mid-game
        return "aec", _stepped(backgammon_v0.raw_env(), 3)
    if name == "raw_mid_play":  # the fast path, one checker of a play moved
        return "aec", _mid_play(backgammon_v0.raw_env(), 4)
    if name == "env_wrapped":
        return "aec", _mid_play(backgammon_v0.env(), 5)
    if name == "raw_game":  # handed over to a Game (reading .game), mid-play
        env = _mid_play(backgammon_v0.raw_env(), 6)
        assert env.game.phase == "move"
        return "aec", env
    if name == "raw_take":  # a double on offer, the taker to answer
        env = backgammon_v0.raw_env(cube=True)
        env.reset(seed=7, options={"position_id": START})
        env.step(DOUBLE)
        assert env.game.phase == "take"
        return "aec", env
    if name == "raw_match":
        return "aec", _stepped(backgammon_v0.raw_env(match_length=3), 8, 25)
    if name == "raw_variant":
        return "aec", _stepped(backgammon_v0.raw_env(variant="nackgammon"), 9)
    if name == "raw_nuclear":  # the kernels with the bomb, the cube and the context block
        return "aec", _stepped(backgammon_v0.raw_env(variant="nuclear", cube=True), 15)
    if name == "raw_sudden_death":
        return "aec", _mid_play(backgammon_v0.raw_env(variant="sudden_death"), 16)
    if name == "plays_aec":
        return "aec", _stepped(backgammon_plays_v0.env(), 10, 3)
    if name == "gym":
        env = gymnasium.make("bg_env/Backgammon-v0")
        env.reset(seed=11)
        drive_gym(env, 9)
        return "gym", env
    if name == "gym_plays":
        env = gymnasium.make("bg_env/BackgammonPlays-v0")
        env.reset(seed=12)
        drive_gym(env, 3)
        return "gym", env
    if name == "vector":
        venv = make_vec_env(3, seed=13)
        venv.reset()
        drive_vec(venv, 5)
        return "vec", venv
    if name == "gym_vector":  # gymnasium.make_vec's vector entry point (the kernels)
        venv = gymnasium.make_vec("bg_env/Backgammon-v0", num_envs=3,
                                  vectorization_mode="vector_entry_point")
        venv.reset(seed=14)
        drive_gym_vector(venv, 5)
        return "gym_vector", venv
    if name == "vector_plakoto":  # a variant turn on the kernels: pins in the observation
        venv = make_vec_env(3, seed=15, variant="plakoto", cube=True, match_length=3)
        venv.reset()
        drive_vec(venv, 7)
        return "vec", venv
    if name == "vector_sudden_pubeval":  # pubeval choosing among the variant's plays
        venv = make_vec_env(2, seed=16, variant="sudden_death", opponent="pubeval")
        venv.reset()
        drive_vec(venv, 6)
        return "vec", venv
    raise ValueError(name)


CASES = ("raw_kernels", "raw_mid_play", "env_wrapped", "raw_game", "raw_take", "raw_match",
         "raw_variant", "raw_nuclear", "raw_sudden_death", "plays_aec", "gym", "gym_plays", "vector", "gym_vector",
         "vector_plakoto", "vector_sudden_pubeval")


def main(envs_file: str, traces_file: str) -> None:
    with open(envs_file, "rb") as f:
        envs = pickle.load(f)
    traces = {name: drive(kind, env) for name, (kind, env) in envs.items()}
    with open(traces_file, "wb") as f:
        pickle.dump(traces, f)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
