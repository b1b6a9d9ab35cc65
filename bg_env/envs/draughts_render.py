"""The picture of a draughts position (``render_mode="rgb_array"``): the board drawn from
white's side (the frames of a game do not turn as the move passes), light and dark
squares, white and black pieces as discs, kings with a gold ring; in the middle of a
capture the moving piece where it has got to (its start empty) and the pieces it has
taken so far crossed in red (they leave the board when the move ends).
"""

from __future__ import annotations

import numpy as np

from ..draughts.board import KING
from ..draughts.variants import DraughtsVariant

__all__ = ["draughts_rgb", "CELL"]

CELL = 48
"""Pixels on a square's side."""
LIGHT, DARK = (238, 222, 190), (150, 105, 70)
PIECES = {1: ((244, 242, 236), (90, 90, 90)), -1: ((35, 32, 30), (200, 200, 200))}
"""Fill and outline of white's (1) and black's (-1) pieces."""
GOLD, RED = (212, 175, 55), (210, 40, 40)


def draughts_rgb(variant: DraughtsVariant, board, taken: tuple[int, ...] = (),
                 cell: int = CELL) -> np.ndarray:
    """A board of ``variant`` (``board[s]`` the piece on square ``s``: a position's, or
    :meth:`DraughtsGame.board_now <bg_env.draughts.game.DraughtsGame.board_now>` in the
    middle of a move) as a ``uint8`` RGB array, ``size * cell`` pixels a side; ``taken``:
    the pieces the move being played has taken so far.

    Raises:
        ValueError: ``cell`` below 8 pixels.
    """
    from PIL import Image, ImageDraw

    if not isinstance(cell, int) or cell < 8:
        raise ValueError(f"cell={cell!r}: expected a whole number of pixels, 8 or more")
    v, g = variant, variant.geometry
    img = Image.new("RGB", (v.size * cell, v.size * cell), LIGHT)
    draw = ImageDraw.Draw(img)
    for s in range(1, v.squares + 1):
        r, c = g.cells[s]
        box = (c * cell, r * cell, (c + 1) * cell - 1, (r + 1) * cell - 1)
        if not v.orthogonal or (r + c) % 2 == 1:
            draw.rectangle(box, fill=DARK)
        piece = board[s]
        if piece:
            _draw_piece(draw, box, piece, cell)
        if s in taken:
            _cross(draw, box, cell)
    return np.asarray(img, dtype=np.uint8).copy()


def _draw_piece(draw, box, piece: int, cell: int) -> None:
    fill, edge = PIECES[1 if piece > 0 else -1]
    pad = cell // 8
    disc = (box[0] + pad, box[1] + pad, box[2] - pad, box[3] - pad)
    draw.ellipse(disc, fill=fill, outline=edge, width=max(1, cell // 24))
    if abs(piece) == KING:
        inner = cell // 4
        ring = (box[0] + inner, box[1] + inner, box[2] - inner, box[3] - inner)
        draw.ellipse(ring, outline=GOLD, width=max(2, cell // 12))


def _cross(draw, box, cell: int) -> None:
    width = max(2, cell // 12)
    draw.line((box[0], box[1], box[2], box[3]), fill=RED, width=width)
    draw.line((box[0], box[3], box[2], box[1]), fill=RED, width=width)
