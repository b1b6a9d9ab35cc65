"""``examples/search.py``: 2-ply expectimax over the shipped TD network and MCTS with
chance nodes on :class:`bg_env.game.search.SearchState`, in small form."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from bg_env.game.game import Rules
from bg_env.game.search import SearchState
from bg_env.rules.position import Position

from helpers import load_script  # noqa: E402

pytest.importorskip("torch")
search = load_script(Path(__file__).resolve().parents[2] / "examples" / "search.py")

LAST_ROLL = Position.from_layout({6: 1, 1: 1}, {1: 1})
"""x wins now with 6/off 1/off; 6/5/off leaves a checker, and o bears off next."""


def _last_roll() -> SearchState:
    return SearchState.from_position_id(LAST_ROLL.position_id(), Rules(cube=False), dice=(6, 1))


def test_mcts_with_chance_nodes_finds_the_winning_play():
    play = search.mcts_play(_last_roll(), 60, np.random.default_rng(0))
    assert play.notation == "6/off 1/off"


def test_expectimax_finds_the_winning_play_and_reads_replies():
    evaluate = search.td_evaluator()
    assert search.expectimax_play(_last_roll(), evaluate, plies=2).notation == "6/off 1/off"
    start = SearchState.from_position_id(Position.start().position_id(), Rules(cube=False),
                                         dice=(3, 1))
    assert search.expectimax_play(start, evaluate, plies=2, prune=3).notation == "8/5 6/5"


def test_the_smoke_run_plays_both():
    out = search.main(["--smoke"])
    assert len(out) == 2 and all(-3 <= v <= 3 for v in out.values())
