"""Known positions, one per rule of RULES.md §2-4, with the expected plays in notation.

Positions are written with ``pos`` (tests/helpers.py): ``x`` is the player on roll, and
**every point is in x's numbering**, the opponent's (``o``) checkers included; unlisted
checkers are borne off. Expected plays are sets of ``play.notation``; every expected set
here was checked against GNU Backgammon (gnubg-nn) as sets of result positions.
On failure the rendered board is printed.
"""

from __future__ import annotations

import pytest
from helpers import pos, show

from bg_env.rules import Position, legal_plays, legal_plays_reference, legal_results


def check(text: str, dice: tuple[int, int], expected: set[str]) -> list:
    """Assert the plays of ``text`` with ``dice`` (both generators) are ``expected``."""
    position = pos(text)
    plays = legal_plays(position, dice)
    got = {play.notation for play in plays}
    assert got == expected, show(
        position, dice, f"expected {sorted(expected)}", f"got      {sorted(got)}"
    )
    assert len(plays) == len(expected), show(position, dice, "two plays share a notation")
    reference = {p.result for p in legal_plays_reference(position, dice)}
    assert {p.result for p in plays} == reference, show(position, dice, "legal_plays != reference")
    return plays


# ------------------------------------------------------------------ §2 moving
def test_play_the_smaller_die_first_when_only_that_order_uses_both():
    # 14/8 is blocked, 3/1 leaves the 6 unplayable; only 14/12 then 12/6 plays both dice.
    check("x 14 3:2; o 8:2", (6, 2), {"14/6"})


def test_either_die_but_not_both_plays_the_larger():
    # 14/8 or 14/12, but both routes to the 6-point are blocked: the 6 must be played.
    check("x 14; o 6:2", (6, 2), {"14/8"})


def test_only_the_smaller_die_playable_is_played():
    # The 6 is blocked before and after the 2.
    check("x 14; o 8:2 6:2", (6, 2), {"14/12"})


def test_touching_down_on_a_blot_hits_it():
    # 13/7*/5 and 13/11/5 end on the same point, but one of them hits: two plays.
    plays = check("x 13; o 7", (6, 2), {"13/7*/5", "13/5"})
    hit = next(p for p in plays if p.notation == "13/7*/5")
    assert hit.result.opp[25] == 1, show(hit.result)


def test_intermediate_point_must_be_open():
    # 13/7 is blocked; 13/11 is fine but 11/5 is blocked; the 6 cannot be played at all.
    check("x 13; o 7:2 5:2", (6, 2), {"13/11"})


@pytest.mark.parametrize(
    "text, dice, expected, used",
    [
        ("x 14; o 5:2", (3, 3), {"14/8"}, 2),  # 14/11/8, then 8/5 is blocked
        ("x 14; o 2:2", (3, 3), {"14/5"}, 3),  # 5/2 is blocked
        ("x 24 14; o 18:2 5:2", (3, 3), {"24/21 14/8"}, 3),  # two checkers share three
    ],
)
def test_doubles_play_as_many_of_the_four_as_possible(text, dice, expected, used):
    plays = check(text, dice, expected)
    assert all(len(p.moves) == used for p in plays), show(pos(text), dice, str(plays))


@pytest.mark.parametrize(
    "text, dice",
    [
        ("x bar:1 6:2; o 19:2 20:2 21:2 22:2 23:2 24:2", (4, 2)),  # closed board
        ("x 14; o 8:2 12:2", (6, 2)),  # both dice blocked
        ("x bar:2 13:5 8:3 6:5; o 19:2 20:2 21:2 1:2 12:5", (5, 4)),  # 4 and 5 points held
    ],
)
def test_no_legal_move_gives_one_empty_play(text, dice):
    position = pos(text)
    plays = legal_plays(position, dice)
    assert [p.notation for p in plays] == ["Ø"], show(position, dice, str(plays))
    assert plays[0].moves == () and plays[0].actions == ()
    assert plays[0].result == position, show(position, dice)
    assert legal_results(position.position_id(), dice) == {position.position_id()}


# ------------------------------------------------------------ §3 hitting and entering
def test_enter_with_the_open_die_first():
    # The 6 cannot enter (x's 19 is held); enter with the 1, then any checker plays the 6.
    check("x bar:1 13:5 8:3 6:6; o 19:2", (6, 1), {"bar/18", "bar/24 13/7", "bar/24 8/2"})


BAR_TWO = "x bar:2 13:5 8:3 6:5; o 19:2 20:2 21:2 1:2 12:5"  # o holds x's 19, 20, 21


@pytest.mark.parametrize(
    "dice, expected",
    [
        ((3, 2), {"bar/23 bar/22"}),  # both enter; nothing else may move
        ((6, 3), {"bar/22"}),  # one enters, the 6 is lost while a checker is still up
        ((5, 4), {"Ø"}),
        (
            (3, 3),  # both enter, then the other two 3s move any checker
            {
                "bar/22(2) 13/10 6/3", "bar/22(2) 13/10 8/5", "bar/22(2) 13/10(2)",
                "bar/22(2) 13/7", "bar/22(2) 6/3(2)", "bar/22(2) 8/2",
                "bar/22(2) 8/5 6/3", "bar/22(2) 8/5(2)",
            },
        ),
    ],
)
def test_two_checkers_on_the_bar_against_a_half_closed_board(dice, expected):
    check(BAR_TWO, dice, expected)


def test_every_checker_on_the_bar_enters_before_any_other_moves():
    position = pos(BAR_TWO)
    for d1 in range(1, 7):
        for d2 in range(1, 7):
            for play in legal_plays(position, (d1, d2)):
                sources = [m.source for m in play.moves]
                entered = min(len(sources), 2)
                assert sources[:entered] == [25] * entered, show(position, (d1, d2), play.notation)


# ----------------------------------------------------------------- §4 bearing off
@pytest.mark.parametrize(
    "text, dice, expected",
    [
        ("x 4 2", (6, 5), {"4/off 2/off"}),  # both dice larger than every point
        ("x 4 2", (5, 5), {"4/off 2/off"}),
        # the 6 bears off the 5 (none higher); the 1 plays 2/1 or 5/4 first (then 4/off)
        ("x 5 2", (6, 1), {"5/off 2/1", "5/off"}),
    ],
)
def test_bear_off_with_a_larger_die_only_from_the_highest_point(text, dice, expected):
    check(text, dice, expected)


def test_move_inside_rather_than_bear_off_when_a_higher_checker_exists():
    # Neither the 5 nor the 4 may bear off the 3 while the 6-point is occupied.
    check("x 6:2 3", (5, 4), {"6/2 6/1"})
    # The 5 may not bear off the 3 while the 6 stands: 6/1, or 6/5 then 5/off.
    check("x 6 3", (5, 1), {"6/1 3/2", "6/off"})
    # A die that matches an occupied point still bears off from it.
    check("x 6 4 2", (4, 2), {"4/off 2/off", "6/2 4/2", "6/off"})


def test_no_bearing_off_while_a_checker_is_outside():
    # The 5 bears off only once 7/1 has brought the last checker home.
    check("x 7 6 5", (6, 5), {"7/1 5/off", "7/1 6/1", "7/2 6/off"})


def test_hit_during_bear_off_sends_the_blot_to_the_bar():
    plays = check("x 3:3 2:2; o 1 bar", (3, 2), {"3/1* 3/off", "3/off 2/off"})
    hit = next(p for p in plays if p.notation == "3/1* 3/off")
    assert hit.result.opp[25] == 2, show(hit.result)
    # The opponent must enter both before anything else moves.
    them = hit.result.swap()
    for play in legal_plays(them, (6, 5)):
        entered = [m.source == 25 for m in play.moves]
        assert entered == [True] * len(entered), show(them, (6, 5), play.notation)


def test_checker_hit_during_bear_off_reenters_and_comes_home_before_bearing_off():
    # x was hit while bearing off: bar/19 or bar/20, then the other die may not bear off.
    check("x bar:1 6:3 5:4; o 12:3", (6, 5), {"bar/14", "bar/19 6/1"})


def test_2_1_with_the_last_checker_on_the_2_point_and_a_blot_on_the_1_point():
    # Both dice must be used: 2/1* then 1/off, not 2/off with the 2 alone.
    plays = check("x 2; o 1", (2, 1), {"2/1*/off"})
    assert plays[0].result.opp[25] == 1 and not any(plays[0].result.me[1:])


# ---------------------------------------------------------------- opening rolls
OPENING_COUNTS = {  # distinct plays from the start position, from gnubg_nn.moves
    (2, 1): 15, (3, 1): 16, (3, 2): 17, (4, 1): 14, (4, 2): 18, (4, 3): 17,
    (5, 1): 8, (5, 2): 8, (5, 3): 9, (5, 4): 9, (6, 1): 10, (6, 2): 14, (6, 3): 14,
    (6, 4): 14, (6, 5): 7,
    (1, 1): 42, (2, 2): 75, (3, 3): 73, (4, 4): 52, (5, 5): 4, (6, 6): 11,
}


@pytest.mark.parametrize("dice", sorted(OPENING_COUNTS))
def test_opening_roll_counts(dice):
    start = Position.start()
    got = legal_plays(start, dice)
    assert len(got) == OPENING_COUNTS[dice], show(start, dice, *sorted(p.notation for p in got))
    swapped = legal_plays(start, dice[::-1])
    assert {p.result for p in swapped} == {p.result for p in got}


@pytest.mark.parametrize(
    "dice, expected",
    [
        ((6, 5), {"24/13", "24/18 13/8", "24/18 8/3", "13/8 13/7", "13/7 8/3", "13/2", "8/3 8/2"}),
        ((5, 5), {"13/8(4)", "13/8(2) 13/3", "13/3(2)", "13/3 8/3(2)"}),
        (
            (3, 1),
            {
                "8/5 6/5", "13/10 6/5", "13/10 8/7", "13/9", "24/20", "24/21 6/5", "24/21 8/7",
                "24/23 13/10", "24/23 24/21", "24/23 6/3", "24/23 8/5", "6/2", "6/5 6/3",
                "8/4", "8/7 6/3", "8/7 8/5",
            },
        ),
    ],
)
def test_opening_plays(dice, expected):
    check("x 24:2 13:5 8:3 6:5; o 1:2 12:5 17:3 19:5", dice, expected)


# ------------------------------------------------------------------ Position IDs
def test_start_position_id():
    assert Position.start().position_id() == "4HPwATDgc/ABMA"
    assert pos("x 24:2 13:5 8:3 6:5; o 1:2 12:5 17:3 19:5") == Position.start()


def test_position_id_after_3_1_from_both_sides():
    start = Position.start()
    play = start.parse_play("8/5 6/5", (3, 1))
    assert play.result.position_id() == "4HPwATCwZ/ABMA", show(play.result)
    assert play.result.swap().position_id() == "sGfwATDgc/ABMA", show(play.result.swap())
    assert Position.from_position_id("sGfwATDgc/ABMA") == play.result.swap()


@pytest.mark.parametrize("dice", ["31", (3,), (3, 1, 2), (7, 1), (3.0, 1), (True, 1), 5])
def test_dice_that_are_not_two_integers_1_to_6_are_named(dice):
    from bg_env.kernels.fast import legal_plays_fast

    start = Position.start()
    calls = (lambda: start.legal_plays(dice), lambda: start.parse_play("8/5 6/5", dice),
             lambda: legal_plays_fast(start, dice), lambda: legal_plays_reference(start, dice))
    for call in calls:
        with pytest.raises(ValueError, match="expected two integer dice 1..6"):
            call()


def test_numpy_dice_are_dice():
    import numpy as np

    from bg_env.kernels.fast import legal_plays_fast

    start = Position.start()
    roll = (np.int64(3), np.int8(1))
    assert start.parse_play("8/5 6/5", roll).result.position_id() == "4HPwATCwZ/ABMA"
    assert [p.result for p in legal_plays_fast(start, roll)] == \
        [p.result for p in start.legal_plays((3, 1))]
