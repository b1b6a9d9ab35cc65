"""One roll of a variant played one checker move at a time on the numba kernels of
:mod:`bg_env.core.variant_search` (``docs/RULES.md`` §2, §7): what
:class:`~bg_env.core.game.Game` plays the variants whose moves are not standard by.

:class:`KernelVariantTurn` has the interface of
:class:`~bg_env.core.variants.VariantTurn` (the pure-Python tree, which stays as the
reference and as the generator of the ``BG_ENV_PURE_PYTHON`` mode), plus :attr:`mask`
and :attr:`count` for the Game's fast path. The legal next moves are exactly the next
moves of some complete legal play. A turn copies and pickles (its arrays are its own;
the kernels' work arrays are shared and never copied).
"""

from __future__ import annotations

import numpy as np

from .actions import N_ACTIONS
from .kernel_io import MOVES, new_position
from .moves import Move, Play, dice_to_play
from .position import Position
from .variant_kernels import BOARD, OPP, PIN_ME, PIN_OPP, ROW, start_row, variant_params
from .variant_search import HIT_CODE, MAX_FRONTIER, play_move, plays_into, start_turn, work_arrays
from .variants import PinnedPosition, get_variant

__all__ = ["KernelVariantTurn"]

_WORK = work_arrays()
"""The search's work arrays, shared by every turn (the kernels run one at a time)."""
_PLAYS: list = []
"""``[rows, moves, lengths, table]``: the buffers of :meth:`KernelVariantTurn.continuations`
(made on first use, grown when a roll has more plays)."""
_PARAMS: dict = {}
"""The kernels' numbers of each variant, by the Variant object."""


def _params(variant) -> np.ndarray:
    vr = _PARAMS.get(id(variant))
    if vr is None or vr[1] is not variant:
        vr = _PARAMS[id(variant)] = (variant_params(variant), variant)
    return vr[0]


def _board(pinned: bool, row: np.ndarray) -> Position:
    """The board of a row as a Position (a PinnedPosition in Plakoto)."""
    values = row[:BOARD].tolist()
    me, opp = tuple(values[:26]), tuple(values[OPP:OPP + 26])
    if pinned:
        return PinnedPosition(me, opp, (values[PIN_ME], values[PIN_OPP]))
    return new_position(me, opp)


def _play_buffers(size: int) -> list:
    if not _PLAYS or _PLAYS[0].shape[0] < size:
        _PLAYS[:] = [np.zeros((size, BOARD), np.int64), np.zeros((size, 4), np.int64),
                     np.zeros(size, np.int64), np.zeros(4 * size, np.int64)]
    return _PLAYS


class KernelVariantTurn:
    """One roll of a variant played one checker move at a time (see the module docstring).

    Attributes:
        mask: ``int8[N_ACTIONS]``, the legal next moves (kept up to date; do not write).
        count: how many next moves are legal.
        made: how many moves have been made.
    """

    def __init__(self, variant, pos: Position, dice: tuple[int, int]):
        self.variant = get_variant(variant)
        self.start = pos
        self._vr = _params(self.variant)
        self._pinned = self.variant.landing == "pin"
        left = dice_to_play(dice)
        self._dice = np.zeros(4, np.int64)
        self._dice[: len(left)] = left
        self._nd = len(left)
        self._frontier = np.zeros((MAX_FRONTIER, ROW), np.int64)
        self._spare = np.zeros((MAX_FRONTIER, ROW), np.int64)
        self._rows = 1
        pins = getattr(pos, "pinned", (0, 0))
        start_row(self._vr, np.array(pos.me, np.int64), np.array(pos.opp, np.int64), pins[0],
                  pins[1], int(dice[0]), int(dice[1]), self._frontier[0])
        self.mask = np.zeros(N_ACTIONS, np.int8)
        self._hits = np.zeros(N_ACTIONS, np.int8)
        self._need, self._larger, self.count, self._to_play = start_turn(
            self._vr, self._frontier, self._dice, self._nd, self.mask, self._hits, *_WORK)
        self._actions = None
        self.made = 0

    @property
    def moves_to_play(self) -> int:
        """How many more moves the longest legal play still has."""
        return self._to_play

    def next_actions(self) -> list[int]:
        """The legal next checker-move actions, ascending; empty when the play is done."""
        if self._actions is None:
            self._actions = self.mask.nonzero()[0].tolist()
        return self._actions

    def next_moves(self) -> list[Move]:
        """The legal next moves (with their hit flags), one per action, ascending."""
        hits = self._hits
        return [MOVES[a // 6 + 1, a % 6 + 1, bool(hits[a])] for a in self.next_actions()]

    def move(self, action: int) -> tuple[Position, bool]:
        """Make one legal next move; the new position and whether it hit (or pinned).

        Raises:
            ValueError: ``action`` is not a legal next move.
        """
        if not (0 <= action < 150 and self.mask[action]):
            raise ValueError(f"action {action} is not a legal next move (legal: {self.next_actions()})")
        hit = bool(self._hits[action])
        out = self._spare
        self._rows, self.count, self._to_play = play_move(
            self._vr, self._frontier, self._rows, self._dice, self._nd, self._need, action, out,
            self.mask, self._hits, *_WORK)
        self._spare, self._frontier = self._frontier, out
        self._nd -= 1
        self._need -= 1
        self._actions = None
        self.made += 1
        return _board(self._pinned, out[0]), hit

    def continuations(self, current: Position) -> list[Play]:
        """Every distinct way to finish the play from ``current`` (the position after the
        moves made so far), one :class:`Play` per result."""
        size = 1024
        while True:
            rows, moves, lengths, table = _play_buffers(size)
            try:
                found = plays_into(self._vr, self._frontier, self._rows, self._dice, self._nd,
                                   self._need, self.mask, rows, moves, lengths, table, *_WORK)
                break
            except ValueError:
                size = rows.shape[0] * 4
        plays = []
        for k in range(found):
            codes = moves[k, : lengths[k]].tolist()
            made = tuple(MOVES[(c % HIT_CODE) // 6 + 1, c % 6 + 1, c >= HIT_CODE] for c in codes)
            plays.append(Play(current, made, _board(self._pinned, rows[k])))
        return plays
