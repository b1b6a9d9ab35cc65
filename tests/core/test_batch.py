"""The batched game kernels (``bg_env.kernels.batch``) in lockstep with :class:`Game`, in
standard play and in the variants whose checkers move as in standard play (their start
layouts, the nuclear bomb; the other variants' turns: ``test_batch_variants.py``).

Both are driven by the same dice: the Game gets a Python copy of the batch's generator
(splitmix64 and Lemire's bounded integers), so the same seed gives the same rolls, and
both sides' decisions are made by the test. After every decision the batch state must be
the Game's: board, phase, cube, dice, moves, mask, result; and the batch observations must
be :func:`~bg_env.envs.observation.encode`'s, from both sides, with both encoders.
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("numba")

from bg_env.actions import BOMB  # noqa: E402
from bg_env.kernels import batch  # noqa: E402
from bg_env.kernels import games as kgames
from bg_env.game.game import Game, Phase, Rules  # noqa: E402
from bg_env.envs.context import VARIANT_ORDER  # noqa: E402
from bg_env.envs.observation import ENCODERS, encode, encode_games  # noqa: E402
from helpers import SplitMix, batch_lockstep  # noqa: E402

PHASES = (Phase.CUBE, Phase.TAKE, Phase.BEAVER_TAKE, Phase.MOVE, Phase.OVER)
RULES = {
    "nocube": Rules(cube=False),
    "default": Rules(),
    "beaver_jacoby": Rules(beaver=True, jacoby=True),
    "auto_arith": Rules(auto_doubles=3, cube_progression="arithmetic", max_cube=0,
                        gammons="no_backgammons"),
    "small_cube": Rules(max_cube=4, gammons="none", beaver=True),
}
KERNEL_VARIANTS = ("nackgammon", "hypergammon1", "hypergammon2", "hypergammon3", "longgammon",
                   "nuclear")
VARIANT_RULES = {
    **{f"{v}-nocube": Rules(cube=False, variant=v) for v in KERNEL_VARIANTS},
    **{f"{v}-cube": Rules(variant=v, beaver=True, jacoby=v == "nuclear") for v in KERNEL_VARIANTS},
}


def assert_same(game: Game, games: kgames.Games, i: int = 0) -> None:
    s = games.state[i]
    where = f"{game.position.position_id()} phase {game.phase} dice {game.dice}"
    assert PHASES[s[batch.PHASE]] == game.phase, where
    assert (s[batch.TURN], s[batch.TURNS]) == (game.turn, game.turns), where
    assert tuple(games.me[i]) == game.position.me, where
    assert tuple(games.opp[i]) == game.position.opp, where
    assert (s[batch.CUBE_VALUE], s[batch.CUBE_OWNER], s[batch.CUBE_TURNED]) == (
        game.cube_value, game.cube_owner, int(game.cube_turned)), where
    assert s[batch.BOMB_OWNER] == game.bomb_owner, where
    if game.phase == Phase.MOVE:
        assert s[batch.MOVES_LEFT] == game.moves_left, where
        assert sorted(s[batch.DIE0:batch.DIE0 + s[batch.N_DICE]]) == sorted(game.remaining), where
    assert (games.mask[i] == game.legal_mask()).all(), where
    if game.phase == Phase.OVER:
        r = game.result
        assert (s[batch.WINNER], batch.OUTCOMES[s[batch.OUTCOME]], s[batch.POINTS]) == (
            r.winner, r.outcome, r.points), where
    copy = Game.from_games(games, i)
    assert (copy.legal_mask() == game.legal_mask()).all(), where
    assert (copy.rules, copy.bomb_owner, copy.result) == (game.rules, game.bomb_owner,
                                                          game.result), where
    if game.phase == Phase.MOVE:
        assert sorted(copy.remaining) == sorted(game.remaining), where
        assert (copy.moves_left, copy.larger_only, copy.dice) == (
            game.moves_left, game.larger_only, game.dice), where
        assert copy.played == game.played and copy.turn_start == game.turn_start, where
    for encoder in ENCODERS:
        for side in (0, 1):
            expected = encode(game, side, encoder)
            out = np.zeros((1, expected.size), expected.dtype)
            encode_games(games, np.array([side]), encoder, out)
            np.testing.assert_array_equal(out[0], expected,
                                          err_msg=f"{encoder} side {side}: {where}")


def play_lockstep(rules: Rules, seed: int) -> int:
    return batch_lockstep(rules, seed, assert_same)


@pytest.mark.parametrize("name", list(RULES))
def test_lockstep_with_game(name):
    steps = sum(play_lockstep(RULES[name], seed) for seed in range(3))
    assert steps > 100


@pytest.mark.slow
@pytest.mark.parametrize("name", list(RULES))
def test_lockstep_with_game_many(name):
    for seed in range(3, 40):
        play_lockstep(RULES[name], seed)


@pytest.mark.parametrize("name", list(VARIANT_RULES))
def test_variant_lockstep_with_game(name):
    steps, seed = 0, 0
    while steps < 80 and seed < 60:  # short games (hypergammon1): more of them
        steps += play_lockstep(VARIANT_RULES[name], seed)
        seed += 1
    assert steps >= 80


def test_variants_start_as_game():
    """One start mechanism for every variant (the rules array's layout), those whose moves
    are not standard included."""
    for variant in VARIANT_ORDER:
        games = kgames.Games(1, Rules(variant=variant))
        games.state[0, batch.PHASE] = batch.P_OVER
        start = Game(Rules(variant=variant)).variant.start_position()
        games.seed(0)
        games.reset()
        board = Game.from_games(games, 0).turn_start or Game.from_games(games, 0).position
        assert sum(board.me) == sum(board.opp) == sum(start.me), variant
        assert board.me == start.me and board.opp == start.opp, variant


def test_nuclear_bomb_sends_every_blot_to_the_bar():
    rules = Rules(cube=False, variant="nuclear")
    games = kgames.Games(1, rules)
    games.seed(11)
    games.reset()
    legal = np.zeros(1, dtype=bool)
    while not games.mask[0, BOMB]:  # play first moves until a cube phase offers the bomb
        kgames.act(games.state, games.me, games.opp, games.seeds, games.rules, games.mask,
                  np.array([np.flatnonzero(games.mask[0])[0]]), legal)
    me, opp = games.me[0].copy(), games.opp[0].copy()
    turn = games.state[0, batch.TURN]
    kgames.act(games.state, games.me, games.opp, games.seeds, games.rules, games.mask,
              np.array([BOMB]), legal)
    assert legal[0] and games.state[0, batch.BOMB_OWNER] == 1 - turn
    blots = (me[1:25] == 1).sum(), (opp[1:25] == 1).sum()
    board = (games.me[0], games.opp[0]) if games.state[0, batch.TURN] == turn else (
        games.opp[0], games.me[0])
    if games.state[0, batch.N_PLAYED] == 0 and games.state[0, batch.TURN] == turn:
        assert board[0][25] == me[25] + blots[0] and board[1][25] == opp[25] + blots[1]
    assert not games.mask[0, BOMB]


def test_same_seed_same_games():
    runs = []
    for _ in range(2):
        games = kgames.Games(8, Rules())
        games.seed(5)
        games.reset()
        runs.append((games.state.copy(), games.me.copy(), games.seeds.copy()))
    for a, b in zip(*runs):
        np.testing.assert_array_equal(a, b)
    other = kgames.Games(8, Rules())
    other.seed(6)
    other.reset()
    assert not np.array_equal(other.seeds, runs[0][2])


def test_dice_are_uniform():
    games = kgames.Games(1, Rules(cube=False))
    games.seed(0)
    rolls = SplitMix(games.seeds[0])
    counts = np.bincount([rolls.integers(1, 7) for _ in range(60000)], minlength=7)[1:]
    assert counts.min() > 9500 and counts.max() < 10500
