"""GNU Backgammon's neural net as an opponent (optional: ``pip install gnubg-nn``, GPL).

Each candidate play's result is evaluated by gnubg-nn at the given ply from the side of
the opponent, who is then on roll; the agent picks the play whose result leaves the
opponent the lowest cubeless equity. Cubeless: never doubles, always takes. Only this
module imports gnubg-nn, and only when the agent is created.
"""

from __future__ import annotations

import numpy as np

from .base import PlayAgent

__all__ = ["GnubgAgent"]


def _equity(p) -> float:
    win, wg, wbg, lg, lbg = p
    return 2 * win - 1 + wg + wbg - lg - lbg


class GnubgAgent(PlayAgent):
    """gnubg-nn at ``plies`` (0 = the raw net, 1 = one ply of lookahead)."""

    name = "gnubg"

    def __init__(self, plies: int = 0) -> None:
        super().__init__()
        try:
            import gnubg_nn
        except ImportError as exc:
            raise ValueError(
                "agent 'gnubg' needs the optional package gnubg-nn: pip install gnubg-nn"
            ) from exc
        self._gnubg = gnubg_nn
        self.plies = int(plies)
        self.name = f"gnubg:{self.plies}" if self.plies else "gnubg"

    def choose_play(self, plays, env=None):
        if len(plays) == 1:
            return plays[0]
        scores = []
        for play in plays:
            result = play.result
            if result.outcome() is not None:
                scores.append(np.inf)
                continue
            probs = self._gnubg.probabilities(result.swap().gnubg_board(), self.plies)
            scores.append(-_equity(probs))
        return plays[int(np.argmax(scores))]
