"""``reset(options=...)`` and ``step`` refuse bad input with an error that names it, and
leave the env as it was: it goes on exactly as its untouched twin."""

from __future__ import annotations

import sys
from pathlib import Path

import gymnasium
import numpy as np
import pytest

import bg_env  # noqa: F401 (registers the Gymnasium ids)
from bg_env import backgammon_plays_v0, backgammon_v0
from bg_env.game.game import IllegalActionError
from bg_env.rules.match_id import MatchState

sys.path.insert(0, str(Path(__file__).resolve().parent))

from copy_driver import drive_aec  # noqa: E402

START = "4HPwATDgc/ABMA"
XGID_START_52 = "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10"
BAD_DICE = ["31", (3.7, 1.2), [True, 2], (7, 1), (0, 3), (1, 2, 3), 5, None]


def _twins(make, steps: int = 5):
    """Two envs in the same mid-game state."""
    pair = []
    for _ in range(2):
        env = make()
        env.reset(seed=3)
        for _ in range(steps):
            mask = env.observe(env.agent_selection)["action_mask"]
            env.step(int(np.flatnonzero(mask)[0]))
        pair.append(env)
    return pair


def _refused(make, options, *words, error=ValueError):
    """``reset(seed=99, options=options)`` raises naming ``words``; the env then goes on
    as its twin (the seed was not applied either)."""
    env, twin = _twins(make)
    with pytest.raises(error) as info:
        env.reset(seed=99, options=options)
    for word in words:
        assert word in str(info.value), (word, str(info.value))
    assert drive_aec(env, 40) == drive_aec(twin, 40)


# ------------------------------------------------------------------ the AEC env
@pytest.mark.parametrize("make", [backgammon_v0.raw_env, backgammon_v0.env], ids=["raw", "env"])
def test_unknown_option_key_is_named_with_the_allowed_ones(make):
    _refused(make, {"positon_id": START}, "positon_id", "position_id", "xgid")


@pytest.mark.parametrize("dice", BAD_DICE, ids=repr)
def test_dice_must_be_two_integers_1_to_6(dice):
    _refused(backgammon_v0.raw_env, {"position_id": START, "dice": dice}, "dice")


@pytest.mark.parametrize("dice", [(np.int64(3), np.int8(1)), np.array([3, 1])], ids=repr)
def test_numpy_integer_dice_are_fine(dice):
    env = backgammon_v0.raw_env()
    env.reset(seed=0, options={"position_id": START, "dice": dice})
    assert env.dice == (3, 1)


def test_reset_from_an_xgid():
    env = backgammon_v0.raw_env(cube=True)
    env.reset(seed=0, options={"xgid": XGID_START_52})
    assert env.position_id() == START and env.dice == (5, 2)
    assert env.agent_selection == "player_0"
    # O on roll, O owns a cube of 2: player_1 plays 6-4 from the start
    env.reset(seed=0, options={"xgid": "XGID=-b----E-C---eE---c-e----B-:1:-1:-1:64:0:0:0:0:10"})
    assert env.agent_selection == "player_1" and env.dice == (6, 4)
    state = MatchState.from_match_id(env.match_id())
    assert (state.cube_value, state.cube_owner, state.player_on_roll) == (2, 1, 1)


def test_xgid_in_match_play_carries_the_score():
    env = backgammon_v0.raw_env(match_length=5)
    env.reset(seed=0, options={"xgid": "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:2:1:0:5:10"})
    assert env.match.score == (2, 1) and env.dice == (5, 2)


def test_xgid_does_not_mix_with_position_or_match_ids():
    _refused(backgammon_v0.raw_env, {"xgid": XGID_START_52, "position_id": START}, "xgid")


def test_a_bad_xgid_is_named():
    _refused(backgammon_v0.raw_env, {"xgid": "XGID=nonsense"}, "nonsense")


def test_match_id_of_a_won_match_is_refused():
    won = MatchState(match_length=5, score=(5, 2)).match_id()
    _refused(lambda: backgammon_v0.raw_env(match_length=5), {"match_id": won}, "already won")


@pytest.mark.parametrize("env_length, id_length", [(5, 9), (5, 0), (0, 7)])
def test_match_id_of_another_match_length_is_refused(env_length, id_length):
    mid = MatchState(match_length=id_length).match_id()
    _refused(lambda: backgammon_v0.raw_env(match_length=env_length), {"match_id": mid},
             "match_id", f"match_length={env_length}")


def test_match_id_with_the_match_length_of_the_env_is_taken():
    env = backgammon_v0.raw_env(match_length=5)
    env.reset(seed=0, options={"match_id": MatchState(match_length=5, score=(3, 1)).match_id()})
    assert env.match.score == (3, 1)


def test_money_match_id_with_a_cube_over_max_cube_is_refused():
    big = MatchState(cube_value=1024, cube_owner=0).match_id()
    _refused(lambda: backgammon_v0.raw_env(cube=True), {"match_id": big}, "1024", "max_cube=64")


def test_cube_in_a_match_id_needs_the_cube_on():
    two = MatchState(cube_value=2, cube_owner=0).match_id()
    _refused(lambda: backgammon_v0.raw_env(cube=False), {"match_id": two}, "cube=False")


def test_agent_that_contradicts_the_match_id_is_refused():
    mid = MatchState(player_on_roll=1, turn=1, dice=(3, 1)).match_id()
    _refused(backgammon_v0.raw_env, {"match_id": mid, "agent": "player_0"}, "player_1")


@pytest.mark.parametrize("action", [3.7, 3.0, "3", True, None])
def test_raw_step_refuses_what_is_not_an_integer(action):
    env, twin = _twins(backgammon_v0.raw_env)
    with pytest.raises(IllegalActionError, match="integer"):
        env.step(action)
    assert drive_aec(env, 40) == drive_aec(twin, 40)


@pytest.mark.parametrize("kind", [np.int64, np.int32, np.uint8, np.array])
def test_raw_step_takes_numpy_integers(kind):
    env, twin = _twins(backgammon_v0.raw_env)
    for e, convert in ((env, kind), (twin, int)):
        mask = e.observe(e.agent_selection)["action_mask"]
        e.step(convert(int(np.flatnonzero(mask)[-1])))
    assert drive_aec(env, 40) == drive_aec(twin, 40)


# ------------------------------------------------------------- the other views
def test_plays_aec_refuses_unknown_keys_and_bad_dice():
    make = backgammon_plays_v0.raw_env
    _refused(make, {"positon_id": START}, "positon_id", "position_id")
    _refused(make, {"position_id": START, "dice": "31"}, "dice")
    _refused(make, {"position_id": START, "dice": (3.7, 1.2)}, "dice")


@pytest.mark.parametrize("env_id", ["bg_env/Backgammon-v0", "bg_env/BackgammonPlays-v0"])
@pytest.mark.parametrize("options, word", [({"positon_id": START}, "positon_id"),
                                           ({"position_id": START, "dice": "31"}, "dice"),
                                           ({"position_id": START, "dice": [True, 2]}, "dice")])
def test_gymnasium_envs_refuse_bad_reset_options(env_id, options, word):
    env = gymnasium.make(env_id)
    obs, _ = env.reset(seed=1)
    with pytest.raises(ValueError, match=word):
        env.reset(options=options)
    twin = gymnasium.make(env_id)
    assert (twin.reset(seed=1)[0] == obs).all()
    for e in (env, twin):  # both go on the same way
        e.step(int(np.flatnonzero(e.unwrapped.action_masks())[0]))
    assert (env.unwrapped.action_masks() == twin.unwrapped.action_masks()).all()


@pytest.mark.parametrize("env_id", ["bg_env/Backgammon-v0", "bg_env/BackgammonPlays-v0"])
def test_gymnasium_envs_refuse_a_float_action(env_id):
    env = gymnasium.make(env_id).unwrapped
    env.reset(seed=1)
    with pytest.raises(ValueError, match="integer"):
        env.step(0.5)
    env.step(np.int64(int(np.flatnonzero(env.action_masks())[0])))


def _random_game(env, steps: int = 30) -> list:
    """The observations of ``steps`` first-legal-action steps after a reset without a seed."""
    obs, _ = env.reset()
    seen = [obs.tolist()]
    for _ in range(steps):
        obs, _, terminated, truncated, _ = env.step(int(np.flatnonzero(env.action_masks())[0]))
        seen.append(obs.tolist())
        if terminated or truncated:
            obs, _ = env.reset()
            seen.append(obs.tolist())
    return seen


@pytest.mark.parametrize("env_id", ["bg_env/Backgammon-v0", "bg_env/BackgammonPlays-v0"])
@pytest.mark.parametrize("options", [{"positon_id": START}, {"position_id": "not an ID"},
                                     {"position_id": START, "dice": (7, 1)}], ids=repr)
def test_gymnasium_reset_refused_with_a_seed_reseeds_nothing(env_id, options):
    """A ``reset(seed=99, options=bad)`` that raises leaves the env's generator, the game's
    and the opponent's own (``random:7``) as they were: the env goes on as its twin."""
    env, twin = (gymnasium.make(env_id, opponent="random:7").unwrapped for _ in range(2))
    for e in (env, twin):
        e.reset(seed=5)
    with pytest.raises(ValueError):
        env.reset(seed=99, options=options)
    assert env.np_random_seed == twin.np_random_seed == 5
    assert _random_game(env) == _random_game(twin)


@pytest.mark.parametrize("env_id", ["bg_env/Backgammon-v0", "bg_env/BackgammonPlays-v0"])
@pytest.mark.parametrize("options, words", [
    ({"positon_id": START}, ["'positon_id'", "unknown; allowed keys", "'position_id'", "'dice'"]),
    (["position_id"], ["options=['position_id']", "expected a dict"]),
    ("position_id", ["options='position_id'", "expected a dict"])])
def test_gymnasium_envs_word_bad_option_keys_alike(env_id, options, words):
    # one message for both envs: the unknown key, then the keys the env takes
    env = gymnasium.make(env_id)
    with pytest.raises(ValueError) as info:
        env.reset(seed=3, options=options)
    for word in words:
        assert word in str(info.value), (word, str(info.value))


# The learner's one checker makes every learner turn forced, so the game ends before the
# learner has a choice: at once (ending) or after the opponent's choices (racing), which
# draw from the opponent's generator ("random:7") or from the env's ("random").
ENDING = "AwAACAAAAAAAAA"  # the learner bears off its last checker with any roll
RACING = "d3cHAAAAAAIAAA"  # the learner's one checker on its 18-point; 15 of the opponent's home


@pytest.mark.parametrize("opponent", ["random", "random:7", "random:7+naive"])
@pytest.mark.parametrize("position_id", [ENDING, RACING])
def test_plays_env_reset_refused_after_play_changes_nothing(opponent, position_id):
    """A position refused only once played (the game ends before the learner has a
    choice) leaves the generators, the game and the episode in play as they were: the env
    finishes its episode and goes on exactly as its twin. ``random:7+naive`` lends its
    inner agent's generator (agents.players.cube.CubeNaive): that one is put back."""
    def made():  # a spec string, or (with +naive) an agent object per env
        if "+" not in opponent:
            return opponent
        from agents import load_agent

        return load_agent(opponent)

    env, twin = (gymnasium.make("bg_env/BackgammonPlays-v0", opponent=made()).unwrapped
                 for _ in range(2))
    for e in (env, twin):
        e.reset(seed=5)
    before = env.game.position
    for seed in (99, None):
        with pytest.raises(ValueError, match="ends before the learner has a choice"):
            env.reset(seed=seed, options={"position_id": position_id})
        assert env.np_random_seed == twin.np_random_seed == 5
    assert env.game.position == before
    steps = [[e.step(0)[:4] for _ in range(3)] for e in (env, twin)]
    assert repr(steps[0]) == repr(steps[1])
    assert _random_game(env) == _random_game(twin)
