"""Draughts random self-play beside OpenSpiel's checkers (English draughts, its only
variant): one run, process CPU time, the rows taking turns
(``bg_env.bench.timing.interleaved``), both driven by each library's documented loop with
the same picker (``random.Random``): PettingZoo's ``agent_iter`` / ``last()`` /
``step`` (``None`` once an agent is done; ``bg-env bench``'s loop,
:func:`bg_env.bench.run.random_aec_game`) on ``draughts_v0.env(variant="english")``, and
``legal_actions()`` / ``apply_action`` on OpenSpiel's state. Games per CPU second; the
decisions of a game are each library's (a hop here, a jump there: the same unit).
Then the legal-move generators alone, in the same run: the Python reference
(:func:`bg_env.draughts.moves.legal_moves`) and its compiled fast path
(:func:`bg_env.kernels.draughts.fast_legal_moves`, which the env uses), over the positions
of random games, calls per CPU second.

    python benchmarks/draughts_speed.py --seconds 5
"""

from __future__ import annotations

import argparse
import itertools
import random

from bg_env import draughts_v0
from bg_env.bench.run import random_aec_game
from bg_env.bench.timing import games_row, interleaved
from bg_env.draughts import DraughtsPosition, apply_move, legal_moves
from bg_env.kernels.draughts import fast_legal_moves

GENERATORS = {"reference": legal_moves, "kernel": fast_legal_moves}


def openspiel_game(game, rnd: random.Random) -> int:
    state, steps = game.new_initial_state(), 0
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply_action(legal[rnd.randrange(len(legal))])
        steps += 1
    return steps


def game_positions(variant: str, games: int = 20, plies: int = 200,
                   seed: int = 0) -> list[DraughtsPosition]:
    """The positions of ``games`` random games of ``variant`` (``plies`` moves at most)."""
    rnd, out = random.Random(seed), []
    for _ in range(games):
        pos = DraughtsPosition.start(variant)
        for _ in range(plies):
            out.append(pos)
            moves = legal_moves(pos)
            if not moves:
                break
            pos = apply_move(pos, rnd.choice(moves))
    return out


def generator_row(generate, positions: list[DraughtsPosition]):
    """A row calling ``generate`` on each of ``positions``: ``(calls, moves listed)``."""
    def block() -> tuple[int, int]:
        return len(positions), sum(len(generate(p)) for p in positions)
    return block


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
    games = len(rows)
    for variant in ("english", "international", "turkish"):
        positions = game_positions(variant)
        fast_legal_moves(positions[0])  # (compiled, or loaded from the cache, first)
        for name, generate in GENERATORS.items():
            rows[f"legal moves, {name} ({variant})"] = generator_row(generate, positions)
    measured = interleaved(rows, args.seconds)
    for i, (name, m) in enumerate(measured.items()):
        unit = ("games/s", "decisions/s") if i < games else ("calls/s", "moves/s")
        print(f"{name:36s} {m['per_s']:10.1f} {unit[0]} {m['steps_per_s']:11.0f} {unit[1]}")
    if pyspiel is not None:
        base = measured["OpenSpiel checkers"]["per_s"]
        print(f"draughts_v0 (english) / OpenSpiel checkers: "
              f"{measured['draughts_v0.env(english)']['per_s'] / base:.2f}x")
    for variant in ("english", "international", "turkish"):
        ratio = (measured[f"legal moves, kernel ({variant})"]["per_s"]
                 / measured[f"legal moves, reference ({variant})"]["per_s"])
        print(f"legal moves ({variant}), kernel / reference: {ratio:.2f}x")
    return measured


if __name__ == "__main__":
    main()
