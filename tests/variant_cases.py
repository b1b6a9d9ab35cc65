"""Random cases of every variant for the generator tests (``test_variant_tree.py``,
``test_variant_kernels.py``): a variant, a board of it and dice (Hypothesis)."""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

from bg_env.core.game import Game, Phase, Rules
from bg_env.core.position import Position
from bg_env.core.variants import VARIANTS, PinnedPosition, get_variant, legal_plays_variant

NAMES = sorted(n for n, v in VARIANTS.items() if v.name == n)
OWN_RULES = ["plakoto", "caucasian", "long_nardy", "sudden_death", "nuclear"]
DICE = st.tuples(st.integers(1, 6), st.integers(1, 6))


def game_position(variant: str, seed: int, turns: int) -> Position:
    """The board at the start of a turn after up to ``turns`` turns of a random game
    (played by the reference plays, so the tree does not pick its own test cases)."""
    rng = np.random.default_rng(seed)
    game = Game(Rules(variant=variant, cube=False))
    game.opening(rng)
    last = game.position
    for _ in range(turns):
        if game.phase == Phase.OVER:
            break
        if game.phase != Phase.MOVE:
            actions = [a for a in game.legal_actions()]
            game.step(actions[int(rng.integers(len(actions)))], rng)
            continue
        last = game.turn_start
        plays = legal_plays_variant(variant, game.turn_start, game.dice)
        play = plays[int(rng.integers(len(plays)))]
        if play.start != game.position:  # forced moves already made by the game
            play = next(p for p in game.legal_continuations() if p.result == play.result)
        game.play(play, rng)
    return last if game.phase == Phase.OVER else game.position


def bear_off_board(variant: str, rng: np.random.Generator) -> Position:
    """A board of the backgammon family with the player's checkers near or in his home
    board and a few opposing checkers there (hits in the home board: the Caucasian
    rule's cases)."""
    me, opp = [0] * 26, [0] * 26
    for _ in range(15):
        me[int(rng.choice([0, 1, 2, 3, 4, 5, 6, 6, 5, 7, 8]))] += 1
    for _ in range(15):
        q = int(rng.choice([0, 25 - 1, 25 - 2, 25 - 3, 25 - 4, 25 - 5, 12, 13, 3, 2, 25]))
        if 1 <= q <= 24 and me[25 - q]:
            q = 0
        opp[q] += 1
    pos = Position(tuple(me), tuple(opp))
    if get_variant(variant).landing == "pin":
        pos = PinnedPosition(pos.me, pos.opp, (0, 0))
    return pos


@st.composite
def cases(draw, names=NAMES):
    variant = draw(st.sampled_from(names))
    seed = draw(st.integers(0, 10**6))
    v = get_variant(variant)
    if v.has_bar and draw(st.integers(0, 3)) == 0:
        pos = bear_off_board(variant, np.random.default_rng(seed))
    else:
        pos = game_position(variant, seed, draw(st.integers(0, 120)))
    return variant, pos, draw(DICE)
