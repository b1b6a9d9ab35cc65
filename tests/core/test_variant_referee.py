"""The variants' move generators refereed: by GNU Backgammon (gnubg-nn) for the variants
it plays (nackgammon, hypergammon with 1, 2 and 3 checkers), and by rule properties on
positions reached in every variant.

* **gnubg referee**: positions met in seeded random games of each variant
  (:class:`~bg_env.game.game.Game`, every roll of the game, forced and empty turns
  included), each with the roll the game made: the legal results of the pruned generator
  (:func:`bg_env.rules.moves.legal_plays`), the numba one
  (:func:`bg_env.kernels.fast.legal_plays_fast`), the variant brute force
  (:func:`~bg_env.rules.variants.legal_plays_variant`) and gnubg's ``moves`` must be the
  same set of Position IDs (and of boards, checkers off included). Position IDs of the
  start positions and of every position met must be gnubg's. These tests are skipped
  when gnubg-nn is not installed.
* **rule properties** (hypothesis): a variant, a seeded random game of it, a turn of that
  game and any roll: every legal play keeps each side's checkers, gives a board the
  variant allows, uses as many moves as every other play (unless it ends the game),
  plays dice from the roll, flags exactly the moves that hit; Plakoto never moves a
  pinned checker; Long Nardy takes at most one checker from the head (two on a first
  6-6, 4-4 or 3-3) and never lands on an opposing checker; Caucasian never lets a home
  hitter hide or bear off; a sudden-death hit is the play's last move and ends the game;
  for the variants with standard movement the brute force equals ``legal_plays``.

Failures print the variant, the Position ID (pins for Plakoto), the dice and the board.
"""

from __future__ import annotations

import functools
from collections import Counter

import numpy as np
import pytest
from helpers import RecordingGame, show
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bg_env.rules import Position
from bg_env.rules.actions import BOMB
from bg_env.kernels.fast import legal_plays_fast
from bg_env.game.game import Game, Phase, Rules
from bg_env.rules.moves import dice_to_play, legal_plays
from bg_env.rules.position import BAR, OFF
from bg_env.rules.variants import (
    VARIANTS,
    PinnedPosition,
    get_variant,
    legal_plays_variant,
    opp_index,
    variant_outcome,
)

GNUBG_VARIANTS = ("nackgammon", "hypergammon1", "hypergammon2", "hypergammon3")
ALL_VARIANTS = tuple(name for name in VARIANTS if name != "hypergammon")  # an alias of hypergammon3
STANDARD_MOVES = tuple(name for name in ALL_VARIANTS if get_variant(name).standard_moves)
POSITIONS_PER_VARIANT = 300
SEEDS = 6  # the seeded games the rule properties draw their positions from
ROLLS = [(a, b) for a in range(1, 7) for b in range(a, 7)]  # the 21 rolls


@pytest.fixture(scope="module")
def gnubg():
    """gnubg-nn, or skip: only the referee tests need it, not the rule properties."""
    return pytest.importorskip(
        "gnubg_nn", reason="gnubg-nn (the referee) is not installed: pip install -e '.[referee]'"
    )


# ----------------------------------------------------------------- positions from games
@functools.lru_cache(maxsize=None)
def game_log(variant: str, seed: int) -> tuple:
    """Every roll of one seeded game of uniformly random legal actions (the nuclear bomb
    now and then), as ``(turn start, dice, moves, result)``."""
    rng = np.random.default_rng([seed, sum(map(ord, variant))])
    game = RecordingGame(Rules(variant=variant, cube=False))
    game.log = []
    game.opening(rng)
    game.settle(rng)
    decisions = 0
    while game.phase != Phase.OVER and decisions < 5_000:
        actions = game.legal_actions()
        if BOMB in actions and len(actions) > 1 and rng.random() > 0.1:
            actions = [a for a in actions if a != BOMB]
        game.step(actions[rng.integers(len(actions))], rng)
        decisions += 1
    return tuple(game.log)


def game_turns(variant: str, n: int) -> list[tuple[Position, tuple[int, int], tuple, Position]]:
    """The first ``n`` rolls met in seeded games of ``variant`` (game after game)."""
    out: list = []
    seed = 0
    while len(out) < n:
        out.extend(game_log(variant, seed))
        seed += 1
    return out[:n]


def where(variant: str, position: Position, dice=None, *lines: str) -> str:
    pins = f" pins {position.pinned}" if isinstance(position, PinnedPosition) else ""
    return show(position, dice, f"{variant} {position.position_id()}{pins}", *lines)


def brief(variant: str, position: Position, dice, *lines: str) -> str:
    """``where`` without the board (drawing it is slow, these are made for every play)."""
    pins = f" pins {position.pinned}" if isinstance(position, PinnedPosition) else ""
    return " ".join((variant, position.position_id() + pins, "dice %d-%d" % dice, *lines))


# ----------------------------------------------------------------------- gnubg referee
def gnubg_boards(gnubg, position: Position, dice: tuple[int, int], checkers: int) -> set[Position]:
    """gnubg's legal results (same player on roll); the position itself when gnubg finds
    no legal move."""
    keys = gnubg.moves(position.gnubg_board(), dice[0], dice[1])
    boards = (gnubg.board_from_position_key(k) for k in keys)
    results = {Position.from_gnubg_board(b, checkers=checkers) for b in boards}
    return results or {position}


def referee(gnubg, variant: str, position: Position, dice: tuple[int, int]) -> set[str]:
    """Check the four generators agree on ``position`` and ``dice``; their Position IDs."""
    checkers = get_variant(variant).checkers
    pruned = legal_plays(position, dice)
    fast = legal_plays_fast(position, dice)
    brute = legal_plays_variant(variant, position, dice)
    theirs = gnubg_boards(gnubg, position, dice, checkers)

    def ids(results) -> set[str]:
        return {r.position_id() for r in results}

    expected = ids(theirs)
    generators = (
        ("legal_plays", pruned), ("legal_plays_fast", fast), ("legal_plays_variant", brute)
    )
    for name, plays in generators:
        results = [p.result for p in plays]
        got = ids(results)
        assert got == expected, where(
            variant, position, dice, f"{name}: only ours {sorted(got - expected)}",
            f"only gnubg {sorted(expected - got)}",
        )
        assert len(got) == len(results), where(variant, position, dice, f"{name}: a result twice")
        # the boards too (Position IDs do not carry the checkers borne off)
        assert {(r.me, r.opp) for r in results} == {(r.me, r.opp) for r in theirs}, where(
            variant, position, dice, f"{name}: boards differ from gnubg's"
        )
    return expected


@pytest.mark.parametrize("variant", GNUBG_VARIANTS)
def test_start_position_ids_are_gnubgs(gnubg, variant):
    v = get_variant(variant)
    start = v.start_position()
    board = start.gnubg_board()
    pid = start.position_id()
    assert gnubg.position_id(board) == pid, where(variant, start)
    assert [list(side) for side in gnubg.board_from_position_id(pid)] == board
    assert Position.from_position_id(pid, checkers=v.checkers) == start
    assert Position.from_gnubg_board(board, checkers=v.checkers) == start
    for side in (start.me, start.opp):
        assert sum(side) == v.checkers and side[OFF] == 0
        assert {p: n for p, n in enumerate(side) if n} == v.start


@pytest.mark.parametrize("variant", GNUBG_VARIANTS)
def test_legal_plays_of_played_games_match_gnubg(gnubg, variant):
    checkers = get_variant(variant).checkers
    rolls = Counter()
    for position, dice, _moves, result in game_turns(variant, POSITIONS_PER_VARIANT):
        pid = position.position_id()
        assert gnubg.position_id(position.gnubg_board()) == pid, where(variant, position)
        decoded = Position.from_position_id(pid, checkers=checkers)
        assert decoded == position, where(variant, position)
        results = referee(gnubg, variant, position, dice)
        assert result.position_id() in results, where(
            variant, position, dice, f"the game played to {result.position_id()}"
        )
        rolls[len(results) > 1] += 1
    # real choices met (one checker each leaves few: hypergammon1's plays mostly differ
    # only by the order of the dice, except for a hit on the way)
    assert rolls[True] > POSITIONS_PER_VARIANT // (40 if checkers == 1 else 2)


@pytest.mark.parametrize("variant", GNUBG_VARIANTS)
def test_all_21_rolls_match_gnubg(gnubg, variant):
    """Every roll on a few positions of each game phase (start, middle, end of a game)."""
    turns = game_turns(variant, 200)
    for position, _dice, _moves, _result in turns[:: 200 // (8 if variant == "nackgammon" else 20)]:
        for dice in ROLLS:
            referee(gnubg, variant, position, dice)


# -------------------------------------------------------------------- rule properties
@st.composite
def variant_turns(draw, variants=ALL_VARIANTS):
    """``(variant, position, dice)``: a position met in a seeded random game of the
    variant (the game's start included) and any roll."""
    variant = draw(st.sampled_from(variants))
    log = game_log(variant, draw(st.integers(0, SEEDS - 1)))
    position = log[draw(st.integers(0, len(log) - 1))][0]
    dice = (draw(st.integers(1, 6)), draw(st.integers(1, 6)))
    return variant, position, dice


PROPERTY = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def replay(variant: str, position: Position, play):
    """Yield ``(me, opp, move)`` before each move of ``play``, the boards as lists in each
    side's own numbering, applying the moves as the standard rules do (the landing rule
    decides what happens to a lone opposing checker)."""
    v = get_variant(variant)
    me, opp = list(position.me), list(position.opp)
    for move in play.moves:
        yield me, opp, move
        dest = move.dest
        me[move.source] -= 1
        me[dest] += 1
        if dest != OFF and v.landing == "hit" and opp[opp_index(v, dest)] == 1:
            opp[opp_index(v, dest)] = 0
            opp[BAR] += 1


@PROPERTY
@given(variant_turns())
def test_every_legal_play_is_a_whole_valid_play(case):
    variant, position, dice = case
    v = get_variant(variant)
    plays = legal_plays_variant(variant, position, dice)
    assert plays, where(variant, position, dice, "no play at all (not even the empty one)")
    results = [p.result for p in plays]
    assert len(set(results)) == len(results), where(variant, position, dice, "a result twice")
    ends = {p.result: variant_outcome(v, p.result) is not None for p in plays}
    lengths = {len(p.moves) for p in plays if not ends[p.result]}
    assert len(lengths) <= 1, where(variant, position, dice, f"plays of {sorted(lengths)} moves")
    roll = Counter(dice_to_play(dice))
    for play in plays:
        r = play.result
        at = brief(variant, position, dice, f"play {play.notation} -> {r.position_id()}")
        assert sum(r.me) == v.checkers and sum(r.opp) == v.checkers, at
        assert min(r.me) >= 0 and min(r.opp) >= 0, at
        v.validate(r)  # raises InvalidPositionError
        assert isinstance(r, PinnedPosition) == (v.landing == "pin"), at
        assert not Counter(m.die for m in play.moves) - roll, at + "\n dice not in the roll"
        assert play.start == position, at
        if ends[r]:
            assert not lengths or len(play.moves) <= max(lengths), at
        if not play.moves:
            assert r == position and len(plays) == 1, at
        check_landings(v, position, play, at)


def check_landings(v, position: Position, play, at: str) -> None:
    """Replay ``play``: each move has a checker to move, lands where the variant allows
    and is flagged as a hit (or a Plakoto pin) exactly when it hits (pins)."""
    opp_pins = position.pinned[1] if isinstance(position, PinnedPosition) else 0
    my_pins = position.pinned[0] if isinstance(position, PinnedPosition) else 0
    for me, opp, move in replay(v.name, position, play):
        here = at + f"\n {move}"
        assert me[move.source] > 0, here + ": no checker to move"
        if move.dest == OFF:
            assert not move.hit, here
            continue
        q = opp_index(v, move.dest)
        theirs = opp[q]
        if v.landing == "hit":
            assert theirs <= 1, here + ": lands on a made point"
            assert move.hit == (theirs == 1), here + f": hit flag {move.hit}"
        elif v.landing == "blocked":
            assert theirs == 0 and not move.hit, here + ": lands on an opposing checker"
        else:  # pin
            assert theirs <= 1, here + ": lands on a made point"
            assert not my_pins >> move.dest & 1, here + ": lands where our checker is pinned"
            fresh = theirs == 1 and not opp_pins >> q & 1
            assert move.hit == fresh, here + f": pin flag {move.hit}"
            if fresh:
                assert me[move.dest] == 0, here + ": pins under our own checkers"
                opp_pins |= 1 << q
            if me[move.source] == 1 and move.source != BAR:
                opp_pins &= ~(1 << opp_index(v, move.source))  # the pinner left: released


@PROPERTY
@given(variant_turns(variants=("plakoto",)))
def test_plakoto_pinned_checkers_never_move(case):
    variant, position, dice = case
    pinned = position.pinned[0]
    for play in legal_plays_variant(variant, position, dice):
        at = brief(variant, position, dice, f"play {play.notation}")
        for move in play.moves:
            assert not pinned >> move.source & 1, at + f"\n {move} moves a pinned checker"
        for p in range(1, 25):
            if pinned >> p & 1:  # still there, still pinned (the pinner did not move)
                assert play.result.me[p] == 1 and play.result.pinned[0] >> p & 1, at


@PROPERTY
@given(variant_turns(variants=("long_nardy",)))
def test_long_nardy_head_rule_and_no_landing_on_opposing_checkers(case):
    variant, position, dice = case
    check_long_nardy(position, dice)


def check_long_nardy(position: Position, dice) -> int:
    """At most one checker leaves the head (two on a first 6-6, 4-4 or 3-3), no move
    lands on an opposing checker; the most checkers any play takes from the head."""
    variant = "long_nardy"
    v = get_variant(variant)
    first_roll = position.me[24] == v.checkers
    may_leave = 2 if first_roll and dice[0] == dice[1] and dice[0] in (3, 4, 6) else 1
    most = 0
    for play in legal_plays_variant(variant, position, dice):
        at = brief(variant, position, dice, f"play {play.notation}")
        from_head = sum(m.source == 24 for m in play.moves)
        most = max(most, from_head)
        assert from_head <= may_leave, at + f"\n {from_head} checkers left the head"
        assert position.me[24] - play.result.me[24] == from_head, at
        assert play.result.opp == position.opp, at + "\n the opponent's checkers moved"
        for move in play.moves:
            assert not move.hit, at
            if move.dest != OFF:
                assert position.opp[opp_index(v, move.dest)] == 0, (
                    at + f"\n {move} lands on an opposing checker"
                )
    return most


def caucasian_hides(position: Position, play) -> tuple[str | None, int]:
    """A move in ``play`` by a checker that hit in the home board this turn onto a point
    holding its own checkers (``None`` if none; its bearing off is not judged), and how many moves of
    home hitters were judged. Judged only while the hitter is the only checker on its
    point (then it is surely the one that moves)."""
    lone_hitters: set[int] = set()  # points where a home hitter stands alone
    judged = 0
    for me, opp, move in replay("caucasian", position, play):
        src, dest = move.source, move.dest
        hitter = src in lone_hitters
        lone_hitters.discard(src)
        if hitter and dest == OFF:
            # bearing off is allowed when it is the only way to play the die (docs/RULES.md,
            # Caucasian): not judged here; the fixtures of tests/core/test_variants.py and the
            # kernels-vs-brute-force tests check it
            continue
        if hitter:
            judged += 1
            if me[dest] > 0:
                return f"{move}: the home hitter hides", judged
        lone_hitters.discard(dest)  # another checker joins it: no longer unambiguous
        hits = dest != OFF and opp[25 - dest] == 1
        if (hits and dest <= 6) or (hitter and dest != OFF):
            lone_hitters.add(dest)  # alone there: the point held none of ours
    return None, judged


def home_hit(play) -> bool:
    return any(m.hit and m.dest <= 6 for m in play.moves)


@PROPERTY
@given(variant_turns(variants=("caucasian",)))
def test_caucasian_no_hit_and_hide(case):
    variant, position, dice = case
    check_caucasian(position, dice)


def check_caucasian(position: Position, dice) -> int:
    """The Caucasian plays of ``dice`` hide no home hitter and are the standard plays
    less (some of) those that hit in the home board; how many hitter moves were judged."""
    variant = "caucasian"
    plays = legal_plays_variant(variant, position, dice)
    judged = 0
    for play in plays:
        problem, n = caucasian_hides(position, play)
        judged += n
        assert problem is None, where(
            variant, position, dice, f"play {play.notation}", problem or ""
        )
    standard = legal_plays(position, dice)
    if len(plays[0].moves) == len(standard[0].moves):  # the rule did not cost a die
        ours = {p.result for p in plays}
        allowed = {p.result for p in standard}
        free = {p.result for p in standard if not home_hit(p)}
        assert ours <= allowed, where(variant, position, dice, "a play standard rules forbid")
        assert free <= ours, where(
            variant, position, dice, "a standard play without a home hit is missing:",
            *sorted(p.notation for p in standard if p.result in free - ours),
        )
    return judged


@PROPERTY
@given(variant_turns(variants=("sudden_death",)))
def test_sudden_death_a_hit_is_the_last_move_and_ends_the_game(case):
    variant, position, dice = case
    for play in legal_plays_variant(variant, position, dice):
        at = brief(variant, position, dice, f"play {play.notation}")
        hits = [i for i, m in enumerate(play.moves) if m.hit]
        if hits:
            assert hits == [len(play.moves) - 1], at
            assert variant_outcome(variant, play.result) is not None, at
        assert (play.result.opp[BAR] > 0) == bool(hits), at


@PROPERTY
@given(variant_turns(variants=STANDARD_MOVES))
def test_standard_movement_brute_force_equals_the_generators(case):
    variant, position, dice = case
    brute = {p.result for p in legal_plays_variant(variant, position, dice)}
    pruned = {p.result for p in legal_plays(position, dice)}
    assert brute == pruned, where(
        variant, position, dice,
        f"only brute force {sorted(r.position_id() for r in brute - pruned)}",
        f"only legal_plays {sorted(r.position_id() for r in pruned - brute)}",
    )
    fast = {p.result for p in legal_plays_fast(position, dice)}
    assert fast == pruned, where(variant, position, dice, "legal_plays_fast differs")


# ------------------------------------------------ the properties are not vacuous here
def test_games_reach_the_cases_the_properties_are_about():
    """The seeded games the properties draw from hold pinned checkers (Plakoto), first
    rolls (Long Nardy), home-board hitters that move on (Caucasian), hits (sudden death),
    blots blown to the bar (nuclear), checkers off (every variant but sudden death, whose
    random games end at the first hit)."""
    pins = sum(bool(t[0].pinned[0]) for s in range(SEEDS) for t in game_log("plakoto", s))
    assert pins > 20
    nuclear_bars = sum(
        t[0].me[BAR] + t[0].opp[BAR] > 0 for s in range(SEEDS) for t in game_log("nuclear", s)
    )
    assert nuclear_bars > 20
    sudden_hits = sum(
        any(m.hit for p in legal_plays_variant("sudden_death", t[0], dice) for m in p.moves)
        for s in range(SEEDS) for t in game_log("sudden_death", s) for dice in ROLLS
    )
    assert sudden_hits > 20
    start = get_variant("long_nardy").start_position()
    head = {dice: check_long_nardy(start, dice) for dice in ROLLS}
    assert head == {dice: 2 if dice in ((3, 3), (4, 4), (6, 6)) else 1 for dice in ROLLS}
    judged = 0
    home_blots = [
        t[0] for s in range(SEEDS) for t in game_log("caucasian", s)
        if any(t[0].opp[25 - p] == 1 for p in range(1, 7))
    ]
    for position in home_blots[:: max(1, len(home_blots) // 10)]:
        for dice in ROLLS:
            judged += check_caucasian(position, dice)
    assert judged > 20
    for variant in ALL_VARIANTS:
        if variant == "sudden_death":
            continue  # random games of it end at the first hit, long before a bear-off
        assert any(t[3].me[OFF] for s in range(SEEDS) for t in game_log(variant, s)), variant
