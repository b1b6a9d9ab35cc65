"""One money game as numba kernels over arrays, with its dice drawn from a numpy
``Generator``: the fast path of the PettingZoo environment.

The state is that of :mod:`bg_env.kernels.batch` (one row: ``state``, ``me``, ``opp``; the
rules array), and so are the kernels, which follow :class:`~bg_env.game.game.Game`
decision by decision. The difference is the dice source (see
:func:`bg_env.kernels.dice.next_die`): here the dice are drawn from the environment's own
``numpy.random.Generator`` (through its bit generator's documented ``ctypes`` interface,
:func:`bg_env.kernels.dice.roll_dice`), exactly as :class:`~bg_env.game.game.Game` draws
them. So a game run here is the game :class:`~bg_env.game.game.Game` plays with the same
generator, and the environment can hand a game over to a :class:`~bg_env.game.game.Game`
at any decision (:meth:`Game.from_games <bg_env.game.game.Game.from_games>`) and go on
with the same dice.

The legal actions are written into an ``int8[N_ACTIONS]`` mask (the environments'
``action_mask``). Kernels trust their input: :func:`act` expects a legal action.
Every variant: the rules array carries the start layout, the largest win and the nuclear
bomb (:mod:`bg_env.kernels.batch_rules`); the variants whose moves are not standard play their
turns through the per-row kernels of :mod:`bg_env.kernels.batch_variants` (the kernels' last
argument ``vt``).

:class:`EngineGame` holds one such game for an environment: its arrays, its mask and the
addresses of the generator's bit generator. The addresses are read from the generator
passed at each call (cached while it is the same object) and are never copied or pickled:
a copy of an :class:`EngineGame` reads them again from its own (copied) generator, so a
copied environment draws its own dice, in this process or another.
"""

from __future__ import annotations

import numpy as np
from numba import njit, typeof

from ..rules.actions import N_ACTIONS
from .batch import (
    CUBE_VALUE, OPEN_BY, OUTCOME, OUTCOMES, P_OVER, PHASE, POINTS, STARTER, TURNS, WINNER,
    actor, open_row, step_row,
)
from .games import Games
from .borrow import borrowed
from ..rules.cube import GameResult
from .io import bit_generator_pointers

__all__ = ["open_game", "act", "EngineGame", "compiled", "row_result"]


@njit(cache=True)
def open_game(s, me, opp, rules, mask, fn, st, vt=None):
    """A new game from the standard start (:meth:`Game.opening`): each side rolls one die,
    ties re-rolled (doubling up to ``auto_doubles`` times), the higher die plays both.
    ``fn`` and ``st`` are the generator's ``ctypes`` ``next_uint32`` and
    ``state_address``; ``vt`` the variant turns (:attr:`Games.kernel_variant_args
    <bg_env.kernels.games.Games.kernel_variant_args>`). Returns ``(phase, actor, turns)``."""
    s, me, opp, rules, mask = (borrowed(s), borrowed(me), borrowed(opp), borrowed(rules),
                               borrowed(mask))
    open_row(s, me, opp, rules, mask, None, 0, fn, st, vt)
    return s[PHASE], actor(s), s[TURNS]


@njit(cache=True)
def act(s, me, opp, rules, mask, action, fn, st, vt=None):
    """:meth:`Game.step` with ``action`` when ``mask`` allows it (``action`` in
    ``0..N_ACTIONS-1``, unchecked). Returns ``(phase, actor, turns)``, or ``(-1, -1, -1)``
    and nothing done when ``mask`` does not allow it."""
    s, me, opp, rules, mask = (borrowed(s), borrowed(me), borrowed(opp), borrowed(rules),
                               borrowed(mask))
    if mask[action] == 0:
        return -1, -1, -1
    step_row(s, me, opp, rules, mask, action, None, 0, fn, st, vt)
    return s[PHASE], actor(s), s[TURNS]


class EngineGame:
    """One money game on the kernels, its dice drawn from the numpy ``Generator`` passed
    to :meth:`open` and :meth:`act` (as :class:`~bg_env.game.game.Game` draws them).

    Attributes:
        games: the game's arrays (a :class:`~bg_env.kernels.games.Games` of one row).
        mask: ``int8[N_ACTIONS]``, the legal actions of :attr:`actor` (kept up to date).
        phase, actor, turns: after the last call (``P_OVER`` when the game is over).

    Args:
        rules: a :class:`~bg_env.game.game.Rules` (standard moves, or a variant of
            :mod:`~bg_env.kernels.batch_variants`).

    Speed: :meth:`open` and :meth:`act` call the machine code numba compiled for the
    kernels' argument types (:func:`compiled`), found once per kernel, instead of going
    through the dispatcher, which types every argument at every call (the arguments are
    this object's own arrays, the generator's addresses, the action and the kernels'
    ``extra``: their types do not change).
    """

    def __init__(self, rules) -> None:
        self.games = Games(1, rules)
        self.mask = np.zeros(N_ACTIONS, np.int8)
        self.phase, self.actor, self.turns = P_OVER, 0, 0
        self._derive()

    def _derive(self) -> None:
        """The views, the kernels (:func:`open_game` and :func:`act`: see
        :meth:`use_kernels`) and the generator cache (never copied: see the module
        docstring)."""
        g = self.games
        self.row = (g.state[0], g.me[0], g.opp[0], g.rules)
        self._args = (*self.row, self.mask)  # the kernels' first arguments
        self._vargs = g.kernel_variant_args  # after the dice source: (vt,) or ()
        self.use_kernels(open_game, act)

    def __getstate__(self) -> dict:
        state = self.__dict__.copy()
        for name in ("row", "_rng", "_pointers", "_args", "_vargs", "_kernels", "_tail",
                     "_open_call", "_act_call"):
            del state[name]
        return state

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self._derive()

    def use_kernels(self, open_kernel, act_kernel, *extra) -> None:
        """The kernels :meth:`open` and :meth:`act` call (at first :func:`open_game` and
        :func:`act`; a copy starts with them again), called as ``open_kernel(*row, mask,
        fn, st, *vt, *extra)`` and ``act_kernel(*row, mask, action, fn, st, *vt, *extra)``
        (``vt``: :attr:`Games.kernel_variant_args
        <bg_env.kernels.games.Games.kernel_variant_args>`): :func:`open_game` / :func:`act`
        or kernels that call them and return what they return, then may read the game
        (the env encodes an observation into ``extra``)."""
        self._kernels = (open_kernel, act_kernel, extra)
        self._rng = self._pointers = self._tail = self._open_call = self._act_call = None

    def pointers(self, rng):
        """The dice kernel's view of ``rng`` (``None`` when it is not a numpy
        ``Generator``: the kernels cannot draw from it)."""
        if self._rng is not rng:
            pointers = bit_generator_pointers(rng)
            self._rng, self._pointers = rng, pointers
            self._tail = None if pointers is None else (*pointers, *self._vargs,
                                                        *self._kernels[2])
        return self._pointers

    def open(self, rng, starter: int | None = None) -> bool:
        """A new game from the opening roll, or with ``starter`` (0 or 1) from that side's
        roll for the first turn (a match's next game under ``Rules.next_starter``);
        ``False`` (nothing done) when ``rng`` is not a numpy ``Generator``."""
        if self.pointers(rng) is None:
            return False
        self.row[0][OPEN_BY] = 0 if starter is None else starter + 1
        args = (*self._args, *self._tail)
        if self._open_call is None:
            self._open_call = compiled(self._kernels[0], args)
        self.phase, self.actor, self.turns = self._open_call(*args)
        return True

    def act(self, action: int, rng) -> bool:
        """Play ``action`` (an ``int``) if it is legal (``mask``) and ``rng`` a numpy
        ``Generator``; ``False`` (nothing done) otherwise."""
        if self._rng is not rng and self.pointers(rng) is None:
            return False
        call = self._act_call
        if call is None:  # (the types of the arguments do not change with the generator)
            call = self._act_call = compiled(self._kernels[1], (*self._args, 0, *self._tail))
        if not 0 <= action < N_ACTIONS:
            return False
        phase, actor_, turns = call(*self._args, action, *self._tail)
        if phase < 0:  # not in the mask: nothing done
            return False
        self.phase, self.actor, self.turns = phase, actor_, turns
        return True

    @property
    def over(self) -> bool:
        return self.phase == P_OVER

    def result(self) -> GameResult:
        """How the finished game ended."""
        return row_result(self.row[0])


def row_result(state) -> GameResult:
    """How the finished game of a row (its ``state`` columns) ended."""
    starter, winner = int(state[STARTER]), int(state[WINNER])
    return GameResult(None if winner < 0 else winner, OUTCOMES[int(state[OUTCOME])],
                      int(state[CUBE_VALUE]), int(state[POINTS]), None if starter < 0 else starter)


def compiled(kernel, args: tuple):
    """``kernel``'s machine code for the types of ``args`` (compiled, or loaded from
    numba's cache, now if need be), a callable taking such arguments: numba's own entry
    point, which the dispatcher calls after typing the arguments. It converts the
    arguments as the compiled types say without checking them: call it only with
    arguments of the same types (the same arrays, ints for ints).

    ``kernel`` itself (the dispatcher) when it cannot be had so: ``kernel`` is not a numba
    dispatcher (``NUMBA_DISABLE_JIT``), ``args`` leave out arguments that have defaults
    (:func:`open_game` and :func:`act` without ``vt``), or numba cannot compile for them
    (the dispatcher then says why when called)."""
    try:
        return kernel.compile(tuple(typeof(a) for a in args))
    except Exception:  # noqa: BLE001 - any failure: the dispatcher, always right
        return kernel
