"""Where a decision's time goes in a variant: cProfile over random self-play through
``env(variant=V, cube=False)`` (the loop of ``bg-env bench --variants``).

    python benchmarks/profile_variants.py plakoto [--games 4] [--top 25]

Prints decisions/s without the profiler, then the profile (by own time and by cumulative
time). Fresh seeds for the profiled games, so that no cache built by the warm-up run
hides the generator's cost. Asserts nothing.

Measured before the variant kernels (``bg_env/kernels/variant_search.py``), on the 2-core
shared machine, plakoto and long_nardy, profiler on (so every share is inflated alike):
about 60-65% of the time was the pure-Python tree generator
(``variants/tree.py`` ``_expand``/``reach``/``iter_edges`` and ``steps.step``: in Long
Nardy ``step`` alone 44%, most of it ``blocks_illegally``, and the Python
``opp_index``), 11-15% the observation (``observe``: ``encode`` + ``encode_context``, and
in Long Nardy ``standard_view`` + ``encode_board``), about 10% the Game's bookkeeping
(``VariantTurn.move``/``next_actions`` set building over edges, ``legal_mask_int8`` from
a list, ``settle``, ``variant`` look-ups) and the rest the wrappers and the loop.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import time

from bg_env.bench.run import random_aec_game
from bg_env import backgammon_v0


def play(env, seeds) -> int:
    """Random self-play over ``seeds`` (one game each); returns the decisions made."""
    return sum(random_aec_game(env, seed) for seed in seeds)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("variant")
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--top", type=int, default=25)
    args = parser.parse_args()
    env = backgammon_v0.env(variant=args.variant, cube=False)
    play(env, [10**6])  # warm-up (compiles the kernels)
    t0 = time.perf_counter()
    steps = play(env, range(args.games))
    dt = time.perf_counter() - t0
    print(f"{args.variant}: {steps / dt:.0f} decisions/s ({1e6 * dt / steps:.0f} us/decision)")
    profile = cProfile.Profile()
    profile.runcall(play, env, range(1000, 1000 + args.games))
    stats = pstats.Stats(profile)
    stats.sort_stats("tottime").print_stats(args.top)
    stats.sort_stats("cumtime").print_stats(args.top)


if __name__ == "__main__":
    main()
