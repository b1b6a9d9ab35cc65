"""Baseline agents for bg_env, their evaluation and training, and the ``bg-env`` command.

>>> agent = load_agent("random:7")
>>> agent.name
'random'
"""

from __future__ import annotations

import os

from bg_env.envs.opponents import register_opponent

from .base import Agent, FirstLegalAgent, PlayAgent, RandomAgent

__all__ = ["Agent", "PlayAgent", "RandomAgent", "FirstLegalAgent", "load_agent", "MODELS_DIR", "SPECS"]

MODELS_DIR = os.path.join(os.path.dirname(__file__), "models")
"""Where the shipped baseline models live."""

SPECS = {
    "random": "uniform over the legal plays; 'random:SEED' seeds it (else an evaluation "
              "seeds it from its seed)",
    "pubeval": "Tesauro's 1993 linear evaluator (the standard benchmark)",
    "td": "the shipped TD-Gammon baseline; 'td:PATH' loads a saved model",
    "ppo": "the shipped MaskablePPO baseline; 'ppo:PATH' loads a saved model",
    "gnubg": "GNU Backgammon 0-ply through gnubg-nn (optional extra); 'gnubg:1' for 1-ply",
    "first": "always the lowest legal action (a deterministic test partner)",
}


def load_agent(spec):
    """An agent from a spec string (see :data:`SPECS`), or the object itself if it
    already has ``act``.

    ``td:PATH`` files are read without running code inside them (``weights_only``);
    ``ppo:PATH`` files are SB3 zips, which unpickle code: load them only from sources you
    trust.

    Raises:
        ValueError: unknown spec, naming the known ones; a model file that cannot be read
            (:class:`~agents.model_files.ModelFileError`, naming its path).
        FileNotFoundError: a model file that does not exist, naming its path.
    """
    if hasattr(spec, "act"):
        return spec
    if not isinstance(spec, str):
        raise ValueError(f"agent spec {spec!r}: expected a string such as 'random' or 'td:PATH'")
    kind, _, arg = spec.partition(":")
    if kind == "random":
        return RandomAgent(seed=int(arg) if arg else None)
    if kind == "first":
        return FirstLegalAgent()
    if kind == "pubeval":
        from .pubeval import PubevalAgent

        return PubevalAgent()
    if kind == "td":
        from .td import TDAgent

        return TDAgent.load(arg or os.path.join(MODELS_DIR, "td.pt"))
    if kind == "ppo":
        from .ppo import PPOAgent

        path = arg or os.path.join(MODELS_DIR, "ppo.zip")
        try:
            return PPOAgent.load(path)
        except (ValueError, KeyError, RuntimeError, EOFError, OSError) as exc:
            if isinstance(exc, FileNotFoundError):
                raise
            from .model_files import ModelFileError

            raise ModelFileError(f"PPO model file {path!r} could not be loaded "
                                 f"({type(exc).__name__}: {str(exc).strip()[:160]})") from exc
    if kind == "gnubg":
        from .gnubg import GnubgAgent

        return GnubgAgent(plies=int(arg) if arg else 0)
    raise ValueError(f"unknown agent spec {spec!r}; known: {sorted(SPECS)} (see agents.SPECS)")


def _register_opponents() -> None:
    """Fill bg_env's opponent registry (``opponent="pubeval"`` in the envs) with
    :func:`load_agent` for every kind in :data:`SPECS`; installed packages also declare
    them as ``bg_env.opponents`` entry points (``pyproject.toml``)."""
    for kind in SPECS:
        register_opponent(kind, load_agent)


_register_opponents()
