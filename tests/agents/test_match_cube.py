"""Match-play cube with a live cube (agents/players/match_cube.py): take points at common scores
checked by hand from the Kazaross-XG2 table, the live cube lowering take points where the
taker can recube, and the switch between the live and the dead model."""

from __future__ import annotations

import numpy as np
import pytest

from agents.players.cube import CubeSettings, cube_action, match_verdict
from agents.evaluation.evaluate import MatchView
from agents.players.match_cube import (OWNED, cash_points, cubeless_score, dead_mwc, match_cubeful_mwc,
                               match_take_point)
from bg_env.actions import DOUBLE, DROP, ROLL, TAKE
from bg_env.game.game import Game, Rules
from bg_env.game.match import Match, match_equity
from bg_env.rules.position import Position

X = 0.68
LIVES = (0.0, X, 1.0)


def _take_point(length, score, x, crawford=False):
    """Side 1's take point when side 0 doubles from 1, no gammons."""
    return match_take_point(Match(length, score=score, crawford=crawford), 1, 1, x)


def test_two_away_two_away_takes_at_32_percent_live_or_dead():
    # the doubled cube is dead: a drop leaves the taker 2-away v 1-away (Crawford)
    for x in LIVES:
        assert _take_point(7, (5, 5), x) == pytest.approx(1 - 0.67736, abs=1e-6)


def test_two_away_leader_takes_a_four_away_trailers_double_at_20_percent():
    # the leader (side 1, 2-away) wins the match with any win at 2; a loss at 2 leaves
    # 2-away/2-away (0.5); a drop leaves him 2-away v 3-away (0.59947)
    for x in LIVES:
        assert _take_point(7, (3, 5), x) == pytest.approx((0.59947 - 0.5) / 0.5, abs=1e-6)


def test_four_away_trailer_has_a_free_redouble_against_a_two_away_leader():
    # side 0 leads 2-away, side 1 trails 4-away. Taking at 2, a win for the trailer at 2
    # would leave 2-away/2-away (0.5); but he redoubles to 4 at once (a loss at 2 loses
    # the match anyway), and the leader takes while he is the favourite: the trailer's
    # MWC after taking is his P(win), whatever the cube life
    drop = 1 - 0.81436  # 4-away v 1-away, Crawford
    for x in LIVES:
        assert _take_point(7, (5, 3), x) == pytest.approx(drop, abs=1e-6)
    match = Match(7, score=(5, 3))
    for p in (0.2, 0.3, 0.45):
        assert match_cubeful_mwc(match, 1, [p, 0, 0, 0, 0], 2, OWNED, X) == pytest.approx(p)
    # as a favourite, the leader would drop the redouble: the trailer gets 2-away/2-away
    assert match_cubeful_mwc(match, 1, [0.6, 0, 0, 0, 0], 2, OWNED, X) == pytest.approx(0.5)
    # and so the leader's double at 50 % is no double (the dead model without the free
    # redouble would double: it counts the trailer's wins at 2 as 2-away/2-away)
    assert match_verdict([0.5, 0, 0, 0, 0], match, 0, 1, x=0.0).kind == "no double"


def test_four_away_four_away_take_point_with_the_recube():
    lose, win, drop = 0.33130, 0.66870, 0.42850  # taker at 4-away v 2-away / 2 v 4 / 4 v 3
    cash = win  # his redouble to 4 at 2-away/4-away: a drop gives him 2-away v 4-away
    assert cash_points(Match(7, score=(3, 3)), 1, [0.3, 0, 0, 0, 0], 2)[0] == \
        pytest.approx(cash, abs=1e-6)
    for x in LIVES:  # MWC = lose + (win - lose) p ((1 - x) + x / cash) below his cash point
        expected = (drop - lose) / ((win - lose) * ((1 - x) + x / cash))
        assert _take_point(7, (3, 3), x) == pytest.approx(expected, abs=1e-6)
    assert _take_point(7, (3, 3), 0.0) == pytest.approx(0.2881, abs=1e-4)
    assert _take_point(7, (3, 3), X) == pytest.approx(0.2155, abs=1e-4)


def test_seven_away_seven_away_dead_take_point_and_the_live_range():
    win, lose, drop = 0.62638, 0.37362, 0.43739  # taker 5 v 7, 7 v 5, 7 v 6 away
    assert _take_point(7, (0, 0), 0.0) == pytest.approx((drop - lose) / (win - lose), abs=1e-6)
    assert _take_point(7, (0, 0), X) == pytest.approx(0.2162, abs=1e-4)
    assert _take_point(7, (0, 0), 1.0) == pytest.approx(0.2025, abs=1e-4)


def test_the_live_cube_lowers_the_take_point_where_the_taker_can_recube():
    for length in (5, 7, 9):
        for a in range(3, length + 1):
            for b in range(3, length + 1):
                score = (length - a, length - b)  # side 0 a-away, side 1 (the taker) b-away
                dead, mid, live = (_take_point(length, score, x) for x in LIVES)
                assert live < mid < dead, (length, score, dead, mid, live)


def test_post_crawford_free_drop_at_even_away_and_a_take_at_three_away():
    for x in LIVES:
        # the trailer 2-away (or 4-away) doubles the 1-away leader: a drop leaves
        # 1-away/1-away (2-away: 0.5), so the leader needs half his games
        assert _take_point(7, (5, 6), x) == pytest.approx(0.5, abs=1e-6)
        # 3-away: a loss at 2 also leaves 1-away/1-away; a drop leaves the trailer
        # 2-away post-Crawford (0.48803): the leader takes nearly anything
        expected = (1 - match_equity(2, 1, post_crawford=True) - 0.5) / 0.5
        assert _take_point(7, (4, 6), x) == pytest.approx(expected, abs=1e-6)
        assert expected == pytest.approx(0.02394, abs=1e-5)


def test_the_post_crawford_leader_never_cashes():
    match = Match(7, score=(3, 6))  # side 1 is 1-away, post-Crawford
    trailer, leader = cash_points(match, 0, [0.4, 0.1, 0, 0.1, 0], 1)
    assert leader == 1.0 and 0.0 < trailer < 1.0


def test_live_cube_match_equity_matches_the_dead_model_at_x_0():
    match = Match(7, score=(1, 2))
    probs = [0.62, 0.18, 0.01, 0.09, 0.003]
    dead = match_verdict(probs, match, 0, 1, x=0.0)
    assert dead.no_double == pytest.approx(match_cubeful_mwc(match, 0, probs, 1, "centred", 0.0))
    live = match_verdict(probs, match, 0, 1, x=X)
    assert live.double_pass == dead.double_pass  # the cash is the table's number
    # owning the cube is worth something once the cube lives
    assert match_cubeful_mwc(match, 0, probs, 2, OWNED, X) > \
        match_cubeful_mwc(match, 0, probs, 2, OWNED, 0.0)


def test_the_live_cube_doubles_later_than_the_dead_cube():
    match = Match(7)  # 7-away/7-away: the dead model doubles at 51 %, the live one waits
    sixty = [0.60, 0.0, 0.0, 0.0, 0.0]
    assert match_verdict(sixty, match, 0, 1, x=0.0).kind == "double, take"
    assert match_verdict(sixty, match, 0, 1, x=X).kind == "no double"
    assert match_verdict([0.74, 0, 0, 0, 0], match, 0, 1, x=X).kind == "double, take"
    assert match_verdict([0.85, 0, 0, 0, 0], match, 0, 1, x=X).kind == "double, pass"


# ------------------------------------------------------------------ through cube_action
def _view(match: Match, side: int = 0, value: int = 1, owner: int = -1) -> MatchView:
    """A match view whose game has ``side`` on roll at the start position, cube question
    asked (cube at ``value``, owned by ``owner``)."""
    view = MatchView(match)
    view.game = Game.from_position(Position.start(), np.random.default_rng(0), Rules(cube=True),
                                   turn=side, cube_value=value, cube_owner=owner)
    return view


def _fixed(probs):
    return lambda position: np.asarray(probs, dtype=float)


def test_cube_action_uses_the_live_model_unless_switched_off():
    # 4-away/4-away: the dead model doubles at 60 %, the live one waits for its market
    match = Match(7, score=(3, 3))
    sixty = _fixed([0.6, 0.0, 0.0, 0.0, 0.0])
    live, dead = CubeSettings(), CubeSettings(live_match_cube=False)
    assert cube_action(_view(match), [ROLL, DOUBLE], sixty, dead) == DOUBLE
    assert cube_action(_view(match), [ROLL, DOUBLE], sixty, live) == ROLL
    # the answer at 25 %: a take with the recube (21.5 %), a drop without (28.8 %)
    view = _view(match)
    view.game.offer_double()
    doubler_75 = _fixed([0.75, 0.0, 0.0, 0.0, 0.0])  # the doubler's probabilities
    assert cube_action(view, [TAKE, DROP], doubler_75, live) == TAKE
    assert cube_action(view, [TAKE, DROP], doubler_75, dead) == DROP


def test_no_double_when_a_single_win_already_wins_the_match():
    match = Match(7, score=(5, 4))  # side 0 2-away owns the cube at 2
    view = _view(match, side=0, value=2, owner=0)
    assert cube_action(view, [ROLL, DOUBLE], _fixed([0.9, 0.0, 0.0, 0.0, 0.0])) == ROLL


def test_money_decisions_ignore_the_match_switch():
    view = MatchView(None)
    view.game = Game.from_position(Position.start(), np.random.default_rng(0), Rules(cube=True))
    seen = set()
    for p in np.linspace(0.5, 0.95, 10):
        probs = _fixed([p, 0.1, 0.0, 0.05, 0.0])
        answers = {cube_action(view, [ROLL, DOUBLE], probs, CubeSettings(live_match_cube=s))
                   for s in (True, False)}
        assert len(answers) == 1
        seen |= answers
    assert seen == {ROLL, DOUBLE}


def test_the_owner_of_a_free_redouble_redoubles_while_the_leader_takes():
    # 7-point match at 3-5: side 0 (4-away) took at 2 and owns the cube; side 1 (2-away)
    # wins the match with any win at 2, so side 0 loses nothing more at 4. gnubg's 0-ply
    # (Cl2CfMatchOwned with GetPoints, x = 0.68): ND 0.378, DT 0.45 at P(win) 0.45,
    # "double, take"; his no-double equity must not count the redouble it is weighing
    match = Match(7, score=(3, 5))
    verdict = match_verdict([0.45, 0, 0, 0, 0], match, 0, 2, x=X)
    assert verdict.no_double == pytest.approx(0.32 * 0.45 * 0.5 + 0.68 * 0.45)
    assert verdict.double_take == pytest.approx(0.45)  # any win at 4 wins him the match
    assert verdict.kind == "double, take"
    for p in (0.25, 0.35, 0.49):
        view = _view(match, side=0, value=2, owner=0)
        assert cube_action(view, [ROLL, DOUBLE], _fixed([p, 0, 0, 0, 0])) == DOUBLE
    # a favourite's redouble would be dropped: a cash of 2-away/2-away
    assert match_verdict([0.55, 0, 0, 0, 0], match, 0, 2, x=X).kind == "double, pass"


def test_a_tie_of_double_take_and_no_double_doubles():
    # post-Crawford, fully live cube: the 2-away trailer's ND and DT coincide below 50 %
    # (the leader's recube is dead); gnubg's FindBestCubeDecision doubles on DT >= ND
    match = Match(7, score=(5, 6))
    for p in (0.2, 0.35, 0.45):
        verdict = match_verdict([p, 0, 0, 0, 0], match, 0, 1, x=1.0)
        assert verdict.double_take == pytest.approx(verdict.no_double, abs=1e-12)
        assert verdict.kind == "double, take"


def test_a_centred_cube_above_one_is_judged_centred_in_match_play():
    # an 11-point match started with a centred 2-cube (automatic doubles, or a Match ID):
    # the opponent may still double, which lowers the roller's no-double equity; read as
    # his own cube he would wait at 70 % (0.5624 > DT 0.5570), centred he doubles (0.5568)
    match, seventy = Match(11), [0.70, 0, 0, 0, 0]
    centred = match_verdict(seventy, match, 0, 2, x=X, owner="centred")
    owned = match_verdict(seventy, match, 0, 2, x=X, owner=OWNED)
    assert centred.no_double < centred.double_take < owned.no_double
    assert (centred.kind, owned.kind) == ("double, take", "no double")
    assert cube_action(_view(match, value=2, owner=-1), [ROLL, DOUBLE], _fixed(seventy)) == DOUBLE
    assert cube_action(_view(match, value=2, owner=0), [ROLL, DOUBLE], _fixed(seventy)) == ROLL
    with pytest.raises(ValueError, match="owner='opponent'"):
        match_verdict(seventy, match, 0, 2, owner="opponent")


def test_two_away_two_away_is_valued_cubeless_as_gnubg_does():
    # gnubg's fDoCubeful is false at 2-away/2-away: no double is valued cubeless. A 70 %
    # favourite with 30 % gammons plays on for the gammon by the live model (it keeps its
    # cash for later) but cashes by gnubg's: cubeless ND 0.6677 < DP 0.6774
    match = Match(7, score=(5, 5))
    probs = [0.7, 0.3, 0.0, 0.0, 0.0]
    verdict = match_verdict(probs, match, 0, 1, x=X)
    assert verdict.no_double == pytest.approx(dead_mwc(match, 0, probs, 1))
    assert verdict.no_double == pytest.approx(0.4 * 0.67736 + 0.3 + 0.3 * (1 - 0.67736), abs=1e-4)
    assert verdict.kind == "double, pass"
    assert cubeless_score(match, 1)
    assert not cubeless_score(Match(7, score=(4, 5)), 1)  # 3-away/2-away: the cube lives
    assert cubeless_score(Match(7, score=(6, 3), crawford=True), 1)
    assert cubeless_score(Match(7, score=(4, 5)), 4)  # either side's win at 4 wins
