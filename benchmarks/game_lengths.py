"""How long random games of each variant run: decisions (steps of ``backgammon_v0.env()``)
and turns, mean and longest over many games, both sides drawing from the action mask
with one ``random.Random`` a game, through the bench's PettingZoo loop.

    python benchmarks/game_lengths.py --games 1000 --seed 0

A benchmark (it prints a table), not a test; docs/variants.md quotes its output.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from bg_env import backgammon_v0
from bg_env.bench.run import random_aec_game
from bg_env.rules.variants import VARIANTS


def one_game(env, seed: int) -> tuple[int, int]:
    """(decisions, turns) of one random game: the bench's PettingZoo loop
    (:func:`bg_env.bench.run.random_aec_game`)."""
    decisions = random_aec_game(env, seed)
    return decisions, env.unwrapped.game.turns


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--variants", nargs="*", default=[v for v in VARIANTS if v != "hypergammon"])
    args = parser.parse_args(argv)
    print(f"{'variant':14s} {'games':>6s} {'decisions: mean':>16s} {'max':>7s} "
          f"{'turns: mean':>12s} {'max':>6s} {'s':>6s}")
    for variant in args.variants:
        env = backgammon_v0.env(variant=variant, max_turns=None)  # the games as they run
        began = time.process_time()
        lengths = np.array([one_game(env, args.seed + g) for g in range(args.games)])
        took = time.process_time() - began
        print(f"{variant:14s} {args.games:6d} {lengths[:, 0].mean():16.1f} {lengths[:, 0].max():7d} "
              f"{lengths[:, 1].mean():12.1f} {lengths[:, 1].max():6d} {took:6.1f}")


if __name__ == "__main__":
    main()
