"""The public ways to start a game anywhere: :meth:`Game.from_position`,
:meth:`Game.from_match_state` / ``from_match_id`` / ``from_xgid``; copies of a Game."""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest

from bg_env.rules import Move, Position
from bg_env.game.game import Game, IllegalActionError, Phase, Rules
from bg_env.rules.match_id import MatchState

START = "4HPwATDgc/ABMA"


def test_from_position_with_dice_is_at_the_first_move():
    g = Game.from_position(Position.start(), None, turn=1, dice=(3, 1))
    assert (g.phase, g.turn, g.dice, g.played) == (Phase.MOVE, 1, (3, 1), [])


def test_from_position_without_dice_asks_the_cube_when_doubling_is_allowed():
    assert Game.from_position(Position.start()).phase == Phase.CUBE
    with pytest.raises(ValueError, match="rng"):  # no cube question: it must roll
        Game.from_position(Position.start(), rules=Rules(cube=False))
    g = Game.from_position(Position.start(), np.random.default_rng(0), Rules(cube=False))
    assert g.phase == Phase.MOVE and len(g.dice) == 2


def test_from_position_replays_the_moves_played():
    g = Game.from_position(Position.start(), None, dice=(3, 1), played=[44])  # 8/5
    assert g.played == [Move(8, 3)] and g.remaining == [1] and g.moves_left == 1
    with pytest.raises(IllegalActionError):
        Game.from_position(Position.start(), None, dice=(3, 1), played=[0])  # 1/off


@pytest.mark.parametrize("kwargs, word", [
    (dict(turn=2), "turn"), (dict(dice=(7, 1)), "dice"), (dict(dice="31"), "dice"),
    (dict(cube_value=3), "power of two"), (dict(cube_value=128), "max_cube"),
    (dict(cube_owner=2), "owner"), (dict(double_offered=True, cube_value=2, cube_owner=1), "may not"),
])
def test_from_position_refuses_bad_values(kwargs, word):
    with pytest.raises(ValueError, match=word):
        Game.from_position(Position.start(), None, **kwargs)


def test_from_position_with_a_double_offered_waits_for_the_answer():
    g = Game.from_position(Position.start(), None, turn=1, cube_value=2, cube_owner=1,
                           double_offered=True)
    assert (g.phase, g.actor, g.pending_cube) == (Phase.TAKE, 0, 4)


def test_from_match_id_and_from_xgid():
    mid = MatchState(cube_value=4, cube_owner=1, player_on_roll=1, turn=1, dice=(6, 5)).match_id()
    g = Game.from_match_id(START, mid)
    assert (g.turn, g.cube_value, g.cube_owner, g.dice) == (1, 4, 1, (6, 5))
    g = Game.from_xgid("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10")
    assert (g.position, g.turn, g.dice) == (Position.start(), 0, (5, 2))
    over = MatchState(game_state=2).match_id()
    with pytest.raises(ValueError, match="not in play"):
        Game.from_match_id(START, over)


@pytest.mark.parametrize("how", [copy.deepcopy, lambda g: pickle.loads(pickle.dumps(g))])
def test_a_copied_game_goes_on_as_the_original(how):
    g = Game.from_position(Position.start(), None, dice=(3, 1))
    g.settle(None)
    g.legal_mask_int8()  # (the kernels' buffers exist)
    clone = how(g)
    traces = []
    for game in (clone, g):
        rng, trace = np.random.default_rng(5), []
        for step in range(80):
            if game.phase == Phase.OVER:
                break
            legal = game.legal_actions()
            game.step(legal[step % len(legal)], rng)
            trace.append((game.position.position_id(), game.dice, game.phase))
        traces.append(trace)
    assert traces[0] == traces[1] and len(traces[0]) > 20


def test_automatic_doubles_stop_at_max_cube_in_the_kernels():
    batch = pytest.importorskip("bg_env.kernels.batch")
    kgames = pytest.importorskip("bg_env.kernels.games")
    games = kgames.Games(400, Rules(auto_doubles=5, max_cube=4))
    games.seed(0)
    games.reset()
    assert set(games.state[:, batch.CUBE_VALUE].tolist()) == {1, 2, 4}


def _finish(game: Game) -> Game:
    while game.phase != Phase.OVER:
        game.step(game.legal_actions()[-1], None)
    return game


# Side 0 bears off its last two checkers with 6-5; side 1 has borne off none: a gammon.
GAMMON_NEXT = Position.from_layout({1: 1, 2: 1}, {13: 15})


@pytest.mark.parametrize("owner, points", [(-1, 2), (0, 4), (1, 4)])
def test_jacoby_counts_a_gammon_only_on_an_owned_cube(owner, points):
    """A centred cube of 2 (automatic doubles) is not turned, as gnubg reads it
    (``fCubeOwner == -1``): under Jacoby the gammon is a single at 2. The old default
    took any cube above 1 for a turned one and scored 4."""
    rules = Rules(jacoby=True, auto_doubles=1)
    game = _finish(Game.from_position(GAMMON_NEXT, None, rules, dice=(6, 5), cube_value=2,
                                      cube_owner=owner))
    assert (game.result.outcome, game.result.points) == ("gammon", points)
    state = MatchState(cube_value=2, cube_owner=owner, jacoby=True, dice=(6, 5))
    from_id = _finish(Game.from_match_id(GAMMON_NEXT.position_id(), state.match_id(),
                                         rules=rules))
    assert from_id.result.points == points


def test_an_automatic_double_played_out_scores_as_a_game_started_there():
    class Dice:  # the opening tie 3-3 (an automatic double), then 6-5 to side 0
        def __init__(self):
            self.rolls = [3, 3, 6, 5]

        def integers(self, *args, **kwargs):
            return self.rolls.pop(0)

    rules = Rules(jacoby=True, auto_doubles=1)
    game = Game(rules)
    game.opening(Dice(), start=GAMMON_NEXT)
    assert (game.cube_value, game.cube_owner, game.cube_turned) == (2, -1, False)
    played = _finish(game).result
    started = _finish(Game.from_position(GAMMON_NEXT, None, rules, dice=(6, 5), cube_value=2))
    assert played == started.result and played.points == 2
