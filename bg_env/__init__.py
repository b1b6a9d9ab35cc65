"""bg_env: a backgammon environment for reinforcement-learning research."""

from .core import (
    IllegalMoveError,
    InvalidNotationError,
    InvalidPositionError,
    MatchState,
    Move,
    Outcome,
    Play,
    Position,
    VARIANTS,
    get_variant,
    legal_results,
)

from . import backgammon_plays_v0, backgammon_v0

__version__ = "0.1.0"


def _register() -> None:
    import gymnasium

    if "bg_env/Backgammon-v0" not in gymnasium.registry:
        gymnasium.register("bg_env/Backgammon-v0", entry_point="bg_env.envs.gym_env:BackgammonEnv")
    from .envs.play_env import register

    register()


_register()

__all__ = [
    "IllegalMoveError",
    "InvalidNotationError",
    "InvalidPositionError",
    "MatchState",
    "Move",
    "Outcome",
    "Play",
    "Position",
    "legal_results",
    "VARIANTS",
    "get_variant",
    "backgammon_v0",
    "backgammon_plays_v0",
    "__version__",
]
