"""Tests of the notebook display: a Position's SVG, and the envs' PNG of the game (the
picture of :mod:`bg_env.envs.render`, from the side to act)."""

from __future__ import annotations

from xml.dom import minidom

import gymnasium
import numpy as np
import pytest

pytest.importorskip("PIL")

from bg_env import backgammon_plays_v0, backgammon_v0  # noqa: E402
from bg_env.rules.position import Position  # noqa: E402
from bg_env.envs.frame import game_frame  # noqa: E402
from bg_env.envs.play_env import BackgammonPlaysEnv  # noqa: E402

ASYMMETRIC = "sGfwATDgc/ABMA"  # after the opening 8/5 6/5: the two sides see different IDs


def _seated(agent: str, render_mode: str | None):
    env = backgammon_v0.raw_env(render_mode=render_mode)
    env.reset(seed=0, options={"position_id": ASYMMETRIC, "agent": agent, "dice": (4, 2)})
    return env


def test_position_svg_draws_the_checkers_where_they_stand():
    from bg_env.rules import svg

    pos = Position.from_layout({6: 7, 25: 1}, {6: 2})  # x: 7 on his 6, 1 on the bar; o: 2 on his 6
    doc = minidom.parseString(pos._repr_svg_())
    circles = [(float(c.getAttribute("cx")), float(c.getAttribute("cy")), c.getAttribute("fill"))
               for c in doc.getElementsByTagName("circle")]
    white = [c for c in circles if c[2] == svg._WHITE]
    black = [c for c in circles if c[2] == svg._BLACK]
    assert len(white) == 5 + 1 and len(black) == 2  # a stack of 7 shows 5 discs and "7"
    x6 = svg._point_x(6)
    assert sum(1 for x, y, _ in white if x == x6 and y > 125) == 5  # bottom right: x's 6
    x19 = svg._point_x(19)  # o's 6-point is x's 19: top right
    assert all(x == x19 and y < 125 for x, y, _ in black)
    texts = [t.firstChild.data for t in doc.getElementsByTagName("text")]
    assert "7" in texts and any(pos.position_id() in t for t in texts)


@pytest.mark.parametrize("pos", [Position.start(), Position.from_position_id(ASYMMETRIC),
                                 Position.from_layout({24: 15}, {24: 15}),  # 3-digit pips
                                 Position.from_layout({25: 15}, {25: 15})],
                         ids=["start", "asymmetric", "all-back", "all-on-the-bar"])
def test_position_svg_lettering_fits_inside_the_picture(pos):
    doc = minidom.parseString(pos._repr_svg_())
    root = doc.documentElement
    width, height = float(root.getAttribute("width")), float(root.getAttribute("height"))
    for t in doc.getElementsByTagName("text"):
        x, y = float(t.getAttribute("x")), float(t.getAttribute("y"))
        size = float(t.getAttribute("font-size"))
        anchor = t.getAttribute("text-anchor") or "start"
        wide = 0.6 * size * len(t.firstChild.data)  # a generous em width for a sans font
        left = x - (wide / 2 if anchor == "middle" else 0)
        assert 0 <= left and left + wide <= width and 0 < y <= height, t.toxml()
    assert any(t.firstChild.data == f"Position ID {pos.position_id()}"
               for t in doc.getElementsByTagName("text"))


def _png_array(data: bytes) -> np.ndarray:
    import io

    from PIL import Image

    assert data.startswith(b"\x89PNG")
    return np.asarray(Image.open(io.BytesIO(data)).convert("RGB"))


def test_envs_display_the_game_in_a_notebook():
    raw = _seated("player_1", None)
    expected = game_frame(raw.game).image()
    assert np.array_equal(_png_array(raw._repr_png_()), expected)
    wrapped = backgammon_v0.env()
    wrapped.reset(seed=1)
    assert _png_array(wrapped._repr_png_()).shape == expected.shape
    genv = gymnasium.make("bg_env/Backgammon-v0").unwrapped
    genv.reset(seed=1)
    assert np.array_equal(_png_array(genv._repr_png_()), game_frame(genv.game_env.game).image())
    plays = BackgammonPlaysEnv()
    plays.reset(seed=1)
    assert np.array_equal(_png_array(plays._repr_png_()), game_frame(plays.game).image())
    aec = backgammon_plays_v0.raw_env()
    aec.reset(seed=1)
    assert np.array_equal(_png_array(aec._repr_png_()), game_frame(aec.game).image())
