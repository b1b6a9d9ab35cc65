"""PettingZoo-style module for the play-level view: ``backgammon_plays_v0.env()``."""

from .envs.plays_aec import env, raw_env

__all__ = ["env", "raw_env"]
