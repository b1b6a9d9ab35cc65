"""The search examples beside the same in OpenSpiel (``pyspiel``, the ``openspiel`` extra):
one run, process CPU time, the rows taking turns (``bg_env.bench.timing.interleaved``),
the cube off (OpenSpiel's backgammon has none).

* **rollouts**, random games from the start position to their end. bg_env:
  ``examples/rollouts.py`` (the vector env's kernels, ``--batch`` games at once, picked
  by numpy) and, one game at a time, ``SearchState`` (a ``clone()`` of the position,
  then the same loop as OpenSpiel's); OpenSpiel: its backgammon state at the start
  position, cloned, then random legal actions and rolls (``pick_outcome`` over
  ``chance_outcomes()``, the same picker as ``SearchState``'s loop).
* **MCTS**, OpenSpiel's ``MCTSBot`` (UCT, ``--simulations`` simulations, one random
  rollout per leaf) on OpenSpiel's backgammon and on bg_env's OpenSpiel game
  (``bg_env.integrations.openspiel``); and ``examples/search.py``'s MCTS over whole plays
  on ``SearchState`` with as many iterations. Decisions per second.
* **2-ply expectimax**, ``examples/search.py``'s search (each play's afterstate rated by
  the opponent's best reply averaged over his 21 rolls, the 4 best plays searched) on
  ``SearchState``, and the same search on OpenSpiel's states (a turn's afterstates found
  by applying actions until the turn passes); both rate a board with one evaluator, fixed
  random weights over the 196 board inputs of Tesauro's encoding (bg_env's encoder of a
  batch of boards; OpenSpiel's ``observation_tensor``, its first 196 values).
  Decisions per second.

Each search decides for the side on roll in random games (its own games in each library,
the same seeds). Run::

    python benchmarks/search_speed.py --seconds 5
"""

from __future__ import annotations

import argparse
import importlib.util
import math
import pathlib
import random

import numpy as np

from bg_env.bench.timing import interleaved, pick_outcome
from bg_env.envs.observation import encode_boards
from bg_env.game.game import Rules
from bg_env.game.search import SearchState

ROOT = pathlib.Path(__file__).resolve().parents[1]
START = "4HPwATDgc/ABMA"


def example(name: str):
    """``examples/<name>.py`` as a module."""
    spec = importlib.util.spec_from_file_location(name, ROOT / "examples" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# ------------------------------------------------------------------ rollouts
def random_game(state, rnd: random.Random) -> int:
    """Random play to the end (either library's state: the same calls); the decisions."""
    steps = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(pick_outcome(state.chance_outcomes(), rnd.random()))
            continue
        legal = state.legal_actions()
        state.apply_action(legal[rnd.randrange(len(legal))])
        steps += 1
    return steps


def at_start(state):
    """OpenSpiel's state after its opening roll (the start position, a side on roll)."""
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    return state


# ------------------------------------------------------------------ expectimax
def evaluator(weights: np.ndarray):
    """bg_env's side: a batch of boards, encoded at once, rated by ``weights``."""
    def evaluate(positions) -> np.ndarray:
        me = np.array([p.me for p in positions], dtype=np.int64)
        opp = np.array([p.opp for p in positions], dtype=np.int64)
        return encode_boards(me, opp)[:, :196] @ weights
    return evaluate


def os_rating(state, player: int, weights: np.ndarray) -> float:
    if state.is_terminal():
        return state.returns()[player]
    return float(np.asarray(state.observation_tensor(player))[:196] @ weights)


def os_afterstates(state) -> list:
    """The states where ``state``'s turn has passed (or the game ended), one per way of
    playing it (OpenSpiel: an action plays both dice, a double takes two)."""
    player, out, stack = state.current_player(), [], [state]
    while stack:
        s = stack.pop()
        if s.is_terminal() or s.is_chance_node() or s.current_player() != player:
            out.append(s)
            continue
        stack.extend(s.child(a) for a in s.legal_actions())
    return out


def os_reply_value(after, weights: np.ndarray) -> float:
    """The opponent to roll in ``after``: his best reply's rating, averaged over rolls."""
    total = 0.0
    for action, p in after.chance_outcomes():
        rolled = after.child(action)
        side = rolled.current_player()
        total += p * max(os_rating(s, side, weights) for s in os_afterstates(rolled))
    return total


def os_expectimax_action(state, weights: np.ndarray, prune: int = 4):
    """The first action of the play the 2-ply search rates best (OpenSpiel's states)."""
    player = state.current_player()
    actions = state.legal_actions()
    if len(actions) == 1:
        return actions[0]
    firsts = [(a, state.child(a)) for a in actions]
    afters = [(a, s) for a, child in firsts for s in os_afterstates(child)]
    rated = sorted(afters, key=lambda x: -os_rating(x[1], player, weights))[:prune]
    best, best_value = actions[0], -math.inf
    for a, after in rated:
        value = (after.returns()[player] if after.is_terminal()
                 else -os_reply_value(after, weights))
        if value > best_value:
            best, best_value = a, value
    return best


# ------------------------------------------------------------------ the decisions
def decisions_row(new_state, decide, seed: int):
    """A row: one call plays one random game in which ``decide(state)`` chooses every
    decision of player 0 (the searches' cost); returns ``(decisions, decisions)``."""
    rnd = random.Random(seed)

    def one_game() -> tuple[int, int]:
        state, n = new_state(), 0
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(pick_outcome(state.chance_outcomes(), rnd.random()))
            elif state.current_player() == 0 and n < 6:  # (a few decisions a game)
                decide(state)
                n += 1
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rnd.randrange(len(legal))])
        return n, n
    return one_game


def rows(batch: int, simulations: int) -> dict:
    import pyspiel
    from open_spiel.python.algorithms import mcts

    import bg_env.integrations.openspiel  # noqa: F401  (registers "bg_env")

    rollouts, search = example("rollouts"), example("search")
    weights = np.random.default_rng(0).normal(size=196) / 20
    evaluate = evaluator(weights)
    rules = Rules(cube=False)
    backgammon = pyspiel.load_game("backgammon")
    ours = pyspiel.load_game("bg_env", {"cube": False})
    start = at_start(backgammon.new_initial_state())
    ours_start = SearchState.from_position_id(START, rules)
    rnd = random.Random(0)
    counter = iter(range(10**9))

    def vector_rollouts() -> tuple[int, int]:
        out = rollouts.rollouts(START, batch, seed=next(counter))
        return batch, out["steps"]

    def bot(game, seed):
        rng = np.random.RandomState(seed)
        return mcts.MCTSBot(game, uct_c=2, max_simulations=simulations,
                            evaluator=mcts.RandomRolloutEvaluator(1, rng), random_state=rng)

    os_bot, our_bot, mrng = bot(backgammon, 0), bot(ours, 0), np.random.default_rng(0)

    def apply(state, action) -> None:
        state.apply_action(action)

    def play(state, choose) -> None:
        state.apply_play(choose(state))

    return {
        "rollouts: vector env kernels": vector_rollouts,
        "rollouts: SearchState": lambda: (1, random_game(ours_start.clone(), rnd)),
        "rollouts: OpenSpiel": lambda: (1, random_game(start.clone(), rnd)),
        "MCTSBot: OpenSpiel backgammon": decisions_row(
            backgammon.new_initial_state, lambda s: apply(s, os_bot.step(s)), 1),
        "MCTSBot: bg_env OpenSpiel game": decisions_row(
            ours.new_initial_state, lambda s: apply(s, our_bot.step(s)), 1),
        "MCTS (examples/search.py): SearchState": decisions_row(
            lambda: SearchState.new(rules),
            lambda s: play(s, lambda t: search.mcts_play(t, simulations, mrng)), 1),
        "2-ply expectimax: SearchState": decisions_row(
            lambda: SearchState.new(rules),
            lambda s: play(s, lambda t: search.expectimax_play(t, evaluate, 2, 4)), 2),
        "2-ply expectimax: OpenSpiel": decisions_row(
            backgammon.new_initial_state,
            lambda s: apply(s, os_expectimax_action(s, weights)), 2),
    }


PAIRS = (
    ("rollouts: vector env kernels", "rollouts: OpenSpiel"),
    ("rollouts: SearchState", "rollouts: OpenSpiel"),
    ("MCTSBot: bg_env OpenSpiel game", "MCTSBot: OpenSpiel backgammon"),
    ("MCTS (examples/search.py): SearchState", "MCTSBot: OpenSpiel backgammon"),
    ("2-ply expectimax: SearchState", "2-ply expectimax: OpenSpiel"),
)


def main(argv: list[str] | None = None) -> dict:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--seconds", type=float, default=5.0, help="CPU seconds per row")
    p.add_argument("--batch", type=int, default=512, help="games per vector-env rollout")
    p.add_argument("--simulations", type=int, default=50, help="MCTS simulations a decision")
    args = p.parse_args(argv)
    measured = interleaved(rows(args.batch, args.simulations), args.seconds, rounds=5)
    print(f"{'row':42s} {'per CPU s':>12s}")
    for name, m in measured.items():
        unit = "games" if name.startswith("rollouts") else "decisions"
        print(f"{name:42s} {m['per_s']:12.1f} {unit}")
    print()
    for row, base in PAIRS:
        print(f"{row} / {base}: {measured[row]['per_s'] / measured[base]['per_s']:.2f}x")
    return measured


if __name__ == "__main__":
    main()
