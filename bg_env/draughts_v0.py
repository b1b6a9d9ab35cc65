"""PettingZoo-style module for the draughts environment: ``draughts_v0.env()``."""

from .envs.draughts import env, raw_env

__all__ = ["env", "raw_env"]
