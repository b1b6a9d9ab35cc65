"""PettingZoo-style module for the backgammon environment: ``backgammon_v0.env()``."""

from .envs.backgammon import env, raw_env

__all__ = ["env", "raw_env"]
