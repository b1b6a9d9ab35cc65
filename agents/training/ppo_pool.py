"""The opponent pool of PPO self-play (:mod:`agents.training.train_ppo`): each episode, each
training env draws its opponent from its own :class:`OpponentPool`, with the weights of
``PPOConfig.opponents``: ``"self"`` is a frozen snapshot of the policy (one of the last
``pool_size``, sent to every env by :func:`agents.training.train_ppo.snapshot`), other keys are
``agents.load_agent`` specs (``"pubeval"``, ``"random"``, ``"td"``, ...).
:class:`PoolOpponent` is the env wrapper that draws before each episode.
"""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import torch

from bg_env.envs.play_env import BackgammonPlaysEnv

from .. import load_agent
from ..players.ppo import PPOAgent, build_actor

__all__ = ["OpponentPool", "PoolOpponent", "actor_weights"]


def actor_weights(model) -> dict:
    """A CPU copy of the state dict of ``model``'s actor (a MaskablePPO model)."""
    actor = model.policy.mlp_extractor.actor
    return {k: v.detach().cpu().clone() for k, v in actor.state_dict().items()}


class OpponentPool:
    """Opponents drawn per episode: frozen snapshots of the policy (``"self"``) and fixed
    agents, with the given weights.

    Args:
        weights: ``{"self": w, "pubeval": w, ...}``; keys other than ``"self"`` are
            ``agents.load_agent`` specs.
        pool_size: how many of the latest snapshots ``"self"`` draws from (uniformly).
        seed: seed of the draws (an int or a sequence of ints).
        hidden, activation: the actor's layout (:func:`agents.players.ppo.build_actor`).
    """

    def __init__(self, weights: dict[str, float], pool_size: int = 10, seed=0,
                 hidden: list[int] = (128,), activation: str = "tanh") -> None:
        self.names = list(weights)
        w = np.array([float(weights[k]) for k in self.names])
        self.probs = w / w.sum()
        # "random" stays a name: the env then draws from its own seeded generator
        self.fixed = {k: k if k == "random" else load_agent(k) for k in self.names if k != "self"}
        self.snapshots: list[PPOAgent] = []
        self.pool_size = pool_size
        with torch.random.fork_rng(devices=[]):  # the same draws in any process
            self.template = build_actor(list(hidden), activation)
        self.rng = np.random.default_rng(seed)

    def add(self, weights: dict) -> None:
        """Freeze a snapshot with the actor's ``weights`` (see :func:`actor_weights`)."""
        agent = PPOAgent(self.template)  # a copy
        agent.actor.load_state_dict(weights)
        self.snapshots.append(agent)
        del self.snapshots[: -self.pool_size]

    def sample(self):
        name = self.names[int(self.rng.choice(len(self.names), p=self.probs))]
        if name == "self":
            if not self.snapshots:
                raise RuntimeError("opponent pool: no snapshot of the policy yet; call add()")
            return self.snapshots[int(self.rng.integers(len(self.snapshots)))]
        return self.fixed[name]


class PoolOpponent(gym.Wrapper):
    """Sets a new opponent from the pool before each episode."""

    def __init__(self, env: BackgammonPlaysEnv, pool: OpponentPool) -> None:
        super().__init__(env)
        self.pool = pool

    def reset(self, **kwargs):
        self.env.unwrapped.set_opponent(self.pool.sample())
        return self.env.reset(**kwargs)

    def add_snapshot(self, weights: dict) -> None:
        """Add a snapshot to this env's pool (called on every env, in any process)."""
        self.pool.add(weights)

    def action_masks(self) -> np.ndarray:
        return self.env.unwrapped.action_masks()
