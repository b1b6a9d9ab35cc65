"""Whole games of every variant through :class:`~bg_env.game.game.Game`: random games run
to the end with the board valid after every decision, the right kind of result and
score; the nuclear bomb as an action; sudden death ends at the first hit."""

from __future__ import annotations

import numpy as np
import pytest
from helpers import RecordingGame

from bg_env.rules.actions import BOMB, DOUBLE, ROLL
from bg_env.game.game import Game, Phase, Rules
from bg_env.rules.position import Position
from bg_env.rules.variants import VARIANTS, PinnedPosition, explode, get_variant

KINDS = {  # the results each variant's board can give (besides "drop" with the cube)
    "sudden_death": {"hit", "single"},
    "plakoto": {"single", "gammon", "mother"},
    "long_nardy": {"single", "gammon"},
}
MULTIPLIER = {"single": 1, "gammon": 2, "backgammon": 3, "hit": 1, "mother": 2}


def random_game(variant: str, seed: int, cube: bool = False, bomb_rate: float = 0.05):
    """Play one game with uniformly random legal actions (the bomb only now and then,
    or random games of nuclear never end); check the board after every decision."""
    rng = np.random.default_rng(seed)
    game = Game(Rules(variant=variant, cube=cube))
    v = get_variant(variant)
    game.opening(rng)
    game.settle(rng)
    decisions = 0
    while game.phase != Phase.OVER:
        v.validate(game.position)
        actions = game.legal_actions()
        assert actions, f"{variant}: no legal action in phase {game.phase}"
        if BOMB in actions and len(actions) > 1 and rng.random() > bomb_rate:
            actions = [a for a in actions if a != BOMB]
        game.step(actions[rng.integers(len(actions))], rng)
        decisions += 1
        assert decisions < 20_000, f"{variant} seed {seed}: the game does not end"
    return game


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_random_games_end_with_a_valid_score(variant):
    v = get_variant(variant)
    for seed in range(6 if v.standard_moves else 3):
        game = random_game(variant, seed)
        result = game.result
        assert result.outcome in KINDS.get(variant, {"single", "gammon", "backgammon"})
        assert result.points == result.cube_value * MULTIPLIER[result.outcome]
        if result.outcome not in ("hit", "mother"):  # the winner bore off everything
            winner_side = game.position.me if result.winner == game.turn else game.position.opp
            assert sum(winner_side[1:26]) == 0


@pytest.mark.parametrize("variant", ["plakoto", "long_nardy", "caucasian", "sudden_death", "nuclear"])
def test_plays_built_move_by_move_are_legal_plays(variant):
    """Every play the game builds one move at a time (random choices, forced moves
    included) is one of the variant's legal plays from the turn's start."""
    from bg_env.rules.variants import legal_plays_variant

    log = []
    for seed in range(20):
        rng = np.random.default_rng(seed)
        game = RecordingGame(Rules(variant=variant, cube=False))
        game.log = log
        game.opening(rng)
        game.settle(rng)
        while game.phase != Phase.OVER and len(log) < 60:
            actions = game.legal_actions()
            if BOMB in actions and len(actions) > 1:
                actions = [a for a in actions if a != BOMB]
            game.step(actions[rng.integers(len(actions))], rng)
        if len(log) >= 60:
            break
    assert len(log) >= 60
    for start, dice, moves, result in log:
        plays = {p.result: p for p in legal_plays_variant(variant, start, dice)}
        assert result in plays, (variant, start, dice, [str(m) for m in moves])
        assert len(moves) == len(plays[result].moves)


def test_sudden_death_game_ends_at_the_first_hit():
    for seed in range(10):
        game = random_game("sudden_death", seed)
        if game.result.outcome == "hit":
            assert game.last_play and game.last_play[-1].hit
            assert sum(1 for m in game.last_play if m.hit) == 1
            assert game.result.points == 1
            return
    pytest.fail("no sudden-death game ended by a hit in 10 random games")


def test_nuclear_bomb_is_an_action_that_passes_to_the_opponent():
    rng = np.random.default_rng(3)
    game = Game(Rules(variant="nuclear", cube=False))
    game.opening(rng)
    game.settle(rng)
    while game.phase != Phase.CUBE:  # play until someone is asked before rolling
        actions = game.legal_actions()
        game.step(actions[0], rng)
    assert game.legal_actions() == [ROLL, BOMB]
    side, before = game.turn, game.position
    game.step(BOMB, rng)
    assert game.bomb_owner == 1 - side
    assert game.turn_start == explode(before) or game.turn != side  # blots went to the bar
    # next turn belongs to the other side, who now owns the bomb and is asked again
    while game.turn == side and game.phase != Phase.OVER:
        game.step(game.legal_actions()[0], rng)
    assert game.phase == Phase.CUBE and BOMB in game.legal_actions()


def test_bomb_with_the_cube_is_asked_beside_double():
    rng = np.random.default_rng(1)
    game = Game(Rules(variant="nuclear", cube=True))
    game.opening(rng)
    game.settle(rng)
    while game.phase != Phase.CUBE:
        game.step(game.legal_actions()[0], rng)
    assert game.legal_actions() == [ROLL, DOUBLE, BOMB]
    game.step(BOMB, rng)
    assert game.phase == Phase.CUBE and game.legal_actions() == [ROLL, DOUBLE]


@pytest.mark.parametrize("variant", ["standard", "plakoto", "long_nardy", "hypergammon"])
def test_no_bomb_outside_nuclear(variant):
    game = random_game(variant, 0, cube=True)
    assert game.bomb_owner == -1
    rng = np.random.default_rng(0)
    g = Game(Rules(variant=variant))
    g.opening(rng)
    for _ in range(50):
        g.settle(rng)
        if g.phase == Phase.OVER:
            break
        assert BOMB not in g.legal_actions()
        g.step(g.legal_actions()[0], rng)


def test_plakoto_positions_keep_their_pins_across_turns():
    pinned_seen = False
    for seed in range(4):
        rng = np.random.default_rng(seed)
        game = Game(Rules(variant="plakoto", cube=False))
        game.opening(rng)
        game.settle(rng)
        while game.phase != Phase.OVER:
            assert isinstance(game.position, PinnedPosition)
            pinned_seen |= any(game.position.pinned)
            actions = game.legal_actions()
            game.step(actions[rng.integers(len(actions))], rng)
    assert pinned_seen


def test_same_seed_same_game_in_every_variant():
    for variant in ("plakoto", "long_nardy", "nuclear"):
        a, b = random_game(variant, 11), random_game(variant, 11)
        assert a.result == b.result and a.position == b.position


def test_caucasian_game_follows_a_sequence_that_needs_the_hitter_to_move():
    """8/6* 8/6 6/4 6/4 with 2-2: the last 6/4 moves the hitter (the other checker on 6
    has moved already); the game must follow that sequence move by move."""
    from bg_env.rules.actions import encode_move
    from bg_env.rules.position import _side

    game = Game(Rules(variant="caucasian", cube=False),
                Position(_side({8: 2, 13: 13}, 15), _side({19: 1, 24: 14}, 15)))
    game.begin_turn(np.random.default_rng(0), (2, 2))
    for source in (8, 8, 6, 6):
        assert encode_move(source, 2) in game.legal_actions(), (source, game.played)
        game.step(encode_move(source, 2), np.random.default_rng(0))
    assert game.last_play and [str(m) for m in game.last_play][0] == "8/6*"
