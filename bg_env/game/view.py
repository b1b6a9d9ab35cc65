"""What a :class:`~bg_env.game.game.Game` shows of its row: the board as a ``Position``,
the side on turn, the phase, the cube, the dice, the moves made, the result.

:class:`RowView` is a mixin of :class:`~bg_env.game.game.Game`: read-only properties over
the columns of the Game's one row of :mod:`bg_env.kernels.batch` (``self.games``), named as
the Game's fields always were. It holds no state of its own.
"""

from __future__ import annotations

import numpy as np

from ..kernels import batch as b
from ..rules.cube import GameResult, Phase
from ..kernels.engine import row_result
from ..kernels.fast import MOVE_CODES
from ..kernels.io import new_position
from ..rules.match_id import MatchState
from ..rules.moves import Move
from ..rules.position import Position
from .start import before_moves

__all__ = ["RowView"]

_PHASES = Phase.ALL  # indexed by the kernels' phase codes (batch.P_CUBE ... P_OVER)
_DROPPED = b.OUTCOMES.index("drop")  # (a game ended by a drop shows no dice)


class RowView:
    """The Game's state, read from its row (a mixin: see the module docstring)."""

    @property
    def position(self) -> Position:
        """The board, seen from the side on turn."""
        pos = self._position
        if pos is None:
            g = self.games
            if g.variant_rows is not None:
                pos = g.variant_rows.position(0, g.me[0], g.opp[0])
            else:
                pos = new_position(tuple(g.me[0].tolist()), tuple(g.opp[0].tolist()))
            self._position = pos
        return pos

    def _col(self, column: int) -> int:
        return int(self.games.state[0, column])

    @property
    def turn(self) -> int:
        """The side on turn (0 or 1)."""
        return self._col(b.TURN)

    @property
    def phase(self) -> str:
        """The decision asked now (:class:`Phase`)."""
        return _PHASES[self._col(b.PHASE)]

    @property
    def cube_value(self) -> int:
        return self._col(b.CUBE_VALUE)

    @property
    def cube_owner(self) -> int:
        """-1 when centred, else the side that owns the cube."""
        return self._col(b.CUBE_OWNER)

    @property
    def cube_turned(self) -> bool:
        return bool(self._col(b.CUBE_TURNED))

    @property
    def pending_cube(self) -> int:
        """The cube value on offer during ``TAKE`` and ``BEAVER_TAKE``."""
        return self._col(b.PENDING)

    @property
    def bomb_owner(self) -> int:
        """Nuclear variant: -1 while nobody owns the bomb, else the side that may set it
        off."""
        return self._col(b.BOMB_OWNER)

    @property
    def turns(self) -> int:
        """Turns completed (plays of either side)."""
        return self._col(b.TURNS)

    @property
    def starter(self) -> int | None:
        """The side that had the game's first turn (``None`` before it is known)."""
        side = self._col(b.STARTER)
        return None if side < 0 else side

    def _in_play(self) -> bool:
        """Whether a play is under way or ended the game (its dice and moves are shown)."""
        s = self.games.state[0]
        if s[b.PHASE] == b.P_MOVE:
            return True
        return s[b.PHASE] == b.P_OVER and s[b.OUTCOME] != _DROPPED and s[b.ROLL0] != 0

    @property
    def dice(self) -> tuple[int, int] | None:
        """The roll of the current play (``None`` before the roll)."""
        if not self._in_play():
            return None
        return self._col(b.ROLL0), self._col(b.ROLL1)

    @property
    def remaining(self) -> list[int]:
        """The dice still to play."""
        s = self.games.state[0]
        if s[b.PHASE] != b.P_MOVE:
            return []
        return s[b.DIE0:b.DIE0 + s[b.N_DICE]].tolist()

    @property
    def moves_left(self) -> int:
        """How many more moves the current play has."""
        return self._col(b.MOVES_LEFT) if self._col(b.PHASE) == b.P_MOVE else 0

    @property
    def larger_only(self) -> int:
        """The die that must be played when only one of two can be (the larger), else 0."""
        return self._col(b.LARGER_ONLY) if self._col(b.PHASE) == b.P_MOVE else 0

    def _played_codes(self) -> list[int]:
        if not self._in_play():
            return []
        s = self.games.state[0]
        return s[b.PLAYED0:b.PLAYED0 + s[b.N_PLAYED]].tolist()

    @property
    def played(self) -> list[Move]:
        """The moves of the current play made so far."""
        return [MOVE_CODES[c] for c in self._played_codes()]

    @property
    def last_play(self) -> list[Move]:
        """The moves of the last completed play (of either side); made from the codes the
        game keeps when the play ends."""
        return [MOVE_CODES[c] for c in self._last_codes]

    @property
    def result(self) -> GameResult | None:
        """How the game ended (``None`` while it goes on)."""
        s = self.games.state[0]
        return row_result(s) if s[b.PHASE] == b.P_OVER else None

    @property
    def actor(self) -> int:
        """The side that must decide now."""
        return 1 - self.turn if self._col(b.PHASE) == b.P_TAKE else self.turn

    @property
    def variant(self):
        """The :class:`~bg_env.rules.variants.Variant` being played (with the rule
        options on: :attr:`Rules.variant_spec <bg_env.rules.cube.Rules.variant_spec>`)."""
        return self.rules.variant_spec

    @property
    def settled(self) -> bool:
        """Always true: forced moves are played as soon as they are forced (kept for the
        callers of :meth:`settle`)."""
        return True

    @property
    def turn_start(self) -> Position | None:
        """The position at the start of the current play (before any move this turn)."""
        if self._col(b.PHASE) != b.P_MOVE:
            return None
        g = self.games
        if g.variant_rows is not None:
            return g.variant_rows.turn_start(0)
        me, opp = before_moves(g.me[0].tolist(), g.opp[0].tolist(), self._played_codes())
        return Position(me, opp)

    def board_array(self) -> np.ndarray:
        """:attr:`position` as a fresh ``int8[52]``, ``me`` then ``opp`` (the kernels'
        input)."""
        g = self.games
        return np.concatenate((g.me[0], g.opp[0])).astype(np.int8)

    def match_id(self) -> str:
        """GNU Backgammon Match ID of this game as a money game (length 0, the Jacoby
        flag; a match's game: :meth:`Match.match_id <bg_env.game.match.Match.match_id>`)."""
        return MatchState(
            cube_value=self.cube_value, cube_owner=self.cube_owner, player_on_roll=self.turn,
            crawford=False, game_state=2 if self.phase == Phase.OVER else 1, turn=self.actor,
            double_offered=self.phase in (Phase.TAKE, Phase.BEAVER_TAKE), resigned=0,
            dice=tuple(self.dice) if self.dice and self.phase == Phase.MOVE else (0, 0),
            match_length=0, score=(0, 0), jacoby=self.rules.jacoby,
        ).match_id()
