"""Rule variants (RULES.md §7): start positions, one fixture per special rule, and the
variant generator against the standard reference.

Boards here are written with :func:`board`: each side in its **own** numbering (as the
engine stores them), because Long Nardy's geometry differs from the others. In Plakoto
and the standard-geometry variants the opponent's own point ``q`` is the player's
``25 - q``; in Long Nardy it is the player's ``q + 12`` (``q <= 12``) or ``q - 12``.
"""

from __future__ import annotations

import pytest
from helpers import random_cases, show

from bg_env.rules import Outcome, Position, legal_plays_reference, score_points
from bg_env.rules.position import InvalidPositionError, _side
from bg_env.rules.variants import (
    VARIANTS,
    PinnedPosition,
    explode,
    get_variant,
    legal_plays_variant,
    opp_index,
    variant_outcome,
    variant_sequences,
)


def board(me: dict[int, int], opp: dict[int, int], checkers: int = 15, pinned=None) -> Position:
    """Each side ``{own point: count}`` (25 = bar); the rest of a side is borne off."""
    a, b = _side(me, checkers), _side(opp, checkers)
    return PinnedPosition(a, b, pinned) if pinned is not None else Position(a, b)


def notations(variant, position, dice) -> set[str]:
    return {p.notation for p in legal_plays_variant(variant, position, dice)}


# ----------------------------------------------------------------------- start layouts
@pytest.mark.parametrize(
    "name, layout",
    [
        ("standard", {24: 2, 13: 5, 8: 3, 6: 5}),
        ("nackgammon", {24: 2, 23: 2, 13: 4, 8: 3, 6: 4}),
        ("hypergammon1", {24: 1}),
        ("hypergammon2", {24: 1, 23: 1}),
        ("hypergammon3", {24: 1, 23: 1, 22: 1}),
        ("longgammon", {24: 15}),
        ("plakoto", {24: 15}),
        ("long_nardy", {24: 15}),
        ("sudden_death", {24: 2, 13: 5, 8: 3, 6: 5}),
        ("nuclear", {24: 2, 13: 5, 8: 3, 6: 5}),
        ("caucasian", {24: 2, 13: 5, 8: 3, 6: 5}),
    ],
)
def test_start_positions(name, layout):
    v = get_variant(name)
    start = v.start_position()
    for side in (start.me, start.opp):
        assert {p: n for p, n in enumerate(side) if n and p} == layout
        assert side[0] == 0 and sum(side) == v.checkers
    v.validate(start)


def test_known_start_position_ids():
    # the standard start (GNU Backgammon's manual) and the nackgammon start as gnubg writes it
    assert get_variant("standard").start_position().position_id() == "4HPwATDgc/ABMA"
    nack = get_variant("nackgammon").start_position()
    assert Position.from_position_id(nack.position_id()) == nack
    assert get_variant("hypergammon") is get_variant("hypergammon3")
    hyper = get_variant("hypergammon").start_position()
    assert Position.from_position_id(hyper.position_id(), checkers=3) == hyper


def test_unknown_variant_names_the_choices():
    with pytest.raises(ValueError, match="variant='backgamon'.*nackgammon"):
        get_variant("backgamon")


def test_long_nardy_heads_face_each_other_across_the_board():
    v = get_variant("long_nardy")
    assert opp_index(v, 12) == 24  # the opponent's head is the player's 12-point
    assert [opp_index(v, p) for p in (13, 18)] == [1, 6]  # his home is the player's 13-18
    assert opp_index(get_variant("plakoto"), 1) == 24


# ------------------------------------------------- standard movement: same as reference
@pytest.mark.parametrize("phase, position, dice", list(random_cases(140, seed=61)))
def test_generator_on_standard_rules_equals_the_reference(phase, position, dice):
    ours = {p.result for p in legal_plays_variant("standard", position, dice)}
    ref = {p.result for p in legal_plays_reference(position, dice)}
    assert ours == ref, show(position, dice, f"phase {phase}")


def test_every_sequence_is_playable_and_orders_are_all_listed():
    # 6-5 from 13 with a blot in the way: both orders of the same checker are listed
    position = board({13: 1, 6: 14}, {6: 15})
    seqs = {tuple(str(m) for m in moves) for moves, _ in variant_sequences("standard", position, (6, 5))}
    assert ("13/7", "7/2") in seqs and ("13/8", "8/2") in seqs


# ------------------------------------------------------------------------ sudden death
def test_sudden_death_the_first_hit_ends_the_game():
    # x on 13 and 6 can hit o's blot on x's 8-point with the 5 (13/8*)
    position = board({13: 2, 6: 13}, {17: 1, 24: 14})
    plays = legal_plays_variant("sudden_death", position, (5, 2))
    hits = [p for p in plays if any(m.hit for m in p.moves)]
    assert hits, show(position, (5, 2))
    for play in hits:
        assert play.moves[-1].hit, f"{play.notation}: nothing is played after the hit"
        done = variant_outcome("sudden_death", play.result)
        assert done is not None and done.winner == 0 and done.kind == "hit"
        assert score_points(done, 4) == 4  # one point times the cube
    assert "13/8*" in {p.notation for p in hits}  # a 1-move play: the hit ends it
    quiet = [p for p in plays if not any(m.hit for m in p.moves)]
    assert quiet and all(len(p.moves) == 2 for p in quiet)


def test_sudden_death_bear_off_is_single():
    position = board({}, {24: 15})
    done = variant_outcome("sudden_death", position)
    assert done.winner == 0 and done.kind == "single"
    assert variant_outcome("standard", position).kind == "backgammon"


# ----------------------------------------------------------------------------- nuclear
def test_the_bomb_sends_every_blot_of_both_sides_to_the_bar():
    position = board({24: 2, 13: 1, 8: 1, 6: 11}, {24: 1, 20: 1, 13: 13})
    after = explode(position)
    assert after.me[25] == 2 and after.me[13] == 0 and after.me[8] == 0 and after.me[24] == 2
    assert after.opp[25] == 2 and after.opp[24] == 0 and after.opp[20] == 0 and after.opp[13] == 13
    assert sum(after.me) == sum(after.opp) == 15


# ------------------------------------------------------------------------------ plakoto
def test_plakoto_landing_on_a_blot_pins_it():
    # x's 20 -> 16 lands on o's lone checker on x's 16 (o's own 9)
    position = board({20: 1, 24: 14}, {9: 1, 24: 14}, pinned=(0, 0))
    plays = {p.notation: p for p in legal_plays_variant("plakoto", position, (4, 1))}
    play = plays["24/23 20/16*"] if "24/23 20/16*" in plays else plays["20/16* 24/23"]
    result = play.result
    assert isinstance(result, PinnedPosition)
    assert result.opp[9] == 1 and result.me[16] == 1  # both stay on the point
    assert result.pinned == (0, 1 << 9)
    assert result.opp[25] == 0  # no bar in plakoto


def test_plakoto_a_pinned_checker_cannot_move():
    # o pins x's checker on x's 16 (o's 9 holds o on top): x's 16 never moves
    position = board({16: 1, 24: 14}, {9: 1, 24: 14}, pinned=(1 << 16, 0))
    get_variant("plakoto").validate(position)
    for dice in ((1, 2), (6, 6), (3, 5)):
        for play in legal_plays_variant("plakoto", position, dice):
            assert all(m.source != 16 for m in play.moves), play.notation
    # and the point belongs to o: x cannot land on it (24/16 with 6-2 is not allowed)
    assert not any("/16" in n for n in notations("plakoto", position, (6, 2)))


def test_plakoto_the_pinner_may_stack_and_releases_when_it_leaves():
    # x pins o on x's 16 (o's 9); x may add a checker there, and leaving frees o
    position = board({16: 1, 20: 1, 24: 13}, {9: 1, 24: 14}, pinned=(0, 1 << 9))
    plays = legal_plays_variant("plakoto", position, (4, 3))
    assert any(p.result.me[16] == 2 and p.result.pinned[1] == 1 << 9 for p in plays)
    freed = [p for p in plays if p.result.me[16] == 0]
    assert freed and all(p.result.pinned == (0, 0) for p in freed)


def test_plakoto_pinning_the_mother_wins_a_double_game():
    # o's last checker on his 24-point (x's 1) is alone; x on 3 can land on it with a 2
    position = board({3: 1, 6: 14}, {24: 1, 1: 14}, pinned=(0, 0))
    plays = legal_plays_variant("plakoto", position, (2, 1))
    mother = [p for p in plays if variant_outcome("plakoto", p.result)]
    assert {p.notation for p in mother} == {"3/1*", "6/5 3/1*"}  # nothing is played after the pin
    done = variant_outcome("plakoto", mother[0].result)
    assert done.winner == 0 and done.kind == "mother" and score_points(done, 2) == 4


@pytest.mark.parametrize(
    "cube, options, points",
    [
        (1, {}, 2),
        (2, {"jacoby": True, "cube_turned": True}, 4),
        (1, {"jacoby": True, "cube_turned": False}, 1),  # the Jacoby rule: like a gammon
        (2, {"gammons": "none"}, 2),
        (2, {"gammons": "no_backgammons"}, 4),
    ],
)
def test_plakoto_a_mother_counts_like_a_gammon_under_the_options(cube, options, points):
    assert score_points(Outcome(0, "mother"), cube, **options) == points


def test_plakoto_gammon_is_two_no_backgammon():
    done = variant_outcome("plakoto", board({}, {1: 15}, pinned=(0, 0)))
    assert done.kind == "gammon" and done.multiplier == 2


# ---------------------------------------------------------------------------- caucasian
def test_caucasian_no_hit_and_hide_in_the_home_board():
    # x hits o's blot on x's 5 with the 3 (8/5*); standard lets that checker go on to
    # x's 4-point (held by x) with the 1; the Caucasian rule does not
    position = board({8: 1, 4: 2, 13: 12}, {20: 1, 24: 14})
    standard = notations("standard", position, (3, 1))
    caucasian = notations("caucasian", position, (3, 1))
    assert "8/5*/4" in standard, standard
    assert "8/5*/4" not in caucasian, caucasian
    assert {"8/5* 13/12", "13/12 8/5*"} & caucasian  # hitting and moving another checker is fine


def test_caucasian_a_home_hitter_may_not_bear_off_while_the_die_plays_otherwise():
    # all home: 6/3* hits; standard lets that checker bear off with the next 3, the
    # Caucasian rule does not while another checker can play the 3 (5/2, 4/1)
    position = board({6: 1, 5: 2, 4: 2}, {22: 1, 13: 14})
    std = notations("standard", position, (3, 3))
    cau = notations("caucasian", position, (3, 3))
    assert {"6/3*/off 5/2(2)", "6/3*/off 4/1(2)"} <= std, std
    assert cau == {"5/2(2) 4/1(2)", "6/3* 5/2 4/1(2)", "6/3* 5/2(2) 4/1"}, cau


@pytest.mark.parametrize(
    "position_id, dice, expected",
    [
        # seed 000's notes: "kill and bear off (if no other move) - allowed". x: one
        # checker on 6 (14 off); o: a blot on x's 2, two on x's 4. The 2 cannot be played
        # before the 4 (x's 4 is closed); after 6/2* only the hitter can play the 2.
        ("4P8BABMgAAAAAA", (4, 2), {"6/2*/off"}),
    ],
)
def test_caucasian_a_home_hitter_bears_off_when_that_is_the_only_way(position_id, dice, expected):
    position = get_variant("caucasian").position_from_id(position_id)
    assert notations("caucasian", position, dice) == expected


def test_caucasian_the_only_way_is_judged_when_the_die_is_played():
    # x: 6, two on 5, two on 1 (10 off); o: a blot on x's 3. After 6/3* 5/2(2) the last 3
    # can be played only by the hitter bearing off (the 2-point checkers are below it)
    position = board({6: 1, 5: 2, 1: 2}, {22: 1, 13: 14})
    assert notations("caucasian", position, (3, 3)) == {"6/3*/off 5/2(2)"}


def test_caucasian_a_hit_outside_home_is_free():
    position = board({13: 1, 4: 2, 24: 12}, {15: 1, 24: 14})  # o's 15 is x's 10
    assert "13/10*/9" in notations("caucasian", position, (3, 1))


# --------------------------------------------------------------------------- long nardy
def test_long_nardy_one_checker_leaves_the_head():
    v = get_variant("long_nardy")
    position = board({24: 14, 20: 1}, {24: 14, 22: 1})  # not the first roll any more
    plays = legal_plays_variant(v, position, (5, 3))
    assert plays and all(sum(m.source == 24 for m in p.moves) <= 1 for p in plays)
    plays = legal_plays_variant(v, position, (2, 2))
    assert all(sum(m.source == 24 for m in p.moves) <= 1 for p in plays)


@pytest.mark.parametrize("die", [6, 4, 3])
def test_long_nardy_first_roll_doubles_take_two_from_the_head(die):
    v = get_variant("long_nardy")
    position = board({24: 15}, {24: 14, 19: 1})  # x's first roll (o has moved)
    plays = legal_plays_variant(v, position, (die, die))
    assert max(sum(m.source == 24 for m in p.moves) for p in plays) == 2
    plays = legal_plays_variant(v, position, (5, 5))
    assert max(sum(m.source == 24 for m in p.moves) for p in plays) == 1


@pytest.mark.parametrize(
    "position_id, dice, expected",
    [
        # the first mover's first roll: one checker stops at the opponent's head (x's 12)
        ("AACA/z8AAID/Pw", (6, 6), {"24/18(2)"}),
        ("AACA/z8AAID/Pw", (4, 4), {"24/16(2)"}),
        ("AACA/z8AAID/Pw", (3, 3), {"24/18(2)", "24/21 24/15"}),
        # seed 003's note: after White's opening 5-5 (one checker to his 4-point, Black's
        # 16), Black's 4-4 takes one checker off the head and plays one four: White's
        # checker, not his head, stops the checker, so the exception does not apply
        ("CAAA/z8AAID/Pw", (4, 4), {"24/20"}),
    ],
)
def test_long_nardy_first_roll_exception_needs_the_opponents_head_in_the_way(
    position_id, dice, expected
):
    v = get_variant("long_nardy")
    position = v.position_from_id(position_id)
    assert position.me[24] == 15  # x's first roll
    assert notations(v, position, dice) == expected


def test_long_nardy_no_landing_on_an_opposing_checker():
    v = get_variant("long_nardy")
    # o's lone checker on his 17 is x's 5; x's 9 -> 5 with the 4 is not allowed
    position = board({9: 1, 24: 14}, {17: 1, 24: 14})
    assert opp_index(v, 5) == 17
    moves = {(m.source, m.die) for p in legal_plays_variant(v, position, (4, 1)) for m in p.moves}
    assert (9, 4) not in moves and (9, 1) in moves, moves


def test_long_nardy_six_block_needs_an_opposing_checker_past_it():
    v = get_variant("long_nardy")
    # x holds 24 (his head, o's 12) and 22..18 (o's 10..6); 24/23 would close o's 12..6
    me = {24: 8, 22: 2, 21: 1, 20: 1, 19: 1, 18: 2}
    trapped = board(me, {24: 14, 13: 1})  # every o checker behind the block
    ahead = board(me, {24: 14, 3: 1})  # one o checker on his 3-point, past it
    assert [opp_index(v, p) for p in (24, 23, 18)] == [12, 11, 6]

    def closes(play) -> bool:
        return all(play.result.me[p] for p in range(18, 25))

    assert not any(closes(p) for p in legal_plays_variant(v, trapped, (1, 1)))
    assert any(closes(p) for p in legal_plays_variant(v, ahead, (1, 1)))


def test_long_nardy_mars_is_two():
    done = variant_outcome("long_nardy", board({}, {24: 15}))
    assert done.kind == "gammon" and done.multiplier == 2


# ----------------------------------------------------------------------- bad positions
def test_validate_names_the_problem():
    with pytest.raises(InvalidPositionError, match="hypergammon3: the player has 15 checkers"):
        get_variant("hypergammon").validate(Position.start())
    with pytest.raises(InvalidPositionError, match="long_nardy: point 12"):
        get_variant("long_nardy").validate(board({24: 14, 12: 1}, {24: 15}))
    with pytest.raises(InvalidPositionError, match="no bar"):
        get_variant("plakoto").validate(board({25: 1, 24: 14}, {24: 15}, pinned=(0, 0)))


def test_every_variant_is_listed():
    assert set(VARIANTS) >= {
        "standard", "nackgammon", "hypergammon", "hypergammon1", "hypergammon2", "hypergammon3",
        "longgammon", "sudden_death", "nuclear", "plakoto", "caucasian", "long_nardy",
    }


def test_text_board_draws_a_pinned_checker_in_lower_case():
    position = board({16: 1, 24: 14}, {9: 1, 24: 14}, pinned=(0, 1 << 9))  # x pins o on x's 16
    lines = str(position).splitlines()
    column = 3 + 3 * 3  # the 16-point is the 4th column of the top-left quarter
    assert lines[1].split()[3] == "16"
    assert lines[3][column] == "o" and lines[4][column] == "X"
    edge = str(position.swap()).splitlines()[-4]  # o's view: x pinned on o's 9, bottom edge
    assert edge[column] == "x", edge


def test_notation_reads_and_writes_variant_plays():
    from bg_env.rules import IllegalMoveError, parse_play

    start = get_variant("long_nardy").start_position()
    play = parse_play(start, "24/18 24/18", (6, 6), variant="long_nardy")  # first-roll 6-6
    assert play.notation == "24/18(2)"
    with pytest.raises(IllegalMoveError, match="is not legal; legal plays: 24/18"):
        parse_play(start, "24/12", (6, 6), variant="long_nardy")  # 18/12 lands on o's head
    position = board({20: 1, 24: 14}, {9: 1, 24: 14}, pinned=(0, 0))
    pin = parse_play(position, "20/16* 24/23", (4, 1), variant="plakoto")
    assert pin.result.pinned == (0, 1 << 9)
