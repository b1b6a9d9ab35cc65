"""Legal-play generation speed: ``legal_plays``, ``legal_plays_reference`` and
``gnubg_nn.moves`` on the same seeded random positions and dice, in one run.

    python benchmarks/bench_movegen.py [--cases 2000] [--seed 0] [--json]

Positions come from ``tests/helpers.py`` (every phase: contact, bar entry, closed boards,
bear-off, hits in bear-off, races, playouts). The reference generator is slow on doubles
in contact positions, so it runs on the first ``--reference-cases`` cases only and its
rate is compared with the others' rate on those same cases. Prints calls/s and ratios;
asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from helpers import random_cases  # noqa: E402

from bg_env.rules import legal_plays, legal_plays_reference  # noqa: E402


def rate(fn, cases, min_seconds: float) -> tuple[float, int]:
    """Calls per second of ``fn(position, dice)`` over ``cases``, repeated until at least
    ``min_seconds`` have passed; returns (calls/s, calls)."""
    calls, start = 0, time.perf_counter()
    while True:
        for position, dice in cases:
            fn(position, dice)
        calls += len(cases)
        elapsed = time.perf_counter() - start
        if elapsed >= min_seconds:
            return calls / elapsed, calls


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="legal-play generation calls/s")
    parser.add_argument("--cases", type=int, default=2000)
    parser.add_argument("--reference-cases", type=int, default=300)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--min-seconds", type=float, default=1.0)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)

    cases = [(p, d) for _phase, p, d in random_cases(args.cases, args.seed)]
    ref_cases = cases[: args.reference_cases]

    try:
        import gnubg_nn
    except ImportError:
        gnubg_nn = None

    def gnubg_moves(position, dice):  # board conversion included, as a caller would pay it
        return gnubg_nn.moves(position.gnubg_board(), dice[0], dice[1])

    out: dict = {
        "python": platform.python_version(),
        "cases": len(cases),
        "reference_cases": len(ref_cases),
        "seed": args.seed,
        "calls_per_s": {},
        "calls_per_s_on_reference_cases": {},
    }
    gens = {"legal_plays": legal_plays}
    if gnubg_nn is not None:
        gens["gnubg_nn.moves"] = gnubg_moves
    for name, fn in gens.items():
        out["calls_per_s"][name] = rate(fn, cases, args.min_seconds)[0]
        out["calls_per_s_on_reference_cases"][name] = rate(fn, ref_cases, args.min_seconds)[0]
    out["calls_per_s_on_reference_cases"]["legal_plays_reference"] = rate(
        legal_plays_reference, ref_cases, args.min_seconds
    )[0]
    fast, ref = out["calls_per_s"], out["calls_per_s_on_reference_cases"]
    ratios = {
        "legal_plays / legal_plays_reference": ref["legal_plays"] / ref["legal_plays_reference"],
    }
    if gnubg_nn is not None:
        ratios["gnubg_nn.moves / legal_plays"] = fast["gnubg_nn.moves"] / fast["legal_plays"]
        ratios["gnubg_nn.moves / legal_plays_reference"] = (
            ref["gnubg_nn.moves"] / ref["legal_plays_reference"]
        )
    out["ratios"] = ratios

    if args.json:
        print(json.dumps(out, indent=2))
        return 0
    print(f"{len(cases)} random positions+dice (seed {args.seed}), Python {out['python']}")
    if gnubg_nn is None:
        print("gnubg-nn not installed: gnubg_nn.moves skipped")
    print(f"{'generator':40s} {'all cases':>12s} {'first %d' % len(ref_cases):>12s}   (calls/s)")
    for name in [*gens, "legal_plays_reference"]:
        a, b = fast.get(name), ref.get(name)
        if a is None and b is None:
            continue
        fa = f"{a:12.0f}" if a is not None else f"{'-':>12s}"
        fb = f"{b:12.0f}" if b is not None else f"{'-':>12s}"
        print(f"{name:40s} {fa} {fb}")
    for name, value in ratios.items():
        print(f"{name:40s} {value:10.1f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
