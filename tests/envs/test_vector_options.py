"""The vector envs on the kernels started from positions (reset options), in lockstep with
the single Gymnasium env started from the same options (the reference: the game made by
:func:`bg_env.envs.start.start_game`).

The lockstep is :func:`test_vector_match.lockstep`'s (the same dice on both sides: the
single env's generator is a Python copy of the kernel game's): at every step the
observations, masks, rewards and dones must be equal.
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("numba")

from bg_env import backgammon_v0  # noqa: E402
from bg_env.envs.gym_env import BackgammonEnv  # noqa: E402
from bg_env.envs.kernel_batch import KernelBatch  # noqa: E402
from bg_env.game.game import Phase  # noqa: E402
from bg_env.kernels import match as batch_match  # noqa: E402
from test_vector_match import lockstep  # noqa: E402  (the same lockstep, from options)

START = "4HPwATDgc/ABMA"
CONFIGS = {
    "money_nocube": dict(cube=False),
    "money_cube": dict(cube=True),
    "money_cube_context": dict(cube=True, context=True, observation="compact"),
    "match5_cube": dict(match_length=5, cube=True),
    "match3_equity": dict(match_length=3, cube=True, match_reward="equity"),
    "plakoto": dict(variant="plakoto", cube=False),
    "nackgammon_cube": dict(variant="nackgammon", cube=True),
    "long_nardy": dict(variant="long_nardy", cube=False),
}


def readable(variant, position_id: str) -> bool:
    """Whether the ID reads back (a Plakoto board with a pin does not: IDs carry none)."""
    try:
        variant.position_from_id(position_id)
    except ValueError:
        return False
    return True


def snapshots(config: dict, seed: int, count: int) -> list[dict]:
    """Reset options of ``count`` states met in random games of the AEC env: the board
    from the agent to act at the start of a turn (before the roll, or with the dice
    rolled and nothing played) that its Position ID holds, with the Match ID where the cube or a match is played,
    else the agent and (half the time) the dice."""
    env = backgammon_v0.raw_env(**config)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    found: list[dict] = []
    while len(found) < count:
        if any(env.terminations.values()) or any(env.truncations.values()):
            env.reset()
            continue
        game = env.game
        fresh = game.phase == Phase.CUBE or (game.phase == Phase.MOVE and not game.played)
        pid = env.position_id()
        if fresh and rng.random() < 0.1 and readable(game.variant, pid):
            options = {"position_id": pid}
            if config.get("cube") or config.get("match_length"):
                options["match_id"] = env.match_id()
            else:
                options["agent"] = env.agent_selection
                if game.phase == Phase.MOVE and rng.random() < 0.5:
                    options["dice"] = game.dice
            found.append(options)
        legal = np.flatnonzero(env.observe(env.agent_selection)["action_mask"])
        env.step(int(rng.choice(legal)))
    return found


@pytest.mark.parametrize("name", list(CONFIGS))
def test_games_started_from_positions_go_on_as_the_single_env(name):
    config = CONFIGS[name]
    episodes = 0
    for k, options in enumerate(snapshots(config, seed=len(name), count=6)):
        learner = ("player_0", "player_1")[k % 2]
        episodes += lockstep(config, "random", learner, k, 100, options)["episodes"]
    assert episodes >= 1


def test_a_game_the_opponent_ends_at_once_is_reported_and_started_again():
    """player_1 (the opponent) on roll bears off its last checker with any roll, while
    two of the learner's are still in its home board (a backgammon): the reset's info has
    the result, the learner's loss in ``opening_reward``, and the game has started again
    from the opening."""
    from bg_env.rules.position import Position

    board = Position.start()
    last = Position(me=(14, 0, 1) + (0,) * 23, opp=board.opp)  # one checker left, on the 2-point
    kb = KernelBatch(3, learner="player_0", cube=False)
    kb.reset([None, {"position_id": last.position_id(), "agent": "player_1"},
              {"position_id": START, "agent": "player_1", "dice": (3, 1)}], seed=1)
    info = kb.reset_infos[1]
    assert info["opening_reward"] == -3.0 and info["outcome"] == "backgammon"
    assert info["winner"] == "player_1" and "terminal_observation" in info
    assert kb.reset_infos[0] == {} and kb.reset_infos[2] == {"opening_reward": 0.0}
    assert kb.games.mask.any(axis=1).all()  # every learner has a decision
    again = kb.game(1)
    assert again.turns <= 1 and again.variant.start_position().me in (
        again.position.me, again.position.opp)
    assert kb.game(2).turns == 1  # the opponent played its 3-1


def test_a_match_the_opponent_ends_at_once_pays_the_match():
    from bg_env.rules.match_id import MatchState
    from bg_env.rules.position import Position

    state = MatchState(cube_value=1, cube_owner=-1, player_on_roll=1, crawford=False,
                       game_state=1, turn=1, double_offered=False, resigned=0, dice=(6, 5),
                       match_length=3, score=(0, 2), jacoby=False)
    last = Position(me=(14, 0, 1) + (0,) * 23, opp=Position.start().opp)
    kb = KernelBatch(2, learner="player_0", match_length=3, cube=True)
    kb.reset([{"match_id": state.match_id(), "position_id": last.position_id()},
              {"match_id": state.match_id(), "position_id": START}], seed=0)
    info = kb.reset_infos[0]
    assert info["opening_reward"] == -1.0 and info["winner"] == "player_1"
    assert info["score"] == (0, 5)  # (a backgammon: 3 points)
    assert kb.match[0, batch_match.M_SCORE0:batch_match.M_SCORE0 + 2].tolist() == [0, 0]
    assert kb.match[1, batch_match.M_SCORE0:batch_match.M_SCORE0 + 2].tolist() == [0, 2]
    assert kb.match[1, batch_match.M_CRAWFORD] == 0 and kb.reset_infos[1]["opening_reward"] == 0


def test_bad_options_are_named_with_their_game_and_change_nothing():
    kb = KernelBatch(3)
    kb.reset(seed=0)
    before = (kb.games.state.copy(), kb.games.me.copy(), kb.games.seeds.copy())
    with pytest.raises(ValueError, match=r"options of game 2: .*not a Position ID|game 2"):
        kb.reset([None, {"position_id": START}, {"position_id": "not an ID"}], seed=5)
    with pytest.raises(ValueError, match=r"game 0: reset option\(s\) \['positon_id'\] unknown"):
        kb.reset([{"positon_id": START}, None, None])
    with pytest.raises(ValueError, match="a list of 3 dicts"):
        kb.reset({"position_id": START})
    with pytest.raises(ValueError, match="a list of 3 dicts"):
        kb.reset([None, None])
    after = (kb.games.state, kb.games.me, kb.games.seeds)
    for a, b in zip(before, after):
        np.testing.assert_array_equal(a, b)


def test_sb3_vector_env_takes_options_from_set_options_and_seeds_them():
    from bg_env import make_vec_env

    def first_games(seed):
        venv = make_vec_env(4, seed=seed, learner="player_0")
        venv.set_options({"position_id": START, "agent": "player_0"})
        obs = venv.reset()
        assert all(info == {"opening_reward": 0.0} for info in venv.reset_infos)
        games = [venv.unwrapped.batch.game(i) for i in range(4)]
        assert all(g.position.position_id() == START and g.turns == 0 for g in games)
        again = venv.reset()  # the options were for one reset: the opening roll now
        assert all(info == {} for info in venv.reset_infos)
        return obs, [g.dice for g in games], again

    a, b = first_games(7), first_games(7)
    np.testing.assert_array_equal(a[0], b[0])
    assert a[1] == b[1] and len(set(a[1])) > 1  # each game its own dice, seeded
    np.testing.assert_array_equal(a[2], b[2])


def test_sb3_vector_env_takes_one_option_dict_per_game():
    from bg_env import make_vec_env

    venv = make_vec_env(2, seed=0, monitor=False, cube=False, learner="player_0")
    venv.set_options([{"position_id": START, "dice": (6, 5), "agent": "player_0"}, None])
    venv.reset()
    assert venv.reset_infos == [{"opening_reward": 0.0}, {}]
    assert venv.batch.game(0).dice == (6, 5)


def test_gymnasium_vector_env_starts_every_game_from_the_options():
    import gymnasium

    import bg_env  # noqa: F401  (registers the envs)

    venv = gymnasium.make_vec("bg_env/Backgammon-v0", num_envs=3, learner="player_0",
                              vectorization_mode="vector_entry_point")
    obs, infos = venv.reset(seed=0, options={"xgid": "XGID=-b----E-C---eE---c-e----B-:0:0:1:"
                                                     "52:0:0:0:0:10", "agent": "player_0"})
    assert infos["opening_reward"].tolist() == [0.0, 0.0, 0.0]
    single = BackgammonEnv(learner="player_0")
    expected, _ = single.reset(options={"xgid": "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:"
                                                "0:0:0:0:10", "agent": "player_0"})
    for row in obs:
        np.testing.assert_array_equal(row, expected)
