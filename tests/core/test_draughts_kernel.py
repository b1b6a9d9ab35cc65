"""The draughts move kernel (:mod:`bg_env.kernels.draughts`) against the reference
(:func:`bg_env.draughts.moves.legal_moves`): the same moves in the same order -- paths,
pieces taken in order, crowning -- in every position of random games of every variant
and in random positions (Hypothesis), sparse and crowded."""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest
from draughts_cases import VARIANTS, game_positions, random_positions
from hypothesis import given, settings
from hypothesis import strategies as st

from bg_env.draughts import DraughtsPosition, get_variant, legal_moves
from bg_env.draughts.moves import capture_sequences
from bg_env.kernels.draughts import fast_legal_moves, legal_move_arrays, variant_table


@pytest.mark.parametrize("variant", VARIANTS)
def test_random_games_match_the_reference(variant):
    positions = captures = 0
    for pos in game_positions(variant, games=8):
        mine = legal_moves(pos)
        assert fast_legal_moves(pos) == mine, pos.fen()
        positions += 1
        captures += bool(mine and mine[0].captured)
    assert positions > 300 and captures > 40


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("most", [9, 20])
@settings(max_examples=120, deadline=None)
@given(data=st.data())
def test_random_positions_match_the_reference(variant, most, data):
    pos = data.draw(random_positions(variant, most))
    assert fast_legal_moves(pos) == legal_moves(pos), pos.fen()


@pytest.mark.parametrize("fen, sequences", [
    # ten white flying kings: 87 moves, more than the kernel's first output rows (64)
    ("W:WK5,K9,K16,K17,K24,K26,K34,K41,K44,K47:B6", 87),
    # a king among thirteen men: 143 capture sequences before the longest are kept
    ("W:WK13:B8,9,10,14,16,17,27,29,30,39,40,41,42", 143),
])
def test_long_move_lists(fen, sequences):
    pos = DraughtsPosition.from_fen(fen, "international")
    found = ([m for s in pos.pieces(pos.turn) for m in capture_sequences(pos, s)]
             or legal_moves(pos))
    assert len(found) == sequences
    assert fast_legal_moves(pos) == legal_moves(pos)


def test_the_arrays_describe_the_moves():
    pos = DraughtsPosition.from_fen("W:W32,K44:B23,28,19,10", "international")
    moves, capturing = legal_move_arrays(np.array(pos.board, np.int64), pos.turn,
                                         variant_table(pos.variant))
    assert capturing and len(moves) == len(legal_moves(pos)) > 1
    for row, move in zip(moves, legal_moves(pos)):
        k = row[-2]
        assert tuple(row[:k]) == move.path
        assert tuple(row[k:2 * k - 1]) == move.captured
        assert row[-1] == move.crowned


def test_tables_follow_the_variant_object_through_copies():
    v = get_variant("turkish")
    assert variant_table(v) is variant_table(v)
    for other in (copy.deepcopy(v), pickle.loads(pickle.dumps(v))):
        pos = DraughtsPosition.start(other)
        assert fast_legal_moves(pos) == legal_moves(pos)
