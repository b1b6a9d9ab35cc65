"""Search distillation in two steps through a file: label once with a teacher, fit any
student on the labels (``python -m agents.training.distill_file label|fit ...``).

``bg-env train td_distill`` labels each round with the network it trains. This module
keeps the labels instead: ``label`` plays self-play games with a teacher network at
0-ply and labels its best plays with the teacher's one-roll lookahead, exactly as
:func:`agents.training.train_distill.label_decisions` does (it is called), and writes the afterstates
as boards (26 + 26 checker counts, 52 bytes a row) with their labels, game and decision numbers
to an ``.npz`` file; ``fit`` trains a student on them with
:func:`agents.training.train_distill.fit`, holding out the games from ``--hold`` on to report the
mean squared error on games it did not see; ``regret`` scores students as players on
those games: at each decision with a choice, the teacher's lookahead equity that the
student's 0-ply choice among the labelled plays gives up (:func:`decision_regret`), a
measure of the gap to the teacher's play without the noise of the dice of played games.
So several students (another width, the
hand-made inputs of :mod:`agents.players.td_inputs`) can be compared on one set of labels, and a
student that reads the hand-made inputs is taught by a teacher that does not (labelling
with a plain network was about twice as fast before the inputs' hit rule was rewritten;
README, "td:2ply").

The shipped ``td.pt`` was made this way, in two rounds (README, "How they were trained";
the second round's labels in four pieces, ``--first 4000`` and so on):

    python -m agents.training.distill_file label runs/td_distill320/model.pt runs/labels320.npz \\
        --games 10000 --seed 7001 --workers 2
    python -m agents.training.distill_file fit runs/labels320.npz runs/td_distill320/model.pt \\
        runs/td_extras.pt --extras --epochs 8 --lr 3e-4 --hold 9000
    python -m agents.training.distill_file label runs/td_extras.pt runs/lab_a.npz --games 4000 \\
        --seed 7101 --workers 2
    python -m agents.training.distill_file fit runs/lab_?.npz runs/td_extras.pt td.pt --hidden 480 \\
        --epochs 8 --lr 3e-4 --hold 13000

``label --plies 2`` labels with two rolls of lookahead (GNU Backgammon's "2-ply", about 21
times the work of one roll: 0.2 s a labelled afterstate on one core of this machine), and
``regret --plies N`` scores a network by the choices its N-roll lookahead makes, which tells
how good a teacher it would be before labelling with it (README, "How they were trained").

A label run saves its progress as it goes (each chunk of games a part file in
``OUT.parts/``, :mod:`agents.training.label_parts`): after an interrupt, the same command labels only
the games still missing and writes the same arrays.

Game ``g`` rolls its dice from ``default_rng([seed, g])``, so the file is the same for any
number of workers, and files of consecutive ranges of one seed (``--first``; made one after
another or on several machines) fit together (``fit A.npz B.npz ...``) as the file of the
whole range; the fit draws its order from ``--fit-seed``.
"""

from __future__ import annotations

import argparse
import io
import os
import sys
import time

import numpy as np
import torch

from bg_env.rules.position import Position
from bg_env.envs.candidates import board_features

from .label_parts import LabelParts
from ..players.model_files import file_sha256, write_atomically
from ..processes import as_finished
from ..players.td import load_cube_net, load_net, save_net
from ..players.td_features import N_FEATURES, numpy_equity, terminal_target
from ..players.td_inputs import boards_of
from ..players.td_search import check_leaves, lookahead_values, segment_argmax, segment_top
from .train_distill import DistillConfig, add_extras, fit, label_decisions, widen

__all__ = ["label_file", "read_labels", "fit_file", "decision_regret", "judge_equities",
           "regret_file", "decision_starts", "LABELS_MODEL", "main"]

_KEYS = ("boards", "labels", "games", "decisions")  # the arrays of a label file


def _label_chunk(args) -> tuple[np.ndarray, ...]:
    teacher, games, seed, top_k, plies, leaves = args
    torch.set_num_threads(1)
    net = load_net(teacher).eval()
    parts: list[tuple[np.ndarray, ...]] = []
    for g in games:
        decisions = label_decisions(net, np.random.default_rng([seed, g]), top_k, plies,
                                    leaves)
        for d, (x, y) in enumerate(decisions):
            parts.append((boards_of(x).astype(np.uint8), y, np.full(len(y), g, dtype=np.int32),
                          np.full(len(y), d, dtype=np.int32)))
    return tuple(np.concatenate(column) for column in zip(*parts))


def _label_job(args) -> tuple[list[int], tuple[np.ndarray, ...]]:
    """A chunk's games and its labels (:func:`_label_chunk`)."""
    return args[1], _label_chunk(args)


def label_file(teacher: str, out: str, games: int, seed: int, top_k: int = 5,
               workers: int = 1, progress: bool = True, first: int = 0, plies: int = 1,
               chunk: int | None = None, leaves: int | None = None) -> int:
    """Label games ``first .. first + games - 1`` with ``teacher`` into ``out`` (written
    atomically), ``plies`` rolls of lookahead (2: about 21 times the work of 1); returns
    the rows written. Files of consecutive ranges with one seed, fitted together, are the
    file of the whole range.

    Each finished ``chunk`` of games (default 50 games, 5 with two or more plies) is saved
    in ``OUT.parts/`` (:mod:`agents.training.label_parts`): the same call after an interrupt labels
    only the games not saved yet, and writes the same arrays. ``leaves``: the lookahead's
    last roll chooses each reply among the ``leaves`` best by pubeval
    (:func:`~agents.players.td_search.lookahead_values`; about 4 times faster at two rolls with 6)."""
    load_net(teacher)  # a missing or unsafe file is named here, before any work
    if plies < 1:
        raise ValueError(f"plies={plies}: a teacher looks at least one roll ahead")
    if first < 0 or games < 1:
        raise ValueError(f"games={games}, first={first}: expected at least one game and a "
                         f"first game number of 0 or more")
    if chunk is not None and chunk < 1:
        raise ValueError(f"chunk={chunk}: expected at least one game a chunk")
    leaves = check_leaves(leaves)
    end = first + games
    parts = LabelParts(out, {"teacher_sha256": file_sha256(teacher), "seed": int(seed),
                             "top_k": int(top_k), "plies": int(plies),
                             **({"leaves": int(leaves)} if leaves is not None else {})})
    parts.open()
    jobs = [(teacher, games_of_chunk, seed, top_k, plies, leaves) for games_of_chunk in
            parts.chunks_to_do(first, end, chunk or (50 if plies == 1 else 5))]
    done = games - sum(len(job[1]) for job in jobs)
    if done and progress:
        print(f"resuming: {done}/{games} games labelled in {parts.folder}", file=sys.stderr)
    t0 = time.time()
    results = map(_label_job, jobs)
    if workers > 1 and jobs:  # each part saved as it comes, in whatever order
        results = as_finished(_label_job, jobs, workers)
    for chunk_games, part in results:
        parts.save(chunk_games, dict(zip(_KEYS, part)))
        done += len(chunk_games)
        if progress:
            print(f"labelled {done}/{games} games, {time.time() - t0:.0f} s",
                  file=sys.stderr, flush=True)
    saved = [parts.load(g0, g1) for g0, g1 in parts.saved_ranges(first, end)]
    buffer = io.BytesIO()
    np.savez(buffer, **{key: np.concatenate([p[key] for p in saved]) for key in _KEYS})
    write_atomically(out, buffer.getvalue())
    parts.remove(first, end)
    return sum(len(p["labels"]) for p in saved)


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
    keys = [key for key in _KEYS if all(key in p for p in parts)]  # "decisions" since 2026-12
    return {key: np.concatenate([p[key] for p in parts]) for key in keys}


def decision_starts(games: np.ndarray, decisions: np.ndarray) -> np.ndarray:
    """The first row of each decision in label rows (a decision's rows are consecutive)."""
    return np.flatnonzero(np.r_[True, (games[1:] != games[:-1])
                                | (decisions[1:] != decisions[:-1])])


def fit_file(labels: str | list[str], init: str, out: str, extras: bool = False, hidden: int = 0,
             epochs: int = 8, lr: float = 3e-4, hold: int | None = None, fit_seed: int = 3,
             batch_size: int = 256, rank_weight: float = 0.0) -> dict:
    """Fit the ``init`` network (widened to ``hidden`` units and given the hand-made inputs
    when asked) on the labels (one file or several: :func:`read_labels`) of games below
    ``hold``; writes ``out``. ``rank_weight`` adds the decisions' ordering to the loss
    (:func:`~agents.training.train_distill.rank_loss`; the files need decision numbers). Returns the
    rows and the held-out games' mean squared error before and after.

    Raises:
        ValueError: ``rank_weight`` with label files that hold no decision numbers.
    """
    blob = read_labels(labels)
    if rank_weight and "decisions" not in blob:
        raise ValueError(f"label files {labels!r} hold no decision numbers (written by an "
                         f"older version): --rank-weight needs them")
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
    starts = (decision_starts(games[train], blob["decisions"][train]) if rank_weight else None)
    loss = fit(net, x[train], y[train], cfg, 1, "cpu", starts, rank_weight)
    save_net(net.eval(), out, cube_net=load_cube_net(init))
    return {"rows": int(train.sum()), "held_out_rows": int((~train).sum()), "loss": loss,
            "held_out_before": before, "held_out_after": held_out()}


def decision_regret(student: np.ndarray, teacher: np.ndarray,
                    starts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For decisions whose rows begin at ``starts`` (each runs to the next start), the
    teacher's equity given up by the student's choice (the teacher's best row minus the
    teacher's value of the student's best row; first row on a tie) and whether the two
    chose the same row. ``student`` and ``teacher`` are equities of the same rows."""
    lengths = np.diff(np.r_[starts, len(student)])
    mine, best = (segment_argmax(x, starts, lengths) for x in (student, teacher))
    return teacher[best] - teacher[mine], mine == best


def judge_equities(spec: str, boards: np.ndarray) -> np.ndarray:
    """The cubeless equity, for the side that just moved, of each afterstate in ``boards``
    (rows of :func:`~agents.players.td_inputs.boards_of`) as the agent ``spec`` judges it: a
    finished game's points, else minus the agent's equity (``probabilities``) of the
    opponent on roll. ``gnubg:1`` makes GNU Backgammon's one-roll lookahead the judge.

    Raises:
        ValueError: the agent has no ``probabilities`` to rate with (named).
    """
    from .. import load_agent

    judge = load_agent(spec)
    if not callable(getattr(judge, "probabilities", None)):
        raise ValueError(f"agent {spec!r} gives no probabilities of a position to rate "
                         f"afterstates with; use td, "
                         f"td:PATH, gnubg or gnubg:PLIES")
    out = np.empty(len(boards))
    for i, row in enumerate(boards.tolist()):
        after = Position(tuple(row[:26]), tuple(row[26:]))
        done = after.outcome()
        if done is not None:
            out[i] = numpy_equity(np.array(terminal_target(done.kind)))
        else:
            out[i] = -numpy_equity(np.asarray(judge.probabilities(after.swap()), dtype=float))
    return out


LABELS_MODEL = "labels"
"""The model name that scores the teacher's own lookahead labels as a student's choices."""


def _student_equities(model: str, x: np.ndarray, boards: np.ndarray, labels: np.ndarray,
                      batch: int, plies: int = 0, starts: np.ndarray | None = None,
                      candidates: int | None = None, leaves: int | None = None) -> np.ndarray:
    """The equities ``model`` gives the rows: a network file's 0-ply outputs for the
    feature rows ``x``; :data:`LABELS_MODEL`'s the ``labels``' (the teacher's lookahead);
    for an agent spec (``gnubg:0``, ``td:PATH``) that is not a file :func:`judge_equities`
    of the ``boards``. ``plies``: a network file rates the rows with that many rolls of
    lookahead (:func:`~agents.players.td_search.lookahead_values`), as a teacher would label them;
    with ``candidates`` only each decision's (rows from ``starts``) that many best rows by
    0-ply, the others scored -inf (never chosen); ``leaves``: the lookahead's last roll
    pruned by pubeval."""
    if not _is_network_file(model):
        if model == LABELS_MODEL:
            return numpy_equity(labels.astype(np.float32))
        return judge_equities(model, boards)
    net = load_net(model).eval()
    with torch.inference_mode():
        static = np.concatenate([numpy_equity(net(torch.from_numpy(x[i:i + batch])).numpy())
                                 for i in range(0, len(x), batch)])
    if not plies:
        return static
    rows = np.arange(len(boards)) if candidates is None else segment_top(
        static, np.diff(np.r_[starts, len(static)]), candidates)
    out = np.full(len(boards), -np.inf)
    out[rows] = _lookahead_equities(net, boards[rows], plies, leaves)
    return out


def _is_network_file(model: str) -> bool:
    """Whether ``model`` names a network file (rated by its own lookahead), not an agent
    spec or :data:`LABELS_MODEL`."""
    return os.path.exists(model) or (model.endswith(".pt") and ":" not in model)


def _lookahead_equities(net, boards: np.ndarray, plies: int, leaves: int | None = None,
                        block: int = 200) -> np.ndarray:
    """Equities of afterstate rows with ``plies`` rolls of lookahead, a block at a time,
    with progress (two plies take about 0.2 s a row on one core)."""
    boards = boards.astype(np.int8)
    out, t0 = [], time.time()
    for i in range(0, len(boards), block):
        part = boards[i:i + block]
        out.append(numpy_equity(lookahead_values(net, part[:, :26], part[:, 26:], plies,
                                                 leaves)))
        print(f"{plies}-ply lookahead: {min(i + block, len(boards))}/{len(boards)} rows, "
              f"{time.time() - t0:.0f} s", file=sys.stderr, flush=True)
    return np.concatenate(out)


def regret_file(labels: str | list[str], models: list[str], hold: int | None = None,
                batch: int = 100_000, judge: str | None = None, plies: int = 0,
                max_games: int | None = None, candidates: int | None = None,
                leaves: int | None = None) -> list[dict]:
    """Score each network file in ``models`` (or agent spec with ``probabilities``, such as
    ``gnubg:0``: its equities of the afterstates; or ``labels``, the teacher's lookahead)
    by :func:`decision_regret` on the decisions of the games from ``hold`` on (all with
    ``None``) that offered a choice. Regret is in the cubeless equity of the teacher's
    labels, or of ``judge`` (an agent spec, :func:`judge_equities`; GNU Backgammon is a
    judge that taught none of the students); ``regret_per_game`` adds up both sides'
    decisions of a self-play game. Each model after the first also gets
    ``less_than_first_per_game``, the regret a game it saves against the first on the same
    decisions, with a 95% half-width ``ci95`` (decisions taken as independent).
    ``plies``: network files choose by that many rolls of lookahead (a teacher's choices);
    ``max_games``: only that many games from ``hold`` on (the first, by number);
    ``candidates``: with ``plies``, a network file chooses by lookahead only among its
    ``candidates`` best plays by 0-ply (the plays a ``label --top-k`` teacher labels);
    ``leaves``: its lookahead's last roll pruned by pubeval (as ``label --leaves``). These
    three settings are reported only on the lines of network files, the models they apply to.

    Raises:
        ValueError: a label file without decision numbers (written before them), no
            decision with a choice from ``hold`` on, a judge without probabilities,
            ``candidates`` or ``leaves`` without ``plies`` or under 1.
        FileNotFoundError, ModelFileError: a model file missing or refused (named).
    """
    if candidates is not None and (not plies or candidates < 1):
        raise ValueError(f"candidates={candidates}: the plays a lookahead chooses among, "
                         f"1 or more, with plies of 1 or more (plies={plies})")
    if check_leaves(leaves) is not None and not plies:
        raise ValueError(f"leaves={leaves}: the replies a lookahead's last roll rates, with "
                         f"plies of 1 or more (plies={plies})")
    blob = read_labels(labels)
    if "decisions" not in blob:
        raise ValueError(f"label files {labels!r} hold no decision numbers (written by an "
                         f"older version): label the games again to score regret")
    keep = blob["games"] >= hold if hold is not None else np.ones(len(blob["games"]), bool)
    if max_games is not None:
        keep &= blob["games"] < blob["games"][keep].min() + max_games
    games, decisions = blob["games"][keep], blob["decisions"][keep]
    starts = decision_starts(games, decisions)
    choice = np.diff(np.r_[starts, len(games)]) > 1
    if not choice.any():
        raise ValueError(f"label files {labels!r}: no decision with a choice in the games "
                         f"from {hold} on (they hold games {int(blob['games'].min())}.."
                         f"{int(blob['games'].max())})")
    x = board_features(blob["boards"][keep])[:, :N_FEATURES]
    if judge is None:
        teacher = numpy_equity(blob["labels"][keep].astype(np.float32))
    else:
        teacher = judge_equities(judge, blob["boards"][keep])
    report, first, n_games = [], None, len(np.unique(games))
    for path in models:
        student = _student_equities(path, x, blob["boards"][keep], blob["labels"][keep],
                                    batch, plies, starts, candidates, leaves)
        regret, agree = (part[choice] for part in decision_regret(student, teacher, starts))
        search = {"plies": plies, **({"candidates": candidates} if candidates is not None else {}),
                  **({"leaves": leaves} if leaves is not None else {})}
        line = {"model": path, "judge": judge or "labels",
                **(search if _is_network_file(path) else {}),
                "decisions": int(choice.sum()),
                "agree": round(float(agree.mean()), 4),
                "regret_per_decision": round(float(regret.mean()), 5),
                "regret_per_game": round(float(regret.sum() / n_games), 4)}
        if first is None:
            first = regret
        else:  # paired on the same decisions, taken as independent
            gain = first - regret
            line["less_than_first_per_game"] = round(float(gain.sum() / n_games), 4)
            line["ci95"] = round(float(1.96 * gain.std() * np.sqrt(len(gain)) / n_games), 4)
        report.append(line)
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m agents.training.distill_file", description=__doc__,
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
    lab.add_argument("--plies", type=int, default=1,
                     help="rolls of lookahead of the teacher (2: ~21 times the work)")
    lab.add_argument("--leaves", type=int, default=None,
                     help="the lookahead's last roll rates only each reply set's K best "
                          "plays by pubeval with the network (6: ~4x faster at --plies 2)")
    lab.add_argument("--chunk", type=int, default=None,
                     help="games a saved part holds (default 50, 5 with --plies 2 or more); "
                          "the same command after an interrupt goes on from OUT.parts/")
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
    fitp.add_argument("--rank-weight", type=float, default=0.0,
                      help="add the decisions' ordering of their plays to the loss, this weight")
    reg = sub.add_parser("regret", help="the teacher's equity that students' choices give up")
    reg.add_argument("labels", nargs="+")
    reg.add_argument("--models", nargs="+", required=True,
                     help="the network files to score, agent specs with probabilities "
                          "(gnubg:0: where GNU Backgammon's 0-ply stands), or 'labels' "
                          "(the teacher's lookahead itself, best scored with a --judge)")
    reg.add_argument("--hold", type=int, default=None,
                     help="score the games from this one (those a fit held out)")
    reg.add_argument("--plies", type=int, default=0,
                     help="network files choose by this many rolls of lookahead (a teacher)")
    reg.add_argument("--games", type=int, default=None,
                     help="score only this many games from --hold on")
    reg.add_argument("--candidates", type=int, default=None,
                     help="with --plies, choose by lookahead among each decision's K best "
                          "plays by 0-ply (as a label --top-k K teacher), not all of them")
    reg.add_argument("--leaves", type=int, default=None,
                     help="with --plies, prune the lookahead's last roll as label --leaves")
    reg.add_argument("--judge", default=None,
                     help="an agent spec whose equities judge the choices instead of the "
                          "labels, e.g. gnubg:1 (optional gnubg-nn)")
    args = parser.parse_args(argv)
    torch.set_num_threads(1)
    try:
        _run(args)
    except (ValueError, OSError) as exc:  # a refused setting, a file that is not there
        print(f"distill_file {args.step}: error: {exc}", file=sys.stderr)
        return 2
    return 0


def _run(args) -> None:
    """The step ``args.step`` with the parsed ``args``."""
    if args.step == "label":
        rows = label_file(args.teacher, args.out, args.games, args.seed, args.top_k,
                          args.workers, first=args.first, plies=args.plies,
                          chunk=args.chunk, leaves=args.leaves)
        print(f"{rows} labelled afterstates -> {args.out}")
    elif args.step == "regret":
        for line in regret_file(args.labels, args.models, args.hold, judge=args.judge,
                                plies=args.plies, max_games=args.games,
                                candidates=args.candidates, leaves=args.leaves):
            print(line)
    else:
        print(fit_file(args.labels, args.init, args.out, args.extras, args.hidden,
                       args.epochs, args.lr, args.hold, args.fit_seed,
                       rank_weight=args.rank_weight))


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
