"""The MaskablePPO policy that scores afterstates (training only; needs sb3-contrib).

One shared network scores every candidate play (:class:`CandidatePolicy`, an sb3-contrib
``MaskableActorCriticPolicy``) on :class:`bg_env.envs.play_env.BackgammonPlaysEnv`, whose
observation holds each candidate's afterstate features (a ``(K, 201)`` table, flattened):

* actor -- one MLP ``201 -> hidden... -> 1`` applied to every real candidate row (the
  padding rows are skipped, so the cost follows the number of plays, not K); the K
  outputs are the logits of a categorical distribution, masked by MaskablePPO. Since
  the same weights judge every candidate, the policy does not depend on the order of
  the rows and generalises across rolls, like a TD-Gammon evaluator. Its layout is
  :func:`agents.players.ppo.build_actor`'s, which is all that playing needs.
* critic -- a second MLP of the same shape (or the actor's hidden layers, with
  ``share_trunk``) gives each candidate a value ``q_i`` (the afterstate's worth,
  before the opponent's roll); the state value is pooled over the candidates,
  by default ``V(s) = sum_i pi_i q_i`` with the policy's probabilities held constant
  (exact for a deterministic move to the afterstate: ``V = E_pi[Q(s, a)]``), or the
  max / mean of the ``q_i``.

SB3's ``action_net`` and ``value_net`` are identities: the extractor already yields the
K logits and the value.
"""

from __future__ import annotations

from functools import partial

import gymnasium as gym
import numpy as np
import torch
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor
from torch import nn

from bg_env.envs.candidates import N_FEATURES, PRESENT

from ..players.ppo import build_actor, mlp

__all__ = ["CandidateNet", "CandidateRows", "CandidatePolicy", "POOLINGS"]

NEG = -1e8
"""Logit of a padding row (as MaskablePPO's own masking value)."""
POOLINGS = ("policy", "max", "mean")
"""How the critic pools the candidates' values (the ``value_pooling`` setting)."""


class CandidateNet(nn.Module):
    """Actor and critic over candidate rows; stands in for SB3's ``mlp_extractor``.

    ``forward(x)`` takes ``(B, K, N_FEATURES)`` rows and returns the ``(B, K)`` logits
    (padding rows at :data:`NEG`) and the ``(B, 1)`` state values.
    """

    def __init__(self, n_candidates: int, hidden: list[int], activation: str = "tanh",
                 share_trunk: bool = False, value_pooling: str = "policy") -> None:
        super().__init__()
        if value_pooling not in POOLINGS:
            raise ValueError(f"value_pooling={value_pooling!r}: expected one of {list(POOLINGS)}")
        sizes = [N_FEATURES] + list(hidden)
        self.actor = build_actor(hidden, activation)
        """Row -> logit: the part a :class:`~agents.players.ppo.PPOAgent` keeps."""
        trunk = self.actor[0]
        critic_trunk = trunk if share_trunk else mlp(sizes, activation)
        self.critic = nn.Sequential(critic_trunk, nn.Linear(sizes[-1], 1))
        self.value_pooling = value_pooling
        self.latent_dim_pi = n_candidates
        self.latent_dim_vf = 1

    @property
    def shared(self) -> bool:
        return self.critic[0] is self.actor[0]

    def _rows(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """The real candidate rows (flag :data:`PRESENT`) and where they sit."""
        valid = x[..., PRESENT] > 0.5
        return valid, x[valid]

    def _scatter(self, valid: torch.Tensor, values: torch.Tensor, fill: float) -> torch.Tensor:
        out = torch.full(valid.shape, fill, dtype=values.dtype, device=values.device)
        return out.masked_scatter(valid, values.squeeze(-1))

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        valid, rows = self._rows(x)
        h = self.actor[0](rows)
        logits = self._scatter(valid, self.actor[1](h), NEG)
        q = self.critic[1](h if self.shared else self.critic[0](rows))
        return logits, self._pool(valid, self._scatter(valid, q, 0.0), logits)

    def candidate_outputs(self, rows: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """The logit and the value ``q`` of each of the ``(M, N_FEATURES)`` candidate rows
        (two ``(M,)`` tensors; one pass through a shared trunk), for supervised fitting
        (:mod:`agents.training.kickstart`)."""
        h = self.actor[0](rows)
        q = self.critic[1](h if self.shared else self.critic[0](rows))
        return self.actor[1](h).squeeze(-1), q.squeeze(-1)

    def forward_actor(self, x: torch.Tensor) -> torch.Tensor:
        valid, rows = self._rows(x)
        return self._scatter(valid, self.actor(rows), NEG)

    def forward_critic(self, x: torch.Tensor) -> torch.Tensor:
        if self.value_pooling == "policy":
            return self(x)[1]
        valid, rows = self._rows(x)
        return self._pool(valid, self._scatter(valid, self.critic(rows), 0.0), None)

    def _pool(self, valid: torch.Tensor, q: torch.Tensor, logits) -> torch.Tensor:
        """The state value from the candidates' values ``q`` (zero in padding)."""
        if self.value_pooling == "policy":  # the probabilities are held constant
            weights = torch.softmax(logits.detach(), dim=-1) * valid
        elif self.value_pooling == "mean":
            weights = valid / valid.sum(-1, keepdim=True).clamp(min=1)
        else:  # max
            best = q.masked_fill(~valid, NEG).max(-1, keepdim=True).values
            return torch.where(valid.any(-1, keepdim=True), best, torch.zeros_like(best))
        return (weights * q).sum(-1, keepdim=True)


class CandidateRows(BaseFeaturesExtractor):
    """The flat observation as a ``(B, K, N_FEATURES)`` table."""

    def __init__(self, observation_space: gym.spaces.Box) -> None:
        super().__init__(observation_space, features_dim=N_FEATURES)
        self.k = int(np.prod(observation_space.shape)) // N_FEATURES

    def forward(self, obs: torch.Tensor) -> torch.Tensor:
        return obs.reshape(obs.shape[0], self.k, N_FEATURES)


class CandidatePolicy(MaskableActorCriticPolicy):
    """See the module docstring. ``net_arch`` is the list of hidden sizes of the actor
    and of the critic, ``activation_fn`` a name (``"tanh"``, ``"relu"``); extra keyword
    arguments ``share_trunk`` and ``value_pooling`` (:class:`CandidateNet`)."""

    def __init__(self, observation_space, action_space, lr_schedule, net_arch=None,
                 activation_fn: str = "tanh", share_trunk: bool = False,
                 value_pooling: str = "policy", **kwargs):
        self.share_trunk = share_trunk
        self.value_pooling = value_pooling
        kwargs.setdefault("features_extractor_class", CandidateRows)
        super().__init__(observation_space, action_space, lr_schedule,
                         net_arch=list(net_arch or [128]), activation_fn=activation_fn,
                         **kwargs)

    def _get_constructor_parameters(self) -> dict:
        data = super()._get_constructor_parameters()
        data.update(share_trunk=self.share_trunk, value_pooling=self.value_pooling)
        return data

    def _build_mlp_extractor(self) -> None:
        k = int(np.prod(self.observation_space.shape)) // N_FEATURES
        self.mlp_extractor = CandidateNet(k, self.net_arch, self.activation_fn,
                                          self.share_trunk, self.value_pooling)

    def _build(self, lr_schedule) -> None:
        """The extractor already gives the K logits and the value: SB3's ``action_net``
        and ``value_net`` are identities. Orthogonal initialisation as SB3's, with a
        small gain (0.01) on the actor's output, so the first policy is near uniform."""
        self._build_mlp_extractor()
        self.action_net = nn.Identity()
        self.value_net = nn.Identity()
        if self.ortho_init:
            net = self.mlp_extractor
            for module, gain in ((net.actor[0], np.sqrt(2)), (net.critic[0], np.sqrt(2)),
                                 (net.actor[1], 0.01), (net.critic[1], 1.0)):
                module.apply(partial(self.init_weights, gain=gain))
        self.optimizer = self.optimizer_class(
            self.parameters(), lr=lr_schedule(1), **self.optimizer_kwargs)
