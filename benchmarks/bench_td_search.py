"""Moves per second of the td agent at 0-ply and with its one-roll search (``td:2ply``,
``td:2ply:all``) on the same positions: the positions before each play with a choice in
td self-play games, seeded.

    python benchmarks/bench_td_search.py --positions 150 --seed 0
    python benchmarks/bench_td_search.py --agents td,td:OTHER.pt   # 0-ply, two models
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from agents import load_agent
from bg_env.game.game import Game, Phase, Rules


def positions(n: int, seed: int) -> list[tuple]:
    """``(position, dice)`` before ``n`` plays with more than one choice, from td's
    cubeless self-play."""
    td = load_agent("td")
    rng = np.random.default_rng(seed)
    out: list[tuple] = []
    while len(out) < n:
        game = Game(Rules(cube=False))
        game.opening(rng)
        while game.phase != Phase.OVER and len(out) < n:
            plays = game.legal_continuations()
            if len(plays) > 1:
                out.append((game.position, tuple(game.dice)))
            game.play(td.choose_play(plays) if len(plays) > 1 else plays[0], rng)
    return out


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=150)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--agents", default="td,td:2ply,td:2ply:all",
                        help="comma-separated agent specs, timed in turn on the same positions")
    args = parser.parse_args(argv)
    cases = positions(args.positions, args.seed)
    for spec in args.agents.split(","):
        agent = load_agent(spec)
        agent.choose_play(cases[0][0].legal_plays(cases[0][1]))  # warm up
        start = time.perf_counter()
        for pos, dice in cases:
            agent.choose_play(pos.legal_plays(dice))
        seconds = time.perf_counter() - start
        print(f"{spec:12s} {len(cases) / seconds:8.1f} moves/s ({len(cases)} positions)")


if __name__ == "__main__":
    main()
