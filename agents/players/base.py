"""The agent protocol and the agents that need no training.

An agent has ``act(env) -> int``: the next action for ``env.agent_selection`` in a raw
``backgammon_v0`` env, cube decisions included. Agents that judge whole plays subclass
:class:`PlayAgent`: they choose a :class:`~bg_env.rules.moves.Play` once per turn and
return its actions one by one (forced moves that the env plays by itself are skipped
over, since they are always the next move of the chosen play).
"""

from __future__ import annotations

import warnings
from typing import Protocol, runtime_checkable

import numpy as np

from bg_env.actions import ROLL, TAKE
from bg_env.game.game import Phase
from bg_env.rules.moves import Play

__all__ = ["Agent", "PlayAgent", "RandomAgent", "FirstLegalAgent", "VariantWarning"]


class VariantWarning(UserWarning):
    """An evaluator of standard backgammon boards plays a variant whose boards are not
    backgammon boards (Plakoto, Long Nardy): it still plays, but its choices mean little."""


@runtime_checkable
class Agent(Protocol):
    """Anything with ``act(env) -> int``."""

    name: str

    def act(self, env) -> int:  # pragma: no cover - protocol
        ...


class PlayAgent:
    """Base class for agents that pick whole plays.

    Subclasses implement :meth:`choose_play` (and may override :meth:`cube_action`).
    """

    name = "play-agent"
    reads_backgammon_boards = False
    """True for an evaluator of standard backgammon boards (pubeval, td, ppo, gnubg): it
    warns (:meth:`warn_if_variant_unread`) where a variant's boards are not such boards."""

    def __init__(self) -> None:
        # (game, turns, base, Play): the game itself, not its id, which a later game may
        # reuse and a copy of the env changes; a copy made with the env keeps its plan
        self._plan: tuple | None = None
        self._variant_seen: str | None = None  # the variant last checked

    # ---- to override
    def choose_play(self, plays: list[Play], env) -> Play:
        """Pick one of ``plays`` (all share the same start position)."""
        raise NotImplementedError

    def cube_action(self, env, legal: list[int]) -> int:
        """The cube decision: by default never double and always take."""
        if ROLL in legal:
            return ROLL
        return TAKE if TAKE in legal else legal[0]

    def warn_if_variant_unread(self, env) -> None:
        """A :class:`VariantWarning`, once per variant played, when this agent reads
        backgammon boards only and ``env``'s variant is not read as one
        (:attr:`~bg_env.rules.variants.Variant.backgammon_boards`). Its subclasses call it
        first thing in :meth:`choose_play`."""
        variant = getattr(getattr(env, "game", None), "variant", None)
        if not self.reads_backgammon_boards or variant is None:
            return
        if variant.name == self._variant_seen:
            return
        self._variant_seen = variant.name
        if not variant.backgammon_boards:
            warnings.warn(f"{self.name} judges standard backgammon boards; in {variant.name} "
                          f"its inputs mean little, so it plays as an arbitrary weak opponent",
                          VariantWarning, stacklevel=3)

    # ---- protocol
    def act(self, env) -> int:
        game = env.game
        legal = game.legal_actions()
        if game.phase != Phase.MOVE:
            return int(self.cube_action(env, legal))
        played = [m.action for m in game.played]
        plan = self._plan
        if plan is not None and plan[0] is game and plan[1] == game.turns:
            base, play = plan[2], plan[3]
            done = played[base:]
            if play.actions[: len(done)] == tuple(done) and len(done) < len(play.actions):
                action = play.actions[len(done)]
                if action in legal:
                    return action
        plays = game.legal_continuations()
        play = self.choose_play(plays, env)
        self._plan = (game, game.turns, len(played), play)
        return play.actions[0]


class RandomAgent(PlayAgent):
    """Uniform over the legal plays (not over single moves); cube actions uniform over
    the legal ones. Draws from its own generator: seeded with ``seed``, or later by
    :meth:`seed` (evaluations seed an agent whose ``own_seed`` is ``None`` from theirs)."""

    name = "random"

    def __init__(self, seed: int | None = None, cube: str = "uniform") -> None:
        super().__init__()
        self.own_seed = seed
        self.rng = np.random.default_rng(seed)
        self.cube = cube

    def seed(self, seed: int) -> None:
        """Restart the generator from ``seed``."""
        self.rng = np.random.default_rng(seed)

    def choose_play(self, plays: list[Play], env) -> Play:
        return plays[int(self.rng.integers(len(plays)))]

    def cube_action(self, env, legal: list[int]) -> int:
        if self.cube == "uniform":
            return int(legal[int(self.rng.integers(len(legal)))])
        return super().cube_action(env, legal)


class FirstLegalAgent:
    """The lowest legal action; a deterministic sparring partner for tests."""

    name = "first"

    def act(self, env) -> int:
        return int(env.game.legal_actions()[0])

