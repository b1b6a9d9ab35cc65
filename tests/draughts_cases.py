"""Draughts positions for the rules tests (``test_draughts_referee.py``,
``test_draughts_kernel.py``): random boards of a variant (Hypothesis) and the positions of
random games."""

from __future__ import annotations

import random

from hypothesis import strategies as st

from bg_env.draughts import DraughtsPosition, apply_move, get_variant, legal_moves
from bg_env.draughts.board import KING, MAN, crown_row

VARIANTS = ["international", "brazilian", "russian", "english", "losing", "italian",
            "turkish"]


@st.composite
def random_positions(draw, variant: str, most: int = 9):
    """A board with 1 to ``most`` pieces a side anywhere (kings more than half the time:
    men never stand on their crown row), either side to move."""
    v = get_variant(variant)
    g = v.geometry
    squares = draw(st.lists(st.integers(1, v.squares), min_size=2, max_size=2 * most,
                            unique=True))
    board = [0] * (v.squares + 1)
    for k, s in enumerate(squares):
        colour = 1 if k % 2 == 0 else -1
        king = draw(st.booleans()) or g.row(s) == crown_row(v, colour)
        board[s] = colour * (KING if king else MAN)
    return DraughtsPosition(v, tuple(board), draw(st.sampled_from((1, -1))))


def game_positions(variant: str, games: int, plies: int = 200, seed=None):
    """The positions of ``games`` random games of ``variant`` (up to ``plies`` moves
    each), every one before its move."""
    rnd = random.Random(variant if seed is None else seed)
    for _ in range(games):
        pos = DraughtsPosition.start(variant)
        for _ in range(plies):
            yield pos
            moves = legal_moves(pos)
            if not moves:
                break
            pos = apply_move(pos, rnd.choice(moves))
