"""Baseline agents for bg_env, their evaluation and training, and the ``bg-env`` command.

The players (:mod:`agents.players`: random, pubeval, td, ppo, gnubg, the cube, the
person at the terminal), their evaluation (:mod:`agents.evaluation`) and training
(:mod:`agents.training`), each importing only from those before it, and the command
(:mod:`agents.cli`, with its YAML settings in :mod:`agents.config`).

>>> agent = load_agent("random:7")
>>> agent.name
'random'
"""

from __future__ import annotations

import os
import re

from bg_env.envs.opponents import register_opponent
from bg_env.moved import keep_old_names

from .players.base import Agent, FirstLegalAgent, PlayAgent, RandomAgent

__all__ = ["Agent", "PlayAgent", "RandomAgent", "FirstLegalAgent", "load_agent", "MODELS_DIR",
           "SPECS", "NAIVE_SUFFIX", "model_file"]

MODELS_DIR = os.path.join(os.path.dirname(__file__), "models")
"""Where the shipped baseline models live."""

SPECS = {
    "random": "uniform over the legal plays; 'random:SEED' seeds it (else an evaluation "
              "seeds it from its seed)",
    "pubeval": "Tesauro's 1993 linear evaluator (the standard benchmark)",
    "td": "the shipped TD-Gammon baseline (0-ply; its cube decisions from the model's cube "
          "network); 'td:PATH' loads a saved model; 'td:2ply' "
          "(or 'td:PATH:2ply') looks one roll ahead, searching the 8 best 0-ply plays "
          "('td:2ply:K' searches K, 'td:2ply:all' all of them); a last ':cube1' or "
          "':cube2' judges the cube one or two rolls ahead ('td:cube2', 'td:2ply:cube2')",
    "ppo": "the shipped MaskablePPO baseline; 'ppo:PATH' loads a saved model",
    "gnubg": "GNU Backgammon 0-ply through gnubg-nn (optional extra); 'gnubg:1' for 1-ply",
    "first": "always the lowest legal action (a deterministic test partner)",
}

NAIVE_SUFFIX = "+naive"
"""Spec suffix: the same agent made cube-naive, never doubling and always taking
(``td+naive``, ``td:PATH+naive``; :class:`agents.players.cube.CubeNaive`)."""


def load_agent(spec):
    """An agent from a spec string (see :data:`SPECS`), or the object itself if it
    already has ``act``.

    ``td:PATH`` files are read without running code inside them (``weights_only``);
    ``ppo:PATH`` files are SB3 zips: playing one reads only the archive's JSON settings and
    its weights (``weights_only``); resuming training from one (SB3's ``MaskablePPO.load``)
    unpickles code, so resume only from sources you trust.

    Any spec ending in :data:`NAIVE_SUFFIX` gives that agent made cube-naive.

    Raises:
        ValueError: unknown spec, naming the known ones; a model file that cannot be read
            (:class:`~agents.players.model_files.ModelFileError`, naming its path).
        FileNotFoundError: a model file that does not exist, naming its path.
    """
    if hasattr(spec, "act"):
        return spec
    if not isinstance(spec, str):
        raise ValueError(f"agent spec {spec!r}: expected a string such as 'random' or 'td:PATH'")
    if spec.endswith(NAIVE_SUFFIX):
        from .players.cube import cube_naive

        base = spec[: -len(NAIVE_SUFFIX)]
        return cube_naive(load_agent(base), spec)
    kind, colon, arg = spec.partition(":")
    if colon and not arg:
        raise ValueError(f"agent spec {spec!r}: nothing after ':'; write {kind!r} alone, or "
                         f"what {kind!r} takes after the ':' (see agents.SPECS)")
    if kind in ("first", "pubeval") and colon:
        raise ValueError(f"agent spec {spec!r}: {kind!r} takes nothing after ':'")
    if kind == "random":
        return RandomAgent(seed=_spec_int(spec, arg, "seed") if arg else None)
    if kind == "first":
        return FirstLegalAgent()
    if kind == "pubeval":
        from .players.pubeval import PubevalAgent

        return PubevalAgent()
    if kind == "td":
        from .players.td import TDAgent

        _, plies, prune, cube_plies = _td_spec(spec, arg)
        return TDAgent.load(model_file(spec), plies=plies, prune=prune, cube_plies=cube_plies)
    if kind == "ppo":
        from .players.ppo import PPOAgent

        path = model_file(spec)
        try:
            return PPOAgent.load(path)
        except (ValueError, KeyError, RuntimeError, EOFError, OSError) as exc:
            from .players.model_files import ModelFileError

            if isinstance(exc, (FileNotFoundError, ModelFileError)):
                raise  # they name the file already

            raise ModelFileError(f"PPO model file {path!r} could not be loaded "
                                 f"({type(exc).__name__}: {str(exc).strip()[:160]})") from exc
    if kind == "gnubg":
        from .players.gnubg import GnubgAgent

        return GnubgAgent(plies=_spec_int(spec, arg, "number of plies") if arg else 0)
    raise ValueError(f"unknown agent spec {spec!r}; known: {sorted(SPECS)} (see agents.SPECS)")


def model_file(spec: str) -> str | None:
    """The model file that :func:`load_agent` reads for ``spec`` (``td:PATH:2ply`` reads
    PATH, ``td`` the shipped ``td.pt``), or None for an agent without one (``random``,
    ``pubeval``, ``gnubg``).

    Raises:
        ValueError: a ``td`` spec whose search part is malformed.
    """
    if spec.endswith(NAIVE_SUFFIX):
        spec = spec[: -len(NAIVE_SUFFIX)]
    kind, _, arg = spec.partition(":")
    if kind == "td":
        return _td_spec(spec, arg)[0] or os.path.join(MODELS_DIR, "td.pt")
    if kind == "ppo":
        return arg or os.path.join(MODELS_DIR, "ppo.zip")
    return None


def _spec_int(spec: str, text: str, what: str) -> int:
    """The whole number of 0 or more after the colon of an agent spec (a seed, a number of
    plies), or an error naming the spec."""
    try:
        value = int(text)
    except ValueError:
        value = -1
    if value < 0:
        raise ValueError(f"agent spec {spec!r}: {text!r} is not a {what} (a whole "
                         f"number of 0 or more)")
    return value


_PLY = re.compile(r"(?:^|:)(\d+)ply(?::([^:]*))?$")
_CUBE = re.compile(r"(?:^|:)cube(\d*)$")


def _td_spec(spec: str, arg: str) -> tuple[str, int, int | None, int]:
    """``td[:PATH][:2ply[:K|:all]][:cubeN]`` as ``(path or '', plies, prune, cube
    plies)``."""
    cube = _CUBE.search(arg)
    cube_plies = 0
    if cube is not None:
        if cube.group(1) not in ("0", "1", "2"):
            raise ValueError(f"agent spec {spec!r}: 'cube{cube.group(1)}' is not a cube "
                             f"lookahead; expected ':cube0', ':cube1' or ':cube2' (rolls "
                             f"ahead)")
        cube_plies, arg = int(cube.group(1)), arg[: cube.start()]
    found = _PLY.search(arg)
    if found is None:
        return arg, 0, 8, cube_plies
    depth, count = found.group(1), found.group(2)
    if depth != "2":
        raise ValueError(f"agent spec {spec!r}: search depth '{depth}ply' is not supported; "
                         f"'td' plays 0-ply and 'td:2ply' looks one roll ahead")
    if count is None:
        prune = 8
    elif count == "all":
        prune = None
    elif count.isdigit() and int(count) > 0:
        prune = int(count)
    else:
        raise ValueError(f"agent spec {spec!r}: '{count}' is not a number of plays to search; "
                         f"expected 'td:2ply:K' with K a positive integer, or 'td:2ply:all'")
    return arg[: found.start()], 1, prune, cube_plies


def _register_opponents() -> None:
    """Fill bg_env's opponent registry (``opponent="pubeval"`` in the envs) with
    :func:`load_agent` for every kind in :data:`SPECS`; installed packages also declare
    them as ``bg_env.opponents`` entry points (``pyproject.toml``)."""
    for kind in SPECS:
        register_opponent(kind, load_agent)


_register_opponents()

MOVED = {
    "base": "agents.players.base",
    "pubeval": "agents.players.pubeval",
    "td": "agents.players.td",
    "td_features": "agents.players.td_features",
    "td_inputs": "agents.players.td_inputs",
    "td_search": "agents.players.td_search",
    "ppo": "agents.players.ppo",
    "gnubg": "agents.players.gnubg",
    "cube": "agents.players.cube",
    "match_cube": "agents.players.match_cube",
    "model_files": "agents.players.model_files",
    "human": "agents.play.human",
    "human_view": "agents.play.human_view",
    "evaluate": "agents.evaluation.evaluate",
    "eval_stats": "agents.evaluation.eval_stats",
    "eval_checkpoint": "agents.evaluation.eval_checkpoint",
    "eval_workers": "agents.evaluation.eval_workers",
    "train_td": "agents.training.train_td",
    "train_ppo": "agents.training.train_ppo",
    "train_distill": "agents.training.train_distill",
    "distill_file": "agents.training.distill_file",
    "label_parts": "agents.training.label_parts",
    "kickstart": "agents.training.kickstart",
    "ppo_pool": "agents.training.ppo_pool",
    "ppo_policy": "agents.training.ppo_policy",
    "proc_vec_env": "agents.training.proc_vec_env",
    "report": "agents.training.report",
    "device": "agents.training.device",
    "bench": "bg_env.bench.run",
    "bench_timing": "bg_env.bench.timing",
    "bench_pgx": "bg_env.bench.pgx_rows",
}
"""The modules that moved into ``agents.players``, ``agents.evaluation`` and
``agents.training`` (and the bench, into :mod:`bg_env.bench`), by their old names: those
still import, as the moved modules (so do SB3 archives that name ``agents.ppo_policy``),
until 1.0."""

keep_old_names(__name__, MOVED)
