"""Random cases of every variant for the generator tests (``test_variant_tree.py``,
``test_variant_kernels.py``): a variant, a board of it and dice (Hypothesis)."""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

from bg_env.game.game import Game, Phase, Rules
from bg_env.rules.position import Position
from bg_env.rules.variants import VARIANTS, PinnedPosition, get_variant, legal_plays_variant

WITH_OPTIONS = ["standard+no_hit_and_hide", "hypergammon2+no_hit_and_hide",
                "long_nardy+six_block=entered+house_mars"]
"""Variants with rule options on (RULES.md §10): ``name+option`` (True) or
``name+option=value``."""
NAMES = sorted(n for n, v in VARIANTS.items() if v.name == n) + WITH_OPTIONS
OWN_RULES = ["plakoto", "caucasian", "long_nardy", "sudden_death", "nuclear", *WITH_OPTIONS]
DICE = st.tuples(st.integers(1, 6), st.integers(1, 6))


def case_rules(name: str, cube: bool = False) -> Rules:
    """The Rules of a case name: a variant, and after ``+`` the rule options on."""
    variant, *options = name.split("+")
    values = dict((*o.split("="), True)[:2] for o in options)
    return Rules(variant=variant, cube=cube, **values)


def case_variant(name: str):
    """The variant a case name plays: its name, or with options the Variant they make."""
    return case_rules(name).variant_spec if "+" in name else name


def game_position(variant: str, seed: int, turns: int) -> Position:
    """The board at the start of a turn after up to ``turns`` turns of a random game
    (played by the reference plays, so the tree does not pick its own test cases)."""
    rng = np.random.default_rng(seed)
    game = Game(case_rules(variant))
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
        plays = legal_plays_variant(game.variant, game.turn_start, game.dice)
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
    name = draw(st.sampled_from(names))
    seed = draw(st.integers(0, 10**6))
    variant = case_variant(name)
    v = get_variant(variant)
    if v.has_bar and draw(st.integers(0, 3)) == 0:
        pos = bear_off_board(v.name, np.random.default_rng(seed))
    else:
        pos = game_position(name, seed, draw(st.integers(0, 120)))
    return variant, pos, draw(DICE)


SEED_FIXTURES = [
    ("long_nardy", "CAAA/z8AAID/Pw", (4, 4), {"24/20"}, {"24/20(2)"}),
    ("long_nardy", "AACA/z8AAID/Pw", (6, 6), {"24/18(2)"}, set()),
    ("caucasian", "4P8BABMgAAAAAA", (4, 2), {"6/2*/off"}, set()),
]
"""``(variant, position_id, dice, legal, illegal)``: the seed documents' rules that the
engine once broke (RULES.md §7): plays that must be legal and plays that must not."""


def follow_reference(turn, variant, pos, dice, pick, check_step=None) -> None:
    """Walk one random play through ``turn`` (a variant turn: the Python tree's or the
    kernels') and check each step against ``variant_sequences``: the legal next actions are
    the next moves of the reference sequences that start with the moves made; the hit
    flags, the board after each move and the moves still to play agree; the play ends on
    one of the reference results; the continuations are the reference's.
    ``check_step(turn, want)``: more checks at each step (``want``: action -> Move)."""
    from bg_env.rules.variants import variant_sequences

    seqs = variant_sequences(variant, pos, dice)
    made: tuple = ()
    current = pos
    while True:
        open_ = [(m, r) for m, r in seqs if tuple(x.action for x in m[: len(made)]) == made]
        assert open_
        want = {m[len(made)].action: m[len(made)] for m, _ in open_ if len(m) > len(made)}
        moves = turn.next_moves()
        assert [m.action for m in moves] == sorted(want) == turn.next_actions()
        if check_step is not None:
            check_step(turn, want)
        assert all(m.hit == want[m.action].hit for m in moves)
        assert turn.moves_to_play == max(len(m) for m, _ in open_) - len(made)
        assert {p.result for p in turn.continuations(current)} == {r for _, r in open_}
        if not moves:
            assert current in {r for _, r in open_}
            return
        move = moves[pick.randrange(len(moves))]
        current, hit = turn.move(move.action)
        made += (move.action,)
        assert hit == move.hit
        boards = {r for m, r in open_ if len(m) == len(made) and m[-1].action == move.action}
        assert not boards or current in boards
