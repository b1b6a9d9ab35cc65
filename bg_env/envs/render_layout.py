"""Where things sit on the board picture and how they look: geometry, colours, lettering.

:mod:`bg_env.envs.render` draws the picture; this module holds what the drawing and its
tests both need to know without drawing anything: the layout of an image of a given size
(:class:`BoardGeometry`, :func:`board_geometry`: columns, rows, the centre of any checker,
of the cube, of the dice), the palette, and the font and text helpers. Kept apart so that a
test can find the pixel of a checker or of the cube from the geometry alone.

Everything is in player_0's frame of reference, as the picture is (see
:mod:`bg_env.envs.render`): side 0 is player_0, at the bottom; side 1 is player_1, at the
top.

Pillow is imported inside the functions that need it: importing this module costs nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Sequence, Union

__all__ = [
    "DEFAULT_WIDTH",
    "DEFAULT_HEIGHT",
    "STACK",
    "Colour",
    "BoardGeometry",
    "board_geometry",
    "CUBE_RGB",
    "WOOD",
    "WOOD_DARK",
    "FELT",
    "POINT_A",
    "POINT_B",
    "TRAY",
    "BACKGROUND",
    "TEXT",
    "FRAME_TEXT",
    "checker_rgb",
    "colour_name",
    "contrast",
    "shade",
    "font",
    "draw_text",
]

DEFAULT_WIDTH = 640
DEFAULT_HEIGHT = 480

STACK = 5
"""Checkers drawn on a point before the top one shows a count."""

Colour = Union[str, Sequence[int]]
"""A Pillow colour name or an (r, g, b) triple."""

# Softer shades for the two usual colour names; any other Pillow colour name or an
# (r, g, b) triple is used as given.
_NAMED_CHECKERS = {
    "white": (240, 236, 222),
    "black": (38, 38, 42),
}

WOOD = (110, 70, 40)
"""The board's frame."""
WOOD_DARK = (80, 50, 28)
"""The bar and the frame's outline."""
FELT = (214, 190, 140)
"""The playing area under the points."""
POINT_A = (150, 40, 35)
"""Dark red points."""
POINT_B = (245, 232, 200)
"""Ivory points."""
TRAY = (70, 44, 24)
"""The borne-off tray."""
BACKGROUND = (38, 52, 44)
"""Around the board, under the header and footer lines."""
TEXT = (235, 235, 230)
"""The header and footer lines."""
FRAME_TEXT = (245, 225, 180)
"""Point numbers and tray counts, printed on the frame."""
CUBE_RGB = (250, 250, 245)
"""Face colour of the doubling cube."""


def checker_rgb(colour: Colour) -> tuple[int, int, int]:
    """The RGB fill used for checkers of ``colour`` (a Pillow colour name or an RGB
    triple; ``"white"`` and ``"black"`` get slightly softer shades)."""
    if isinstance(colour, str):
        if colour.lower() in _NAMED_CHECKERS:
            return _NAMED_CHECKERS[colour.lower()]
        from PIL import ImageColor

        rgb = ImageColor.getrgb(colour)
        return (int(rgb[0]), int(rgb[1]), int(rgb[2]))
    r, g, b = (int(c) for c in tuple(colour)[:3])
    return (r, g, b)


def colour_name(colour: Colour) -> str:
    """``colour`` as the header and footer lines name it: the name given, or ``#rrggbb``."""
    if isinstance(colour, str):
        return colour
    return "#%02x%02x%02x" % checker_rgb(colour)


def contrast(rgb: tuple[int, int, int]) -> tuple[int, int, int]:
    """Black or white, whichever reads better on ``rgb``."""
    lum = 0.299 * rgb[0] + 0.587 * rgb[1] + 0.114 * rgb[2]
    return (20, 20, 20) if lum > 140 else (245, 245, 245)


def shade(rgb: tuple[int, int, int], f: float) -> tuple[int, int, int]:
    """``rgb`` darkened (``f`` < 1: each channel times ``f``) or lightened (``f`` > 1: that
    far from the colour towards white, ``f`` = 2 being white): edges and rings."""
    if f >= 1:
        return tuple(int(c + (255 - c) * (f - 1)) for c in rgb)  # type: ignore[return-value]
    return tuple(int(c * f) for c in rgb)  # type: ignore[return-value]


@dataclass(frozen=True)
class BoardGeometry:
    """Where things are on an image of ``width`` x ``height`` pixels (floats, pixels).

    Columns, left to right: cube column ``[x0, lx0)``, left half ``[lx0, lx1)`` (6
    points), bar ``[lx1, rx0)``, right half ``[rx0, rx1)`` (6 points), frame, borne-off
    tray ``[tx0, tx1)``, frame up to ``x1``. Rows: header ``[0, y0)``, frame with the
    top point numbers, playing area ``[iy0, iy1)``, frame with the bottom numbers up to
    ``y1``, footer ``[y1, height)``.
    """

    width: float
    height: float
    unit: float  # 1.0 at 640x480
    x0: float
    x1: float
    y0: float
    y1: float
    lx0: float
    lx1: float
    rx0: float
    rx1: float
    tx0: float
    tx1: float
    iy0: float
    iy1: float
    point_w: float
    checker_d: float

    @property
    def ymid(self) -> float:
        return (self.iy0 + self.iy1) / 2

    @property
    def point_len(self) -> float:
        """Length of a point's triangle."""
        return self.checker_d * STACK

    def column_x(self, column: int) -> float:
        """Centre x of point column 0..11, left to right."""
        if column < 6:
            return self.lx0 + (column + 0.5) * self.point_w
        return self.rx0 + (column - 6 + 0.5) * self.point_w

    def point_column(self, point: int) -> tuple[int, bool]:
        """(column, is_top) of player_0's ``point`` (1..24)."""
        if not 1 <= point <= 24:
            raise ValueError(f"point {point} is not 1..24")
        if point >= 13:
            return point - 13, True
        return 12 - point, False

    def checker_centre(self, side: int, point: int, k: int = 0) -> tuple[float, float]:
        """Centre of the ``k``-th checker (0 = the one nearest the edge, at most 4) of
        ``side`` (0 = player_0, 1 = player_1) on that side's own ``point`` (1..24, or
        25 for the bar)."""
        k = min(max(k, 0), STACK - 1)
        d = self.checker_d
        if point == 25:
            x = (self.lx1 + self.rx0) / 2
            offset = 0.8 * d + k * d
            return x, (self.ymid + offset if side == 0 else self.ymid - offset)
        p0 = point if side == 0 else 25 - point
        column, top = self.point_column(p0)
        x = self.column_x(column)
        if top:
            return x, self.iy0 + d / 2 + k * d
        return x, self.iy1 - d / 2 - k * d

    @property
    def cube_size(self) -> float:
        return min(0.8 * (self.lx0 - self.x0), 1.1 * self.checker_d)

    def cube_centre(self, owner: int | None) -> tuple[float, float]:
        """Centre of the doubling cube: ``owner`` None (centred), 0 (player_0, at the
        bottom) or 1 (player_1, at the top)."""
        cx = (self.x0 + self.lx0) / 2
        if owner is None:
            return cx, self.ymid
        if owner == 0:
            return cx, self.iy1 - self.cube_size / 2 - 2 * self.unit
        return cx, self.iy0 + self.cube_size / 2 + 2 * self.unit

    def offered_cube_centre(self, taker: int) -> tuple[float, float]:
        """Centre of a doubling cube on offer, waiting for ``taker``'s answer (0 = player_0,
        1 = player_1): off the cube column, in the middle of the taker's right-hand half of
        the board, where his dice go, as GNU Backgammon draws a double."""
        return self.dice_centre(taker)

    def dice_centre(self, roller: int) -> tuple[float, float]:
        """Centre of the dice when ``roller`` (0 = player_0, 1 = player_1) is on roll."""
        if roller == 0:
            return (self.rx0 + self.rx1) / 2, self.ymid
        return (self.lx0 + self.lx1) / 2, self.ymid


def board_geometry(width: float = DEFAULT_WIDTH, height: float = DEFAULT_HEIGHT) -> BoardGeometry:
    """The layout :func:`~bg_env.envs.render.render_rgb` uses for an image of this size."""
    W, H = float(width), float(height)
    unit = min(W / 640, H / 480)
    header = 0.06 * H
    x0, x1 = 0.01 * W, 0.99 * W
    y0, y1 = header, H - header
    frame_tb = 0.04 * H
    cube_col = 0.075 * W
    side_frame = 0.0125 * W
    tray_w = 0.07 * W
    bar_w = 0.06 * W
    point_w = (x1 - x0 - cube_col - bar_w - 2 * side_frame - tray_w) / 12
    lx0 = x0 + cube_col
    lx1 = lx0 + 6 * point_w
    rx0 = lx1 + bar_w
    rx1 = rx0 + 6 * point_w
    tx0 = rx1 + side_frame
    tx1 = tx0 + tray_w
    iy0, iy1 = y0 + frame_tb, y1 - frame_tb
    checker_d = min(0.92 * point_w, 0.41 * (iy1 - iy0) / STACK, 0.92 * bar_w)
    return BoardGeometry(
        width=W, height=H, unit=unit, x0=x0, x1=x1, y0=y0, y1=y1,
        lx0=lx0, lx1=lx1, rx0=rx0, rx1=rx1, tx0=tx0, tx1=tx1, iy0=iy0, iy1=iy1,
        point_w=point_w, checker_d=checker_d,
    )


def font(size: float):
    """Pillow's default font at ``size`` pixels (at least 6), cached."""
    return _font_px(max(6, int(round(size))))


@lru_cache(maxsize=32)
def _font_px(size: int):
    from PIL import ImageFont

    try:
        return ImageFont.load_default(size=size)
    except Exception:  # Pillow < 10.1 or no FreeType: the fixed bitmap font
        return ImageFont.load_default()


def draw_text(draw, xy, text: str, face, fill, anchor: str = "mm", stroke=None,
              stroke_width=0) -> None:
    """Draw ``text`` in the font ``face`` with its ``anchor`` (l/m/r + t/m/b) at ``xy``;
    works for bitmap fonts, which have no anchor support."""
    kw = {"font": face}
    if stroke_width:
        kw.update(stroke_width=stroke_width, stroke_fill=stroke)
    left, top, right, bottom = draw.textbbox((0, 0), text, **kw)
    w, h = right - left, bottom - top
    x, y = xy
    x -= {"l": 0, "m": w / 2, "r": w}[anchor[0]] + left
    y -= {"t": 0, "m": h / 2, "b": h}[anchor[1]] + top
    draw.text((x, y), text, fill=fill, **kw)
