"""How often an agent's money cube decisions agree with GNU Backgammon's 0-ply verdicts.

Not a test: a measurement (needs the optional gnubg-nn). Usage, from the repository root::

    python benchmarks/cube_agreement.py --agents td,ppo --games 60 --per-class 50 --json out.json

Positions: the boards before the roll of every turn (the opening excepted) of ``--games``
cubeless td-vs-td self-play games, cube centred, money play (Jacoby off, no beavers), the
player on roll at least an even favourite by gnubg's count (else the cube question is
idle).

Reference verdicts: gnubg-nn's Python bindings give no cubeful money evaluation
(``evaluate_cube_decision`` answers "Not implemented for money"), so the reference is GNU
Backgammon's 0-ply cubeful money method rebuilt from its parts: gnubg's own 0-ply
cubeless probabilities through Janowski's cube-life formulas with gnubg's default cube
efficiencies (0.68 in contact, the pip-count rule in races), which is what gnubg's 0-ply
money evaluation does (:mod:`agents.players.cube`). Each position gets one class: no double,
double/take, double/pass, too good; the set is balanced, ``--per-class`` of each (fewer
if self-play gave fewer).

Scores, for each agent deciding through its own ``cube_action``:

* double / no double: the agent doubles where the class is double/take or double/pass,
  and not where it is no double or too good (a never-doubling agent scores 50 %);
* take / pass: after a double, the agent (as the opponent) takes where the class is no
  double or double/take and passes where it is double/pass or too good (an always-taking
  agent scores 50 %).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections import Counter

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from agents import load_agent  # noqa: E402
from agents.players.cube import CubeSettings, money_verdict  # noqa: E402
from agents.evaluation.evaluate import MatchView  # noqa: E402
from bg_env.actions import DOUBLE, DROP, ROLL, TAKE  # noqa: E402
from bg_env.game.game import Game, Phase, Rules  # noqa: E402

CLASSES = ("no double", "double, take", "double, pass", "too good")


def self_play_positions(games: int, seed: int) -> list:
    """Pre-roll boards (player on roll's view) of cubeless td self-play games."""
    td = load_agent("td")
    seen, out = set(), []
    for i in range(games):
        rng = np.random.default_rng([seed, i])
        game = Game(Rules(cube=False))
        game.opening(rng)
        while game.phase != Phase.OVER:
            start = game.turn_start
            if game.turns > 0 and start is not None and start.position_id() not in seen:
                seen.add(start.position_id())
                out.append(start)
            plays = game.legal_continuations()
            game.play(td.choose_play(plays) if len(plays) > 1 else plays[0], rng)
    return out


def gnubg_class(gnubg, position, settings: CubeSettings) -> tuple[str, float]:
    probs = gnubg.probabilities(position)
    return money_verdict(probs, settings.life(position)).kind, float(probs[0])


def agent_decisions(agent, position) -> tuple[bool, bool]:
    """(doubles?, takes?) of ``agent`` at ``position``, cube centred, money play."""
    view = MatchView(None)
    view.game = game = Game.from_position(position, np.random.default_rng(0), Rules(cube=True))
    assert game.phase == Phase.CUBE
    doubles = agent.cube_action(view, game.legal_actions()) == DOUBLE
    game.offer_double()
    answer = agent.cube_action(view, game.legal_actions())
    assert answer in (TAKE, DROP)
    return doubles, answer == TAKE


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--agents", default="td", help="comma-separated agent specs")
    parser.add_argument("--games", type=int, default=60, help="self-play games to draw from")
    parser.add_argument("--per-class", type=int, default=50)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", help="write the results here")
    args = parser.parse_args(argv)

    gnubg = load_agent("gnubg")
    settings = CubeSettings()
    positions = self_play_positions(args.games, args.seed)
    by_class: dict[str, list] = {c: [] for c in CLASSES}
    for pos in positions:
        kind, p = gnubg_class(gnubg, pos, settings)
        if p >= 0.5:
            by_class[kind].append(pos)
    rng = np.random.default_rng(args.seed)
    chosen = []
    for kind in CLASSES:
        pool = by_class[kind]
        pick = rng.choice(len(pool), size=min(args.per_class, len(pool)), replace=False)
        chosen += [(kind, pool[i]) for i in sorted(pick)]
    counts = Counter(kind for kind, _ in chosen)
    print(f"{len(positions)} positions from {args.games} self-play games; "
          f"available per class (roller >= 50 %): "
          + ", ".join(f"{k}: {len(v)}" for k, v in by_class.items()))
    print("balanced set: " + ", ".join(f"{k}: {counts[k]}" for k in CLASSES))

    results = {"positions_drawn": len(positions), "set": dict(counts), "agents": {}}
    for spec in args.agents.split(","):
        agent = load_agent(spec)
        dbl_ok = take_ok = 0
        table = {k: Counter() for k in CLASSES}
        for kind, pos in chosen:
            doubles, takes = agent_decisions(agent, pos)
            dbl_ok += doubles == (kind in ("double, take", "double, pass"))
            take_ok += takes == (kind in ("no double", "double, take"))
            table[kind][("D" if doubles else "ND") + ("/T" if takes else "/P")] += 1
        n = len(chosen)
        res = {"double_agreement": dbl_ok / n, "take_agreement": take_ok / n, "n": n,
               "by_class": {k: dict(v) for k, v in table.items()}}
        results["agents"][spec] = res
        print(f"{spec:8s} double/no double {dbl_ok / n:6.1%}   take/pass {take_ok / n:6.1%}   "
              f"({n} positions)")
        for kind in CLASSES:
            print(f"    gnubg {kind:13s}: {spec} " + ", ".join(
                f"{k} {v}" for k, v in sorted(table[kind].items())))
    naive_dbl = (counts["no double"] + counts["too good"]) / max(len(chosen), 1)
    naive_take = (counts["no double"] + counts["double, take"]) / max(len(chosen), 1)
    results["cube_naive"] = {"double_agreement": naive_dbl, "take_agreement": naive_take}
    print(f"cube-naive: double/no double {naive_dbl:6.1%}   take/pass {naive_take:6.1%}")
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(results, fh, indent=2)
        print(f"wrote {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
