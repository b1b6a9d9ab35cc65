"""A game of backgammon as a sequence of single decisions: cube, take, checker moves.

Rules source: ``docs/RULES.md`` §1 (opening roll), §2-§4 (moves), §5 (scoring) and §6
(the doubling cube), every variant of §7. A Game is a view of one row of the compiled
state machine of :mod:`bg_env.kernels.batch` -- the same kernels that the environments'
engine (:mod:`bg_env.kernels.engine`) and the vector envs run -- through the kernels of
:mod:`bg_env.kernels.game_row`. What the Game adds in Python: the dice drawn from the
generator it is given, the ``Position`` and ``Move`` objects it shows, the last play and
the game record (:attr:`Game.events`), the whole plays of :meth:`legal_continuations`
and the public constructors. The environments drive this class; it knows nothing of
agents or Gymnasium.

The game asks one *side* (0 or 1) at a time for one decision, in these phases:

* ``CUBE`` -- before rolling, the side on turn may double (``DOUBLE``) or roll (``ROLL``).
  Asked only when doubling is allowed: the cube is centred or his, and the next cube value
  is within ``max_cube``.
* ``TAKE`` -- the doubled side takes, drops, or (option ``beaver``) beavers.
* ``BEAVER_TAKE`` -- after a beaver, the original doubler takes or drops.
* ``MOVE`` -- the side on turn plays one checker move; the turn is over when the play is
  complete (as many dice as the rules demand).
* ``OVER`` -- the game has ended; :attr:`Game.result` says how.

Decisions with one answer are not asked: no cube question when doubling is not allowed,
no step when no die can be played, and a checker move that is the only legal one is
played automatically (at once: a Game is always settled).

Randomness comes only from the generator passed in (a ``numpy.random.Generator``, or
any object with its ``integers``): one seed, one game. Given :data:`STOP_AT_ROLLS` instead,
a Game stops where a roll is due (:attr:`Game.roll_due`) and takes the roll from the
caller (:meth:`Game.give_roll`): the chance nodes of :mod:`bg_env.game.search`.

A game starts with :meth:`Game.opening`, or anywhere through the public constructors
:meth:`Game.from_position`, ``from_match_state``, ``from_match_id``, ``from_xgid`` and
``from_games`` (:mod:`bg_env.game.start`). The rule options, results and cube rules live
in :mod:`bg_env.rules.cube`; the cube queries in :mod:`bg_env.game.cube_decisions`. A Game
copies and pickles (its arrays are its own).
"""

from __future__ import annotations

import os

import numpy as np

from ..kernels import batch as b
from ..rules.actions import BEAVER, BOMB, DOUBLE, DROP, N_ACTIONS, action_to_str, decode_move
from ..kernels.games import Games
from ..rules.cube import GameResult, IllegalActionError, Phase, Rules, next_cube_value
from ..kernels.dice import roll_dice
from ..kernels.engine import compiled
from ..kernels.fast import legal_plays_fast
from .cube_decisions import CubeDecisions
from .view import RowView
from ..kernels.game_row import (
    game_act, game_apply, game_begin, game_end_play, game_open, game_rolled, game_settle,
)
from ..kernels.io import MOVES, bit_generator_pointers
from ..rules.moves import Move, Play, legal_next_moves, move_checker
from ..rules.position import Position
from .start import STOP_AT_ROLLS, NoDice, StartAnywhere, action_index, check_dice

__all__ = ["Rules", "Game", "GameResult", "Phase", "IllegalActionError", "next_cube_value",
           "check_dice", "action_index", "PURE_PYTHON", "STOP_AT_ROLLS"]

PURE_PYTHON = os.environ.get("BG_ENV_PURE_PYTHON", "") not in ("", "0")
"""Set the environment variable ``BG_ENV_PURE_PYTHON=1`` to make the environments skip
their own compiled fast paths (observation kernels, the engine of ``env()``, the batched
vector env) and drive :class:`Game` instead (slow; for debugging). A Game itself always
runs on the kernels; the plain-Python rules (:mod:`bg_env.rules.moves`,
:mod:`bg_env.rules.variants`) are the reference its moves are tested against."""

_NO_DICE = NoDice()
_ENTRIES: dict = {}


def _entry(kernel, args: tuple):
    """``kernel``'s machine code for ``args``' types (:func:`~bg_env.kernels.engine.compiled`:
    no typing of the arguments at each call), found once per kernel and kind of row
    (standard moves, or a variant's turns: the last argument)."""
    key = (kernel, args[-1] is None)
    call = _ENTRIES.get(key)
    if call is None:
        call = _ENTRIES[key] = compiled(kernel, args)
    return call


class Game(StartAnywhere, RowView, CubeDecisions):
    """The state of one game, advanced by :meth:`step`.

    ``position`` is always seen from the side on turn (``turn``); the side that must
    decide now is :attr:`actor` (the doubled side during ``TAKE``).

    Args:
        rules: the rule options (:class:`Rules`; the default: money play with the cube).
        position: the board before :meth:`opening` or :meth:`begin_turn` (the variant's
            start by default), seen from ``turn``.
        turn: the side on turn (0 or 1).
    """

    def __init__(self, rules: Rules | None = None, position: Position | None = None,
                 turn: int = 0) -> None:
        self.rules = rules if rules is not None else Rules()
        self.games = Games(1, self.rules)
        """The row the kernels play (:class:`~bg_env.kernels.games.Games` of one game, its
        ``HOLD`` column set)."""
        self.events: list | None = None
        """``None`` (the default): nothing is kept. Set it to a list and the game appends
        each decision it completes, for game records (:mod:`bg_env.records`):

        * ``("play", side, dice, moves, start, result)`` at the end of every play, forced
          and empty plays included (``start``/``result``: the board before and after,
          from ``side``'s view);
        * ``("double", side, value)``, ``("take", side)``, ``("drop", side)``,
          ``("beaver", side)``, ``("bomb", side)``.

        ``copy.copy`` of a Game shares the list; ``copy.deepcopy`` copies it."""
        self._last_codes: tuple[int, ...] = ()  # the row's codes of the last play's moves
        self._chosen = False  # a move of the current play was chosen (not forced)
        self.ask_forced = False
        """``True``: a play whose every move is forced is not ended by the game but left
        complete, as the one play of :meth:`legal_continuations`, for :meth:`play` to end
        (an env that asks even one-choice turns). ``False`` (the default): ended at once."""
        g = self.games
        s = g.state[0]
        s[b.HOLD] = 1
        b.new_state(s)  # (phase CUBE: before the opening or the turn's start)
        s[b.TURN] = turn
        self._seeds = g.seeds  # (a dummy source: with HOLD set no kernel draws a die)
        self._views = None
        self._write_position(position if position is not None
                             else self.variant.start_position())

    # ------------------------------------------------------------------ the row
    @property
    def _row(self) -> tuple:
        """The kernels' first arguments: the row's views (made once per ``games``)."""
        views = self._views
        if views is None or views[0] is not self.games:
            g = self.games
            rows = g.variant_rows
            views = self._views = (g, (g.state[0], g.me[0], g.opp[0], g.rules, g.mask[0]),
                                   None if rows is None else rows.kernel_args)
        return views[1]

    @property
    def _vt(self):
        """The kernels' last argument: the variant turns, or ``None`` (standard moves)."""
        self._row
        return self._views[2]

    def _changed(self) -> None:
        """The row changed: the objects made from it are made again when asked for."""
        self._position = self._actions = self._plays = None

    def _write_position(self, position: Position) -> None:
        g = self.games
        g.me[0], g.opp[0] = position.me, position.opp
        if g.variant_rows is not None:
            g.variant_rows.set_pins(0, getattr(position, "pinned", (0, 0)))
        self._changed()

    def __copy__(self) -> "Game":
        """A shallow copy: the same ``events`` list, its own row (the kernels write it)."""
        twin = object.__new__(type(self))
        twin.__dict__.update(self.__dict__)
        twin.games = self.games.copy()
        return twin

    def __getstate__(self) -> dict:
        state = self.__dict__.copy()
        state.update(_position=None, _actions=None, _plays=None, _views=None)
        return state

    def __eq__(self, other) -> bool:
        if not isinstance(other, Game):
            return NotImplemented
        return (self.rules == other.rules and self.position == other.position
                and np.array_equal(self.games.state, other.games.state)
                and self._last_codes == other._last_codes)

    __hash__ = None

    def __repr__(self) -> str:
        return (f"Game({self.rules!r}, position={self.position.position_id()!r}, "
                f"turn={self.turn}, phase={self.phase!r}, cube_value={self.cube_value}, "
                f"dice={self.dice}, result={self.result})")

    # ------------------------------------------------------------- decisions
    def legal_actions(self) -> list[int]:
        """Legal actions for :attr:`actor`, ascending (none when the game is over)."""
        if self._actions is None:
            self._actions = self.games.mask[0].nonzero()[0].tolist()
        return self._actions

    def legal_moves(self) -> list[Move]:
        """The checker moves that start a complete legal play from here (with their hit
        flags), one per action, ascending."""
        if self._col(b.PHASE) != b.P_MOVE:
            return []
        g = self.games
        rows = g.variant_rows
        opp = g.opp[0]
        moves = []
        for a in self.legal_actions():
            source, die = decode_move(a)
            dest = source - die
            hit = bool(rows.flags[0, 1, a]) if rows is not None else dest >= 1 and opp[25 - dest] == 1
            moves.append(MOVES[source, die, hit])
        return moves

    def legal_mask(self) -> np.ndarray:
        """:meth:`legal_actions` as a fresh ``bool[N_ACTIONS]`` array."""
        return self.games.mask[0].copy()

    def legal_mask_int8(self) -> np.ndarray:
        """:meth:`legal_actions` as a fresh ``int8[N_ACTIONS]`` array (the environments'
        ``action_mask``)."""
        return self.games.mask[0].astype(np.int8)

    def action_mask(self) -> list[int]:
        return self.legal_mask_int8().tolist()

    def legal_continuations(self) -> list[Play]:
        """Every distinct way to complete the current play, as :class:`Play` objects whose
        ``start`` is the current (possibly partial) position; one per resulting position.
        At the start of a turn these are exactly :func:`~bg_env.rules.moves.legal_plays`
        of the roll."""
        if self._col(b.PHASE) != b.P_MOVE:
            return []
        if self._plays is None:
            self._plays = self._continuations()
        return self._plays

    def _continuations(self) -> list[Play]:
        rows = self.games.variant_rows
        if rows is not None:
            return rows.plays(0, self.position)
        if not self.games.state[0, b.N_PLAYED]:
            return legal_plays_fast(self.position, self.dice)
        made = self.played
        if not self._chosen:  # only forced moves so far: every play of the roll starts so
            k, here = len(made), self.position
            plays = legal_plays_fast(self.turn_start, self.dice)
            if all(list(p.moves[:k]) == made for p in plays):
                return [Play(here, p.moves[k:], p.result) for p in plays]
        found: dict = {}

        def extend(pos: Position, remaining: list[int], left: int, moves: tuple) -> None:
            if left == 0:
                found.setdefault((pos.me, pos.opp), Play(self.position, moves, pos))
                return
            for m in legal_next_moves(pos, remaining, left, 0):
                me, opp, _ = move_checker(pos.me, pos.opp, m.source, m.die)
                rest = list(remaining)
                rest.remove(m.die)
                extend(Position(me, opp), rest, left - 1, moves + (m,))

        extend(self.position, self.remaining, self.moves_left, ())
        return list(found.values())

    # ------------------------------------------------------------------ steps
    def opening(self, rng, start: Position | None = None, starter: int | None = None) -> None:
        """Start a new game: each side rolls one die, ties re-rolled (doubling the stake
        up to ``auto_doubles`` times while the cube stays within ``max_cube``), the higher
        die plays both numbers; in a variant with ``fresh_first_roll`` (Long Nardy) the
        higher die only decides who starts, and the starter rolls two fresh dice.
        ``start``: another board to start from (the variant's start by default);
        ``starter`` (0 or 1): no opening roll, that side rolls two dice for the first turn
        (a match's next game under ``Rules.next_starter``)."""
        if starter not in (None, 0, 1) or isinstance(starter, bool):
            raise ValueError(f"starter={starter!r}: expected None (the opening roll), 0 or 1")
        if start is not None:
            self._write_position(start)
        game_open(*self._row, self._seeds, self._vt, start is None,
                  -1 if starter is None else starter)
        self._go_on(rng)

    def begin_turn(self, rng, dice: tuple[int, int] | None = None, *, offer: bool = False,
                   moves=()) -> None:
        """Start the turn of :attr:`turn` in :attr:`position`: the cube question if
        allowed, else roll; or with ``dice`` already rolled and the checker actions
        ``moves`` already made with them (each checked); or (``offer``) with a double
        offered, for the other side to answer.

        Raises:
            IllegalActionError: a move of ``moves`` is not legal.
        """
        s = self.games.state[0]
        self._chosen = False
        d1, d2 = dice if dice is not None else (0, 0)
        game_begin(*self._row, d1, d2, offer, self._seeds, self._vt)
        self._changed()
        for action in moves:  # forced ones included: nothing is settled in between
            if s[b.PHASE] != b.P_MOVE or not (0 <= action < N_ACTIONS
                                               and self.games.mask[0, action]):
                raise IllegalActionError(f"played: action {action} is not legal after "
                                         f"{[str(m) for m in self.played]} with {dice}")
            game_apply(*self._row, action, self._vt)
            self._changed()
            self._chosen = True
        game_settle(*self._row, self._seeds, self._vt)
        self._go_on(rng)

    def _set_cube(self, cube_value: int, cube_owner: int, cube_turned: bool, *,
                  bomb_owner: int = -1, turns: int = 0) -> None:
        """The cube (and the bomb, the turns played) of a game started anywhere."""
        s = self.games.state[0]
        s[b.CUBE_VALUE], s[b.CUBE_OWNER], s[b.CUBE_TURNED] = cube_value, cube_owner, cube_turned
        s[b.BOMB_OWNER], s[b.TURNS] = bomb_owner, turns

    def _load_row(self, games, i: int) -> None:
        """Row ``i`` of ``games`` (a game of the same rules) becomes this game."""
        g = self.games
        g.state[0] = games.state[i]
        g.state[0, b.HOLD] = 1
        g.me[0], g.opp[0] = games.me[i], games.opp[i]
        self._chosen = bool(games.state[i, b.N_PLAYED])
        if g.variant_rows is not None:
            g.variant_rows.copy_row(0, games.variant_rows, i)
        game_settle(*self._row, self._seeds, self._vt)  # (the legal actions: a settled row)
        self._go_on(None)

    def settle(self, rng=None) -> None:
        """Go on until a decision is asked (nothing to do: a Game plays forced moves at
        once; kept for callers that settle first)."""
        self._go_on(rng)

    def step(self, action: int, rng) -> None:
        """Apply one decision of :attr:`actor`.

        Raises:
            IllegalActionError: the action is not legal now (state unchanged).
        """
        action = action_index(action)
        s = self.games.state[0]
        if not (0 <= action < N_ACTIONS and self.games.mask[0, action]):
            legal = self.legal_actions()
            names = ", ".join(f"{a} ({action_to_str(a)})" for a in legal) or "none: the game is over"
            shown = action_to_str(action) if 0 <= action < N_ACTIONS else "out of range"
            raise IllegalActionError(
                f"action {action} ({shown}) is not legal in phase {self.phase!r}; legal: {names}"
            )
        phase, side = int(s[b.PHASE]), self.actor
        args = (*self._row, action, self._seeds, self._vt)
        _entry(game_act, args)(*args)
        self._changed()
        self._chosen = self._chosen or phase == b.P_MOVE
        if self.events is not None and phase != b.P_MOVE:
            self._cube_event(phase, action, side)
        self._go_on(rng)

    def play(self, play: Play, rng) -> None:
        """Complete the current play at once with one of :meth:`legal_continuations`.

        The fast path for agents that judge whole plays: ``play`` is trusted to be one of
        :meth:`legal_continuations` (its start must be the current position; its legality
        is not re-checked).

        Raises:
            IllegalActionError: not in the move phase, or ``play`` starts elsewhere.
        """
        if self.phase != Phase.MOVE or play.start != self.position:
            raise IllegalActionError(
                f"play {play.notation} does not start from the current position "
                f"{self.position.position_id()} in phase {self.phase!r}"
            )
        s = self.games.state[0]
        n = int(s[b.N_PLAYED])
        for k, m in enumerate(play.moves):
            s[b.PLAYED0 + n + k] = m.action + 150 * m.hit
        s[b.N_PLAYED] = n + len(play.moves)
        s[b.MOVES_LEFT] = 0
        self._chosen = True
        self._write_position(play.result)
        self.games.mask[0] = False  # (a complete play: nothing to decide)
        self._go_on(rng)

    def offer_double(self) -> None:
        """The side on turn doubles (in the cube phase): the other side must take, drop
        (or beaver).

        Raises:
            IllegalActionError: doubling is not allowed now.
        """
        self.step(DOUBLE, _NO_DICE)

    # ------------------------------------------------------------- the flow
    def _roll(self, rng) -> tuple[int, int]:
        # Two scalar draws give the same numbers as ``rng.integers(1, 7, size=2)`` (numpy
        # draws each bounded integer from the bit generator in turn); the dice kernel
        # draws the very same numbers from the same bit generator, faster.
        pointers = bit_generator_pointers(rng)
        if pointers is not None:
            return roll_dice(*pointers)
        rng = _NO_DICE if rng is None else rng
        return int(rng.integers(1, 7)), int(rng.integers(1, 7))

    @property
    def roll_due(self) -> str | None:
        """The roll the game waits for when it was given :data:`STOP_AT_ROLLS`:
        ``"opening"`` (each side's die: side 0's first), ``"turn"`` (the two dice of the
        side on turn), or ``None``."""
        need = self._col(b.NEED_ROLL)
        return None if need == 0 else "opening" if need == b.ROLL_OPENING else "turn"

    def give_roll(self, dice: tuple[int, int], rng=STOP_AT_ROLLS) -> None:
        """The roll that is due (:attr:`roll_due`) is ``dice``: for the opening, side 0's
        die then side 1's (a tie is rolled again); for a turn, the two dice. The game goes
        on from it (forced moves played) with ``rng``: by default to the next decision or
        the next roll due.

        Raises:
            ValueError: no roll is due, or ``dice`` are not two integers 1..6.
        """
        if self.roll_due is None:
            raise ValueError(f"dice={dice!r}: no roll is due (phase {self.phase!r})")
        d1, d2 = check_dice(dice)
        args = (*self._row, d1, d2, self._seeds, self._vt)
        _entry(game_rolled, args)(*args)
        self._chosen = False
        self._go_on(rng)

    def key(self) -> tuple:
        """A hashable key of the game's state, for transposition tables: what the rest of
        the game depends on -- the rules, the board (with its pins), the side on turn, the
        phase, the cube, the bomb, the roll due, the dice still to play, the result --
        and not how it was reached (the turn count, the order of the moves made this
        turn; in the variants with rules of their own within a turn, the moves made).

        >>> a, b = Game(Rules(cube=False)), Game(Rules(cube=False))
        >>> a.begin_turn(STOP_AT_ROLLS, (3, 1)); b.begin_turn(STOP_AT_ROLLS, (3, 1))
        >>> a.step(44, STOP_AT_ROLLS); a.step(30, STOP_AT_ROLLS)  # 8/5 6/5
        >>> b.step(30, STOP_AT_ROLLS); b.step(44, STOP_AT_ROLLS)  # 6/5 8/5
        >>> a.key() == b.key(), a.roll_due
        (True, 'turn')
        """
        s = self.games.state[0]
        cols = (b.TURN, b.PHASE, b.CUBE_VALUE, b.CUBE_OWNER, b.CUBE_TURNED, b.PENDING,
                b.MOVES_LEFT, b.LARGER_ONLY, b.WINNER, b.OUTCOME, b.POINTS, b.BOMB_OWNER,
                b.NEED_ROLL, b.TIES, b.STARTER)
        dice = tuple(sorted(int(d) for d in s[b.DIE0:b.DIE0 + s[b.N_DICE]]))
        within = tuple(self._played_codes()) if self.games.variant_rows is not None else ()
        return (self.rules, self.position, tuple(int(s[c]) for c in cols), dice, within)

    def _go_on(self, rng) -> None:
        """Make the rolls the row waits for and end the complete plays, until a decision
        is asked, a roll is due with :data:`STOP_AT_ROLLS`, or the game is over."""
        s = self.games.state[0]
        while True:
            self._changed()
            if s[b.NEED_ROLL] != 0:
                if rng is STOP_AT_ROLLS:
                    break
                d1, d2 = self._roll(rng)
                args = (*self._row, d1, d2, self._seeds, self._vt)
                _entry(game_rolled, args)(*args)
                self._chosen = False
            elif s[b.PHASE] == b.P_MOVE and s[b.MOVES_LEFT] == 0:
                if self.ask_forced and not self._chosen and s[b.N_PLAYED]:
                    break  # a forced play, left for play() to end
                self._play_ended()
                args = (*self._row, self._seeds, self._vt)
                _entry(game_end_play, args)(*args)
            else:
                break

    def _play_ended(self) -> None:
        self._last_codes = tuple(self._played_codes())
        if self.events is not None:
            self.events.append(("play", self.turn, self.dice, tuple(self.last_play),
                                self.turn_start, self.position))

    def _cube_event(self, phase: int, action: int, side: int) -> None:
        if phase == b.P_CUBE:
            if action == DOUBLE:
                self.events.append(("double", side, self.pending_cube))
            elif action == BOMB:
                self.events.append(("bomb", side))
            return
        name = {DROP: "drop", BEAVER: "beaver"}.get(action, "take")
        self.events.append((name, side))
