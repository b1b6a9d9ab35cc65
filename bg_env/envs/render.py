"""Draw a backgammon board as an RGB image (``render_mode="rgb_array"``).

The board is always drawn from **player_0's side**, so that the frames of a game played
back as a video do not flip at every turn:

* player_0's home board is at the bottom right; he moves counter-clockwise from his
  24-point (top right) round to his 1-point (bottom right) and bears off into the tray
  on the right, bottom half;
* player_1's checkers, home board (player_0's points 19..24) and tray are at the top;
* the point numbers printed on the frame are player_0's numbers (13..24 along the top,
  left to right; 12..1 along the bottom, left to right);
* player_0's checkers on the bar sit in the lower half of the bar, player_1's in the upper;
* the dice are drawn on the right half of the board when player_0 is on roll and on the
  left half (player_1's right hand) when player_1 is, in the roller's checker colour;
* the doubling cube sits in the column left of the board: in the middle when centred
  (showing 64), at the bottom when player_0 owns it, at the top when player_1 does;
* a double waiting for an answer (``cube_offered``) is drawn as GNU Backgammon draws it:
  the cube leaves the column and lies, showing the doubled value, in the middle of the
  taker's right-hand half of the board (where his dice go).

A :class:`~bg_env.rules.position.Position` is seen from the player on roll. Pass
``flip=False`` when that player is player_0 and ``flip=True`` when it is player_1; the
board is drawn from player_0's side either way. The header (player_1) and footer
(player_0) lines name each side; the side the position is seen from carries ``status``
("on roll" by default) and the Position ID printed bottom right is from its side.
:func:`bg_env.envs.frame.game_frame` draws a game with these set from the side to act.

Where each thing sits (:class:`BoardGeometry`, :func:`board_geometry`), the colours and the
lettering are in :mod:`bg_env.envs.render_layout`; the names the tests and the envs use
are importable from here as well. Pillow is imported inside the functions: importing
this module costs nothing.

>>> from bg_env.rules.position import Position
>>> img = render_rgb(Position.start(), dice=(3, 1))
>>> img.shape, img.dtype.name
((480, 640, 3), 'uint8')
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from ..rules.position import Position
from .render_layout import (
    BACKGROUND,
    CUBE_RGB,
    DEFAULT_HEIGHT,
    DEFAULT_WIDTH,
    FELT,
    FRAME_TEXT,
    POINT_A,
    POINT_B,
    STACK,
    TEXT,
    TRAY,
    WOOD,
    WOOD_DARK,
    BoardGeometry,
    Colour,
    board_geometry,
    checker_rgb,
    colour_name,
    contrast,
    draw_text,
    font,
    shade,
)

__all__ = [
    "DEFAULT_WIDTH",
    "DEFAULT_HEIGHT",
    "BoardGeometry",
    "board_geometry",
    "CUBE_RGB",
    "checker_rgb",
    "render_rgb",
    "player_lines",
    "save_png",
    "png_bytes",
]

_SUPERSAMPLE = 2
"""Drawn at this multiple of the output size, then reduced: smooth edges."""


def render_rgb(
    position: Position,
    *,
    dice: Sequence[int] | None = None,
    cube_value: int = 1,
    cube_owner: int | None = None,
    cube_offered: int | None = None,
    flip: bool = False,
    colours: tuple[Colour, Colour] = ("white", "black"),
    names: tuple[str, str] = ("player_0", "player_1"),
    title: str | None = None,
    width: int = DEFAULT_WIDTH,
    height: int = DEFAULT_HEIGHT,
    status: str = "on roll",
    position_id: str | None = None,
) -> np.ndarray:
    """Draw ``position`` as a ``height x width x 3`` ``uint8`` RGB array.

    Args:
        position: the board, seen from the player on roll (``position.me``).
        dice: the roll to show (two values, or none for "not rolled yet").
        cube_value: the doubling cube's value; a centred cube showing 1 is drawn as 64; 0: none.
        cube_owner: ``None`` for a centred cube, ``0`` when the player on roll
            (``position.me``) owns it, ``1`` when his opponent does.
        cube_offered: ``None`` unless a double waits for an answer; then ``0`` when it is
            offered to the player on roll (``position.me``: the board is seen from the
            taker), ``1`` when to his opponent. ``cube_value`` is then the value offered
            (the doubled one), drawn on the taker's half of the board, and ``cube_owner``
            is not drawn.
        flip: ``False`` if the player on roll is player_0, ``True`` if he is player_1.
            The board is drawn from player_0's side either way (see the module doc).
        colours: checker colours of (player_0, player_1): Pillow colour names or RGB.
        names: labels of (player_0, player_1) in the header/footer lines.
        title: optional text at the top right (e.g. "game 3, move 17").
        width, height: image size in pixels.
        status: what the player the position is seen from does ("on roll", "to take"),
            written after his name (see :func:`player_lines`).
        position_id: the Position ID printed bottom right; ``None``: ``position``'s own.
    """
    from PIL import Image, ImageDraw

    if width < 64 or height < 48:
        raise ValueError(f"image size {width}x{height} is too small")
    if cube_owner not in (None, 0, 1):
        raise ValueError(f"cube_owner must be None, 0 or 1, got {cube_owner!r}")
    if cube_offered not in (None, 0, 1):
        raise ValueError(f"cube_offered must be None, 0 or 1, got {cube_offered!r}")

    ss = _SUPERSAMPLE
    g = board_geometry(width * ss, height * ss)
    img = Image.new("RGB", (width * ss, height * ss), BACKGROUND)
    draw = ImageDraw.Draw(img)

    # sides in player_0's frame of reference
    sides = (position.opp, position.me) if flip else (position.me, position.opp)
    on_roll = 1 if flip else 0
    owner = None if cube_owner is None else (on_roll if cube_owner == 0 else 1 - on_roll)
    taker = None if cube_offered is None else (on_roll if cube_offered == 0 else 1 - on_roll)
    fills = (checker_rgb(colours[0]), checker_rgb(colours[1]))

    _draw_frame(draw, g)
    _draw_points(draw, g)
    _draw_checkers(draw, g, sides, fills)
    _draw_borne_off(draw, g, sides, fills)
    if dice:
        _draw_dice(draw, g, dice, on_roll, fills[on_roll])
    _draw_cube(draw, g, cube_value, owner, taker)
    lines = player_lines(position, flip=flip, names=names, colours=colours, status=status)
    _draw_labels(draw, g, lines, fills, title, _shown_id(position, position_id))

    img = img.reduce(ss)  # box filter: smooth edges, flat areas keep their exact colour
    return np.asarray(img, dtype=np.uint8).copy()


def _px(v: float) -> int:
    """A coordinate or a line width rounded to whole pixels."""
    return int(round(v))


def _edge(fill: tuple[int, int, int], lighten: float = 1.6) -> tuple[int, int, int]:
    """The outline of a checker, a borne-off slab or a die of colour ``fill``: darker on a
    light fill, lighter (by ``lighten``) on a dark one."""
    return shade(fill, 0.55) if sum(fill) > 380 else shade(fill, lighten)


def _draw_frame(draw, g: BoardGeometry) -> None:
    """The wooden frame, the felt of both halves, the bar and the borne-off tray (split in
    the middle: player_1's half on top, player_0's below)."""
    u = g.unit
    draw.rectangle([_px(g.x0), _px(g.y0), _px(g.x1), _px(g.y1)], fill=WOOD,
                   outline=WOOD_DARK, width=max(1, _px(2 * u)))
    for a, b in ((g.lx0, g.lx1), (g.rx0, g.rx1)):
        draw.rectangle([_px(a), _px(g.iy0), _px(b), _px(g.iy1)], fill=FELT)
    draw.rectangle([_px(g.lx1), _px(g.iy0), _px(g.rx0), _px(g.iy1)], fill=WOOD_DARK)
    draw.rectangle([_px(g.tx0), _px(g.iy0), _px(g.tx1), _px(g.iy1)], fill=TRAY)
    draw.line([_px(g.tx0), _px(g.ymid), _px(g.tx1), _px(g.ymid)], fill=WOOD,
              width=max(1, _px(3 * u)))


def _draw_points(draw, g: BoardGeometry) -> None:
    """The 24 triangles, alternating in colour, and player_0's point numbers on the frame."""
    u = g.unit
    num_font = font(11 * u)
    for column in range(12):
        cx = g.column_x(column)
        half = g.point_w / 2 - 0.5 * u
        for top in (True, False):
            colour = POINT_A if (column + top) % 2 else POINT_B
            if top:
                base, tip = g.iy0, g.iy0 + g.point_len
            else:
                base, tip = g.iy1, g.iy1 - g.point_len
            draw.polygon([(cx - half, base), (cx + half, base), (cx, tip)], fill=colour,
                         outline=shade(colour, 0.8))
            point = 13 + column if top else 12 - column
            y = (g.y0 + g.iy0) / 2 if top else (g.iy1 + g.y1) / 2
            draw_text(draw, (cx, y), str(point), num_font, FRAME_TEXT)


def _draw_checker(draw, g: BoardGeometry, xy, fill, label: str | None = None) -> None:
    """One checker at ``xy``: a disc with an inner ring, and ``label`` (a stack's count)."""
    u = g.unit
    x, y = xy
    r = g.checker_d / 2 - 0.5 * u
    draw.ellipse([x - r, y - r, x + r, y + r], fill=fill, outline=_edge(fill),
                 width=max(1, _px(1.5 * u)))
    ri = r * 0.72
    ring = shade(fill, 0.85) if sum(fill) > 380 else shade(fill, 1.25)
    draw.ellipse([x - ri, y - ri, x + ri, y + ri], outline=ring, width=max(1, _px(u)))
    if label:
        draw_text(draw, (x, y), label, font(0.5 * g.checker_d), contrast(fill))


def _draw_checkers(draw, g: BoardGeometry, sides, fills) -> None:
    """Each side's checkers on its points and the bar: at most :data:`STACK` discs a
    point, the top one labelled with the count when there are more."""
    for side in (0, 1):
        for point in range(1, 26):
            n = sides[side][point]
            for k in range(min(n, STACK)):
                label = str(n) if (k == STACK - 1 and n > STACK) else None
                _draw_checker(draw, g, g.checker_centre(side, point, k), fills[side], label)


def _draw_borne_off(draw, g: BoardGeometry, sides, fills) -> None:
    """Each side's borne-off checkers as slabs in its half of the tray, and their count."""
    u = g.unit
    tray_font = font(11 * u)
    slab_h = 0.41 * (g.iy1 - g.iy0) / 15
    pad = 4 * u
    for side in (0, 1):
        n = sides[side][0]
        fill = fills[side]
        for i in range(min(n, 15)):
            if side == 0:
                yb = g.iy1 - 1 * u - i * slab_h
                box = [g.tx0 + pad, yb - slab_h + u, g.tx1 - pad, yb]
            else:
                yt = g.iy0 + 1 * u + i * slab_h
                box = [g.tx0 + pad, yt, g.tx1 - pad, yt + slab_h - u]
            draw.rounded_rectangle(box, radius=2 * u, fill=fill, outline=_edge(fill),
                                   width=max(1, _px(u)))
        yl = g.iy1 - 15 * slab_h - 9 * u if side == 0 else g.iy0 + 15 * slab_h + 9 * u
        draw_text(draw, ((g.tx0 + g.tx1) / 2, yl), f"off {n}", tray_font, FRAME_TEXT)


_SPOTS = {
    1: [(0, 0)],
    2: [(-1, -1), (1, 1)],
    3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
    5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
    6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)],
}
"""The pips of each face, in steps of a quarter die from its centre."""


def _draw_dice(draw, g: BoardGeometry, dice: Sequence[int], roller: int, fill) -> None:
    """The ``roller``'s dice, in his checker colour ``fill``, side by side in the middle of
    his right-hand half of the board; a value without a face is written as a number."""
    u = g.unit
    die = 0.95 * g.checker_d
    gap = 0.3 * die
    total = len(dice) * die + (len(dice) - 1) * gap
    centre_x = g.dice_centre(roller)[0]
    pip_col = contrast(fill)
    for i, value in enumerate(dice):
        x = centre_x - total / 2 + i * (die + gap)
        y = g.ymid - die / 2
        draw.rounded_rectangle([x, y, x + die, y + die], radius=die * 0.18, fill=fill,
                               outline=_edge(fill, 1.8), width=max(1, _px(1.5 * u)))
        pr = die * 0.09
        for sx, sy in _SPOTS.get(int(value), []):
            px, py = x + die / 2 + sx * die * 0.27, y + die / 2 + sy * die * 0.27
            draw.ellipse([px - pr, py - pr, px + pr, py + pr], fill=pip_col)
        if int(value) not in _SPOTS:
            draw_text(draw, (x + die / 2, y + die / 2), str(value), font(0.5 * g.checker_d),
                      pip_col)


def _draw_cube(draw, g: BoardGeometry, cube_value: int, owner: int | None,
               taker: int | None = None) -> None:
    """The doubling cube in the column left of the board, at its ``owner``'s end (side 0 or
    1) or in the middle when centred (``None``, a cube of 1 showing 64); none for a
    ``cube_value`` of 0. While a double is offered to ``taker`` (side 0 or 1), the cube
    shows the offered ``cube_value`` on his half of the board instead
    (:meth:`~bg_env.envs.render_layout.BoardGeometry.offered_cube_centre`)."""
    if taker is not None:
        cs, (cx, cy), shown = g.cube_size, g.offered_cube_centre(taker), cube_value
    else:
        cs, (cx, cy) = g.cube_size, g.cube_centre(owner)
        shown = 64 if (owner is None and cube_value == 1) else cube_value
    if not shown:
        return
    draw.rounded_rectangle([cx - cs / 2, cy - cs / 2, cx + cs / 2, cy + cs / 2],
                           radius=cs * 0.15, fill=CUBE_RGB, outline=(30, 30, 30),
                           width=max(1, _px(1.5 * g.unit)))
    draw_text(draw, (cx, cy), str(shown), font((0.5 if shown < 100 else 0.38) * cs),
              (20, 20, 20))


def _shown_id(position: Position, position_id: str | None) -> str | None:
    """The Position ID to print: the one given, else ``position``'s own (none for a board
    that is not 15 checkers a side)."""
    if position_id is not None:
        return position_id
    try:
        return position.position_id()
    except Exception:  # not a 15-checker position
        return None


def _draw_labels(draw, g: BoardGeometry, lines, fills, title: str | None,
                 pid: str | None) -> None:
    """The header (player_1) and footer (player_0) lines, each after a disc of the side's
    colour, the ``title`` top right and the Position ID bottom right."""
    u = g.unit
    info_font = font(13 * u)
    for side, y in ((1, g.y0 / 2), (0, (g.y1 + g.height) / 2)):
        r = 6 * u
        x = g.x0 + r + 2 * u
        draw.ellipse([x - r, y - r, x + r, y + r], fill=fills[side],
                     outline=contrast(BACKGROUND))
        draw_text(draw, (x + r + 6 * u, y), lines[side], info_font, TEXT, anchor="lm")
    if title:
        draw_text(draw, (g.x1, g.y0 / 2), title, info_font, TEXT, anchor="rm")
    if pid:
        draw_text(draw, (g.x1, (g.y1 + g.height) / 2), f"ID {pid}", font(11 * u),
                  (170, 185, 175), anchor="rm")


def player_lines(position: Position, *, flip: bool = False,
                 names: tuple[str, str] = ("player_0", "player_1"),
                 colours: tuple[Colour, Colour] = ("white", "black"),
                 status: str = "on roll") -> tuple[str, str]:
    """The text lines :func:`render_rgb` writes for (player_0, player_1): the footer and
    the header. The side ``position`` is seen from (player_1 when ``flip``) gets
    ``"   - " + status``.

    >>> player_lines(Position.start(), flip=True)[1]
    'player_1 (black)   pips 167   off 0   - on roll'
    """
    sides = (position.opp, position.me) if flip else (position.me, position.opp)
    lines = []
    for side in (0, 1):
        counts = sides[side]
        text = f"{names[side]} ({colour_name(colours[side])})"
        text += f"   pips {sum(p * n for p, n in enumerate(counts))}   off {counts[0]}"
        if counts[25]:
            text += f"   bar {counts[25]}"
        if side == (1 if flip else 0) and status:
            text += f"   - {status}"
        lines.append(text)
    return lines[0], lines[1]


def png_bytes(image: np.ndarray) -> bytes:
    """An array from :func:`render_rgb` encoded as PNG (what a notebook displays)."""
    import io

    from PIL import Image

    out = io.BytesIO()
    Image.fromarray(np.asarray(image, dtype=np.uint8), "RGB").save(out, format="PNG")
    return out.getvalue()


def save_png(path, image: np.ndarray) -> None:
    """Write an array from :func:`render_rgb` to ``path`` as PNG."""
    from PIL import Image

    pic = Image.fromarray(np.asarray(image, dtype=np.uint8), "RGB")
    pic.save(path, format="PNG", optimize=True)
