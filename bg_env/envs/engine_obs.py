"""The AEC env's observation kernels for the engine's games of every variant, with or
without the context block (standard games without it use the plain kernels of
:func:`bg_env.envs.observation.engine_kernels`): the encoder's board part
(:mod:`bg_env.envs.observation`), Long Nardy's board in the standard view, and the context
block (:mod:`bg_env.envs.context`: the variant, the nuclear bomb, the Plakoto pins, and in
match play the match's part, :func:`write_match_block`). The variants whose moves are not standard pass their turns ``vt``
(:mod:`bg_env.kernels.batch_variants`: the pins live there); the others pass ``None``.

The same vectors as :meth:`raw_env.observe <bg_env.envs.backgammon.raw_env.observe>` makes
from a :class:`~bg_env.game.game.Game` (tested in lockstep in
``tests/envs/test_engine_variants.py``).

A kernel's options are one ``int64`` array (:func:`obs_params`): whether the context
block is on, the variant's place in :data:`~bg_env.envs.context.VARIANT_ORDER`, whether
the board is drawn in the standard view, where the context block starts, whether it
holds a match's part (then copied from the ``(2, 6)`` array ``mblock``, one row per side,
that :func:`write_match_block` fills at the start of each game of the match), and the
rule options on (a bit each).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..kernels import batch as _batch
from ..kernels.batch_rules import R_BOMB
from ..game.game import PURE_PYTHON, Game, Rules
from .context import MATCH_SLOTS, OPTION_SLOTS, VARIANT_ORDER, encode_context, option_flags
from .observation import COMPACT_SIZE, TESAURO_SIZE, row_kernel

__all__ = ["obs_params", "uses_engine_obs", "engine_obs_extra", "encoder_extra",
           "engine_obs_kernels", "encode_engine_games", "encode_engine_rows", "games_bombs",
           "match_block", "write_match_block"]

C_ON, C_VARIANT, C_VIEW, C_OFFSET, C_MATCH, C_OPTIONS = range(6)
_OPTIONS_AT, _N_OPTIONS = OPTION_SLOTS.start, OPTION_SLOTS.stop - OPTION_SLOTS.start


def obs_params(config) -> np.ndarray:
    """The kernels' options for an :class:`~bg_env.envs.config.EnvConfig`: the context
    block on or off, the variant, Long Nardy's standard view (the ``"tesauro"`` board with
    the context block, as :meth:`raw_env.observe` draws it), the block's offset, match
    play, the rule options' slots (a bit each, :data:`~bg_env.envs.context.OPTION_ORDER`)."""
    variant = config.game_rules.variant_spec
    out = np.zeros(6, np.int64)
    out[C_ON] = config.uses_context
    out[C_VARIANT] = VARIANT_ORDER.index(variant.name)
    out[C_VIEW] = (config.uses_context and variant.geometry != "opposite"
                   and config.observation != "compact")
    out[C_OFFSET] = COMPACT_SIZE if config.observation == "compact" else TESAURO_SIZE
    out[C_MATCH] = config.uses_context and config.match_length > 0
    out[C_OPTIONS] = sum(flag << k for k, flag in enumerate(option_flags(variant)))
    return out


def match_block(config) -> np.ndarray:
    """The ``mblock`` array of ``config``'s kernels: ``(2, 6)``, of the observation's
    dtype (zeros: a money game's, or a match's before :func:`write_match_block`)."""
    return np.zeros((2, MATCH_SLOTS.stop - MATCH_SLOTS.start),
                    np.int8 if config.observation == "compact" else np.float32)


_STUB: list = []
"""A standard Game whose context block has nothing but the variant (made once)."""


def write_match_block(mblock: np.ndarray, match) -> None:
    """The match's part of the context block of each side (row ``side``) for the game
    about to start in ``match`` (a :class:`~bg_env.game.match.Match`): what
    :func:`~bg_env.envs.context.encode_context` writes there, which does not depend on
    the game (the points away, the Crawford flags, the match-winning chance)."""
    if not _STUB:
        _STUB.append(Game(Rules(cube=False)))
    integer = mblock.dtype == np.int8
    for side in (0, 1):
        mblock[side] = encode_context(_STUB[0], side, match, integer=integer)[MATCH_SLOTS]


def uses_engine_obs(config, games) -> bool:
    """Whether the engine's observations of ``config``'s games (``games``: the engine's
    :class:`~bg_env.kernels.games.Games`) come from these kernels: with the context block, or
    in a variant whose moves are not standard."""
    return config.uses_context or games.variant_rows is not None


def engine_obs_extra(config, games, out, mblock) -> tuple:
    """The arguments the kernels of :func:`engine_obs_kernels` take after the engine's
    own (``EngineGame`` passes ``vt`` itself when the variant has turns; ``None`` stands in
    for it otherwise): ``(out, params, compact, mblock)`` (``mblock``: :func:`match_block`)."""
    vt = () if games.variant_rows is not None else (None,)
    return (*vt, out, obs_params(config), config.observation == "compact", mblock)


def encoder_extra(config, games, mblock=None) -> tuple:
    """The arguments :func:`encode_engine_games` takes after ``out`` (``mblock``:
    :func:`match_block`; ``None``: zeros, the match's slots left at zero)."""
    if mblock is None:
        mblock = match_block(config)
    vt = None if games.variant_rows is None else games.variant_rows.kernel_args
    return (games.rules, vt, obs_params(config), config.observation == "compact", mblock)


@njit(cache=True)
def _bomb(o, s, side):
    """Nuclear: the bomb owned by ``side``, by his opponent, and whether ``side`` may set it
    off now, into the block ``o`` (:func:`~bg_env.envs.context.encode_context`)."""
    owner = s[_batch.BOMB_OWNER]
    o[11] = owner == side
    o[12] = owner == 1 - side
    o[13] = (s[_batch.PHASE] == _batch.P_CUBE and s[_batch.TURN] == side
             and (owner == -1 or owner == side))


@njit(cache=True)
def games_bombs(state, rules, sides, out, base):
    """Nuclear: the bomb's slots of the block of every game seen by ``sides[i]`` into
    ``out[i, base:]`` (the rest of the block left as it is; the vector env's block);
    nothing outside nuclear."""
    if rules[R_BOMB] == 0:
        return
    for i in range(state.shape[0]):
        _bomb(out[i, base:], state[i], sides[i])


if not PURE_PYTHON:
    from ..kernels import engine as _engine
    from ..kernels.borrow import borrowed
    from ..kernels.variant_turn import I_PIN_ME, I_PIN_OPP

    _TESAURO = row_kernel("tesauro")
    _COMPACT = row_kernel("compact")

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
        mine, theirs = me, opp
        if params[C_VIEW]:  # (copies only for Long Nardy's view)
            mine, theirs = me.copy(), opp.copy()
            if side == s[_batch.TURN]:
                _standard_view(opp, theirs)
            else:
                _standard_view(me, mine)
        if compact:
            _COMPACT(s, mine, theirs, side, out[0])
        else:
            _TESAURO(s, mine, theirs, side, out[0])

    @njit(cache=True)
    def _pins(o, s, side, on_turn, other):
        """Plakoto's pins from ``side`` (bit masks: the side on turn's, the other's)."""
        mine, theirs = (on_turn, other) if side == s[_batch.TURN] else (other, on_turn)
        for p in range(1, 25):
            o[13 + p] = (mine >> p) & 1
            o[37 + p] = (theirs >> (25 - p)) & 1

    @njit(cache=True)
    def _encode(s, me, opp, rules, side, out, vt, i, params, compact, mblock):
        """Row ``i``'s observation from ``side`` into ``out[0]`` (``out``: ``(1, size)``):
        the board, then the context block into ``out[0, offset:]`` when it is on."""
        _board(s, me, opp, side, out, compact, params)
        if params[C_ON]:
            o = out[0, params[C_OFFSET]:]
            o[:] = 0
            o[params[C_VARIANT]] = 1
            if rules[R_BOMB] != 0:
                _bomb(o, s, side)
            if vt is not None:
                info = vt[1]
                _pins(o, s, side, info[i, I_PIN_ME], info[i, I_PIN_OPP])
            if params[C_MATCH]:
                o[62:68] = mblock[side]
            for k in range(_N_OPTIONS):
                o[_OPTIONS_AT + k] = (params[C_OPTIONS] >> k) & 1

    @njit(cache=True)
    def encode_engine_games(state, me, opp, sides, out, rules, vt, params, compact, mblock):
        """Every row's observation from ``sides[i]`` into ``out[i]`` (the arguments after
        ``out``: :func:`encoder_extra`)."""
        state, me, opp, out = borrowed(state), borrowed(me), borrowed(opp), borrowed(out)
        for i in range(state.shape[0]):
            _encode(state[i], me[i], opp[i], rules, sides[i], out[i:i + 1], vt, i, params,
                    compact, mblock)

    @njit(cache=True)
    def encode_engine_rows(state, me, opp, sides, out, rows, rules, vt, params, compact,
                           mblock):
        """:func:`encode_engine_games` for the rows ``rows`` only (the others untouched)."""
        state, me, opp, out = borrowed(state), borrowed(me), borrowed(opp), borrowed(out)
        for i in rows:
            _encode(state[i], me[i], opp[i], rules, sides[i], out[i:i + 1], vt, i, params,
                    compact, mblock)

    @njit(cache=True)
    def _act_variant(s, me, opp, rules, mask, action, fn, st, vt, out, params, compact,
                     mblock):
        """:func:`bg_env.kernels.engine.act`, then the observation of the side to act."""
        s, me, opp, rules, mask, out = (borrowed(s), borrowed(me), borrowed(opp),
                                        borrowed(rules), borrowed(mask), borrowed(out))
        phase, actor, turns = _engine.act(s, me, opp, rules, mask, action, fn, st, vt)
        if phase >= 0:
            _encode(s, me, opp, rules, actor, out, vt, 0, params, compact, mblock)
        return phase, actor, turns

    @njit(cache=True)
    def _open_variant(s, me, opp, rules, mask, fn, st, vt, out, params, compact, mblock):
        """:func:`bg_env.kernels.engine.open_game`, then the observation of the side to act."""
        s, me, opp, rules, mask, out = (borrowed(s), borrowed(me), borrowed(opp),
                                        borrowed(rules), borrowed(mask), borrowed(out))
        phase, actor, turns = _engine.open_game(s, me, opp, rules, mask, fn, st, vt)
        _encode(s, me, opp, rules, actor, out, vt, 0, params, compact, mblock)
        return phase, actor, turns


def engine_obs_kernels():
    """``(open_kernel, act_kernel)`` for :meth:`EngineGame.use_kernels
    <bg_env.kernels.engine.EngineGame.use_kernels>`: each plays as
    :func:`~bg_env.kernels.engine.open_game` / ``act`` do, then encodes the observation of the
    side to act into ``extra`` (:func:`engine_obs_extra`: ``out`` of shape ``(1, size)``;
    ``params``: :func:`obs_params`; ``compact``: the ``"compact"`` encoder; ``mblock``:
    :func:`match_block`).

    Raises:
        RuntimeError: the kernels are off (pure Python).
    """
    if PURE_PYTHON:
        raise RuntimeError("the engine kernels need numba (BG_ENV_PURE_PYTHON is set)")
    return _open_variant, _act_variant
