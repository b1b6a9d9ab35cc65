"""How often an agent's cube decisions agree with GNU Backgammon's own verdicts.

Not a test: a measurement. It needs the optional ``gnubg`` package (GNU Backgammon as a
Python module, GPL-3.0: ``pip install 'bg-env[cube-reference]'``), whose ``hint`` gives
the reference (:mod:`agents.evaluation.gnubg_cube`). Usage, from the repository root::

    python benchmarks/cube_agreement.py --agents td,gnubg --games 150 --per-class 100

``--corpus FILE`` keeps the balanced sets (each position's ID, context and gnubg's
verdict) as JSON, ``--json FILE`` the scores. Where gnubg-nn (the ``referee`` extra) is
installed, each agent's mean absolute difference from its 0-ply probabilities on the set
is printed too: where the agent's cube decisions go wrong.

Positions: the boards before the roll of every turn (the opening excepted) of ``--games``
cubeless td-vs-td self-play games, the player on roll at least an even favourite by
gnubg's count (else the cube question is idle), in each context: money play (Jacoby off,
no beavers) in each cube state of ``--cubes`` (``centred``: cube 1; ``owned``: cube 2,
owned by the player on roll, who may redouble), and a match at each score of
``--scores`` (``7:4-2``: a 7-point match, the player on roll at 4, the other at 2; cube
centred; a side 1-away with no Crawford game means post-Crawford, as in gnubg).

Reference: GNU Backgammon's cube analysis of each (``--plies``, 0 by default): its
cubeful equities of no double, double/take and double/pass and its proper cube action,
one of four classes -- no double, double/take, double/pass, too good (an optional double,
where both are worth the same, is left out). The set is balanced
in each cube state, ``--per-class`` of each class (fewer if self-play gave fewer).

Scores, for each agent deciding through its own ``cube_action``:

* double / no double: the agent doubles where gnubg says double (take or pass), and not
  where it says no double or too good (a never-doubling agent scores 50 %);
* take / pass: after a double the agent (as the opponent) takes where gnubg's proper
  action ends "take" and passes where it ends "pass" (an always-taking agent scores 50 %).

``--agents`` takes any :func:`agents.load_agent` spec; ``gnubg`` is GNU Backgammon's
neural net (the ``referee`` extra's gnubg-nn) through bg_env's own cube model
(:mod:`agents.players.cube`), which shows what that model gives with gnubg's
probabilities.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sys
from collections import Counter

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from agents import load_agent  # noqa: E402
from agents.evaluation.evaluate import MatchView  # noqa: E402
from agents.evaluation.gnubg_cube import KINDS, GnubgCube  # noqa: E402
from bg_env.actions import DOUBLE, DROP, TAKE  # noqa: E402
from bg_env.files import write_atomically  # noqa: E402
from bg_env.game.game import Game, Phase, Rules  # noqa: E402
from bg_env.game.match import Match  # noqa: E402

CUBES = {"centred": (1, -1), "owned": (2, 0)}
"""Cube states: ``(value, owner)``, the owner 0 the player on roll."""


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


def agent_decisions(agent, position, cube: tuple[int, int] = (1, -1),
                    match: tuple[int, tuple[int, int]] | None = None) -> tuple[bool, bool]:
    """(doubles?, takes?) of ``agent`` at ``position`` (player on roll to decide; ``cube``:
    value and owner), money play, or in a match ``(length, (roller's score, other's))``."""
    view = MatchView(None if match is None else Match(match[0], Rules(cube=True),
                                                      score=match[1]))
    rules = Rules(cube=True) if match is None else view.match.game_rules()
    view.game = game = Game.from_position(position, np.random.default_rng(0), rules,
                                          cube_value=cube[0], cube_owner=cube[1])
    assert game.phase == Phase.CUBE
    doubles = agent.cube_action(view, game.legal_actions()) == DOUBLE
    game.offer_double()
    answer = agent.cube_action(view, game.legal_actions())
    assert answer in (TAKE, DROP)
    return doubles, answer == TAKE


def contexts(cubes: list[str], scores: list[str]) -> dict[str, dict]:
    """The contexts to measure, by name: ``{"cube": (value, owner), "match": None or
    (length, (roller, other))}``.

    Raises:
        ValueError: an unknown cube state or a score that does not read (named).
    """
    out = {}
    for name in cubes:
        if name not in CUBES:
            raise ValueError(f"--cubes: unknown {name!r}; expected some of {list(CUBES)}")
        out[f"money, cube {name}"] = {"cube": CUBES[name], "match": None}
    for text in scores:
        try:
            length, score = text.split(":")
            mine, theirs = (int(x) for x in score.split("-"))
            match = (int(length), (mine, theirs))
            Match(match[0], score=match[1])
        except ValueError as exc:
            raise ValueError(f"--scores: {text!r} is not LENGTH:ROLLER-OTHER with both "
                             f"below the length ({exc})") from None
        if max(match[1]) >= match[0]:
            raise ValueError(f"--scores: {text!r}: the match is over")
        out[f"{match[0]}-point match at {mine}-{theirs}"] = {"cube": (1, -1), "match": match}
    return out


def balanced_set(reference: GnubgCube, positions: list, context: dict, per_class: int,
                 rng) -> tuple[list, dict]:
    """``[(verdict, position)]``, up to ``per_class`` of each class, and how many of each
    the positions held (player on roll >= 50 %; optional doubles left out)."""
    (value, owner), match = context["cube"], context["match"]
    extra = {} if match is None else {"match_length": match[0], "score": match[1]}
    by_kind: dict[str, list] = {k: [] for k in KINDS}
    for pos in positions:
        verdict = reference.verdict(pos, value, owner, **extra)
        if verdict.win >= 0.5 and verdict.kind in by_kind:
            by_kind[verdict.kind].append((verdict, pos))
    chosen = []
    for kind in KINDS:
        pool = by_kind[kind]
        pick = rng.choice(len(pool), size=min(per_class, len(pool)), replace=False)
        chosen += [pool[i] for i in sorted(pick)]
    return chosen, {k: len(v) for k, v in by_kind.items()}


def score(agent, chosen: list, context: dict) -> dict:
    """The agent's agreement with the verdicts of ``chosen``."""
    dbl_ok = take_ok = 0
    table = {k: Counter() for k in KINDS}
    for verdict, pos in chosen:
        doubles, takes = agent_decisions(agent, pos, context["cube"], context["match"])
        dbl_ok += doubles == verdict.doubles
        take_ok += takes == verdict.takes
        table[verdict.kind][("D" if doubles else "ND") + ("/T" if takes else "/P")] += 1
    n = max(len(chosen), 1)
    return {"double_agreement": dbl_ok / n, "take_agreement": take_ok / n, "n": len(chosen),
            "by_class": {k: dict(v) for k, v in table.items()}}


PROBABILITIES = ("win", "win gammon", "win backgammon", "lose gammon", "lose backgammon")


def probability_errors(agent, reference, positions: list) -> dict[str, float] | None:
    """Mean absolute difference between ``agent``'s five cumulative probabilities and
    ``reference``'s (gnubg-nn 0-ply) over ``positions`` (the player on roll's); None when
    the agent gives none."""
    if not hasattr(agent, "probabilities") or not positions:
        return None
    diff = np.mean([np.abs(np.asarray(agent.probabilities(p), float)
                           - np.asarray(reference.probabilities(p), float))
                    for p in positions], axis=0)
    return dict(zip(PROBABILITIES, map(float, diff)))


def corpus_entry(name: str, context: dict, verdict, position) -> dict:
    """One position of a balanced set as the corpus stores it."""
    return {"context": name, "position_id": position.position_id(),
            "cube": list(context["cube"]),
            "match": None if context["match"] is None else [context["match"][0],
                                                            list(context["match"][1])],
            **dataclasses.asdict(verdict)}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--agents", default="td", help="comma-separated agent specs")
    parser.add_argument("--games", type=int, default=60, help="self-play games to draw from")
    parser.add_argument("--per-class", type=int, default=50)
    parser.add_argument("--cubes", default="centred,owned",
                        help=f"cube states, comma-separated: {', '.join(CUBES)}")
    parser.add_argument("--scores", default="",
                        help="match scores, comma-separated: 7:4-2 is a 7-point match, the "
                             "player on roll at 4, the other at 2")
    parser.add_argument("--plies", type=int, default=0, help="gnubg's cube look-ahead")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", help="write the results here")
    parser.add_argument("--corpus", help="write the balanced sets here (JSON: each "
                        "position's ID, context and gnubg's verdict)")
    args = parser.parse_args(argv)
    try:
        measured = contexts([c for c in args.cubes.split(",") if c],
                            [s for s in args.scores.split(",") if s])
    except ValueError as exc:
        parser.error(str(exc))

    reference = GnubgCube(args.plies)
    positions = self_play_positions(args.games, args.seed)
    print(f"{len(positions)} positions from {args.games} td self-play games; reference: "
          f"gnubg {args.plies}-ply cube analysis (money: Jacoby off, no beavers)")
    agents = {spec: load_agent(spec) for spec in args.agents.split(",")}
    try:  # gnubg-nn's probabilities beside each agent's (the referee extra)
        probability_reference = agents.get("gnubg") or load_agent("gnubg")
    except (ImportError, ValueError):
        probability_reference = None
    results = {"positions_drawn": len(positions), "plies": args.plies, "contexts": {}}
    corpus = []
    for name, context in measured.items():
        chosen, available = balanced_set(reference, positions, context, args.per_class,
                                         np.random.default_rng(args.seed))
        counts = Counter(v.kind for v, _ in chosen)
        corpus += [corpus_entry(name, context, verdict, pos) for verdict, pos in chosen]
        print(f"\n{name}: available (roller >= 50 %): "
              + ", ".join(f"{k} {available[k]}" for k in KINDS)
              + "; balanced set: " + ", ".join(f"{k} {counts[k]}" for k in KINDS))
        out = {"available": available, "set": dict(counts), "agents": {}}
        for spec, agent in agents.items():
            res = out["agents"][spec] = score(agent, chosen, context)
            print(f"  {spec:8s} double/no double {res['double_agreement']:6.1%}   take/pass "
                  f"{res['take_agreement']:6.1%}   ({res['n']} positions)")
            for kind in KINDS:
                print(f"      gnubg {kind:13s}: {spec} " + ", ".join(
                    f"{k} {v}" for k, v in sorted(res["by_class"][kind].items())))
            errors = (None if probability_reference is None or spec == "gnubg" else
                      probability_errors(agent, probability_reference, [p for _, p in chosen]))
            if errors is not None:
                res["probability_errors"] = errors
                print(f"      mean |{spec} - gnubg-nn| probabilities: " + ", ".join(
                    f"{k} {v:.3f}" for k, v in errors.items()))
        n = max(len(chosen), 1)
        out["cube_naive"] = {"double_agreement": sum(not v.doubles for v, _ in chosen) / n,
                             "take_agreement": sum(v.takes for v, _ in chosen) / n}
        print(f"  never double, always take: double/no double "
              f"{out['cube_naive']['double_agreement']:6.1%}   take/pass "
              f"{out['cube_naive']['take_agreement']:6.1%}")
        results["contexts"][name] = out
    for path, data in ((args.json, results), (args.corpus, corpus)):
        if path:
            write_atomically(path, json.dumps(data, indent=2))
            print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
