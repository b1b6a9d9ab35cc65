"""Search distillation in two steps through a file: label once with a teacher, fit any
student on the labels (``python -m agents.distill_file label|fit ...``).

``bg-env train td_distill`` labels each round with the network it trains. This module
keeps the labels instead: ``label`` plays self-play games with a teacher network at
0-ply and labels its best plays with the teacher's one-roll lookahead, exactly as
:func:`agents.train_distill.label_game` does (it is called), and writes the afterstates
as boards (26 + 26 checker counts, 52 bytes a row) with their labels and game numbers to
an ``.npz`` file; ``fit`` trains a student on them with
:func:`agents.train_distill.fit`, holding out the games from ``--hold`` on to report the
mean squared error on games it did not see. So several students (another width, the
hand-made inputs of :mod:`agents.td_inputs`) can be compared on one set of labels, and a
student that reads the hand-made inputs is taught by a teacher that does not (labelling
with a plain network was about twice as fast before the inputs' hit rule was rewritten;
README, "td:2ply").

The shipped ``td.pt`` was made this way (README, "How they were trained"):

    python -m agents.distill_file label runs/td_distill320/model.pt runs/labels320.npz \\
        --games 10000 --seed 7001 --workers 2
    python -m agents.distill_file fit runs/labels320.npz runs/td_distill320/model.pt \\
        runs/td_extras.pt --extras --epochs 8 --lr 3e-4 --hold 9000

Game ``g`` rolls its dice from ``default_rng([seed, g])``, so the file is the same for any
number of workers, and files of consecutive ranges of one seed (``--first``; made one after
another or on several machines) fit together (``fit A.npz B.npz ...``) as the file of the
whole range; the fit draws its order from ``--fit-seed``.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from multiprocessing import get_context

import numpy as np
import torch

from bg_env.envs.play_env import board_features

from .td import load_net, save_net
from .td_features import N_FEATURES
from .td_inputs import boards_of
from .train_distill import DistillConfig, add_extras, fit, label_game, widen

__all__ = ["label_file", "read_labels", "fit_file", "main"]


def _label_chunk(args) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    teacher, games, seed, top_k = args
    torch.set_num_threads(1)
    net = load_net(teacher).eval()
    parts = [label_game(net, np.random.default_rng([seed, g]), top_k) for g in games]
    return (np.concatenate([boards_of(x).astype(np.uint8) for x, _ in parts]),
            np.concatenate([y for _, y in parts]),
            np.concatenate([np.full(len(y), g, dtype=np.int32) for g, (_, y) in zip(games, parts)]))


def label_file(teacher: str, out: str, games: int, seed: int, top_k: int = 5,
               workers: int = 1, progress: bool = True, first: int = 0) -> int:
    """Label games ``first .. first + games - 1`` with ``teacher`` into ``out`` (written
    atomically); returns the rows written. Files of consecutive ranges with one seed, fitted
    together, are the file of the whole range."""
    load_net(teacher)  # a missing or unsafe file is named here, before any work
    if first < 0 or games < 1:
        raise ValueError(f"games={games}, first={first}: expected at least one game and a "
                         f"first game number of 0 or more")
    end = first + games
    chunks = [(teacher, list(range(g, min(g + 50, end))), seed, top_k)
              for g in range(first, end, 50)]
    t0 = time.time()
    parts = []
    if workers > 1:
        with get_context("spawn").Pool(workers) as pool:
            for part in pool.imap(_label_chunk, chunks):
                parts.append(part)
                _progress(progress, parts, first, games, t0)
    else:
        for chunk in chunks:
            parts.append(_label_chunk(chunk))
            _progress(progress, parts, first, games, t0)
    tmp = out + ".tmp.npz"
    np.savez(tmp, boards=np.concatenate([p[0] for p in parts]),
             labels=np.concatenate([p[1] for p in parts]),
             games=np.concatenate([p[2] for p in parts]))
    os.replace(tmp, out)
    return sum(len(p[1]) for p in parts)


def _progress(show: bool, parts: list, first: int, games: int, t0: float) -> None:
    if show:
        done = int(parts[-1][2][-1]) + 1 - first if len(parts[-1][2]) else 0
        print(f"labelled {done}/{games} games, {time.time() - t0:.0f} s", file=sys.stderr,
              flush=True)


def read_labels(paths: str | list[str]) -> dict[str, np.ndarray]:
    """The rows of one label file or of several (concatenated), as ``boards``, ``labels``
    and ``games``.

    Raises:
        ValueError: two files hold the same game number (labelled twice, or two seeds'
            files numbered alike), naming both files.
    """
    paths = [paths] if isinstance(paths, str) else list(paths)
    parts = [np.load(p) for p in paths]
    seen: dict[int, str] = {}
    for path, part in zip(paths, parts):
        for g in np.unique(part["games"]).tolist():
            if g in seen:
                raise ValueError(f"label files {seen[g]!r} and {path!r} both hold game {g}: "
                                 f"label consecutive ranges of one seed (--first)")
            seen[g] = path
    return {key: np.concatenate([p[key] for p in parts]) for key in ("boards", "labels", "games")}


def fit_file(labels: str | list[str], init: str, out: str, extras: bool = False, hidden: int = 0,
             epochs: int = 8, lr: float = 3e-4, hold: int | None = None, fit_seed: int = 3,
             batch_size: int = 256) -> dict:
    """Fit the ``init`` network (widened to ``hidden`` units and given the hand-made inputs
    when asked) on the labels (one file or several: :func:`read_labels`) of games below
    ``hold``; writes ``out``. Returns the rows and the held-out games' mean squared error
    before and after."""
    blob = read_labels(labels)
    x = board_features(blob["boards"])[:, :N_FEATURES].copy()
    y = blob["labels"].astype(np.float32)
    games = blob["games"]
    train = games < hold if hold is not None else np.ones(len(y), dtype=bool)
    net = load_net(init).eval()
    if hidden:
        net = widen(net, hidden, torch.Generator().manual_seed(fit_seed))
    if extras and not net.extras:
        net = add_extras(net)

    def held_out() -> float | None:
        if train.all():
            return None
        with torch.inference_mode():
            v = net(torch.from_numpy(x[~train]))
        return float(((v - torch.from_numpy(y[~train])) ** 2).mean())

    before = held_out()
    cfg = DistillConfig(epochs=epochs, lr=lr, seed=fit_seed, batch_size=batch_size)
    loss = fit(net, x[train], y[train], cfg, 1, "cpu")
    save_net(net.eval(), out)
    return {"rows": int(train.sum()), "held_out_rows": int((~train).sum()), "loss": loss,
            "held_out_before": before, "held_out_after": held_out()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m agents.distill_file", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="step", required=True)
    lab = sub.add_parser("label", help="label self-play games with a teacher's lookahead")
    lab.add_argument("teacher")
    lab.add_argument("out")
    lab.add_argument("--games", type=int, default=10000)
    lab.add_argument("--seed", type=int, default=0)
    lab.add_argument("--top-k", type=int, default=5)
    lab.add_argument("--workers", type=int, default=1)
    lab.add_argument("--first", type=int, default=0,
                     help="the first game's number (files of consecutive ranges add up)")
    fitp = sub.add_parser("fit", help="fit a student on label files")
    fitp.add_argument("labels", nargs="+")
    fitp.add_argument("init")
    fitp.add_argument("out")
    fitp.add_argument("--extras", action="store_true", help="read the hand-made inputs")
    fitp.add_argument("--hidden", type=int, default=0, help="widen to this many units")
    fitp.add_argument("--epochs", type=int, default=8)
    fitp.add_argument("--lr", type=float, default=3e-4)
    fitp.add_argument("--hold", type=int, default=None, help="hold out games from this one")
    fitp.add_argument("--fit-seed", type=int, default=3)
    args = parser.parse_args(argv)
    torch.set_num_threads(1)
    if args.step == "label":
        rows = label_file(args.teacher, args.out, args.games, args.seed, args.top_k,
                          args.workers, first=args.first)
        print(f"{rows} labelled afterstates -> {args.out}")
    else:
        print(fit_file(args.labels, args.init, args.out, args.extras, args.hidden,
                       args.epochs, args.lr, args.hold, args.fit_seed))
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
