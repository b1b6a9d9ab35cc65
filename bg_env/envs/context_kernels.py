"""The context block (:mod:`bg_env.envs.context`) of the games on the kernels, as numba
kernels: the observations of the AEC env's engine (:class:`bg_env.core.engine.EngineGame`)
when the context is on, for the money games of the variants the kernels play.

The block is :func:`~bg_env.envs.context.encode_context`'s (tested against it): the
variant's one-hot (its index in :data:`~bg_env.envs.context.VARIANT_ORDER`, given by the
caller) and, in ``nuclear``, the bomb: owned by the observer, by his opponent, and whether
the observer may set it off now. No match score (match play runs on
:class:`~bg_env.core.game.Game`); Plakoto's pins are added by :mod:`bg_env.envs.engine_obs`.

:func:`engine_context_kernels` gives the engine's ``(open_kernel, act_kernel)`` that encode
the board part and then the block, called with ``extra = (out, variant_index)``;
:func:`games_contexts` writes the block of each row of a
:class:`~bg_env.core.batch.Games` (the observation of the side not to act).
"""

from __future__ import annotations

from numba import njit

from ..core import batch as _batch
from ..core.batch_variants import R_BOMB
from ..core.game import PURE_PYTHON
from .context import CONTEXT_SIZE, VARIANT_ORDER
from .observation import COMPACT_SIZE, TESAURO_SIZE, engine_kernels

__all__ = ["engine_context_kernels", "games_contexts", "games_bombs", "variant_index",
           "block_start"]

_SIZES = {"tesauro": TESAURO_SIZE, "compact": COMPACT_SIZE}
"""Where the block starts after each encoder's vector."""


def variant_index(variant) -> int:
    """The variant's slot in the block's one-hot (``variant``: a
    :class:`~bg_env.core.variants.Variant`)."""
    return VARIANT_ORDER.index(variant.name)


@njit(cache=True)
def _bomb_into(o, base, s, side):
    """Nuclear: the bomb's slots of the block (owned by ``side``, by his opponent, ``side``
    may set it off now) into ``o[base + 11:base + 14]``."""
    owner = s[_batch.BOMB_OWNER]
    o[base + 11] = owner == side
    o[base + 12] = owner == 1 - side
    o[base + 13] = (s[_batch.PHASE] == _batch.P_CUBE and s[_batch.TURN] == side
                    and (owner == -1 or owner == side))


@njit(cache=True)
def _context_into(o, base, s, side, rules, vindex):
    """The block of one game (state row ``s``) seen by ``side`` into ``o[base:]``."""
    for k in range(CONTEXT_SIZE):
        o[base + k] = 0
    o[base + vindex] = 1
    if rules[R_BOMB] != 0:
        _bomb_into(o, base, s, side)


@njit(cache=True)
def games_bombs(state, rules, sides, out, base):
    """Nuclear: the bomb's slots of the block of every game seen by ``sides[i]`` into
    ``out[i, base:]`` (the rest of the block left as it is); nothing outside nuclear."""
    if rules[R_BOMB] == 0:
        return
    for i in range(state.shape[0]):
        _bomb_into(out[i], base, state[i], sides[i])


@njit(cache=True)
def games_contexts(state, rules, sides, out, base, vindex):
    """The block of every game of a :class:`~bg_env.core.batch.Games` seen by
    ``sides[i]``, into ``out[i, base:]``."""
    for i in range(state.shape[0]):
        _context_into(out[i], base, state[i], sides[i], rules, vindex)


if not PURE_PYTHON:
    _open_tesauro, _act_tesauro = engine_kernels("tesauro")
    _open_compact, _act_compact = engine_kernels("compact")
    _TESAURO, _COMPACT = _SIZES["tesauro"], _SIZES["compact"]

    @njit(cache=True)
    def _open_tesauro_context(s, me, opp, rules, mask, fn, st, out, vindex):
        """The engine's ``"tesauro"`` open kernel, then the block of the side to act."""
        phase, actor, turns = _open_tesauro(s, me, opp, rules, mask, fn, st, out)
        _context_into(out[0], _TESAURO, s, actor, rules, vindex)
        return phase, actor, turns

    @njit(cache=True)
    def _act_tesauro_context(s, me, opp, rules, mask, action, fn, st, out, vindex):
        """The engine's ``"tesauro"`` act kernel, then the block of the side to act."""
        phase, actor, turns = _act_tesauro(s, me, opp, rules, mask, action, fn, st, out)
        if phase >= 0:
            _context_into(out[0], _TESAURO, s, actor, rules, vindex)
        return phase, actor, turns

    @njit(cache=True)
    def _open_compact_context(s, me, opp, rules, mask, fn, st, out, vindex):
        """:func:`_open_tesauro_context` for ``"compact"``."""
        phase, actor, turns = _open_compact(s, me, opp, rules, mask, fn, st, out)
        _context_into(out[0], _COMPACT, s, actor, rules, vindex)
        return phase, actor, turns

    @njit(cache=True)
    def _act_compact_context(s, me, opp, rules, mask, action, fn, st, out, vindex):
        """:func:`_act_tesauro_context` for ``"compact"``."""
        phase, actor, turns = _act_compact(s, me, opp, rules, mask, action, fn, st, out)
        if phase >= 0:
            _context_into(out[0], _COMPACT, s, actor, rules, vindex)
        return phase, actor, turns


def engine_context_kernels(encoder: str):
    """``(open_kernel, act_kernel)`` as :func:`bg_env.envs.observation.engine_kernels`
    gives them, with the context block after the encoder's vector: called with
    ``extra = (out, variant_index)``.

    Raises:
        ValueError: an unknown encoder; RuntimeError: the kernels are off (pure Python).
    """
    engine_kernels(encoder)  # checks the encoder (and that the kernels are on)
    if encoder == "tesauro":
        return _open_tesauro_context, _act_tesauro_context
    return _open_compact_context, _act_compact_context


def block_start(encoder: str) -> int:
    """Where the block starts in an observation of ``encoder`` (its vector's length)."""
    return _SIZES[encoder]
