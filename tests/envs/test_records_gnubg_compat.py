""".mat records as GNU Backgammon writes and reads them: long names in the score line, rules
a record cannot hold, a resignation after the roll, the order of the dice, names."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from agents import load_agent
from agents.evaluation.evaluate import evaluate
from bg_env.rules.actions import DOUBLE, TAKE
from bg_env.game.game import Game, Phase, Rules
from bg_env.records import (
    MAX_CUBE, Action, MatchRecord, RecordError, check_rules, format_mat, mat_name, parse_mat,
    replay_game,
)

DATA = Path(__file__).resolve().parents[1] / "data"


def _random_game(seed: int, rules: Rules | None = None) -> Game:
    rng = np.random.default_rng(seed)
    game = Game(rules or Rules(cube=False))
    game.events = []
    game.opening(rng)
    while game.phase != Phase.OVER:
        legal = game.legal_actions()
        game.step(legal[int(rng.integers(len(legal)))], rng)
    return game


def _record(names: tuple[str, str], seeds=(1, 2), rules: Rules | None = None) -> MatchRecord:
    record = MatchRecord(names, 0)
    for seed in seeds:
        record.add_game(_random_game(seed, rules), first_side=seed % 2)
    return record


def _score_lines(text: str) -> list[str]:
    lines = text.splitlines()
    return [lines[i + 1] for i, line in enumerate(lines) if line.startswith(" Game ")]


def test_a_long_first_name_keeps_a_space_before_the_second_and_reads_back():
    record = _record(("td:runs/2024-06-01/td_final.pt", "pubeval"))
    text = format_mat(record)
    assert _score_lines(text)[0] == " td_runs/2024-06-01/td_final.pt : 0 pubeval : 0"
    back = parse_mat(text)
    assert back.points() == record.points()
    without_comments = "\n".join(l for l in text.splitlines() if not l.startswith(";"))
    assert parse_mat(without_comments).players == ("td_runs/2024-06-01/td_final.pt", "pubeval")


def test_short_names_keep_gnubg_columns():
    text = format_mat(_record(("alice", "bob")))
    assert _score_lines(text)[0] == " alice : 0" + " " * 22 + "bob : 0"


# ----------------------------------------------------------------------- rules and cube
@pytest.mark.parametrize("rules, named", [
    (Rules(beaver=True), "beaver=True"),
    (Rules(max_cube=0), "max_cube=0"),
    (Rules(max_cube=8192), "max_cube=8192"),
])
def test_rules_a_record_cannot_hold_are_refused_before_playing(rules, named):
    with pytest.raises(RecordError, match=named):
        check_rules(rules)
    with pytest.raises(RecordError, match=named):
        evaluate(load_agent("random"), load_agent("random"), games=2, seed=0, cube=True,
                 record=MatchRecord(), beaver=rules.beaver, max_cube=rules.max_cube)


def test_gnubgs_cube_limit_is_allowed():
    check_rules(Rules(max_cube=MAX_CUBE))
    assert MAX_CUBE == 4096


def _big_cube_game(at_least: int) -> Game:
    """A money game whose cube reached ``at_least`` (every double taken)."""
    for seed in range(100):
        rng = np.random.default_rng(seed)
        game = Game(Rules(max_cube=MAX_CUBE))
        game.events = []
        game.opening(rng)
        while game.phase != Phase.OVER:
            legal = game.legal_actions()
            action = DOUBLE if DOUBLE in legal else TAKE if TAKE in legal else None
            if action is None:
                action = legal[int(rng.integers(len(legal)))]
            game.step(action, rng)
        if game.result.cube_value >= at_least:
            return game
    raise AssertionError("no game reached the cube")


def test_a_cube_past_64_reads_back_by_default_and_a_lower_limit_is_named():
    game = _big_cube_game(128)
    record = MatchRecord(("a", "b"))
    record.add_game(game)
    text = format_mat(record)
    assert parse_mat(text).points() == record.points()
    assert replay_game(record.games[0]).result.points == record.games[0].points
    with pytest.raises(RecordError, match="over the rules' max_cube=64"):
        parse_mat(text, Rules(max_cube=64))


# ----------------------------------------------------------------------- resignations
def test_gnubgs_export_of_a_resignation_after_the_roll_reads_and_round_trips():
    text = (DATA / "gnubg_resign_after_roll.mat").read_text()  # GNU Backgammon 1.07's export
    record = parse_mat(text)
    game = record.games[0]
    assert (game.winner, game.points, game.outcome) == (0, 1, "resign")
    last = game.actions[-1]
    assert (last.player, last.dice, last.moves) == (1, (6, 2), ())
    again = parse_mat(format_mat(record))
    assert again.games[0].actions == game.actions and again.points() == (1, 0)


def test_a_roll_with_no_play_where_plays_exist_is_illegal_unless_the_game_resigns():
    lines = (DATA / "gnubg_resign_after_roll.mat").read_text().rstrip("\n").splitlines()
    assert lines[-1].strip() == "Wins 1 point"
    with pytest.raises(RecordError, match="game 1, move 7, .*illegal play '62:'"):
        parse_mat("\n".join(lines[:-1]) + "\n")  # no 'Wins' line: the game goes on


# ----------------------------------------------------------------------- dice order
def test_rolls_are_written_larger_die_first():
    assert Action(0, "roll", (2, 6), ((24, 18, False), (13, 11, False))).text() == \
        "62: 24/18 13/11"
    text = format_mat(_record(("a", "b"), seeds=range(1, 5)))
    rolls = re.findall(r"\b([1-6])([1-6]):", text)
    assert rolls and all(a >= b for a, b in rolls)
    assert any(a > b for a, b in rolls)


# ----------------------------------------------------------------------- names
def test_a_name_is_cut_to_31_utf8_bytes_on_a_character_boundary():
    name = mat_name("ÄÖÜ" * 5 + "Ä")  # 16 characters, 32 bytes
    assert name == "ÄÖÜ" * 5 and len(name.encode()) == 30
    assert len(mat_name("a" + "Ä" * 20).encode()) == 31


def test_commas_and_control_characters_are_replaced_in_names_and_comments():
    assert mat_name("gnu,1600") == "gnu_1600"  # (gnubg reads ',1600' as a rating)
    assert mat_name("a\nb\x00c\u2028d") == "a_b_c_d"
    text = format_mat(_record(("a\nb", "td,2")))
    assert '; [Player 1 "a b"]' in text and " a_b : 0" in text and "td_2 : 0" in text
    assert parse_mat(text).players == ("a b", "td,2")


def test_equal_names_get_distinct_score_line_names():
    text = format_mat(_record(("random", "random")))
    assert _score_lines(text)[0] == " random : 0" + " " * 21 + "random_2 : 0"
    assert parse_mat(text).players == ("random", "random")  # (the comments)
    long = format_mat(_record(("x" * 40, "x" * 31)))
    assert _score_lines(long)[0].startswith(" " + "x" * 31 + " : 0 " + "x" * 29 + "_2 : 0")


# ----------------------------------------------------------------------- reader errors
@pytest.mark.parametrize("length", ["99999999999999999999", "40000"])
def test_a_match_length_the_engine_cannot_hold_is_a_record_error(length):
    text = f"; comment\n {length} point match\n\n Game 1\n a : 0   b : 0\n  1) 31: 8/5 6/5\n"
    with pytest.raises(RecordError, match=rf"line 2: '{length} point match': .*32767"):
        parse_mat(text)
