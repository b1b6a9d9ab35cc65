"""Observation encoders: a game state seen from the side that must act, as a vector.

Every encoder sees only what the acting player sees at the table (the board, the dice he
still has to play, the cube); nothing hidden. Layouts:

``"tesauro"`` (default, float32, length :data:`TESAURO_SIZE` = 212)
    =========  =====  ==========================================================
    offset     size   meaning
    =========  =====  ==========================================================
    0          96     the actor's checkers on his points 1..24, Tesauro's 4 units
                      per point: n>=1, n>=2, n>=3, (n-3)/2 when n>3
    96         96     the opponent's checkers on the actor's points 1..24, same code
    192        2      checkers on the bar / 2: actor, opponent
    194        2      checkers borne off / 15: actor, opponent
    196        6      dice still to play: count of each value 1..6, / 4
    202        1      log2(cube value) / 6
    203        3      cube owner one-hot: actor, centred, opponent
    206        1      1 when the actor may double now
    207        4      decision phase one-hot: cube, take, beaver-take, move
    211        1      checker moves still to make this turn / 4
    =========  =====  ==========================================================

``"compact"`` (int8, length :data:`COMPACT_SIZE` = 60)
    26 actor counts in his own numbering (0 = off, 1..24, 25 = bar), 26 opponent counts in
    the opponent's own numbering, the 4 dice still to play (0 padded, largest first),
    log2(cube value), cube owner (0 centred, 1 actor, 2 opponent), phase index (0 cube,
    1 take, 2 beaver-take, 3 move; -1 when the observer is not the one to act), moves still
    to make.
"""

from __future__ import annotations

import numpy as np
from gymnasium import spaces

from ..game.game import PURE_PYTHON, Game, Phase
from ..kernels.io import dice_array
from ..rules.position import Position

__all__ = [
    "row_kernel",
    "ENCODERS",
    "TESAURO_SIZE",
    "COMPACT_SIZE",
    "BOARD_SIZE",
    "encode",
    "games_kernel",
    "engine_kernels",
    "observation_space",
    "encode_board",
    "encode_boards",
    "encode_games",
]

TESAURO_SIZE = 212
BOARD_SIZE = 196
COMPACT_SIZE = 60
ENCODERS = ("tesauro", "compact")
_PHASES = (Phase.CUBE, Phase.TAKE, Phase.BEAVER_TAKE, Phase.MOVE)
_HIGH = 8.0  # (15 - 3) / 2 = 6 and 15 / 2 = 7.5 are the largest values produced
_UNITS = np.array(
    [[n >= 1, n >= 2, n >= 3, (n - 3) / 2 if n > 3 else 0] for n in range(256)], dtype=np.float32
)
"""Tesauro's 4 units (see :func:`_tesauro_units`) for 0..255 checkers on a point."""
_POINTS = np.array(list(range(1, 25)) + [26 + q for q in range(24, 0, -1)])
"""Where the 48 points of the board part are in ``me + opp`` (the opponent's point
``25 - p`` at the actor's ``p``)."""
_LOG2 = {2**k: np.log2(2**k) / 6 for k in range(13)}
_PHASE_INDEX = {p: i for i, p in enumerate(_PHASES)}
_NO_DICE = np.zeros(0, np.int8)
_MOVE = Phase.MOVE
_empty, _float32 = np.empty, np.float32


def _tesauro_units(counts: np.ndarray) -> np.ndarray:
    """Tesauro's 4 units per point for an array of checker counts (shape ``(..., 24)``)."""
    c = counts.astype(np.float32)
    out = np.empty(counts.shape + (4,), dtype=np.float32)
    out[..., 0] = c >= 1
    out[..., 1] = c >= 2
    out[..., 2] = c >= 3
    out[..., 3] = np.where(c > 3, (c - 3) / 2, 0)
    return out.reshape(counts.shape[:-1] + (96,))


def encode_boards(me: np.ndarray, opp: np.ndarray) -> np.ndarray:
    """The board part (196 floats) of many positions at once.

    Args:
        me: ``(N, 26)`` counts of the side to encode, own numbering.
        opp: ``(N, 26)`` counts of its opponent, own numbering.

    Returns:
        ``(N, 196)`` float32: 96 + 96 Tesauro units, bar / 2, off / 15 for both sides.
    """
    me = np.asarray(me)
    opp = np.asarray(opp)
    out = np.empty((me.shape[0], BOARD_SIZE), dtype=np.float32)
    out[:, 0:96] = _tesauro_units(me[:, 1:25])
    out[:, 96:192] = _tesauro_units(opp[:, 24:0:-1])  # opponent's point 25-p at actor's p
    out[:, 192] = me[:, 25] / 2
    out[:, 193] = opp[:, 25] / 2
    out[:, 194] = me[:, 0] / 15
    out[:, 195] = opp[:, 0] / 15
    return out


def encode_board(pos: Position) -> np.ndarray:
    """The 196-float board part of :data:`"tesauro"` for one position (actor = ``me``)."""
    out = np.empty(BOARD_SIZE, dtype=np.float32)
    _encode_board_into(out, pos.me, pos.opp)
    return out


def _encode_board_into(out: np.ndarray, me: tuple, opp: tuple) -> None:
    """Write the board part into ``out[:196]`` (the fast path of :func:`encode_boards`
    for one position: table look-up)."""
    try:
        counts = np.frombuffer(bytes(me + opp), np.uint8)
    except ValueError:  # a count outside 0..255: not a real board, but encode it anyway
        out[:BOARD_SIZE] = encode_boards(np.array([me]), np.array([opp]))[0]
        return
    out[:192] = _UNITS[counts[_POINTS]].reshape(192)
    out[192] = me[25] / 2
    out[193] = opp[25] / 2
    out[194] = me[0] / 15
    out[195] = opp[0] / 15


if PURE_PYTHON:
    _board_kernel = None
    _tesauro_kernel = None
else:
    from numba import njit

    from ..kernels import batch as _batch
    from ..kernels.borrow import borrowed

    @njit(cache=True)
    def _board_units(out, mine, theirs):
        """The board part of ``"tesauro"`` into ``out[:196]`` (a kernel; the same values
        as :func:`encode_boards`): ``mine`` and ``theirs`` are the actor's and his
        opponent's 26 counts, each in its own numbering."""
        for p in range(1, 25):
            for base, c in ((4 * (p - 1), mine[p]), (92 + 4 * p, theirs[25 - p])):
                out[base] = c >= 1
                out[base + 1] = c >= 2
                out[base + 2] = c >= 3
                out[base + 3] = (c - 3) / 2 if c > 3 else 0
        out[192] = mine[25] / 2
        out[193] = theirs[25] / 2
        out[194] = mine[0] / 15
        out[195] = theirs[0] / 15

    @njit(cache=True)
    def _board_kernel(out, board, swapped):
        """:func:`_board_units` for :meth:`Game.board_array
        <bg_env.game.game.Game.board_array>` (``swapped``: from ``opp``'s side)."""
        if swapped:
            _board_units(out, board[26:], board[:26])
        else:
            _board_units(out, board[:26], board[26:])

    @njit(cache=True)
    def _tesauro_kernel(out, board, swapped, dice, cube, owner, phase, moves):
        """:func:`encode` ``"tesauro"`` into ``out`` (all 212 values written) from a
        :meth:`Game.board_array <bg_env.game.game.Game.board_array>` (``swapped``: seen
        from ``opp``'s side), the dice still to play as the observer sees them, the cube
        unit, the cube-owner slot (0 actor, 1 centred, 2 opponent), the phase index when
        the observer must act (else -1) and the moves-left unit."""
        _board_kernel(out, board, swapped)
        for i in range(196, 212):
            out[i] = 0
        for k in range(dice.shape[0]):
            out[195 + dice[k]] += 0.25
        out[202] = cube
        out[203 + owner] = 1
        if phase >= 0:
            out[206] = phase == 0
            out[207 + phase] = 1
        out[211] = moves

    @njit(cache=True, inline="always")
    def _tesauro_row(s, me, opp, side, o):
        """:func:`encode` ``"tesauro"`` of one game's row (``s``, ``me``, ``opp``) from
        ``side``'s seat into ``o`` (inlined into its callers: see
        :mod:`bg_env.kernels.batch` on reference counts)."""
        o[:] = 0
        phase = s[_batch.PHASE]
        on_turn = side == s[_batch.TURN]
        if on_turn:
            _board_units(o, me, opp)
        else:
            _board_units(o, opp, me)
        if phase == _batch.P_MOVE and on_turn:
            for k in range(s[_batch.N_DICE]):
                o[195 + s[_batch.DIE0 + k]] += 0.25
        o[202] = np.log2(s[_batch.CUBE_VALUE]) / 6
        owner = s[_batch.CUBE_OWNER]
        o[203 + (1 if owner == -1 else (0 if owner == side else 2))] = 1
        if phase != _batch.P_OVER and _batch.actor(s) == side:
            o[206] = phase == _batch.P_CUBE
            o[207 + phase] = 1
            if phase == _batch.P_MOVE:
                o[211] = s[_batch.MOVES_LEFT] / 4

    @njit(cache=True)
    def _games_tesauro(state, me, opp, sides, out):
        """:func:`encode` ``"tesauro"`` for every game of a :class:`~bg_env.kernels.games.Games`."""
        state, me, opp, out = borrowed(state), borrowed(me), borrowed(opp), borrowed(out)
        for i in range(state.shape[0]):
            _tesauro_row(state[i], me[i], opp[i], sides[i], out[i])

    @njit(cache=True, inline="always")
    def _compact_row(s, me, opp, side, o):
        """:func:`encode` ``"compact"`` of one game's row from ``side``'s seat into ``o``
        (as :func:`_tesauro_row`)."""
        o[:] = 0
        phase = s[_batch.PHASE]
        on_turn = side == s[_batch.TURN]
        mine, theirs = (me, opp) if on_turn else (opp, me)
        for p in range(26):
            o[p] = mine[p]
            o[26 + p] = theirs[p]
        if phase == _batch.P_MOVE and on_turn:
            n = s[_batch.N_DICE]
            high = 52
            for top in range(6, 0, -1):  # the dice to play, largest first
                for k in range(n):
                    if s[_batch.DIE0 + k] == top:
                        o[high] = top
                        high += 1
        o[56] = int(np.log2(s[_batch.CUBE_VALUE]))
        owner = s[_batch.CUBE_OWNER]
        o[57] = 0 if owner == -1 else (1 if owner == side else 2)
        acting = phase != _batch.P_OVER and _batch.actor(s) == side
        o[58] = phase if acting else -1
        o[59] = s[_batch.MOVES_LEFT] if acting and phase == _batch.P_MOVE else 0

    @njit(cache=True)
    def _games_compact(state, me, opp, sides, out):
        """:func:`encode` ``"compact"`` for every game of a :class:`~bg_env.kernels.games.Games`."""
        state, me, opp, out = borrowed(state), borrowed(me), borrowed(opp), borrowed(out)
        for i in range(state.shape[0]):
            _compact_row(state[i], me[i], opp[i], sides[i], out[i])


    from ..kernels import engine as _engine

    @njit(cache=True)
    def _act_tesauro(s, me, opp, rules, mask, action, fn, st, out):
        """:func:`bg_env.kernels.engine.act`, then ``"tesauro"`` of the side to act into
        ``out`` (``(1, size)``) when the action was played."""
        s, me, opp, rules, mask, out = (borrowed(s), borrowed(me), borrowed(opp),
                                        borrowed(rules), borrowed(mask), borrowed(out))
        phase, actor, turns = _engine.act(s, me, opp, rules, mask, action, fn, st)
        if phase >= 0:
            _tesauro_row(s, me, opp, actor, out[0])
        return phase, actor, turns

    @njit(cache=True)
    def _act_compact(s, me, opp, rules, mask, action, fn, st, out):
        """:func:`_act_tesauro` for ``"compact"``."""
        s, me, opp, rules, mask, out = (borrowed(s), borrowed(me), borrowed(opp),
                                        borrowed(rules), borrowed(mask), borrowed(out))
        phase, actor, turns = _engine.act(s, me, opp, rules, mask, action, fn, st)
        if phase >= 0:
            _compact_row(s, me, opp, actor, out[0])
        return phase, actor, turns

    @njit(cache=True)
    def _open_tesauro(s, me, opp, rules, mask, fn, st, out):
        """:func:`bg_env.kernels.engine.open_game`, then ``"tesauro"`` of the side to act."""
        s, me, opp, rules, mask, out = (borrowed(s), borrowed(me), borrowed(opp),
                                        borrowed(rules), borrowed(mask), borrowed(out))
        phase, actor, turns = _engine.open_game(s, me, opp, rules, mask, fn, st)
        _tesauro_row(s, me, opp, actor, out[0])
        return phase, actor, turns

    @njit(cache=True)
    def _open_compact(s, me, opp, rules, mask, fn, st, out):
        """:func:`_open_tesauro` for ``"compact"``."""
        s, me, opp, rules, mask, out = (borrowed(s), borrowed(me), borrowed(opp),
                                        borrowed(rules), borrowed(mask), borrowed(out))
        phase, actor, turns = _engine.open_game(s, me, opp, rules, mask, fn, st)
        _compact_row(s, me, opp, actor, out[0])
        return phase, actor, turns


def _kernels_for(encoder: str, what: str) -> tuple:
    """``(games kernel, row kernel, open kernel, act kernel)`` of ``encoder``.

    Raises:
        ValueError: an unknown encoder; RuntimeError: the kernels are off (pure Python),
            saying that ``what`` needs them.
    """
    if PURE_PYTHON:
        raise RuntimeError(f"{what}: numba's kernels are off (BG_ENV_PURE_PYTHON is set)")
    if encoder not in ENCODERS:
        raise ValueError(f"observation={encoder!r}: expected one of {list(ENCODERS)}")
    if encoder == "compact":
        return _games_compact, _compact_row, _open_compact, _act_compact
    return _games_tesauro, _tesauro_row, _open_tesauro, _act_tesauro


def engine_kernels(encoder: str):
    """``(open_kernel, act_kernel)`` for :meth:`EngineGame.use_kernels
    <bg_env.kernels.engine.EngineGame.use_kernels>`: each plays on the engine as :func:`~bg_env.kernels.engine.open_game` and
    :func:`~bg_env.kernels.engine.act` do, then encodes the observation of the side to act
    into ``extra = (out,)`` (``(1, size)``). The AEC env's next ``observe`` of that side
    is then a copy.

    Raises:
        ValueError: an unknown encoder; RuntimeError: the kernels are off (pure Python).
    """
    return _kernels_for(encoder, "the engine kernels")[2:]


def games_kernel(encoder: str):
    """The numba kernel behind :func:`encode_games` for ``encoder``, to call directly in a
    hot loop: ``kernel(games.state, games.me, games.opp, sides, out)``.

    Raises:
        ValueError: an unknown encoder; RuntimeError: the kernels are off (pure Python).
    """
    return _kernels_for(encoder, "encode_games")[0]


def row_kernel(encoder: str):
    """The numba kernel encoding one game's row for ``encoder``, for other kernels to call
    (it is inlined into them): ``kernel(s, me, opp, side, out_row)`` with a
    :class:`~bg_env.kernels.games.Games`' row ``i`` (``state[i]``, ``me[i]``, ``opp[i]``).

    Raises:
        ValueError: an unknown encoder; RuntimeError: the kernels are off (pure Python).
    """
    return _kernels_for(encoder, "the encoders' row kernels")[1]


def encode_games(games, sides: np.ndarray, encoder: str, out: np.ndarray) -> None:
    """The observations of many games at once, into ``out`` (one row per game).

    The same vectors as :func:`encode` gives for each game seen from ``sides[i]``.

    Args:
        games: a :class:`bg_env.kernels.games.Games` (the numba fast path).
        sides: ``int64[n]``, the side (0 or 1) each observation is for.
        encoder: ``"tesauro"`` (``out`` float32) or ``"compact"`` (``out`` int8).
        out: ``(n, size)`` array to write.
    """
    games_kernel(encoder)(games.state, games.me, games.opp, sides, out)


def _actor_view(game: Game, actor: int) -> Position:
    return game.position if actor == game.turn else game.position.swap()


def _owner_index(game: Game, actor: int) -> int:
    """0 actor, 1 centred, 2 opponent."""
    if game.cube_owner == -1:
        return 1
    return 0 if game.cube_owner == actor else 2


def _dice_left(game: Game, actor: int) -> list[int]:
    return list(game.remaining) if game.phase == Phase.MOVE and actor == game.turn else []


def encode(game: Game, actor: int, encoder: str = "tesauro") -> np.ndarray:
    """The observation of ``game`` for side ``actor`` under ``encoder``."""
    if _tesauro_kernel is not None and encoder == "tesauro":  # the fast path: one kernel call
        phase = game.phase
        on_turn = actor == game.turn
        if phase == _MOVE:
            if on_turn:
                dice, index, moves = dice_array(game.remaining), 3, game.moves_left / 4
            else:
                dice, index, moves = _NO_DICE, -1, 0.0
        else:
            dice, moves = _NO_DICE, 0.0
            acting = phase != Phase.OVER and game.actor == actor
            index = _PHASE_INDEX.get(phase, -1) if acting else -1
        owner = game.cube_owner
        cube = _LOG2.get(game.cube_value)
        obs = _empty(TESAURO_SIZE, _float32)
        _tesauro_kernel(
            obs, game.board_array(), not on_turn, dice,
            np.log2(game.cube_value) / 6 if cube is None else cube,
            1 if owner == -1 else (0 if owner == actor else 2), index, moves,
        )
        return obs
    dice = _dice_left(game, actor)
    phase = _PHASES.index(game.phase) if game.phase in _PHASES else -1
    acting = game.phase != Phase.OVER and game.actor == actor
    if encoder == "tesauro":
        obs = np.zeros(TESAURO_SIZE, dtype=np.float32)
        pos = game.position
        if _board_kernel is not None:
            _board_kernel(obs, game.board_array(), actor != game.turn)
        elif actor == game.turn:
            _encode_board_into(obs, pos.me, pos.opp)
        else:
            _encode_board_into(obs, pos.opp, pos.me)
        for d in dice:
            obs[196 + d - 1] += 0.25
        log2 = _LOG2.get(game.cube_value)
        obs[202] = np.log2(game.cube_value) / 6 if log2 is None else log2
        obs[203 + _owner_index(game, actor)] = 1
        obs[206] = float(acting and game.phase == Phase.CUBE)
        if acting and phase >= 0:
            obs[207 + phase] = 1
        obs[211] = game.moves_left / 4 if acting and game.phase == Phase.MOVE else 0
        return obs
    if encoder == "compact":
        pos = _actor_view(game, actor)
        obs = np.zeros(COMPACT_SIZE, dtype=np.int8)
        obs[0:26] = pos.me
        obs[26:52] = pos.opp
        for i, d in enumerate(sorted(dice, reverse=True)):
            obs[52 + i] = d
        obs[56] = int(np.log2(game.cube_value))
        owner = _owner_index(game, actor)
        obs[57] = {1: 0, 0: 1, 2: 2}[owner]
        obs[58] = phase if acting else -1
        obs[59] = game.moves_left if acting and game.phase == Phase.MOVE else 0
        return obs
    raise ValueError(f"observation={encoder!r}: expected one of {list(ENCODERS)}")


def observation_space(encoder: str = "tesauro") -> spaces.Box:
    """The Box every observation of ``encoder`` lies in."""
    if encoder == "tesauro":
        return spaces.Box(0.0, _HIGH, shape=(TESAURO_SIZE,), dtype=np.float32)
    if encoder == "compact":
        return spaces.Box(-1, 25, shape=(COMPACT_SIZE,), dtype=np.int8)
    raise ValueError(f"observation={encoder!r}: expected one of {list(ENCODERS)}")
