"""The search state (:mod:`bg_env.game.search`): chance nodes with their probabilities,
the same game as :class:`~bg_env.game.game.Game` given the same rolls, clones that go on
alone, keys, returns from both seats, money games and matches of several variants."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

from bg_env.game.game import STOP_AT_ROLLS, Game, IllegalActionError, Phase, Rules
from bg_env.game.search import (
    CHANCE, OPENING_ROLLS, TERMINAL, TURN_ROLLS, SearchState, action_roll, roll_action,
)
from bg_env.rules.position import Position

SETUPS = {
    "money": dict(),
    "money_cube_beaver": dict(rules=Rules(cube=True, beaver=True, auto_doubles=1)),
    "match5": dict(rules=Rules(cube=True), match_length=5),
    "plakoto": dict(rules=Rules(variant="plakoto", cube=False)),
    "long_nardy_match3": dict(rules=Rules(variant="long_nardy", next_starter="black"),
                              match_length=3),
    "nuclear": dict(rules=Rules(variant="nuclear", cube=False)),
}


def random_walk(state: SearchState, rng, steps: int = 10**6):
    """Play ``state`` on at random (chance by its probabilities) to the end; the number of
    actions."""
    n = 0
    while not state.is_terminal() and n < steps:
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            action = outcomes[rng.choice(len(outcomes), p=[p for _, p in outcomes])][0]
        else:
            actions = state.legal_actions()
            action = actions[int(rng.integers(len(actions)))]
        state.apply_action(action)
        n += 1
    return n


def test_the_roll_actions_and_their_probabilities():
    assert len(TURN_ROLLS) == 21 and len(OPENING_ROLLS) == 31
    assert sum(p for _, p in TURN_ROLLS) == pytest.approx(1) == sum(p for _, p in OPENING_ROLLS)
    assert {action_roll(a) for a, _ in TURN_ROLLS} == {(a, b) for a in range(1, 7)
                                                      for b in range(1, a + 1)}
    assert all(action_roll(roll_action(a, b)) == (a, b) for a in range(1, 7) for b in range(1, 7))


@pytest.mark.parametrize("name", list(SETUPS))
def test_random_games_end_with_opposite_returns(name):
    rng = np.random.default_rng(1)
    for _ in range(3):
        state = SearchState.new(**SETUPS[name])
        assert state.current_player() == CHANCE and state.chance_outcomes() == list(OPENING_ROLLS)
        assert random_walk(state, rng) > 0
        assert state.current_player() == TERMINAL and state.legal_actions() == []
        r0, r1 = state.returns()
        assert r0 == -r1 != 0
        with pytest.raises(ValueError, match="is over"):
            state.apply_action(0)


def test_the_same_rolls_make_the_same_game_as_game_with_a_generator():
    """A Game rolling from a generator and a search state given the rolls a twin of that
    generator makes, in the same order (each roll two draws: the opening's dice, side 0's
    first, ties included, then each turn's), with the same decisions: the same game at
    every step."""
    for seed in range(4):
        game_rng, dice_rng = np.random.default_rng(seed), np.random.default_rng(seed)
        pick = np.random.default_rng(100 + seed)
        game = Game(Rules(cube=True))
        game.opening(game_rng)
        state = SearchState.new(Rules(cube=True))
        while True:
            while state.is_chance_node():
                state.apply_roll((int(dice_rng.integers(1, 7)), int(dice_rng.integers(1, 7))))
            assert state.game == game
            assert state.legal_actions() == game.legal_actions()
            if game.phase == Phase.OVER:
                break
            action = int(pick.choice(game.legal_actions()))
            game.step(action, game_rng)
            state.apply_action(action)
        assert state.returns()[game.result.winner] == game.result.points


def test_a_clone_goes_on_alone_and_keys_follow_the_state():
    rng = np.random.default_rng(5)
    state = SearchState.new(Rules(cube=True), match_length=3)
    for _ in range(40):
        random_walk(state, rng, steps=1)
    twin = state.clone()
    assert twin.key() == state.key() and twin.game == state.game
    before = state.key()
    random_walk(twin, rng)
    assert state.key() == before and not state.is_terminal() and twin.is_terminal()
    assert state.match.score != twin.match.score or state.match.games != twin.match.games
    copy = pickle.loads(pickle.dumps(state))
    assert copy.key() == state.key() and copy.game.roll_due == state.game.roll_due


def test_keys_meet_where_paths_meet():
    """Two orders of the same two checker moves reach one key."""
    pos = Position.start()
    a = SearchState.from_position_id(pos.position_id(), Rules(cube=False), dice=(3, 1))
    b = a.clone()
    a.apply_action(roll_free_move(a, 8, 3))
    a.apply_action(roll_free_move(a, 6, 1))
    b.apply_action(roll_free_move(b, 6, 1))
    b.apply_action(roll_free_move(b, 8, 3))
    assert a.game.position == b.game.position
    assert a.key() == b.key()


def roll_free_move(state: SearchState, source: int, die: int) -> int:
    from bg_env.rules.actions import encode_move

    action = encode_move(source, die)
    assert action in state.legal_actions()
    return action


def test_whole_plays_and_errors():
    state = SearchState.from_position_id(Position.start().position_id(), Rules(cube=False),
                                         dice=(6, 5))
    plays = state.legal_plays()
    assert {p.notation for p in plays} >= {"24/13", "13/2"}
    state.apply_play(next(p for p in plays if p.notation == "24/13"))
    assert state.is_chance_node() and state.current_player() == CHANCE
    assert state.chance_outcomes() == list(TURN_ROLLS)
    assert state.legal_plays() == []
    with pytest.raises(ValueError, match="chance action 99"):
        state.apply_action(99)
    state.apply_action(roll_action(2, 1))
    with pytest.raises(ValueError, match="not a chance node"):
        state.chance_outcomes()
    with pytest.raises(IllegalActionError):
        state.apply_action(155)
    with pytest.raises(ValueError, match="no roll is due"):
        state.game.give_roll((1, 2))


def test_an_opening_tie_is_rolled_again_and_doubles_with_auto_doubles():
    state = SearchState.new(Rules(cube=True, auto_doubles=2))
    state.apply_action(roll_action(1, 1))
    assert state.is_chance_node() and state.game.cube_value == 2
    state.apply_action(roll_action(4, 4))
    assert state.game.cube_value == 4
    state.apply_action(roll_action(2, 5))  # side 1's five: side 1 plays 5-2
    assert state.current_player() == 1 and state.game.dice == (5, 2)


def test_a_game_started_anywhere_with_stop_at_rolls_waits_for_its_roll():
    game = Game.from_position(Position.start(), STOP_AT_ROLLS, Rules(cube=False), turn=1)
    assert game.roll_due == "turn"
    state = SearchState.from_game(game)
    state.apply_roll((6, 6))
    assert game.roll_due == "turn"  # the state has its own copy
    assert state.current_player() == 1 and state.game.dice == (6, 6)
