"""A draughts game played hop by hop (:class:`bg_env.draughts.game.DraughtsGame`): every
legal move is reachable by its hops and gives the position the rules give; forced hops are
played at once; the end and the draw rules."""

from __future__ import annotations

import copy
import random

import pytest

from bg_env.draughts import DraughtsPosition, apply_move, legal_moves
from bg_env.draughts.actions import hop_action, hop_of, n_actions, path_actions
from bg_env.draughts.board import KING, geometry
from bg_env.draughts.game import QUIET_LIMITS, DraughtsGame, IllegalHopError


@pytest.mark.parametrize("variant", ["international", "english", "russian", "brazilian",
                                     "losing", "italian", "turkish"])
def test_every_legal_move_is_reached_by_its_hops(variant):
    rnd = random.Random(variant)
    g = DraughtsPosition.start(variant).variant.geometry
    checked = multi = 0
    for _ in range(6):
        game = DraughtsGame.start(variant)
        while game.result is None:
            pos = game.position
            for move in (legal_moves(pos) if not game.hops else []):  # (at a move's start)
                twin = copy.deepcopy(game)
                for i, action in enumerate(path_actions(g, move.path)):
                    if twin.plies > game.plies:
                        break  # the rest was forced and played
                    if len(twin.hops) > i + 1:
                        assert twin.hops[i + 1] == move.path[i + 1]
                        continue  # this hop was forced and played
                    assert action in twin.legal_actions(), (pos.fen(), move.long_notation)
                    twin.step(action)
                assert twin.plies == game.plies + 1 and not twin.hops
                assert twin.position == apply_move(pos, move)
                checked += 1
                multi += len(move.path) > 2
            game.step(rnd.choice(game.legal_actions()))
    assert checked > 500 and multi >= 5


def test_a_capture_is_played_hop_by_hop_and_the_pieces_come_off_at_the_end():
    # white man 33 takes 29 (to 24) then 19 (to 13) or 20 (to 15): a choice after one hop
    game = DraughtsGame(DraughtsPosition.from_fen("W:W33:B29,19,20,3", "international"))
    g = geometry(10)
    assert [hop_of(g, a) for a in game.legal_actions()] == [(33, 24)]
    game.step(hop_action(g, 33, 24))
    assert game.hops == [33, 24] and game.taken() == (29,) and game.turn == 1
    assert game.position.board[29] == -1  # still on the board until the move ends
    assert sorted(hop_of(g, a) for a in game.legal_actions()) == [(24, 13), (24, 15)]
    game.step(hop_action(g, 24, 15))
    assert game.hops == [] and game.turn == -1 and game.plies == 1
    assert game.position.fen() == "B:W15:B3,19"


def test_the_board_now_keeps_a_piece_whose_capture_crosses_its_start():
    # a Turkish king's capture that passes its own start (51) on the way: midway there,
    # the king stands on 51, and the pieces it has taken are still on the board
    pos = DraughtsPosition.from_fen("W:WK51:B3,12,16,24,26,27,31,38,43,48,52,55", "turkish")
    (move,) = [m for m in legal_moves(pos)
               if m.long_notation == "51x54x6x2x42x47x15x11x51x56x40"]
    game = DraughtsGame(pos, hops=list(move.path[:9]))
    board = game.board_now()
    assert game.hops[-1] == 51 and board[51] == 2
    assert all(board[s] == -1 for s in game.taken()) and len(game.taken()) == 8
    assert DraughtsGame(pos, hops=[51, 54]).board_now()[51] == 0  # (its start left empty)


def test_hops_that_every_choice_shares_are_played_at_once():
    # the only capture is 33x24x13: one action plays it whole
    game = DraughtsGame(DraughtsPosition.from_fen("W:W33:B29,19,3", "international"))
    game.step(game.legal_actions()[0])
    assert game.plies == 1 and game.position.fen() == "B:W13:B3"


def test_illegal_hops_are_refused_and_change_nothing():
    game = DraughtsGame.start("international")
    before = copy.deepcopy(game)
    with pytest.raises(IllegalHopError, match="action 0 is not a legal hop now; legal: \\["):
        game.step(0)
    assert game == before


def test_the_side_without_moves_loses_and_wins_the_losing_game():
    fen = "W:W33:B29"  # 33x24 takes black's last piece
    for variant, winner in (("international", 1), ("losing", -1)):
        game = DraughtsGame(DraughtsPosition.from_fen(fen, variant))
        game.step(game.legal_actions()[0])
        assert game.result == (winner, "no moves") and game.legal_actions() == []


def test_a_position_for_the_third_time_is_a_draw():
    game = DraughtsGame(DraughtsPosition.from_fen("W:WK46,31:BK1,15", "international"))
    g = geometry(10)
    shuffle = [(46, 41), (1, 6), (41, 46), (6, 1)] * 2
    for k, (a, b) in enumerate(shuffle):
        assert game.result is None, k
        game.step(hop_action(g, a, b))
    assert game.result == (0, "repetition") and game.plies == 8


def test_quiet_king_moves_draw():
    game = DraughtsGame(DraughtsPosition.from_fen("W:WK29,31:BK22,15", "english"))
    game.quiet = 79  # 79 king moves without a capture so far
    g = geometry(8)
    game.step(hop_action(g, 29, 25))
    assert game.result == (0, "quiet moves")
    game = DraughtsGame(DraughtsPosition.from_fen("W:WK29,31:BK22,15", "english"))
    game.quiet = 79
    game.step(hop_action(g, 31, 27))  # a man moves: the count starts again
    assert game.result is None and game.quiet == 0


def test_a_lone_king_against_two_kings_draws_after_five_moves_each():
    # from the position on, each side plays quiet king moves that take nothing, give
    # nothing to take and repeat nothing: the 10th move (5 each) draws
    game = DraughtsGame(DraughtsPosition.from_fen("W:WK1,K2:BK50", "international"))
    seen = {game.position.board}
    while game.result is None:
        move = next(m for m in legal_moves(game.position) if quiet(game.position, m, seen))
        game.play(move)
        seen.add(game.position.board)
    assert game.result == (0, "endgame") and game.plies == 10


@pytest.mark.parametrize("fen, limit", [
    ("W:WK25,K27:BK3", 10),      # a lone king against two kings: 5 moves each
    ("W:WK32,30:BK1", 10),      # against a king and a man
    ("B:WK1,K2,K3:BK29", 10),  # against three, the lone king on the main road
    ("B:WK1,K2,29:BK22", 60),  # ... but one of the three stands on it: 7.2.6, 4 pieces
    ("B:WK1,K2,31:BK30", 60),  # the lone king off the main road: 7.2.6
    ("W:W29,30:BK4", 0),       # two men, no king
    ("W:WK21,30:BK4,5", 60),   # kings on both sides, five pieces: 30 moves each
    ("W:WK21,30,31:BK4,5,6", 120),  # six pieces: 60 each
    ("W:WK21,30,31,32:BK4,5,6", 120),  # seven
    ("W:WK21,30,31,32:BK4,5,6,7", 0),  # eight
    ("W:W21,30:BK4,K5", 0),    # four pieces, the kings on one side only
])
def test_russian_endgame_rules(fen, limit):
    game = DraughtsGame(DraughtsPosition.from_fen(fen, "russian"))
    assert game._endgame_rule()[0] == limit
    if limit:  # quiet moves that keep the rule on: the draw comes at the limit's move
        rule = game._endgame_rule()
        for move in quiet_line(game.position, limit, {game.position.board}, rule):
            assert game.result is None
            game.play(move)
        assert game.result == (0, "endgame") and game.plies == limit


def test_a_crowning_starts_the_russian_count_again_a_quiet_move_does_not():
    fen = "W:W5,K20:BK29,26"  # four pieces, kings on both sides: 60 moves in all
    g = geometry(8)
    game = DraughtsGame(DraughtsPosition.from_fen(fen, "russian"))
    game.endgame = 59
    game.step(hop_action(g, 5, 1))  # the man is crowned: the balance of forces changes
    assert game.result is None and game.endgame == 0 and game._endgame_rule()[0] == 60
    game = DraughtsGame(DraughtsPosition.from_fen(fen, "russian"))
    game.endgame = 59
    game.step(hop_action(g, 20, 24))  # a king's quiet move: the 60th
    assert game.result == (0, "endgame")


def test_a_capture_starts_an_endgame_count_again():
    # a lone king against three kings (16 moves each) takes one: now against two (5 each),
    # counted from the next move, not from the 16-move rule's count
    game = DraughtsGame(DraughtsPosition.from_fen("B:WK23,K47,K49:BK5", "international"))
    assert game._endgame_rule()[0] == 32
    game.endgame = 20
    game.step(hop_action(geometry(10), 5, 28))  # takes the king on 23
    assert game.position.board[23] == 0 and game._endgame_rule()[0] == 10
    assert game.result is None and game.endgame == 0


def quiet_line(pos, n: int, seen: set, rule, kings_run: int = 0) -> list | None:
    """``n`` quiet moves (:func:`quiet`) from ``pos`` under which the endgame ``rule``
    holds and which the quiet-move rule does not end first (a man moves before the kings'
    run reaches it; kings' moves tried first), found depth first."""
    if n == 0:
        return []
    for move in sorted(legal_moves(pos), key=lambda m: abs(pos.board[m.start]) != KING):
        run = kings_run + 1 if abs(pos.board[move.start]) == KING else 0
        after = apply_move(pos, move)
        if (run < QUIET_LIMITS["russian"] and quiet(pos, move, seen)
                and DraughtsGame(after)._endgame_rule() == rule):
            rest = quiet_line(after, n - 1, seen | {after.board}, rule, run)
            if rest is not None:
                return [move] + rest
    return None


def quiet(pos, move, seen) -> bool:
    """A move that takes nothing, reaches a new board and leaves nothing to take."""
    after = apply_move(pos, move)
    return (not move.captured and after.board not in seen
            and not any(m.captured for m in legal_moves(after)))


def test_the_action_space_sizes():
    assert n_actions(geometry(10)) == 1800 and n_actions(geometry(8)) == 896
