"""bg_env as an OpenSpiel game (:mod:`bg_env.integrations.openspiel`): registered, its
parameters checked, OpenSpiel's own random-simulation test with serialization in money
games, matches and variants, the dice as chance nodes, clones, observation tensors from
both seats, and OpenSpiel's MCTS bot with chance nodes playing it."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from bg_env.envs.context import CONTEXT_SIZE  # noqa: E402
from bg_env.game.search import OPENING_ROLLS, TURN_ROLLS, roll_action  # noqa: E402
from bg_env.integrations import openspiel as bg_spiel  # noqa: E402

PARAMS = [
    {"cube": False},
    {"cube": True, "beaver": True, "jacoby": True},
    {"cube": True, "match_length": 3},
    {"variant": "plakoto", "cube": False},
    {"variant": "long_nardy", "match_length": 2},
    {"variant": "nuclear", "cube": False},
]


@pytest.mark.parametrize("params", PARAMS, ids=lambda p: ",".join(f"{k}={v}" for k, v in p.items()))
def test_openspiel_random_simulations_with_serialization(params):
    game = pyspiel.load_game(bg_spiel.SHORT_NAME, params)
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


def test_the_game_and_its_parameters():
    game = pyspiel.load_game("bg_env")
    assert game.num_distinct_actions() == 156 and game.max_chance_outcomes() == 36
    assert game.num_players() == 2 and game.max_utility() == 64 * 3
    assert pyspiel.load_game("bg_env", {"match_length": 5}).max_utility() == 1
    assert game.observation_tensor_size() == bg_spiel.OBSERVATION_SIZE
    with pytest.raises(Exception, match="variant='backgammon'"):
        pyspiel.load_game("bg_env", {"variant": "backgammon"})
    with pytest.raises(Exception, match="match_length=99"):
        pyspiel.load_game("bg_env", {"match_length": 99})


def test_dice_are_chance_nodes_and_clones_go_on_alone():
    game = pyspiel.load_game("bg_env", {"cube": False})
    state = game.new_initial_state()
    assert state.is_chance_node() and state.chance_outcomes() == list(OPENING_ROLLS)
    state.apply_action(roll_action(6, 1))  # side 0's six against side 1's one: 6-1 to side 0
    assert state.current_player() == 0
    assert state.action_to_string(0, state.legal_actions()[0]).endswith(")")
    while state.current_player() == 0:
        state.apply_action(state.legal_actions()[0])
    assert state.is_chance_node() and state.chance_outcomes() == list(TURN_ROLLS)
    clone = state.clone()
    clone.apply_action(roll_action(3, 3))
    assert state.is_chance_node() and not clone.is_chance_node()
    assert len(clone.history()) == len(state.history()) + 1
    assert str(pickle.loads(pickle.dumps(state))) == str(state)


def test_observations_from_both_seats():
    game = pyspiel.load_game("bg_env", {"match_length": 3})
    state = game.new_initial_state()
    state.apply_action(roll_action(4, 2))
    mine, theirs = (np.array(state.observation_tensor(p)) for p in (0, 1))
    assert mine.shape == (bg_spiel.OBSERVATION_SIZE,) and not np.array_equal(mine, theirs)
    assert mine[-CONTEXT_SIZE:][62] == 1  # in match play
    assert state.observation_string(1).startswith("player 1:")


def test_openspiel_mcts_with_chance_nodes_plays_it():
    from open_spiel.python.algorithms import mcts

    game = pyspiel.load_game("bg_env", {"cube": True})
    rng = np.random.RandomState(0)
    bot = mcts.MCTSBot(game, uct_c=2, max_simulations=16,
                       evaluator=mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
    state, decisions = game.new_initial_state(), 0
    while not state.is_terminal() and decisions < 8:
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randint(len(outcomes))][0])
            continue
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
        decisions += 1
    assert decisions == 8 or state.is_terminal()
