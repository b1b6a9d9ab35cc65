"""The opening (RULES.md §1, §6, §7): who starts, what he plays first, and the automatic
doubles of opening ties, on :class:`Game` with scripted dice."""

from __future__ import annotations

import numpy as np
import pytest

from bg_env.game.game import Game, Rules
from bg_env.rules.moves import Play


class ScriptedDice:
    """A generator that deals the dice it is given, in order (single draws and pairs)."""

    def __init__(self, *dice: int):
        self.dice = list(dice)

    def integers(self, low, high=None, size=None):
        if size is None:
            return self.dice.pop(0)
        return np.array([self.dice.pop(0) for _ in range(size)])


@pytest.mark.parametrize("variant", ["standard", "plakoto", "caucasian", "nackgammon"])
def test_the_opening_roll_is_the_first_play_in_the_backgammon_family_and_plakoto(variant):
    game = Game(Rules(variant=variant, cube=False))
    game.opening(ScriptedDice(2, 5, 6, 6))  # O's 5 beats X's 2; the 6-6 is never rolled
    assert game.turn == 1 and game.dice == (5, 2)


def test_long_nardy_the_starter_rolls_two_fresh_dice_and_may_roll_a_double():
    game = Game(Rules(variant="long_nardy", cube=False))
    game.events = []
    # O's 5 beats X's 2, then O rolls 6-6: its only play is 24/18(2), played at once;
    # X rolls 3-1 and must decide
    game.opening(ScriptedDice(2, 5, 6, 6, 3, 1))
    kind, side, dice, moves, start, result = game.events[0]
    assert (kind, side, dice) == ("play", 1, (6, 6))
    assert Play(start, moves, result).notation == "24/18(2)"
    assert game.turn == 0 and game.dice == (3, 1)


def test_long_nardy_a_seeded_first_roll_is_sometimes_a_double():
    firsts = []
    for seed in range(60):
        game = Game(Rules(variant="long_nardy", cube=False))
        game.opening(np.random.default_rng(seed))
        firsts.append(game.dice)
    assert any(a == b for a, b in firsts)


@pytest.mark.parametrize(
    "max_cube, cube_value",
    [(4, 4), (8, 8), (0, 32), (64, 32)],
)
def test_automatic_doubles_stop_at_max_cube(max_cube, cube_value):
    ties = [3, 3] * 5 + [1, 2]  # five opening ties, then O starts with 2-1
    game = Game(Rules(auto_doubles=5, max_cube=max_cube))
    game.opening(ScriptedDice(*ties))
    assert game.cube_value == cube_value and game.cube_owner == -1
    assert game.turn == 1 and game.dice == (2, 1)
