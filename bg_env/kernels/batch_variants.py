"""The variants whose moves are not standard (Plakoto, Caucasian, Long Nardy, sudden death)
on the kernel state machine of :mod:`bg_env.kernels.batch`: one turn per row, played one
checker move at a time by the search kernels of :mod:`bg_env.kernels.variant_turn`
(``docs/RULES.md`` §2, §5, §7).

This is :class:`~bg_env.kernels.variant_turn.KernelVariantTurn` with a leading row dimension:
the same kernels (:func:`~bg_env.kernels.variant_turn.open_turn`,
:func:`~bg_env.kernels.variant_turn.play_move`) over row ``i`` of the arrays of
:class:`VariantRows`, so that one engine game (one row) and a batch of games share them.
The batch's ``me``/``opp`` stay the board (written from the turn's row after each move);
the Plakoto pins, the turn's frontier and the board the dice were rolled in live here.

The turn kernels of :mod:`bg_env.kernels.batch` take these arrays as one tuple ``vt``
(:attr:`VariantRows.kernel_args`) and call the functions below where a variant's turn
differs: its start (no pins, Long Nardy's fresh first roll; the layout is the rules
array's, :mod:`bg_env.kernels.batch_rules`, as for every variant), its plan, its legal moves,
a move, its end (:func:`outcome_row`) and the side change (:func:`swap_row`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..rules.actions import N_ACTIONS
from .batch_rules import cap_kind
from ..rules.position import Position
from .variant_moves import N_PARAMS, ROW, V_FIRST_HIT_WINS, V_MOTHER, variant_params
from .variant_search import MAX_FRONTIER, plays_into, work_arrays, work_views
from .variant_turn import (
    I_COUNT, I_CUR, I_DICE, I_ND, I_NEED, I_PIN_ME, I_PIN_OPP, I_ROWS, I_TO_PLAY, N_INFO,
    found_plays, open_turn, play_move,
)
from ..rules.variants import PinnedPosition, get_variant

__all__ = ["VariantRows", "uses_variant_turn", "clear_pins", "fresh_first_roll", "open_row_turn",
           "turn_mask", "move_row", "row_plays", "outcome_row", "swap_row", "K_HIT", "K_MOTHER",
           "K_DRAW", "NO_WINNER"]

# columns of VariantRows.info after the turn's own (variant_turn.N_INFO)
T_PIN_ME, T_PIN_OPP = N_INFO, N_INFO + 1
"""The pins when the dice were rolled."""
T_BOARD = N_INFO + 2
"""``T_BOARD..T_BOARD + 52``: the board when the dice were rolled (``me`` then ``opp``)."""
N_ROW_INFO = T_BOARD + 52

# the variant's numbers after variant_params' (VariantRows.params)
X_FRESH, X_OPPOSITE, X_HOUSE_MARS, X_LAST_ROLL = range(N_PARAMS, N_PARAMS + 4)
N_ROW_PARAMS = N_PARAMS + 4

K_HIT, K_MOTHER, K_DRAW = 4, 5, 6
"""Outcome codes of :func:`outcome_row` after single, gammon, backgammon (0..2) and the
batch's drop (3): a sudden-death hit, a pinned Plakoto mother, a Long Nardy draw."""
NO_WINNER = 2
""":func:`outcome_row`'s winner of a draw."""
_MOTHER = 24
_BAR = 25


def uses_variant_turn(variant) -> bool:
    """Whether ``variant`` (a name or a Variant) is played by these kernels: its moves are
    not standard."""
    return not get_variant(variant).standard_moves


def row_params(variant) -> np.ndarray:
    """The variant as ``int64[N_ROW_PARAMS]``: :func:`~.variant_kernels.variant_params`,
    then the fresh first roll, the geometry, Long Nardy's house mars and last roll."""
    variant = get_variant(variant)
    out = np.zeros(N_ROW_PARAMS, np.int64)
    out[:N_PARAMS] = variant_params(variant)
    out[X_FRESH] = variant.fresh_first_roll
    out[X_OPPOSITE] = variant.geometry == "opposite"
    out[X_HOUSE_MARS] = variant.house_mars
    out[X_LAST_ROLL] = variant.last_roll_draw
    return out


class VariantRows:
    """The per-row storage of ``n`` variant turns (see the module docstring).

    Attributes:
        params: ``int64[N_ROW_PARAMS]``, the variant (:func:`row_params`).
        info: ``int64[n, N_ROW_INFO]``: each turn's ``info``
            (:mod:`~bg_env.kernels.variant_turn` columns; the pins between turns too), then
            the pins and the board the dice were rolled in.
        rows: ``int64[n, 2, MAX_FRONTIER, ROW]``: each turn's frontier (two buffers).
        flags: ``int8[n, 3, N_ACTIONS]``: each turn's legal next moves, their hits, the
            board after the last move.
        work: the search's work arrays (shared by the rows: the kernels run one at a time).
    """

    def __init__(self, n: int, variant) -> None:
        self.variant = get_variant(variant)
        self.params = row_params(self.variant)
        self.info = np.zeros((n, N_ROW_INFO), np.int64)
        self.rows = np.zeros((n, 2, MAX_FRONTIER, ROW), np.int64)
        self.flags = np.zeros((n, 3, N_ACTIONS), np.int8)
        self.work = work_arrays()

    @property
    def kernel_args(self) -> tuple:
        """The tuple ``vt`` the kernels take."""
        return (self.params, self.info, self.rows, self.flags, self.work)

    def __deepcopy__(self, memo) -> "VariantRows":
        """A copy with turns of its own; the variant, its numbers and the work arrays
        (scratch of one kernel call at a time) shared, also where the same copy meets
        them elsewhere (``memo``)."""
        twin = object.__new__(type(self))
        memo[id(self)] = twin
        twin.__dict__.update(self.__dict__)
        for shared in (self.params, self.work):
            memo[id(shared)] = shared
        for name in ("info", "rows", "flags"):
            array = getattr(self, name)
            setattr(twin, name, memo.setdefault(id(array), array.copy()))
        return twin

    def pins(self, i: int) -> tuple[int, int]:
        """Row ``i``'s pins now, from the side on turn: ``(mine, theirs)``."""
        return int(self.info[i, I_PIN_ME]), int(self.info[i, I_PIN_OPP])

    def position(self, i: int, me, opp) -> Position:
        """Row ``i``'s board (``me``/``opp`` of the batch) as the variant's Position."""
        return self._position(tuple(int(x) for x in me), tuple(int(x) for x in opp), self.pins(i))

    def turn_start(self, i: int) -> Position:
        """The board row ``i``'s dice were rolled in (valid in the move phase)."""
        board = tuple(int(x) for x in self.info[i, T_BOARD:T_BOARD + 52])
        pins = int(self.info[i, T_PIN_ME]), int(self.info[i, T_PIN_OPP])
        return self._position(board[:26], board[26:], pins)

    def set_pins(self, i: int, pins: tuple[int, int]) -> None:
        """Row ``i``'s pins now, from the side on turn (Plakoto; ``(0, 0)`` elsewhere)."""
        self.info[i, I_PIN_ME], self.info[i, I_PIN_OPP] = pins

    def copy_row(self, i: int, other: "VariantRows", j: int) -> None:
        """Row ``i`` becomes a copy of ``other``'s row ``j`` (the same variant)."""
        self.info[i] = other.info[j]
        self.rows[i] = other.rows[j]
        self.flags[i] = other.flags[j]

    def plays(self, i: int, current: Position) -> list:
        """Every distinct way to finish row ``i``'s play from ``current`` (the position
        after the moves made so far), one :class:`~bg_env.rules.moves.Play` per result
        (:func:`row_plays`)."""
        vt = self.kernel_args
        return found_plays(lambda rows, moves, lengths, table: row_plays(
            vt, i, rows, moves, lengths, table), current, self.variant.landing == "pin")

    def _position(self, me: tuple, opp: tuple, pins: tuple[int, int]) -> Position:
        if self.variant.landing == "pin":
            return PinnedPosition(me, opp, pins)
        return Position(me, opp)


# ------------------------------------------------------------------- the start
@njit(cache=True)
def clear_pins(vt, i):
    """Row ``i`` starts a game: no pins (the layout: :func:`~.batch_rules.set_start`)."""
    info = vt[1]
    info[i, I_PIN_ME] = 0
    info[i, I_PIN_OPP] = 0


@njit(cache=True)
def fresh_first_roll(vt):
    """The opening roll only decides who starts; the starter rolls two fresh dice."""
    return vt[0][X_FRESH] != 0


# ------------------------------------------------------------------- the turn
@njit(cache=True)
def open_row_turn(vt, i, me, opp, d1, d2):
    """Row ``i``'s turn begins with ``d1``-``d2`` from ``me``/``opp`` and the row's pins
    (:class:`KernelVariantTurn`'s start); returns how many moves the play has."""
    params, info, rows, flags, work = vt
    row = info[i]
    nd = 4 if d1 == d2 else 2
    row[I_ND] = nd
    for k in range(4):
        row[I_DICE + k] = 0 if k >= nd else (d1 if k != 1 else d2)
    for p in range(26):
        flags[i, 2, p] = me[p]
        flags[i, 2, 26 + p] = opp[p]
        row[T_BOARD + p] = me[p]
        row[T_BOARD + 26 + p] = opp[p]
    row[T_PIN_ME], row[T_PIN_OPP] = row[I_PIN_ME], row[I_PIN_OPP]
    open_turn(params, row, rows[i], flags[i], work)
    return row[I_TO_PLAY]


@njit(cache=True)
def turn_mask(vt, i, mask):
    """Row ``i``'s legal next moves into ``mask`` (bool or int8, cleared by the caller);
    returns ``(count, the only one when count is 1)``."""
    legal = vt[3][i, 0]
    only = -1
    for a in range(N_ACTIONS):
        if legal[a]:
            mask[a] = 1
            only = a
    return vt[1][i, I_COUNT], only


@njit(cache=True)
def move_row(vt, i, me, opp, action):
    """Row ``i`` plays the legal move ``action``: the board after it into ``me``/``opp``;
    returns ``(hit, moves the play still has)``."""
    params, info, rows, flags, work = vt
    hit = play_move(params, info[i], rows[i], flags[i], work, action)
    board = flags[i, 2]
    for p in range(26):
        me[p] = board[p]
        opp[p] = board[26 + p]
    return hit, info[i, I_TO_PLAY]


@njit(cache=True)
def row_plays(vt, i, out_rows, out_moves, out_len, table):
    """Every distinct way to finish row ``i``'s play from the moves made so far
    (:func:`~bg_env.kernels.variant_search.plays_into`, the kernel of
    :meth:`KernelVariantTurn.continuations <bg_env.kernels.variant_turn.KernelVariantTurn.continuations>`):
    the boards after them in ``out_rows`` (``me``, ``opp``, the pins), their moves
    (``action + 150 * hit``) in ``out_moves[k, :out_len[k]]``; returns how many. The row's
    turn is left as it was.

    Raises:
        ValueError: more plays than the buffers hold.
    """
    params, info, rows, flags, work = vt
    row = info[i]
    stack, dice, scratch, it = work_views(work)
    return plays_into(params, rows[i, row[I_CUR]], row[I_ROWS], row[I_DICE:I_DICE + 4],
                      row[I_ND], row[I_NEED], flags[i, 0], out_rows, out_moves, out_len, table,
                      stack, dice, scratch, it)


@njit(cache=True)
def swap_row(vt, i):
    """The other side takes the turn: its pins become the row's own."""
    info = vt[1]
    info[i, I_PIN_ME], info[i, I_PIN_OPP] = info[i, I_PIN_OPP], info[i, I_PIN_ME]


# ------------------------------------------------------------------- the end
@njit(cache=True)
def _loss_kind(params, rules, loser):
    """What the loser's checkers say, capped at the variant's largest win
    (``scoring._loss_kind``, :func:`~.batch_rules.cap_kind`): only the backgammon family
    has the backgammon; Long Nardy's house mars counts as one."""
    kind = 1
    if loser[0] > 0:
        kind = 0
    elif params[X_OPPOSITE]:
        for p in range(19, 26):
            if loser[p] > 0:
                kind = 2
                break
    elif params[X_HOUSE_MARS]:
        kind = 2
        for p in range(7, 26):
            if loser[p] > 0:
                kind = 1
                break
    return cap_kind(kind, rules)


@njit(cache=True)
def _hit_ends(params, me, opp):
    """Sudden death: the side with a checker on the bar lost; ``-1`` while none is."""
    if params[V_FIRST_HIT_WINS] == 0:
        return -1
    if opp[_BAR]:
        return 0
    if me[_BAR]:
        return 1
    return -1


@njit(cache=True)
def _mother_ends(params, pin_me, pin_opp):
    """Plakoto: the side whose mother is pinned lost; ``-1`` while none is."""
    if params[V_MOTHER] == 0:
        return -1
    if (pin_opp >> _MOTHER) & 1:
        return 0
    if (pin_me >> _MOTHER) & 1:
        return 1
    return -1


@njit(cache=True)
def _off(side):
    for p in range(1, 26):
        if side[p]:
            return False
    return True


@njit(cache=True)
def outcome_row(vt, i, me, opp, rules, first):
    """How row ``i``'s game stands after ``me``'s play (``scoring.outcome_after_play``;
    ``first``: ``me`` had the game's first turn): ``(winner, kind, multiplier)``,
    ``winner`` 0 for ``me``, 1 for ``opp``, :data:`NO_WINNER` for a draw, -1 while the
    game goes on (in Long Nardy with ``last_roll_draw`` the side that started and is off
    leaves the other a last roll); ``kind`` 0..2, :data:`K_HIT`, :data:`K_MOTHER` or
    :data:`K_DRAW`."""
    params, info = vt[0], vt[1]
    winner = _hit_ends(params, me, opp)
    if winner >= 0:
        return winner, K_HIT, 1
    winner = _mother_ends(params, info[i, I_PIN_ME], info[i, I_PIN_OPP])
    if winner >= 0:
        return winner, K_MOTHER, 2
    if _off(me):
        if _off(opp):
            return NO_WINNER, K_DRAW, 0
        if params[X_LAST_ROLL] != 0 and first:
            return -1, 0, 0
        kind = _loss_kind(params, rules, opp)
        return 0, kind, kind + 1
    if _off(opp):
        kind = _loss_kind(params, rules, me)
        return 1, kind, kind + 1
    return -1, 0, 0
