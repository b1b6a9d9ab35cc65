"""The PettingZoo AEC environment: conformance, configuration errors, illegal actions,
and starting from a given position (``reset(options=...)``)."""

from __future__ import annotations

import importlib.util

import numpy as np
import pytest
from pettingzoo.test import api_test, render_test, seed_test

from bg_env import backgammon_plays_v0, backgammon_v0
from bg_env.actions import BEAVER, DOUBLE, DROP, N_ACTIONS, ROLL, TAKE, encode_move
from bg_env.rules import Position
from bg_env.game.game import IllegalActionError, Phase
from bg_env.envs.backgammon import EnvConfig

START = "4HPwATDgc/ABMA"
BEAROFF = Position.from_layout({6: 2, 5: 2, 3: 3, 1: 1}, {6: 4, 5: 3, 4: 3, 2: 1}).position_id()
HAVE_RENDER = importlib.util.find_spec("bg_env.envs.render") is not None
HAVE_MATCH_ID = importlib.util.find_spec("bg_env.rules.match_id") is not None


def first_legal(env) -> int:
    return int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0])


def done(env) -> bool:
    a = env.agent_selection
    return env.terminations[a] or env.truncations[a]


# ------------------------------------------------------------------ conformance
@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize(
    "config",
    [{}, {"cube": True}, {"cube": True, "beaver": True, "jacoby": True},
     {"observation": "compact"},
     {"cube": True, "auto_doubles": 3, "cube_progression": "arithmetic", "max_cube": 0}],
    ids=["default", "cube", "beaver_jacoby", "compact", "auto_arith"],
)
def test_api_test(config):
    api_test(backgammon_v0.env(**config), num_cycles=1000)
    api_test(backgammon_v0.raw_env(**config), num_cycles=300)


def test_seed_test():
    seed_test(backgammon_v0.env, num_cycles=500)
    seed_test(lambda: backgammon_v0.env(cube=True, beaver=True, observation="compact"),
              num_cycles=300)


def _render_env_fn(render_mode=None):
    env = backgammon_v0.env(render_mode=render_mode)
    if not HAVE_RENDER:  # only the text modes until bg_env.envs.render exists
        env.metadata = dict(env.metadata, render_modes=["ansi", "human"])
    return env


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_render_test(capsys):
    render_test(_render_env_fn)


def test_render_ansi_shows_the_board():
    env = backgammon_v0.raw_env(render_mode="ansi")
    env.reset(options={"position_id": START, "dice": (3, 1)})
    text = env.render()
    assert isinstance(text, str)
    assert START in text and "3-1" in text


def test_render_rgb_array():
    pytest.importorskip("bg_env.envs.render")
    env = backgammon_v0.raw_env(render_mode="rgb_array")
    env.reset(seed=1)
    img = env.render()
    assert isinstance(img, np.ndarray) and img.ndim == 3 and img.shape[2] == 3
    assert img.dtype == np.uint8 and img.std() > 0
    env.step(first_legal(env))
    assert env.render().shape == img.shape


def test_metadata_name_and_agents():
    env = backgammon_v0.env()
    assert env.metadata["name"] == "backgammon_v0"
    assert backgammon_v0.raw_env.metadata["name"] == "backgammon_v0"
    assert env.possible_agents == ["player_0", "player_1"]


def test_same_space_objects_on_every_call():
    env = backgammon_v0.raw_env()
    spaces_before = {a: (env.observation_space(a), env.action_space(a)) for a in env.possible_agents}
    env.reset(seed=0)
    for _ in range(20):
        env.step(first_legal(env))
    for a in env.possible_agents:
        assert env.observation_space(a) is spaces_before[a][0]
        assert env.action_space(a) is spaces_before[a][1]
        assert env.observation_space(a) is env.observation_space(a)
        assert env.action_space(a).n == N_ACTIONS
    obs = env.observe(env.agent_selection)
    assert env.observation_space(env.agent_selection).contains(obs)


# ------------------------------------------------------------------ configuration
@pytest.mark.parametrize("factory", [backgammon_v0.env, backgammon_v0.raw_env])
def test_unknown_config_key_names_it_and_the_allowed_keys(factory):
    with pytest.raises(ValueError) as err:
        factory(cubes=True)
    msg = str(err.value)
    assert "cubes" in msg
    for key in ("cube", "jacoby", "beaver", "reward", "max_cube", "gammons"):
        assert key in msg


@pytest.mark.parametrize(
    "key, bad, allowed",
    [
        ("reward", "money", ["points", "win"]),
        ("gammons", "some", ["all", "no_backgammons", "none"]),
        ("observation", "pixels", ["tesauro", "compact"]),
        ("render_mode", "video", ["ansi", "human", "rgb_array"]),
        ("cube_progression", "fibonacci", ["geometric", "arithmetic"]),
        ("cube", "yes", ["True", "False"]),
        ("max_cube", -2, ["0..1073741824"]),
        ("auto_doubles", -1, ["0..30"]),
        ("max_turns", 0, ["1..1000000000"]),
    ],
)
def test_bad_config_value_names_key_and_allowed_values(key, bad, allowed):
    with pytest.raises(ValueError) as err:
        backgammon_v0.raw_env(**{key: bad})
    msg = str(err.value)
    assert key in msg and repr(bad) in msg
    for word in allowed:
        assert word in msg
    with pytest.raises(ValueError):
        EnvConfig.from_kwargs(**{key: bad})


# ------------------------------------------------------------------ illegal actions
def _snapshot(env):
    return (
        env.position_id(), tuple(env.dice), env.agent_selection, env.game.phase,
        env.game.cube_value, env.game.cube_owner, tuple(env.game.played),
        {a: env.observe(a)["action_mask"].tobytes() for a in env.possible_agents},
        dict(env.rewards), dict(env.terminations),
    )


def _illegal_actions(env):
    mask = env.observe(env.agent_selection)["action_mask"]
    illegal = [int(a) for a in np.flatnonzero(mask == 0)]
    return illegal[:3] + illegal[-3:] + [N_ACTIONS, N_ACTIONS + 50, -1]


@pytest.mark.parametrize("phase", ["move", "cube", "take", "beaver_take"])
def test_raw_env_raises_on_illegal_action_and_keeps_state(phase):
    env = backgammon_v0.raw_env(beaver=True, cube=True)
    if phase == "move":
        env.reset(options={"position_id": START, "dice": (3, 1)})
    else:
        env.reset(options={"position_id": START})
        if phase in ("take", "beaver_take"):
            env.step(DOUBLE)
        if phase == "beaver_take":
            env.step(BEAVER)
    assert env.game.phase == phase
    before = _snapshot(env)
    for action in _illegal_actions(env):
        with pytest.raises(IllegalActionError) as err:
            env.step(action)
        assert isinstance(err.value, ValueError)
        assert str(action) in str(err.value)
        assert _snapshot(env) == before, f"state changed by illegal action {action}"
    # and the env still works: a legal action goes through
    env.step(first_legal(env))


@pytest.mark.parametrize("module", [backgammon_v0, backgammon_plays_v0])
def test_raw_env_step_before_reset_asks_for_reset(module):
    env = module.raw_env()
    with pytest.raises(RuntimeError, match=r"before reset\(\); call reset\(\) first"):
        env.step(0)
    env.reset(seed=0)
    env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))


def test_raw_env_illegal_checker_move_message_lists_legal_moves():
    env = backgammon_v0.raw_env()
    env.reset(options={"position_id": START, "dice": (3, 1)})
    bad = encode_move(6, 6)  # no die 6 this turn
    with pytest.raises(IllegalActionError) as err:
        env.step(bad)
    msg = str(err.value)
    assert "6/off" in msg or str(bad) in msg
    assert "8/5" in msg  # a legal move is named


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("offender_phase", ["move", "cube"])
def test_wrapped_env_ends_game_against_offender(offender_phase):
    env = backgammon_v0.env()
    opts = {"position_id": START, "dice": (3, 1)} if offender_phase == "move" else {"position_id": START}
    env.reset(options=opts)
    offender = env.agent_selection
    other = [a for a in env.possible_agents if a != offender][0]
    mask = env.observe(offender)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    env.step(illegal)
    assert all(env.terminations[a] or env.truncations[a] for a in env.possible_agents)
    assert env.rewards[offender] == -1
    assert env.rewards[other] == 0
    seen = {}
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        seen[agent] = reward
        assert term or trunc
        env.step(None)
    assert seen[offender] == -1
    assert not env.agents


def _pettingzoo_wrapped(**config):
    """The raw env inside PettingZoo's own three wrappers, as its classic envs wrap."""
    from pettingzoo.utils import wrappers

    env = wrappers.TerminateIllegalWrapper(backgammon_v0.raw_env(**config), illegal_reward=-1)
    return wrappers.OrderEnforcingWrapper(wrappers.AssertOutOfBoundsWrapper(env))


def _trace(env, seed: int, illegal_at: int | None, kind=int) -> list:
    """Play a seeded random game (an illegal action at step ``illegal_at``; actions of
    type ``kind``), recording what the AEC loop sees."""
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    trace, step = [], 0
    for agent in env.agent_iter(max_iter=2000):
        obs, reward, term, trunc, info = env.last()
        trace.append((agent, obs["observation"].tobytes(), obs["action_mask"].tobytes(),
                      reward, term, trunc, info, dict(env.rewards)))
        if term or trunc:
            action = None
        else:
            legal = np.flatnonzero(obs["action_mask"])
            illegal = np.flatnonzero(obs["action_mask"] == 0)
            pool = illegal if step == illegal_at else legal
            action = kind(pool[rng.integers(len(pool))])
        env.step(action)
        step += 1
    return trace


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("kind", [int, np.int64], ids=["int", "numpy"])
@pytest.mark.parametrize("illegal_at", [None, 0, 7])
@pytest.mark.parametrize("config", [{}, {"cube": True}], ids=["no_cube", "cube"])
def test_env_wrappers_act_as_pettingzoos(config, illegal_at, kind):
    """env()'s wrappers (written out, their checks made at once around wrap()'s chain; a
    legal ``int`` after its mask was seen stepped at once) give the same games, rewards,
    terminations and infos as PettingZoo's classes."""
    ours = _trace(backgammon_v0.env(**config), 3, illegal_at, kind)
    theirs = _trace(_pettingzoo_wrapped(**config), 3, illegal_at, kind)
    assert ours == theirs
    assert len(ours) > (10 if illegal_at is None else 2)


@pytest.mark.parametrize("factory", [backgammon_v0.env, _pettingzoo_wrapped])
def test_wrapped_env_rejects_out_of_range_actions_and_calls_before_reset(factory):
    env = factory()
    with pytest.raises(AttributeError):
        env.last()
    env.reset(seed=0)
    for bad in (N_ACTIONS, -1, 2.5):
        with pytest.raises(AssertionError, match="not in action space"):
            env.step(bad)
    assert not done(env)  # nothing stepped


@pytest.mark.parametrize("factory", [backgammon_v0.env, _pettingzoo_wrapped])
def test_agent_iter_enforces_a_step_between_agents_and_stops(factory):
    """env()'s agent_iter (its own iterator, PettingZoo's class) checks as PettingZoo's
    does: a step between two agents, at most ``max_iter`` agents, none once all are done."""
    env = factory()
    with pytest.raises(AssertionError, match="reset"):
        env.agent_iter()
    env.reset(seed=0)
    it = iter(env.agent_iter(max_iter=3))
    assert next(it) == env.agent_selection
    with pytest.raises(AssertionError, match="need to call step"):
        next(it)  # (it counts as one of the three)
    env.step(int(np.flatnonzero(env.last()[0]["action_mask"])[0]))
    assert next(it) == env.agent_selection
    env.step(int(np.flatnonzero(env.last()[0]["action_mask"])[0]))
    with pytest.raises(StopIteration):
        next(it)
    env.reset(seed=1)
    for agent in env.agent_iter():
        env.step(None if any(env.last()[2:4]) else
                 int(np.flatnonzero(env.last()[0]["action_mask"])[0]))
    assert not env.agents and list(env.agent_iter()) == []


# ------------------------------------------------------------------ reset options
@pytest.mark.parametrize("agent", ["player_0", "player_1"])
@pytest.mark.parametrize(
    "pid, dice",
    [
        (START, (3, 1)),
        (START, (6, 6)),
        ("sGfwATDgc/ABMA", (5, 2)),  # after the opening 8/5 6/5, the opponent on roll
        (BEAROFF, (6, 5)),  # bearing off, 7 checkers left
    ],
)
def test_reset_with_position_and_dice(agent, pid, dice):
    env = backgammon_v0.raw_env()
    env.reset(seed=5, options={"position_id": pid, "dice": dice, "agent": agent})
    legal = Position.from_position_id(pid).legal_plays(dice)
    assert len(legal) > 1, "fixture must leave a choice (no forced play)"
    assert env.agent_selection == agent
    assert env.game.phase == Phase.MOVE
    if not env.game.played:  # nothing forced was auto-played
        assert env.position_id() == pid
        expected_dice = (dice[0],) * 4 if dice[0] == dice[1] else tuple(dice)
        assert sorted(env.dice) == sorted(expected_dice)
    mask = env.observe(agent)["action_mask"]
    firsts = {p.actions[0] for p in legal if p.actions}
    assert set(np.flatnonzero(mask).tolist()) <= set(range(150))
    assert firsts & set(np.flatnonzero(mask).tolist())
    other = [a for a in env.possible_agents if a != agent][0]
    assert not env.observe(other)["action_mask"].any()


def test_reset_position_without_dice_asks_the_cube_then_reports_from_the_taker():
    pid = "sGfwATDgc/ABMA"
    env = backgammon_v0.raw_env(cube=True)
    env.reset(seed=0, options={"position_id": pid, "agent": "player_1"})
    assert env.agent_selection == "player_1" and env.game.phase == Phase.CUBE
    assert env.position_id() == pid and env.dice == ()
    env.step(DOUBLE)
    assert env.agent_selection == "player_0" and env.game.phase == Phase.TAKE
    assert env.position_id() == Position.from_position_id(pid).swap().position_id()


def test_turn_passes_when_no_die_can_be_played():
    """x is on the bar and o holds x's entry points 20..24: 1-1 cannot enter, so x is
    not asked anything and o is on roll (no cube: o rolls at once)."""
    blocked = Position.from_layout({25: 1, 6: 14}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 13: 5})
    env = backgammon_v0.raw_env(cube=False)
    env.reset(seed=2, options={"position_id": blocked.position_id(), "dice": (1, 1)})
    assert env.agent_selection == "player_1"
    assert env.game.phase == Phase.MOVE and env.dice
    if not env.game.played:
        assert env.position_id() == blocked.swap().position_id()


@pytest.mark.parametrize(
    "options, word",
    [
        ({"position_id": "not-an-id"}, "position"),
        ({"position_id": START, "dice": (7, 1)}, "dice"),
        ({"position_id": START, "dice": (0, 3)}, "dice"),
        ({"position_id": START, "dice": (1, 2, 3)}, "dice"),
        ({"position_id": START, "agent": "player_7"}, "agent"),
        ({"position_id": "AAAAAAAAAAAAAA"}, "over"),  # both sides all off
    ],
)
def test_reset_bad_options_raise_value_error(options, word):
    env = backgammon_v0.raw_env()
    with pytest.raises(ValueError) as err:
        env.reset(options=options)
    assert word.lower() in str(err.value).lower()


def test_reset_seed_gives_same_opening_and_different_seeds_differ():
    def opening(seed):
        env = backgammon_v0.raw_env()
        env.reset(seed=seed)
        return env.agent_selection, env.game.dice, env.position_id()

    assert opening(11) == opening(11)
    assert len({opening(s) for s in range(30)}) > 5


# ------------------------------------------------------------------ Match ID
def _match_state():
    return pytest.importorskip("bg_env.rules.match_id").MatchState


@pytest.mark.parametrize("on_roll", [0, 1])
def test_reset_with_match_id(on_roll):
    MatchState = _match_state()
    mid = MatchState(cube_value=4, cube_owner=1 - on_roll, player_on_roll=on_roll,
                     turn=on_roll, dice=(5, 2)).match_id()
    env = backgammon_v0.raw_env(cube=True)
    env.reset(seed=0, options={"position_id": START, "match_id": mid})
    agent = env.possible_agents[on_roll]
    assert env.agent_selection == agent
    assert env.game.cube_value == 4 and env.game.cube_owner == 1 - on_roll
    assert env.game.phase == Phase.MOVE and sorted(env.dice) == [2, 5]
    assert env.position_id() == START
    back = MatchState.from_match_id(env.match_id())
    assert (back.cube_value, back.cube_owner, back.player_on_roll, back.turn) == (4, 1 - on_roll, on_roll, on_roll)
    assert sorted(back.dice) == [2, 5] and back.match_length == 0


def test_reset_with_match_id_cube_question_only_for_owner():
    MatchState = _match_state()
    env = backgammon_v0.raw_env(cube=True)
    own = MatchState(cube_value=2, cube_owner=0, player_on_roll=0, turn=0).match_id()
    env.reset(seed=0, options={"position_id": START, "match_id": own})
    assert env.game.phase == Phase.CUBE and env.agent_selection == "player_0"
    assert env.legal_actions() == [ROLL, DOUBLE]
    theirs = MatchState(cube_value=2, cube_owner=1, player_on_roll=0, turn=0).match_id()
    env.reset(seed=0, options={"position_id": START, "match_id": theirs})
    assert env.game.phase == Phase.MOVE and env.agent_selection == "player_0"


def test_match_id_round_trips_through_reset():
    MatchState = _match_state()
    env = backgammon_v0.raw_env(cube=True)
    env.reset(seed=4, options={"position_id": START})
    env.step(DOUBLE)
    env.step(TAKE)  # player_0 rolls now, cube 2 owned by player_1
    while env.game.played or env.game.phase != Phase.MOVE:  # a fresh roll, nothing forced
        env.step(first_legal(env))
        assert not done(env)
    mid, pid = env.match_id(), env.position_id()
    state = (env.agent_selection, env.game.cube_value, env.game.cube_owner, sorted(env.dice))
    other = backgammon_v0.raw_env(cube=True)
    other.reset(seed=99, options={"position_id": pid, "match_id": mid})
    assert (other.agent_selection, other.game.cube_value, other.game.cube_owner,
            sorted(other.dice)) == state
    assert other.position_id() == pid
    assert MatchState.from_match_id(other.match_id()) == MatchState.from_match_id(mid)


def test_match_id_reports_a_pending_double():
    MatchState = _match_state()
    env = backgammon_v0.raw_env(cube=True)
    env.reset(seed=0, options={"position_id": "sGfwATDgc/ABMA"})
    env.step(DOUBLE)
    state = MatchState.from_match_id(env.match_id())
    assert state.double_offered and state.turn == 1 and state.player_on_roll == 0
    assert state.cube_value == 1 and state.dice == (0, 0)


def test_match_id_round_trip_with_a_pending_double():
    _match_state()
    pid = "sGfwATDgc/ABMA"  # asymmetric: the two sides see different IDs
    env = backgammon_v0.raw_env(cube=True)
    env.reset(seed=0, options={"position_id": pid})
    env.step(DOUBLE)
    mid, taker_view = env.match_id(), env.position_id()
    assert taker_view == Position.from_position_id(pid).swap().position_id()
    other = backgammon_v0.raw_env(cube=True)
    other.reset(seed=0, options={"position_id": taker_view, "match_id": mid})
    assert other.game.phase == Phase.TAKE
    assert other.agent_selection == "player_1"
    assert other.position_id() == taker_view
    assert other.legal_actions() == [TAKE, DROP]


# ------------------------------------------------------------------ misc behaviour
def test_observation_is_from_each_agents_side():
    env = backgammon_v0.raw_env(observation="compact")
    env.reset(options={"position_id": "sGfwATDgc/ABMA", "dice": (5, 2)})
    me = env.observe("player_0")["observation"]
    them = env.observe("player_1")["observation"]
    pos = Position.from_position_id("sGfwATDgc/ABMA")
    assert list(me[:26]) == list(pos.me) and list(me[26:52]) == list(pos.opp)
    assert list(them[:26]) == list(pos.opp) and list(them[26:52]) == list(pos.me)


def test_cube_actions_never_in_checker_play_and_vice_versa():
    env = backgammon_v0.raw_env(beaver=True, cube=True)
    env.reset(seed=8)
    rng = np.random.default_rng(0)
    for _ in range(400):
        if done(env):
            break
        legal = np.flatnonzero(env.observe(env.agent_selection)["action_mask"])
        if env.game.phase == Phase.MOVE:
            assert legal.max() < 150
        elif env.game.phase == Phase.CUBE:
            assert legal.tolist() == [ROLL, DOUBLE]
        else:
            assert set(legal.tolist()) <= {TAKE, DROP, BEAVER} and DROP in legal
            legal = np.array([TAKE])
        env.step(int(rng.choice(legal)) if env.game.phase != Phase.CUBE or rng.random() < 0.2 else ROLL)
