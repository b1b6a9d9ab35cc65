"""One money game as numba kernels over arrays, with its dice drawn from a numpy
``Generator``: the fast path of the PettingZoo environment.

The state is that of :mod:`bg_env.core.batch` (one row: ``state``, ``me``, ``opp``; the
rules array), and so are the kernels, which follow :class:`~bg_env.core.game.Game`
decision by decision. The difference is the dice source (see
:func:`bg_env.core.batch._next_die`): here the dice are drawn from the environment's own
``numpy.random.Generator`` (through its bit generator's documented ``ctypes`` interface,
:func:`bg_env.core.fast.roll_dice`), exactly as :class:`~bg_env.core.game.Game` draws
them. So a game run here is the game :class:`~bg_env.core.game.Game` plays with the same
generator, and the environment can hand a game over to a :class:`~bg_env.core.game.Game`
at any decision (:meth:`bg_env.core.batch.Games.game`) and go on with the same dice.

The legal actions are written into an ``int8[N_ACTIONS]`` mask (the environments'
``action_mask``). Kernels trust their input: :func:`act` expects a legal action.
Standard rules only (no variants).
"""

from __future__ import annotations

from numba import njit

from .batch import PHASE, TURNS, _open, _step, actor

__all__ = ["open_game", "act"]


@njit(cache=True)
def open_game(s, me, opp, rules, mask, fn, st):
    """A new game from the standard start (:meth:`Game.opening`): each side rolls one die,
    ties re-rolled (doubling up to ``auto_doubles`` times), the higher die plays both.
    ``fn`` and ``st`` are the generator's ``ctypes`` ``next_uint32`` and
    ``state_address``. Returns ``(phase, actor, turns)``."""
    _open(s, me, opp, rules, mask, None, 0, fn, st)
    return s[PHASE], actor(s), s[TURNS]


@njit(cache=True)
def act(s, me, opp, rules, mask, action, fn, st):
    """:meth:`Game.step` with a legal ``action`` (unchecked: see ``mask``).
    Returns ``(phase, actor, turns)``."""
    _step(s, me, opp, rules, mask, action, None, 0, fn, st)
    return s[PHASE], actor(s), s[TURNS]
