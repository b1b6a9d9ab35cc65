"""The game: one state machine (:class:`Game`, a view of one row of the compiled kernels),
match play (:class:`Match`), and the public constructors that start a game anywhere."""

from .game import PURE_PYTHON, Game, GameResult, IllegalActionError, Phase, Rules
from .match import Match

__all__ = ["Game", "GameResult", "IllegalActionError", "Match", "PURE_PYTHON", "Phase", "Rules"]
