"""One money game as numba kernels over arrays, with its dice drawn from a numpy
``Generator``: the fast path of the PettingZoo environment.

The state is that of :mod:`bg_env.core.batch` (one row: ``state``, ``me``, ``opp``; the
rules array), and the rules are its kernels, which follow :class:`~bg_env.core.game.Game`
decision by decision. The difference is the dice: here they are drawn from the
environment's own ``numpy.random.Generator`` (through its bit generator's documented
``ctypes`` interface, :func:`bg_env.core.fast.roll_dice`), exactly as
:class:`~bg_env.core.game.Game` draws them. So a game run here is the game
:class:`~bg_env.core.game.Game` plays with the same generator, and the environment can
hand a game over to a :class:`~bg_env.core.game.Game` at any decision
(:meth:`bg_env.core.batch.Games.game`) and go on with the same dice.

The legal actions are written into an ``int8[N_ACTIONS]`` mask (the environments'
``action_mask``). Kernels trust their input: :func:`act` expects a legal action.
Standard rules only (no variants).
"""

from __future__ import annotations

from numba import njit

from .actions import BEAVER, DOUBLE, DROP, ROLL, TAKE
from .batch import (
    CUBE_OWNER,
    CUBE_TURNED,
    CUBE_VALUE,
    DIE0,
    LARGER_ONLY,
    MOVES_LEFT,
    N_DICE,
    OUTCOME,
    P_BEAVER_TAKE,
    P_CUBE,
    P_MOVE,
    P_OVER,
    P_TAKE,
    PENDING,
    PHASE,
    R_ARITHMETIC,
    R_AUTO_DOUBLES,
    R_CUBE,
    TURN,
    TURNS,
    WINNER,
    _all_off,
    _apply_move,
    _finish,
    _loss_kind,
    _may_beaver,
    _may_double,
    _next_cube,
    _score,
    _start_play,
    actor,
)
from .fast import _die_from, _mask_into

__all__ = ["open_game", "act"]


@njit(cache=True)
def _begin_turn(s, me, opp, rules, fn, st):
    """The turn of the side on turn: the cube question when allowed, else roll."""
    if _may_double(s, rules):
        s[PHASE] = P_CUBE
    else:
        d1 = _die_from(fn, st)
        _start_play(s, me, opp, d1, _die_from(fn, st))


@njit(cache=True)
def _end_turn(s, me, opp, rules, fn, st):
    """The play is complete: the game ends when the mover is off, else the other side
    takes the turn (:meth:`Game._end_turn`)."""
    if _all_off(me):
        _finish(s, s[TURN], _loss_kind(opp), _score(_loss_kind(opp), s, rules))
        return
    if _all_off(opp):  # pragma: no cover - the game would have ended before
        _finish(s, 1 - s[TURN], _loss_kind(me), _score(_loss_kind(me), s, rules))
        return
    s[TURNS] += 1
    for p in range(26):
        me[p], opp[p] = opp[p], me[p]
    s[TURN] = 1 - s[TURN]
    s[N_DICE] = 0
    _begin_turn(s, me, opp, rules, fn, st)


@njit(cache=True)
def _settle(s, me, opp, rules, mask, fn, st):
    """Play forced moves and end finished turns until a real decision or the end of the
    game (:meth:`Game.settle`), then write the decider's legal actions into ``mask``."""
    mask[:] = 0
    while True:
        phase = s[PHASE]
        if phase == P_OVER:
            return
        if phase == P_CUBE:
            mask[ROLL] = 1
            mask[DOUBLE] = 1
            return
        if phase == P_TAKE or phase == P_BEAVER_TAKE:
            mask[TAKE] = 1
            mask[DROP] = 1
            if phase == P_TAKE and _may_beaver(s, rules):
                mask[BEAVER] = 1
            return
        if s[MOVES_LEFT] == 0:
            _end_turn(s, me, opp, rules, fn, st)
            continue
        count, only = _mask_into(me, opp, s[DIE0:DIE0 + s[N_DICE]], s[N_DICE], s[MOVES_LEFT],
                                 s[LARGER_ONLY], mask)
        if count != 1:
            return
        mask[only] = 0
        _apply_move(s, me, opp, only)


@njit(cache=True)
def open_game(s, me, opp, rules, mask, fn, st):
    """A new game from the standard start (:meth:`Game.opening`): each side rolls one die,
    ties re-rolled (doubling up to ``auto_doubles`` times), the higher die plays both.
    Returns ``(phase, actor, turns)``."""
    for p in range(26):
        me[p] = 0
        opp[p] = 0
    for p, n in ((24, 2), (13, 5), (8, 3), (6, 5)):
        me[p] = n
        opp[p] = n
    s[:] = 0
    s[CUBE_VALUE] = 1
    s[CUBE_OWNER] = -1
    s[WINNER] = -1
    s[OUTCOME] = -1
    ties = 0
    while True:
        a = _die_from(fn, st)
        b = _die_from(fn, st)
        if a != b:
            break
        if ties < rules[R_AUTO_DOUBLES] and rules[R_CUBE] != 0:
            ties += 1
            s[CUBE_VALUE] = _next_cube(s[CUBE_VALUE], rules[R_ARITHMETIC])
    s[TURN] = 0 if a > b else 1
    _start_play(s, me, opp, max(a, b), min(a, b))
    _settle(s, me, opp, rules, mask, fn, st)
    return s[PHASE], actor(s), s[TURNS]


@njit(cache=True)
def act(s, me, opp, rules, mask, action, fn, st):
    """:meth:`Game.step` with a legal ``action`` (unchecked: see ``mask``).
    Returns ``(phase, actor, turns)``."""
    phase = s[PHASE]
    if phase == P_MOVE:
        _apply_move(s, me, opp, action)
    elif phase == P_CUBE:
        if action == DOUBLE:
            s[PENDING] = _next_cube(s[CUBE_VALUE], rules[R_ARITHMETIC])
            s[PHASE] = P_TAKE
        else:
            d1 = _die_from(fn, st)
            _start_play(s, me, opp, d1, _die_from(fn, st))
    else:
        taker = 1 - s[TURN] if phase == P_TAKE else s[TURN]
        if action == DROP:
            _finish(s, 1 - taker, 3, s[CUBE_VALUE])
        elif action == BEAVER:
            s[CUBE_VALUE] = s[PENDING]
            s[PENDING] = _next_cube(s[PENDING], rules[R_ARITHMETIC])
            s[PHASE] = P_BEAVER_TAKE
        else:  # TAKE
            s[CUBE_VALUE] = s[PENDING]
            s[CUBE_OWNER] = 1 - s[TURN]
            s[CUBE_TURNED] = 1
            d1 = _die_from(fn, st)
            _start_play(s, me, opp, d1, _die_from(fn, st))
    _settle(s, me, opp, rules, mask, fn, st)
    return s[PHASE], actor(s), s[TURNS]
