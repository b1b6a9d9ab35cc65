"""MaskablePPO that scores afterstates: the SB3 baseline (``bg-env train configs/ppo.yaml``).

Reads top to bottom: the policy (one shared network scores every candidate play), the agent
that plays with it, the opponent pool of self-play, the settings, then the training loop
with progress bar, periodic evaluation (report + learning curve), atomic checkpoints and
``--resume``.

Environment: :class:`bg_env.envs.play_env.BackgammonPlaysEnv`, where one step picks a
whole play among the legal ones, its observation holding each candidate's afterstate
features (a ``(K, 201)`` table, flattened).

Policy (:class:`CandidatePolicy`, an sb3-contrib ``MaskableActorCriticPolicy``):
    * actor -- one MLP ``201 -> hidden... -> 1`` applied to every real candidate row (the
      padding rows are skipped, so the cost follows the number of plays, not K); the K
      outputs are the logits of a categorical distribution, masked by MaskablePPO. Since
      the same weights judge every candidate, the policy does not depend on the order of
      the rows and generalises across rolls, like a TD-Gammon evaluator.
    * critic -- a second MLP of the same shape (or the actor's hidden layers, with
      ``share_trunk``) gives each candidate a value ``q_i`` (the afterstate's worth,
      before the opponent's roll); the state value is pooled over the candidates,
      by default ``V(s) = sum_i pi_i q_i`` with the policy's probabilities held constant
      (exact for a deterministic move to the afterstate: ``V = E_pi[Q(s, a)]``), or the
      max / mean of the ``q_i``.
    SB3's ``action_net`` and ``value_net`` are identities: the extractor already yields the
    K logits and the value.

Agent (:class:`PPOAgent`): encodes the legal plays exactly as the env does
(:func:`~bg_env.envs.play_env.order_candidates`, :func:`~bg_env.envs.play_env.play_features`)
and plays the one with the largest logit (deterministic). It scores every legal play,
also past the env's K (the network is per candidate), unless ``max_candidates`` is given.

Self-play: each episode, each env draws its opponent from :class:`OpponentPool` with the
weights of ``PPOConfig.opponents``: ``"self"`` is a frozen snapshot of the policy (one of
the last ``pool_size``, a snapshot taken every ``snapshot_every`` steps), other keys are
``agents.load_agent`` specs (``"pubeval"``, ``"random"``, ``"td"``, ...).

Seeds: the same ``seed`` gives the same run (SB3 seeds torch, numpy and the envs; the
pool has its own seeded generator). A resumed run continues the step count, the weights
and the optimiser, but not the envs' generators, so it is not bit-identical to an
uninterrupted one.
"""

from __future__ import annotations

import copy
import json
import os
import time
from dataclasses import asdict, dataclass, field
from functools import partial

import gymnasium as gym
import numpy as np
import torch
from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.monitor import Monitor
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor
from stable_baselines3.common.vec_env import DummyVecEnv
from torch import nn

from bg_env.core.moves import Play
from bg_env.envs.play_env import (
    N_FEATURES,
    PRESENT,
    BackgammonPlaysEnv,
    order_candidates,
    play_features,
)

from .base import PlayAgent
from .report import write_report

__all__ = [
    "CandidatePolicy",
    "CandidateNet",
    "CandidateRows",
    "PPOAgent",
    "OpponentPool",
    "PPOConfig",
    "train_ppo",
    "make_env",
]

_NOT_IN_MODEL = ["_last_obs", "_last_original_obs", "_last_episode_starts"]
"""Rollout state left out of ``model.zip`` (the envs' last observations: ~1 MB)."""
_NEG = -1e8  # logit of a padding row (as MaskablePPO's own masking value)
_ACTIVATIONS = {"tanh": nn.Tanh, "relu": nn.ReLU}
_POOLINGS = ("policy", "max", "mean")


# ------------------------------------------------------------------ the policy
def _mlp(sizes: list[int], activation: type[nn.Module]) -> nn.Sequential:
    layers: list[nn.Module] = []
    for a, b in zip(sizes, sizes[1:]):
        layers += [nn.Linear(a, b), activation()]
    return nn.Sequential(*layers)


class CandidateNet(nn.Module):
    """Actor and critic over candidate rows; stands in for SB3's ``mlp_extractor``.

    ``forward(x)`` takes ``(B, K, N_FEATURES)`` rows and returns the ``(B, K)`` logits
    (padding rows at :data:`_NEG`) and the ``(B, 1)`` state values.
    """

    def __init__(self, n_candidates: int, hidden: list[int], activation: str = "tanh",
                 share_trunk: bool = False, value_pooling: str = "policy") -> None:
        super().__init__()
        if value_pooling not in _POOLINGS:
            raise ValueError(f"value_pooling={value_pooling!r}: expected one of {list(_POOLINGS)}")
        act = _ACTIVATIONS[activation]
        sizes = [N_FEATURES] + list(hidden)
        trunk = _mlp(sizes, act)
        self.actor = nn.Sequential(trunk, nn.Linear(sizes[-1], 1))
        """Row -> logit: the part a :class:`PPOAgent` keeps."""
        critic_trunk = trunk if share_trunk else _mlp(sizes, act)
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
        logits = self._scatter(valid, self.actor[1](h), _NEG)
        q = self.critic[1](h if self.shared else self.critic[0](rows))
        return logits, self._pool(valid, self._scatter(valid, q, 0.0), logits)

    def forward_actor(self, x: torch.Tensor) -> torch.Tensor:
        valid, rows = self._rows(x)
        return self._scatter(valid, self.actor(rows), _NEG)

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
            best = q.masked_fill(~valid, _NEG).max(-1, keepdim=True).values
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


# ------------------------------------------------------------------ the agent
class PPOAgent(PlayAgent):
    """Plays the legal play whose afterstate the actor scores highest (deterministic,
    cubeless: never doubles, always takes).

    Args:
        actor: a module mapping ``(M, N_FEATURES)`` rows to ``(M, 1)`` logits (a
            :class:`CandidateNet`'s ``actor``), or a policy / model holding one.
        max_candidates: cut the legal plays to the env's K first (``None``: score all).
    """

    name = "ppo"

    def __init__(self, actor, max_candidates: int | None = None) -> None:
        super().__init__()
        if hasattr(actor, "policy"):  # a MaskablePPO model
            actor = actor.policy
        if hasattr(actor, "mlp_extractor"):  # a CandidatePolicy
            actor = actor.mlp_extractor.actor
        self.actor = copy.deepcopy(actor).eval()
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
        if len(plays) == 1:
            return plays[0]
        ordered, logits = self.scores(plays)
        return ordered[int(np.argmax(logits))]

    @classmethod
    def load(cls, path: str, max_candidates: int | None = None) -> "PPOAgent":
        """Load a model saved by :func:`train_ppo` (``model.zip``, ``checkpoint.zip``).

        Raises:
            FileNotFoundError: no file at ``path``, with the path in the message.
        """
        if not os.path.exists(path):
            raise FileNotFoundError(f"PPO model file {path!r} does not exist")
        model = MaskablePPO.load(path, device="cpu")
        return cls(model, max_candidates)


# ------------------------------------------------------------------ self-play pool
class OpponentPool:
    """Opponents drawn per episode: frozen snapshots of the policy (``"self"``) and fixed
    agents, with the given weights.

    Args:
        weights: ``{"self": w, "pubeval": w, ...}``; keys other than ``"self"`` are
            ``agents.load_agent`` specs.
        pool_size: how many of the latest snapshots ``"self"`` draws from (uniformly).
        seed: seed of the draws.
    """

    def __init__(self, weights: dict[str, float], pool_size: int = 10, seed: int = 0) -> None:
        from . import load_agent

        self.names = list(weights)
        w = np.array([float(weights[k]) for k in self.names])
        self.probs = w / w.sum()
        # "random" stays a name: the env then draws from its own seeded generator
        self.fixed = {k: k if k == "random" else load_agent(k) for k in self.names if k != "self"}
        self.snapshots: list[PPOAgent] = []
        self.pool_size = pool_size
        self.rng = np.random.default_rng(seed)

    def add(self, actor) -> None:
        """Freeze a copy of ``actor`` (anything :class:`PPOAgent` accepts)."""
        self.snapshots.append(PPOAgent(actor))
        del self.snapshots[: -self.pool_size]

    def sample(self):
        name = self.names[int(self.rng.choice(len(self.names), p=self.probs))]
        if name == "self":
            if not self.snapshots:
                raise RuntimeError("opponent pool: no snapshot of the policy yet; call add()")
            return self.snapshots[int(self.rng.integers(len(self.snapshots)))]
        return self.fixed[name]

    def state(self) -> dict:
        return {"snapshots": [s.actor.state_dict() for s in self.snapshots],
                "rng": self.rng.bit_generator.state}

    def load_state(self, state: dict, template) -> None:
        self.snapshots = []
        for sd in state["snapshots"]:
            agent = PPOAgent(template)
            agent.actor.load_state_dict(sd)
            self.snapshots.append(agent)
        self.rng.bit_generator.state = state["rng"]


class PoolOpponent(gym.Wrapper):
    """Sets a new opponent from the pool before each episode."""

    def __init__(self, env: BackgammonPlaysEnv, pool: OpponentPool) -> None:
        super().__init__(env)
        self.pool = pool

    def reset(self, **kwargs):
        self.env.unwrapped.set_opponent(self.pool.sample())
        return self.env.reset(**kwargs)

    def action_masks(self) -> np.ndarray:
        return self.env.unwrapped.action_masks()


# ------------------------------------------------------------------ settings
@dataclass
class PPOConfig:
    """Settings of a MaskablePPO training run (mirrored by ``configs/ppo.yaml``)."""

    algo: str = "ppo"
    """Which trainer reads this file."""
    run_dir: str = "runs/ppo"
    """Folder for checkpoints, logs, the report and the learning curve."""
    total_steps: int = 400_000
    """Learner decisions (env steps, over all envs) to train on."""
    n_envs: int = 16
    """Games played side by side (one process; the policy is batched over them)."""
    n_steps: int = 128
    """Steps per env between updates (a rollout holds ``n_envs * n_steps`` decisions)."""
    batch_size: int = 256
    """Minibatch size of the PPO updates."""
    n_epochs: int = 6
    """Passes over each rollout."""
    learning_rate: float = 1e-3
    """Adam learning rate (at the start, see ``lr_decay``)."""
    lr_decay: bool = True
    """Decay the learning rate linearly to 10% of ``learning_rate`` over the run."""
    gamma: float = 1.0
    """Discount; rewards come only at the end of a game."""
    gae_lambda: float = 0.95
    """GAE's lambda."""
    clip_range: float = 0.2
    """PPO's clipping of the probability ratio."""
    ent_coef: float = 0.001
    """Entropy bonus."""
    vf_coef: float = 0.5
    """Weight of the value loss."""
    max_grad_norm: float = 0.5
    """Gradient clipping."""
    target_kl: float = 0.0
    """Stop an update early past this KL divergence (0 = never)."""
    hidden: list = field(default_factory=lambda: [128])
    """Hidden layer sizes of the per-candidate networks (actor and critic)."""
    activation: str = "tanh"
    """``"tanh"`` or ``"relu"``."""
    share_trunk: bool = True
    """Actor and critic share their hidden layers."""
    value_pooling: str = "policy"
    """How the critic pools candidate values: ``"policy"`` (expectation under the
    policy), ``"max"`` or ``"mean"``."""
    max_candidates: int = 64
    """K, the env's number of candidate rows."""
    reward: str = "points"
    """``"points"`` (1, 2, 3 for single, gammon, backgammon) or ``"win"`` (+-1)."""
    opponents: dict = field(default_factory=lambda: {"self": 0.4, "pubeval": 0.6})
    """Opponent draw weights per episode: ``"self"`` (a snapshot) or agent specs."""
    pool_size: int = 8
    """Snapshots kept for ``"self"``."""
    snapshot_every: int = 10_000
    """Steps between snapshots of the policy into the pool."""
    seed: int = 0
    """Seed of torch, the envs and the opponent draws."""
    eval_every: int = 50_000
    """Evaluate every this many steps (0 = only at the end)."""
    eval_games: int = 100
    """Games per periodic evaluation against each opponent."""
    eval_opponents: list = field(default_factory=lambda: ["random", "pubeval"])
    """Agent specs to evaluate against."""
    final_eval_games: int = 1000
    """Games of the final evaluation (0 = eval_games)."""
    checkpoint_every: int = 20_000
    """Write a checkpoint every this many steps."""
    torch_threads: int = 1
    """Threads torch may use."""
    max_minutes: float = 0.0
    """Stop training after this many minutes of wall time, resumed runs counted together
    (0 = no limit), then run the final evaluation; the learning-rate decay still assumes
    ``total_steps``."""

    def __post_init__(self) -> None:
        if self.algo != "ppo":
            raise ValueError(f"algo={self.algo!r}: this trainer is for 'ppo'")
        if self.activation not in _ACTIVATIONS:
            raise ValueError(
                f"activation={self.activation!r}: expected one of {list(_ACTIVATIONS)}")
        if self.value_pooling not in _POOLINGS:
            raise ValueError(
                f"value_pooling={self.value_pooling!r}: expected one of {list(_POOLINGS)}")
        if self.reward not in ("points", "win"):
            raise ValueError(f"reward={self.reward!r}: expected 'points' or 'win'")
        if not self.opponents or any(float(w) < 0 for w in self.opponents.values()) or \
                sum(float(w) for w in self.opponents.values()) <= 0:
            raise ValueError(f"opponents={self.opponents!r}: expected weights >= 0, not all 0")
        if self.batch_size > self.n_envs * self.n_steps:
            raise ValueError(f"batch_size={self.batch_size}: more than a rollout "
                             f"(n_envs * n_steps = {self.n_envs * self.n_steps})")
        if not self.hidden or not all(isinstance(h, int) and h > 0 for h in self.hidden):
            raise ValueError(f"hidden={self.hidden!r}: expected a list of positive integers")


# ------------------------------------------------------------------ training
def make_env(cfg: PPOConfig, pool: OpponentPool | None = None, opponent="random") -> gym.Env:
    """One training env: the play-level env, its opponent drawn from ``pool`` each episode
    (else ``opponent``), episode statistics recorded (SB3 ``Monitor``)."""
    env = BackgammonPlaysEnv(opponent=opponent, max_candidates=cfg.max_candidates,
                             reward=cfg.reward)
    if pool is not None:
        env = PoolOpponent(env, pool)
    return Monitor(env)


def _policy_kwargs(cfg: PPOConfig) -> dict:
    return dict(net_arch=list(cfg.hidden), activation_fn=cfg.activation,
                share_trunk=cfg.share_trunk, value_pooling=cfg.value_pooling)


def _logger(folder: str):
    """SB3's logger: ``progress.csv`` in ``folder``, and TensorBoard event files when
    tensorboard is installed (it is optional)."""
    from stable_baselines3.common.logger import configure

    formats = ["csv"]
    try:
        import tensorboard  # noqa: F401  (optional)

        formats.append("tensorboard")
    except ImportError:
        pass
    return configure(folder, formats)


def _evaluate(model, cfg: PPOConfig, games: int, seed: int) -> dict:
    from . import load_agent
    from .evaluate import evaluate

    agent = PPOAgent(model)
    return {spec: evaluate(agent, load_agent(spec), games=games, seed=seed).summary()
            for spec in cfg.eval_opponents}


class _TrainCallback(BaseCallback):
    """Snapshots into the pool, periodic evaluations and checkpoints, by step count."""

    def __init__(self, cfg: PPOConfig, pool: OpponentPool, history: list, state: dict) -> None:
        super().__init__()
        self.cfg, self.pool, self.history, self.state = cfg, pool, history, state

    def _on_training_start(self) -> None:
        n, cfg = self.model.num_timesteps, self.cfg
        self.due = {"snap": _next(n, cfg.snapshot_every), "eval": _next(n, cfg.eval_every),
                    "ckpt": _next(n, cfg.checkpoint_every)}

    def _on_step(self) -> bool:
        n, cfg, due = self.model.num_timesteps, self.cfg, self.due
        self.state["games"] += int(np.sum(self.locals.get("dones", 0)))
        if n >= due["snap"]:
            self.pool.add(self.model)
            due["snap"] = _next(n, cfg.snapshot_every)
        if n >= due["eval"]:
            if n < cfg.total_steps:  # the final evaluation follows anyway
                entry = {"games": self.state["games"], "steps": n, "seconds": _seconds(self.state),
                         **_evaluate(self.model, cfg, cfg.eval_games, seed=10_000 + n)}
                self.history.append(entry)
                _log_eval(entry, self.logger)
                write_report(cfg.run_dir, "MaskablePPO", asdict(cfg), self.history)
            due["eval"] = _next(n, cfg.eval_every)
        if n >= due["ckpt"]:
            _checkpoint(self.model, cfg, self.pool, self.history, self.state)
            due["ckpt"] = _next(n, cfg.checkpoint_every)
        return not cfg.max_minutes or _seconds(self.state) < 60 * cfg.max_minutes


def _next(n: int, every: int) -> float:
    return (n // every + 1) * every if every else float("inf")


def _seconds(state: dict) -> float:
    return state["seconds"] + time.time() - state["t0"]


def _checkpoint(model, cfg: PPOConfig, pool: OpponentPool, history: list, state: dict) -> None:
    """``checkpoint.zip`` (the model, optimiser and step count) and ``checkpoint.pt``
    (pool, history, games played), each written to a temporary file and renamed."""
    path = os.path.join(cfg.run_dir, "checkpoint")
    extra = {"pool": pool.state(), "history": history, "games": state["games"],
             "seconds": _seconds(state), "steps": model.num_timesteps}
    torch.save(extra, path + ".tmp.pt")
    os.replace(path + ".tmp.pt", path + ".pt")
    model.save(path + ".tmp.zip")
    os.replace(path + ".tmp.zip", path + ".zip")


def _log_eval(entry: dict, logger=None) -> None:
    parts = []
    for spec, s in entry.items():
        if isinstance(s, dict):
            parts.append(f"{spec}: win {s['win_rate']:.1%} ppg {s['ppg']:+.3f}")
            if logger is not None:
                logger.record(f"eval/{spec}_ppg", s["ppg"])
                logger.record(f"eval/{spec}_win_rate", s["win_rate"])
    print(f"[{entry['steps']} steps, {entry['games']} games, {entry['seconds'] / 60:.1f} min] "
          + "; ".join(parts), flush=True)


def train_ppo(cfg: PPOConfig, resume: bool = False, progress: bool = True) -> dict:
    """Train, evaluate and report; returns the final evaluation.

    Raises:
        FileNotFoundError: ``resume`` without a checkpoint in ``run_dir`` (named).
    """
    torch.set_num_threads(cfg.torch_threads)
    os.makedirs(cfg.run_dir, exist_ok=True)
    ckpt = os.path.join(cfg.run_dir, "checkpoint")
    if resume and not os.path.exists(ckpt + ".zip"):
        raise FileNotFoundError(f"--resume: no checkpoint at {ckpt + '.zip'!r}")
    pool = OpponentPool(cfg.opponents, cfg.pool_size, seed=cfg.seed)
    venv = DummyVecEnv([partial(make_env, cfg, pool) for _ in range(cfg.n_envs)])
    lr = cfg.learning_rate
    schedule = (lambda left: lr * (0.1 + 0.9 * left)) if cfg.lr_decay else lr
    history: list[dict] = []
    state = {"games": 0, "seconds": 0.0, "t0": time.time()}
    if resume:
        model = MaskablePPO.load(ckpt + ".zip", env=venv, device="cpu",
                                 custom_objects={"learning_rate": schedule,
                                                 "lr_schedule": schedule})
        extra = torch.load(ckpt + ".pt", map_location="cpu", weights_only=True)
        pool.load_state(extra["pool"], model)
        history = [h for h in extra["history"] if h["steps"] <= model.num_timesteps]
        state.update(games=extra["games"], seconds=extra["seconds"])
    else:
        model = MaskablePPO(
            CandidatePolicy, venv, learning_rate=schedule, n_steps=cfg.n_steps,
            batch_size=cfg.batch_size, n_epochs=cfg.n_epochs, gamma=cfg.gamma,
            gae_lambda=cfg.gae_lambda, clip_range=cfg.clip_range, ent_coef=cfg.ent_coef,
            vf_coef=cfg.vf_coef, max_grad_norm=cfg.max_grad_norm,
            target_kl=cfg.target_kl or None, policy_kwargs=_policy_kwargs(cfg),
            seed=cfg.seed, device="cpu", verbose=0)
        pool.add(model)
    with open(os.path.join(cfg.run_dir, "config.json"), "w") as fh:
        json.dump(asdict(cfg), fh, indent=2)
    logs = os.path.join(cfg.run_dir, "logs")
    if resume:  # SB3 would overwrite progress.csv
        logs = os.path.join(logs, f"resumed_at_{model.num_timesteps}")
    model.set_logger(_logger(logs))
    callback = _TrainCallback(cfg, pool, history, state)
    remaining = max(cfg.total_steps - model.num_timesteps, 0)
    if remaining:
        model.learn(remaining, callback=callback, reset_num_timesteps=False,
                    progress_bar=progress)
    final = {"games": state["games"], "steps": model.num_timesteps, "seconds": _seconds(state),
             **_evaluate(model, cfg, cfg.final_eval_games or cfg.eval_games, seed=999)}
    history.append(final)
    _log_eval(final)
    _checkpoint(model, cfg, pool, history, state)
    path = os.path.join(cfg.run_dir, "model")
    model.save(path + ".tmp.zip", exclude=_NOT_IN_MODEL)
    os.replace(path + ".tmp.zip", path + ".zip")
    write_report(cfg.run_dir, "MaskablePPO", asdict(cfg), history)
    venv.close()
    return final
