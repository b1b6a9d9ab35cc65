"""Draughts players against each other: games with the colours alternating, the score
of the first player (a win 1, a draw 1/2) and its standard error.

    python -m agents.evaluation.draughts --variant english --games 100 --depth 3

plays alpha-beta (``--depth`` moves) against random (or, with ``--against D``, against
alpha-beta of depth ``D``) and prints the score.
"""

from __future__ import annotations

import argparse
import math
import time

from agents.players.draughts import DraughtsAlphaBeta, DraughtsRandom
from bg_env import draughts_v0
from bg_env.draughts.variants import VARIANTS

__all__ = ["play_game", "play_games", "main"]


def play_game(first, second, variant: str, seed: int) -> tuple[int, str]:
    """One game, ``first`` as ``player_0``: ``(+1, -1 or 0 for player_0, reason)``."""
    env = draughts_v0.raw_env(variant=variant)
    env.reset(seed=seed)
    players = {"player_0": first, "player_1": second}
    while not env.terminations[env.agent_selection]:
        env.step(players[env.agent_selection].act(env))
    return env.rewards["player_0"], env.infos["player_0"]["reason"]


def play_games(a, b, games: int, variant: str = "international", seed: int = 0) -> dict:
    """``games`` games of ``a`` against ``b``, ``a`` moving first in the even ones:
    ``{"score": a's mean (win 1, draw 1/2, loss 0), "se", "wins", "draws", "losses",
    "reasons"}``."""
    points, reasons = [], {}
    for k in range(games):
        first, second = (a, b) if k % 2 == 0 else (b, a)
        reward, reason = play_game(first, second, variant, seed + k)
        mine = reward if k % 2 == 0 else -reward
        points.append((mine + 1) / 2)
        reasons[reason] = reasons.get(reason, 0) + 1
    mean = sum(points) / games
    var = sum((p - mean) ** 2 for p in points) / max(games - 1, 1)
    return {"score": mean, "se": math.sqrt(var / games), "wins": points.count(1.0),
            "draws": points.count(0.5), "losses": points.count(0.0), "reasons": reasons}


def main(argv: list[str] | None = None) -> dict:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--variant", default="international",
                   choices=list(VARIANTS))
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--depth", type=int, default=3, help="alpha-beta depth, in moves")
    p.add_argument("--against", type=int, default=0,
                   help="the opponent's alpha-beta depth (0: the random player)")
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args(argv)
    if args.games < 1:
        p.error(f"--games {args.games}: expected 1 or more")
    if args.depth < 1 or args.against < 0:
        p.error(f"--depth {args.depth} / --against {args.against}: expected 1 or more / 0 "
                "or more")
    start = time.process_time()
    opponent = (DraughtsAlphaBeta(args.against, seed=args.seed + 1) if args.against
                else DraughtsRandom(args.seed))
    out = play_games(DraughtsAlphaBeta(args.depth, seed=args.seed), opponent, args.games,
                     args.variant, args.seed)
    seconds = time.process_time() - start
    against = f"depth {args.against}" if args.against else "random"
    print(f"alpha-beta depth {args.depth} against {against}, {args.variant}, {args.games} games: "
          f"score {out['score']:.3f} +- {out['se']:.3f} ({out['wins']} won, {out['draws']} "
          f"drawn, {out['losses']} lost; {seconds:.0f} s CPU)")
    return out


if __name__ == "__main__":
    main()
