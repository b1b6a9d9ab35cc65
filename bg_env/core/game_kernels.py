"""The checker play of :class:`~bg_env.core.game.Game` on the numba kernels of
:mod:`bg_env.core.mask_kernels` (standard moves; the fast path): the legal-move mask of the
current partial play, the board buffer the kernels write in place, a move with its forced
followers in one kernel call, and the dice drawn straight from the generator.

:class:`KernelMoves` is a mixin of :class:`~bg_env.core.game.Game`: it reads and writes
the Game's fields (``position``, ``remaining``, ``moves_left``, ``larger_only``,
``played``) and its kernel buffers (``_board``, ``_move_mask``, ...), which belong to one
Game object (``_owner``): a copy makes its own before using them.
"""

from __future__ import annotations

import os

import numpy as np

from .actions import N_ACTIONS
from .kernel_io import bit_generator_pointers, dice_array, new_position, unpack_side
from .position import Position

__all__ = ["KernelMoves", "PURE_PYTHON"]

PURE_PYTHON = os.environ.get("BG_ENV_PURE_PYTHON", "") not in ("", "0")
"""Set the environment variable ``BG_ENV_PURE_PYTHON=1`` to run games on the plain
reference generator instead of the numba fast path (slow; for debugging)."""

if not PURE_PYTHON:
    from .dice_kernels import roll_dice
    from .fast import MOVE_CODES
    from .mask_kernels import move_mask_into, play_and_settle


class KernelMoves:
    """Game's checker play on the kernels (a mixin: see the module docstring)."""

    position: Position

    def _move_actions(self) -> list[int]:
        """Legal checker-move actions of the current partial play (numba kernel, cached
        until the state changes)."""
        mask = self._current_move_mask()
        if self._mask_actions is None:
            self._mask_actions = mask.nonzero()[0].tolist()
        return self._mask_actions

    def _current_move_mask(self) -> np.ndarray:
        """``int8[N_ACTIONS]``: the legal checker moves now (fast path, standard moves;
        the Game's own buffer, valid until the state changes: do not write to it)."""
        key = (self.position, tuple(self.remaining), self.moves_left, self.larger_only)
        if self._mask_key != key or self._owner != id(self):
            board = self.board_array()
            self._mask_count = move_mask_into(board, self._move_mask, dice_array(self.remaining),
                                              self.moves_left, self.larger_only)
            self._mask_key, self._mask_actions = key, None
        return self._move_mask

    def _own(self) -> None:
        """Buffers of this Game's own (the first time, or in a copy of another Game)."""
        self._owner = id(self)
        self._board_of, self._mask_key, self._mask_actions = None, None, None
        self._move_mask = np.zeros(N_ACTIONS, np.int8)

    def board_array(self) -> np.ndarray:
        """:attr:`position` as ``int8[52]``, ``me`` then ``opp`` (the kernels' input).

        The Game's own buffer, valid until the game changes: do not write to it."""
        if self._board_of is not self.position or self._owner != id(self):
            if self._owner != id(self):
                self._own()
            pos = self.position
            self._board = np.frombuffer(bytearray(pos.me + pos.opp), np.int8)
            self._board_of = pos
        return self._board

    def _roll(self, rng) -> tuple[int, int]:
        # Two scalar draws give the same numbers as ``rng.integers(1, 7, size=2)`` (numpy
        # draws each bounded integer from the bit generator in turn), at half the cost;
        # the kernel draws the very same numbers from the same bit generator, at a tenth.
        if not PURE_PYTHON:
            pointers = bit_generator_pointers(rng)
            if pointers is not None:
                return roll_dice(*pointers)
        return int(rng.integers(1, 7)), int(rng.integers(1, 7))

    def _advance(self, action: int) -> None:
        """Fast path (standard moves): play the legal checker move ``action`` (-1: none),
        then the forced moves, in one kernel call that leaves the legal next moves in
        ``_move_mask``."""
        board = self.board_array()
        remaining = self.remaining
        count, left, n_moves, log = play_and_settle(
            board, self._move_mask, dice_array(remaining), self.moves_left, self.larger_only,
            action,
        )
        pos = self.position
        if n_moves:
            played = self.played
            hit = False
            for _ in range(n_moves):
                move = MOVE_CODES[log & 511]
                log >>= 9
                played.append(move)
                remaining.remove(move.die)
                hit = hit or move.hit
            buf = board.tobytes()
            pos = new_position(unpack_side(buf, 0), unpack_side(buf, 26) if hit else pos.opp)
            self.position = self._board_of = pos
        self.moves_left = left
        self._mask_key = (pos, tuple(remaining), left, self.larger_only)
        self._mask_actions, self._mask_count = None, count
        self._settled = left != 0
