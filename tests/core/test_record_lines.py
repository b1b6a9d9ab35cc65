"""Record lines (docs/RULES.md §8, §10): a play read with its roll (``4-2: 8/4 6/4``), and
written with the sources' mark for a die that cannot be played (``6/1, Ø``); every line
written reads back to the same play, in every variant's random games."""

from __future__ import annotations

import random

import pytest

from bg_env import Position
from bg_env.rules.magriel import InvalidNotationError, format_record_line, split_record_line
from bg_env.rules.moves import legal_plays
from bg_env.rules.notation import parse_play
from bg_env.rules.variants import get_variant, legal_plays_variant


def test_a_record_line_gives_its_dice():
    start = Position.start()
    assert (start.parse_play("4-2: 8/4 6/4").result
            == start.parse_play("8/4 6/4", (4, 2)).result
            == parse_play(start, "42: 8/4 6/4").result)
    assert start.parse_play("2-4: 8/4 6/4", (4, 2)).notation == "8/4 6/4"  # either order


@pytest.mark.parametrize("text, dice, words", [
    ("8/4 6/4", None, "no roll given"),
    ("6-5: 8/4 6/4", (4, 2), "the line's roll 6-5 is not the dice 4-2"),
])
def test_a_line_without_its_roll_or_with_another_is_named(text, dice, words):
    with pytest.raises(InvalidNotationError, match=words):
        Position.start().parse_play(text, dice)


def test_a_lost_die_is_marked_as_the_sources_write_it():
    # on the bar against a board with only the 24-point open: 6-1 enters with the 1 and the
    # 6 cannot be played
    pos = Position.from_position_id("Mh/wAQYtJvgAaA")
    (play,) = pos.legal_plays((1, 6))
    assert format_record_line(play.moves, (1, 6)) == "6-1: bar/24, Ø"
    assert format_record_line(play.moves, (6, 1), lost=False) == "6-1: bar/24"
    assert pos.parse_play("6-1: bar/24, Ø").result == play.result
    assert format_record_line((), (6, 6)) == "6-6: Ø"  # no move at all: one mark


def _plays(variant, pos, dice):
    rules = get_variant(variant)
    return legal_plays(pos, dice) if rules.standard_moves else legal_plays_variant(rules, pos, dice)


@pytest.mark.parametrize("variant", ["standard", "nackgammon", "plakoto", "long_nardy",
                                     "caucasian", "sudden_death"])
def test_every_line_written_reads_back_to_its_play(variant):
    rng = random.Random(7)
    rules = get_variant(variant)
    checked = 0
    for _ in range(6):
        pos = rules.start_position()
        for _ in range(200):
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            plays = _plays(variant, pos, dice)
            if not plays:
                break
            play = rng.choice(plays)
            for lost in (True, False):
                line = format_record_line(play.moves, dice, lost)
                assert split_record_line(line)[0] == (max(dice), min(dice))
                if play.moves:
                    assert parse_play(pos, line, variant=variant).result == play.result, line
            checked += 1
            if play.result.outcome() is not None:
                break
            pos = play.result.swap()
    assert checked > 200
