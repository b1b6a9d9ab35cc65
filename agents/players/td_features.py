"""TD-Gammon's inputs and outputs: the 200 network features of an afterstate, the five
output probabilities seen from either side, their cubeless equity and the outputs of a
finished game. Shared by the agent (:mod:`agents.players.td`), its search
(:mod:`agents.players.td_search`) and training (:mod:`agents.training.train_td`); see :mod:`agents.players.td`
for the network."""

from __future__ import annotations

import numpy as np
import torch

from bg_env.rules.moves import Play
from bg_env.rules.position import Position
from bg_env.envs.observation import encode_boards
from bg_env.envs.candidates import candidate_features, play_features

__all__ = ["N_FEATURES", "features", "features_reference", "plays_features",
           "position_features", "flip_outputs", "numpy_equity", "terminal_target",
           "EQUITY_WEIGHTS"]

N_FEATURES = 200
_PIPS = np.arange(26, dtype=np.float32)


def features_reference(me: np.ndarray, opp: np.ndarray) -> np.ndarray:
    """Network inputs for afterstates given as ``(N, 26)`` count arrays (mover = ``me``);
    the plain numpy definition that :func:`features` computes faster."""
    me = np.asarray(me, dtype=np.float32)
    opp = np.asarray(opp, dtype=np.float32)
    out = np.empty((me.shape[0], N_FEATURES), dtype=np.float32)
    out[:, :196] = encode_boards(me, opp)
    pip_me = me @ _PIPS
    pip_opp = opp @ _PIPS
    out[:, 196] = pip_me / 167.0
    out[:, 197] = pip_opp / 167.0
    out[:, 198] = (pip_opp - pip_me) / 50.0
    back_me = np.where(me[:, 1:] > 0, np.arange(1, 26), 0).max(axis=1)
    back_opp = np.where(opp[:, 1:] > 0, np.arange(1, 26), 0).max(axis=1)
    out[:, 199] = (back_me + back_opp) < 25
    return out


def features(me: np.ndarray, opp: np.ndarray) -> np.ndarray:
    """Network inputs for afterstates given as ``(N, 26)`` count arrays (mover = ``me``):
    the play-level env's candidate rows without their "present" flag (the same numbers
    as :func:`features_reference`)."""
    return candidate_features(me, opp)[:, :N_FEATURES]


def plays_features(plays: list[Play]) -> np.ndarray:
    """:func:`features` of the results of ``plays`` (compiled when numba is present)."""
    return play_features(plays)[:, :N_FEATURES]


def position_features(positions: list[Position]) -> np.ndarray:
    return features(np.array([p.me for p in positions]), np.array([p.opp for p in positions]))


def flip_outputs(v: torch.Tensor) -> torch.Tensor:
    """The same probabilities seen from the other side."""
    return torch.stack([1 - v[..., 0], v[..., 3], v[..., 4], v[..., 1], v[..., 2]], dim=-1)


EQUITY_WEIGHTS = np.array([2.0, 1.0, 1.0, -1.0, -1.0], dtype=np.float32)
"""Equity is ``outputs @ EQUITY_WEIGHTS - 1`` (:func:`numpy_equity`)."""


def numpy_equity(v: np.ndarray) -> np.ndarray:
    """Cubeless money equity of output rows: 2 P(win) - 1 + P(wg) + P(wbg) - P(lg) - P(lbg)."""
    return v @ EQUITY_WEIGHTS - 1.0


def terminal_target(kind: str) -> list[float]:
    """Outputs of a finished game for the winner who just moved."""
    return [1.0, float(kind in ("gammon", "backgammon")), float(kind == "backgammon"), 0.0, 0.0]
