"""Draughts players for the ``draughts_v0`` env: random, and alpha-beta over whole moves
(material and the men's advance). Each has ``act(env) -> int``: the next action (hop) of
the agent to act in a raw or wrapped ``draughts_v0`` env; a player that chose a whole
move returns its hops one by one (the env plays the hops every choice shares by itself).
"""

from __future__ import annotations

import math
import random

import numpy as np

from bg_env.draughts import DraughtsPosition, apply_move
from bg_env.draughts.board import KING
from bg_env.draughts.moves import DraughtsMove
from bg_env.kernels.draughts import fast_legal_moves

__all__ = ["DraughtsRandom", "DraughtsAlphaBeta", "evaluate"]

KING_VALUE = 3.0
ADVANCE = 0.02
"""What a man's row forward is worth (a man is 1, a king :data:`KING_VALUE`)."""


class DraughtsRandom:
    """A uniform choice among the legal hops."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)

    def act(self, env) -> int:
        mask = env.observe(env.agent_selection)["action_mask"]
        return int(self.rng.choice(np.flatnonzero(mask)))


def evaluate(pos: DraughtsPosition) -> float:
    """The side to move's material (men 1, kings :data:`KING_VALUE`, each man's rows
    forward :data:`ADVANCE`), less the opponent's; negated in the losing game."""
    g, score = pos.variant.geometry, 0.0
    last = pos.variant.size - 1
    for s in range(1, len(pos.board)):
        p = pos.board[s]
        if not p:
            continue
        value = KING_VALUE if abs(p) == KING else 1.0 + ADVANCE * (
            last - g.row(s) if p > 0 else g.row(s))
        score += value if p * pos.turn > 0 else -value
    return -score if pos.variant.losing else score


class DraughtsAlphaBeta:
    """Negamax with alpha-beta to ``depth`` moves, captures searched first; among moves
    rated alike the choice is random (``seed``)."""

    name = "alphabeta"

    def __init__(self, depth: int = 3, seed: int | None = None) -> None:
        if not isinstance(depth, int) or depth < 1:
            raise ValueError(f"depth={depth!r}: expected a whole number of 1 or more")
        self.depth = depth
        self.rng = random.Random(seed)
        self._plan: tuple[tuple, DraughtsMove] | None = None  # (board, turn), move
        self.nodes = 0
        """Positions searched (all calls)."""

    def act(self, env) -> int:
        raw = env.unwrapped
        game = raw.game
        key = (game.position.board, game.position.turn)
        if self._plan is None or self._plan[0] != key or not game.hops:
            self._plan = (key, self.choose(game.position))
        path, n = self._plan[1].path, len(game.hops)
        start, end = (path[0], path[1]) if n == 0 else (path[n - 1], path[n])
        return raw.action_of(start, end)

    def choose(self, pos: DraughtsPosition) -> DraughtsMove:
        """The move the search rates best."""
        moves = self._ordered(fast_legal_moves(pos))
        best, best_value, alpha = [], -math.inf, -math.inf
        for move in moves:
            # (a window just above the best so far: a move as good is rated exactly)
            value = -self._negamax(apply_move(pos, move), self.depth - 1, -math.inf,
                                   -(alpha - 1e-6))
            if value > best_value + 1e-9:
                best, best_value = [move], value
            elif value > best_value - 1e-9:
                best.append(move)
            alpha = max(alpha, value)
        return self.rng.choice(best)

    def _negamax(self, pos: DraughtsPosition, depth: int, alpha: float, beta: float) -> float:
        self.nodes += 1
        moves = fast_legal_moves(pos)
        if not moves:  # the side to move cannot: it loses (wins the losing game)
            return 1000.0 + depth if pos.variant.losing else -1000.0 - depth
        if depth == 0:
            return evaluate(pos)
        value = -math.inf
        for move in self._ordered(moves):
            value = max(value, -self._negamax(apply_move(pos, move), depth - 1, -beta, -alpha))
            alpha = max(alpha, value)
            if alpha >= beta:
                break
        return value

    @staticmethod
    def _ordered(moves: list[DraughtsMove]) -> list[DraughtsMove]:
        return sorted(moves, key=lambda m: -len(m.captured))
