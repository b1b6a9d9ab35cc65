"""Search with the dice as chance nodes (:class:`bg_env.game.search.SearchState`): a
2-ply expectimax player over the shipped TD network, and MCTS with chance nodes and random
rollouts, each played against the random player.

    python examples/search.py --games 20 --mcts-iterations 200

Expectimax at 2 plies: each play's afterstate is rated by the average, over the
opponent's 21 rolls (weighted by their probabilities), of his best reply as the network
rates it (1 ply: the network's rating of the afterstate alone); ``--prune`` plays that 1
ply rates best are searched. MCTS: UCT over whole plays at the decision nodes, a roll
drawn by its probability at each chance node, random play to the end of the game, the
cube off. A quick check that everything is wired (seconds)::

    python examples/search.py --smoke
"""

from __future__ import annotations

import argparse
import math
import time

import numpy as np

from bg_env.game.game import Rules
from bg_env.game.search import SearchState


# ------------------------------------------------------------------ expectimax
def reply_value(state: SearchState, evaluate) -> float:
    """The opponent on roll in ``state`` (a chance node): the average over his rolls of
    the best reply's rating, from his side."""
    side, total = state.game.turn, 0.0
    for action, p in state.chance_outcomes():
        rolled = state.clone()
        rolled.apply_action(action)
        if rolled.is_terminal():
            total += p * rolled.returns()[side]
        elif rolled.game.phase == "move" and rolled.game.turn == side:
            total += p * float(np.max(evaluate([q.result for q in rolled.legal_plays()])))
        else:  # he could not move: the board as it was, from his side
            total += p * float(evaluate([rolled.game.position.swap()])[0])
    return total


def expectimax_play(state: SearchState, evaluate, plies: int = 2, prune: int = 4):
    """The play that an expectimax of ``plies`` (1 or 2) rates best for the side on turn."""
    plays = state.legal_plays()
    if len(plays) == 1:
        return plays[0]
    first = evaluate([p.result for p in plays])
    if plies == 1:
        return plays[int(np.argmax(first))]
    best, best_value = None, -math.inf
    for k in np.argsort(-first)[:prune]:
        after = state.clone()
        after.apply_play(plays[k])
        value = (after.returns()[state.game.turn] if after.is_terminal()
                 else -reply_value(after, evaluate))
        if value > best_value:
            best, best_value = plays[k], value
    return best


# ------------------------------------------------------------------ MCTS
class Node:
    """A decision node's statistics: visits and each play's visits and total return."""

    def __init__(self, plays) -> None:
        self.plays = plays
        self.visits = 0
        self.n = np.zeros(len(plays))
        self.w = np.zeros(len(plays))

    def pick(self, c: float = 1.4) -> int:
        if self.visits < len(self.plays):
            return self.visits  # each play once first
        ucb = self.w / self.n + c * np.sqrt(math.log(self.visits) / self.n)
        return int(np.argmax(ucb))


def rollout(state: SearchState, rng) -> tuple[float, float]:
    """Random play to the end: the returns."""
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.choice(len(outcomes), p=[p for _, p in outcomes])][0])
        else:
            actions = state.legal_actions()
            state.apply_action(actions[int(rng.integers(len(actions)))])
    return state.returns()


def simulate(state: SearchState, tree: dict, rng) -> tuple[float, float]:
    """One MCTS iteration from ``state`` (changed): returns of the game it played."""
    if state.is_terminal():
        return state.returns()
    if state.is_chance_node():
        outcomes = state.chance_outcomes()
        state.apply_action(outcomes[rng.choice(len(outcomes), p=[p for _, p in outcomes])][0])
        return simulate(state, tree, rng)
    if state.game.phase != "move":  # (no cube here: one legal action at most)
        state.apply_action(state.legal_actions()[0])
        return simulate(state, tree, rng)
    key = state.key()
    node = tree.get(key)
    if node is None:
        tree[key] = Node(state.legal_plays())
        return rollout(state, rng)
    side, k = state.game.turn, node.pick()
    state.apply_play(node.plays[k])
    returns = simulate(state, tree, rng)
    node.visits += 1
    node.n[k] += 1
    node.w[k] += returns[side]
    return returns


def mcts_play(state: SearchState, iterations: int, rng):
    """The play MCTS with chance nodes visits most after ``iterations`` simulations."""
    plays = state.legal_plays()
    if len(plays) == 1:
        return plays[0]
    tree: dict = {}
    for _ in range(iterations):
        simulate(state.clone(), tree, rng)
    node = tree[state.key()]
    return node.plays[int(np.argmax(node.n))]


# ------------------------------------------------------------------ games
def play_against_random(choose, games: int, seed: int) -> tuple[float, float, int]:
    """``choose(state)`` (a play) as side 0 against random plays, cube off: the mean
    points, their standard error and the decisions ``choose`` made."""
    rng = np.random.default_rng(seed)
    points, decisions = [], 0
    for _ in range(games):
        state = SearchState.new(Rules(cube=False))
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.choice(len(outcomes),
                                                       p=[p for _, p in outcomes])][0])
            elif state.game.turn == 0:
                state.apply_play(choose(state))
                decisions += 1
            else:
                plays = state.legal_plays()
                state.apply_play(plays[int(rng.integers(len(plays)))])
        points.append(state.returns()[0])
    points = np.array(points)
    return points.mean(), points.std(ddof=1) / math.sqrt(len(points)) if games > 1 else 0.0, decisions


def td_evaluator():
    """The shipped TD network's equity of afterstates, from the mover's side."""
    from agents import load_agent

    return load_agent("td").net.evaluate


def main(argv: list[str] | None = None) -> dict:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=20, help="games of each player against random")
    p.add_argument("--plies", type=int, choices=(1, 2), default=2, help="expectimax depth")
    p.add_argument("--prune", type=int, default=4, help="plays the 2-ply search looks at")
    p.add_argument("--mcts-iterations", type=int, default=200, help="simulations per decision")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--smoke", action="store_true", help="two short games each (a wiring check)")
    args = p.parse_args(argv)
    if args.smoke:
        args.games, args.mcts_iterations, args.prune = 2, 8, 2
    evaluate = td_evaluator()
    rng = np.random.default_rng(args.seed)
    players = {
        f"expectimax {args.plies}-ply (td)": lambda s: expectimax_play(s, evaluate, args.plies,
                                                                       args.prune),
        f"MCTS {args.mcts_iterations} iterations": lambda s: mcts_play(s, args.mcts_iterations,
                                                                       rng),
    }
    out = {}
    for name, choose in players.items():
        start = time.process_time()
        mean, se, decisions = play_against_random(choose, args.games, args.seed)
        seconds = time.process_time() - start
        out[name] = mean
        print(f"{name:34s} vs random: {mean:+.2f} +- {se:.2f} points a game over {args.games} "
              f"games; {decisions / max(seconds, 1e-9):.1f} decisions/s (CPU)")
    return out


if __name__ == "__main__":
    main()
