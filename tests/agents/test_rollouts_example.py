"""``examples/rollouts.py``: batched random rollouts from one position through the vector
env, in small form."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from bg_env.rules.position import Position

from helpers import load_script  # noqa: E402

pytest.importorskip("numba")
rollouts = load_script(Path(__file__).resolve().parents[2] / "examples" / "rollouts.py")

START = "4HPwATDgc/ABMA"


def test_a_position_won_at_once_is_counted_from_the_reset():
    """player_0 bears off its last checker with any roll while two of player_1's are in
    its home board: every game a backgammon, reported by the reset (no decision made)."""
    last = Position(me=(14, 0, 1) + (0,) * 23, opp=Position.start().opp)
    out = rollouts.rollouts(last.position_id(), 16, seed=0)
    assert out["points"].tolist() == [3.0] * 16
    assert out["outcomes"] == {"win backgammon": 16} and out["steps"] == 0


def test_rollouts_from_the_start_count_every_game_once_and_repeat_with_their_seed():
    a = rollouts.rollouts(START, 256, seed=3, dice=(3, 1))
    b = rollouts.rollouts(START, 256, seed=3, dice=(3, 1))
    np.testing.assert_array_equal(a["points"], b["points"])
    assert a["outcomes"] == b["outcomes"] and sum(a["outcomes"].values()) == 256
    assert set(np.abs(a["points"])) <= {1.0, 2.0, 3.0}
    assert abs(a["points"].mean()) < 0.5  # random against random: near even
    wins = sum(n for name, n in a["outcomes"].items() if name.startswith("win"))
    assert wins == int((a["points"] > 0).sum())
    c = rollouts.rollouts(START, 256, seed=4, dice=(3, 1))
    assert not np.array_equal(a["points"], c["points"])


def test_random_actions_are_legal_and_cover_every_legal_action():
    rng = np.random.default_rng(0)
    masks = np.zeros((2, 156), dtype=bool)
    masks[0, [3, 40, 155]] = True
    masks[1, 7] = True
    seen = {tuple(rollouts.random_actions(masks, rng)) for _ in range(200)}
    assert {a for a, _ in seen} == {3, 40, 155} and {b for _, b in seen} == {7}


def test_the_smoke_run(capsys):
    out = rollouts.main(["--smoke", "--dice", "6", "5"])
    assert len(out["points"]) == 64
    assert "64 random games from 4HPwATDgc/ABMA (player_0 on roll, dice (6, 5))" in (
        capsys.readouterr().out)
