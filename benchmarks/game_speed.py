"""How fast a :class:`~bg_env.game.game.Game` plays, in CPU time: random self-play one
decision at a time (``Game.step``; standard and Plakoto) and by whole plays
(``legal_continuations`` + ``play``, what the play-level envs and TD-Gammon's self-play
use), and ``env()`` match play (7-point matches with the cube).

Run it in two checkouts one after the other to compare them (``PYTHONPATH=.`` so that the
checkout's own code is imported)::

    cd <checkout> && PYTHONPATH=. python benchmarks/game_speed.py --games 200
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np

from bg_env import backgammon_v0
from bg_env.game.game import Game, Rules


def self_play(games: int, variant: str = "standard", whole_plays: bool = False) -> float:
    """Random self-play, decisions (or, with ``whole_plays``, plays) per CPU second: one
    ``Game.step`` at a time with random legal actions, or ``Game.play`` with random
    ``legal_continuations``."""
    rng, pick, count = np.random.default_rng(0), random.Random(0), 0
    start = time.process_time()
    for _ in range(games):
        game = Game(Rules(cube=False, variant=variant))
        game.opening(rng)
        while game.result is None:
            if whole_plays:
                options = game.legal_continuations()
                game.play(options[pick.randrange(len(options))], rng)
            else:
                legal = game.legal_actions()
                game.step(legal[pick.randrange(len(legal))], rng)
            count += 1
    return count / (time.process_time() - start)


def match_play(matches: int) -> float:
    """Decisions per CPU second through ``env(match_length=7, cube=True)``."""
    env = backgammon_v0.env(match_length=7, cube=True)
    pick, decisions = random.Random(0), 0
    start = time.process_time()
    for seed in range(matches):
        env.reset(seed=seed)
        for agent in env.agent_iter():
            _, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            legal = np.flatnonzero(env.observe(agent)["action_mask"])
            env.step(int(legal[pick.randrange(len(legal))]))
            decisions += 1
    return decisions / (time.process_time() - start)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per row")
    parser.add_argument("--matches", type=int, default=20, help="matches for env() match play")
    args = parser.parse_args(argv)
    self_play(3), self_play(3, whole_plays=True), self_play(1, "plakoto"), match_play(1)  # compile
    plakoto_games = max(1, args.games // 4)  # a quarter of --games, at least one
    print(f"Game.step, standard      {self_play(args.games):10.0f} decisions/s")
    print(f"Game.step, plakoto       {self_play(plakoto_games, 'plakoto'):10.0f} decisions/s")
    print(f"Game.play, whole plays   {self_play(args.games, whole_plays=True):10.0f} plays/s")
    print(f"env() 7-point matches    {match_play(args.matches):10.0f} decisions/s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
