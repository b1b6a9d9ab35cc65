"""Training the PPO baseline: MaskablePPO on afterstates (``bg-env train ppo``, the shipped
config ``agents/configs/ppo.yaml``).

Reads top to bottom: the settings, then the training loop with progress bar, periodic
evaluation (report + learning curve), checkpoints and ``--resume``. The policy is
:class:`agents.training.ppo_policy.CandidatePolicy`; the agent that plays with what this trains is
:class:`agents.players.ppo.PPOAgent`, which needs none of this.

Environment: :class:`bg_env.envs.play_env.BackgammonPlaysEnv`, where one step picks a
whole play among the legal ones. The ``n_envs`` games run in the learner's process, or
with ``workers: N`` (``--workers N``) in N processes (:mod:`agents.training.proc_vec_env`).

Self-play (:mod:`agents.training.ppo_pool`): each episode, each env draws its opponent from its own
:class:`~agents.training.ppo_pool.OpponentPool` with the weights of ``PPOConfig.opponents``:
``"self"`` is a frozen snapshot of the policy (one of the last ``pool_size``; a snapshot is
taken every ``snapshot_every`` steps and sent to every env), other keys are
``agents.load_agent`` specs (``"pubeval"``, ``"random"``, ``"td"``, ...).

Checkpoint (:mod:`agents.training.ppo_checkpoint`): one file, ``checkpoint.zip``: SB3's
archive of the model, optimiser and step count with one more member, ``training_state.pt``
(the snapshots, history, games played), written to a temporary file and renamed over the
old one, so that a kill leaves either the old checkpoint or the new one, never half of each.

Seeds: the same ``seed`` gives the same run (SB3 seeds torch, numpy and the envs; each
env's pool has its own generator seeded from ``seed`` and the env's index), with one
worker or several. A resumed run continues the step count, the weights, the optimiser and
the snapshots, but not the envs' generators, so it is not bit-identical to an
uninterrupted one. Resuming never rewinds: ``total_steps`` below the steps already done is
refused before anything is written. Evaluations are logged (``logging``, INFO), not printed.
"""

from __future__ import annotations

import io
import logging
import os
import time
from dataclasses import asdict, dataclass, field
from functools import partial

import gymnasium as gym
import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.monitor import Monitor
from stable_baselines3.common.vec_env import DummyVecEnv

from bg_env.envs.candidates import MAX_CANDIDATES
from bg_env.envs.play_env import BackgammonPlaysEnv

from .. import load_agent
from ..config import (MAX_COUNT, MAX_HIDDEN, MAX_PROCESSES, MAX_SEED, refuse_rewind,
                      require_at_least, require_at_most)
from ..evaluation.evaluate import evaluate
from .device import DEVICES, resolve_device
from .kickstart import Distillation, init_policy, kickstart, load_teacher, teacher_equity
from ..players.model_files import write_atomically, write_json
from ..players.ppo import ACTIVATIONS, PPOAgent
from .ppo_checkpoint import check_same_network, elapsed_seconds, read_checkpoint, write_checkpoint
from .ppo_policy import POOLINGS, CandidatePolicy
from .ppo_pool import OpponentPool, PoolOpponent, actor_weights
from .proc_vec_env import ProcessVecEnv
from .report import write_report

__all__ = ["PPOConfig", "train_ppo", "make_env", "make_vec_env", "new_model", "snapshot",
           "read_checkpoint"]

_NOT_IN_MODEL = ["_last_obs", "_last_original_obs", "_last_episode_starts"]
"""Rollout state left out of ``model.zip`` (the envs' last observations: ~1 MB)."""

logger = logging.getLogger(__name__)


# ------------------------------------------------------------------ settings
@dataclass
class PPOConfig:
    """Settings of a MaskablePPO training run (the shipped ``ppo`` config,
    ``agents/configs/ppo.yaml``, sets each of them; ``bg-env train ppo``)."""

    algo: str = "ppo"
    """Which trainer reads this file."""
    run_dir: str = "runs/ppo"
    """Folder for checkpoints, logs, the report and the learning curve."""
    total_steps: int = 400_000
    """Learner decisions (env steps, over all envs) to train on."""
    n_envs: int = 16
    """Games played side by side (the policy is batched over them)."""
    workers: int = 1
    """Processes that play the ``n_envs`` games (1: all in the learner's process; N: spread
    over N processes by :class:`~agents.training.proc_vec_env.ProcessVecEnv`)."""
    device: str = "cpu"
    """Where the networks learn: ``cpu``, ``cuda`` or ``auto`` (cuda when available)."""
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
    """Threads torch may use in the learner's process (each worker process uses one)."""
    kickstart: str = ""
    """Teacher of the optional kickstart stage before PPO (:mod:`agents.training.kickstart`): an
    agent spec that rates plays (``"td"``, ``"td:PATH"``), or ``""`` for none. A new run
    fits the actor and critic to the teacher's self-play decisions, saves that policy as
    ``kickstart.zip``, then runs PPO from it; ``--resume`` does not redo it."""
    kickstart_games: int = 2000
    """Teacher self-play games recorded for the kickstart."""
    kickstart_epochs: int = 8
    """Passes of the supervised fit over the recorded decisions."""
    kickstart_temperature: float = 0.05
    """The actor's target is ``softmax(teacher equity / kickstart_temperature)``."""
    kickstart_lr: float = 3e-3
    """Adam learning rate of the kickstart fit (PPO's own optimiser is untouched)."""
    kickstart_weight: float = 0.0
    """Weight, at step 0, of the kickstarting loss kept during PPO (the KL divergence of
    the policy from ``softmax(teacher equity / kickstart_temperature)`` on the rollout's
    states, :class:`agents.training.kickstart.Distillation`; 0 = none; needs ``kickstart``)."""
    kickstart_weight_halflife: int = 0
    """Steps over which ``kickstart_weight`` halves (0 = constant)."""
    init: str = ""
    """A ``.zip`` written by this trainer (``kickstart.zip``, ``model.zip``,
    ``checkpoint.zip``) whose policy weights start a new run in place of the kickstart
    stage (the optimiser, steps and snapshots start afresh; ``""`` = none). The teacher
    ``kickstart`` still serves ``kickstart_weight``. ``--resume`` ignores it."""
    max_minutes: float = 0.0
    """Stop training after this many minutes of wall time, resumed runs counted together
    (0 = no limit), then run the final evaluation; the learning-rate decay still assumes
    ``total_steps``."""

    def __post_init__(self) -> None:
        if self.algo != "ppo":
            raise ValueError(f"algo={self.algo!r}: this trainer is for 'ppo'")
        require_at_least(self, 1, "total_steps", "n_envs", "workers", "n_steps", "batch_size",
                         "n_epochs", "max_candidates", "pool_size", "snapshot_every",
                         "eval_games", "checkpoint_every", "torch_threads")
        require_at_least(self, 0, "seed", "eval_every", "final_eval_games", "max_minutes",
                         "target_kl", "ent_coef", "vf_coef")
        require_at_least(self, 1, "kickstart_games", "kickstart_epochs")
        require_at_least(self, 0, "kickstart_weight", "kickstart_weight_halflife")
        if self.kickstart_weight and not self.kickstart:
            raise ValueError(f"kickstart_weight={self.kickstart_weight!r}: needs a teacher "
                             f"(kickstart: td)")
        for name in ("learning_rate", "clip_range", "max_grad_norm", "kickstart_temperature",
                     "kickstart_lr"):
            if not getattr(self, name) > 0:
                raise ValueError(f"{name}={getattr(self, name)!r}: expected a positive number")
        for name in ("gamma", "gae_lambda"):
            if not 0.0 <= getattr(self, name) <= 1.0:
                raise ValueError(f"{name}={getattr(self, name)!r}: expected 0..1")
        if self.activation not in ACTIVATIONS:
            raise ValueError(
                f"activation={self.activation!r}: expected one of {list(ACTIVATIONS)}")
        if self.value_pooling not in POOLINGS:
            raise ValueError(
                f"value_pooling={self.value_pooling!r}: expected one of {list(POOLINGS)}")
        if self.device not in DEVICES:
            raise ValueError(f"device={self.device!r}: expected one of {list(DEVICES)}")
        if not 1 <= self.workers <= self.n_envs:
            raise ValueError(f"workers={self.workers}: expected 1..n_envs ({self.n_envs})")
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
        require_at_most(self, MAX_COUNT, "total_steps", "eval_games", "final_eval_games", "kickstart_games")
        require_at_most(self, MAX_SEED, "seed")
        require_at_most(self, MAX_PROCESSES, "workers", "torch_threads")
        require_at_most(self, MAX_HIDDEN, "hidden",
                        why="a network that size does not fit in memory")
        require_at_most(self, MAX_CANDIDATES, "max_candidates")


# ------------------------------------------------------------------ training
def make_env(cfg: PPOConfig, rank: int = 0, opponent="random") -> gym.Env:
    """Training env number ``rank``: the play-level env, its opponent drawn each episode
    from its own pool (seeded by ``cfg.seed`` and ``rank``) when ``cfg.opponents`` is set,
    else ``opponent``; episode statistics recorded (SB3 ``Monitor``)."""
    env = BackgammonPlaysEnv(opponent=opponent, max_candidates=cfg.max_candidates,
                             reward=cfg.reward)
    if cfg.opponents:
        pool = OpponentPool(cfg.opponents, cfg.pool_size, seed=[cfg.seed, rank],
                            hidden=cfg.hidden, activation=cfg.activation)
        env = PoolOpponent(env, pool)
    return Monitor(env)


def make_vec_env(cfg: PPOConfig):
    """The ``n_envs`` training envs: in this process (``workers: 1``) or in
    ``cfg.workers`` processes."""
    fns = [partial(make_env, cfg, rank) for rank in range(cfg.n_envs)]
    return DummyVecEnv(fns) if cfg.workers == 1 else ProcessVecEnv(fns, cfg.workers)


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
    agent = PPOAgent(model)
    return {spec: evaluate(agent, load_agent(spec), games=games, seed=seed).summary()
            for spec in cfg.eval_opponents}


def snapshot(model, venv, state: dict, pool_size: int) -> None:
    """Send a snapshot of the policy to every env's pool and keep it for the checkpoint."""
    weights = actor_weights(model)
    venv.env_method("add_snapshot", weights)
    state["snapshots"] = (state["snapshots"] + [weights])[-pool_size:]


class _TrainCallback(BaseCallback):
    """Snapshots into the pools, periodic evaluations and checkpoints, by step count."""

    def __init__(self, cfg: PPOConfig, history: list, state: dict) -> None:
        super().__init__()
        self.cfg, self.history, self.state = cfg, history, state

    def _on_training_start(self) -> None:
        n, cfg = self.model.num_timesteps, self.cfg
        self.due = {"snap": _next(n, cfg.snapshot_every), "eval": _next(n, cfg.eval_every),
                    "ckpt": _next(n, cfg.checkpoint_every)}

    def _on_step(self) -> bool:
        n, cfg, due = self.model.num_timesteps, self.cfg, self.due
        self.state["games"] += int(np.sum(self.locals.get("dones", 0)))
        if n >= due["snap"]:
            snapshot(self.model, self.training_env, self.state, cfg.pool_size)
            due["snap"] = _next(n, cfg.snapshot_every)
        if n >= due["eval"]:
            if n < cfg.total_steps:  # the final evaluation follows anyway
                entry = {"games": self.state["games"], "steps": n,
                         "seconds": elapsed_seconds(self.state),
                         **_evaluate(self.model, cfg, cfg.eval_games, seed=10_000 + n)}
                self.history.append(entry)
                _log_eval(entry, self.logger)
                write_report(cfg.run_dir, "MaskablePPO", asdict(cfg), self.history)
            due["eval"] = _next(n, cfg.eval_every)
        if n >= due["ckpt"]:
            write_checkpoint(self.model, cfg.run_dir, self.history, self.state)
            due["ckpt"] = _next(n, cfg.checkpoint_every)
        return not cfg.max_minutes or elapsed_seconds(self.state) < 60 * cfg.max_minutes


def _next(n: int, every: int) -> float:
    return (n // every + 1) * every if every else float("inf")


def _log_eval(entry: dict, sb3_logger=None) -> None:
    """Log the evaluation ``entry`` (and record it in SB3's ``progress.csv`` when given)."""
    parts = []
    for spec, s in entry.items():
        if isinstance(s, dict):
            parts.append(f"{spec}: win {s['win_rate']:.1%} ppg {s['ppg']:+.3f}")
            if sb3_logger is not None:
                sb3_logger.record(f"eval/{spec}_ppg", s["ppg"])
                sb3_logger.record(f"eval/{spec}_win_rate", s["win_rate"])
    logger.info("[%d steps, %d games, %.1f min] %s", entry["steps"], entry["games"],
                entry["seconds"] / 60, "; ".join(parts))


def new_model(cfg: PPOConfig, venv, schedule, device: str) -> MaskablePPO:
    """An untrained MaskablePPO with ``cfg``'s settings on ``venv`` (``schedule``: the
    learning rate or a function of the progress left)."""
    return MaskablePPO(
        CandidatePolicy, venv, learning_rate=schedule, n_steps=cfg.n_steps,
        batch_size=cfg.batch_size, n_epochs=cfg.n_epochs, gamma=cfg.gamma,
        gae_lambda=cfg.gae_lambda, clip_range=cfg.clip_range, ent_coef=cfg.ent_coef,
        vf_coef=cfg.vf_coef, max_grad_norm=cfg.max_grad_norm,
        target_kl=cfg.target_kl or None, policy_kwargs=_policy_kwargs(cfg),
        seed=cfg.seed, device=device, verbose=0)


def train_ppo(cfg: PPOConfig, resume: bool = False, progress: bool = True) -> dict:
    """Train, evaluate and report; returns the final evaluation.

    Raises:
        FileNotFoundError: ``resume`` without a checkpoint in ``run_dir`` (named).
        ModelFileError: ``resume`` from a truncated or foreign checkpoint (named).
        ConfigError: ``resume`` with ``total_steps`` below the steps already done
            (resuming does not rewind; nothing is written).
        ValueError: ``device: cuda`` without a GPU.
    """
    device = resolve_device(cfg.device)
    saved = None
    if resume:
        saved = read_checkpoint(cfg.run_dir)
        refuse_rewind(os.path.join(cfg.run_dir, "checkpoint.zip"), int(saved["steps"]),
                      "total_steps", cfg.total_steps, "steps")
        check_same_network(cfg)
    torch.set_num_threads(cfg.torch_threads)
    os.makedirs(cfg.run_dir, exist_ok=True)
    lr = cfg.learning_rate
    schedule = (lambda left: lr * (0.1 + 0.9 * left)) if cfg.lr_decay else lr
    history: list[dict] = []
    state = {"games": 0, "seconds": 0.0, "t0": time.time(), "snapshots": []}
    venv = make_vec_env(cfg)
    try:
        if saved is not None:
            model = MaskablePPO.load(
                os.path.join(cfg.run_dir, "checkpoint.zip"), env=venv, device=device,
                custom_objects={"learning_rate": schedule, "lr_schedule": schedule,
                                "policy_class": CandidatePolicy})
            # the final evaluation at total_steps is done again
            history = [h for h in saved["history"]
                       if h["steps"] <= model.num_timesteps and h["steps"] < cfg.total_steps]
            state.update(games=saved["games"], seconds=saved["seconds"])
            for weights in saved["snapshots"]:
                venv.env_method("add_snapshot", weights)
            state["snapshots"] = list(saved["snapshots"])
        else:
            model = new_model(cfg, venv, schedule, device)
            if cfg.init:
                init_policy(model, cfg.init)
            elif cfg.kickstart:
                _kickstart(model, cfg, progress)
            snapshot(model, venv, state, cfg.pool_size)
        if cfg.kickstart_weight:
            Distillation(model, teacher_equity(load_teacher(cfg.kickstart)),
                         cfg.kickstart_weight, cfg.kickstart_weight_halflife,
                         cfg.kickstart_temperature, cfg.batch_size, cfg.seed)
        final = _train(model, cfg, history, state, resume, progress)
    finally:
        venv.close()
    return final


def _kickstart(model, cfg: PPOConfig, progress: bool) -> None:
    """The kickstart stage (:func:`agents.training.kickstart.kickstart`) on ``model``'s policy;
    the result saved as ``kickstart.zip`` and its summary as ``kickstart.json``."""
    t0 = time.time()
    summary = kickstart(model.policy.mlp_extractor, cfg.kickstart, cfg.kickstart_games,
                        cfg.kickstart_epochs, cfg.kickstart_temperature, cfg.kickstart_lr,
                        cfg.batch_size, cfg.vf_coef, cfg.max_candidates, cfg.seed, progress)
    summary["seconds"] = time.time() - t0
    buffer = io.BytesIO()
    model.save(buffer, exclude=_NOT_IN_MODEL)
    write_atomically(os.path.join(cfg.run_dir, "kickstart.zip"), buffer.getvalue())
    write_json(os.path.join(cfg.run_dir, "kickstart.json"), summary)


def _train(model, cfg: PPOConfig, history: list, state: dict, resume: bool,
           progress: bool) -> dict:
    """Learn to ``total_steps``, evaluate, write the checkpoint, model and report."""
    write_json(os.path.join(cfg.run_dir, "config.json"), asdict(cfg))
    logs = os.path.join(cfg.run_dir, "logs")
    if resume:  # SB3 would overwrite progress.csv
        logs = os.path.join(logs, f"resumed_at_{model.num_timesteps}")
    model.set_logger(_logger(logs))
    remaining = max(cfg.total_steps - model.num_timesteps, 0)
    state["t0"] = time.time()  # wall time counts from here: not the workers' start-up
    if remaining:
        model.learn(remaining, callback=_TrainCallback(cfg, history, state),
                    reset_num_timesteps=False, progress_bar=progress)
    if model.num_timesteps < cfg.total_steps:
        logger.warning("stopped by max_minutes=%g at %d of total_steps=%d; raise max_minutes "
                       "(or set 0) and --resume to go on", cfg.max_minutes,
                       model.num_timesteps, cfg.total_steps)
    final = {"games": state["games"], "steps": model.num_timesteps,
             "seconds": elapsed_seconds(state),
             **_evaluate(model, cfg, cfg.final_eval_games or cfg.eval_games, seed=999)}
    history.append(final)
    _log_eval(final)
    write_checkpoint(model, cfg.run_dir, history, state)
    buffer = io.BytesIO()
    model.save(buffer, exclude=_NOT_IN_MODEL)
    write_atomically(os.path.join(cfg.run_dir, "model.zip"), buffer.getvalue())
    write_report(cfg.run_dir, "MaskablePPO", asdict(cfg), history)
    return final
