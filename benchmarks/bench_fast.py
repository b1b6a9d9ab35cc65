"""Legal-play generation speed: pure Python, the numba kernels, and GNU Backgammon.

Every generator runs on the same positions and dice: positions met in seeded random games
(played with the fast generator from the standard start) and, separately, the opening
position with 3-1. Rates are calls per second of this process's CPU time, best of
``--repeat`` rounds; in each round every generator runs one pass of at least ``--min-time``
seconds, in turn, so that a change of the machine's load falls on all of them alike (the
wall clock of a shared machine would count the waits, one generator at a time); ratios are against the pure-Python ``legal_plays`` and
against ``gnubg_nn.moves`` (GNU Backgammon's C move generator behind its Python binding,
which returns move keys, no objects). Also timed: the step-by-step masks used by the env
(``turn_plan`` + ``next_move_mask`` against ``max_dice_usable`` + ``legal_next_moves``).

    python benchmarks/bench_fast.py [--positions 2000] [--json]

The first call of each kernel (compilation, or loading numba's on-disk cache) is timed
and reported too. Nothing is asserted; tests/core/test_fast.py checks correctness.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bg_env.rules import (  # noqa: E402
    Position,
    dice_to_play,
    legal_next_moves,
    legal_plays,
    max_dice_usable,
    single_moves,
)


def first_calls() -> dict[str, float]:
    """Seconds taken by the first call of each kernel (compile or cache load)."""
    t0 = time.perf_counter()
    from bg_env.kernels import fast, masks as mask_kernels

    out = {"import bg_env.kernels.fast": time.perf_counter() - t0}
    start = Position.start()
    me, opp = np.array(start.me, np.int8), np.array(start.opp, np.int8)
    buf = np.empty((8, 26), np.int8), np.empty((8, 26), np.int8), np.empty((8, 4), np.int16)
    calls = {
        "fast_legal_plays": lambda: fast.fast_legal_plays(me, opp, 3, 1),
        "fast_legal_plays_into": lambda: fast.fast_legal_plays_into(me, opp, 3, 1, *buf),
        "legal_plays_fast": lambda: fast.legal_plays_fast(start, (3, 1)),
        "turn_plan": lambda: mask_kernels.turn_plan(me, opp, 3, 1),
        "next_move_mask": lambda: mask_kernels.next_move_mask(me, opp, np.array([3, 1], np.int8), 2, 0),
    }
    for name, call in calls.items():
        t0 = time.perf_counter()
        call()
        out[name] = time.perf_counter() - t0
    return out


def playout_cases(n: int, seed: int) -> list[tuple[Position, tuple[int, int]]]:
    """``n`` (position, dice) pairs met in random games from the start."""
    from bg_env.kernels.fast import legal_plays_fast

    rng = random.Random(seed)
    cases: list[tuple[Position, tuple[int, int]]] = []
    while len(cases) < n:
        position = Position.start()
        while position.outcome() is None and len(cases) < n:
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            cases.append((position, dice))
            position = rng.choice(legal_plays_fast(position, dice)).result.swap()
    return cases


def rates_of(generators: dict[str, tuple], min_time: float, repeat: int) -> dict[str, float]:
    """Best calls per CPU second of each ``{label: (call, args)}`` over ``repeat`` rounds,
    every generator taking one pass of at least ``min_time`` seconds in each round."""
    best = dict.fromkeys(generators, 0.0)
    for _ in range(repeat):
        for label, (call, args) in generators.items():
            calls, start = 0, time.process_time()
            while True:
                for a in args:
                    call(*a)
                calls += len(args)
                elapsed = time.process_time() - start
                if elapsed >= min_time:
                    break
            best[label] = max(best[label], calls / elapsed)
    return best


def plan_python(position: Position, dice: tuple[int, int]):
    """The pure-Python first step of a turn: dice needed, larger-die rule, legal moves."""
    to_play = dice_to_play(dice)
    need = max_dice_usable(position, to_play)
    larger = max(dice)
    if dice[0] == dice[1] or need != 1 or not single_moves(position, larger):
        larger = 0
    return legal_next_moves(position, to_play, need, larger)


def plan_fast(me, opp, d1, d2, remaining):
    from bg_env.kernels.masks import next_move_mask, turn_plan

    need, larger = turn_plan(me, opp, d1, d2)
    return next_move_mask(me, opp, remaining, need, larger)


def run(n_positions: int, seed: int, min_time: float, repeat: int) -> dict:
    compile_s = first_calls()
    from bg_env.kernels.fast import fast_legal_plays, fast_legal_plays_into, legal_plays_fast

    try:
        import gnubg_nn
    except ImportError:  # pragma: no cover - optional referee
        gnubg_nn = None

    sets = {
        "random games": playout_cases(n_positions, seed),
        "start 3-1": [(Position.start(), (3, 1))] * 200,
    }
    rows = 4096  # more than any position has plays
    buffers = (
        np.empty((rows, 26), np.int8),
        np.empty((rows, 26), np.int8),
        np.empty((rows, 4), np.int16),
    )
    results: dict = {"compile_or_load_s": compile_s, "sets": {}}
    for name, cases in sets.items():
        arrays = [(np.array(p.me, np.int8), np.array(p.opp, np.int8), d[0], d[1]) for p, d in cases]
        objects = [(p, d) for p, d in cases]
        generators = {
            "legal_plays (pure Python)": (legal_plays, objects),
            "legal_plays_fast (Play objects)": (legal_plays_fast, objects),
            "fast_legal_plays (kernel, arrays)": (fast_legal_plays, arrays),
            "fast_legal_plays_into (kernel, buffers)": (
                fast_legal_plays_into,
                [a + buffers for a in arrays],
            ),
        }
        if gnubg_nn is not None:
            boards = [(p.gnubg_board(), d[0], d[1]) for p, d in cases]
            generators["gnubg_nn.moves (C)"] = (gnubg_nn.moves, boards)
        rates = rates_of(generators, min_time, repeat)
        plays = sum(len(legal_plays_fast(p, d)) for p, d in objects) / len(objects)
        masks = {
            "max_dice_usable + legal_next_moves (pure Python)": (plan_python, objects),
            "turn_plan + next_move_mask (kernels)": (
                plan_fast,
                [a + (np.array(dice_to_play(d), np.int8),) for a, (_, d) in zip(arrays, objects)],
            ),
        }
        mask_rates = rates_of(masks, min_time, repeat)
        results["sets"][name] = {
            "cases": len(cases),
            "mean_plays": plays,
            "legal_plays_per_s": rates,
            "first_step_mask_per_s": mask_rates,
        }
    results["machine"] = {
        "python": platform.python_version(),
        "processor": platform.processor() or platform.machine(),
    }
    return results


def print_table(results: dict) -> None:
    print("First call of each kernel (compile, or load from numba's cache):")
    for name, seconds in results["compile_or_load_s"].items():
        print(f"  {name:28s} {seconds:8.3f} s")
    for name, data in results["sets"].items():
        rates = data["legal_plays_per_s"]
        python = rates["legal_plays (pure Python)"]
        gnubg = rates.get("gnubg_nn.moves (C)")
        print(f"\n{name}: {data['cases']} cases, {data['mean_plays']:.1f} plays on average")
        print(f"  {'generator':42s} {'calls/s':>10s} {'x Python':>9s} {'x gnubg':>8s}")
        for label, r in rates.items():
            vs_gnubg = f"{r / gnubg:8.2f}" if gnubg else "       -"
            print(f"  {label:42s} {r:10.0f} {r / python:9.1f} {vs_gnubg}")
        masks = data["first_step_mask_per_s"]
        base = next(iter(masks.values()))
        print(f"  {'first step of a turn (plan + mask)':42s}")
        for label, r in masks.items():
            print(f"  {label:52s} {r:10.0f} {r / base:7.1f}x")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=2000, help="random-game cases")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--min-time", type=float, default=0.5, help="seconds per timed pass")
    parser.add_argument("--repeat", type=int, default=3, help="timed passes (best is kept)")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    args = parser.parse_args(argv)
    results = run(args.positions, args.seed, args.min_time, args.repeat)
    if args.json:
        print(json.dumps(results, indent=2))
    else:
        print_table(results)


if __name__ == "__main__":
    main()
