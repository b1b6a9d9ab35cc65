"""PDN game records of draughts: random games of every variant written and read back the
same; numbering, FEN starts, comments and variations; bad input named; pydraughts' reader
reads what is written."""

from __future__ import annotations

import random

import pytest

from bg_env.draughts import DraughtsPosition, apply_move, legal_moves
from bg_env.draughts.game import DraughtsGame
from bg_env.draughts.pdn import PdnGame, read_pdn, result_text, write_pdn
from bg_env.draughts.variants import VARIANTS


def random_game(variant: str, seed: int) -> PdnGame:
    """A random game to its end (``DraughtsGame``'s rules), as a record."""
    rnd = random.Random(seed)
    game = DraughtsGame.start(variant)
    record = PdnGame(game.position)
    while game.result is None:
        move = rnd.choice(legal_moves(game.position))
        record.moves.append(move)
        game.play(move)
    record.result = result_text(variant, game.result[0])
    return record


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_random_games_read_back_the_same(variant):
    for seed in range(3):
        record = random_game(variant, seed)
        text = write_pdn(record)
        back = read_pdn(text)
        assert back.start == record.start and back.moves == record.moves, text
        assert back.result == record.result and back.tags["Variant"] == variant
        assert back.positions()[-1] == record.positions()[-1]


def test_the_text_numbers_moves_and_tags_the_variant():
    pos = DraughtsPosition.start("international")
    moves = []
    for text in ("32-28", "19-23", "28x19", "14x23"):
        (move,) = [m for m in legal_moves(pos) if m.notation == text]
        moves.append(move)
        pos = apply_move(pos, move)
    out = write_pdn(PdnGame(DraughtsPosition.start("international"), moves, "*",
                            {"White": "A", "Black": 'B "C"'}))
    assert '[GameType "20"]' in out and '[White "A"]' in out and "[FEN" not in out
    assert out.strip().endswith("1. 32-28 19-23 2. 28x19 14x23 *")
    assert read_pdn(out).tags["Black"] == 'B "C"'


def test_a_game_from_a_fen_with_black_to_move_starts_at_one_dots():
    start = DraughtsPosition.from_fen("B:W31-35:B16-20", "international")
    move = legal_moves(start)[0]
    out = write_pdn(PdnGame(start, [move]))
    assert '[FEN "B:W31-35:B16-20"]' in out and f"1... {move.notation} *" in out
    assert read_pdn(out).moves == [move]


def test_comments_variations_and_annotations_are_skipped():
    text = ('[GameType "21"]\n\n1. 11-15 {a comment} 22-18 (22-17 15-19) 2. 15x22! '
            '$1 25x18 1/2-1/2\n')
    game = read_pdn(text)
    assert [m.notation for m in game.moves] == ["11-15", "22-18", "15x22", "25x18"]
    assert game.start.variant.name == "english" and game.result == "1/2-1/2"


@pytest.mark.parametrize("text, words", [
    ('[GameType "20"]\n\n1. 32-28 19-25 *', "PDN move 2 '19-25': move '19-25' is not legal"),
    ('[GameType "29"]\n\n1. 32-28 *', "GameType '29'"),
    ('[Variant "checkers"]\n\n*', "'checkers' unknown"),
    ('[Event "x]\n\n*', "tag line"),
    ('[FEN "W:W31,31:B1"]\n\n*', "square 31 given twice"),
])
def test_bad_records_are_named(text, words):
    with pytest.raises(ValueError, match=words.replace("(", r"\(")):
        read_pdn(text)


@pytest.mark.parametrize("variant, theirs", [("international", "standard"),
                                             ("english", "english"), ("italian", "italian")])
def test_pydraughts_reads_the_records(variant, theirs):
    pdn = pytest.importorskip("draughts.PDN")
    record = random_game(variant, 7)
    game = pdn.PDNReader(pdn_text=write_pdn(record)).games[0]
    assert game.variant == theirs
    pos, written = record.start, []
    for move in record.moves:
        same = [m for m in legal_moves(pos) if (m.start, m.end) == (move.start, move.end)]
        written.append(move.long_notation if len(same) > 1 else move.notation)
        pos = apply_move(pos, move)
    assert game.moves == written and game.game_ending == record.result
