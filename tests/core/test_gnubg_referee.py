"""The engine against GNU Backgammon (gnubg-nn) on seeded random positions from every
phase: legal results as sets, the empty play when gnubg finds none, Position IDs.
Skipped when gnubg-nn is not installed (``pip install -e ".[referee]"``)."""

from __future__ import annotations

import random

import pytest
from helpers import PHASES, random_cases, random_dice, random_position, show

from bg_env.rules import Position, legal_plays, legal_results

gnubg_nn = pytest.importorskip(
    "gnubg_nn", reason="gnubg-nn (the referee) is not installed: pip install -e '.[referee]'"
)

CASES_PER_PHASE = 500


def gnubg_results(position: Position, dice: tuple[int, int]) -> set[str]:
    """gnubg's legal results as Position IDs (same player on roll); the position itself
    when gnubg finds no legal move."""
    keys = gnubg_nn.moves(position.gnubg_board(), dice[0], dice[1])
    boards = (gnubg_nn.board_from_position_key(k) for k in keys)
    results = {Position.from_gnubg_board(b).position_id() for b in boards}
    return results or {position.position_id()}


def _diff(position, dice, ours: set[str], theirs: set[str]) -> str:
    by_id = {p.result.position_id(): p.notation for p in legal_plays(position, dice)}
    return show(
        position, dice,
        f"only the engine: {sorted(by_id.get(i, i) for i in ours - theirs)}",
        f"only gnubg:      {sorted(theirs - ours)}",
    )


@pytest.mark.parametrize("phase", PHASES)
def test_legal_results_match_gnubg(phase):
    rng = random.Random(f"referee-{phase}")
    for _ in range(CASES_PER_PHASE):
        position = random_position(rng, phase)
        dice = random_dice(rng)
        pid = position.position_id()
        ours = legal_results(pid, dice)
        theirs = gnubg_results(position, dice)
        assert ours == theirs, _diff(position, dice, ours, theirs)


def test_legal_plays_match_gnubg_for_all_21_rolls_on_mixed_positions():
    for _phase, position, _dice in random_cases(70, seed=99):
        for d1 in range(1, 7):
            for d2 in range(1, d1 + 1):
                plays = legal_plays(position, (d1, d2))
                ours = {p.result.position_id() for p in plays}
                assert len(ours) == len(plays), show(position, (d1, d2), "duplicate results")
                theirs = gnubg_results(position, (d1, d2))
                assert ours == theirs, _diff(position, (d1, d2), ours, theirs)


def test_position_ids_match_gnubg():
    for _phase, position, _dice in random_cases(1500, seed=5):
        board = position.gnubg_board()
        pid = position.position_id()
        assert pid == gnubg_nn.position_id(board), show(position)
        decoded = [list(side) for side in gnubg_nn.board_from_position_id(pid)]
        assert decoded == board, show(position)
        swapped = position.swap()
        assert swapped.position_id() == gnubg_nn.position_id(swapped.gnubg_board())


def test_known_position_ids_match_gnubg():
    start = Position.start()
    assert gnubg_nn.position_id(start.gnubg_board()) == "4HPwATDgc/ABMA"
    after = start.parse_play("8/5 6/5", (3, 1)).result
    assert gnubg_nn.position_id(after.gnubg_board()) == "4HPwATCwZ/ABMA"
    assert gnubg_nn.position_id(after.swap().gnubg_board()) == "sGfwATDgc/ABMA"
