"""The draughts rules against ``pydraughts`` (the ``draughts`` extra, GPL-3.0: the referee
of the tests, never imported by bg_env): the same legal moves -- start square, end square
and the pieces taken -- in every position of random games of every variant, played in
lockstep, and in random positions (Hypothesis) with kings anywhere."""

from __future__ import annotations

import random

import pytest
from draughts_cases import random_positions
from hypothesis import given, settings
from hypothesis import strategies as st

from bg_env.draughts import DraughtsPosition, apply_move, legal_moves
from bg_env.draughts.board import KING

draughts = pytest.importorskip("draughts")

THEIR_NAMES = {"international": "standard", "brazilian": "brazilian", "russian": "russian",
               "english": "english", "losing": "antidraughts", "italian": "italian",
               "turkish": "turkish"}


def their_square(variant: str):
    """pydraughts' square number -> ours (and back: each map is its own inverse). Its
    Russian, Brazilian and Turkish moves number from white's side (1 = a1); the others as
    PDN does, as ours."""
    if variant in ("russian", "brazilian"):
        return lambda s: (7 - (s - 1) // 4) * 4 + (s - 1) % 4 + 1
    if variant == "turkish":
        return lambda s: (7 - (s - 1) // 8) * 8 + (s - 1) % 8 + 1
    return lambda s: s


def their_fen(pos: DraughtsPosition) -> str:
    """``pos`` as pydraughts reads a FEN (Turkish: its squares from white's side)."""
    if pos.variant.name != "turkish":
        return pos.fen()
    ours, board = their_square("turkish"), [0] * len(pos.board)
    for s in range(1, len(board)):
        board[ours(s)] = pos.board[s]
    return DraughtsPosition(pos.variant, tuple(board), pos.turn).fen()


def referee_defect(pos: DraughtsPosition, key: tuple) -> bool:
    """pydraughts 0.6.7 lets a Turkish king slide through pieces (its own too) on a move
    that takes nothing; the seed's rule: "queens move as many *empty* squares as they
    like". Those moves are left out of the comparison."""
    start, end, taken = key
    if pos.variant.name != "turkish" or taken or abs(pos.board[start]) != KING:
        return False
    ray = next(r for r in pos.variant.geometry.rays[start] if end in r)
    return any(pos.board[s] for s in ray[:ray.index(end)])


def their_key(move, ours) -> tuple:
    path = move.steps_move
    return ours(path[0]), ours(path[-1]), frozenset(ours(s) for s in move.captures)


def our_key(move) -> tuple:
    return move.start, move.end, frozenset(move.captured)


@pytest.mark.parametrize("variant", list(THEIR_NAMES))
def test_random_games_have_the_referees_legal_moves(variant):
    ours = their_square(variant)
    rnd = random.Random(variant)
    positions = captures = 0
    for _ in range(12):
        pos = DraughtsPosition.start(variant)
        board = draughts.Board(variant=THEIR_NAMES[variant])
        for ply in range(200):
            mine = legal_moves(pos)
            theirs = {their_key(m, ours): m for m in board.legal_moves()}
            theirs = {k: m for k, m in theirs.items() if not referee_defect(pos, k)}
            assert {our_key(m) for m in mine} == set(theirs), (variant, ply, board.fen)
            assert len({our_key(m) for m in mine}) == len(mine)  # one move per key
            positions += 1
            if not mine:
                break
            move = rnd.choice(mine)
            captures += bool(move.captured)
            board.push(theirs[our_key(move)])
            pos = apply_move(pos, move)
    assert positions > 400 and captures > 100


@pytest.mark.parametrize("variant", ["international", "english", "losing", "italian",
                                     "turkish"])
@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_random_positions_have_the_referees_legal_moves(variant, data):
    """(pydraughts reads these variants' FEN with PDN's numbers, as ours; Turkish from
    white's side, as its moves.)"""
    pos = data.draw(random_positions(variant))
    board = draughts.Board(variant=THEIR_NAMES[variant], fen=their_fen(pos))
    theirs = {their_key(m, their_square(variant)) for m in board.legal_moves()}
    theirs = {k for k in theirs if not referee_defect(pos, k)}
    assert {our_key(m) for m in legal_moves(pos)} == theirs, pos.fen()
