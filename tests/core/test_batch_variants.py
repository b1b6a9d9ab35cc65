"""The variants whose moves are not standard on the kernel state machine
(:mod:`bg_env.kernels.batch_variants` through :mod:`bg_env.kernels.batch` and
:mod:`bg_env.kernels.engine`), in lockstep with :class:`Game` (which plays them through
:class:`~bg_env.kernels.variant_turn.KernelVariantTurn`).

The same seed gives both the same dice (the batch's splitmix64 through
:class:`helpers.SplitMix`, or the engine's numpy generator); the test makes both sides'
decisions, and after each one the kernels' state must be the Game's: board, pins, phase,
cube, dice, moves left, mask, result; and :meth:`Game.from_games` must rebuild the Game,
mid-turn included.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings

pytest.importorskip("numba")

from bg_env.actions import N_ACTIONS, ROLL  # noqa: E402
from bg_env.kernels import batch  # noqa: E402
from bg_env.kernels import games as kgames
from bg_env.kernels.batch_variants import VariantRows, turn_mask, uses_variant_turn  # noqa: E402
from bg_env.kernels.engine import EngineGame  # noqa: E402
from bg_env.game.game import Game, Phase, Rules  # noqa: E402
from bg_env.kernels.variant_turn import I_PIN_ME, I_PIN_OPP, KernelVariantTurn  # noqa: E402
from bg_env.rules.variants import PinnedPosition, get_variant  # noqa: E402
from helpers import SplitMix, batch_lockstep, pick_roll_take  # noqa: E402
from variant_cases import cases  # noqa: E402

VARIANTS = ("plakoto", "caucasian", "long_nardy", "sudden_death")
PIN_VARIANTS = ("plakoto", "caucasian", "long_nardy")
"""The variants of the brute-force reference's random boards (tests/variant_cases.py)."""
MIN_STEPS = {"plakoto": 100, "caucasian": 100, "long_nardy": 100, "sudden_death": 20}
"""Decisions four games make at least (sudden death ends at the first hit)."""


def rules_of(variant: str, cube: bool) -> Rules:
    if not cube:
        return Rules(variant=variant, cube=False)
    return Rules(variant=variant, beaver=True, jacoby=variant == "plakoto", auto_doubles=1,
                 max_cube=16)


def assert_same(game: Game, games: kgames.Games, i: int = 0, mask=None) -> None:
    """``mask``: the legal actions when they are not ``games.mask[i]`` (the engine's)."""
    s, rows = games.state[i], games.variant_rows
    mask = games.mask[i] if mask is None else mask
    where = f"{game.variant.name} {game.position!r} phase {game.phase} dice {game.dice}"
    assert Phase.ALL[s[batch.PHASE]] == game.phase, where
    assert (s[batch.TURN], s[batch.TURNS]) == (game.turn, game.turns), where
    assert tuple(games.me[i]) == game.position.me, where
    assert tuple(games.opp[i]) == game.position.opp, where
    if isinstance(game.position, PinnedPosition):
        assert rows.pins(i) == game.position.pinned, where
    assert (s[batch.CUBE_VALUE], s[batch.CUBE_OWNER], s[batch.CUBE_TURNED]) == (
        game.cube_value, game.cube_owner, int(game.cube_turned)), where
    assert (mask != 0).tolist() == game.legal_mask().tolist(), where
    if game.phase == Phase.MOVE:
        n = s[batch.N_DICE]
        assert sorted(s[batch.DIE0:batch.DIE0 + n]) == sorted(game.remaining), where
        assert s[batch.MOVES_LEFT] == game.moves_left, where
    if game.phase == Phase.OVER:
        r = game.result
        assert (s[batch.WINNER], batch.OUTCOMES[s[batch.OUTCOME]], s[batch.POINTS],
                s[batch.CUBE_VALUE]) == (r.winner, r.outcome, r.points, r.cube_value), where
    copy = Game.from_games(games, i)
    assert copy.position == game.position, where
    assert (copy.phase, copy.turn, copy.cube_value, copy.result) == (
        game.phase, game.turn, game.cube_value, game.result), where
    assert copy.legal_mask().tolist() == game.legal_mask().tolist(), where
    if game.phase == Phase.MOVE:
        assert (copy.moves_left, copy.dice, copy.played, copy.turn_start) == (
            game.moves_left, game.dice, game.played, game.turn_start), where


def play_batch_lockstep(rules: Rules, seed: int) -> int:
    return batch_lockstep(rules, seed, assert_same)


def play_engine_lockstep(rules: Rules, seed: int) -> int:
    engine, game = EngineGame(rules), Game(rules)
    rng_e, rng_g = np.random.default_rng(seed), np.random.default_rng(seed)
    assert engine.open(rng_e)
    game.opening(rng_g)
    game.settle(rng_g)
    rnd = random.Random(seed)
    steps = 0
    while True:
        assert (engine.phase, engine.actor, engine.turns) == (
            Phase.ALL.index(game.phase), game.actor, game.turns)
        assert_same(game, engine.games, 0, engine.mask)
        if game.phase == Phase.OVER:
            assert engine.result() == game.result
            break
        action = pick_roll_take(game.legal_actions(), rnd)
        assert engine.act(action, rng_e)
        game.step(action, rng_g)
        steps += 1
    assert rng_e.bit_generator.state == rng_g.bit_generator.state
    return steps


@pytest.mark.parametrize("cube", [False, True])
@pytest.mark.parametrize("variant", VARIANTS)
def test_batch_lockstep_with_game(variant, cube):
    steps = sum(play_batch_lockstep(rules_of(variant, cube), seed) for seed in range(4))
    assert steps > MIN_STEPS[variant]


@pytest.mark.parametrize("cube", [False, True])
@pytest.mark.parametrize("variant", VARIANTS)
def test_engine_lockstep_with_game(variant, cube):
    steps = sum(play_engine_lockstep(rules_of(variant, cube), seed) for seed in range(4))
    assert steps > MIN_STEPS[variant]


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS)
def test_engine_lockstep_many(variant):
    for seed in range(4, 60):
        play_engine_lockstep(rules_of(variant, seed % 2 == 0), seed)


def test_sudden_death_ends_at_the_first_hit():
    """Many games on the vt path: each ends in a hit (one point) or a single game."""
    rules = Rules(cube=False, variant="sudden_death")
    games = kgames.Games(64, rules)
    games.seed(3)
    games.reset()
    legal = np.zeros(64, dtype=bool)
    for _ in range(3000):
        if (games.state[:, batch.PHASE] == batch.P_OVER).all():
            break
        actions = np.array([np.flatnonzero(m)[0] if m.any() else -1 for m in games.mask])
        kgames.act(games.state, games.me, games.opp, games.seeds, games.rules, games.mask,
                  actions, legal, *games.kernel_variant_args)
    s = games.state
    assert (s[:, batch.PHASE] == batch.P_OVER).all()
    outcomes = {batch.OUTCOMES[o] for o in s[:, batch.OUTCOME]}
    assert "hit" in outcomes and outcomes <= {"hit", "single"}
    assert (s[:, batch.POINTS] == 1).all()


def test_plakoto_mother_ends_a_double_game():
    """Some seed ends a Plakoto game by pinning a mother: kind "mother", two stakes (and
    one under Jacoby while the cube was never turned)."""
    found = {}
    for seed in range(200):
        for jacoby in (False, True):
            rules = Rules(variant="plakoto", cube=True, jacoby=jacoby)
            engine = EngineGame(rules)
            rng, rnd = np.random.default_rng(seed), random.Random(seed)
            engine.open(rng)
            while not engine.over:
                legal = np.flatnonzero(engine.mask).tolist()
                engine.act(ROLL if ROLL in legal else rnd.choice(legal), rng)
            r = engine.result()
            if r.outcome == "mother":
                found[jacoby] = r.points
        if len(found) == 2:
            break
    assert found == {False: 2, True: 1}


def test_long_nardy_first_roll_may_be_a_double():
    """The starter rolls two fresh dice (seed 003), so some opening is a double."""
    doubles = 0
    for seed in range(60):
        engine = EngineGame(Rules(variant="long_nardy", cube=False))
        engine.open(np.random.default_rng(seed))
        s = engine.games.state[0]
        doubles += s[batch.ROLL0] == s[batch.ROLL1]
    assert doubles > 0


@pytest.mark.parametrize("variant", VARIANTS)
def test_row_turn_is_the_kernel_turn(variant):
    """Row 2 of a batch of rows plays a turn as KernelVariantTurn does (mask, moves left,
    board after each move), the other rows untouched."""
    from bg_env.kernels.batch_variants import move_row, open_row_turn

    rnd = random.Random(variant)
    v = get_variant(variant)
    rows = VariantRows(4, variant)
    vt = rows.kernel_args
    for _ in range(30):
        pos, d1, d2 = v.start_position(), rnd.randint(1, 6), rnd.randint(1, 6)
        turn = KernelVariantTurn(v, pos, (d1, d2))
        me, opp = np.array(pos.me, np.int64), np.array(pos.opp, np.int64)
        before = rows.info[[0, 1, 3]].copy()
        assert open_row_turn(vt, 2, me, opp, d1, d2) == turn.moves_to_play
        while turn.moves_to_play:
            mask = np.zeros(N_ACTIONS, np.int8)
            count, only = turn_mask(vt, 2, mask)
            assert (count, mask.tolist()) == (turn.count, turn.mask.tolist())
            action = rnd.choice(turn.next_actions())
            after, hit = turn.move(action)
            assert move_row(vt, 2, me, opp, action) == (hit, turn.moves_to_play)
            assert (tuple(me), tuple(opp)) == (after.me, after.opp)
        assert (rows.info[[0, 1, 3]] == before).all()


def test_only_non_standard_moves_use_the_row_turns():
    assert [v for v in ("standard", "nackgammon", "nuclear", "plakoto", "caucasian",
                        "long_nardy", "sudden_death") if uses_variant_turn(v)] == [
        "plakoto", "caucasian", "long_nardy", "sudden_death"]
    assert kgames.Games(2, Rules()).variant_rows is None


def check_sudden_death_turn(position, dice, rnd) -> int:
    """One random play of ``dice`` from ``position`` on a row turn and on the pure-Python
    reference turn (:class:`~bg_env.rules.variants.VariantTurn`), the masks and the moves
    left compared at every move (sudden death: a hit ends the play); returns how many
    moves were compared."""
    from bg_env.kernels.batch_variants import move_row, open_row_turn
    from bg_env.game.start import checked_position
    from bg_env.rules.variants import VariantTurn, get_variant

    variant = get_variant("sudden_death")
    try:
        position = checked_position(position, variant)
    except ValueError:  # a checker on the bar: the game is already over
        return 0
    reference = VariantTurn(variant, position, dice)
    vt = VariantRows(1, "sudden_death").kernel_args
    me, opp = np.array(position.me, np.int64), np.array(position.opp, np.int64)
    left, compared, made = open_row_turn(vt, 0, me, opp, *dice), 0, []
    assert left == reference.moves_to_play
    while left:
        where = f"{position.position_id()} {dice} after {made}"
        mask = np.zeros(N_ACTIONS, np.int8)
        turn_mask(vt, 0, mask)
        assert left == reference.moves_to_play, where
        assert np.flatnonzero(mask).tolist() == reference.next_actions(), where
        action = rnd.choice(reference.next_actions())
        reference.move(action)
        made.append(action)
        _, left = move_row(vt, 0, me, opp, action)
        compared += 1
    assert reference.moves_to_play == 0
    return compared


def test_sudden_death_row_turn_is_the_game_turn_on_random_boards():
    """eng-std's sudden-death mask cases (random boards), on the vt path."""
    from helpers import random_cases

    rnd = random.Random(0)
    compared = sum(check_sudden_death_turn(p, d, rnd) for _, p, d in random_cases(300, seed=7))
    assert compared > 250


def test_sudden_death_hit_ends_the_play():
    # x on 13 and 8 with 6-5: 13/8 hits nothing, 13/7* and 8/2* hit (and end the play).
    from helpers import pos

    position = pos("x 13:1 8:1; o 7:1 2:1 24:13")
    assert check_sudden_death_turn(position, (6, 5), random.Random(1)) >= 1
    vt = VariantRows(1, "sudden_death").kernel_args
    me, opp = np.array(position.me, np.int64), np.array(position.opp, np.int64)
    from bg_env.kernels.batch_variants import open_row_turn

    open_row_turn(vt, 0, me, opp, 6, 5)
    mask = np.zeros(N_ACTIONS, np.int8)
    turn_mask(vt, 0, mask)
    assert mask[(13 - 1) * 6 + 6 - 1] and mask[(8 - 1) * 6 + 6 - 1]  # 13/7* and 8/2*


def _row_copy(rows: VariantRows, i: int) -> tuple:
    return rows.info[i].copy(), rows.rows[i].copy(), rows.flags[i].copy()


def _row_restore(rows: VariantRows, i: int, saved: tuple) -> None:
    rows.info[i], rows.rows[i], rows.flags[i] = saved


def row_results(variant: str, pos, dice) -> set:
    """Every board a complete play reaches, by trying each legal next move of row 1's turn
    in turn (the other rows hold other turns)."""
    from bg_env.kernels.batch_variants import move_row, open_row_turn

    rows = VariantRows(3, variant)
    vt = rows.kernel_args
    pins = getattr(pos, "pinned", (0, 0))
    rows.info[1, I_PIN_ME], rows.info[1, I_PIN_OPP] = pins
    me, opp = np.array(pos.me, np.int64), np.array(pos.opp, np.int64)
    found = set()

    def walk(left: int) -> None:
        if left == 0:
            found.add((tuple(me), tuple(opp), rows.pins(1)))
            return
        mask = np.zeros(N_ACTIONS, np.int8)
        count, _ = turn_mask(vt, 1, mask)
        assert count == np.count_nonzero(mask) > 0
        for action in np.flatnonzero(mask).tolist():
            saved, board = _row_copy(rows, 1), (me.copy(), opp.copy())
            _, still = move_row(vt, 1, me, opp, action)
            walk(still)
            _row_restore(rows, 1, saved)
            me[:], opp[:] = board

    walk(open_row_turn(vt, 1, me, opp, *dice))
    return found


def _results(plays) -> set:
    return {(p.result.me, p.result.opp, getattr(p.result, "pinned", (0, 0))) for p in plays}


@pytest.mark.parametrize(
    "variant, position_id, dice",
    [
        ("long_nardy", "CAAA/z8AAID/Pw", (4, 4)),  # 24/20, not 24/20(2) (seed 003)
        ("long_nardy", "AACA/z8AAID/Pw", (6, 6)),  # 24/18(2)
        ("caucasian", "4P8BABMgAAAAAA", (4, 2)),  # 6/2*/off (seed 000)
    ],
)
def test_the_seed_fixtures_on_the_row_turns(variant, position_id, dice):
    from bg_env.rules.variants import legal_plays_variant

    v = get_variant(variant)
    pos = v.position_from_id(position_id)
    assert row_results(variant, pos, dice) == _results(legal_plays_variant(v, pos, dice))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cases(list(PIN_VARIANTS)))
def test_the_row_turns_reach_the_reference_results(case):
    """On random boards of each variant (tests/variant_cases.py), the complete plays of a
    row's turn reach exactly the boards of the brute-force reference."""
    from bg_env.rules.variants import legal_plays_variant

    variant, pos, dice = case
    assert row_results(variant, pos, dice) == _results(legal_plays_variant(variant, pos, dice))
