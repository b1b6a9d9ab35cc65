"""The bench's row of random games played inside the kernels alone: the opening, each
uniform legal checker move (:func:`~bg_env.kernels.batch.random_action`) and the turns
after it, all in one numba call a game, cube off -- what no Python around the kernels
leaves (the vector env's ceiling); :mod:`bg_env.bench.run` times it."""

from __future__ import annotations

from numba import njit

from ..game.game import Rules
from ..kernels.batch import P_OVER, PHASE, open_row, random_action, step_row
from ..kernels.borrow import borrowed
from ..kernels.games import Games

__all__ = ["kernel_game"]


@njit(cache=True)
def _random_game(state, me, opp, rules, mask, seeds):
    """One random game in row 0 of the arrays; returns its decisions."""
    state, me, opp, rules, mask, seeds = (borrowed(state), borrowed(me), borrowed(opp),
                                          borrowed(rules), borrowed(mask), borrowed(seeds))
    open_row(state[0], me[0], opp[0], rules, mask[0], seeds, 0, 0, 0)
    decisions = 0
    while state[0, PHASE] != P_OVER:
        action = random_action(seeds, 0, mask[0])
        step_row(state[0], me[0], opp[0], rules, mask[0], action, seeds, 0, 0, 0)
        decisions += 1
    return decisions


def kernel_game():
    """A callable playing one random game inside the kernels (its dice from the row's own
    generator, seeded 0) and returning its decisions."""
    games = Games(1, Rules(cube=False))
    games.seed(0)
    args = (games.state, games.me, games.opp, games.rules, games.mask, games.seeds)
    return lambda: _random_game(*args)
