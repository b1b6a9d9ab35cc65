"""Draughts random self-play beside OpenSpiel's checkers (English draughts, its only
variant): one run, process CPU time, the rows taking turns
(``bg_env.bench.timing.interleaved``), both driven by each library's documented loop with
the same picker (``random.Random``): PettingZoo's ``agent_iter`` / ``last()`` /
``step`` (``None`` once an agent is done; ``bg-env bench``'s loop,
:func:`bg_env.bench.run.random_aec_game`) on ``draughts_v0.env(variant="english")``, and
``legal_actions()`` / ``apply_action`` on OpenSpiel's state. Games per CPU second; the
decisions of a game are each library's (a hop here, a jump there: the same unit).

    python benchmarks/draughts_speed.py --seconds 5
"""

from __future__ import annotations

import argparse
import random

import itertools

from bg_env import draughts_v0
from bg_env.bench.run import random_aec_game
from bg_env.bench.timing import games_row, interleaved


def openspiel_game(game, rnd: random.Random) -> int:
    state, steps = game.new_initial_state(), 0
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply_action(legal[rnd.randrange(len(legal))])
        steps += 1
    return steps


def main(argv: list[str] | None = None) -> dict:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--seconds", type=float, default=5.0, help="CPU seconds per row")
    args = p.parse_args(argv)
    rows = {}
    for variant in ("english", "international"):
        env, seeds = draughts_v0.env(variant=variant), itertools.count()
        rows[f"draughts_v0.env({variant})"] = games_row(
            lambda env=env, seeds=seeds: random_aec_game(env, next(seeds)))
    try:
        import pyspiel
    except ImportError:
        pyspiel = None
    if pyspiel is not None:
        game, rnd = pyspiel.load_game("checkers"), random.Random(0)
        rows["OpenSpiel checkers"] = games_row(lambda: openspiel_game(game, rnd))
    measured = interleaved(rows, args.seconds)
    for name, m in measured.items():
        print(f"{name:34s} {m['per_s']:9.1f} games/s {m['steps_per_s']:11.0f} decisions/s")
    if pyspiel is not None:
        base = measured["OpenSpiel checkers"]["per_s"]
        print(f"draughts_v0 (english) / OpenSpiel checkers: "
              f"{measured['draughts_v0.env(english)']['per_s'] / base:.2f}x")
    return measured


if __name__ == "__main__":
    main()
