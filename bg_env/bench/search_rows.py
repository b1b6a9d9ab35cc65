"""The search loop of ``bg-env bench``: what a tree search does at every node, in random
games, on bg_env's :class:`~bg_env.game.search.SearchState` and on OpenSpiel's backgammon
state, driven alike: at each decision copy the state (``clone()``, as a search expands a
node) and apply a random legal action to the original; at each chance node apply a roll
picked by the same weighted scan (:func:`~bg_env.bench.timing.pick_outcome`) from the
state's own ``chance_outcomes()``. The cube is off on both sides (OpenSpiel has none).
Games per second of process CPU time; the decisions counted are the ones each game asks
(bg_env plays forced moves itself, OpenSpiel asks them too).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from .timing import pick_outcome

__all__ = ["SEARCH_ROW", "OPENSPIEL_SEARCH_ROW", "search_rows"]

SEARCH_ROW = "search loop: SearchState (clone, roll, step)"
OPENSPIEL_SEARCH_ROW = "search loop: OpenSpiel (clone, roll, step)"


def _play(state, rnd: random.Random) -> int:
    """One random game from ``state`` (either library's: the same calls), a clone at every
    decision; returns the decisions."""
    steps = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(pick_outcome(state.chance_outcomes(), rnd.random()))
            continue
        state.clone()
        legal = state.legal_actions()
        state.apply_action(legal[rnd.randrange(len(legal))])
        steps += 1
    return steps


def bg_env_search_game() -> Callable[[], int]:
    """A callable playing one search-loop game on :class:`SearchState` (its decisions)."""
    from ..game.game import Rules
    from ..game.search import SearchState

    rnd, rules = random.Random(0), Rules(cube=False)
    return lambda: _play(SearchState.new(rules), rnd)


def openspiel_search_game() -> Callable[[], int] | None:
    """The same on OpenSpiel's backgammon, or ``None`` when ``pyspiel`` is not importable."""
    try:
        import pyspiel
    except ImportError:
        return None
    game, rnd = pyspiel.load_game("backgammon"), random.Random(0)
    return lambda: _play(game.new_initial_state(), rnd)


def search_rows(games_row, skipped: dict[str, str]) -> dict[str, tuple[str, Callable]]:
    """The two rows, ``{name: ("games", timer)}`` (``games_row`` makes a timer of a game
    callable); OpenSpiel's goes to ``skipped`` when it is not installed."""
    rows = {SEARCH_ROW: ("games", games_row(bg_env_search_game()))}
    spiel = openspiel_search_game()
    if spiel is None:
        skipped[OPENSPIEL_SEARCH_ROW] = "pyspiel not importable (pip install open_spiel)"
    else:
        rows[OPENSPIEL_SEARCH_ROW] = ("games", games_row(spiel))
    return rows
