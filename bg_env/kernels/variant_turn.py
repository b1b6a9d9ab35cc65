"""One roll of a variant played one checker move at a time on the numba kernels of
:mod:`bg_env.kernels.variant_search` (``docs/RULES.md`` §2, §7): what
:class:`~bg_env.game.game.Game` plays the variants whose moves are not standard by.

:class:`KernelVariantTurn` has the interface of
:class:`~bg_env.rules.variants.VariantTurn` (the pure-Python tree, which stays as the
reference and as the generator of the ``BG_ENV_PURE_PYTHON`` mode), plus :attr:`mask`
and :attr:`count` for the Game's fast path. The legal next moves are exactly the next
moves of some complete legal play. A turn copies and pickles (its arrays are its own;
the kernels' work arrays are shared and never copied).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..rules.actions import N_ACTIONS
from .io import MOVES, new_position, unpack_side
from ..rules.moves import Move, Play, dice_to_play
from ..rules.position import Position
from .variant_moves import BOARD, OPP, PIN_ME, PIN_OPP, ROW, start_row, variant_params
from .variant_search import (
    HIT_CODE, MAX_FRONTIER, advance, longest, mask_into, most_dice, plays_into, work_arrays,
    work_views,
)
from ..rules.variants import PinnedPosition, get_variant

__all__ = ["KernelVariantTurn", "found_plays", "new_pinned_position", "open_turn", "play_move",
           "N_INFO", "I_ND", "I_NEED", "I_ROWS", "I_CUR", "I_COUNT", "I_TO_PLAY", "I_PIN_ME",
           "I_PIN_OPP", "I_DICE"]

# columns of a turn's ``info`` array
I_ND, I_NEED, I_LARGER, I_ROWS, I_CUR, I_COUNT, I_TO_PLAY, I_PIN_ME, I_PIN_OPP, I_DICE = range(10)
N_INFO = I_DICE + 4
"""The dice still to play are ``info[I_DICE:I_DICE + info[I_ND]]``."""

_WORK = work_arrays()
"""The search's work arrays, shared by every turn (the kernels run one at a time)."""
_PLAYS: list = []
"""``[rows, moves, lengths, table]``: the buffers of :meth:`KernelVariantTurn.continuations`
(made on first use, grown when a roll has more plays)."""
_PARAMS: dict = {}
"""The kernels' numbers of each variant, by name (with the Variant they were made for)."""
_set_pinned = PinnedPosition.__dict__["pinned"].__set__
_set_me, _set_opp = Position.__dict__["me"].__set__, Position.__dict__["opp"].__set__


def _params(variant) -> np.ndarray:
    made = _PARAMS.get(variant.name)
    if made is None or made[1] is not variant:
        made = _PARAMS[variant.name] = (variant_params(variant), variant)
    return made[0]


def new_pinned_position(me: tuple, opp: tuple, pinned: tuple[int, int]) -> PinnedPosition:
    """A PinnedPosition from two 26-tuples and the pins, unchecked (boards made by the
    kernels from valid ones)."""
    pos = object.__new__(PinnedPosition)
    _set_me(pos, me)
    _set_opp(pos, opp)
    _set_pinned(pos, pinned)
    return pos


def _play_buffers(size: int) -> list:
    if not _PLAYS or _PLAYS[0].shape[0] < size:
        _PLAYS[:] = [np.zeros((size, BOARD), np.int64), np.zeros((size, 4), np.int64),
                     np.zeros(size, np.int64), np.zeros(4 * size, np.int64)]
    return _PLAYS


@njit(cache=True)
def open_turn(vr, info, rows, flags, work):
    """A turn begins from the board ``flags[2, :52]`` (``me`` then ``opp``), the pins and
    the dice in ``info``: the start row, the dice the play must use, the larger-die rule,
    the legal first moves (``flags[0]``, their hits ``flags[1]``) and the longest play."""
    stack, dice, scratch, it = work_views(work)
    frontier = rows[0]
    nd = info[I_ND]
    dice_left = info[I_DICE:I_DICE + 4]
    start_row(vr, flags[2, :26], flags[2, 26:52], info[I_PIN_ME], info[I_PIN_OPP],
              dice_left[0], dice_left[1], frontier[0])
    stack[0] = frontier[0]
    dice[0, :nd] = dice_left[:nd]
    need = most_dice(vr, stack, dice, scratch, it, 0, nd)
    larger = 0
    if nd == 2 and dice_left[0] != dice_left[1] and need == 1:
        larger = max(dice_left[0], dice_left[1])
    count = mask_into(vr, frontier, 1, dice_left, nd, need, larger, flags[0], flags[1], stack,
                      dice, scratch, it)
    info[I_NEED], info[I_LARGER], info[I_ROWS], info[I_CUR] = need, larger, 1, 0
    info[I_COUNT] = count
    info[I_TO_PLAY] = longest(vr, frontier, 1, dice_left, nd, need, count, stack, dice, scratch,
                              it)


@njit(cache=True)
def play_move(vr, info, rows, flags, work, action):
    """The legal move ``action`` made: the next frontier, dice, legal moves and longest
    play in ``info``/``rows``/``flags``, the board after it in ``flags[2, :52]`` and its
    pins in ``info``. Returns 1 when the move hit (or pinned), else 0."""
    stack, dice, scratch, it = work_views(work)
    cur = info[I_CUR]
    nd, need = info[I_ND], info[I_NEED]
    dice_left = info[I_DICE:I_DICE + 4]
    hit = flags[1, action]
    out = rows[1 - cur]
    n_out = advance(vr, rows[cur], info[I_ROWS], dice_left, nd, need, action, out, stack, dice,
                    scratch, it)
    die = action % 6 + 1
    for k in range(nd):
        if dice_left[k] == die:
            dice_left[k] = dice_left[nd - 1]
            dice_left[nd - 1] = 0
            break
    nd -= 1
    need -= 1
    count = mask_into(vr, out, n_out, dice_left, nd, need, 0, flags[0], flags[1], stack, dice,
                      scratch, it)
    info[I_ND], info[I_NEED], info[I_ROWS], info[I_CUR] = nd, need, n_out, 1 - cur
    info[I_COUNT] = count
    info[I_TO_PLAY] = longest(vr, out, n_out, dice_left, nd, need, count, stack, dice, scratch, it)
    for c in range(52):
        flags[2, c] = out[0, c]
    info[I_PIN_ME], info[I_PIN_OPP] = out[0, PIN_ME], out[0, PIN_OPP]
    return hit


@njit(cache=True)
def _plays(vr, info, rows, flags, work, out_rows, out_moves, out_len, table):
    """:func:`~.variant_search.plays_into` from the turn's frontier."""
    stack, dice, scratch, it = work_views(work)
    return plays_into(vr, rows[info[I_CUR]], info[I_ROWS], info[I_DICE:I_DICE + 4], info[I_ND],
                      info[I_NEED], flags[0], out_rows, out_moves, out_len, table, stack, dice,
                      scratch, it)


class KernelVariantTurn:
    """One roll of a variant played one checker move at a time (see the module docstring).

    Attributes:
        count: how many next moves are legal.
        made: how many moves have been made.
    """

    def __init__(self, variant, pos: Position, dice: tuple[int, int]):
        self.variant = get_variant(variant)
        self.start = pos
        self._vr = _params(self.variant)
        self._pinned = self.variant.landing == "pin"
        left = dice_to_play(dice)
        info = self._info = np.zeros(N_INFO, np.int64)
        info[I_ND] = len(left)
        info[I_DICE:I_DICE + len(left)] = left
        if self._pinned:
            info[I_PIN_ME], info[I_PIN_OPP] = pos.pinned
        self._rows = np.empty((2, MAX_FRONTIER, ROW), np.int64)
        self._flags = np.zeros((3, N_ACTIONS), np.int8)
        """The legal next moves, their hit flags, the board after the last move."""
        self._flags[2, :52] = np.frombuffer(bytes(pos.me + pos.opp), np.int8)
        open_turn(self._vr, info, self._rows, self._flags, _WORK)
        self.count, self._to_play = int(info[I_COUNT]), int(info[I_TO_PLAY])
        self._actions = None
        self.made = 0

    @property
    def mask(self) -> np.ndarray:
        """``int8[N_ACTIONS]``: the legal next moves (the turn's own buffer: do not write)."""
        return self._flags[0]

    @property
    def moves_to_play(self) -> int:
        """How many more moves the longest legal play still has."""
        return self._to_play

    def next_actions(self) -> list[int]:
        """The legal next checker-move actions, ascending; empty when the play is done."""
        if self._actions is None:
            self._actions = self._flags[0].nonzero()[0].tolist()
        return self._actions

    def next_moves(self) -> list[Move]:
        """The legal next moves (with their hit flags), one per action, ascending."""
        hits = self._flags[1]
        return [MOVES[a // 6 + 1, a % 6 + 1, bool(hits[a])] for a in self.next_actions()]

    def move(self, action: int) -> tuple[Position, bool]:
        """Make one legal next move; the new position and whether it hit (or pinned).

        Raises:
            ValueError: ``action`` is not a legal next move.
        """
        if not (0 <= action < 150 and self._flags[0, action]):
            raise ValueError(
                f"action {action} is not a legal next move (legal: {self.next_actions()})")
        hit = play_move(self._vr, self._info, self._rows, self._flags, _WORK, action)
        _, _, _, _, _, count, to_play, pin_me, pin_opp = self._info[:I_DICE].tolist()
        self.count, self._to_play = count, to_play
        self._actions = None
        self.made += 1
        buf = self._flags[2, :52].tobytes()
        me, opp = unpack_side(buf, 0), unpack_side(buf, 26)
        if self._pinned:
            return new_pinned_position(me, opp, (pin_me, pin_opp)), bool(hit)
        return new_position(me, opp), bool(hit)

    def continuations(self, current: Position) -> list[Play]:
        """Every distinct way to finish the play from ``current`` (the position after the
        moves made so far), one :class:`Play` per result."""
        return found_plays(lambda rows, moves, lengths, table: _plays(
            self._vr, self._info, self._rows, self._flags, _WORK, rows, moves, lengths, table),
            current, self._pinned)


def found_plays(search, current: Position, pinned: bool) -> list[Play]:
    """The plays a search kernel finds (``search(rows, moves, lengths, table)``, a call of
    :func:`~bg_env.kernels.variant_search.plays_into`, which returns how many it wrote and
    raises ``ValueError`` when the buffers are too small: they are grown and the search
    run again), as :class:`Play` objects from ``current`` (``pinned``: Plakoto's pins)."""
    size = 1024
    while True:
        rows, moves, lengths, table = _play_buffers(size)
        try:
            found = search(rows, moves, lengths, table)
            break
        except ValueError:
            size = rows.shape[0] * 4
    plays = []
    for k in range(found):
        codes = moves[k, : lengths[k]].tolist()
        made = tuple(MOVES[(c % HIT_CODE) // 6 + 1, c % 6 + 1, c >= HIT_CODE] for c in codes)
        values = rows[k].tolist()
        me, opp = tuple(values[:26]), tuple(values[OPP:OPP + 26])
        if pinned:
            result = new_pinned_position(me, opp, (values[PIN_ME], values[PIN_OPP]))
        else:
            result = new_position(me, opp)
        plays.append(Play(current, made, result))
    return plays
