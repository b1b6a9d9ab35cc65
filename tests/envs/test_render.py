"""Tests of the RGB board renderer (bg_env.envs.render)."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

pytest.importorskip("PIL")

from bg_env.rules.position import Position  # noqa: E402
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


def cube_face(centre) -> tuple[float, float]:
    """A point on the face of the cube centred at ``centre``, left of its number."""
    return centre[0] - 0.35 * board_geometry().cube_size, centre[1]


def _ink(img: np.ndarray, centre) -> np.ndarray:
    """How dark each pixel around ``centre`` is against the cube's face."""
    h, (cx, cy) = int(0.4 * board_geometry().cube_size), (int(c) for c in centre)
    box = img[cy - h : cy + h + 1, cx - h : cx + h + 1].astype(float)
    return np.clip(sum(CUBE_RGB) - box.sum(axis=2), 0, None)


def cube_number(img: np.ndarray, centre) -> int:
    """The number read on the cube centred at ``centre``: the cube value (2..64) whose
    figure, as an owned cube in the column shows it, best matches the ink there (normalised
    correlation, shifted up to 2 pixels either way against sub-pixel placement)."""
    ink, column = _ink(img, centre), board_geometry().cube_centre(0)

    def match(value: int) -> float:
        ref = _ink(render_rgb(Position.start(), cube_value=value, cube_owner=0), column)
        return max(float((ink * np.roll(ref, (dy, dx), (0, 1))).sum())
                   / (np.linalg.norm(ink) * np.linalg.norm(ref) + 1e-9)
                   for dy in range(-2, 3) for dx in range(-2, 3))

    return max((2, 4, 8, 16, 32, 64), key=match)


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


@pytest.mark.parametrize("offered, flip, taker", [(0, 0, 0), (1, 0, 1), (0, 1, 1), (1, 1, 0)])
def test_offered_cube_lies_on_the_takers_half_at_its_value(offered, flip, taker):
    g = board_geometry()  # as GNU Backgammon draws a double: where the taker's dice go
    img = render_rgb(Position.start(), cube_value=8, cube_owner=0, cube_offered=offered,
                     flip=bool(flip))
    assert near(img, cube_face(g.offered_cube_centre(taker)), CUBE_RGB)
    elsewhere = [g.offered_cube_centre(1 - taker)] + [g.cube_centre(o) for o in (None, 0, 1)]
    assert not any(near(img, cube_face(xy), CUBE_RGB) for xy in elsewhere)  # column empty
    assert cube_number(img, g.offered_cube_centre(taker)) == 8


def test_bad_arguments():
    with pytest.raises(ValueError):
        render_rgb(Position.start(), cube_owner=2)
    with pytest.raises(ValueError):
        render_rgb(Position.start(), cube_offered=-1)
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


# ---------------------------------------------------------------------------- the side to act
# A game is drawn from player_0's side, but the frame names the side to act: its name
# carries the status, its dice sit on its side, and the Position ID is from its side.

from bg_env import backgammon_plays_v0, backgammon_v0  # noqa: E402
from bg_env.rules.actions import BEAVER, DOUBLE, TAKE  # noqa: E402
from bg_env.envs.frame import game_frame  # noqa: E402
from bg_env.envs.play_env import BackgammonPlaysEnv  # noqa: E402
from bg_env.envs.render import player_lines  # noqa: E402

ASYMMETRIC = "sGfwATDgc/ABMA"  # after the opening 8/5 6/5: the two sides see different IDs


def _seated(agent: str, render_mode: str, **config):
    env = backgammon_v0.raw_env(render_mode=render_mode, **config)
    env.reset(seed=0, options={"position_id": ASYMMETRIC, "agent": agent, "dice": (4, 2)})
    return env


def _doubled(agent: str, render_mode: str, **config):
    """An env where ``agent``, on roll before rolling, has just doubled."""
    env = backgammon_v0.raw_env(render_mode=render_mode, cube=True, **config)
    env.reset(seed=0, options={"position_id": ASYMMETRIC, "agent": agent})
    env.step(DOUBLE)
    return env


def _text_right_edge(img: np.ndarray, top: bool) -> int:
    """The rightmost pixel of text in the header (top) or footer line, left of the ID."""
    g = board_geometry(img.shape[1], img.shape[0])
    band = img[: int(g.y0)] if top else img[int(g.y1) + 1:]
    band = band[:, : int(0.75 * img.shape[1])]
    light = np.nonzero((band.astype(int).sum(axis=2) > 500).any(axis=0))[0]
    return int(light.max())


@pytest.mark.parametrize("agent, side", [("player_0", 0), ("player_1", 1)])
def test_frame_names_the_side_to_act_from_either_seat(agent, side):
    env = _seated(agent, "rgb_array")
    frame = game_frame(env.game)
    assert (frame.side, frame.name, frame.status) == (side, agent, "on roll")
    assert frame.position_id == env.position_id() == ASYMMETRIC
    assert frame.dice == (4, 2)
    lines = player_lines(frame.board, flip=side == 1)
    assert lines[side].startswith(agent) and lines[side].endswith("- on roll")
    assert "on roll" not in lines[1 - side]
    # the picture: the named line is the header for player_1, the footer for player_0
    img = env.render()
    assert img.shape == (DEFAULT_HEIGHT, DEFAULT_WIDTH, 3)
    named_on_top = _text_right_edge(img, top=True) > _text_right_edge(img, top=False)
    assert named_on_top == (side == 1)
    # the dice: in the roller's colour, on the roller's half of the board
    g = board_geometry()
    colour = (WHITE, BLACK)[side]
    x, y = g.dice_centre(side)
    die = 0.95 * g.checker_d
    left_die = (x - 0.65 * die - 0.3 * die / 2 + 0.1 * die, y - 0.35 * die)  # a corner, no pip
    assert near(img, left_die, colour, tol=10)
    other_x, _ = g.dice_centre(1 - side)
    assert not near(img, (other_x - 0.65 * die - 0.15 * die + 0.1 * die, y - 0.35 * die), colour)
    # the text board says the same: the side to act is X, with its Position ID
    text = _seated(agent, "ansi").render()
    assert f"Position ID: {ASYMMETRIC}" in text
    assert f" {agent} (X) on roll" in text and "X (on roll)" in text and "dice: 4-2" in text


def test_frame_and_text_name_the_taker_while_a_double_waits():
    env = _doubled("player_0", "ansi")
    frame = game_frame(env.game)
    assert (frame.name, frame.status, frame.dice) == ("player_1", "to take", None)
    assert frame.position_id == env.position_id() == Position.from_position_id(ASYMMETRIC).swap().position_id()
    text = env.render()
    assert " player_1 (X) to take" in text and "X (to take)" in text
    assert f"Position ID: {env.position_id()}" in text
    assert player_lines(frame.board, flip=True, status=frame.status)[1].endswith("- to take")


@pytest.mark.parametrize("agent", ["player_0", "player_1"])
def test_an_offered_double_shows_the_doubled_cube_on_the_takers_side(agent):
    env, taker, g = _doubled(agent, "rgb_array"), 1 - int(agent[-1]), board_geometry()
    frame, offered = game_frame(env.game), env.render()
    # the same position without the offer: the centred cube (64) in its column
    plain = render_rgb(frame.board, cube_value=1, flip=taker == 1, status=frame.status,
                       position_id=frame.position_id)
    ys, xs = np.nonzero(np.any(offered != plain, axis=2))
    cubes = [g.cube_centre(None), g.offered_cube_centre(taker)]
    at = [(abs(xs - x) <= g.cube_size / 2 + 2) & (abs(ys - y) <= g.cube_size / 2 + 2)
          for x, y in cubes]
    assert at[0].any() and at[1].any() and (at[0] | at[1]).all()  # only the cube moved
    assert near(offered, cube_face(cubes[1]), CUBE_RGB)  # on the taker's half
    assert cube_number(offered, cubes[1]) == 2 and not near(offered, cube_face(cubes[0]), CUBE_RGB)
    taker_line = f" {frame.name} (X) to take; phase take; cube 1 (centred); {agent} doubles to 2"
    assert taker_line in _doubled(agent, "ansi").render()  # the text board says the same


def test_a_beaver_offers_the_redoubled_cube_to_the_doubler():
    env = _doubled("player_1", "rgb_array", beaver=True)
    env.step(BEAVER)  # player_0 beavers: player_1, who doubled, is to take a 4-cube
    frame = game_frame(env.game)  # (the text board writes frame.offer after the cube)
    assert (frame.name, frame.offer) == ("player_1", "player_0 beavers to 4")
    assert cube_number(env.render(), board_geometry().offered_cube_centre(1)) == 4


@pytest.mark.parametrize("agent", ["player_0", "player_1"])
def test_owned_cube_is_drawn_on_its_owners_side_from_either_seat(agent):
    env = backgammon_v0.raw_env(render_mode="rgb_array", cube=True)
    env.reset(seed=0, options={"position_id": Position.start().position_id(), "agent": agent})
    env.step(DOUBLE)
    env.step(TAKE)  # the taker owns the cube; the doubler is on roll again
    taker = 1 - int(agent[-1])
    frame = game_frame(env.game)
    assert frame.side == 1 - taker and frame.cube_owner == 1  # owned by the other side
    g = board_geometry()
    img = env.render()
    for owner in (None, 0, 1):  # the cube face shows only at the owner's end
        cx, cy = g.cube_centre(owner)
        assert near(img, (cx - 0.35 * g.cube_size, cy), CUBE_RGB) == (owner == taker)


def test_finished_game_names_the_winner():
    env = backgammon_v0.raw_env(render_mode="ansi")
    last = Position.from_layout({1: 1}, {6: 5, 5: 5, 4: 4}).position_id()  # x bears off
    env.reset(seed=0, options={"position_id": last, "agent": "player_1", "dice": (2, 1)})
    while not env.terminations["player_1"]:
        env.step(env.legal_actions()[0])
    frame = game_frame(env.game)
    assert (frame.name, frame.status) == ("player_1", "wins 1 (single)")
    assert " player_1 (X) wins 1 (single)" in env.render() and "X (winner)" in env.render()


def test_text_and_picture_agree_on_who_is_who_through_a_game():
    env = backgammon_v0.raw_env(render_mode="ansi", cube=True)
    env.reset(seed=5)
    rng = np.random.default_rng(5)
    seen = set()
    for _ in range(150):
        if env.terminations[env.agent_selection]:
            break
        frame = game_frame(env.game)
        text = env.render()
        assert frame.name == env.agent_selection
        assert f" {frame.name} (X) {frame.status}" in text
        assert f"Position ID: {env.position_id()}" in text and frame.position_id == env.position_id()
        line = player_lines(frame.board, flip=frame.side == 1, status=frame.status)[frame.side]
        assert line.startswith(frame.name) and line.endswith(f"- {frame.status}")
        seen.add((frame.name, frame.status))
        env.step(int(rng.choice(env.legal_actions())))
    assert {("player_0", "on roll"), ("player_1", "on roll")} <= seen


def test_play_level_views_render_rgb_array_from_the_side_to_act():
    env = BackgammonPlaysEnv(render_mode="rgb_array", learner="player_1")
    env.reset(seed=3)
    assert env.game.actor == 1
    img = env.render()
    assert img.shape == (DEFAULT_HEIGHT, DEFAULT_WIDTH, 3)
    assert np.array_equal(img, game_frame(env.game).image())
    assert _text_right_edge(img, top=True) > _text_right_edge(img, top=False)  # player_1 named
    aec = backgammon_plays_v0.raw_env(render_mode="rgb_array")
    aec.reset(seed=3)
    assert aec.render().shape == (DEFAULT_HEIGHT, DEFAULT_WIDTH, 3)



def test_the_crawford_game_draws_no_cube_and_the_picture_names_the_score():
    from bg_env.game.match import Match

    g = board_geometry()
    centred = (g.cube_centre(None)[0] - 0.35 * g.cube_size, g.cube_centre(None)[1])
    match = Match(3, score=(0, 2), crawford=True)
    game = match.new_game(np.random.default_rng(0))
    frame = game_frame(game, match=match)
    assert (frame.cube_value, frame.title) == (0, "match to 3: 0-2 (Crawford game)")
    img = frame.image()
    assert not near(img, centred, CUBE_RGB)
    assert near(render_rgb(Position.start()), centred, CUBE_RGB)  # a money game's cube
    untitled = frame.image(title=None)
    header = slice(0, int(g.y0))
    assert not np.array_equal(img[header], untitled[header])
    assert np.array_equal(img[int(g.y0):], untitled[int(g.y0):])  # only the title differs
    # the env draws its match's title; the text board says the same
    env = backgammon_v0.raw_env(match_length=3, render_mode="rgb_array")
    env.reset(seed=0)
    bare = game_frame(env.game, tuple(env.possible_agents)).image()
    assert not np.array_equal(env.render()[header], bare[header])
    text = backgammon_v0.raw_env(match_length=3, render_mode="ansi")
    text.reset(seed=0)
    assert "match to 3: 0-0" in text.render()
