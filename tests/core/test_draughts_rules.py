"""The draughts rules on known positions, each a readable fixture (FEN and the moves a
player of the variant knows are legal), and FEN and move notation in and out."""

from __future__ import annotations

import pytest

from bg_env.draughts import (DraughtsPosition, InvalidFenError, apply_move, get_variant,
                             legal_moves, parse_move)


def notations(pos: DraughtsPosition, long: bool = False) -> set[str]:
    return {m.long_notation if long else m.notation for m in legal_moves(pos)}


def test_international_start():
    pos = DraughtsPosition.start("international")
    assert pos.fen() == "W:W31-50:B1-20"
    assert notations(pos) == {"31-26", "31-27", "32-27", "32-28", "33-28", "33-29", "34-29",
                              "34-30", "35-30"}


def test_english_start_black_moves_first():
    pos = DraughtsPosition.start("english")
    assert pos.fen() == "B:W21-32:B1-12"
    assert notations(pos) == {"9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16"}


def test_capture_is_compulsory():
    # white man 32 may take 28 (landing on 23); its plain moves are not legal then
    pos = DraughtsPosition.from_fen("W:W32,45:B28", "international")
    assert notations(pos) == {"32x23"}


@pytest.mark.parametrize("variant, fen, legal", [
    # white man on 23 (10x10: row 4), a black man right behind it on 29, 34 empty
    ("international", "W:W23:B29,2", {"23x34"}),
    # the same on 8x8 (23, black on 27, 30 empty): English men do not take backward
    ("english", "W:W23:B27,2", {"23-18", "23-19"}),
])
def test_men_take_backward_except_in_english(variant, fen, legal):
    assert notations(DraughtsPosition.from_fen(fen, variant)) == legal


def test_most_pieces_must_be_taken_in_international_not_in_russian():
    # white man 33: one way takes 28 (to 22); the other takes 29 then 19 (to 24, then 13)
    fen = "W:W33:B28,29,19,3"
    intl = DraughtsPosition.from_fen(fen, "international")
    assert notations(intl, long=True) == {"33x24x13"}
    # the same shape on 8x8 (Russian: any capture, each taken to its end)
    russian = DraughtsPosition.from_fen("W:W26:B22,23,15,1", "russian")
    assert notations(russian, long=True) == {"26x17", "26x19x10"}
    brazilian = DraughtsPosition.from_fen("W:W26:B22,23,15,1", "brazilian")
    assert notations(brazilian, long=True) == {"26x19x10"}


def test_a_flying_king_lands_on_any_empty_square_beyond():
    # white king on 46 takes 37 on the long diagonal (46-41-37-32-...-10-5) and may stop
    # on any empty square behind it, up to the black man on 5 (which it cannot take)
    pos = DraughtsPosition.from_fen("W:WK46:B37,5", "international")
    assert notations(pos) == {"46x32", "46x28", "46x23", "46x19", "46x14", "46x10"}


def test_a_flying_king_takes_a_far_piece_behind_its_landing():
    # 46x37 again; a man on 10 behind the landing squares: taking it too is the most.
    # Whichever square between the king stops on first, the move takes the same pieces
    # from 46 to 5: one move
    moves = legal_moves(DraughtsPosition.from_fen("W:WK46:B37,10", "international"))
    assert [(m.notation, set(m.captured)) for m in moves] == [("46x5", {37, 10})]


def test_a_king_must_land_where_it_can_take_again():
    # after taking 37 the king can go on only from 23 (taking 18, landing on 12, 7 or 1)
    pos = DraughtsPosition.from_fen("W:WK46:B37,18,5", "international")
    assert notations(pos, long=True) == {"46x23x12", "46x23x7", "46x23x1"}


def test_no_piece_is_taken_twice_and_all_come_off_after_the_move():
    pos = DraughtsPosition.from_fen("W:WK47:B41,42,31,33,22,24", "international")
    assert notations(pos, long=True) == {"47x36x27x13x30", "47x36x27x13x35"}
    for m in legal_moves(pos):
        assert len(set(m.captured)) == len(m.captured) == 4
        after = apply_move(pos, m)
        assert all(after.board[s] == 0 for s in m.captured) and after.board[m.end] == 2


def test_international_men_are_not_crowned_passing_through_the_crown_row():
    # white man 13 takes 8 landing on 2 (the crown row), must take 7 on (landing on 11):
    # it ends as a man
    moves = legal_moves(DraughtsPosition.from_fen("W:W13:B8,7", "international"))
    assert [(m.long_notation, m.crowned) for m in moves] == [("13x2x11", False)]
    # ending on the crown row crowns it
    moves = legal_moves(DraughtsPosition.from_fen("W:W13:B8", "international"))
    assert [(m.long_notation, m.crowned) for m in moves] == [("13x2", True)]


def test_russian_men_are_crowned_mid_capture_and_go_on_as_kings():
    # 8x8: white man 9 takes 6 landing on 2 (the crown row); crowned at once in Russian,
    # it takes 16 far down the diagonal 2-7-11-16-20 as a flying king
    fen = "W:W9:B6,16"
    moves = legal_moves(DraughtsPosition.from_fen(fen, "russian"))
    assert [(m.long_notation, m.crowned) for m in moves] == [("9x2x20", True)]
    # Brazilian (international rules): a man on 2 cannot take 16; the move ends, crowned
    moves = legal_moves(DraughtsPosition.from_fen(fen, "brazilian"))
    assert [(m.long_notation, m.crowned) for m in moves] == [("9x2", True)]


def test_english_capture_that_crowns_ends_the_move():
    pos = DraughtsPosition.from_fen("W:W10:B7,8", "english")
    moves = legal_moves(pos)
    assert [m.long_notation for m in moves] == ["10x3"] and moves[0].crowned


def test_italian_board_and_start():
    pos = DraughtsPosition.start("italian")
    assert pos.variant.geometry.cells[1] == (0, 0)  # its top-left square is playable
    assert notations(pos) == {"21-17", "21-18", "22-18", "22-19", "23-19", "23-20", "24-20"}


def test_italian_men_do_not_take_kings():
    # white man 22 (row 5, column 3 on the Italian board) has black's piece up-left of it
    # on 18 and 13 empty behind: a man is taken, a king is not
    assert notations(DraughtsPosition.from_fen("W:W22:BK18,1", "italian")) == {"22-19"}
    assert notations(DraughtsPosition.from_fen("W:W22:B18,1", "italian")) == {"22x13"}


def test_italian_prefers_a_kings_capture_then_the_most_kings():
    # man 22 can take 18, king 23 can take 20: one piece each; the king must
    pos = DraughtsPosition.from_fen("W:W22,K23:B18,20,1", "italian")
    assert [m.long_notation for m in legal_moves(pos)] == ["23x16"]
    # king 23 can take the man on 20 or the king on 19: the king
    pos = DraughtsPosition.from_fen("W:WK23:BK19,20,1", "italian")
    assert [m.long_notation for m in legal_moves(pos)] == ["23x14"]


def test_turkish_start_men_move_forward():
    pos = DraughtsPosition.start("turkish")
    assert pos.fen() == "W:W41-56:B9-24"
    assert notations(pos) == {f"{s}-{s - 8}" for s in range(41, 49)}


def test_turkish_men_move_and_take_forward_and_sideways():
    # white man 36 (row 4, column 3): up, left and right; a black man beside it is taken
    assert notations(DraughtsPosition.from_fen("W:W36:B1", "turkish")) == {
        "36-28", "36-35", "36-37"}
    assert notations(DraughtsPosition.from_fen("W:W36:B37,1", "turkish")) == {"36x38"}


def test_turkish_kings_do_not_turn_straight_back():
    # white king 36 between black men on 34 and 38 of its row: after taking one it may
    # not come back the way it went (the square it crossed is empty at once) to take the
    # other, so each capture takes one
    pos = DraughtsPosition.from_fen("W:WK36:B34,38,1", "turkish")
    assert notations(pos) == {"36x39", "36x40", "36x33"}


def test_english_kings_move_one_square():
    pos = DraughtsPosition.from_fen("W:WK18:B1", "english")
    assert notations(pos) == {"18-14", "18-15", "18-22", "18-23"}


def test_fen_round_trip_and_kings():
    fen = "B:WK3,31-35,40:BK46,1,5"
    pos = DraughtsPosition.from_fen(fen, "international")
    assert pos.board[3] == 2 and pos.board[46] == -2 and pos.board[40] == 1
    assert DraughtsPosition.from_fen(pos.fen(), "international") == pos
    assert pos.fen() == "B:WK3,31-35,40:BK46,1,5"


@pytest.mark.parametrize("fen, words", [
    ("X:W31:B1", "expected 'W:W..:B..'"),
    ("W:W31,31:B1", "square 31 given twice"),
    ("W:W51:B1", "squares are 1..50"),
    ("W:W3:B20", "white man on square 3, its crown row"),
    ("W:Wx:B1", "'x' is not a square"),
    ("W:Q3:B1", "starts with neither W nor B"),
])
def test_bad_fens_are_named(fen, words):
    with pytest.raises(InvalidFenError, match=words.replace("(", r"\(").replace(".", r"\.")):
        DraughtsPosition.from_fen(fen, "international")


def test_parse_move_reads_pdn_and_names_what_is_wrong():
    pos = DraughtsPosition.start("international")
    assert parse_move(pos, "32-28").path == (32, 28)
    with pytest.raises(ValueError, match="'32-29' is not legal; legal: \\['31-26'"):
        parse_move(pos, "32-29")
    with pytest.raises(ValueError, match="expected squares"):
        parse_move(pos, "a-b")


def test_unknown_variant_is_named():
    with pytest.raises(ValueError, match="'checkers' unknown; expected one of"):
        get_variant("checkers")
