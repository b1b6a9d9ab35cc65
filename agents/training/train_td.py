"""Training the TD-Gammon baseline by self-play (``bg-env train td``: ``agents/configs/td.yaml``).

Reads top to bottom: settings, self-play of one game, the lambda-return targets, where
the games come from (this process, or worker processes), the training loop with progress
bar, periodic evaluation (report + learning curve), atomic checkpoints and ``--resume``. The method is described in :mod:`agents.players.td`.

Workers (``workers: N``, ``bg-env train configs/td.yaml --workers N``): N processes play
the self-play games, each with a copy of the learner's current weights, and send their
afterstates and lambda-targets to the one learner. They play in rounds of
``N * batch_games`` games, all with the weights at the start of the round, so the learner
makes N updates per round, the later ones on targets up to N - 1 updates old. Game
number ``g`` rolls its dice from ``default_rng([seed, g])``, so a run with workers is the
same run again with the same seed and N, and ``--resume`` from a checkpoint taken at the
end of a round continues it exactly (``checkpoint_every`` a multiple of the round). With one
worker the games come from one generator in the learner's process, as before.

Device (``device``): the learner's network and its updates live there; self-play and
evaluation always use a CPU copy, refreshed after each update.
"""

from __future__ import annotations

import json
import logging
import os
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass
from typing import Iterator

import numpy as np
import torch

from bg_env.game.game import Game, Phase, Rules

from ..config import (MAX_COUNT, MAX_HIDDEN, MAX_LAYERS, MAX_PROCESSES, MAX_SEED, ConfigError,
                      refuse_rewind, require_at_least, require_at_most)
from .device import DEVICES, resolve_device
from ..players.model_files import load_torch_file, save_torch_file, write_json
from ..processes import new_pool
from .report import write_report
from ..players.td import (
    TDAgent, TDNet, flip_outputs, load_net, net_from_header, net_header, plays_features,
    numpy_equity, position_features, save_net, terminal_target,
)

__all__ = ["TDConfig", "train_td", "self_play_game", "game_stream", "worker_pool", "worker_net",
           "evaluate_net", "log_eval"]

logger = logging.getLogger(__name__)


@dataclass
class TDConfig:
    """Settings of a TD-Gammon training run (mirrored by ``agents/configs/td.yaml``)."""

    algo: str = "td"
    """Which trainer reads this file."""
    run_dir: str = "runs/td"
    """Folder for checkpoints, logs, the report and the learning curve."""
    games: int = 20000
    """Self-play games to train on."""
    hidden: int = 80
    """Hidden units per layer."""
    layers: int = 1
    """Hidden layers."""
    extras: bool = False
    """The network also reads the hand-made inputs of :mod:`agents.players.td_inputs` (shots,
    pips lost to a hit, primes, entering); an ``init`` network must match."""
    lam: float = 0.7
    """TD(lambda)'s lambda."""
    lr: float = 0.001
    """Adam learning rate."""
    batch_games: int = 4
    """Games per update (a batch also ends at each checkpoint, so that a resumed run loses
    no games and goes on as the run without the stop)."""
    epsilon: float = 0.0
    """Chance of a random play during self-play (exploration); TD-Gammon used none."""
    seed: int = 0
    """Seed of the self-play dice, exploration and network initialisation."""
    eval_every: int = 2000
    """Evaluate every this many games (0 = only at the end)."""
    eval_games: int = 200
    """Games per evaluation against each opponent."""
    eval_opponents: list = None  # type: ignore[assignment]
    """Agent specs to evaluate against (default: random and pubeval)."""
    checkpoint_every: int = 1000
    """Write a checkpoint every this many games."""
    final_eval_games: int = 0
    """Games of the final evaluation (0 = eval_games)."""
    torch_threads: int = 1
    """Threads torch may use in the learner's process (each worker uses one)."""
    workers: int = 1
    """Processes playing the self-play games (1: the learner's own; see the module doc)."""
    device: str = "cpu"
    """Where the network learns: ``cpu``, ``cuda`` or ``auto`` (cuda when available)."""
    init: str = ""
    """A TD model file to start from (fine-tuning, e.g. ``agents/models/td.pt`` at a lower
    ``lr``): its weights, not its optimizer state; its ``hidden`` and ``layers`` must be the
    config's. Empty: a fresh network from ``seed``. Ignored by ``--resume``."""

    def __post_init__(self) -> None:
        if self.eval_opponents is None:
            self.eval_opponents = ["random", "pubeval"]
        if self.algo != "td":
            raise ValueError(f"algo={self.algo!r}: this trainer is for 'td'")
        if not 0.0 <= self.lam <= 1.0:
            raise ValueError(f"lam={self.lam}: expected 0..1")
        if not 0.0 <= self.epsilon <= 1.0:
            raise ValueError(f"epsilon={self.epsilon}: expected 0..1")
        if not self.lr > 0:
            raise ValueError(f"lr={self.lr}: expected a positive learning rate")
        require_at_least(self, 1, "games", "hidden", "layers", "batch_games", "eval_games",
                         "checkpoint_every", "torch_threads")
        require_at_least(self, 0, "seed", "eval_every", "final_eval_games")
        require_at_most(self, MAX_COUNT, "games", "eval_games", "final_eval_games", "checkpoint_every", "eval_every")
        require_at_most(self, MAX_SEED, "seed")
        require_at_most(self, MAX_PROCESSES, "workers", "torch_threads")
        require_at_most(self, MAX_HIDDEN, "hidden",
                        why="a network that size does not fit in memory")
        require_at_most(self, MAX_LAYERS, "layers")
        if self.workers < 1:
            raise ValueError(f"workers={self.workers}: expected 1 or more")
        if self.device not in DEVICES:
            raise ValueError(f"device={self.device!r}: expected one of {list(DEVICES)}")


def self_play_game(net: TDNet, rng: np.random.Generator, epsilon: float = 0.0):
    """Play one cubeless game with ``net`` on both sides.

    Returns:
        ``(x, v, sides, result)``: the features of each afterstate (mover's view), the
        network's outputs for them when chosen, the side that moved, and the game result.
        Sides need not alternate: a turn with one legal play (or none) is played by the
        game without a decision and leaves no afterstate; the last afterstate is always
        the winner's (the final board when the winning play was forced).
    """
    game = Game(Rules(cube=False))
    game.opening(rng)
    xs, vs, sides = [], [], []
    while game.phase != Phase.OVER:
        plays = game.legal_continuations()
        x = plays_features(plays)
        with torch.inference_mode():
            v = net(torch.from_numpy(x)).numpy()
        if epsilon and rng.random() < epsilon:
            i = int(rng.integers(len(plays)))
        else:
            i = int(np.argmax(numpy_equity(v)))
        xs.append(x[i])
        vs.append(v[i])
        sides.append(game.turn)
        game.play(plays[i], rng)
    if not sides or sides[-1] != game.result.winner:  # the winning play had no choice
        x = position_features([game.position])  # (the end, from the winner's side)
        with torch.inference_mode():
            v = net(torch.from_numpy(x)).numpy()
        xs.append(x[0])
        vs.append(v[0])
        sides.append(game.result.winner)
    return np.stack(xs), torch.from_numpy(np.stack(vs)), sides, game.result


def lambda_targets(v: torch.Tensor, kind: str, lam: float, sides: list[int] | None = None) -> torch.Tensor:
    """Lambda-returns for a game's afterstates; the last one is the winner's.

    Args:
        v: the network's outputs for the afterstates, each from its mover's side.
        kind: how the game ended (``single``/``gammon``/``backgammon``).
        lam: lambda.
        sides: the side that made each afterstate (default: alternating). A value is
            flipped when passed between afterstates of different sides.
    """
    n = v.shape[0]
    sides = sides if sides is not None else [(n - 1 - t) % 2 for t in range(n)]
    targets = torch.empty_like(v)
    g = torch.tensor(terminal_target(kind), dtype=v.dtype)
    targets[n - 1] = g
    for t in range(n - 2, -1, -1):
        g = (1 - lam) * v[t + 1] + lam * g
        if sides[t] != sides[t + 1]:
            g = flip_outputs(g)
        targets[t] = g
    return targets


# ------------------------------------------------------------------ where the games come from
def _games_here(net: TDNet, cfg: TDConfig, rng: np.random.Generator,
                first: int) -> Iterator[tuple[int, np.ndarray, torch.Tensor]]:
    """Games ``first, first + 1, ...`` played in this process with ``net`` as it is when
    each game starts: ``(game number, afterstate features, targets)``."""
    for game_no in range(first, cfg.games + 1):
        x, v, sides, result = self_play_game(net, rng, cfg.epsilon)
        yield game_no, x, lambda_targets(v, result.outcome, cfg.lam, sides)


_WORKER_NET: TDNet | None = None


def _start_worker(header: dict) -> None:  # pragma: no cover (a child process)
    global _WORKER_NET
    torch.set_num_threads(1)
    _WORKER_NET = net_from_header(header)


def worker_net() -> TDNet:  # pragma: no cover (a child process)
    """The network of this worker process (made by :func:`worker_pool`'s initializer)."""
    return _WORKER_NET


def _play_games(weights: dict, game_nos: list[int], seed: int, epsilon: float,
                lam: float) -> list[tuple[int, np.ndarray, np.ndarray]]:  # pragma: no cover
    """In a worker: games ``game_nos`` with ``weights``, each its own seeded dice."""
    _WORKER_NET.load_state_dict(weights)
    out = []
    for game_no in game_nos:
        rng = np.random.default_rng([seed, game_no])
        x, v, sides, result = self_play_game(_WORKER_NET, rng, epsilon)
        out.append((game_no, x, lambda_targets(v, result.outcome, lam, sides).numpy()))
    return out


def _games_in_workers(net: TDNet, cfg: TDConfig, pool: ProcessPoolExecutor,
                      first: int) -> Iterator[tuple[int, np.ndarray, torch.Tensor]]:
    """Games ``first, ...`` played by the workers in rounds (see the module docstring)."""
    game_no = first
    while game_no <= cfg.games:
        weights = {k: v.detach().cpu().clone() for k, v in net.state_dict().items()}
        chunks = []
        for _ in range(cfg.workers):
            chunk = list(range(game_no, min(game_no + cfg.batch_games, cfg.games + 1)))
            if chunk:
                chunks.append(chunk)
            game_no += len(chunk)
        futures = [pool.submit(_play_games, weights, chunk, cfg.seed, cfg.epsilon, cfg.lam)
                   for chunk in chunks]
        for future in futures:
            for number, x, targets in future.result():
                yield number, x, torch.from_numpy(targets)


def worker_pool(workers: int, net: TDNet) -> ProcessPoolExecutor:
    """``workers`` processes ready to play (started by the first games asked), each with a
    network of ``net``'s shape (:func:`~agents.players.td.net_header`; :func:`worker_net`) that
    takes the weights it is sent."""
    return new_pool(workers, _start_worker, (net_header(net),))


def game_stream(net: TDNet, cfg: TDConfig, rng: np.random.Generator, first: int,
                pool: ProcessPoolExecutor | None = None
                ) -> Iterator[tuple[int, np.ndarray, torch.Tensor]]:
    """The self-play games a run trains on, from game ``first`` to ``cfg.games``:
    ``(game number, afterstate features, lambda-targets)``, played with ``net`` as it is
    when each game (here, with ``rng``) or each round (in the ``pool``'s workers) starts."""
    if pool is None:
        return _games_here(net, cfg, rng, first)
    return _games_in_workers(net, cfg, pool, first)


def evaluate_net(net: TDNet, opponents: list[str], games: int, seed: int) -> dict:
    """``net`` at 0-ply against each agent spec of ``opponents``: ``{spec: summary}``;
    ``net`` is left in training mode."""
    from .. import load_agent
    from ..evaluation.evaluate import evaluate

    agent = TDAgent(net)
    out = {}
    for spec in opponents:
        stats = evaluate(agent, load_agent(spec), games=games, seed=seed)
        out[spec] = stats.summary()
    net.train()
    return out


def train_td(cfg: TDConfig, resume: bool = False, progress: bool = True) -> dict:
    """Train, evaluate and report; returns the final evaluation."""
    torch.set_num_threads(cfg.torch_threads)
    device = resolve_device(cfg.device)
    ckpt_path = os.path.join(cfg.run_dir, "checkpoint.pt")
    torch.manual_seed(cfg.seed)
    player = TDNet(cfg.hidden, cfg.layers, cfg.extras)  # plays and evaluates, on the CPU
    if cfg.init and not resume:
        player.load_state_dict(_initial_weights(cfg))
    net = player if device == "cpu" else TDNet(cfg.hidden, cfg.layers, cfg.extras).to(device)
    net.load_state_dict(player.state_dict())
    opt = torch.optim.Adam(net.parameters(), lr=cfg.lr)
    rng = np.random.default_rng(cfg.seed)
    start, history, clock = 0, [], 0.0
    if resume:
        start, history, clock = _resume(ckpt_path, cfg, net, opt, rng)
        player.load_state_dict(net.state_dict())
    os.makedirs(cfg.run_dir, exist_ok=True)  # after the init and checkpoint were read
    write_json(os.path.join(cfg.run_dir, "config.json"), asdict(cfg))
    writer = _tensorboard(cfg.run_dir)

    def checkpoint(games_done: int) -> None:
        save_torch_file({**net_header(net), "state_dict": net.state_dict(),
                         "optimizer": opt.state_dict(), "rng": rng.bit_generator.state,
                         "games": games_done, "seconds": elapsed(),
                         # plain JSON types: the checkpoint loads with weights_only=True
                         "history": json.loads(json.dumps(history))}, ckpt_path)

    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=cfg.games, initial=start, desc="td self-play", unit="game")
    t0, batch_x, batch_t = time.time(), [], []

    def elapsed() -> float:
        """Seconds of training so far, earlier runs of a resumed one included."""
        return clock + time.time() - t0

    pool = worker_pool(cfg.workers, player) if cfg.workers > 1 else None
    games = game_stream(net if pool is not None else player, cfg, rng, start + 1, pool)
    try:
        for game_no, x, targets in games:
            batch_x.append(x)
            batch_t.append(targets)
            if (len(batch_x) == cfg.batch_games or game_no == cfg.games
                    or game_no % cfg.checkpoint_every == 0):  # a checkpoint holds every game
                loss = _update(net, opt, batch_x, batch_t, device)
                if player is not net:
                    player.load_state_dict(net.state_dict())
                batch_x, batch_t = [], []
                if writer:
                    writer.add_scalar("train/loss", loss, game_no)
            if bar:
                bar.update(1)
            if cfg.eval_every and game_no % cfg.eval_every == 0 and game_no != cfg.games:
                history.append({"games": game_no, "seconds": elapsed(),
                                **evaluate_net(player, cfg.eval_opponents, cfg.eval_games,
                                               seed=10_000 + game_no)})
                log_eval(history[-1], writer)
                write_report(cfg.run_dir, "TD-Gammon", asdict(cfg), history)
            if game_no % cfg.checkpoint_every == 0:
                checkpoint(game_no)
    finally:
        if pool is not None:
            pool.shutdown(cancel_futures=True)
    if bar:
        bar.close()
    final = {"games": cfg.games, "seconds": elapsed(),
             **evaluate_net(player, cfg.eval_opponents, cfg.final_eval_games or cfg.eval_games,
                             seed=999)}
    history.append(final)
    log_eval(final, writer)
    checkpoint(cfg.games)
    save_net(player, os.path.join(cfg.run_dir, "model.pt"))
    write_report(cfg.run_dir, "TD-Gammon", asdict(cfg), history)
    if writer:
        writer.close()
    return final


def _initial_weights(cfg: TDConfig) -> dict:
    """The weights of ``cfg.init`` (read weights-only).

    Raises:
        FileNotFoundError, ModelFileError: no such file, or not a TD network (named).
        ValueError: its shape is not the config's ``hidden`` / ``layers``.
    """
    start = load_net(cfg.init)
    if (start.hidden, start.layers, start.extras) != (cfg.hidden, cfg.layers, cfg.extras):
        raise ValueError(f"init={cfg.init!r} has hidden={start.hidden}, layers={start.layers}, "
                         f"extras={start.extras}; the config has hidden={cfg.hidden}, "
                         f"layers={cfg.layers}, extras={cfg.extras}")
    return start.state_dict()


def _resume(ckpt_path: str, cfg: TDConfig, net: TDNet, opt, rng) -> tuple[int, list, float]:
    """Load the checkpoint into ``net``, ``opt`` and ``rng``; returns (games done, history,
    seconds of training so far).

    Raises:
        FileNotFoundError: no checkpoint (named).
        ValueError: ``cfg.games`` is below the games already done (resuming never rewinds).
    """
    if not os.path.exists(ckpt_path):
        raise FileNotFoundError(f"--resume: no checkpoint at {ckpt_path!r}")
    blob = load_torch_file(ckpt_path, "TD checkpoint")
    start = int(blob["games"])
    refuse_rewind(ckpt_path, start, "games", cfg.games, "games")
    load_weights(net, blob["state_dict"], ckpt_path, cfg)
    opt.load_state_dict(blob["optimizer"])
    for group in opt.param_groups:  # the config's rate, not the checkpoint's
        group["lr"] = cfg.lr
    rng.bit_generator.state = blob["rng"]
    # a final evaluation at cfg.games is done again; older checkpoints have no clock
    history = [h for h in blob["history"] if h["games"] < cfg.games]
    clock = float(blob.get("seconds", blob["history"][-1]["seconds"] if blob["history"] else 0.0))
    return start, history, clock


def load_weights(net: TDNet, weights: dict, path, cfg) -> None:
    """``weights`` (a checkpoint's) into ``net``, or :class:`ConfigError` when the
    checkpoint's network has another shape than the settings ask for (a ``--resume`` with
    ``--set hidden=...``, say), naming both."""
    try:
        net.load_state_dict(weights)
    except RuntimeError as exc:
        shapes = {k: tuple(v.shape) for k, v in list(weights.items())[:2] if hasattr(v, "shape")}
        raise ConfigError(
            f"--resume: {str(path)!r} holds a network of another shape than hidden="
            f"{cfg.hidden}, layers={getattr(cfg, 'layers', 1)}, extras={cfg.extras} "
            f"(its first weights: {shapes}); resume with the run's own settings, or give a new "
            f"run_dir to start anew") from None


def _update(net: TDNet, opt, batch_x: list, batch_t: list, device: str) -> float:
    """One Adam step towards the targets of a batch of games; returns the loss."""
    xb = torch.from_numpy(np.concatenate(batch_x)).to(device)
    tb = torch.cat(batch_t).to(device)
    loss = torch.nn.functional.mse_loss(net(xb), tb)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.item()


def log_eval(entry: dict, writer) -> None:
    """Log an evaluation entry's results (and write them to TensorBoard's ``writer``)."""
    parts = []
    for spec, s in entry.items():
        if isinstance(s, dict):
            parts.append(f"{spec}: win {s['win_rate']:.1%} ppg {s['ppg']:+.3f}")
            if writer:
                writer.add_scalar(f"eval/{spec}_ppg", s["ppg"], entry["games"])
                writer.add_scalar(f"eval/{spec}_win_rate", s["win_rate"], entry["games"])
    logger.info("[%d games, %.1f min] %s", entry["games"], entry["seconds"] / 60, "; ".join(parts))


def _tensorboard(run_dir: str):
    try:
        from torch.utils.tensorboard import SummaryWriter
    except ImportError:  # tensorboard is optional
        return None
    return SummaryWriter(os.path.join(run_dir, "tb"))

