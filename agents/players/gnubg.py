"""GNU Backgammon's neural net as an opponent (optional: ``pip install gnubg-nn``, GPL).

Each candidate play's result is evaluated by gnubg-nn at the given ply from the side of
the opponent, who is then on roll; the agent picks the play whose result leaves the
opponent the lowest cubeless equity. The cube: gnubg-nn's Python bindings give no cubeful
money evaluation (``evaluate_cube_decision`` answers "Not implemented for money"), so the
agent decides it from gnubg's own probabilities at the same ply with :mod:`agents.players.cube`
(Janowski in money play, which is what GNU Backgammon's 0-ply cubeful money evaluation
does; the match equity table at a match score). Only this module imports gnubg-nn, and
only when the agent is created.
"""

from __future__ import annotations

import numpy as np

from .base import PlayAgent
from .cube import CubeSettings, cube_action

__all__ = ["GnubgAgent"]


def _equity(p) -> float:
    win, wg, wbg, lg, lbg = p
    return 2 * win - 1 + wg + wbg - lg - lbg


def _gnubg_nn():
    """The gnubg-nn module (imported when asked for, not kept on an agent, so that an agent
    pickles: ``bg-env eval --workers`` sends a copy to each worker).

    Raises:
        ValueError: gnubg-nn is not installed.
    """
    try:
        import gnubg_nn
    except ImportError as exc:
        raise ValueError(
            "agent 'gnubg' needs the optional package gnubg-nn: pip install gnubg-nn"
        ) from exc
    return gnubg_nn


MAX_PLIES = 2
"""The deepest search asked of gnubg-nn: 2 plies take about 0.02 s a position, each ply
more about 20 times that (a move at 3 plies seconds, a game many minutes)."""


class GnubgAgent(PlayAgent):
    """gnubg-nn at ``plies`` (0 = the raw net, 1 = one ply of lookahead; at most
    :data:`MAX_PLIES`)."""

    name = "gnubg"
    reads_backgammon_boards = True

    def __init__(self, plies: int = 0, cube_settings: CubeSettings | None = None) -> None:
        super().__init__()
        if isinstance(plies, bool) or not isinstance(plies, int) or not 0 <= plies <= MAX_PLIES:
            raise ValueError(f"gnubg plies={plies!r}: a whole number of 0 or more, at most "
                             f"{MAX_PLIES} plies (gnubg:2 takes about 0.02 s a position, each "
                             "ply more about 20 times that)")
        self.cube_settings = cube_settings or CubeSettings()
        _gnubg_nn()  # refused here when the package is missing
        self.plies = plies
        self.name = f"gnubg:{self.plies}" if self.plies else "gnubg"

    def choose_play(self, plays, env=None):
        self.warn_if_variant_unread(env)
        if len(plays) == 1:
            return plays[0]
        gnubg_nn, scores = _gnubg_nn(), []
        for play in plays:
            result = play.result
            if result.outcome() is not None:
                scores.append(np.inf)
                continue
            probs = gnubg_nn.probabilities(result.swap().gnubg_board(), self.plies)
            scores.append(-_equity(probs))
        return plays[int(np.argmax(scores))]

    def probabilities(self, position) -> np.ndarray:
        """gnubg's five cubeless probabilities of the player on roll in ``position``."""
        return np.array(_gnubg_nn().probabilities(position.gnubg_board(), self.plies), float)

    def cube_action(self, env, legal: list[int]) -> int:
        return cube_action(env, legal, self.probabilities, self.cube_settings)
