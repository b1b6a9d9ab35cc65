"""Environments: the PettingZoo two-agent env and the Gymnasium single-agent view."""

from .backgammon import EnvConfig, env, raw_env
from .gym_env import BackgammonEnv
from .play_env import BackgammonPlaysEnv

__all__ = ["EnvConfig", "env", "raw_env", "BackgammonEnv", "BackgammonPlaysEnv"]
