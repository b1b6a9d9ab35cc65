"""The fast variant generator (:mod:`bg_env.rules.variants.tree`, what the game plays by)
against the brute-force reference (:func:`~bg_env.rules.variants.variant_sequences`, every
order of the dice): the same plays on many random positions of every variant, and move
by move the same legal next moves, hit flags and moves left (Hypothesis)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bg_env.rules.variants import (
    PinnedPosition, VariantTurn, get_variant, legal_plays_variant, variant_sequences,
)
from bg_env.rules.variants.tree import legal_plays_tree, play_tree

from variant_cases import OWN_RULES, SEED_FIXTURES, cases, follow_reference  # noqa: E402


def _reference(variant, pos, dice):
    return variant_sequences(variant, pos, dice)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cases())
def test_the_tree_gives_the_reference_plays(case):
    variant, pos, dice = case
    ref = {result: moves for moves, result in _reference(variant, pos, dice)}
    plays = legal_plays_tree(variant, pos, dice)
    assert {p.result for p in plays} == set(ref), (variant, pos, dice)
    ref_lengths = {}
    for moves, result in _reference(variant, pos, dice):
        ref_lengths.setdefault(result, set()).add(len(moves))
    for p in plays:  # each play's own moves are a legal order of that play
        assert p.start == pos and len(p.moves) in ref_lengths[p.result]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cases(OWN_RULES), st.randoms(use_true_random=False))
def test_move_by_move_the_turn_follows_the_reference(case, pick):
    """At every step of a randomly built play: the legal next actions (the mask) are the
    next moves of the reference sequences that start with the moves made; the hit flags,
    the board after each move and the moves still to play agree; the play ends on one of
    the reference results; the continuations are the reference's."""
    variant, pos, dice = case
    follow_reference(VariantTurn(variant, pos, dice), variant, pos, dice, pick)


@pytest.mark.parametrize("variant, position_id, dice, legal, illegal", SEED_FIXTURES)
def test_the_seed_rules_hold_through_the_tree(variant, position_id, dice, legal, illegal):
    v = get_variant(variant)
    pos = v.position_from_id(position_id)
    got = {p.notation for p in legal_plays_tree(v, pos, dice)}
    assert legal <= got and not (illegal & got)
    assert got == {p.notation for p in legal_plays_variant(v, pos, dice)}


def test_trees_are_cached_and_bad_dice_refused():
    pos = get_variant("plakoto").start_position()
    assert play_tree("plakoto", pos, (6, 5)) is play_tree("plakoto", pos, (6, 5))
    with pytest.raises(ValueError, match="1..6"):
        play_tree("plakoto", pos, (7, 1))


def test_a_mother_pin_ends_the_play_early():
    """Plakoto: pinning the mother ends the game, so a play may stop before its dice are
    used; the turn says no moves are left after it."""
    v = get_variant("plakoto")
    me, opp = [0] * 26, [0] * 26
    me[5], me[0], opp[24], opp[0] = 1, 14, 1, 14  # x's 5 -> 1 with a four lands on o's 24
    pos = PinnedPosition(tuple(me), tuple(opp), (0, 0))
    turn = VariantTurn(v, pos, (4, 1))
    assert 4 * 6 + 3 in turn.next_actions()
    board, hit = turn.move(4 * 6 + 3)
    assert hit and turn.moves_to_play == 0 and board.pinned[1] >> 24 & 1
