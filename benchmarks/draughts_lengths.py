"""How long random draughts games of each variant run: moves (both sides') and
decisions (steps of ``draughts_v0.env()``: a hop that is not forced), mean and longest
over many games, and how they end, both sides drawing from the action mask with one
``random.Random`` a game through the bench's PettingZoo loop, no move cap.

    python benchmarks/draughts_lengths.py --games 1000 --seed 0

A benchmark (it prints a table), not a test; docs/draughts.md quotes its output.
"""

from __future__ import annotations

import argparse
from collections import Counter

import numpy as np

from bg_env import draughts_v0
from bg_env.bench.run import random_aec_game
from bg_env.draughts.variants import VARIANTS


def main(argv=None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--variants", nargs="*", default=list(VARIANTS))
    args = parser.parse_args(argv)
    print(f"{'variant':14s} {'games':>6s} {'moves: mean':>12s} {'max':>5s} "
          f"{'decisions: mean':>16s} {'max':>5s}  ends")
    out = {}
    for variant in args.variants:
        env = draughts_v0.env(variant=variant, max_moves=None)  # the games as they run
        lengths, ends = [], Counter()
        for g in range(args.games):
            decisions = random_aec_game(env, args.seed + g)
            lengths.append((env.unwrapped.game.plies, decisions))
            ends[env.unwrapped.game.result[1]] += 1
        moves, decisions = np.array(lengths).T
        out[variant] = {"moves_mean": moves.mean(), "moves_max": int(moves.max()),
                        "decisions_mean": decisions.mean(),
                        "decisions_max": int(decisions.max()), "ends": dict(ends)}
        print(f"{variant:14s} {args.games:6d} {moves.mean():12.1f} {moves.max():5d} "
              f"{decisions.mean():16.1f} {decisions.max():5d}  "
              + ", ".join(f"{k} {v}" for k, v in ends.most_common()))
    return out


if __name__ == "__main__":
    main()
