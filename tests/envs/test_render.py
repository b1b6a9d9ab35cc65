"""Tests of the RGB board renderer (bg_env.envs.render)."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

pytest.importorskip("PIL")

from bg_env.core.position import Position  # noqa: E402
from bg_env.envs.render import (  # noqa: E402
    CUBE_RGB,
    DEFAULT_HEIGHT,
    DEFAULT_WIDTH,
    board_geometry,
    checker_rgb,
    render_rgb,
    save_png,
)

WHITE = checker_rgb("white")
BLACK = checker_rgb("black")


def pixel(img: np.ndarray, xy) -> np.ndarray:
    x, y = xy
    return img[int(round(y)), int(round(x))].astype(int)


def near(img: np.ndarray, xy, rgb, tol: int = 6) -> bool:
    return bool(np.all(np.abs(pixel(img, xy) - np.array(rgb)) <= tol))


def board_rows(img: np.ndarray) -> np.ndarray:
    """The image without the header and footer text lines."""
    g = board_geometry(img.shape[1], img.shape[0])
    return img[int(g.y0) + 1 : int(g.y1) - 1]


# ---------------------------------------------------------------------------- shape


def test_shape_and_dtype_fixed():
    for pos, kw in [
        (Position.start(), {}),
        (Position.start(), {"dice": (3, 1), "title": "a title"}),
        (
            Position.from_layout({25: 3, 6: 12}, {1: 1}),
            {"dice": (6, 6), "cube_value": 8, "cube_owner": 1},
        ),
        (Position.from_layout({}, {1: 15}), {"flip": True}),  # game over
    ]:
        img = render_rgb(pos, **kw)
        assert img.shape == (DEFAULT_HEIGHT, DEFAULT_WIDTH, 3)
        assert img.dtype == np.uint8


def test_custom_size():
    img = render_rgb(Position.start(), dice=(5, 2), width=800, height=600)
    assert img.shape == (600, 800, 3)
    small = render_rgb(Position.start(), width=320, height=240)
    assert small.shape == (240, 320, 3)


def test_deterministic():
    a = render_rgb(Position.start(), dice=(3, 1))
    b = render_rgb(Position.start(), dice=(3, 1))
    assert np.array_equal(a, b)


def test_different_positions_give_different_images():
    start = Position.start()
    after = Position.from_layout({24: 2, 13: 5, 8: 2, 6: 4, 5: 2}, {24: 2, 13: 5, 8: 3, 6: 5})
    images = [
        render_rgb(start),
        render_rgb(after),
        render_rgb(start, dice=(3, 1)),
        render_rgb(start, dice=(6, 5)),
        render_rgb(start, cube_value=2, cube_owner=0),
        render_rgb(start, flip=True),
    ]
    for i in range(len(images)):
        for j in range(i + 1, len(images)):
            assert not np.array_equal(images[i], images[j]), (i, j)


# ---------------------------------------------------------------------------- checkers


def test_checker_colours_at_expected_points():
    # the player on roll (player_0, white) on his 6-point; the opponent (black) on his own
    # 6-point, which is player_0's 19-point
    pos = Position.from_layout({6: 2}, {6: 1})
    img = render_rgb(pos)
    g = board_geometry()
    assert near(img, g.checker_centre(0, 6, 0), WHITE)
    assert near(img, g.checker_centre(0, 6, 1), WHITE)
    assert not near(img, g.checker_centre(0, 6, 2), WHITE)  # only two there
    assert near(img, g.checker_centre(1, 6, 0), BLACK)
    assert not near(img, g.checker_centre(1, 6, 1), BLACK)
    # empty points stay empty
    for point in (1, 12, 13, 24):
        xy = g.checker_centre(0, point, 0)
        assert not near(img, xy, WHITE) and not near(img, xy, BLACK)


def test_player_0_home_is_bottom_right():
    g = board_geometry()
    x1, y1 = g.checker_centre(0, 1)
    x6, _ = g.checker_centre(0, 6)
    x12, y12 = g.checker_centre(0, 12)
    x13, y13 = g.checker_centre(0, 13)
    x24, y24 = g.checker_centre(0, 24)
    assert x1 > DEFAULT_WIDTH / 2 and y1 > DEFAULT_HEIGHT / 2
    assert x12 < x6 < x1 and y12 == y1
    assert x13 == x12 and y13 < DEFAULT_HEIGHT / 2
    assert x24 == x1 and y24 == y13
    # player_1's point q is player_0's point 25 - q
    assert g.checker_centre(1, 1) == g.checker_centre(0, 24)


def test_custom_colours():
    pos = Position.from_layout({8: 1}, {8: 1})
    img = render_rgb(pos, colours=("red", (0, 0, 255)))
    g = board_geometry()
    assert near(img, g.checker_centre(0, 8), (255, 0, 0))
    assert near(img, g.checker_centre(1, 8), (0, 0, 255))


def test_tall_stack_gets_a_count_label():
    g = board_geometry()
    five = render_rgb(Position.from_layout({6: 5}, {}))
    seven = render_rgb(Position.from_layout({6: 7}, {}))
    # the same five discs, but the top one carries the label "7"
    for k in range(4):
        assert near(seven, g.checker_centre(0, 6, k), WHITE)
    x, y = g.checker_centre(0, 6, 4)
    r = int(g.checker_d * 0.2)  # inside the inner ring
    top5 = five[int(y) - r : int(y) + r, int(x) - r : int(x) + r]
    top7 = seven[int(y) - r : int(y) + r, int(x) - r : int(x) + r]
    assert np.all(np.abs(top5.astype(int) - np.array(WHITE)) <= 6)
    assert (np.abs(top7.astype(int) - np.array(WHITE)).sum(axis=2) > 200).any()  # dark text


def test_bar_checkers():
    pos = Position.from_layout({25: 2, 6: 1}, {25: 1, 6: 1})
    img = render_rgb(pos)
    g = board_geometry()
    assert near(img, g.checker_centre(0, 25, 0), WHITE)
    assert near(img, g.checker_centre(0, 25, 1), WHITE)
    assert not near(img, g.checker_centre(0, 25, 2), WHITE)
    assert near(img, g.checker_centre(1, 25, 0), BLACK)
    assert g.checker_centre(0, 25)[1] > g.ymid > g.checker_centre(1, 25)[1]


def test_borne_off_checkers_change_the_tray():
    g = board_geometry()
    none_off = render_rgb(Position.from_layout({1: 15}, {1: 15}))
    some_off = render_rgb(Position.from_layout({1: 10}, {1: 15}))
    diff = np.any(none_off != some_off, axis=2)
    ys, xs = np.nonzero(diff)
    # only the footer text (pips, off) and player_0's (lower) tray and point 1 change
    board = (ys > g.y0) & (ys < g.y1)
    assert xs[board].min() >= g.rx0
    tray = board & (xs >= g.tx0)
    assert tray.any() and ys[tray].min() > g.ymid


# ---------------------------------------------------------------------------- flip


def test_flip_draws_the_board_from_player_0s_side():
    pos = Position.from_layout({6: 3, 13: 2, 25: 1}, {1: 2, 20: 1})
    # the same board, handed over from either side, draws the same checkers
    a = render_rgb(pos, flip=True)
    b = render_rgb(pos.swap(), flip=False)
    assert np.array_equal(board_rows(a), board_rows(b))
    assert not np.array_equal(a, b)  # the "on roll" line moves


def test_flip_mirrors_the_board():
    pos = Position.from_layout({6: 3, 13: 2, 25: 1}, {1: 2, 20: 1})
    g = board_geometry()
    plain = render_rgb(pos, flip=False)
    flipped = render_rgb(pos, flip=True)
    assert not np.array_equal(board_rows(plain), board_rows(flipped))
    for side_point in [(6, 0), (6, 2), (13, 0), (13, 1), (25, 0)]:
        point, k = side_point
        # the player on roll: player_0 (white) unflipped, player_1 (black) flipped
        xy0 = g.checker_centre(0, point, k)
        xy1 = g.checker_centre(1, point, k)
        assert near(plain, xy0, WHITE) and near(flipped, xy1, BLACK)
        # player_1's checker on his point q is the mirror image, top to bottom
        assert xy0[0] == pytest.approx(xy1[0])
        assert xy0[1] - g.ymid == pytest.approx(g.ymid - xy1[1])
    for point, k in [(1, 0), (1, 1), (20, 0)]:
        assert near(plain, g.checker_centre(1, point, k), BLACK)
        assert near(flipped, g.checker_centre(0, point, k), WHITE)


def test_dice_sit_on_the_rollers_right():
    g = board_geometry()
    pos = Position.start()
    for flip, roller in ((False, 0), (True, 1)):
        bare = render_rgb(pos, flip=flip)
        rolled = render_rgb(pos, dice=(4, 2), flip=flip)
        ys, xs = np.nonzero(np.any(board_rows(bare) != board_rows(rolled), axis=2))
        assert len(xs)
        if roller == 0:
            assert xs.min() >= g.rx0 and xs.max() < g.rx1
        else:
            assert xs.min() >= g.lx0 and xs.max() < g.lx1
        _, cy = g.dice_centre(roller)
        assert abs(ys.mean() + g.y0 - cy) < 5


# ---------------------------------------------------------------------------- cube


@pytest.mark.parametrize(
    "cube_owner, flip, drawn_owner",
    [(None, False, None), (0, False, 0), (1, False, 1), (0, True, 1), (1, True, 0)],
)
def test_cube_position(cube_owner, flip, drawn_owner):
    g = board_geometry()
    img = render_rgb(Position.start(), cube_value=2 if cube_owner is not None else 1,
                     cube_owner=cube_owner, flip=flip)
    cx, cy = g.cube_centre(drawn_owner)
    edge = (cx - 0.35 * g.cube_size, cy)  # on the cube's face, left of the number
    assert near(img, edge, CUBE_RGB)
    for other in {None, 0, 1} - {drawn_owner}:
        ox, oy = g.cube_centre(other)
        assert not near(img, (ox - 0.35 * g.cube_size, oy), CUBE_RGB)


def test_cube_value_shown():
    a = render_rgb(Position.start(), cube_value=2, cube_owner=0)
    b = render_rgb(Position.start(), cube_value=4, cube_owner=0)
    assert not np.array_equal(a, b)


def test_bad_arguments():
    with pytest.raises(ValueError):
        render_rgb(Position.start(), cube_owner=2)
    with pytest.raises(ValueError):
        render_rgb(Position.start(), width=10, height=10)


# ---------------------------------------------------------------------------- files


def test_png_round_trip(tmp_path):
    from PIL import Image

    img = render_rgb(Position.start(), dice=(3, 1), title="start")
    path = tmp_path / "board.png"
    save_png(path, img)
    assert path.stat().st_size > 1000
    with Image.open(path) as im:
        assert im.format == "PNG" and im.size == (DEFAULT_WIDTH, DEFAULT_HEIGHT)
        assert np.array_equal(np.asarray(im.convert("RGB")), img)


def test_pillow_is_imported_lazily():
    code = "import sys, bg_env.envs.render; print('PIL' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
