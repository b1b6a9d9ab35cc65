"""Match play: the Kazaross-XG2 match equity table, the Crawford rule, the score and the
Match ID (docs/RULES.md §9)."""

from __future__ import annotations

import numpy as np
import pytest

from bg_env.rules import Position
from bg_env.game.game import Game, GameResult, Phase, Rules
from bg_env.game.match import MET_MAX_AWAY, Match, match_equity
from bg_env.rules.match_id import MatchState


def single(winner: int, cube: int = 1) -> GameResult:
    return GameResult(winner, "single", cube, cube)


def gammon(winner: int, cube: int = 1) -> GameResult:
    return GameResult(winner, "gammon", cube, 2 * cube)


def play_out(game, rng) -> list[str]:
    """Play ``game`` to the end with uniformly random legal decisions; returns the phases
    in which a decision was asked."""
    phases = []
    while True:
        game.settle(rng)
        if game.phase == Phase.OVER:
            return phases
        phases.append(game.phase)
        actions = game.legal_actions()
        game.step(actions[int(rng.integers(len(actions)))], rng)


# ------------------------------------------------------------------ the table
@pytest.mark.parametrize("me, opp, post, mwc", [
    (1, 1, False, 0.5),
    (1, 2, False, 0.67736),      # the Crawford game, leader's side
    (2, 1, False, 0.32264),
    (2, 2, False, 0.5),
    (3, 5, False, 0.64795),
    (5, 3, False, 0.35205),
    (4, 7, False, 0.69924),
    (7, 4, False, 0.30076),
    (9, 10, False, 0.550196),
    (1, 15, False, 0.987893),
    (15, 14, False, 0.459250),
    (25, 1, False, 0.00095),
    (2, 1, True, 0.48803),       # post-Crawford trailer 2-away (the free drop)
    (1, 2, True, 1 - 0.48803),
    (3, 1, True, 0.32264),
    (15, 1, True, 0.015304),
    (1, 1, True, 0.5),
    (0, 4, False, 1.0),
    (4, 0, False, 0.0),
    (-2, 3, False, 1.0),         # passed the length: still a won match
])
def test_known_kazaross_xg2_entries(me, opp, post, mwc):
    assert match_equity(me, opp, post_crawford=post) == pytest.approx(mwc, abs=1e-9)


def test_table_is_symmetric_within_its_rounding():
    for a in range(1, MET_MAX_AWAY + 1):
        for b in range(1, MET_MAX_AWAY + 1):
            assert match_equity(a, b) + match_equity(b, a) == pytest.approx(1.0, abs=2e-5), (a, b)
        assert match_equity(a, 1, True) + match_equity(1, a, True) == pytest.approx(1.0, abs=1e-12)


def test_table_is_monotone_in_both_aways():
    """Needing fewer points is never worse; a typo in the copied numbers would show."""
    for a in range(1, MET_MAX_AWAY + 1):
        for b in range(1, MET_MAX_AWAY):
            assert match_equity(a, b + 1) > match_equity(a, b), (a, b)
            assert match_equity(b + 1, a) < match_equity(b, a), (a, b)
    post = [match_equity(a, 1, True) for a in range(1, MET_MAX_AWAY + 1)]
    assert all(x > y for x, y in zip(post, post[1:]))
    # post-Crawford the leader is still the favourite
    assert all(match_equity(1, a, True) > 0.5 for a in range(2, MET_MAX_AWAY + 1))


def test_table_errors_name_the_problem():
    with pytest.raises(ValueError, match="covers 1..25"):
        match_equity(26, 3)
    with pytest.raises(ValueError, match="needs a side 1-away"):
        match_equity(3, 4, post_crawford=True)
    with pytest.raises(ValueError, match="both sides"):
        match_equity(0, 0)


# ------------------------------------------------------------------ the Crawford rule
def test_crawford_game_follows_reaching_one_away_and_comes_once():
    m = Match(5)
    m.record(single(0))
    m.record(gammon(0))                  # 3-0
    assert not m.crawford and not m.post_crawford
    m.record(single(0))                  # 4-0: side 0 is 1-away
    assert m.score == (4, 0) and m.away(0) == 1 and m.crawford and not m.post_crawford
    assert m.game_rules().cube is False and m.rules.cube is True
    m.record(single(1))                  # the Crawford game: 4-1
    assert not m.crawford and m.post_crawford and m.crawford_games_played == 1
    m.record(single(1, cube=2))          # post-Crawford: doubled, 4-3
    m.record(single(1))                  # 4-4: both 1-away, still post-Crawford
    assert m.post_crawford and not m.crawford and m.crawford_games_played == 1
    m.record(single(0))
    assert m.is_over and m.winner == 0 and m.score == (5, 4) and m.games == 7
    assert m.crawford_games_played == 1 and not m.crawford and not m.post_crawford


def test_a_gammon_from_far_away_to_one_away_starts_the_crawford_game():
    m = Match(7)
    m.record(single(1))                  # 0-1
    m.record(gammon(1, cube=2))          # 0-5
    assert not m.crawford
    m.record(single(1))                  # 0-6
    assert m.crawford
    m = Match(7)
    m.record(GameResult(0, "backgammon", 2, 6))  # 0 -> 6 in one game
    assert m.score == (6, 0) and m.crawford


def test_straight_from_below_one_away_to_winning_has_no_crawford_game():
    m = Match(7, score=(5, 3))
    assert not m.crawford and not m.post_crawford
    m.record(gammon(0))                  # 5 -> 7, passing 6
    assert m.is_over and m.winner == 0 and m.crawford_games_played == 0
    assert not m.crawford and not m.post_crawford


def test_real_score_is_kept_past_the_length():
    m = Match(7)
    for _ in range(3):
        m.record(gammon(0))              # 2, 4, 6 -> Crawford
    assert m.crawford
    m.record(gammon(0))                  # Crawford gammon: 8-0
    assert m.score == (8, 0) and m.winner == 0 and m.is_over
    assert m.state().score == (7, 0)     # the Match ID caps it


def test_no_doubling_in_the_crawford_game_and_doubling_again_after():
    rng = np.random.default_rng(5)
    m = Match(3, score=(0, 1))
    m.record(single(1))                  # 0-2: side 1 is 1-away
    assert m.crawford
    game = m.new_game(rng)
    assert game.rules.cube is False and not game.may_double()
    phases = play_out(game, rng)
    assert Phase.CUBE not in phases and Phase.TAKE not in phases
    assert game.result.cube_value == 1
    with pytest.raises(ValueError, match="without the cube"):
        m.record(single(game.result.winner, cube=2))
    m.record(GameResult(0, "single", 1, 1))  # 1-2 after the Crawford game
    assert m.post_crawford
    game = m.new_game(rng)
    assert game.rules.cube is True and game.may_double()
    game.settle(rng)
    while game.phase != Phase.CUBE:  # play on until a cube decision is asked
        assert game.phase != Phase.OVER
        actions = game.legal_actions()
        game.step(actions[0], rng)
        game.settle(rng)
    game.step(game.legal_actions()[-1], rng)  # DOUBLE
    assert game.phase == Phase.TAKE


def test_one_point_match_has_no_crawford_game():
    m = Match(1)
    assert m.post_crawford and not m.crawford and m.equity(0) == 0.5
    m.record(single(1))
    assert m.winner == 1 and m.crawford_games_played == 0


def test_bad_input_is_refused():
    with pytest.raises(ValueError, match="length=0"):
        Match(0)
    with pytest.raises(ValueError, match="jacoby"):
        Match(5, Rules(jacoby=True))
    with pytest.raises(ValueError, match="beaver"):
        Match(5, Rules(beaver=True))
    with pytest.raises(ValueError, match="Crawford game needs"):
        Match(5, score=(1, 1), crawford=True)
    m = Match(2, score=(2, 0))
    with pytest.raises(ValueError, match="over"):
        m.record(single(0))
    with pytest.raises(ValueError, match="over"):
        m.new_game(np.random.default_rng(0))


# ------------------------------------------------------------------ equity reward
def test_equity_change_reads_the_table_and_sums_to_zero():
    m = Match(7, score=(3, 4))           # 4-away v 3-away
    assert m.equity(0) == pytest.approx(0.42850)
    win = gammon(0)                      # -> 2-away v 3-away
    assert m.equity_change(win, 0) == pytest.approx(0.59947 - 0.42850)
    assert m.equity_change(win, 0) + m.equity_change(win, 1) == pytest.approx(0.0, abs=1e-9)
    assert m.score == (3, 4) and m.games == 0   # not changed by the look-ahead
    # the game that leaves a side 1-away: the next is the Crawford game (pre-Crawford table)
    assert Match(7, score=(5, 0)).equity_after(single(0), 0) == pytest.approx(0.90724)
    # after the Crawford game the post-Crawford table applies
    m = Match(7, score=(6, 0), crawford=True)
    assert m.equity(1) == pytest.approx(0.09276)   # 7-away v 1-away, Crawford
    assert m.equity_after(single(1), 1) == pytest.approx(0.18072)  # trailer 6-away, post
    assert m.equity_after(single(0), 1) == 0.0


# ------------------------------------------------------------------ Match ID
@pytest.mark.parametrize("score, crawford", [((0, 0), False), ((6, 3), True), ((3, 6), False),
                                             ((2, 4), False), ((6, 6), False)])
def test_match_id_round_trip_keeps_score_and_crawford(score, crawford):
    m = Match(7, score=score, crawford=crawford)
    for side in (0, 1):
        back = MatchState.from_match_id(m.match_id(side))
        assert back.match_length == 7 and back.score == score and back.crawford == crawford
        assert back.player_on_roll == side
        again = Match.from_state(back)
        assert (again.score, again.crawford, again.post_crawford) == (
            m.score, m.crawford, m.post_crawford)


def test_match_id_of_a_game_in_play_carries_cube_and_dice():
    rng = np.random.default_rng(2)
    m = Match(9, score=(2, 4))
    game = m.new_game(rng)
    state = MatchState.from_match_id(m.match_id(game=game))
    assert state.score == (2, 4) and state.match_length == 9
    assert state.player_on_roll == game.turn and sorted(state.dice) == sorted(game.dice)
    assert state.cube_value == 1 and state.cube_owner == -1 and not state.double_offered
    assert Match(9).match_id() != m.match_id()



def test_a_matchs_match_id_is_the_string_gnubg_writes():
    """gnubg writes its Jacoby setting (on by default) into a match's Match ID too, so
    the manual's example state (2-4 in a 9-point match, player 0 owns a 2-cube, player 1
    has rolled 5-2) is ``QYkqASAAIAAA``; the old code wrote bit 66 set (``...IAAE``)."""
    match = Match(9, score=(2, 4))
    game = Game.from_position(Position.start(), None, match.game_rules(), turn=1, dice=(5, 2),
                              cube_value=2, cube_owner=0)
    assert match.match_id(game=game) == "QYkqASAAIAAA"
    assert Match(7).match_id().endswith("A") and not Match(7).state().crawford


# ------------------------------------------------------------------ whole matches
def _crawford_reference(results: list[GameResult], length: int) -> list[bool]:
    """Which games of a match were the Crawford game, recomputed from the scores alone:
    the first game that starts with a side exactly 1-away (scores only grow)."""
    score, flags = [0, 0], []
    for r in results:
        flags.append(max(score) == length - 1 and not any(flags))
        score[r.winner] += r.points
    return flags


def test_seeded_random_seven_point_matches_apply_crawford_at_most_once():
    with_crawford = without = doubled_post = 0
    for seed in range(12):
        rng = np.random.default_rng(seed)
        m = Match(7)
        flags = []
        while not m.is_over:
            flags.append(m.crawford)
            post = m.post_crawford
            game = m.new_game(rng)
            phases = play_out(game, rng)
            if m.crawford:
                assert Phase.CUBE not in phases and game.result.cube_value == 1
            doubled_post += post and Phase.TAKE in phases
            m.record(game.result)
        assert max(m.score) >= 7 and m.score[m.winner] >= 7 and m.score[1 - m.winner] < 7
        assert sum(flags) == m.crawford_games_played <= 1
        assert flags == _crawford_reference(m.results, 7)
        assert sum(r.points for r in m.results) == sum(m.score)
        with_crawford += m.crawford_games_played
        without += not m.crawford_games_played
    assert with_crawford and without and doubled_post  # both cases and post-Crawford cubes seen
    # same seed, same match
    a, b = Match(7), Match(7)
    for m in (a, b):
        rng = np.random.default_rng(3)
        while not m.is_over:
            game = m.new_game(rng)
            play_out(game, rng)
            m.record(game.result)
    assert a == b


def test_table_shape_covers_twenty_five_points():
    from bg_env.game import match as match_module

    assert MET_MAX_AWAY == 25
    assert len(match_module._PRE_CRAWFORD) == 25
    assert all(len(row) == 25 for row in match_module._PRE_CRAWFORD)
    assert len(match_module._POST_CRAWFORD) == 25
