"""One money game as numba kernels over arrays, with its dice drawn from a numpy
``Generator``: the fast path of the PettingZoo environment.

The state is that of :mod:`bg_env.core.batch` (one row: ``state``, ``me``, ``opp``; the
rules array), and so are the kernels, which follow :class:`~bg_env.core.game.Game`
decision by decision. The difference is the dice source (see
:func:`bg_env.core.dice_kernels.next_die`): here the dice are drawn from the environment's own
``numpy.random.Generator`` (through its bit generator's documented ``ctypes`` interface,
:func:`bg_env.core.dice_kernels.roll_dice`), exactly as :class:`~bg_env.core.game.Game` draws
them. So a game run here is the game :class:`~bg_env.core.game.Game` plays with the same
generator, and the environment can hand a game over to a :class:`~bg_env.core.game.Game`
at any decision (:meth:`Game.from_games <bg_env.core.game.Game.from_games>`) and go on
with the same dice.

The legal actions are written into an ``int8[N_ACTIONS]`` mask (the environments'
``action_mask``). Kernels trust their input: :func:`act` expects a legal action.
Every variant: the rules array carries the start layout, the largest win and the nuclear
bomb (:mod:`bg_env.core.batch_rules`); the variants whose moves are not standard play their
turns through the per-row kernels of :mod:`bg_env.core.batch_variants` (the kernels' last
argument ``vt``).

:class:`EngineGame` holds one such game for an environment: its arrays, its mask and the
addresses of the generator's bit generator. The addresses are read from the generator
passed at each call (cached while it is the same object) and are never copied or pickled:
a copy of an :class:`EngineGame` reads them again from its own (copied) generator, so a
copied environment draws its own dice, in this process or another.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .actions import N_ACTIONS
from .batch import (
    CUBE_VALUE, OUTCOME, OUTCOMES, P_OVER, PHASE, POINTS, TURNS, WINNER, Games, actor, open_row,
    step_row,
)
from .cube import GameResult
from .kernel_io import bit_generator_pointers

__all__ = ["open_game", "act", "EngineGame"]


@njit(cache=True)
def open_game(s, me, opp, rules, mask, fn, st, vt=None):
    """A new game from the standard start (:meth:`Game.opening`): each side rolls one die,
    ties re-rolled (doubling up to ``auto_doubles`` times), the higher die plays both.
    ``fn`` and ``st`` are the generator's ``ctypes`` ``next_uint32`` and
    ``state_address``; ``vt`` the variant turns (:attr:`Games.kernel_variant_args
    <bg_env.core.batch.Games.kernel_variant_args>`). Returns ``(phase, actor, turns)``."""
    open_row(s, me, opp, rules, mask, None, 0, fn, st, vt)
    return s[PHASE], actor(s), s[TURNS]


@njit(cache=True)
def act(s, me, opp, rules, mask, action, fn, st, vt=None):
    """:meth:`Game.step` with ``action`` when ``mask`` allows it (``action`` in
    ``0..N_ACTIONS-1``, unchecked). Returns ``(phase, actor, turns)``, or ``(-1, -1, -1)``
    and nothing done when ``mask`` does not allow it."""
    if mask[action] == 0:
        return -1, -1, -1
    step_row(s, me, opp, rules, mask, action, None, 0, fn, st, vt)
    return s[PHASE], actor(s), s[TURNS]


class EngineGame:
    """One money game on the kernels, its dice drawn from the numpy ``Generator`` passed
    to :meth:`open` and :meth:`act` (as :class:`~bg_env.core.game.Game` draws them).

    Attributes:
        games: the game's arrays (a :class:`~bg_env.core.batch.Games` of one row).
        mask: ``int8[N_ACTIONS]``, the legal actions of :attr:`actor` (kept up to date).
        phase, actor, turns: after the last call (``P_OVER`` when the game is over).

    Args:
        rules: a :class:`~bg_env.core.game.Rules` (standard moves, or a variant of
            :mod:`~bg_env.core.batch_variants`).
    """

    def __init__(self, rules) -> None:
        self.games = Games(1, rules)
        self.mask = np.zeros(N_ACTIONS, np.int8)
        self.phase, self.actor, self.turns = P_OVER, 0, 0
        self._derive()

    def _derive(self) -> None:
        """The views and the generator cache (never copied: see the module docstring)."""
        g = self.games
        self.row = (g.state[0], g.me[0], g.opp[0], g.rules)
        self._rng, self._pointers = None, None
        self._args = (*self.row, self.mask)  # the kernels' first arguments
        self._vargs = g.kernel_variant_args  # after the dice source: (vt,) or ()

    def __getstate__(self) -> dict:
        state = self.__dict__.copy()
        for name in ("row", "_rng", "_pointers", "_args", "_vargs"):
            del state[name]
        return state

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self._derive()

    def pointers(self, rng):
        """The dice kernel's view of ``rng`` (``None`` when it is not a numpy
        ``Generator``: the kernels cannot draw from it)."""
        if self._rng is not rng:
            self._rng, self._pointers = rng, bit_generator_pointers(rng)
        return self._pointers

    def open(self, rng) -> bool:
        """A new game from the opening roll; ``False`` (nothing done) when ``rng`` is not
        a numpy ``Generator``."""
        return self.open_with(open_game, rng)

    def open_with(self, kernel, rng, *extra) -> bool:
        """:meth:`open` through ``kernel``, called as ``kernel(*row, mask, fn, st, *vt,
        *extra)`` (``vt``: :attr:`Games.kernel_variant_args
        <bg_env.core.batch.Games.kernel_variant_args>`): :func:`open_game` or a kernel that
        calls it and returns what it returns, then may read the new game (the env encodes
        an observation into ``extra``)."""
        pointers = self.pointers(rng)
        if pointers is None:
            return False
        self.phase, self.actor, self.turns = kernel(*self._args, *pointers, *self._vargs, *extra)
        return True

    def act(self, action: int, rng) -> bool:
        """Play ``action`` if it is legal (``mask``) and ``rng`` a numpy ``Generator``;
        ``False`` (nothing done) otherwise."""
        return self.act_with(act, action, rng)

    def act_with(self, kernel, action: int, rng, *extra) -> bool:
        """:meth:`act` through ``kernel``, called as ``kernel(*row, mask, action, fn, st,
        *vt, *extra)``: :func:`act` or a kernel that calls it and returns what it returns, then
        may read the game (the env encodes an observation into ``extra``)."""
        if not 0 <= action < N_ACTIONS:
            return False
        pointers = self._pointers if self._rng is rng else self.pointers(rng)
        if pointers is None:
            return False
        phase, actor_, turns = kernel(*self._args, action, *pointers, *self._vargs, *extra)
        if phase < 0:  # not in the mask: nothing done
            return False
        self.phase, self.actor, self.turns = phase, actor_, turns
        return True

    @property
    def over(self) -> bool:
        return self.phase == P_OVER

    def result(self) -> GameResult:
        """How the finished game ended."""
        state = self.row[0]
        return GameResult(int(state[WINNER]), OUTCOMES[int(state[OUTCOME])],
                          int(state[CUBE_VALUE]), int(state[POINTS]))
