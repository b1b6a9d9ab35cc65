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

from ..core.game import Game, Phase
from ..core.position import Position

__all__ = [
    "ENCODERS",
    "TESAURO_SIZE",
    "COMPACT_SIZE",
    "BOARD_SIZE",
    "encode",
    "observation_space",
    "encode_board",
    "encode_boards",
]

TESAURO_SIZE = 212
BOARD_SIZE = 196
COMPACT_SIZE = 60
ENCODERS = ("tesauro", "compact")
_PHASES = (Phase.CUBE, Phase.TAKE, Phase.BEAVER_TAKE, Phase.MOVE)
_HIGH = 8.0  # (15 - 3) / 2 = 6 and 15 / 2 = 7.5 are the largest values produced


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
    return encode_boards(np.array([pos.me]), np.array([pos.opp]))[0]


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
    pos = _actor_view(game, actor)
    dice = _dice_left(game, actor)
    phase = _PHASES.index(game.phase) if game.phase in _PHASES else -1
    acting = game.phase != Phase.OVER and game.actor == actor
    if encoder == "tesauro":
        obs = np.zeros(TESAURO_SIZE, dtype=np.float32)
        obs[:BOARD_SIZE] = encode_board(pos)
        for d in dice:
            obs[196 + d - 1] += 0.25
        obs[202] = np.log2(game.cube_value) / 6
        obs[203 + _owner_index(game, actor)] = 1
        obs[206] = float(acting and game.phase == Phase.CUBE)
        if acting and phase >= 0:
            obs[207 + phase] = 1
        obs[211] = game.moves_left / 4 if acting and game.phase == Phase.MOVE else 0
        return obs
    if encoder == "compact":
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
