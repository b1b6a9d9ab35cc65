"""The PPO baseline's agent: plays with an afterstate scorer trained by
:mod:`agents.training.train_ppo` (``bg-env train ppo``, the shipped config).

Loading and playing need only torch and numpy: :meth:`PPOAgent.load` reads the saved
``model.zip`` (or a training ``checkpoint.zip``) as a zip archive, the settings from its
``data`` member (JSON: ``policy_kwargs`` with ``net_arch`` and ``activation_fn``) and the
weights from ``policy.pth`` (a torch state dict, read with ``weights_only=True``), and
rebuilds the actor as a plain ``torch.nn`` module. Neither Stable-Baselines3 nor
sb3-contrib is imported; the training stack (:mod:`agents.training.ppo_policy`,
:mod:`agents.training.train_ppo`) is needed only to train.

Actor: one MLP ``N_FEATURES -> hidden... -> 1`` applied to every candidate play's
afterstate row (:func:`~bg_env.envs.play_env.play_features`); the agent encodes the legal
plays as the play-level env does (:func:`~bg_env.envs.play_env.order_candidates`) and
plays the one with the largest logit (deterministic). It scores every legal play, also
past the env's K (the network is per candidate), unless ``max_candidates`` is given.
"""

from __future__ import annotations

import copy
import json
import os
import zipfile

import numpy as np
import torch
from torch import nn

from bg_env.rules.moves import Play
from bg_env.envs.candidates import N_FEATURES, candidate_features, order_candidates, play_features

from .base import PlayAgent
from .cube import CubeSettings, cube_action, probabilities_from_equity
from .model_files import ModelFileError, check_weights_fit, load_torch_member

__all__ = ["PPOAgent", "ACTIVATIONS", "mlp", "build_actor", "load_actor", "load_critic"]

ACTIVATIONS = {"tanh": nn.Tanh, "relu": nn.ReLU}
"""Hidden-layer activations by name (the ``activation`` setting)."""
ACTOR_PREFIX = "mlp_extractor.actor."
"""Where the actor's weights sit in the SB3 policy's state dict."""
CRITIC_PREFIX = "mlp_extractor.critic."
"""Where the critic's weights sit (the same layout as the actor's)."""


def mlp(sizes: list[int], activation: str) -> nn.Sequential:
    """Linear layers ``sizes[0] -> sizes[1] -> ...``, each followed by ``activation``."""
    if activation not in ACTIVATIONS:
        raise ValueError(f"activation={activation!r}: expected one of {list(ACTIVATIONS)}")
    layers: list[nn.Module] = []
    for a, b in zip(sizes, sizes[1:]):
        layers += [nn.Linear(a, b), ACTIVATIONS[activation]()]
    return nn.Sequential(*layers)


def build_actor(hidden: list[int], activation: str = "tanh") -> nn.Sequential:
    """Row -> logit: ``Sequential(trunk, Linear(hidden[-1], 1))``, the layout of the
    training policy's actor (:class:`agents.training.ppo_policy.CandidateNet`), so that the same
    state dict loads into both."""
    sizes = [N_FEATURES] + list(hidden)
    return nn.Sequential(mlp(sizes, activation), nn.Linear(sizes[-1], 1))


def load_actor(path: str) -> nn.Sequential:
    """The actor saved in a ``model.zip`` / ``checkpoint.zip`` written by training.

    Raises:
        FileNotFoundError: no file at ``path`` (named).
        ModelFileError: the file is not such an archive, is truncated, or holds more than
            weights (a :class:`ValueError`; named, with what is wrong).
    """
    return _load_net(path, ACTOR_PREFIX, "actor")


def load_critic(path: str) -> nn.Sequential:
    """The critic saved beside the actor (same layout: row -> the afterstate's value for
    the player who just moved); used for cube decisions. Raises as :func:`load_actor`."""
    return _load_net(path, CRITIC_PREFIX, "critic")


def _load_net(path: str, prefix: str, what: str) -> nn.Sequential:
    if not os.path.exists(path):
        raise FileNotFoundError(f"PPO model file {path!r} does not exist")
    net_arch, activation = _policy_settings(path)
    weights = load_torch_member(path, "policy.pth", "PPO model")
    if not isinstance(weights, dict):
        raise ModelFileError(f"PPO model file {path!r}: 'policy.pth' holds a "
                             f"{type(weights).__name__}, not a state dict of weights")
    state = {k[len(prefix):]: v for k, v in weights.items() if k.startswith(prefix)}
    check_weights_fit(lambda: build_actor(net_arch, activation), state,
                      f"PPO model file {path!r}: the {what}'s weights do not fit "
                      f"net_arch={net_arch}")
    net = build_actor(net_arch, activation)
    net.load_state_dict(state)  # the names and shapes are checked above
    return net


def _policy_settings(path: str) -> tuple[list[int], str]:
    """``net_arch`` and ``activation_fn`` from the ``policy_kwargs`` of the archive's
    ``data`` member (JSON; absent: ``[128]`` and ``tanh``), checked.

    Raises:
        ModelFileError: no such member, not JSON, or settings of the wrong shape (named).
    """
    where = f"PPO model file {path!r}"
    try:
        with zipfile.ZipFile(path) as archive:
            data = json.loads(archive.read("data"))
    except (zipfile.BadZipFile, KeyError, json.JSONDecodeError) as exc:
        raise ModelFileError(f"{where}: not a saved PPO model ({exc})") from None
    kwargs = (data.get("policy_kwargs") if isinstance(data, dict) else data) or {}
    if not isinstance(kwargs, dict):
        raise ModelFileError(f"{where}: its settings ('data', policy_kwargs) are not a "
                             f"mapping: {str(kwargs)[:80]}")
    net_arch = kwargs.get("net_arch") or [128]
    if not (isinstance(net_arch, list) and net_arch
            and all(type(n) is int and n > 0 for n in net_arch)):
        raise ModelFileError(f"{where}: net_arch={str(net_arch)[:80]}: expected a list of "
                             f"positive layer sizes")
    activation = kwargs.get("activation_fn", "tanh")
    if not (isinstance(activation, str) and activation in ACTIVATIONS):
        raise ModelFileError(f"{where}: activation_fn={str(activation)[:80]!r}: expected one "
                             f"of {list(ACTIVATIONS)}")
    return net_arch, activation


class PPOAgent(PlayAgent):
    """Plays the legal play whose afterstate the actor scores highest (deterministic);
    decides the cube from the critic's value (:meth:`probabilities`, :mod:`agents.players.cube`).

    Args:
        actor: a module mapping ``(M, N_FEATURES)`` rows to ``(M, 1)`` logits (a
            :class:`~agents.training.ppo_policy.CandidateNet`'s ``actor``), or a policy / model
            holding one. A copy is kept, on the CPU.
        max_candidates: cut the legal plays to the env's K first (``None``: score all).
        critic: the critic (same row layout, one value), for cube decisions; taken from
            ``actor`` when that is a policy or model. Without one the agent never doubles
            and always takes.
    """

    name = "ppo"
    reads_backgammon_boards = True

    def __init__(self, actor, max_candidates: int | None = None, critic=None) -> None:
        super().__init__()
        if hasattr(actor, "policy"):  # a MaskablePPO model
            actor = actor.policy
        if critic is None:
            critic = getattr(getattr(actor, "mlp_extractor", None), "critic", None)
        self.critic = None if critic is None else copy.deepcopy(critic).cpu().eval()
        """Row -> the afterstate's value for the mover (for the cube), when loaded from a model."""
        self.cube_settings = CubeSettings()
        if hasattr(actor, "mlp_extractor"):  # a CandidatePolicy
            actor = actor.mlp_extractor.actor
        self.actor = copy.deepcopy(actor).cpu().eval()
        for p in self.actor.parameters():
            p.requires_grad_(False)
        self.max_candidates = max_candidates

    def scores(self, plays: list[Play]) -> tuple[list[Play], np.ndarray]:
        """The plays in the env's candidate order and the actor's logit of each."""
        ordered, _ = order_candidates(plays, self.max_candidates or len(plays))
        with torch.no_grad():
            logits = self.actor(torch.from_numpy(play_features(ordered))).squeeze(-1)
        return ordered, logits.numpy()

    def choose_play(self, plays: list[Play], env=None) -> Play:
        self.warn_if_variant_unread(env)
        if len(plays) == 1:
            return plays[0]
        ordered, logits = self.scores(plays)
        return ordered[int(np.argmax(logits))]

    def probabilities(self, position) -> np.ndarray:
        """Five probabilities of the player on roll in ``position`` from the critic's value
        of the same board as the opponent's afterstate (an equity in points, negated),
        through :func:`agents.players.cube.probabilities_from_equity` (an approximation: PPO has
        no probability outputs)."""
        row = candidate_features(np.array([position.opp]), np.array([position.me]))
        with torch.no_grad():
            return probabilities_from_equity(-float(self.critic(torch.from_numpy(row))[0, 0]))

    def cube_action(self, env, legal: list[int]) -> int:
        if self.critic is None:  # an actor alone: no value to judge the cube by
            return super().cube_action(env, legal)
        return cube_action(env, legal, self.probabilities, self.cube_settings)

    @classmethod
    def load(cls, path: str, max_candidates: int | None = None) -> "PPOAgent":
        """Load a model saved by :func:`agents.training.train_ppo.train_ppo` (``model.zip``,
        ``checkpoint.zip``); see :func:`load_actor`."""
        return cls(load_actor(path), max_candidates, critic=load_critic(path))
