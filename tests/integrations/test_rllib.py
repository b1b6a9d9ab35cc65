"""The RLlib adapter (:mod:`bg_env.integrations.rllib`) and the script
``examples/rllib_ppo.py``: the multi-agent env's turn protocol, the masked PPO module, one
tiny training iteration on a local Ray, and that ``--seed`` repeats a run. Skipped when Ray is
not installed (``pip install -e ".[rllib]"``)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("ray.rllib")
torch = pytest.importorskip("torch")

from ray.rllib.core.columns import Columns  # noqa: E402
from ray.rllib.core.rl_module.rl_module import RLModule  # noqa: E402
from ray.rllib.utils.torch_utils import FLOAT_MIN  # noqa: E402

from bg_env.actions import N_ACTIONS  # noqa: E402
from bg_env.game.game import IllegalActionError  # noqa: E402
from bg_env.integrations.rllib import (  # noqa: E402
    ACTION_MASK,
    OBSERVATIONS,
    SHARED_POLICY,
    BackgammonMultiAgentEnv,
    ppo_config,
)
from helpers import load_script  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"


def legal(obs: dict) -> np.ndarray:
    return np.flatnonzero(obs[ACTION_MASK])


def play_out(env: BackgammonMultiAgentEnv, seed: int):
    """A game of random legal actions; returns the steps' results (the last one final)."""
    rng = np.random.default_rng(seed)
    obs, _ = env.reset(seed=seed)
    steps = []
    while True:
        (agent,) = obs  # one agent to act, until the end
        result = env.step({agent: int(rng.choice(legal(obs[agent])))})
        steps.append(result)
        obs, _, terminated, truncated, _ = result
        if terminated["__all__"] or truncated["__all__"]:
            return steps


def test_env_asks_one_agent_at_a_time_and_ends_with_both():
    env = BackgammonMultiAgentEnv({"cube": False})
    steps = play_out(env, seed=3)
    for obs, rewards, terminated, truncated, _ in steps[:-1]:
        assert len(obs) == 1 and set(rewards) == set(obs)
        assert not terminated["__all__"] and not truncated["__all__"]
        assert all(r == 0 for r in rewards.values())
    obs, rewards, terminated, truncated, infos = steps[-1]
    assert set(obs) == {"player_0", "player_1"} and terminated["__all__"]
    with pytest.raises(RuntimeError, match="reset"):
        env.step({"player_0": 0})
    assert rewards["player_0"] == -rewards["player_1"] != 0
    winner = infos["player_0"]["winner"]
    assert rewards[winner] > 0
    for agent in obs:
        assert env.observation_spaces[agent].contains(obs[agent])
        assert not obs[agent][ACTION_MASK].any()  # nobody acts after the end


def test_env_observations_match_the_aec_env():
    env = BackgammonMultiAgentEnv()
    obs, _ = env.reset(seed=7)
    (agent,) = obs
    raw = env.env.observe(agent)
    assert obs[agent][OBSERVATIONS].dtype == np.float32 == obs[agent][ACTION_MASK].dtype
    np.testing.assert_array_equal(obs[agent][OBSERVATIONS], raw["observation"])
    np.testing.assert_array_equal(obs[agent][ACTION_MASK], raw["action_mask"])
    assert obs[agent][ACTION_MASK].shape == (N_ACTIONS,)


def test_env_refuses_an_illegal_action_and_keeps_its_state():
    env = BackgammonMultiAgentEnv({"cube": False})
    with pytest.raises(RuntimeError, match="reset"):
        env.step({"player_0": 0})
    obs, _ = env.reset(seed=1)
    (agent,) = obs
    illegal = int(np.flatnonzero(obs[agent][ACTION_MASK] == 0)[0])
    position = env.env.unwrapped.position_id()
    with pytest.raises(IllegalActionError, match=f"action {illegal} of {agent}"):
        env.step({agent: illegal})
    with pytest.raises(IllegalActionError, match="3.7"):
        env.step({agent: 3.7})
    with pytest.raises(ValueError, match="no action for"):
        env.step({"nobody": 0})
    assert env.env.unwrapped.position_id() == position
    env.step({agent: int(legal(obs[agent])[0])})  # the game goes on


def test_env_config_errors_name_the_key():
    with pytest.raises(ValueError, match="cubee"):
        ppo_config({"cubee": False})


def test_ppo_config_policies():
    shared = ppo_config()
    assert set(shared.policies) == {SHARED_POLICY}
    assert {shared.policy_mapping_fn(a, None) for a in ("player_0", "player_1")} == {SHARED_POLICY}
    per_seat = ppo_config(self_play=False)
    assert set(per_seat.policies) == {"player_0", "player_1"}
    assert per_seat.policy_mapping_fn("player_1", None) == "player_1"
    assert set(per_seat.rl_module_spec.rl_module_specs) == {"player_0", "player_1"}


def test_module_masks_illegal_actions():
    config = ppo_config({"cube": False}, hidden=(16,))
    env = BackgammonMultiAgentEnv({"cube": False})
    spec = config.rl_module_spec.rl_module_specs[SHARED_POLICY]
    spec.observation_space = env.observation_spaces["player_0"]
    spec.action_space = env.action_spaces["player_0"]
    module = spec.build()
    batch_obs, masks = [], []
    for seed in range(4):
        obs, _ = env.reset(seed=seed)
        (agent,) = obs
        batch_obs.append(obs[agent][OBSERVATIONS])
        masks.append(obs[agent][ACTION_MASK])
    batch = {Columns.OBS: {OBSERVATIONS: torch.as_tensor(np.stack(batch_obs)),
                           ACTION_MASK: torch.as_tensor(np.stack(masks))}}
    for forward in (module.forward_exploration, module.forward_inference, module.forward_train):
        logits = forward(batch)[Columns.ACTION_DIST_INPUTS]
        illegal = torch.as_tensor(np.stack(masks)) == 0
        assert (logits[illegal] == FLOAT_MIN).all()
        assert (logits[~illegal] > FLOAT_MIN).all()
    assert batch[Columns.OBS][ACTION_MASK].shape == (4, N_ACTIONS)  # the batch is not modified
    values = module.compute_values(batch)
    assert values.shape == (4,)


def load_example(name: str):
    return load_script(EXAMPLES / f"{name}.py")


@pytest.mark.slow
def test_example_script_trains_one_iteration_on_local_ray():
    """``python examples/rllib_ppo.py --smoke``: one iteration of masked self-play PPO. The
    env refuses any action outside the mask, so an unmasked sample would fail the run."""
    script = load_example("rllib_ppo")
    result = script.main(["--smoke"])
    runners, learners = result["env_runners"], result["learners"]
    assert runners["num_env_steps_sampled"] >= 128
    assert runners["num_agent_steps_sampled"]["player_0"] > 0
    assert runners["num_agent_steps_sampled"]["player_1"] > 0
    assert runners["num_episodes"] > 0  # games truncated at 8 turns end in the batch
    stats = learners[SHARED_POLICY]
    assert np.isfinite(stats["policy_loss"]) and np.isfinite(stats["vf_loss"])
    assert stats["num_module_steps_trained"] > 0
    line = script.summary(result)
    assert line["iteration"] == 1 and f"{SHARED_POLICY}/policy_loss" in line


@pytest.mark.parametrize("address", [None, "auto"])
def test_example_passes_the_hash_seed_to_the_workers(monkeypatch, address):
    """``--seed`` repeats a run only with ``PYTHONHASHSEED`` fixed in every process (RLlib
    iterates over sets): the driver's value goes to the workers through ``runtime_env``."""
    script = load_example("rllib_ppo")
    argv = ["--smoke"] + (["--address", address] if address else [])
    monkeypatch.setenv("PYTHONHASHSEED", "7")
    kwargs = script.ray_init_kwargs(script.parse_args(argv))
    assert kwargs["runtime_env"] == {"env_vars": {"PYTHONHASHSEED": "7"}}
    assert kwargs.get("address") == address
    monkeypatch.delenv("PYTHONHASHSEED")
    assert "runtime_env" not in script.ray_init_kwargs(script.parse_args(argv))


TINY_RUN = ["--iterations", "2", "--env-runners", "0", "--batch", "128", "--minibatch", "64",
            "--epochs", "1", "--hidden", "32", "--max-turns", "8", "--num-cpus", "1"]
"""Two iterations sampled in the driver: about 20 s a run, most of it starting Ray."""
MODULE_IN_CHECKPOINT = Path("learner_group", "learner", "rl_module")
"""Where an algorithm's checkpoint keeps the learner's modules, one folder a policy."""


def run_script(seed: int, checkpoint: Path) -> tuple[list[str], dict[str, np.ndarray]]:
    """``PYTHONHASHSEED=0 python examples/rllib_ppo.py --seed SEED ...`` in a fresh process,
    as the README says to repeat a run; returns its per-iteration lines and the trained
    weights of the shared policy (from its ``--checkpoint``)."""
    env = dict(os.environ, PYTHONHASHSEED="0",
               PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
    done = subprocess.run(
        [sys.executable, str(EXAMPLES / "rllib_ppo.py"), *TINY_RUN, "--seed", str(seed),
         "--checkpoint", str(checkpoint)],
        check=False, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    module = RLModule.from_checkpoint(checkpoint / MODULE_IN_CHECKPOINT / SHARED_POLICY)
    return lines, {k: np.asarray(v) for k, v in module.get_state().items()}


@pytest.mark.slow
def test_example_repeats_a_run_with_the_same_seed(tmp_path):
    """``--seed`` with ``PYTHONHASHSEED`` fixed repeats a run exactly: the same printed
    losses and the same weights, bit for bit, from two fresh processes (under a minute). The
    weights depend on the dice, the sampled actions, the initial weights and the minibatch
    order, so any of them left unseeded fails this (``--seed 2`` for the second run gives
    weights up to 0.35 apart; another or an unset ``PYTHONHASHSEED``, up to 2.4e-4)."""
    lines, weights = run_script(1, tmp_path / "first")
    again_lines, again = run_script(1, tmp_path / "again")
    assert len(lines) == 2 and again_lines == lines
    assert weights.keys() == again.keys()
    for name, value in weights.items():
        np.testing.assert_array_equal(again[name], value, err_msg=name)
