"""The td agent's cube network (``bg-env train td_cube``: ``agents/configs/td_cube.yaml``).

A cube decision judges the position before the roll. The checker network is trained on
the afterstates of the plays it chooses between, so the positions after a forced play or
a dance (a closed-out checker on the bar, say) are rare in what it learned, and its
distillation on its own lookahead pulls the chance of the side on roll down by about 3 %
in cube positions: its checker play does not feel a level that all plays share, its cube
decisions do. So the cube decisions read a second network, the checker network
fine-tuned on those positions:

1. **Play.** ``games`` cubeless self-play games with the ``init`` network at 0-ply (the
   ``td`` agent's checker play). Every position before a roll but the opening's is kept,
   forced and dancing turns included, as the network reads it: the afterstate of the side
   that just moved, with the game's result seen from that side.
2. **Targets.** The lambda-returns of each game's positions, from its result backwards
   through the ``init`` network's values (``lam`` 1: the result itself, an unbiased target
   for the positions ``td`` reaches, with no value of the network in it).
3. **Fit.** A copy of the checker network, ``epochs`` passes of Adam (``lr``) on the mean
   squared error. Every ``holdout``-th game is held out: its error against the results is
   measured before the fit and after each epoch, and the best epoch is kept.
4. **Write** ``model.pt``: the ``init`` network for the checkers and the fitted one as its
   ``cube_net`` (:class:`~agents.players.td.TDAgent`), and the report.

The positions are kept in ``positions.npz``, written atomically every ``checkpoint_every``
games; ``--resume`` plays on from the games it holds (``--set games=N`` to play more) and
fits, without playing again what it holds. Game ``g`` rolls its dice from
``default_rng([seed, g])``, so a run is the same run for any number of ``workers``.
"""

from __future__ import annotations

import io
import json
import logging
import os
import time
from dataclasses import asdict, dataclass

import numpy as np
import torch

from bg_env.files import write_atomically
from bg_env.game.game import Game, Phase, Rules

from ..config import (
    MAX_COUNT,
    MAX_PROCESSES,
    MAX_SEED,
    ConfigError,
    refuse_rewind,
    require_at_least,
    require_at_most,
)
from ..players.model_files import write_json
from ..players.td import TDAgent, TDNet, load_net, save_net
from ..players.td_features import features, flip_outputs
from .report import next_commands, provenance
from .train_td import worker_net, worker_pool

__all__ = ["CubeNetConfig", "train_cube", "game_positions", "lambda_returns", "fit_cube_net",
           "layer_inputs", "result_targets"]

logger = logging.getLogger(__name__)

@dataclass
class CubeNetConfig:
    """Settings of a cube-network run (mirrored by ``agents/configs/td_cube.yaml``)."""

    algo: str = "td_cube"
    """Which trainer reads this file."""
    run_dir: str = "runs/td_cube"
    """Folder for the positions, the model, the report."""
    init: str = ""
    """The TD model file whose checker network plays the games and is fine-tuned (read
    weights-only); empty: the shipped ``agents/models/td.pt``."""
    games: int = 12000
    """Self-play games whose positions are learned."""
    lam: float = 1.0
    """Lambda of the targets: 1, each game's result; below, the init network's values
    of the later positions weigh in."""
    epochs: int = 4
    """Passes over the positions."""
    lr: float = 1e-4
    """Adam learning rate."""
    batch_size: int = 256
    """Positions per Adam step."""
    holdout: int = 10
    """Every this-th game is held out to measure the fit."""
    checkpoint_every: int = 10000
    """Write the positions played so far every this many games (``--resume`` goes on
    from there)."""
    seed: int = 0
    """Seed of the dice and the mini-batch order."""
    workers: int = 1
    """Processes that play the games."""
    torch_threads: int = 1
    """Threads torch may use in this process (each worker uses one)."""

    def __post_init__(self) -> None:
        if self.algo != "td_cube":
            raise ValueError(f"algo={self.algo!r}: this trainer is for 'td_cube'")
        if not 0.0 <= self.lam <= 1.0:
            raise ValueError(f"lam={self.lam}: expected 0..1")
        if not self.lr > 0:
            raise ValueError(f"lr={self.lr}: expected a positive learning rate")
        require_at_least(self, 0, "seed")
        require_at_least(self, 1, "epochs", "batch_size", "workers", "torch_threads",
                         "checkpoint_every")
        require_at_least(self, 2, "games", "holdout")
        require_at_most(self, MAX_COUNT, "games", "epochs", "holdout", "checkpoint_every")
        require_at_most(self, MAX_SEED, "seed")
        require_at_most(self, MAX_PROCESSES, "workers", "torch_threads")
        if self.holdout > self.games:
            raise ValueError(f"holdout={self.holdout}: every holdout-th game is held out, "
                             f"so it must not exceed games={self.games}")


# ------------------------------------------------------------------ the games
def game_positions(net: TDNet, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """One cubeless self-play game of ``net`` at 0-ply: each position before a roll (the
    opening's excepted) as the board the network reads, ``[me (26), opp (26)]`` with
    "me" the side that just moved (int8), and the game's result in points from that side
    (+1..+3 won, -1..-3 lost). Consecutive rows alternate sides."""
    agent = TDAgent(net)
    game = Game(Rules(cube=False))
    game.events = []
    game.opening(rng)
    while game.phase != Phase.OVER:
        game.play(agent.choose_play(game.legal_continuations()), rng)
    result = game.result
    points = result.points  # (cubeless: 1, 2 or 3)
    starts = [(e[1], e[4]) for e in game.events if e[0] == "play"][1:]
    if not starts:
        return np.zeros((0, 52), np.int8), np.zeros(0, np.int8)
    after = [start.swap() for _, start in starts]
    x = np.array([list(p.me) + list(p.opp) for p in after], dtype=np.int8)
    mover_won = [side != result.winner for side, _ in starts]  # the roller's opponent moved
    return x, np.array([points if won else -points for won in mover_won], np.int8)


def _games_of(net: TDNet, game_nos: list[int], seed: int) -> tuple[np.ndarray, ...]:
    parts = [game_positions(net, np.random.default_rng([seed, g])) for g in game_nos]
    game = np.concatenate([np.full(len(p[1]), g, np.int32) for g, p in zip(game_nos, parts)])
    return np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts]), game


def _worker_games(weights: dict, game_nos: list[int],
                  seed: int) -> tuple[np.ndarray, ...]:  # pragma: no cover (a worker)
    net = worker_net()
    net.load_state_dict(weights)
    return _games_of(net, game_nos, seed)


def play_games(net: TDNet, cfg: CubeNetConfig, bar=None, first: int = 0,
               last: int | None = None) -> dict[str, np.ndarray]:
    """The boards, results and game numbers of games ``first`` to ``last - 1`` (default:
    all ``cfg.games``), in game order."""
    last = cfg.games if last is None else last
    chunks = [list(range(g, min(g + 25, last))) for g in range(first, last, 25)]
    pool = worker_pool(cfg.workers, net) if cfg.workers > 1 else None
    try:
        if pool is None:
            results = (_games_of(net, c, cfg.seed) for c in chunks)
        else:
            weights = {k: v.detach().cpu().clone() for k, v in net.state_dict().items()}
            futures = [pool.submit(_worker_games, weights, c, cfg.seed) for c in chunks]
            results = (f.result() for f in futures)
        parts = []
        for chunk, part in zip(chunks, results):
            parts.append(part)
            if bar:
                bar.update(len(chunk))
    finally:
        if pool is not None:
            pool.shutdown(cancel_futures=True)
    return {"boards": np.concatenate([p[0] for p in parts]),
            "result": np.concatenate([p[1] for p in parts]),
            "game": np.concatenate([p[2] for p in parts])}


# ------------------------------------------------------------------ targets and fit
def result_targets(result: np.ndarray) -> np.ndarray:
    """The five outputs of each known result (points, signed from the row's side)."""
    r = np.asarray(result)
    return np.stack([r > 0, r >= 2, r >= 3, r <= -2, r <= -3], axis=1).astype(np.float32)


def lambda_returns(values: np.ndarray, result: np.ndarray, game: np.ndarray,
                   lam: float) -> np.ndarray:
    """The lambda-returns of rows that alternate sides within each game: the last row of
    a game is its result; before it ``(1 - lam) flip(V[t + 1]) + lam flip(G[t + 1])``
    (``values``: the network's outputs of each row, its side's view)."""
    z = result_targets(result)
    if lam == 1.0:
        return z
    flip = lambda v: flip_outputs(torch.from_numpy(v)).numpy()  # noqa: E731
    out = np.empty_like(z)
    last = np.r_[game[1:] != game[:-1], True]
    for t in range(len(z) - 1, -1, -1):
        out[t] = z[t] if last[t] else flip((1 - lam) * values[t + 1] + lam * out[t + 1])
    return out


def layer_inputs(net: TDNet, boards: np.ndarray, chunk: int = 65536) -> np.ndarray:
    """What ``net.body`` reads for each board (:meth:`TDNet.layer_inputs` of its
    features), filled a chunk at a time: one float32 array, no features of all the
    boards beside it."""
    out = np.empty((len(boards), net.body[0].in_features), np.float32)
    for k in range(0, len(boards), chunk):
        b = boards[k:k + chunk]
        out[k:k + chunk] = net.layer_inputs(features(b[:, :26], b[:, 26:]))
    return out


def network_outputs(net: TDNet, inputs: np.ndarray, chunk: int = 8192) -> np.ndarray:
    """``net``'s outputs of its layer inputs, a chunk at a time."""
    with torch.inference_mode():
        return np.concatenate([net.body(torch.from_numpy(inputs[k:k + chunk])).numpy()
                               for k in range(0, len(inputs), chunk)] or [np.zeros((0, 5))])


def fit_cube_net(net: TDNet, inputs: np.ndarray, y: np.ndarray, held: np.ndarray,
                 z_held: np.ndarray, cfg: CubeNetConfig) -> tuple[TDNet, list[float]]:
    """A copy of ``net`` fitted to the rows ``~held`` of ``inputs`` (:func:`layer_inputs`)
    and targets ``y`` (:class:`CubeNetConfig`'s epochs, lr, batch size and seed); the
    epoch (0: none) whose held-out mean squared error against the results ``z_held`` is
    lowest is kept. Returns it and every epoch's error (the first: before the fit)."""
    import copy

    fitted = copy.deepcopy(net).train()
    xs, ys = torch.from_numpy(inputs), torch.from_numpy(y)  # (no copies: batches index)
    train = torch.from_numpy(np.flatnonzero(~held))
    xv, zv = xs[torch.from_numpy(held)], torch.from_numpy(z_held)
    opt = torch.optim.Adam(fitted.parameters(), lr=cfg.lr)
    order = torch.Generator().manual_seed(cfg.seed)

    def held_error() -> float:
        with torch.no_grad():
            return float(((fitted.body(xv) - zv) ** 2).mean()) if len(xv) else 0.0

    errors = [held_error()]
    best = (errors[0], copy.deepcopy(fitted.state_dict()))
    for epoch in range(cfg.epochs):
        perm = train[torch.randperm(len(train), generator=order)]
        for k in range(0, len(perm), cfg.batch_size):
            rows = perm[k:k + cfg.batch_size]
            loss = torch.nn.functional.mse_loss(fitted.body(xs[rows]), ys[rows])
            opt.zero_grad()
            loss.backward()
            opt.step()
        errors.append(held_error())
        logger.info("epoch %d: held-out error %.5f", epoch + 1, errors[-1])
        if errors[-1] < best[0]:
            best = (errors[-1], copy.deepcopy(fitted.state_dict()))
    fitted.load_state_dict(best[1])
    return fitted.eval(), errors


# ------------------------------------------------------------------ the run
def train_cube(cfg: CubeNetConfig, resume: bool = False, progress: bool = True) -> dict:
    """Play (or, with ``resume``, read the positions played), fit, write ``model.pt`` and
    the report; returns the held-out errors.

    Raises:
        FileNotFoundError, ModelFileError: ``init`` is missing or not a TD network (named).
        ConfigError: ``resume`` finds positions of another seed or init, or of more games
            than ``games``.
    """
    from .. import MODELS_DIR

    torch.set_num_threads(cfg.torch_threads)
    init = cfg.init or os.path.join(MODELS_DIR, "td.pt")
    net = load_net(init).eval()
    os.makedirs(cfg.run_dir, exist_ok=True)
    write_json(os.path.join(cfg.run_dir, "config.json"), asdict(cfg))
    path = os.path.join(cfg.run_dir, "positions.npz")
    t0 = time.time()
    data, played = {}, 0
    if resume and os.path.exists(path):
        data, played = _read_positions(path, cfg)
    if played < cfg.games:
        data = _play_on(net, cfg, path, data, played, progress)
    boards, result, game = data["boards"], data["result"], data["game"]
    inputs = layer_inputs(net, boards)
    values = None if cfg.lam == 1.0 else network_outputs(net, inputs)
    y = lambda_returns(values, result, game, cfg.lam)
    held = game % cfg.holdout == 0
    cube_net, errors = fit_cube_net(net, inputs, y, held, result_targets(result[held]), cfg)
    save_net(net, os.path.join(cfg.run_dir, "model.pt"), cube_net=cube_net)
    summary = {"games": cfg.games, "positions": int(len(boards)), "held_out": int(held.sum()),
               "seconds": time.time() - t0, "held_out_error": errors}
    write_json(os.path.join(cfg.run_dir, "summary.json"), summary)
    write_report(cfg.run_dir, asdict(cfg), summary)
    logger.info("held-out error (mean squared, against the results): %s",
                ", ".join(f"{e:.5f}" for e in errors))
    return {"held_out_error": errors}


def write_report(run_dir: str, config: dict, summary: dict) -> str:
    """``report.md``: what was learned, the held-out error by epoch, where the run came
    from, the commands that measure the model; returns its path."""
    errors = summary["held_out_error"]
    lines = ["# td cube network training report", "",
             f"{summary['games']:,} self-play games, {summary['positions']:,} positions before "
             f"a roll ({summary['held_out']:,} of them held out), "
             f"{summary['seconds'] / 60:.1f} minutes. Model: `{os.path.join(run_dir, 'model.pt')}` "
             "(the init network's checker play, the fitted network's cube decisions).", "",
             "## Held-out error", "",
             "Mean squared error of the five outputs against the games' results, on the "
             "held-out games' positions (epoch 0: the init network; the best epoch is kept).",
             "", "| epoch | error |", "|---|---|"]
    lines += [f"| {i} | {e:.5f} |" for i, e in enumerate(errors)]
    lines += ["", "## Measure it", "", "```bash", *next_commands(config), "```", "",
              "## Where this run came from", ""]
    lines += [f"- {k}: {v}" for k, v in provenance().items()]
    lines += ["", "## Settings", "", "```json", json.dumps(config, indent=2), "```", ""]
    path = os.path.join(run_dir, "report.md")
    write_atomically(path, "\n".join(lines))
    return path


def _play_on(net: TDNet, cfg: CubeNetConfig, path: str, data: dict, played: int,
             progress: bool) -> dict[str, np.ndarray]:
    """Games ``played`` onwards, added to ``data``, written to ``path`` (atomically) every
    ``checkpoint_every`` games and at the end."""
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=cfg.games, initial=played, desc="td_cube games", unit="game")
    try:
        while played < cfg.games:
            last = min(played + cfg.checkpoint_every, cfg.games)
            more = play_games(net, cfg, bar, played, last)
            data = more if not data else {k: np.concatenate([data[k], more[k]]) for k in more}
            played = last
            _write_positions(path, data, cfg, played)
    finally:
        if bar:
            bar.close()
    return data


def _write_positions(path: str, data: dict, cfg: CubeNetConfig, played: int) -> None:
    buf = io.BytesIO()
    meta = {"played": played, "seed": cfg.seed, "init": cfg.init}
    np.savez_compressed(buf, **data, meta=np.frombuffer(json.dumps(meta).encode(), np.uint8))
    write_atomically(path, buf.getvalue())


def _read_positions(path: str, cfg: CubeNetConfig) -> tuple[dict[str, np.ndarray], int]:
    """The positions a run wrote and how many games they hold (games ``0 .. played - 1``).

    Raises:
        ConfigError: they were played with another seed or init, or ``cfg.games`` is
            below the games played (resuming does not rewind).
    """
    with np.load(path, allow_pickle=False) as f:
        data = {k: f[k] for k in ("boards", "result", "game")}
        meta = json.loads(f["meta"].tobytes().decode())
    want = {"seed": cfg.seed, "init": cfg.init}
    if {k: meta.get(k) for k in want} != want:
        raise ConfigError(f"--resume: {path!r} holds the positions of {meta}, the config "
                          f"asks for {want}; another run_dir, or the same settings")
    refuse_rewind(path, int(meta["played"]), "games", cfg.games, "games")
    return data, int(meta["played"])
