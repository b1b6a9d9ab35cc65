"""Tests for agents.players.pubeval: Tesauro's pubeval against gnubg-nn and in play.

The gnubg-nn checks skip when ``gnubg_nn`` is not installed; the fixture values, the
encoding checks and the game against a random player need only the engine.
"""

from __future__ import annotations

import numpy as np
import pytest

from agents import pubeval as pe
from agents.players.pubeval import (
    WC,
    WIN_SCORE,
    WR,
    PubevalPlayer,
    choose_play,
    pubeval_inputs,
    pubeval_score,
    pubeval_scores,
)
from bg_env.rules.position import Position

# After-move positions (Position ID with the mover as the player on roll) and their
# pubeval scores, computed once with gnubg_nn 1.1.0a11:
# gnubg_nn.pub_eval_score(Position.from_position_id(pid).swap().gnubg_board()).
KNOWN_SCORES = {
    "4HPwATDgc/ABMA": 6.84055,  # the start position (contact)
    "wuvgAUQyr+ABMA": 8.02431,  # contact, an opponent checker on the bar
    "7xII4gH/TwIAAA": -60.39234,  # race, mover has borne off
    "vwEEaA7/LwAAIA": -21.24401,  # contact, mover on the bar and some borne off
}

# Contact positions where a play breaks contact, so the race flag read before the move
# (contact weights, Tesauro's rule) and after each move pick different plays:
# (position ID before the move, dice, result ID with the pre-move flag, with post-move flags).
# gnubg_nn.pub_best_move picks the first of the two.
RACE_FLAG_CASES = [
    ("9y0CRAT/KwIAAA", (1, 6), "9y0CRAT/GwAAAA", "9y0CRAT/FQAAAA"),
    ("/91AAAD3XoAEBA", (4, 4), "/91AAAD33gAKAA", "/91AAAD33kBAAA"),
    ("vYMwNgCPtwcCAA", (5, 1), "vYMwNgCPdxcAAA", "vYMwNgAfbwcBAA"),
]


@pytest.fixture(scope="module")
def gnubg():
    return pytest.importorskip("gnubg_nn")


def roll(rng: np.random.Generator) -> tuple[int, int]:
    d = rng.integers(1, 7, size=2)
    return int(d[0]), int(d[1])


def random_turns(seed: int, n: int):
    """``n`` turns of random play over as many games as needed: (position, dice, plays)."""
    rng = np.random.default_rng(seed)
    pos = Position.start()
    for _ in range(n):
        dice = roll(rng)
        plays = pos.legal_plays(dice)
        yield pos, dice, plays
        result = plays[rng.integers(len(plays))].result
        pos = Position.start() if result.outcome() is not None else result.swap()


def apply_gnubg_move(pos: Position, move: list[int]) -> Position:
    """Play ``pub_best_move``'s ``[from, to, ...]`` (0-based points, bar 24, off -1)."""
    me, opp = list(pos.me), list(pos.opp)
    for src, dst in zip(move[::2], move[1::2]):
        src, dst = src + 1, max(dst + 1, 0)
        me[src] -= 1
        me[dst] += 1
        if dst >= 1 and opp[25 - dst] == 1:
            opp[25 - dst] = 0
            opp[25] += 1
    return Position(tuple(me), tuple(opp))


# ------------------------------------------------------------------ no gnubg needed
def test_weights_are_tesauros():
    assert WR.shape == WC.shape == (122,)
    assert (WR[0], WR[6], WR[120], WR[121]) == (0.0, -1.40375, 0.0, 3.42040)
    assert (WC[0], WC[1], WC[120], WC[121]) == (0.25696, -0.66937, 5.62596, -2.75800)
    assert np.isclose(WR.sum(), -31.29905) and np.isclose(WC.sum(), -6.72565)


@pytest.mark.parametrize("pid, score", sorted(KNOWN_SCORES.items()))
def test_known_scores(pid, score):
    assert pubeval_score(Position.from_position_id(pid)) == pytest.approx(score, abs=1e-4)


def test_input_encoding_by_hand():
    # Mover: 2 on 24, 5 on 13, 3 on 8, 4 on 6, 1 off. Opponent: a blot on the mover's
    # 20 (his 5), a point on the mover's 3 (his 22), 2 on the bar.
    pos = Position.from_layout({24: 2, 13: 5, 8: 3, 6: 4}, {5: 1, 22: 2, 25: 2, 10: 10})
    x = pubeval_inputs(pos)
    expected = np.zeros(122)
    block = lambda point: 5 * (24 - point)  # noqa: E731 - inputs of point 24 come first
    expected[block(24) + 2] = 1  # 2 checkers: ">= 2"
    expected[block(13) + 2], expected[block(13) + 4] = 1, (5 - 3) / 2  # 5: ">= 2", "(n-3)/2"
    expected[block(8) + 2], expected[block(8) + 3] = 1, 1  # 3: ">= 2", "== 3"
    expected[block(6) + 2], expected[block(6) + 4] = 1, (4 - 3) / 2
    expected[block(20) + 0] = 1  # opponent blot; his point on our 3 is not an input
    expected[120] = 2 / 2  # opponent bar
    expected[121] = 1 / 15  # mover off
    np.testing.assert_array_equal(x, expected)
    assert pubeval_score(pos) == pytest.approx(float(x @ WC))
    assert pubeval_score(pos, race=True) == pytest.approx(float(x @ WR))


def test_mover_blot_and_bar():
    pos = Position.from_layout({24: 1, 25: 1, 6: 13}, {2: 15})
    x = pubeval_inputs(pos)
    assert x[1] == 1  # mover's blot on 24
    assert x[121] == 0  # a checker on the bar is not borne off
    assert x[: 5 * 18].sum() == 1


def test_all_off_is_best_possible():
    won = Position.from_layout({}, {6: 3, 20: 1})
    assert pubeval_score(won) == WIN_SCORE
    assert pubeval_score(won, race=False) == WIN_SCORE


def test_batch_matches_single_and_flags():
    positions = [p.result for _, _, plays in random_turns(11, 150) for p in plays[:3]]
    batch = pubeval_scores(positions)
    assert batch.dtype == np.float64 and batch.shape == (len(positions),)
    np.testing.assert_allclose(batch, [pubeval_score(p) for p in positions], rtol=0, atol=1e-12)
    for flag, w in ((True, WR), (False, WC)):
        forced = pubeval_scores(positions, race=flag)
        x = np.array([pubeval_inputs(p) for p in positions])
        live = np.array([any(p.me[1:26]) for p in positions])
        np.testing.assert_allclose(forced[live], x[live] @ w, atol=1e-9)
    flags = [i % 2 == 0 for i in range(len(positions))]
    mixed = pubeval_scores(positions, race=flags)
    for i, p in enumerate(positions):
        assert mixed[i] == pytest.approx(pubeval_score(p, race=flags[i]))
    assert pubeval_scores([]).shape == (0,)


def test_choose_play_is_the_argmax():
    for pos, dice, plays in random_turns(5, 200):
        chosen = choose_play(pos, dice)
        assert chosen in plays
        if len(plays) > 1:
            scores = pubeval_scores([p.result for p in plays], race=pos.is_race())
            assert pubeval_score(chosen.result, race=pos.is_race()) == scores.max()


@pytest.mark.parametrize("pid, dice, pre, post", RACE_FLAG_CASES)
def test_race_flag_comes_from_the_position_before_the_move(pid, dice, pre, post):
    pos = Position.from_position_id(pid)
    assert not pos.is_race()
    assert choose_play(pos, dice).result.position_id() == pre
    plays = pos.legal_plays(dice)
    post_flags = pubeval_scores([p.result for p in plays])  # each play's own flag
    assert plays[int(np.argmax(post_flags))].result.position_id() == post


def test_ties_break_on_smallest_position_id(monkeypatch):
    pos, dice = Position.start(), (3, 1)
    plays = pos.legal_plays(dice)
    expected = min(plays, key=lambda p: p.result.position_id())
    monkeypatch.setattr(pe, "pubeval_scores", lambda ps, race=None: np.zeros(len(list(ps))))
    assert choose_play(pos, dice).result == expected.result
    monkeypatch.setattr(Position, "legal_plays", lambda self, d: list(reversed(plays)))
    assert choose_play(pos, dice) is expected


def test_forced_and_empty_plays():
    closed = Position.from_layout({25: 2, 6: 13}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 12: 3})
    play = choose_play(closed, (6, 5))
    assert play.moves == () and play.result == closed
    assert PubevalPlayer().choose_play(closed, (6, 5)).result == closed


def test_player_matches_function():
    player = PubevalPlayer()
    for pos, dice, _ in random_turns(3, 60):
        assert player.choose_play(pos, dice).result == choose_play(pos, dice).result


def test_beats_random_player():
    """50 seeded games, pubeval against a uniformly random legal play."""
    rng = np.random.default_rng(2024)
    player, wins, games = PubevalPlayer(), 0, 50
    for game in range(games):
        pos, pubeval_to_move = Position.start(), game % 2 == 0
        while True:
            dice = roll(rng)
            if pubeval_to_move:
                result = player.choose_play(pos, dice).result
            else:
                plays = pos.legal_plays(dice)
                result = plays[rng.integers(len(plays))].result
            if result.outcome() is not None:
                assert result.outcome().winner == 0  # only the mover can finish
                wins += pubeval_to_move
                break
            pos, pubeval_to_move = result.swap(), not pubeval_to_move
    assert wins / games > 0.8, f"pubeval won {wins} of {games}"


# --------------------------------------------------------------------- against gnubg
def test_scores_match_gnubg(gnubg):
    n_race = n_contact = n_bar = n_won = 0
    for _, _, plays in random_turns(7, 1500):
        for play in plays[:4]:
            result = play.result
            ours = pubeval_score(result)
            # gnubg scores board[0]: the board after the move with the opponent on roll.
            theirs = gnubg.pub_eval_score(result.swap().gnubg_board())
            if ours == WIN_SCORE:
                n_won += 1
                assert theirs == pytest.approx(WIN_SCORE, rel=1e-7)  # float32
                continue
            assert ours == pytest.approx(theirs, abs=1e-4), result.position_id()
            n_race += result.is_race()
            n_contact += not result.is_race()
            n_bar += result.me[25] > 0 or result.opp[25] > 0
    assert n_race > 300 and n_contact > 1000 and n_bar > 100 and n_won > 0


def test_gnubg_orientation_is_opponent_on_roll(gnubg):
    """``result.gnubg_board()`` (mover in board[1]) scores the wrong side."""
    wrong = 0
    for _, _, plays in random_turns(8, 100):
        result = plays[0].result
        if result.outcome() is None and result != result.swap():
            wrong += abs(gnubg.pub_eval_score(result.gnubg_board()) - pubeval_score(result)) > 1e-3
    assert wrong > 90


@pytest.mark.parametrize("pid", sorted(KNOWN_SCORES))
def test_fixtures_match_gnubg(gnubg, pid):
    board = Position.from_position_id(pid).swap().gnubg_board()
    assert gnubg.pub_eval_score(board) == pytest.approx(KNOWN_SCORES[pid], abs=1e-4)


def test_choose_play_matches_pub_best_move(gnubg):
    compared = 0
    for pos, dice, plays in random_turns(1, 1200):
        if len(plays) > 1:
            scores = np.sort(pubeval_scores([p.result for p in plays], race=pos.is_race()))
            if scores[-1] - scores[-2] < 1e-3 or scores[-1] == WIN_SCORE:
                continue  # not a unique best at float32 precision
        move = gnubg.pub_best_move(pos.gnubg_board(), *dice)
        assert apply_gnubg_move(pos, move) == choose_play(pos, dice).result, (
            pos.position_id(), dice, move)
        compared += 1
    assert compared > 1000


@pytest.mark.parametrize("pid, dice, pre, post", RACE_FLAG_CASES)
def test_race_flag_cases_match_pub_best_move(gnubg, pid, dice, pre, post):
    pos = Position.from_position_id(pid)
    move = gnubg.pub_best_move(pos.gnubg_board(), *dice)
    assert apply_gnubg_move(pos, move).position_id() == pre

