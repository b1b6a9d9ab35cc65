"""The variant kernels (:mod:`bg_env.kernels.variant_moves`, :mod:`bg_env.kernels.variant_search`,
played by :class:`~bg_env.kernels.variant_turn.KernelVariantTurn`: what the game plays the
variants by) against the brute-force reference
(:func:`~bg_env.rules.variants.variant_sequences`, the pure-Python rules over every order
of the dice): the same plays on many random positions of every variant, and move by move
the same legal next moves, hit flags, boards and moves left (Hypothesis)."""

from __future__ import annotations

import pickle

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bg_env.game.game import Game, Phase
from bg_env.kernels.variant_turn import KernelVariantTurn
from bg_env.rules.variants import PinnedPosition, get_variant, legal_plays_variant, variant_sequences

from variant_cases import (  # noqa: E402
    NAMES, OWN_RULES, SEED_FIXTURES, case_rules, case_variant, cases, follow_reference,
)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cases(NAMES))
def test_the_kernels_give_the_reference_plays(case):
    """One play per reference result, each made of one of the reference's move orders
    for that result (hit flags included)."""
    variant, pos, dice = case
    orders: dict = {}
    for moves, result in variant_sequences(variant, pos, dice):
        orders.setdefault(result, set()).add(moves)
    plays = KernelVariantTurn(variant, pos, dice).continuations(pos)
    assert {p.result for p in plays} == set(orders), (variant, pos, dice)
    assert len(plays) == len(orders)
    for p in plays:
        assert p.start == pos and p.moves in orders[p.result], (variant, pos, dice, p)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cases(OWN_RULES), st.randoms(use_true_random=False))
def test_move_by_move_the_kernels_follow_the_reference(case, pick):
    """At every step of a randomly built play: the legal next actions (the mask) are the
    next moves of the reference sequences that start with the moves made; the hit flags,
    the board after each move and the moves still to play agree; the continuations are the
    reference's."""
    variant, pos, dice = case

    def mask_agrees(turn, want):
        assert turn.mask.nonzero()[0].tolist() == sorted(want) and turn.count == len(want)

    follow_reference(KernelVariantTurn(variant, pos, dice), variant, pos, dice, pick, mask_agrees)


@pytest.mark.parametrize("variant, position_id, dice, legal, illegal", SEED_FIXTURES)
def test_the_seed_rules_hold_in_the_kernels(variant, position_id, dice, legal, illegal):
    v = get_variant(variant)
    pos = v.position_from_id(position_id)
    got = {p.notation for p in KernelVariantTurn(v, pos, dice).continuations(pos)}
    assert legal <= got and not (illegal & got)
    assert got == {p.notation for p in legal_plays_variant(v, pos, dice)}


def test_a_mother_pin_ends_the_play_early():
    """Plakoto: pinning the mother ends the game; the turn says no moves are left."""
    me, opp = [0] * 26, [0] * 26
    me[5], me[0], opp[24], opp[0] = 1, 14, 1, 14  # x's 5 -> 1 with a four lands on o's 24
    pos = PinnedPosition(tuple(me), tuple(opp), (0, 0))
    turn = KernelVariantTurn("plakoto", pos, (4, 1))
    assert 4 * 6 + 3 in turn.next_actions()
    board, hit = turn.move(4 * 6 + 3)
    assert hit and turn.moves_to_play == 0 and turn.count == 0 and board.pinned[1] >> 24 & 1


def test_an_illegal_move_is_refused_and_changes_nothing():
    pos = get_variant("long_nardy").start_position()
    turn = KernelVariantTurn("long_nardy", pos, (6, 5))
    before = turn.next_actions()
    with pytest.raises(ValueError, match="not a legal next move"):
        turn.move(0)
    assert turn.next_actions() == before and turn.made == 0


@pytest.mark.parametrize("variant", OWN_RULES)
def test_a_copied_turn_goes_on_alone(variant):
    v = get_variant(case_variant(variant))
    turn = KernelVariantTurn(v, v.start_position(), (6, 5))
    copy = pickle.loads(pickle.dumps(turn))
    action = turn.next_actions()[0]
    board, _ = turn.move(action)
    assert copy.made == 0 and copy.next_actions()[0] == action
    assert copy.move(action)[0] == board and copy.next_actions() == turn.next_actions()


@pytest.mark.parametrize("variant", OWN_RULES)
def test_games_play_to_the_end_on_the_kernels(variant):
    """The Game's variant path (the kernel turn): its mask is its legal actions, the
    continuations at the start of a play are the reference's, and every game ends."""
    rng = np.random.default_rng(7)
    for _ in range(3):
        game = Game(case_rules(variant))
        game.opening(rng)
        game.settle(rng)
        while game.phase != Phase.OVER:
            actions = game.legal_actions()
            if game.phase == Phase.MOVE and game.position == game.turn_start:
                want = {p.result for p in legal_plays_variant(game.variant, game.position,
                                                              game.dice)}
                assert {p.result for p in game.legal_continuations()} == want
            assert game.legal_mask_int8().nonzero()[0].tolist() == actions
            game.step(actions[int(rng.integers(len(actions)))], rng)
        assert game.result is not None
