"""bg_env: a backgammon environment for reinforcement-learning research."""

import logging
import sys

from .kernels.cache import FIRST_USE_NOTE, refresh_kernel_cache, started_cold

refresh_kernel_cache()  # before any kernel loads: numba's cache misses changes in callees
if started_cold():  # said where logging is on; the bg-env command says it too
    logging.getLogger(__name__).info(FIRST_USE_NOTE)

from .rules import (  # noqa: E402
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

from . import backgammon_plays_v0, backgammon_v0, draughts_v0

__version__ = "0.1.0"


AEC_ENVS = {
    "bg_env/Backgammon-v0": "bg_env.envs.backgammon:env",
    "bg_env/BackgammonPlays-v0": "bg_env.envs.plays_aec:env",
    "bg_env/Draughts-v0": "bg_env.envs.draughts:env",
}
"""PettingZoo ids (``pettingzoo.make("aec", ID)``) and their entry points; the modules'
names (``bg_env/backgammon_v0``, ``bg_env/backgammon_plays_v0``, ``bg_env/draughts_v0``)
work too."""


def _register() -> None:
    """Gymnasium ids (with vector entry points) and PettingZoo ids (PettingZoo >= 1.27)."""
    import gymnasium
    import pettingzoo

    if "bg_env/Backgammon-v0" not in gymnasium.registry:
        gymnasium.register("bg_env/Backgammon-v0", entry_point="bg_env.envs.gym_env:BackgammonEnv",
                           vector_entry_point="bg_env.envs.gym_vector:make_moves_vector_env")
    if "bg_env/Draughts-v0" not in gymnasium.registry:
        gymnasium.register("bg_env/Draughts-v0",
                           entry_point="bg_env.envs.draughts_gym:DraughtsGymEnv")
    from .envs.play_env import register

    register()
    if not hasattr(pettingzoo, "aec_registry"):  # PettingZoo < 1.27 has no registry
        return
    aliases = {"bg_env/backgammon_v0": AEC_ENVS["bg_env/Backgammon-v0"],
               "bg_env/backgammon_plays_v0": AEC_ENVS["bg_env/BackgammonPlays-v0"],
               "bg_env/draughts_v0": AEC_ENVS["bg_env/Draughts-v0"]}
    for env_id, entry_point in {**AEC_ENVS, **aliases}.items():
        if _unregistered(pettingzoo, env_id):
            pettingzoo.register("aec", env_id, entry_point=entry_point)


def _unregistered(pettingzoo, env_id: str) -> bool:
    try:
        pettingzoo.spec("aec", env_id)
    except Exception:  # NameNotFound, NamespaceNotFound, VersionNotFound
        return True
    return False


def __getattr__(name: str):
    """``bg_env.make_vec_env``, imported on first use (it needs Stable-Baselines3)."""
    if name == "make_vec_env":
        from .envs.vector import make_vec_env

        return make_vec_env
    raise AttributeError(f"module 'bg_env' has no attribute {name!r}")


_register()
if "IPython" in sys.modules:  # in a notebook: gym.make's and SB3's wrappers draw the board
    from .envs.notebook import register_notebook_display

    register_notebook_display()

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
    "make_vec_env",
    "AEC_ENVS",
    "__version__",
]
