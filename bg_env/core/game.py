"""A money game of backgammon as a sequence of single decisions: cube, take, checker moves.

Rules source: ``docs/RULES.md`` §1 (opening roll), §2-§4 (through :mod:`.moves`), §5
(scoring, through :mod:`.outcome`) and §6 (the doubling cube). The environments drive
this class; it knows nothing of agents or Gymnasium.

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
played automatically.

Randomness comes only from the ``numpy.random.Generator`` passed in: one seed, one game.

A game starts with :meth:`Game.opening`, or anywhere through the public constructors
:meth:`Game.from_position`, ``from_match_state``, ``from_match_id`` and ``from_xgid``
(:mod:`bg_env.core.start`). The rule options, results and cube rules live in
:mod:`bg_env.core.cube`; the cube question and the answers to a double in
:mod:`bg_env.core.game_cube`; the checker play on the numba kernels in
:mod:`bg_env.core.game_kernels` (standard moves) and :mod:`bg_env.core.variant_turn` (the
other variants). A Game copies and pickles (the kernels' buffers are made again in the
copy).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .actions import N_ACTIONS, N_CHECKER_ACTIONS, decode_move
from .cube import GameResult, IllegalActionError, Phase, Rules, next_cube_value
from .game_cube import CubeDecisions
from .start import StartAnywhere, action_index, check_dice
from .game_kernels import PURE_PYTHON, KernelMoves
from .kernel_io import MOVES as _MOVES
from .kernel_io import new_position
from .moves import Move, Play, dice_to_play, legal_next_moves, legal_plays, move_checker
from .outcome import outcome, score_points
from .position import Position
from .variants import VariantTurn, get_variant, variant_outcome

if not PURE_PYTHON:
    from .fast import legal_plays_fast
    from .mask_kernels import plan_turn
    from .variant_turn import KernelVariantTurn

__all__ = ["Rules", "Game", "GameResult", "Phase", "IllegalActionError", "next_cube_value",
           "check_dice", "action_index"]


@dataclass
class Game(StartAnywhere, KernelMoves, CubeDecisions):
    """The state of one game, advanced by :meth:`step`.

    ``position`` is always seen from the side on turn (``turn``); the side that must
    decide now is :attr:`actor` (the doubled side during ``TAKE``).
    """

    rules: Rules = field(default_factory=Rules)
    position: Position = field(default_factory=Position.start)
    turn: int = 0
    phase: str = Phase.CUBE
    cube_value: int = 1
    cube_owner: int = -1
    """-1 when centred, else the side that owns the cube."""
    cube_turned: bool = False
    dice: tuple[int, int] | None = None
    remaining: list[int] = field(default_factory=list)
    moves_left: int = 0
    larger_only: int = 0
    played: list[Move] = field(default_factory=list)
    result: GameResult | None = None
    turns: int = 0
    pending_cube: int = 0
    """The cube value on offer during ``TAKE`` and ``BEAVER_TAKE``."""
    bomb_owner: int = -1
    """Nuclear variant: -1 while nobody owns the bomb, else the side that may set it off."""
    last_play: list[Move] = field(default_factory=list)
    """The moves of the last completed play (of either side)."""
    _turn_start: Position | None = None  # the position when the roll was made
    _settled: bool = True  # forced moves of the current play already made
    # Caches, derived from the state above (not compared, not shown):
    _turn_plays: list | None = field(default=None, compare=False, repr=False)
    """The legal plays of this turn's roll, built when first asked for."""
    _mask_key: tuple | None = field(default=None, compare=False, repr=False)
    """The state that ``_move_mask`` and ``_mask_actions`` were made for."""
    _move_mask: np.ndarray | None = field(default=None, compare=False, repr=False)
    """``int8[N_ACTIONS]``: the legal checker moves (fast path; written in place)."""
    _mask_actions: list | None = field(default=None, compare=False, repr=False)
    _mask_count: int = field(default=-1, compare=False, repr=False)
    """How many actions ``_move_mask`` allows."""
    _vturn: "VariantTurn | KernelVariantTurn | None" = field(
        default=None, compare=False, repr=False)
    """The current roll's legal sequences, for variants whose moves are not standard."""
    _board_of: Position | None = field(default=None, compare=False, repr=False)
    _board: np.ndarray | None = field(default=None, compare=False, repr=False)
    """``_board_of`` as ``int8[52]``, ``me`` then ``opp``, for the kernels (written in
    place as the play goes on)."""
    _owner: int = field(default=0, compare=False, repr=False)
    """``id`` of the Game the two buffers above belong to: a copy of a Game makes its own
    before using them (the kernels write them in place)."""
    events: list | None = field(default=None, compare=False, repr=False)
    """``None`` (the default): nothing is kept. Set it to a list and the game appends each
    decision it completes, for game records (:mod:`bg_env.records`):

    * ``("play", side, dice, moves, start, result)`` at the end of every play, forced and
      empty plays included (``start``/``result``: the board before and after, from
      ``side``'s view);
    * ``("double", side, value)``, ``("take", side)``, ``("drop", side)``,
      ``("beaver", side)``, ``("bomb", side)``.

    ``copy.copy`` of a Game shares the list; ``copy.deepcopy`` copies it."""

    # ------------------------------------------------------------------ set-up
    def __getstate__(self) -> dict:
        """The state without the kernels' buffers (made again on first use): a copy or a
        pickle of a Game is independent of the original."""
        state = self.__dict__.copy()
        state.update(_owner=0, _board=None, _board_of=None, _move_mask=None, _mask_key=None,
                     _mask_actions=None)
        return state

    def opening(self, rng, start: Position | None = None) -> None:
        """Start a new game: each side rolls one die, ties re-rolled (doubling the stake
        up to ``auto_doubles`` times while the cube stays within ``max_cube``), the higher
        die plays both numbers; in a variant with ``fresh_first_roll`` (Long Nardy) the
        higher die only decides who starts, and the starter rolls two fresh dice."""
        self.position = start or self.variant.start_position()
        self.phase = Phase.MOVE
        self.cube_value, self.cube_owner, self.cube_turned = 1, -1, False
        self.bomb_owner = -1
        self.result, self.turns = None, 0
        ties = 0
        while True:
            a, b = (int(x) for x in rng.integers(1, 7, size=2))
            if a != b:
                break
            if ties < self.rules.auto_doubles and self._may_auto_double():
                ties += 1
                self.cube_value = next_cube_value(self.cube_value, self.rules.cube_progression)
        self.turn = 0 if a > b else 1
        first = self._roll(rng) if self.variant.fresh_first_roll else (max(a, b), min(a, b))
        self._start_play(first, rng)

    def begin_turn(self, rng, dice: tuple[int, int] | None = None) -> None:
        """Start the turn of :attr:`turn`: the cube question if allowed, else roll."""
        self.played = []
        if dice is None and (self.may_double() or self.may_bomb()):
            self.phase = Phase.CUBE
            return
        self._start_play(dice or self._roll(rng), rng)

    # --------------------------------------------------------------- queries
    @property
    def actor(self) -> int:
        """The side that must decide now."""
        return 1 - self.turn if self.phase == Phase.TAKE else self.turn

    @property
    def variant(self):
        """The :class:`~bg_env.core.variants.Variant` being played."""
        return get_variant(self.rules.variant)

    def legal_actions(self) -> list[int]:
        """Legal actions for :attr:`actor`, ascending (call :meth:`settle` first after
        a roll, so that forced moves are out of the way)."""
        if self.phase == Phase.MOVE:
            if self._vturn is not None:
                return self._vturn.next_actions()
            if PURE_PYTHON:
                return sorted(m.action for m in self.legal_moves())
            return list(self._move_actions())
        return self._cube_actions()

    def legal_moves(self) -> list[Move]:
        """The checker moves that start a complete legal play from here."""
        if self._vturn is not None:
            return self._vturn.next_moves()
        if PURE_PYTHON:
            return legal_next_moves(self.position, self.remaining, self.moves_left, self.larger_only)
        moves = []
        for a in self._move_actions():
            source, die = decode_move(a)
            dest = source - die
            moves.append(Move(source, die, dest >= 1 and self.position.opp[25 - dest] == 1))
        return moves

    def legal_mask(self) -> np.ndarray:
        """:meth:`legal_actions` as a fresh ``bool[N_ACTIONS]`` array."""
        return self.legal_mask_int8().astype(bool)

    def legal_mask_int8(self) -> np.ndarray:
        """:meth:`legal_actions` as a fresh ``int8[N_ACTIONS]`` array (the environments'
        ``action_mask``)."""
        if self.phase == Phase.MOVE and not PURE_PYTHON:
            if self._vturn is not None:
                return self._vturn.mask.copy()
            return self._current_move_mask().copy()
        mask = np.zeros(N_ACTIONS, dtype=np.int8)
        mask[self.legal_actions()] = 1
        return mask

    @property
    def settled(self) -> bool:
        """Whether the forced moves of the current play are made (:meth:`settle`)."""
        return self._settled

    @property
    def turn_start(self) -> Position | None:
        """The position at the start of the current play (before any move this turn)."""
        if self.phase != Phase.MOVE:
            return None
        return self._turn_plays[0].start if self._turn_plays else self._turn_start

    def legal_continuations(self) -> list["Play"]:
        """Every distinct way to complete the current play, as :class:`Play` objects whose
        ``start`` is the current (possibly partial) position; one per resulting position.
        At the start of a turn these are exactly :func:`legal_plays` of the roll."""
        if self.phase != Phase.MOVE:
            return []
        if self._vturn is not None:
            return self._vturn.continuations(self.position)
        if not self.played:
            if self._turn_plays is None:
                generate = legal_plays if PURE_PYTHON else legal_plays_fast
                self._turn_plays = generate(self.position, self.dice)
            return self._turn_plays
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

        extend(self.position, list(self.remaining), self.moves_left, ())
        return list(found.values())

    def play(self, play: "Play", rng) -> None:
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
        self.position = play.result
        self.played.extend(play.moves)
        self.moves_left = 0
        self._end_turn(rng)

    def action_mask(self) -> list[int]:
        mask = [0] * N_ACTIONS
        for a in self.legal_actions():
            mask[a] = 1
        return mask

    # ------------------------------------------------------------------ step
    def step(self, action: int, rng) -> None:
        """Apply one decision of :attr:`actor` (then :meth:`settle`).

        Raises:
            IllegalActionError: the action is not legal now (state unchanged).
        """
        action = action_index(action)
        if not self._settled:  # (settle() does nothing else)
            self.settle(rng)
        if self.phase == Phase.MOVE and not PURE_PYTHON and self._vturn is not None:
            if 0 <= action < N_CHECKER_ACTIONS and self._vturn.mask[action]:
                self._move(action, rng)  # the variants' fast path
                return
        elif self.phase == Phase.MOVE and not PURE_PYTHON:
            if 0 <= action < N_CHECKER_ACTIONS and self._current_move_mask()[action]:
                self._advance(action)  # the fast path: one kernel call
                if not self._settled:
                    self.settle(rng)
                return
        legal = self.legal_actions()
        if action not in legal:
            from .actions import action_to_str

            names = ", ".join(f"{a} ({action_to_str(a)})" for a in legal) or "none: the game is over"
            shown = action_to_str(action) if 0 <= action < N_ACTIONS else "out of range"
            raise IllegalActionError(
                f"action {action} ({shown}) is not legal in phase {self.phase!r}; legal: {names}"
            )
        if self.phase == Phase.MOVE:
            self._move(action, rng)
        else:
            self._cube_step(action, rng)
        self.settle(rng)

    def _start_play(self, dice: tuple[int, int], rng) -> None:
        """Roll has happened: plan the play, skipping the turn when nothing can move.
        Forced moves are played by :meth:`settle`, before the next decision is read.

        The fast path asks the kernel only how many dice the play uses
        (:func:`~bg_env.core.mask_kernels.turn_plan`); the plays themselves are generated when
        :meth:`legal_continuations` asks for them."""
        self.phase = Phase.MOVE
        self.dice = (int(dice[0]), int(dice[1]))
        self.remaining = dice_to_play(self.dice)
        self.played = []
        self._turn_start = self.position
        a, b = self.dice
        self._vturn = None
        if not self.variant.standard_moves:
            make = VariantTurn if PURE_PYTHON else KernelVariantTurn
            self._vturn = make(self.variant, self.position, self.dice)
            self._turn_plays = None
            self.moves_left, self.larger_only = self._vturn.moves_to_play, 0
        elif PURE_PYTHON:
            self._turn_plays = legal_plays(self.position, self.dice)
            self.moves_left = len(self._turn_plays[0].moves)
            self.larger_only = 0
            if self.moves_left == 1 and a != b:
                if any(p.moves[0].die == max(a, b) for p in self._turn_plays):
                    self.larger_only = max(a, b)
        else:
            self._turn_plays = None
            board = self.board_array()  # (makes the buffers first)
            self.moves_left, self.larger_only, self._mask_count = plan_turn(
                board, self._move_mask, a, b
            )
            self._mask_key = (self.position, tuple(self.remaining), self.moves_left,
                              self.larger_only)
            self._mask_actions = None
        self._settled = False
        if self.moves_left == 0:
            self._end_turn(rng)

    def settle(self, rng) -> None:
        """Play forced moves (the only legal next move) until a real decision or the
        end of the turn; idempotent."""
        while self.phase == Phase.MOVE and not self._settled:
            if self.moves_left == 0:
                self._end_turn(rng)
                continue
            if not PURE_PYTHON and self._vturn is not None:
                if self._vturn.count != 1:
                    self._settled = True
                    return
                self._apply_move(self._vturn.next_actions()[0])
                continue
            if not PURE_PYTHON:
                self._current_move_mask()  # (made with the plan at the start of the turn)
                if self._mask_count != 1:
                    self._settled = True
                    return
                self._advance(-1)
                continue
            actions = self.legal_actions()
            if len(actions) != 1:
                self._settled = True
                return
            self._apply_move(actions[0])

    def _apply_move(self, action: int) -> None:
        """Play the checker move ``action`` (unchecked)."""
        source, die = decode_move(action)
        if self._vturn is not None:
            self.position, hit = self._vturn.move(action)
            self.played.append(_MOVES[source, die, hit])
            self.remaining.remove(die)
            self.moves_left = self._vturn.moves_to_play
            return
        me, opp, hit = move_checker(self.position.me, self.position.opp, source, die)
        self.position = new_position(me, opp)
        self.played.append(_MOVES[source, die, hit])
        self.remaining.remove(die)
        self.moves_left -= 1

    def _move(self, action: int, rng) -> None:
        self._apply_move(action)
        self._settled = False
        self.settle(rng)

    def _end_turn(self, rng) -> None:
        self.last_play = list(self.played)
        if self.events is not None:
            self.events.append(("play", self.turn, self.dice, tuple(self.played),
                                self._turn_start, self.position))
        self._vturn = None
        variant = self.variant
        done = outcome(self.position) if variant.standard_moves else variant_outcome(variant, self.position)
        if done is not None:
            winner = self.turn if done.winner == 0 else 1 - self.turn
            points = score_points(
                done, self.cube_value, jacoby=self.rules.jacoby,
                cube_turned=self.cube_turned, gammons=self.rules.gammons,
            )
            self._finish(winner, done.kind, self.cube_value, points)
            return
        self.turns += 1
        pos = self.position
        # swap sides (a Plakoto position swaps its pins too)
        self.position = new_position(pos.opp, pos.me) if type(pos) is Position else pos.swap()
        self.turn = 1 - self.turn
        self.dice, self.remaining = None, []
        self.begin_turn(rng)

    def _finish(self, winner: int, kind: str, cube_value: int, points: int) -> None:
        self.phase = Phase.OVER
        self.result = GameResult(winner, kind, cube_value, points)
        self.moves_left = 0
        self.remaining = []
