"""Opponents by name: the registry behind ``opponent="pubeval"`` in the single-agent envs.

The envs take opponents as objects (``act(env)`` or ``choose_play(plays, env)``) or
callables. A spec string such as ``"pubeval"``, ``"td:PATH"`` or ``"td+naive"`` is looked
up here by its kind (the part before any ``:`` or ``+``; what follows is the factory's to
read): the env layer knows no agent itself and never imports the package that defines
them. Packages fill the registry in one of two ways:

* in code, ``register_opponent("pubeval", factory)``, where ``factory(spec) -> agent``
  receives the whole spec string (``"td:PATH"``);
* declared in their ``pyproject.toml``, loaded the first time a kind is asked for::

      [project.entry-points."bg_env.opponents"]
      pubeval = "agents:load_agent"

  so that ``gymnasium.make("bg_env/Backgammon-v0", opponent="pubeval")`` works in an
  installed environment without importing the agents package first.

Plain ``"random"`` never reaches the registry: each env has its own built-in random
opponent drawing from the env's generator (``"random:SEED"`` does reach it).

>>> register_opponent("always-first", lambda spec: (lambda env: 0))
>>> make_opponent("always-first")(None)
0
"""

from __future__ import annotations

from importlib import metadata
from typing import Any, Callable

import numpy as np

from ..game.game import IllegalActionError, action_index
from ..rules.moves import Play

__all__ = ["ENTRY_POINT_GROUP", "register_opponent", "make_opponent", "known_opponents",
           "seed_opponent", "opponent_generator_state", "restore_opponent_generator",
           "opponent_step", "opponent_play"]

ENTRY_POINT_GROUP = "bg_env.opponents"
"""The entry-point group whose names are opponent kinds and whose objects are factories."""

_FACTORIES: dict[str, Callable[[str], Any]] = {}

_OPPONENT_STREAM = 0x6F7070  # keeps an opponent's stream apart from the env's of one seed


def register_opponent(kind: str, factory: Callable[[str], Any]) -> None:
    """Make ``factory(spec)`` build the opponent for specs ``kind``, ``kind:ARG`` and
    ``kind+MODIFIER`` (``td+naive``).

    Raises:
        ValueError: ``kind`` is empty or holds ``:``, or ``factory`` is not callable.
    """
    if not isinstance(kind, str) or not kind or ":" in kind or "+" in kind:
        raise ValueError(f"opponent kind {kind!r}: expected a non-empty name without ':' "
                         f"or '+'")
    if not callable(factory):
        raise ValueError(f"opponent kind {kind!r}: factory {factory!r} is not callable")
    _FACTORIES[kind] = factory


def _entry_point(kind: str):
    """The entry point of ``kind`` in :data:`ENTRY_POINT_GROUP`, or ``None``."""
    for ep in metadata.entry_points(group=ENTRY_POINT_GROUP):
        if ep.name == kind:
            return ep
    return None


def known_opponents() -> list[str]:
    """The kinds registered in code or declared by installed packages."""
    declared = {ep.name for ep in metadata.entry_points(group=ENTRY_POINT_GROUP)}
    return sorted(set(_FACTORIES) | declared)


def make_opponent(spec: str) -> Any:
    """The opponent named by ``spec`` (``"pubeval"``, ``"td:PATH"``, ...): its factory's
    result, the factory found in the registry or else among the installed entry points.

    Raises:
        ValueError: ``spec`` is not a string, or no package provides its kind (the message
            names the spec and the known kinds).
    """
    if not isinstance(spec, str):
        raise ValueError(f"opponent spec {spec!r}: expected a string such as 'pubeval'")
    kind = spec.partition(":")[0].partition("+")[0]
    factory = _FACTORIES.get(kind)
    if factory is None:
        ep = _entry_point(kind)
        if ep is None:
            raise ValueError(
                f"opponent={spec!r}: unknown kind {kind!r}; known: "
                f"{sorted(set(known_opponents()) | {'random'})} (install a package that declares it in "
                f"the {ENTRY_POINT_GROUP!r} entry points, or call register_opponent)")
        factory = ep.load()
        register_opponent(kind, factory)
    return factory(spec)


def seed_opponent(opponent: Any, seed: int) -> None:
    """Restart the own generator of ``opponent`` (an agent, or its bound ``act`` or
    ``choose_play``) from an env's ``reset(seed=seed)``, so that the same seed plays the
    same game again. Only an opponent with a ``seed(n)`` method has a generator of its
    own (``agents.RandomAgent``); one with a seed of its own (``own_seed``, as
    ``"random:7"``) has it mixed in, so that ``random:7`` and ``random:8`` still differ.

    >>> class Coin:
    ...     own_seed = None
    ...     def seed(self, n):
    ...         self.n = n
    >>> a, b = Coin(), Coin()
    >>> seed_opponent(a, 5); seed_opponent(b, 5); a.n == b.n
    True
    """
    agent = getattr(opponent, "__self__", opponent)
    if not callable(getattr(agent, "seed", None)):
        return
    own = getattr(agent, "own_seed", None)
    entropy = [_OPPONENT_STREAM, int(seed)] + ([] if own is None else [1, int(own)])
    agent.seed(int(np.random.SeedSequence(entropy).generate_state(1)[0]))


def opponent_generator_state(opponent: Any) -> dict | None:
    """The state of the own generator of ``opponent`` (an agent, or its bound method),
    kept as a numpy ``Generator`` in its ``rng`` (as ``agents.RandomAgent`` keeps it):
    what :func:`restore_opponent_generator` needs to put it back after a refused
    ``reset``. ``None`` for an opponent with no ``rng``."""
    rng = getattr(getattr(opponent, "__self__", opponent), "rng", None)
    return rng.bit_generator.state if isinstance(rng, np.random.Generator) else None


def restore_opponent_generator(opponent: Any, state: dict | None) -> None:
    """Put the generator of ``opponent`` back in the ``state`` that
    :func:`opponent_generator_state` read, whether :func:`seed_opponent` replaced it since
    (by one of the same kind, as ``seed(n)`` makes) or play drew from it. Only the state is
    set, on the generator the opponent holds now: a wrapper that lends its inner agent's
    ``rng`` (``agents.players.cube.CubeNaive``) restores the inner agent's."""
    if state is not None:
        getattr(opponent, "__self__", opponent).rng.bit_generator.state = state


def opponent_step(env: Any, answer: Any) -> None:
    """``env.step(answer)`` for an opponent of the move-level env, whose ``answer`` must be
    a legal action index (an integer, as ``env.step`` takes).

    Raises:
        IllegalActionError: ``answer`` is not an integer or not legal; the message says it
            is the opponent's and names it, and ``env`` is left as it was.
    """
    try:
        env.step(action_index(answer))
    except IllegalActionError as exc:
        raise IllegalActionError(f"the opponent's answer: {exc}") from None


def opponent_play(plays: list[Play], answer: Any) -> Play:
    """The play an opponent of the play-level env chose: ``answer`` is a ``Play`` or an
    index ``0..len(plays) - 1`` into ``plays`` (the legal plays it was shown).

    Raises:
        IllegalActionError: any other answer (an index out of range, a negative one, a
            float, ``None``), naming it.
    """
    if isinstance(answer, Play):
        return answer  # the game checks that it starts from the current position
    try:
        index = action_index(answer)
    except IllegalActionError:
        index = -1
    if not 0 <= index < len(plays):
        raise IllegalActionError(f"the opponent's answer {answer!r}: expected a Play or an "
                                 f"index 0..{len(plays) - 1} into the {len(plays)} legal plays")
    return plays[index]
