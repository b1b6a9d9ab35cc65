""".mat records as GNU Backgammon writes and reads them: long names in the score line, rules
a record cannot hold, a resignation after the roll, the order of the dice, names."""

from __future__ import annotations

import numpy as np

from bg_env.core.game import Game, Phase, Rules
from bg_env.records import MatchRecord, format_mat, parse_mat


def _random_game(seed: int, rules: Rules | None = None) -> Game:
    rng = np.random.default_rng(seed)
    game = Game(rules or Rules(cube=False))
    game.events = []
    game.opening(rng)
    while game.phase != Phase.OVER:
        legal = game.legal_actions()
        game.step(legal[int(rng.integers(len(legal)))], rng)
    return game


def _session(names: tuple[str, str], seeds=(1, 2), rules: Rules | None = None) -> MatchRecord:
    record = MatchRecord(names, 0)
    for seed in seeds:
        record.add_game(_random_game(seed, rules), first_side=seed % 2)
    return record


def _score_lines(text: str) -> list[str]:
    lines = text.splitlines()
    return [lines[i + 1] for i, line in enumerate(lines) if line.startswith(" Game ")]


def test_a_long_first_name_keeps_a_space_before_the_second_and_reads_back():
    record = _session(("td:runs/2024-06-01/td_final.pt", "pubeval"))
    text = format_mat(record)
    assert _score_lines(text)[0] == " td_runs/2024-06-01/td_final.pt : 0 pubeval : 0"
    back = parse_mat(text)
    assert back.points() == record.points()
    without_comments = "\n".join(l for l in text.splitlines() if not l.startswith(";"))
    assert parse_mat(without_comments).players == ("td_runs/2024-06-01/td_final.pt", "pubeval")


def test_short_names_keep_gnubg_columns():
    text = format_mat(_session(("alice", "bob")))
    assert _score_lines(text)[0] == " alice : 0" + " " * 22 + "bob : 0"
