"""Tesauro's *pubeval*: the standard linear benchmark evaluator for backgammon (1993).

Source. Gerald Tesauro (IBM Research), ``pubeval.c``, 1993, "provided as a public service
to the backgammon programming community"; the same file ships in GNU Backgammon as
``pub_eval.c`` ("by Gerry Tesauro, modified by Gary Wong for GNU Backgammon, 1999",
https://git.savannah.gnu.org/cgit/gnubg.git/tree/pub_eval.c), and gnubg-nn calls it from
``eval.c`` (``pubEvalVal``, ``FindPubevalMove``). The weight vectors ``wr``/``wc`` and the
input encoding ``setx`` were read there; the weights below are copied (they are data), the
code is ours.

The evaluator scores the board *after* a move, from the mover's side, as ``w . x`` with two
weight vectors of 122: ``WR`` for races (no contact), ``WC`` for contact positions. The
inputs ``x`` (Tesauro's ``setx``), with ``pos[p]`` the count on the mover's point ``p``
(positive for the mover's checkers, negative for the opponent's):

* for each point ``p = 24, 23, ..., 1`` (block ``k = 24 - p``, inputs ``5k .. 5k+4``):
  ``[pos == -1, pos == 1, pos >= 2, pos == 3, (pos - 3) / 2 if pos >= 4 else 0]``, so
  only the opponent's *blots* are seen, never his points;
* ``x[120] = opponent checkers on the bar / 2``;
* ``x[121] = mover's checkers borne off / 15``.

The mover's own bar and the opponent's borne-off checkers are not inputs. When the mover
has borne everything off the score is ``99999999`` (Tesauro's "best possible move").

Race flag. Tesauro: "race ... should be set based on the INITIAL position BEFORE the move"
(1 if no contact). :func:`choose_play` does that, as gnubg's ``FindPubevalMove`` does, so
every candidate is scored with the same weight vector. :func:`pubeval_score` takes the flag
as an argument; left ``None`` it is read from the position it is given, which is what
gnubg-nn's ``pub_eval_score`` does. Contact is GNU Backgammon's test
(``ClassifyPosition``: contact when the two back checkers, bar = 25, add to 25 or more),
which is :meth:`Position.is_race`.

The mover's checkers still on the bar after the move are *not* counted as borne off
(Tesauro's ``pos[26]`` is the men off the board); gnubg-nn 1.1.0a11's ``pub_eval_score``
agrees on such positions.

gnubg-nn orientation (checked against gnubg-nn 1.1.0a11, see the tests):

* ``gnubg_nn.pub_eval_score(board)`` scores the side in ``board[0]``, i.e. the board *after*
  the move with the opponent on roll: ``result.swap().gnubg_board()`` for a mover-view
  after-move ``Position`` ``result`` (``result.gnubg_board()`` scores the wrong side). It
  reads the race flag from that board and returns a float32 (``WIN_SCORE`` comes back as
  ``1e8``).
* ``gnubg_nn.pub_best_move(board, d1, d2)`` takes the board *before* the move as
  ``pos.gnubg_board()`` (``[opp, me]``, mover in ``board[1]``) and returns the chosen play
  as a flat list ``[from, to, from, to, ...]`` of gnubg's 0-based points (``p - 1``; bar
  ``24``; ``-1`` for off), one pair per die, and ``[]`` when nothing can be played.
"""

from __future__ import annotations

from typing import Iterable, Sequence

import numpy as np

from bg_env.rules.moves import Play
from bg_env.rules.position import Position
from bg_env.kernels.pubeval import WC, WIN_SCORE, WR

from .base import PlayAgent

__all__ = [
    "WR",
    "WC",
    "WIN_SCORE",
    "pubeval_inputs",
    "pubeval_score",
    "pubeval_scores",
    "choose_play",
    "PubevalPlayer",
    "PubevalAgent",
    "best_of",
]



_WEIGHTS = np.stack([WC, WR])  # row 0: contact, row 1: race
# Tesauro's point order: block k of the inputs is the mover's point 24 - k.
_POINTS = np.arange(24, 0, -1)


def _sides(positions: Sequence[Position]) -> tuple[np.ndarray, np.ndarray]:
    me = np.array([p.me for p in positions], dtype=np.int64).reshape(-1, 26)
    opp = np.array([p.opp for p in positions], dtype=np.int64).reshape(-1, 26)
    return me, opp


def _inputs(me: np.ndarray, opp: np.ndarray) -> np.ndarray:
    """The (N, 122) input matrix from (N, 26) side arrays (see the module docstring)."""
    mine = me[:, _POINTS]  # mover's count on points 24..1
    theirs = opp[:, 25 - _POINTS]  # opponent's count on the same points
    x = np.zeros((me.shape[0], 122), dtype=np.float64)
    blocks = x[:, :120].reshape(-1, 24, 5)
    blocks[:, :, 0] = (mine == 0) & (theirs == 1)
    blocks[:, :, 1] = mine == 1
    blocks[:, :, 2] = mine >= 2
    blocks[:, :, 3] = mine == 3
    blocks[:, :, 4] = np.where(mine >= 4, (mine - 3) / 2.0, 0.0)
    x[:, 120] = opp[:, 25] / 2.0
    x[:, 121] = me[:, 0] / 15.0
    return x


def pubeval_inputs(position: Position) -> np.ndarray:
    """Tesauro's 122 inputs for the board after a move, from the mover's side."""
    me, opp = _sides([position])
    return _inputs(me, opp)[0]


def _race_flags(positions: Sequence[Position], race) -> np.ndarray:
    if race is None:
        return np.array([p.is_race() for p in positions], dtype=bool)
    flags = np.asarray(race, dtype=bool)
    return np.broadcast_to(flags, (len(positions),))


def pubeval_scores(
    positions: Iterable[Position], race: bool | Sequence[bool] | None = None
) -> np.ndarray:
    """Pubeval scores of many after-move positions (each from its mover's side).

    Args:
        positions: boards after the move, still seen from the player who moved.
        race: one flag for all, one per position, or ``None`` to read each flag from the
            position itself (``Position.is_race``, as ``gnubg_nn.pub_eval_score`` does).
            Tesauro sets it from the position *before* the move; :func:`choose_play` does.

    Returns:
        A float64 array; higher is better for the mover.
    """
    positions = list(positions)
    if not positions:
        return np.zeros(0, dtype=np.float64)
    me, opp = _sides(positions)
    flags = _race_flags(positions, race)
    x = _inputs(me, opp)
    scores = np.einsum("ij,ij->i", x, _WEIGHTS[flags.astype(np.int64)])
    done = ~me[:, 1:26].any(axis=1)
    scores[done] = WIN_SCORE
    return scores


def pubeval_score(position: Position, race: bool | None = None) -> float:
    """Pubeval score of one after-move position, from the mover's side.

    ``race=None`` reads the race flag from ``position`` itself (see :func:`pubeval_scores`).

    >>> round(pubeval_score(Position.start()), 5)
    6.84055
    """
    return float(pubeval_scores([position], race)[0])


def best_of(plays: Sequence[Play], race: bool) -> Play:
    """The play whose result pubeval scores highest (ties: smallest Position ID)."""
    if len(plays) == 1:
        return plays[0]
    scores = pubeval_scores([p.result for p in plays], race=race)
    best = scores.max()
    tied = [p for p, s in zip(plays, scores) if s == best]
    if len(tied) == 1:
        return tied[0]
    return min(tied, key=lambda p: p.result.position_id())


def choose_play(position: Position, dice: tuple[int, int]) -> Play:
    """The legal play whose resulting position pubeval scores highest.

    The race flag is read from ``position`` (before the move) and used for every
    candidate, as Tesauro prescribes (and gnubg's ``FindPubevalMove``). Exact ties (equal
    float64 scores) are broken by the smallest GNU Backgammon Position ID of the resulting
    board, so the choice does not depend on the move generator's order. A single legal
    play (forced, or the empty play) is returned without scoring.
    """
    return best_of(position.legal_plays(tuple(dice)), position.is_race())


class PubevalPlayer:
    """A player that always makes pubeval's favourite play (deterministic, stateless)."""

    name = "pubeval"

    def choose_play(self, position: Position, dice: tuple[int, int]) -> Play:
        """See :func:`choose_play`."""
        return choose_play(position, dice)

    def __repr__(self) -> str:
        return "PubevalPlayer()"


class PubevalAgent(PlayAgent):
    """Pubeval as a ``bg_env`` agent: its favourite play each turn; cubeless (never
    doubles, always takes). The race flag is read before the play (for a play already
    begun by a forced move, before the remaining moves)."""

    name = "pubeval"
    reads_backgammon_boards = True

    def choose_play(self, plays: Sequence[Play], env=None) -> Play:
        self.warn_if_variant_unread(env)
        return best_of(plays, plays[0].start.is_race())
