"""bg_env: a backgammon environment for reinforcement-learning research."""

from .core import (
    IllegalMoveError,
    InvalidNotationError,
    InvalidPositionError,
    Move,
    Outcome,
    Play,
    Position,
    legal_results,
)

__version__ = "0.1.0"

__all__ = [
    "IllegalMoveError",
    "InvalidNotationError",
    "InvalidPositionError",
    "Move",
    "Outcome",
    "Play",
    "Position",
    "legal_results",
    "__version__",
]
