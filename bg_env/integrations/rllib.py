"""RLlib (Ray) adapter: multi-agent PPO with action masking on :mod:`bg_env.backgammon_v0`.

Ray is an optional extra (``pip install "bg_env[rllib]"``); ``import bg_env`` never imports it.
Written for RLlib's new API stack (``RLModule``, ``Learner``, ``EnvRunner``; Ray 2.60).

Three pieces:

* :class:`BackgammonMultiAgentEnv`: the PettingZoo AEC env as an RLlib ``MultiAgentEnv``. Only
  the agent to act receives an observation; it keeps acting until its play is done. When the
  game ends, both agents receive their last observation and final reward. Observations are
  ``{"observations": float32[...], "action_mask": float32[N_ACTIONS]}`` (RLlib's masking
  convention: ``observations``, plural, and a float mask). An action outside the mask raises
  :class:`~bg_env.game.game.IllegalActionError` naming it, instead of quietly ending the game
  as ``env()``'s wrapper does: a masking bug must stop training, not teach it.
* :class:`MaskedPPOTorchRLModule`: RLlib's default PPO module built on ``observations``, with
  the logits of illegal actions set to a large negative number in every forward pass.
* :func:`ppo_config`: a ``PPOConfig`` wiring the two, with one shared (self-play) policy or one
  policy per seat.

Example (the full script, for one machine or a cluster, is ``examples/rllib_ppo.py``)::

    import ray
    from bg_env.integrations.rllib import ppo_config

    ray.init()                      # or ray.init(address="auto") on a cluster node
    algo = ppo_config({"cube": False}).build_algo()
    result = algo.train()
"""

from __future__ import annotations

from typing import Any, Callable

import gymnasium as gym
import numpy as np
from ray.rllib.algorithms.ppo import PPOConfig
from ray.rllib.algorithms.ppo.torch.default_ppo_torch_rl_module import DefaultPPOTorchRLModule
from ray.rllib.core.columns import Columns
from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
from ray.rllib.core.rl_module.rl_module import RLModuleSpec
from ray.rllib.env.multi_agent_env import MultiAgentEnv
from ray.rllib.utils.torch_utils import FLOAT_MIN

from ..game.game import IllegalActionError
from ..envs.backgammon import env as make_aec_env

__all__ = [
    "OBSERVATIONS",
    "ACTION_MASK",
    "SHARED_POLICY",
    "BackgammonMultiAgentEnv",
    "MaskedPPOTorchRLModule",
    "ppo_config",
]

OBSERVATIONS = "observations"
"""The key of the observation vector in the RLlib observation dict."""
ACTION_MASK = "action_mask"
"""The key of the float32 mask (1.0 legal, 0.0 illegal) in the RLlib observation dict."""
SHARED_POLICY = "shared"
"""The policy id both seats map to when :func:`ppo_config` is asked for self-play."""


class BackgammonMultiAgentEnv(MultiAgentEnv):
    """:func:`bg_env.backgammon_v0.env` as an RLlib ``MultiAgentEnv`` (turn-based).

    Args:
        config: the env's keyword arguments (:class:`~bg_env.envs.backgammon.EnvConfig`),
            e.g. ``{"cube": False, "max_turns": 200}``; RLlib passes its ``env_config``
            here. An unknown key raises ``ValueError`` naming it.
    """

    def __init__(self, config: dict | None = None):
        super().__init__()
        self.env = make_aec_env(**dict(config or {}))
        self.possible_agents = list(self.env.possible_agents)
        self.agents = list(self.possible_agents)
        self.observation_spaces = {a: _rllib_space(self.env.observation_space(a))
                                   for a in self.possible_agents}
        self.action_spaces = {a: self.env.action_space(a) for a in self.possible_agents}
        self._legal: np.ndarray | None = None

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        self.env.reset(seed=seed, options=options)
        self.agents = list(self.env.agents)
        agent = self.env.agent_selection
        return {agent: self._observe(agent)}, {agent: {}}

    def step(self, action_dict: dict[str, Any]):
        """Play the action of the agent to act, then report the next agent to act (or, at
        the end of the game, both agents' last observations and rewards)."""
        if self._legal is None or not self.env.agents:
            raise RuntimeError("step() before reset() or after the game ended: call reset()")
        agent = self.env.agent_selection
        if agent not in action_dict:
            raise ValueError(
                f"action_dict {action_dict!r} has no action for {agent!r}, the agent to act")
        action = _as_action(action_dict[agent])
        if not (0 <= action < len(self._legal) and self._legal[action]):
            raise IllegalActionError(
                f"action {action} of {agent} is not legal here; legal: "
                f"{np.flatnonzero(self._legal).tolist()} (is the action mask applied?)")
        self.env.step(action)
        obs, rewards, terminated, truncated, infos = {}, {}, {}, {}, {}
        while self.env.agents:
            agent = self.env.agent_selection
            _, reward, term, trunc, info = self.env.last(observe=False)
            obs[agent] = self._observe(agent)
            rewards[agent] = float(reward)
            terminated[agent], truncated[agent], infos[agent] = term, trunc, info
            if not (term or trunc):
                break
            self.env.step(None)  # an agent whose game is over leaves (PettingZoo's protocol)
        over = not self.env.agents
        self.agents = list(self.env.agents)
        terminated["__all__"] = over and all(terminated.values())
        truncated["__all__"] = over and not terminated["__all__"]
        return obs, rewards, terminated, truncated, infos

    def _observe(self, agent: str) -> dict[str, np.ndarray]:
        raw = self.env.observe(agent)
        mask = np.asarray(raw["action_mask"], dtype=np.float32)
        if agent == self.env.agent_selection:
            self._legal = mask > 0
        return {OBSERVATIONS: np.asarray(raw["observation"], dtype=np.float32), ACTION_MASK: mask}

    def close(self) -> None:
        self.env.close()


def _rllib_space(space: gym.spaces.Dict) -> gym.spaces.Dict:
    """The AEC observation space in RLlib's naming, with a float32 mask."""
    inner = space["observation"]
    mask = space["action_mask"]
    return gym.spaces.Dict({
        OBSERVATIONS: gym.spaces.Box(inner.low, inner.high, inner.shape, np.float32),
        ACTION_MASK: gym.spaces.Box(0.0, 1.0, mask.shape, np.float32),
    })


def _as_action(action: Any) -> int:
    """An action from RLlib (a Python or numpy integer, or a 0-d array) as an ``int``."""
    value = np.asarray(action)
    if value.shape != () or not np.issubdtype(value.dtype, np.integer):
        raise IllegalActionError(f"action {action!r}: expected one integer action index")
    return int(value)


class MaskedPPOTorchRLModule(DefaultPPOTorchRLModule):
    """RLlib's default PPO torch module with action masking.

    The networks (encoder, policy and value heads, sized by ``model_config``) are built for
    the ``observations`` part of the observation dict; every forward pass reads the
    ``action_mask`` part and sets the logits of the actions it marks 0 to ``FLOAT_MIN``, so
    they are never sampled and their log-probabilities do not enter the PPO loss.
    """

    def __init__(self, *, observation_space: gym.Space | None = None, **kwargs):
        if (not isinstance(observation_space, gym.spaces.Dict)
                or set(observation_space.spaces) != {OBSERVATIONS, ACTION_MASK}):
            raise ValueError(
                f"observation_space={observation_space!r}: expected a Dict with keys "
                f"{OBSERVATIONS!r} and {ACTION_MASK!r} (see BackgammonMultiAgentEnv)")
        self._spaces_with_mask = observation_space
        super().__init__(observation_space=observation_space[OBSERVATIONS], **kwargs)

    def setup(self) -> None:
        super().setup()  # the networks, for the observations alone
        self.observation_space = self._spaces_with_mask  # what the env runners see

    def _forward(self, batch: dict, **kwargs) -> dict:
        mask, inner = _split(batch)
        return _masked(super()._forward(inner, **kwargs), mask)

    def _forward_train(self, batch: dict, **kwargs) -> dict:
        mask, inner = _split(batch)
        return _masked(super()._forward_train(inner, **kwargs), mask)

    def compute_values(self, batch: dict, embeddings: Any = None):
        if embeddings is None:
            batch = _split(batch)[1]
        return super().compute_values(batch, embeddings)


def _split(batch: dict) -> tuple[Any, dict]:
    """``(mask, batch with the observations alone)``; the given batch is not modified."""
    obs = batch[Columns.OBS]
    if not isinstance(obs, dict) or ACTION_MASK not in obs or OBSERVATIONS not in obs:
        raise ValueError(f"batch[{Columns.OBS!r}]: expected a dict with {OBSERVATIONS!r} and "
                         f"{ACTION_MASK!r} (see BackgammonMultiAgentEnv)")
    inner = dict(batch)
    inner[Columns.OBS] = obs[OBSERVATIONS]
    return obs[ACTION_MASK], inner


def _masked(outputs: dict, mask) -> dict:
    """Set the logits of the actions that ``mask`` marks illegal to ``FLOAT_MIN``."""
    logits = outputs[Columns.ACTION_DIST_INPUTS]
    floor = logits.new_full((), FLOAT_MIN)
    outputs[Columns.ACTION_DIST_INPUTS] = logits.where(mask > 0, floor)
    return outputs


def _to_shared_policy(agent_id, *args, **kwargs) -> str:
    return SHARED_POLICY


def _to_own_policy(agent_id, *args, **kwargs) -> str:
    return agent_id


def ppo_config(env_config: dict | None = None, *, self_play: bool = True,
               hidden: tuple[int, ...] = (128, 128)) -> PPOConfig:
    """A ``PPOConfig`` for masked multi-agent PPO on backgammon.

    Args:
        env_config: the env's keyword arguments (see :class:`BackgammonMultiAgentEnv`).
        self_play: one policy (:data:`SHARED_POLICY`) plays both seats (observations are
            from the acting side, so one policy fits both); ``False``: one policy per seat
            (``player_0``, ``player_1``).
        hidden: the sizes of the hidden layers of the policy and value networks.

    Returns:
        The config; refine it (``.training(...)``, ``.env_runners(...)``,
        ``.learners(...)``) and ``.build_algo()``.
    """
    env_config = dict(env_config or {})
    BackgammonMultiAgentEnv(env_config).close()  # a bad key fails here, naming it
    if self_play:
        policies: set[str] = {SHARED_POLICY}
        mapping: Callable[..., str] = _to_shared_policy
    else:
        policies, mapping = {"player_0", "player_1"}, _to_own_policy
    module = RLModuleSpec(module_class=MaskedPPOTorchRLModule,
                          model_config={"fcnet_hiddens": list(hidden), "vf_share_layers": False})
    return (
        PPOConfig()
        # RLlib's env check steps with an unmasked random action, which this env refuses.
        .environment(BackgammonMultiAgentEnv, env_config=env_config, disable_env_checking=True)
        .multi_agent(policies=policies, policy_mapping_fn=mapping)
        .rl_module(rl_module_spec=MultiRLModuleSpec(
            rl_module_specs={pid: module for pid in sorted(policies)}))
    )
