"""The doubling cube and the scoring options, one test per rule (RULES.md §5-§6), played
through the PettingZoo env. Game ends are made deterministic by starting (reset options)
from a bear-off in which the player on roll wins with any roll."""

from __future__ import annotations

import numpy as np
import pytest
from gymnasium.utils import seeding

from bg_env import backgammon_v0
from bg_env.actions import BEAVER, DOUBLE, DROP, ROLL, TAKE
from bg_env.rules import Position
from bg_env.game.game import IllegalActionError, Phase

START = "4HPwATDgc/ABMA"
# x (player on roll) has one checker left on his 1-point: any roll bears it off.
# o's checkers all on o's 4..6 points (x's 19..21): none off -> gammon.
GAMMON = Position.from_layout({1: 1}, {6: 5, 5: 5, 4: 5}).position_id()
# ... one of o's checkers still on o's 20-point (x's 5-point, x's home board) -> backgammon.
BACKGAMMON = Position.from_layout({1: 1}, {6: 5, 5: 5, 4: 4, 20: 1}).position_id()
# ... one of o's checkers on the bar -> backgammon.
BACKGAMMON_BAR = Position.from_layout({1: 1}, {6: 5, 5: 5, 4: 4, 25: 1}).position_id()
# ... o has borne off one checker -> single game.
SINGLE = Position.from_layout({1: 1}, {6: 5, 5: 5, 4: 4}).position_id()


def start(pid=START, dice=None, agent="player_0", seed=0, cube=True, **config):
    env = backgammon_v0.raw_env(cube=cube, **config)  # the cube is off by default
    options = {"position_id": pid, "agent": agent}
    if dice is not None:
        options["dice"] = dice
    env.reset(seed=seed, options=options)
    return env


def legal(env) -> list[int]:
    return np.flatnonzero(env.observe(env.agent_selection)["action_mask"]).tolist()


def over(env) -> bool:
    return all(env.terminations.values())


def finish_by_moving(env, max_steps=50) -> None:
    """Play the first legal checker move until the game ends (cube: always roll)."""
    for _ in range(max_steps):
        if over(env):
            return
        acts = legal(env)
        env.step(ROLL if ROLL in acts else acts[0])
    assert over(env), "the game did not end"


def assert_result(env, winner, points, outcome, cube_value, reward=None):
    loser = [a for a in env.possible_agents if a != winner][0]
    reward = points if reward is None else reward
    assert over(env)
    assert env.rewards[winner] == reward and env.rewards[loser] == -reward, env.rewards
    for a in env.possible_agents:
        info = env.infos[a]
        assert info["winner"] == winner
        assert info["outcome"] == outcome
        assert info["points"] == points
        assert info["cube_value"] == cube_value


# ------------------------------------------------------------------ double / take / drop
def test_double_take_makes_cube_2_owned_by_taker():
    env = start()
    assert env.game.phase == Phase.CUBE and env.agent_selection == "player_0"
    assert legal(env) == [ROLL, DOUBLE]
    env.step(DOUBLE)
    assert env.agent_selection == "player_1" and env.game.phase == Phase.TAKE
    assert legal(env) == [TAKE, DROP]  # no beaver unless the option is on
    assert env.game.cube_value == 1  # not yet: the double is only offered
    env.step(TAKE)
    assert env.game.cube_value == 2 and env.game.cube_owner == 1
    assert env.agent_selection == "player_0" and env.game.phase == Phase.MOVE
    assert env.dice  # the doubler rolled
    obs = env.observe("player_0")["observation"]
    assert obs[202] == pytest.approx(1 / 6)  # log2(2) / 6
    assert obs[203:206].tolist() == [0, 0, 1]  # owner: the opponent
    obs1 = env.observe("player_1")["observation"]
    assert obs1[203:206].tolist() == [1, 0, 0]  # player_1 sees himself as owner


def _play_turns(env, turns, on_cube):
    """Play ``turns`` turn changes with first-legal checker moves; ``on_cube(env)``
    answers each cube question. Stops early when a double is offered (so the caller
    answers it) or the game ends. Returns the agents asked a cube question."""
    asked = []
    changes = 0
    last = env.game.turn
    for _ in range(2000):
        if over(env) or changes >= turns or env.game.phase in (Phase.TAKE, Phase.BEAVER_TAKE):
            break
        if env.game.phase == Phase.CUBE:
            asked.append(env.agent_selection)
            env.step(on_cube(env))
        else:
            env.step(legal(env)[0])
        if env.game.turn != last:
            changes += 1
            last = env.game.turn
    return asked


def test_only_the_owner_may_redouble():
    env = start(seed=3)
    env.step(DOUBLE)
    env.step(TAKE)  # player_1 owns the 2-cube
    turn_starts = {"player_0": 0, "player_1": 0}
    asked = []
    last = env.game.turn
    for _ in range(600):
        if over(env) or sum(turn_starts.values()) >= 12:
            break
        if env.game.phase == Phase.CUBE:
            asked.append(env.agent_selection)
            assert env.agent_selection == "player_1"
            env.step(ROLL)
        else:
            if env.game.turn == 0 and env.game.phase == Phase.MOVE and not env.game.played:
                with pytest.raises(IllegalActionError):
                    env.step(DOUBLE)  # player_0 does not own the cube
            env.step(legal(env)[0])
        if env.game.turn != last:
            last = env.game.turn
            turn_starts[env.possible_agents[last]] += 1
    assert turn_starts["player_0"] >= 3 and turn_starts["player_1"] >= 3
    assert asked and set(asked) == {"player_1"}


def test_owner_redoubles_and_cube_changes_hands():
    env = start(seed=3)
    env.step(DOUBLE)
    env.step(TAKE)
    asked = _play_turns(env, 4, lambda e: DOUBLE)  # player_1 redoubles at once
    assert asked == ["player_1"]
    assert env.game.phase == Phase.TAKE and env.agent_selection == "player_0"
    env.step(TAKE)
    assert env.game.cube_value == 4 and env.game.cube_owner == 0


def test_drop_of_centred_cube_scores_one():
    env = start()
    env.step(DOUBLE)
    env.step(DROP)
    assert_result(env, "player_0", 1, "drop", 1)
    assert env.game.phase == Phase.OVER


def test_drop_of_redouble_scores_cube_before_the_double():
    env = start(seed=3)
    env.step(DOUBLE)
    env.step(TAKE)
    _play_turns(env, 4, lambda e: DOUBLE)  # player_1 redoubles to 4
    assert env.game.phase == Phase.TAKE and env.agent_selection == "player_0"
    env.step(DROP)
    assert_result(env, "player_1", 2, "drop", 2)


def test_drop_ignores_gammons():
    """A drop in a position that would be a backgammon scores only the cube."""
    env = start(BACKGAMMON)
    env.step(DOUBLE)
    env.step(DROP)
    assert_result(env, "player_0", 1, "drop", 1)


# ------------------------------------------------------------------ max cube and no cube
def test_max_cube_stops_doubling():
    env = start(seed=3, max_cube=2)
    env.step(DOUBLE)
    env.step(TAKE)
    asked = _play_turns(env, 10, lambda e: DOUBLE)
    assert asked == [], "a cube question was asked though the cube is at max_cube"
    assert env.game.turns >= 10
    env = start(max_cube=1)
    assert env.game.phase == Phase.MOVE  # no cube question at all
    assert DOUBLE not in legal(env)


def test_arithmetic_cube_progression_with_limit():
    env = start(seed=3, cube_progression="arithmetic", max_cube=3)
    env.step(DOUBLE)
    env.step(TAKE)
    assert env.game.cube_value == 2
    assert _play_turns(env, 4, lambda e: DOUBLE) == ["player_1"]
    env.step(TAKE)
    assert env.game.cube_value == 3 and env.game.cube_owner == 0
    assert _play_turns(env, 8, lambda e: DOUBLE) == []
    assert env.game.turns >= 8


def test_no_cube_never_asks_the_cube_question():
    env = backgammon_v0.raw_env(cube=False)
    for seed in range(6):
        env.reset(seed=seed)
        for _ in range(3000):
            if over(env):
                break
            assert env.game.phase == Phase.MOVE
            acts = legal(env)
            assert acts and max(acts) < 150
            env.step(acts[len(acts) // 2])
        assert over(env) and env.game.result.cube_value == 1
    env.reset(options={"position_id": START})  # no dice: would be a cube question
    assert env.game.phase == Phase.MOVE and env.dice


# ------------------------------------------------------------------ beaver
def test_beaver_cube_4_owned_by_beaverer_and_doubler_takes():
    env = start(beaver=True)
    env.step(DOUBLE)
    assert legal(env) == [TAKE, DROP, BEAVER]
    assert env.position_id() == Position.from_position_id(START).swap().position_id()
    env.step(BEAVER)
    assert env.game.phase == Phase.BEAVER_TAKE and env.agent_selection == "player_0"
    assert legal(env) == [TAKE, DROP]
    assert env.game.cube_value == 2  # the beavered stake, before the doubler answers
    assert env.position_id() == START and env.dice == ()
    env.step(TAKE)
    assert env.game.cube_value == 4 and env.game.cube_owner == 1
    assert env.game.phase == Phase.MOVE and env.agent_selection == "player_0"


def test_beaver_then_drop_loses_two():
    env = start(beaver=True)
    env.step(DOUBLE)
    env.step(BEAVER)
    env.step(DROP)
    assert_result(env, "player_1", 2, "drop", 2)


def test_beaver_then_take_then_gammon_scores_eight():
    env = start(GAMMON, beaver=True)
    env.step(DOUBLE)
    env.step(BEAVER)
    env.step(TAKE)
    finish_by_moving(env)
    assert_result(env, "player_0", 8, "gammon", 4)


def test_no_beaver_without_option_or_beyond_max_cube():
    env = start()
    env.step(DOUBLE)
    assert BEAVER not in legal(env)
    with pytest.raises(IllegalActionError):
        env.step(BEAVER)
    env = start(beaver=True, max_cube=2)
    env.step(DOUBLE)
    assert legal(env) == [TAKE, DROP]


# ------------------------------------------------------------------ gammons and options
@pytest.mark.parametrize(
    "pid, outcome, points",
    [(SINGLE, "single", 1), (GAMMON, "gammon", 2), (BACKGAMMON, "backgammon", 3),
     (BACKGAMMON_BAR, "backgammon", 3)],
)
def test_scoring_by_final_board(pid, outcome, points):
    env = start(pid, dice=(6, 5))
    finish_by_moving(env)
    assert_result(env, "player_0", points, outcome, 1)


@pytest.mark.parametrize("agent", ["player_0", "player_1"])
def test_winner_is_the_agent_who_bore_off(agent):
    env = start(GAMMON, dice=(2, 1), agent=agent)
    finish_by_moving(env)
    assert_result(env, agent, 2, "gammon", 1)


def test_jacoby_gammon_with_centred_cube_scores_one():
    env = start(GAMMON, dice=(4, 3), jacoby=True)
    finish_by_moving(env)
    assert_result(env, "player_0", 1, "gammon", 1)
    env = start(BACKGAMMON, dice=(4, 3), jacoby=True)
    finish_by_moving(env)
    assert_result(env, "player_0", 1, "backgammon", 1)


def test_jacoby_gammon_after_a_taken_double_scores_double_the_cube():
    env = start(GAMMON, jacoby=True)
    env.step(DOUBLE)
    env.step(TAKE)
    finish_by_moving(env)
    assert_result(env, "player_0", 4, "gammon", 2)


@pytest.mark.parametrize(
    "gammons, pid, points",
    [("none", GAMMON, 1), ("none", BACKGAMMON, 1), ("no_backgammons", BACKGAMMON, 2),
     ("no_backgammons", GAMMON, 2), ("all", BACKGAMMON, 3)],
)
def test_gammon_rule_options(gammons, pid, points):
    env = start(pid, dice=(5, 5), gammons=gammons)
    finish_by_moving(env)
    outcome = "gammon" if pid == GAMMON else "backgammon"
    assert_result(env, "player_0", points, outcome, 1)


def test_gammons_none_with_cube_scores_cube_value():
    env = start(BACKGAMMON, gammons="none")
    env.step(DOUBLE)
    env.step(TAKE)
    finish_by_moving(env)
    assert_result(env, "player_0", 2, "backgammon", 2)


def test_reward_win_gives_plus_minus_one():
    env = start(BACKGAMMON, dice=(6, 1), reward="win")
    finish_by_moving(env)
    assert_result(env, "player_0", 3, "backgammon", 1, reward=1)
    env = start(reward="win")
    env.step(DOUBLE)
    env.step(TAKE)
    _play_turns(env, 4, lambda e: DOUBLE)
    env.step(DROP)
    assert_result(env, "player_1", 2, "drop", 2, reward=1)


# ------------------------------------------------------------------ automatic doubles
def _opening_ties(seed: int) -> int:
    """How many ties the opening roll of ``reset(seed=seed)`` starts with."""
    rng, _ = seeding.np_random(seed)
    ties = 0
    while True:
        a, b = rng.integers(1, 7, size=2)
        if a != b:
            return ties
        ties += 1


def _seed_with_ties(n: int) -> int:
    return next(s for s in range(100_000) if _opening_ties(s) == n)


def test_auto_doubles_opening_tie_doubles_the_stake():
    seed = _seed_with_ties(1)
    env = backgammon_v0.raw_env(auto_doubles=1, cube=True)
    env.reset(seed=seed)
    assert env.game.cube_value == 2 and env.game.cube_owner == -1
    assert env.game.dice[0] != env.game.dice[1]  # the opening roll itself is never a double
    env = backgammon_v0.raw_env(cube=True)  # without the option, the same tie changes nothing
    env.reset(seed=seed)
    assert env.game.cube_value == 1
    env = backgammon_v0.raw_env(auto_doubles=1, cube=False)
    env.reset(seed=seed)
    assert env.game.cube_value == 1
    no_tie = _seed_with_ties(0)
    env = backgammon_v0.raw_env(auto_doubles=3, cube=True)
    env.reset(seed=no_tie)
    assert env.game.cube_value == 1


def test_auto_doubles_limit_and_next_double():
    seed = _seed_with_ties(2)
    for limit, cube in ((1, 2), (2, 4), (5, 4)):
        env = backgammon_v0.raw_env(auto_doubles=limit, cube=True)
        env.reset(seed=seed)
        assert env.game.cube_value == cube, (limit, env.game.cube_value)
        assert env.game.cube_owner == -1
    # the cube stays centred: either side may double next, to twice the stake
    env = backgammon_v0.raw_env(auto_doubles=2, cube=True)
    env.reset(seed=seed)
    for _ in range(200):
        if env.game.phase == Phase.CUBE:
            break
        env.step(legal(env)[0])
    assert env.game.phase == Phase.CUBE
    doubler = env.agent_selection
    env.step(DOUBLE)
    env.step(DROP)
    assert_result(env, doubler, 4, "drop", 4)
