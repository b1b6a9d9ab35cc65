"""The AEC env's observation kernels for the engine's games of the variants whose moves are
not standard (Plakoto, Caucasian, Long Nardy: :mod:`bg_env.core.variant_rows`): the
encoder's board part (:mod:`bg_env.envs.observation`), Long Nardy's board in the standard
view, and the context block (:mod:`bg_env.envs.context_kernels`'s, then the Plakoto pins;
a money game).

The same vectors as :meth:`raw_env.observe <bg_env.envs.backgammon.raw_env.observe>` makes
from a :class:`~bg_env.core.game.Game` (tested in lockstep in
``tests/envs/test_engine_variants.py``).

A kernel's options are one ``int64`` array (:func:`obs_params`): whether the context
block is on, the variant's place in :data:`~bg_env.envs.context.VARIANT_ORDER`, whether
the board is drawn in the standard view, and where the context block starts.
"""

from __future__ import annotations

import numpy as np

from ..core.game import PURE_PYTHON
from ..core.variants import get_variant
from .context import VARIANT_ORDER
from .observation import COMPACT_SIZE, TESAURO_SIZE, games_kernel

__all__ = ["obs_params", "variant_engine_kernels", "encode_variant_games"]

C_ON, C_VARIANT, C_VIEW, C_OFFSET = range(4)


def obs_params(config) -> np.ndarray:
    """The kernels' options for an :class:`~bg_env.envs.config.EnvConfig`: the context
    block on or off, the variant, Long Nardy's standard view (the ``"tesauro"`` board with
    the context block, as :meth:`raw_env.observe` draws it), the block's offset."""
    variant = get_variant(config.game_rules.variant)
    out = np.zeros(4, np.int64)
    out[C_ON] = config.uses_context
    out[C_VARIANT] = VARIANT_ORDER.index(variant.name)
    out[C_VIEW] = (config.uses_context and variant.geometry != "opposite"
                   and config.observation != "compact")
    out[C_OFFSET] = COMPACT_SIZE if config.observation == "compact" else TESAURO_SIZE
    return out


if not PURE_PYTHON:
    from numba import njit

    from ..core import batch as _batch
    from ..core import engine as _engine
    from ..core.variant_turn import I_PIN_ME, I_PIN_OPP
    from .context_kernels import games_contexts

    _TESAURO = games_kernel("tesauro")
    _COMPACT = games_kernel("compact")

    @njit(cache=True)
    def _standard_view(theirs, out):
        """Long Nardy: the opponent's counts renumbered so that his count on the actor's
        point ``p`` is at ``25 - p`` (:func:`~bg_env.envs.context.standard_view`)."""
        out[0], out[25] = theirs[0], theirs[25]
        for p in range(1, 25):
            out[25 - p] = theirs[p - 12 if p > 12 else p + 12]

    @njit(cache=True)
    def _board(s, me, opp, side, out, compact, params):
        """The encoder's part of row ``(s, me, opp)`` from ``side`` into ``out[0]``."""
        state2 = s.reshape((1, s.size))
        sides = np.empty(1, np.int64)
        sides[0] = side
        mine, theirs = me.copy(), opp.copy()
        if params[C_VIEW]:
            if side == s[_batch.TURN]:
                _standard_view(opp, theirs)
            else:
                _standard_view(me, mine)
        me2, opp2 = mine.reshape((1, 26)), theirs.reshape((1, 26))
        if compact:
            _COMPACT(state2, me2, opp2, sides, out)
        else:
            _TESAURO(state2, me2, opp2, sides, out)

    @njit(cache=True)
    def _pins(o, turn, side, pin_me, pin_opp):
        """The context block's pins from ``side`` into ``o`` (the block; ``pin_me``,
        ``pin_opp``: the pins of the side on turn ``turn`` and of the other)."""
        mine, theirs = (pin_me, pin_opp) if side == turn else (pin_opp, pin_me)
        for p in range(1, 25):
            o[13 + p] = (mine >> p) & 1
            o[37 + p] = (theirs >> (25 - p)) & 1

    @njit(cache=True)
    def _encode(s, me, opp, rules, side, out, vt, i, params, compact):
        """Row ``i``'s observation from ``side`` into ``out[0]`` (``out``: ``(1, size)``)."""
        _board(s, me, opp, side, out, compact, params)
        if params[C_ON]:
            base, sides = params[C_OFFSET], np.empty(1, np.int64)
            sides[0] = side
            games_contexts(s.reshape((1, s.size)), rules, sides, out, base, params[C_VARIANT])
            info = vt[1]
            _pins(out[0, base:], s[_batch.TURN], side, info[i, I_PIN_ME], info[i, I_PIN_OPP])

    @njit(cache=True)
    def encode_variant_games(state, me, opp, sides, out, vt, rules, params, compact):
        """Every row's observation from ``sides[i]`` into ``out[i]``."""
        for i in range(state.shape[0]):
            _encode(state[i], me[i], opp[i], rules, sides[i], out[i:i + 1], vt, i, params,
                    compact)

    @njit(cache=True)
    def _act_variant(s, me, opp, rules, mask, action, fn, st, vt, out, params, compact):
        """:func:`bg_env.core.engine.act`, then the observation of the side to act."""
        phase, actor, turns = _engine.act(s, me, opp, rules, mask, action, fn, st, vt)
        if phase >= 0:
            _encode(s, me, opp, rules, actor, out, vt, 0, params, compact)
        return phase, actor, turns

    @njit(cache=True)
    def _open_variant(s, me, opp, rules, mask, fn, st, vt, out, params, compact):
        """:func:`bg_env.core.engine.open_game`, then the observation of the side to act."""
        phase, actor, turns = _engine.open_game(s, me, opp, rules, mask, fn, st, vt)
        _encode(s, me, opp, rules, actor, out, vt, 0, params, compact)
        return phase, actor, turns


def variant_engine_kernels():
    """``(open_kernel, act_kernel)`` for :meth:`EngineGame.open_with
    <bg_env.core.engine.EngineGame.open_with>` and ``act_with`` with a variant's turns:
    each plays as :func:`~bg_env.core.engine.open_game` / ``act`` do, then encodes the
    observation of the side to act into ``extra = (out, params, compact)`` (``out``:
    ``(1, size)``; ``params``: :func:`obs_params`; ``compact``: the ``"compact"`` encoder).

    Raises:
        RuntimeError: the kernels are off (pure Python).
    """
    if PURE_PYTHON:
        raise RuntimeError("the engine kernels need numba (BG_ENV_PURE_PYTHON is set)")
    return _open_variant, _act_variant
