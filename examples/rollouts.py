"""Batched random rollouts from one position through the vector env: many games started at
the same board (reset options), played to the end by random players on the numba
kernels, all stepped in one call; the outcome counts and the mean points estimate the
position's value under random play.

    python examples/rollouts.py --position-id 4HPwATDgc/ABMA --dice 3 1 --games 4096

Every game starts at the board given, ``--agent`` (``player_0`` by default) on roll with
``--dice`` (else a roll of its own); the learner is that agent, the opponent the
kernels' random player, each game's dice from its own generator (``--seed``). Each game
counts once, at its end: the steps go to the vector env's kernels
(:class:`~bg_env.envs.kernel_batch.KernelBatch`, ``venv.batch``), whose ``step`` leaves
the finished games as they are (``skip``) rather than start new ones. A quick check that
it is wired (seconds)::

    python examples/rollouts.py --smoke
"""

from __future__ import annotations

import argparse
import math
import time
from collections import Counter

import numpy as np

import bg_env


def random_actions(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A uniform legal action in every row of ``masks`` (the largest of independent
    uniform draws over the legal actions: each as likely to be it)."""
    return np.argmax(rng.random(masks.shape) * masks, axis=1)


def rollouts(position_id: str, games: int, seed: int = 0, agent: str = "player_0",
             dice: tuple[int, int] | None = None, **config) -> dict:
    """``games`` random games from ``position_id`` (``agent`` on roll, with ``dice`` or
    a roll of its own), played at once through :func:`bg_env.make_vec_env`. ``config``:
    the env's keys (the cube is off unless it says otherwise). Returns ``points`` (each
    game's points for ``agent``), ``outcomes`` (counts of ``"win single"``, ``"lose
    gammon"``, ...) and ``steps`` (the learner decisions made)."""
    config = {"cube": False, **config}
    venv = bg_env.make_vec_env(games, seed=seed, monitor=False, learner=agent, **config)
    options = {"position_id": position_id, "agent": agent}
    if dice is not None:
        options["dice"] = tuple(dice)
    venv.set_options(options)
    venv.reset()
    points = np.zeros(games)
    outcomes: Counter = Counter()
    done = np.zeros(games, dtype=bool)

    def count(i: int, reward: float, info: dict) -> None:
        points[i] = reward
        if info.get("TimeLimit.truncated"):
            name = "truncated"  # (max_turns: 2,000 turns by default)
        elif info.get("winner") is None:
            name = info["outcome"]  # (a draw, in Long Nardy with last_roll_draw)
        else:
            name = f"{'win' if info['winner'] == agent else 'lose'} {info['outcome']}"
        outcomes[name] += 1
        done[i] = True

    for i, info in enumerate(venv.reset_infos):  # ended before the agent's first decision
        if "terminal_observation" in info:
            count(i, info["opening_reward"], info)
    rng = np.random.default_rng(seed)
    batch = venv.batch  # the kernels under the vector env: their step can leave games be
    actions = np.zeros(games, dtype=np.int64)
    steps = 0
    while not done.all():
        live = np.flatnonzero(~done)
        actions[live] = random_actions(batch.games.mask[live], rng)
        _, rewards, dones, infos = batch.step(actions, skip=done)  # finished games wait
        steps += len(live)
        for i in np.flatnonzero(dones).tolist():
            count(i, float(rewards[i]), infos[i])
    return {"points": points, "outcomes": dict(outcomes), "steps": steps}


def main(argv: list[str] | None = None) -> dict:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--position-id", default="4HPwATDgc/ABMA",
                   help="GNU Backgammon Position ID, from the side on roll")
    p.add_argument("--agent", default="player_0", choices=("player_0", "player_1"))
    p.add_argument("--dice", type=int, nargs=2, metavar=("D1", "D2"), default=None)
    p.add_argument("--games", type=int, default=4096)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--smoke", action="store_true", help="64 games (a wiring check)")
    args = p.parse_args(argv)
    if args.smoke:
        args.games = 64
    start = time.process_time()
    out = rollouts(args.position_id, args.games, args.seed, args.agent, args.dice)
    seconds = time.process_time() - start
    points = out["points"]
    se = points.std(ddof=1) / math.sqrt(len(points)) if len(points) > 1 else 0.0
    print(f"{args.games} random games from {args.position_id} ({args.agent} on roll"
          f"{', dice ' + str(tuple(args.dice)) if args.dice else ''}): "
          f"{points.mean():+.3f} +- {se:.3f} points a game for {args.agent}")
    for name, n in sorted(out["outcomes"].items()):
        print(f"  {name:20s} {n / args.games:6.1%}")
    print(f"{args.games / max(seconds, 1e-9):.0f} games/s (CPU, compile included)")
    return out


if __name__ == "__main__":
    main()
