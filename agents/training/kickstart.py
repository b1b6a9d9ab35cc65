"""Kickstarting the PPO baseline from a teacher: an optional stage before PPO
(``PPOConfig.kickstart``; Schmitt et al. 2018, "Kickstarting Deep Reinforcement
Learning"): a supervised initialisation (1, 2), and optionally a distillation loss kept
during PPO (3).

1. :func:`teacher_games`: the teacher plays ``games`` self-play games on the play-level
   env (:class:`~bg_env.envs.play_env.BackgammonPlaysEnv`, the learner's seat and the
   opponent's both played by the teacher). For every decision with a choice, on either
   side, it records the env's candidate rows (the afterstates, as
   :func:`~bg_env.envs.play_env.order_candidates` presents them, at most K) and the
   teacher's equity of each (:meth:`agents.players.td.TDAgent.play_equities`); the teacher plays
   its best candidate among those rows. Boards are kept as ``(N, 52)`` uint8 counts (52
   bytes a candidate, not a 804-byte feature row); features are computed per minibatch.
2. :func:`fit`: the policy's per-candidate network (:class:`~agents.training.ppo_policy.CandidateNet`)
   is fitted by Adam to the recorded decisions:

   * actor -- cross-entropy to the soft target ``softmax(equity / temperature)`` over each
     decision's candidates (policy distillation). A soft target rather than the teacher's
     one choice: it carries the teacher's ranking of every candidate, so near-equal plays
     keep near-equal probabilities (PPO goes on exploring among them) and a second-best
     play is told apart from a blunder; the loss is shift-invariant, so the actor's
     logits learn ``equity / temperature`` up to a constant and their argmax is the
     teacher's choice when the fit is good.
   * critic -- mean squared error of each candidate's value ``q`` to the teacher's equity
     (the afterstate's worth in points for the mover, the scale of the ``points``
     reward), weighted by ``vf_coef`` as in PPO's loss.

3. :class:`Distillation` (``kickstart_weight`` > 0): during PPO, the kickstarting loss
   of Schmitt et al. -- ``weight(t) * KL(softmax(teacher equity / temperature) || pi)``
   on the rollout's own states -- is added to PPO's loss, its weight halving every
   ``kickstart_weight_halflife`` steps, so that PPO improves from the teacher's policy
   instead of drifting away from it. It is a hook on the policy's optimiser (torch's
   ``register_step_pre_hook``): before each of PPO's optimiser steps it draws a
   minibatch of states from the current rollout, computes the loss and adds its gradient
   to PPO's, so the step follows the sum of both losses. (PPO's gradient has been clipped
   to ``max_grad_norm`` by then; the distillation gradient is not clipped. The minibatch
   is drawn apart from PPO's own, from the same rollout.)

Determinism: the games follow the env's generator seeded with ``seed``; the minibatch
order follows a torch generator seeded with ``seed``; the network's starting weights are
the caller's (SB3 seeds them from the run's ``seed``).
"""

from __future__ import annotations

import logging
import zipfile
from dataclasses import dataclass

import numpy as np
import torch

from bg_env.rules.moves import Play
from bg_env.envs.candidates import N_FEATURES, PRESENT, board_features, order_candidates
from bg_env.envs.play_env import BackgammonPlaysEnv

from .. import load_agent
from ..config import ConfigError

__all__ = ["TeacherGames", "load_teacher", "teacher_games", "fit", "agreement", "kickstart",
           "teacher_equity", "Distillation", "init_policy"]

logger = logging.getLogger(__name__)


@dataclass
class TeacherGames:
    """The teacher's decisions: decision ``d``'s candidates are rows
    ``starts[d]:starts[d + 1]`` of ``boards`` and ``equities``."""

    boards: np.ndarray
    """``(N, 52)`` uint8: each candidate's afterstate, the mover's 26 counts then the
    opponent's (:func:`~bg_env.envs.play_env.board_features`' input)."""
    equities: np.ndarray
    """``(N,)`` float32: the teacher's equity of each candidate, for the mover."""
    starts: np.ndarray
    """``(D + 1,)`` int64 offsets of the decisions' rows."""
    games: int
    """Games played."""

    @property
    def decisions(self) -> int:
        return len(self.starts) - 1

    def batch(self, index: np.ndarray) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor,
                                                 torch.Tensor]:
        """Decisions ``index`` as flat rows: features ``(M, 201)``, equities ``(M,)``,
        and for each row its decision in the batch and its slot in that decision."""
        lengths = self.starts[index + 1] - self.starts[index]
        seg = np.repeat(np.arange(len(index)), lengths)
        slot = np.arange(lengths.sum()) - np.repeat(np.cumsum(lengths) - lengths, lengths)
        rows = self.starts[index][seg] + slot
        return (torch.from_numpy(board_features(self.boards[rows])),
                torch.from_numpy(self.equities[rows]), torch.from_numpy(seg),
                torch.from_numpy(slot))


def load_teacher(spec: str):
    """The agent named by the ``kickstart`` setting (an :func:`agents.load_agent` spec),
    which must rate a list of plays (``play_equities``, as :class:`~agents.players.td.TDAgent`).

    Raises:
        ConfigError: the agent has no ``play_equities`` (the message names ``kickstart``).
        ValueError, FileNotFoundError: as :func:`agents.load_agent`.
    """
    try:
        teacher = load_agent(spec)
    except (ValueError, FileNotFoundError) as exc:
        raise ConfigError(f"kickstart={spec!r}: {exc}") from None
    if not callable(getattr(teacher, "play_equities", None)):
        raise ConfigError(f"kickstart={spec!r}: the teacher must rate plays "
                          f"(play_equities), as 'td' or 'td:PATH' do")
    return teacher


class _Recorder:
    """Plays the teacher's best candidate and records the decision."""

    def __init__(self, teacher, max_candidates: int) -> None:
        self.teacher, self.k = teacher, max_candidates
        self.boards: list[np.ndarray] = []
        self.equities: list[np.ndarray] = []

    def record(self, candidates: list[Play]) -> int:
        boards = np.array([p.result.me + p.result.opp for p in candidates], dtype=np.uint8)
        eq = np.asarray(self.teacher.play_equities(candidates), dtype=np.float32)
        self.boards.append(boards)
        self.equities.append(eq)
        return int(np.argmax(eq))

    def choose_play(self, plays: list[Play], env=None) -> Play:
        ordered, _ = order_candidates(plays, self.k)
        return ordered[self.record(ordered)]


def teacher_games(teacher, games: int, max_candidates: int = 64, seed: int = 0,
                  progress: bool = False) -> TeacherGames:
    """``games`` self-play games of ``teacher`` (an agent with ``play_equities``) on the
    play-level env with K = ``max_candidates``; see the module docstring."""
    recorder = _Recorder(teacher, max_candidates)
    env = BackgammonPlaysEnv(opponent=recorder.choose_play, max_candidates=max_candidates)
    for g in _progress(range(games), progress, "kickstart: teacher games", "game"):
        env.reset(seed=seed if g == 0 else None)
        done = False
        while not done:
            _, _, done, _, _ = env.step(recorder.record(env.candidates))
    lengths = [len(e) for e in recorder.equities]
    return TeacherGames(np.concatenate(recorder.boards), np.concatenate(recorder.equities),
                        np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64), games)


def _progress(iterable, progress: bool, desc: str, unit: str):
    if not progress:
        return iterable
    from tqdm import tqdm

    return tqdm(iterable, desc=desc, unit=unit)


def _padded(values: torch.Tensor, seg: torch.Tensor, slot: torch.Tensor, n: int):
    """Flat per-row ``values`` as an ``(n, width)`` table, ``-inf`` where no row is."""
    out = torch.full((n, int(slot.max()) + 1), -torch.inf, dtype=values.dtype,
                     device=values.device)
    out[seg, slot] = values
    return out


def _losses(net, data: TeacherGames, index: np.ndarray, temperature: float):
    """Actor cross-entropy to the soft target, critic squared error, and how many
    decisions the actor's argmax agrees with the teacher's on."""
    device = next(net.parameters()).device
    x, eq, seg, slot = (t.to(device) for t in data.batch(index))
    logits, q = net.candidate_outputs(x)
    target = torch.softmax(_padded(eq / temperature, seg, slot, len(index)), dim=-1)
    logp = torch.log_softmax(_padded(logits, seg, slot, len(index)), dim=-1)
    valid = target > 0
    actor = -torch.where(valid, target * logp, torch.zeros_like(logp)).sum(-1).mean()
    critic = torch.mean((q - eq) ** 2)
    agree = (logp.argmax(-1) == target.argmax(-1)).sum().item()
    return actor, critic, agree


def fit(net, data: TeacherGames, epochs: int, temperature: float = 0.05, lr: float = 3e-3,
        batch_size: int = 256, vf_coef: float = 0.5, seed: int = 0,
        progress: bool = False) -> list[dict]:
    """Fit ``net`` (a :class:`~agents.training.ppo_policy.CandidateNet`) to the teacher's
    decisions for ``epochs`` passes; returns each epoch's mean losses and agreement."""
    optimiser = torch.optim.Adam(net.parameters(), lr=lr)
    gen = torch.Generator().manual_seed(seed)
    history = []
    for epoch in _progress(range(epochs), progress, "kickstart: fitting", "epoch"):
        order = torch.randperm(data.decisions, generator=gen).numpy()
        sums = np.zeros(3)
        for start in range(0, data.decisions, batch_size):
            index = order[start:start + batch_size]
            actor, critic, agree = _losses(net, data, index, temperature)
            optimiser.zero_grad()
            (actor + vf_coef * critic).backward()
            optimiser.step()
            sums += [actor.item() * len(index), critic.item() * len(index), agree]
        entry = dict(zip(("actor_loss", "critic_mse", "agreement"),
                         (sums / data.decisions).tolist()), epoch=epoch + 1)
        logger.info("kickstart epoch %d: actor loss %.4f, critic mse %.4f, agreement %.1f%%",
                    epoch + 1, entry["actor_loss"], entry["critic_mse"],
                    100 * entry["agreement"])
        history.append(entry)
    return history


def agreement(score, data: TeacherGames, batch_size: int = 1024) -> float:
    """The share of ``data``'s decisions on which ``score`` (a function of ``(M, 201)``
    rows to ``(M,)`` or ``(M, 1)`` scores, e.g. a PPO actor) picks the teacher's play."""
    agree = 0
    with torch.no_grad():
        for start in range(0, data.decisions, batch_size):
            index = np.arange(start, min(start + batch_size, data.decisions))
            x, eq, seg, slot = data.batch(index)
            s = score(x).reshape(-1).cpu()
            agree += (_padded(s, seg, slot, len(index)).argmax(-1)
                      == _padded(eq, seg, slot, len(index)).argmax(-1)).sum().item()
    return agree / max(data.decisions, 1)


def kickstart(net, teacher: str, games: int, epochs: int, temperature: float, lr: float,
              batch_size: int, vf_coef: float, max_candidates: int, seed: int,
              progress: bool = False) -> dict:
    """The whole stage: load the ``teacher`` spec, record its games, fit ``net``; returns
    a summary (games, decisions, the last epoch's losses and agreement)."""
    agent = load_teacher(teacher)
    data = teacher_games(agent, games, max_candidates, seed=seed, progress=progress)
    logger.info("kickstart: %d teacher games, %d decisions, %d candidate rows",
                games, data.decisions, len(data.equities))
    history = fit(net, data, epochs, temperature, lr, batch_size, vf_coef, seed, progress)
    return {"teacher": teacher, "games": games, "decisions": data.decisions,
            **(history[-1] if history else {})}


# ------------------------------------------------------------------ during PPO
def teacher_equity(teacher):
    """``rows -> equity``: the teacher's equity (for the mover) of ``(M, N_FEATURES)``
    candidate rows, from a teacher with a TD network ``net`` (:class:`~agents.players.td.TDAgent`),
    whose 200 inputs are the rows' first 200 columns.

    Raises:
        ConfigError: the teacher has no ``net`` (the message names ``kickstart``).
    """
    from ..players.td import N_FEATURES as TD_FEATURES
    from ..players.td import numpy_equity

    net = getattr(teacher, "net", None)
    if not callable(net):
        raise ConfigError(f"kickstart_weight: the teacher {getattr(teacher, 'name', teacher)!r} "
                          f"has no TD network (net) to rate the rollout's states")

    def equity(rows: torch.Tensor) -> torch.Tensor:
        with torch.no_grad():
            x = rows[:, :TD_FEATURES].detach().to("cpu", torch.float32).contiguous()
            return torch.from_numpy(numpy_equity(net(x).numpy())).to(rows.device)

    return equity


class Distillation:
    """The kickstarting loss during PPO (module docstring, 3), hooked on ``model``'s
    policy optimiser when made; :meth:`remove` unhooks it.

    Args:
        model: a MaskablePPO with a :class:`~agents.training.ppo_policy.CandidatePolicy`.
        equity: the teacher, as :func:`teacher_equity` returns it.
        weight: the loss's weight at step 0.
        halflife: steps (``model.num_timesteps``) over which the weight halves (0: constant).
        temperature: the target is ``softmax(equity / temperature)``.
        batch_size: states per distillation minibatch.
        seed: seed of the minibatch draws.
    """

    def __init__(self, model, equity, weight: float, halflife: int, temperature: float,
                 batch_size: int, seed: int = 0) -> None:
        self.model, self.equity = model, equity
        self.start_weight, self.halflife, self.temperature = weight, halflife, temperature
        self.batch_size = batch_size
        self.rng = np.random.default_rng(seed)
        self.history: list[dict] = []
        """Each hooked step's ``steps``, ``weight`` and ``kl`` (the loss before weighting)."""
        self._handle = model.policy.optimizer.register_step_pre_hook(self._before_step)

    def weight(self, steps: int) -> float:
        """The loss's weight after ``steps`` steps."""
        if not self.halflife:
            return self.start_weight
        return self.start_weight * 0.5 ** (steps / self.halflife)

    def remove(self) -> None:
        self._handle.remove()

    def loss(self, obs: torch.Tensor) -> torch.Tensor:
        """The mean KL divergence of the policy from the teacher's soft target over the
        ``(B, K * N_FEATURES)`` observations ``obs`` (states with no candidate skipped)."""
        policy = self.model.policy
        rows = obs.reshape(len(obs), -1, N_FEATURES).float()
        rows = rows[(rows[..., PRESENT] > 0.5).any(-1)]
        valid = rows[..., PRESENT] > 0.5
        target_logits = torch.full(valid.shape, -torch.inf, device=rows.device)
        target_logits[valid] = self.equity(rows[valid]) / self.temperature
        target = torch.softmax(target_logits, dim=-1)
        logp = torch.log_softmax(policy.mlp_extractor.forward_actor(rows), dim=-1)
        log_target = torch.log_softmax(target_logits, dim=-1)
        zero = torch.zeros_like(logp)
        kl = torch.where(valid, target * (log_target - logp), zero).sum(-1)
        return kl.mean()

    def sample(self) -> torch.Tensor:
        """A minibatch of the current rollout's observations, drawn with ``rng``."""
        buffer = self.model.rollout_buffer
        obs = buffer.observations.reshape(-1, buffer.observations.shape[-1])
        index = self.rng.integers(len(obs), size=min(self.batch_size, len(obs)))
        return torch.as_tensor(obs[index], device=self.model.policy.device)

    def _before_step(self, optimizer, args, kwargs) -> None:
        steps = self.model.num_timesteps
        weight = self.weight(steps)
        if weight <= 0:
            return
        kl = self.loss(self.sample())
        (weight * kl).backward()
        self.history.append({"steps": steps, "weight": weight, "kl": kl.item()})
        self.model.logger.record_mean("train/kickstart_kl", kl.item())
        self.model.logger.record("train/kickstart_weight", weight)


def init_policy(model, path: str) -> None:
    """Load the policy weights of the trainer's ``.zip`` at ``path`` into ``model``.

    Raises:
        ConfigError: no such file, not a model archive, or another network's shape
            (the message names ``init`` and the file).
    """
    from stable_baselines3.common.save_util import load_from_zip_file

    try:
        _, params, _ = load_from_zip_file(path, load_data=False, device=model.device)
        model.policy.load_state_dict(params["policy"])
    except (OSError, ValueError, KeyError, RuntimeError, zipfile.BadZipFile) as exc:
        raise ConfigError(f"init={path!r}: not a policy of this shape "
                          f"({type(exc).__name__}: {str(exc).splitlines()[0][:200]})") from None
