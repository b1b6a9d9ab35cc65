"""Search distillation for the TD network (``bg-env train td_distill``: ``agents/configs/td_distill.yaml``).

The 0-ply TD network is made to predict what its own one-roll lookahead (``td:2ply``,
:mod:`agents.players.td_search`) says, round after round: the lookahead plays better than the
network alone, so its values are better targets than the network's own (the idea behind
training on search results, as in expert iteration; GNU Backgammon's nets were trained on
deeper evaluations in the same spirit).

One round:

1. **Label.** ``games`` self-play games with the current network at 0-ply (cubeless money
   play). At every decision with a choice, the ``top_k`` plays the network rates best are
   labelled with :func:`agents.players.td_search.search_values`: the average, over the opponent's
   21 rolls, of the five outputs after his best reply.
2. **Fit.** ``epochs`` passes of Adam on the mean squared error between the network's
   outputs for those afterstates and their labels (mini-batches of ``batch_size``).
3. **Evaluate** against ``eval_opponents``, write ``round<N>.pt``, the report and an atomic
   checkpoint. ``--resume`` goes on after the last finished round (a round cut short is
   played again from its start).

Before the first round the ``init`` network may be widened to ``hidden`` units by
net2net (Chen et al. 2016): the new units copy existing ones and the copies share their
outgoing weights, so the widened network computes the same function (tested) and the extra
units only start to differ as it learns.

Game ``g`` of round ``r`` rolls its dice from ``default_rng([seed, r, g])`` and is labelled
with the weights the round started with, so a run is the same run again for any number of
``workers`` (the processes that play and label; the fit runs in this process).
"""

from __future__ import annotations

import itertools
import json
import logging
import os
import time
from dataclasses import asdict, dataclass
from typing import Iterator

import numpy as np
import torch

from bg_env.game.game import Game, Phase, Rules

from ..config import (MAX_COUNT, MAX_HIDDEN, MAX_PROCESSES, MAX_SEED, ConfigError,
                      refuse_rewind, require_at_least, require_at_most)
from .device import DEVICES, resolve_device
from ..players.model_files import load_torch_file, save_torch_file, write_json
from .report import write_report
from ..players.td import TDNet, load_net, net_from_header, net_header, numpy_equity, plays_features, save_net
from ..players.td_features import EQUITY_WEIGHTS
from ..players.td_inputs import N_EXTRA
from ..players.td_search import search_values
from .train_td import evaluate_net, log_eval, worker_net, worker_pool

__all__ = ["DistillConfig", "train_distill", "label_game", "label_decisions", "widen", "add_extras",
           "fit", "decision_batches", "rank_loss"]

logger = logging.getLogger(__name__)


@dataclass
class DistillConfig:
    """Settings of a search-distillation run (mirrored by ``agents/configs/td_distill.yaml``)."""

    algo: str = "td_distill"
    """Which trainer reads this file."""
    run_dir: str = "runs/td_distill"
    """Folder for the rounds' networks, the checkpoint, the report and the learning curve."""
    init: str = ""
    """The TD network file to improve (read weights-only); empty: the shipped
    ``agents/models/td.pt``."""
    hidden: int = 480
    """Hidden units of the trained network: the ``init`` network's or more (net2net)."""
    extras: bool = True
    """Give the network the hand-made inputs of :mod:`agents.players.td_inputs` (shots, pips lost
    to a hit, primes, entering) before the first round, their weights at zero (the same
    function at the start); an ``init`` network that reads them keeps them either way."""
    rounds: int = 3
    """Rounds of label-then-fit."""
    games: int = 8000
    """Self-play games labelled per round."""
    top_k: int = 5
    """Plays labelled per decision: the network's best ones at 0-ply."""
    epochs: int = 8
    """Passes over a round's labels."""
    lr: float = 3e-4
    """Adam learning rate (a fresh optimizer each round)."""
    batch_size: int = 256
    """Afterstates per Adam step."""
    seed: int = 0
    """Seed of the dice, the widening and the mini-batch order."""
    workers: int = 1
    """Processes that play and label the games."""
    eval_games: int = 1000
    """Games against each opponent after each round."""
    eval_opponents: list = None  # type: ignore[assignment]
    """Agent specs to evaluate against (default: pubeval)."""
    torch_threads: int = 1
    """Threads torch may use in this process (each worker uses one)."""
    device: str = "cpu"
    """Where the network is fitted: ``cpu``, ``cuda`` or ``auto``; labelling is on the CPU."""

    layers = 1  # (not a setting: the widening and the workers' networks are one-layer)

    def __post_init__(self) -> None:
        if self.eval_opponents is None:
            self.eval_opponents = ["pubeval"]
        if self.algo != "td_distill":
            raise ValueError(f"algo={self.algo!r}: this trainer is for 'td_distill'")
        if not self.lr > 0:
            raise ValueError(f"lr={self.lr}: expected a positive learning rate")
        require_at_least(self, 0, "seed")
        require_at_least(self, 1, "hidden", "rounds", "games", "top_k", "epochs",
                         "batch_size", "workers", "eval_games", "torch_threads")
        require_at_most(self, MAX_COUNT, "rounds", "games", "eval_games")
        require_at_most(self, MAX_SEED, "seed")
        require_at_most(self, MAX_PROCESSES, "workers", "torch_threads")
        require_at_most(self, MAX_HIDDEN, "hidden",
                        why="a network that size does not fit in memory")
        if self.device not in DEVICES:
            raise ValueError(f"device={self.device!r}: expected one of {list(DEVICES)}")


# ------------------------------------------------------------------ the network
def widen(net: TDNet, hidden: int, generator: torch.Generator) -> TDNet:
    """A one-layer ``net`` with ``hidden`` units computing the same function (net2net):
    each new unit copies a unit drawn from ``generator``, and every copied unit's outgoing
    weights are divided among its copies.

    Raises:
        ValueError: ``net`` has more than one hidden layer, or more than ``hidden`` units.
    """
    if net.layers != 1:
        raise ValueError(f"widen: the network has {net.layers} hidden layers; only one-layer "
                         f"networks are widened")
    if hidden < net.hidden:
        raise ValueError(f"hidden={hidden}: the network to widen already has {net.hidden} "
                         f"units (set hidden to {net.hidden} or more)")
    source = torch.cat([torch.arange(net.hidden),
                        torch.randint(net.hidden, (hidden - net.hidden,), generator=generator)])
    share = torch.bincount(source, minlength=net.hidden).to(torch.float32)[source]
    first, last = net.body[0], net.body[2]
    wide = TDNet(hidden, 1, net.extras)
    with torch.no_grad():
        wide.body[0].weight.copy_(first.weight[source])
        wide.body[0].bias.copy_(first.bias[source])
        wide.body[2].weight.copy_(last.weight[:, source] / share)
        wide.body[2].bias.copy_(last.bias)
    return wide


def add_extras(net: TDNet) -> TDNet:
    """``net`` reading the hand-made inputs of :mod:`agents.players.td_inputs` too, computing the
    same function: their first-layer weights start at zero.

    Raises:
        ValueError: ``net`` already reads them.
    """
    if net.extras:
        raise ValueError("add_extras: the network already reads the hand-made inputs")
    more = TDNet(net.hidden, net.layers, extras=True)
    weights = net.state_dict()
    first = weights["body.0.weight"]
    weights["body.0.weight"] = torch.cat(
        [first, torch.zeros(first.shape[0], N_EXTRA, dtype=first.dtype)], dim=1)
    more.load_state_dict(weights)
    return more


# ------------------------------------------------------------------ labels
def label_decisions(net: TDNet, rng: np.random.Generator, top_k: int, plies: int = 1,
                    leaves: int | None = None) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """Play one cubeless self-play game with ``net`` at 0-ply, labelling each decision.

    Yields:
        ``(features, labels)`` of each decision in turn: the network inputs of its
        ``top_k`` best plays (0-ply, best first; one row when there is one play) and their
        :func:`~agents.players.td_search.search_values` with ``plies`` rolls of lookahead (five
        outputs, the mover's view; ``leaves``: the last roll's replies pruned by pubeval,
        :func:`~agents.players.td_search.lookahead_values`).
    """
    game = Game(Rules(cube=False))
    game.opening(rng)
    while game.phase != Phase.OVER:
        plays = game.legal_continuations()
        x = plays_features(plays)
        with torch.inference_mode():
            equity = numpy_equity(net(torch.from_numpy(x)).numpy())
        best = np.argsort(-equity, kind="stable")[:top_k]
        yield x[best], search_values(net, [plays[i] for i in best], plies, leaves)
        game.play(plays[int(best[0])], rng)


def label_game(net: TDNet, rng: np.random.Generator, top_k: int) -> tuple[np.ndarray, np.ndarray]:
    """One game of :func:`label_decisions`, its decisions' rows one after another."""
    xs, ys = zip(*label_decisions(net, rng, top_k))
    return np.concatenate(xs), np.concatenate(ys)


def _label_games(weights: dict, round_no: int, game_nos: list[int], seed: int,
                 top_k: int) -> tuple[np.ndarray, np.ndarray]:  # pragma: no cover (a worker)
    net = worker_net()
    net.load_state_dict(weights)
    return _labels_of(net, round_no, game_nos, seed, top_k)


def _labels_of(net: TDNet, round_no: int, game_nos: list[int], seed: int,
               top_k: int) -> tuple[np.ndarray, np.ndarray]:
    parts = [label_game(net, np.random.default_rng([seed, round_no, g]), top_k) for g in game_nos]
    return np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])


def _labels(net: TDNet, cfg: DistillConfig, round_no: int, pool,
            bar) -> tuple[np.ndarray, np.ndarray]:
    """A round's labels, in game order, from this process or the ``pool``'s workers."""
    chunks = [list(range(g, min(g + 25, cfg.games))) for g in range(0, cfg.games, 25)]
    if pool is None:
        results: Iterator = (_labels_of(net, round_no, c, cfg.seed, cfg.top_k) for c in chunks)
    else:
        weights = {k: v.detach().cpu().clone() for k, v in net.state_dict().items()}
        futures = [pool.submit(_label_games, weights, round_no, c, cfg.seed, cfg.top_k)
                   for c in chunks]
        results = (f.result() for f in futures)
    xs, ys = [], []
    for chunk, (x, y) in zip(chunks, results):
        xs.append(x)
        ys.append(y)
        if bar:
            bar.update(len(chunk))
    return np.concatenate(xs), np.concatenate(ys)


# ------------------------------------------------------------------ fit
def fit(net: TDNet, x: np.ndarray, y: np.ndarray, cfg: DistillConfig, round_no: int,
        device: str, starts: np.ndarray | None = None, rank_weight: float = 0.0) -> float:
    """``cfg.epochs`` passes of Adam over ``(x, y)`` in an order drawn from
    ``(seed, round)``; returns the last epoch's mean loss.

    With ``rank_weight`` the rows are decisions' plays (decision ``i``'s rows run from
    ``starts[i]`` to the next start), each batch holds whole decisions (about
    ``cfg.batch_size`` rows), and the loss adds ``rank_weight`` times :func:`rank_loss`:
    what decides a play is how the network orders a decision's plays, which the squared
    error of each row alone weighs no more than their common level."""
    if rank_weight and starts is None:
        raise ValueError("rank_weight needs the decisions' first rows (starts)")
    opt = torch.optim.Adam(net.parameters(), lr=cfg.lr)
    order = torch.Generator().manual_seed(cfg.seed * 1000 + round_no)
    xt = torch.from_numpy(net.layer_inputs(x)).to(device)  # the hand-made inputs once
    yt = torch.from_numpy(y).to(device)
    net.train()
    for epoch in range(cfg.epochs):
        if rank_weight:
            batches = decision_batches(starts, len(xt), cfg.batch_size, order)
        else:
            perm = torch.randperm(len(xt), generator=order)
            batches = ((perm[i:i + cfg.batch_size], None)
                       for i in range(0, len(xt), cfg.batch_size))
        total = 0.0
        for rows, segment in batches:
            rows = rows.to(device)
            out = net.body(xt[rows])
            loss = torch.nn.functional.mse_loss(out, yt[rows])
            if rank_weight:
                loss = loss + rank_weight * rank_loss(out, yt[rows], segment.to(device))
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item() * len(rows)
        logger.info("round %d epoch %d: loss %.6f", round_no, epoch + 1, total / max(len(xt), 1))
    net.eval()
    return total / max(len(xt), 1)


def decision_batches(starts: np.ndarray, n_rows: int, batch_size: int,
                     generator: torch.Generator) -> Iterator[tuple[torch.Tensor, torch.Tensor]]:
    """The rows of decisions (``starts``, each to the next start or ``n_rows``) in an order
    drawn from ``generator``, as batches of whole decisions: ``(rows, segment)``, the
    batch's row indices and each row's decision numbered from 0 within the batch. The
    decisions whose first row falls in rows ``[k * batch_size, (k + 1) * batch_size)`` of
    the shuffled order make one batch."""
    lengths = np.diff(np.r_[starts, n_rows])
    perm = torch.randperm(len(starts), generator=generator).numpy()
    length = lengths[perm]
    begin = np.cumsum(length) - length  # where each decision begins in the new order
    rows = np.repeat(starts[perm] - begin, length) + np.arange(n_rows)
    decision = np.repeat(np.arange(len(perm)), length)
    batch = np.repeat(begin // batch_size, length)
    cuts = np.flatnonzero(np.r_[True, batch[1:] != batch[:-1], True])
    for a, b in itertools.pairwise(cuts):
        yield torch.from_numpy(rows[a:b]), torch.from_numpy(decision[a:b] - decision[a])


def rank_loss(out: torch.Tensor, y: torch.Tensor, segment: torch.Tensor) -> torch.Tensor:
    """Mean squared error of the rows' equities measured from their decision's mean
    equity (``segment``: each row's decision, numbered from 0): zero when the network
    orders and spaces every decision's plays as the labels do, whatever their level."""
    w = torch.from_numpy(EQUITY_WEIGHTS).to(out.device)
    n = int(segment.max()) + 1
    gap = out @ w - y @ w
    count = torch.zeros(n, device=out.device).index_add_(0, segment, torch.ones_like(gap))
    mean = torch.zeros(n, device=out.device).index_add_(0, segment, gap) / count
    return ((gap - mean[segment]) ** 2).mean()


# ------------------------------------------------------------------ the run
def train_distill(cfg: DistillConfig, resume: bool = False, progress: bool = True) -> dict:
    """Run the rounds, evaluate and report; returns the last round's evaluation.

    Raises:
        FileNotFoundError, ModelFileError: ``init`` (or, with ``resume``, the checkpoint)
            is missing or not a TD network (named).
        ConfigError: ``hidden`` is below the ``init`` network's, or ``resume`` would rewind.
    """
    torch.set_num_threads(cfg.torch_threads)
    device = resolve_device(cfg.device)
    ckpt_path = os.path.join(cfg.run_dir, "checkpoint.pt")
    done, history, clock = 0, [], 0.0
    if resume:
        net, done, history, clock = _resume(ckpt_path, cfg)
    else:
        net = _start(cfg)
    os.makedirs(cfg.run_dir, exist_ok=True)
    write_json(os.path.join(cfg.run_dir, "config.json"), asdict(cfg))
    t0 = time.time()
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=cfg.rounds * cfg.games, initial=done * cfg.games,
                   desc="td_distill labelled", unit="game")
    pool = worker_pool(cfg.workers, net) if cfg.workers > 1 else None
    try:
        for round_no in range(done + 1, cfg.rounds + 1):
            x, y = _labels(net, cfg, round_no, pool, bar)
            loss = fit(net.to(device), x, y, cfg, round_no, device)  # (in place)
            net.cpu()
            seconds = clock + time.time() - t0
            entry = {"games": round_no * cfg.games, "seconds": seconds, "round": round_no,
                     "labels": int(len(x)), "loss": loss,
                     **evaluate_net(net, cfg.eval_opponents, cfg.eval_games, 20_000 + round_no)}
            history.append(entry)
            log_eval(entry, None)
            save_net(net, os.path.join(cfg.run_dir, f"round{round_no}.pt"))
            _checkpoint(ckpt_path, net, round_no, history, seconds)
            write_report(cfg.run_dir, "TD search distillation", asdict(cfg), history)
    finally:
        if pool is not None:
            pool.shutdown(cancel_futures=True)
        if bar:
            bar.close()
    save_net(net, os.path.join(cfg.run_dir, "model.pt"))
    return history[-1] if history else {}


def _start(cfg: DistillConfig) -> TDNet:
    from .. import MODELS_DIR

    path = cfg.init or os.path.join(MODELS_DIR, "td.pt")
    net = load_net(path)
    if net.layers != 1 or cfg.hidden < net.hidden:
        raise ConfigError(f"init={path!r} has hidden={net.hidden}, layers={net.layers}; "
                          f"hidden={cfg.hidden} must be {net.hidden} or more and the network "
                          f"one-layer")
    net = widen(net, cfg.hidden, torch.Generator().manual_seed(cfg.seed))
    return (add_extras(net) if cfg.extras and not net.extras else net).eval()


def _checkpoint(path: str, net: TDNet, round_no: int, history: list, seconds: float) -> None:
    save_torch_file({**net_header(net), "state_dict": net.state_dict(), "rounds": round_no,
                     "seconds": seconds,
                     "history": json.loads(json.dumps(history))}, path)  # plain: weights-only


def _resume(path: str, cfg: DistillConfig) -> tuple[TDNet, int, list, float]:
    """The checkpoint's network, rounds done, history and seconds.

    Raises:
        FileNotFoundError: no checkpoint (named).
        ConfigError: ``rounds`` below the rounds done, or another ``hidden``.
    """
    if not os.path.exists(path):
        raise FileNotFoundError(f"--resume: no checkpoint at {path!r}")
    blob = load_torch_file(path, "td_distill checkpoint")
    done = int(blob["rounds"])
    refuse_rewind(path, done, "rounds", cfg.rounds, "rounds")
    if blob["hidden"] != cfg.hidden:
        raise ConfigError(f"--resume: {path!r} holds a network of hidden={blob['hidden']}, "
                          f"the config hidden={cfg.hidden}")
    net = net_from_header(blob)
    net.load_state_dict(blob["state_dict"])
    return net.eval(), done, list(blob["history"]), float(blob["seconds"])
