"""In a notebook, what users hold draws the board: a vector env shows its first game, and
the wrappers of gymnasium.make, gymnasium.make_vec and make_vec_env show the env inside
(bg_env.envs.notebook registers them with IPython's PNG formatter)."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest

pytest.importorskip("PIL")

import bg_env  # noqa: E402
from bg_env.envs.frame import game_frame  # noqa: E402
from bg_env.envs.notebook import WRAPPERS, inner_png, register_notebook_display  # noqa: E402


def _is_png(data) -> bool:
    return isinstance(data, bytes) and data.startswith(b"\x89PNG")


def test_vector_envs_draw_their_first_game():
    venv = gymnasium.make_vec("bg_env/Backgammon-v0", num_envs=3,
                              vectorization_mode="vector_entry_point")
    venv.reset(seed=0)
    venv.step(np.array([np.flatnonzero(m)[0] for m in venv.action_masks()]))
    inner = venv.unwrapped
    expected = game_frame(inner.batch.game(0)).png()
    assert inner._repr_png_() == expected
    sb3 = bg_env.make_vec_env(2, seed=0)
    sb3.reset()
    assert _is_png(sb3.unwrapped._repr_png_())
    sync = gymnasium.make_vec("bg_env/BackgammonPlays-v0", num_envs=2)
    sync.reset(seed=0)
    assert _is_png(sync.unwrapped._repr_png_())


def test_a_game_of_the_batch_is_a_copy_and_bad_indices_are_named():
    venv = bg_env.make_vec_env(2, seed=0, monitor=False)
    venv.reset()
    before = venv.games.me.copy()
    game = venv.batch.game(1)
    assert game.position.me == tuple(venv.games.me[1]) or game.position.opp == tuple(
        venv.games.me[1])
    with pytest.raises(IndexError, match="game 2: expected 0..1"):
        venv.batch.game(2)
    assert np.array_equal(venv.games.me, before)


def test_wrappers_draw_the_env_inside():
    env = gymnasium.make("bg_env/Backgammon-v0")
    env.reset(seed=1)
    assert inner_png(env) == env.unwrapped._repr_png_()
    assert inner_png(bg_env.make_vec_env(2, seed=0)) is not None  # SB3's VecMonitor
    assert inner_png(gymnasium.make("CartPole-v1")) is None  # another env: left to IPython
    assert inner_png(object()) is None


class _Formatter:
    def __init__(self):
        self.registered = {}

    def for_type_by_name(self, module, name, func):
        self.registered[(module, name)] = func


class _Shell:
    def __init__(self):
        self.display_formatter = type("D", (), {})()
        self.display_formatter.formatters = {"image/png": _Formatter()}


def test_registration_covers_every_wrapper_kind():
    shell = _Shell()
    assert register_notebook_display(shell) is True
    registered = shell.display_formatter.formatters["image/png"].registered
    assert set(registered) == set(WRAPPERS) and set(registered.values()) == {inner_png}
    for module, name in WRAPPERS:  # the names are those of the classes users get
        mod = __import__(module, fromlist=[name])
        assert isinstance(getattr(mod, name), type)


def test_outside_ipython_nothing_is_registered(monkeypatch):
    import sys

    monkeypatch.delitem(sys.modules, "IPython", raising=False)
    assert register_notebook_display() is False
