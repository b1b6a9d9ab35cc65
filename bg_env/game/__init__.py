"""The game: one state machine (:class:`Game`, a view of one row of the compiled kernels),
match play (:class:`Match`), the public constructors that start a game anywhere, and a
state for search with the dice as chance nodes (:class:`SearchState`)."""

from .game import PURE_PYTHON, STOP_AT_ROLLS, Game, GameResult, IllegalActionError, Phase, Rules
from .match import Match
from .search import SearchState

__all__ = ["Game", "GameResult", "IllegalActionError", "Match", "PURE_PYTHON", "Phase", "Rules",
           "SearchState", "STOP_AT_ROLLS"]
