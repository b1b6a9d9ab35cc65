"""The rule options of the seeds (``docs/RULES.md`` §10) as a user meets them: each seed
sentence set up as a position and played through :class:`~bg_env.game.game.Game`, the AEC
env and the vector env, with the option on and off; the option refused where the variant
cannot have it; the context block marks it. (The kernels against the pure-Python reference
on random positions with the options on: ``tests/core/test_variant_kernels.py`` and
``test_variant_tree.py``, through ``tests/variant_cases.py``.)"""

from __future__ import annotations

import numpy as np
import pytest

from bg_env import backgammon_v0
from bg_env.envs.context import CONTEXT_SIZE, OPTION_ORDER, OPTION_SLOTS
from bg_env.envs.observation import TESAURO_SIZE
from bg_env.game.game import Game, Phase, Rules
from bg_env.records import RecordError
from bg_env.records.model import check_rules
from bg_env.rules.actions import encode_move
from bg_env.rules.position import Position
from bg_env.rules.variants import get_variant, legal_plays_variant

HIDE = Position.from_layout({13: 1, 8: 2, 6: 12}, {15: 1, 24: 2, 13: 12})
"""x's 13 -> 10 with the three hits o's blot (o's 15-point); the two then lands on x's
own 8-point: seed 003's "döda fiendens bit och 'gömma sig'"."""
HIT_AND_BEAR_OFF = Position.from_layout({6: 1, 5: 1, 2: 13}, {21: 1, 13: 14})
"""x's 6 -> 4 with the two hits o's blot (o's 21-point); the four then bears it off: seed
003's "slå din motståndares pjäs och kasta bort den", allowed (in Caucasian not: the four
can be played 5/1)."""


def plays(rules: Rules, pos: Position, dice) -> set[str]:
    game = Game(rules, position=pos)
    game.begin_turn(np.random.default_rng(0), dice=dice)
    assert game.phase == Phase.MOVE
    got = {p.notation for p in game.legal_continuations()}
    assert got == {p.notation for p in legal_plays_variant(game.variant, pos, dice)}
    return got


@pytest.mark.parametrize("variant", ["standard", "nackgammon", "hypergammon3", "nuclear"])
def test_a_hitter_may_not_hide_with_the_option_on(variant):
    pos = HIDE if variant != "hypergammon3" else Position.from_layout(
        {13: 1, 8: 2}, {15: 1, 24: 2}, checkers=3)
    off = plays(Rules(variant=variant, cube=False), pos, (3, 2))
    on = plays(Rules(variant=variant, cube=False, no_hit_and_hide=True), pos, (3, 2))
    assert "13/10*/8" in off and "13/10*/8" not in on
    assert "13/10* 8/6" in on and "13/10* 8/6" in off  # the other checker still moves
    assert {p for p in off if "*" not in p} <= on  # plays without a hit are untouched


def test_a_hitter_may_go_on_to_an_empty_point_or_bear_off():
    on = Rules(cube=False, no_hit_and_hide=True)
    assert "13/10*/9" in plays(on, HIDE, (3, 1))
    assert "6/4*/off" in plays(on, HIT_AND_BEAR_OFF, (4, 2))
    # the Caucasian rule (a home-board hitter bears off only when nothing else plays) differs
    caucasian = plays(Rules(variant="caucasian", cube=False), HIT_AND_BEAR_OFF, (4, 2))
    assert "6/4*/off" not in caucasian and "6/4* 5/1" in caucasian


def test_the_aec_env_masks_the_hide_from_the_hitting_seat():
    for option, legal in ((False, True), (True, False)):
        env = backgammon_v0.env(no_hit_and_hide=option)
        for agent in ("player_0", "player_1"):
            env.reset(seed=3, options={"position_id": HIDE.position_id(), "dice": (3, 2),
                                       "agent": agent})
            assert env.agent_selection == agent
            env.step(encode_move(13, 3))  # 13/10*
            assert env.agent_selection == agent
            mask = env.last()[0]["action_mask"]
            assert bool(mask[encode_move(10, 2)]) is legal  # 10/8: the hitter hides
            assert mask[encode_move(8, 2)]  # 8/6 by another checker stays legal


@pytest.mark.parametrize("options, slots", [
    (dict(no_hit_and_hide=True), [1, 0, 0, 0]),
    (dict(variant="long_nardy", six_block="entered"), [0, 1, 0, 0]),
    (dict(variant="long_nardy", six_block="entered", house_mars=True), [0, 1, 1, 0]),
    (dict(variant="long_nardy", last_roll_draw=True, next_starter="winner"), [0, 0, 0, 1]),
    (dict(context=True), [0, 0, 0, 0]),
])
def test_the_options_are_in_the_context_block(options, slots):
    """From the AEC env and the vector env alike; the block comes on with an option."""
    assert list(OPTION_ORDER) == ["no_hit_and_hide", "six_block", "house_mars", "last_roll_draw"]
    env = backgammon_v0.env(**options)
    env.reset(seed=0)
    obs = env.last()[0]["observation"]
    assert obs.shape[0] == TESAURO_SIZE + CONTEXT_SIZE
    assert obs[-CONTEXT_SIZE:][OPTION_SLOTS].tolist() == slots
    from bg_env.envs.kernel_batch import KernelBatch

    kb = KernelBatch(2, **options)
    kb.seed(0)
    obs = kb.reset()
    assert obs.shape[1] == TESAURO_SIZE + CONTEXT_SIZE
    assert obs[:, -CONTEXT_SIZE:][:, OPTION_SLOTS].tolist() == [slots] * 2


@pytest.mark.parametrize("variant", ["caucasian", "plakoto", "long_nardy", "sudden_death"])
def test_a_variant_without_the_option_refuses_it(variant):
    with pytest.raises(ValueError, match=f"no_hit_and_hide=True: not an option of variant='{variant}'"):
        backgammon_v0.env(variant=variant, no_hit_and_hide=True)


def test_the_option_is_checked_and_records_refuse_it():
    with pytest.raises(ValueError, match="no_hit_and_hide='yes': expected True or False"):
        Rules(no_hit_and_hide="yes")
    with pytest.raises(RecordError, match="no_hit_and_hide=True"):
        check_rules(Rules(no_hit_and_hide=True))


def test_the_vector_env_plays_by_the_option():
    """The batched kernels with the option on: no hitter ever hides. Each learner turn is
    checked against the pure-Python reference from the board the dice were rolled in."""
    from bg_env.envs.kernel_batch import KernelBatch

    kb = KernelBatch(4, no_hit_and_hide=True, learner="player_0")
    kb.seed(5)
    kb.reset()
    rng = np.random.default_rng(5)
    checked = 0
    for _ in range(400):
        for i in range(kb.num_envs):
            game = kb.game(i)
            if game.phase == Phase.MOVE and game.position == game.turn_start:
                want = {p.result for p in legal_plays_variant(game.variant, game.position, game.dice)}
                assert {p.result for p in game.legal_continuations()} == want
                checked += 1
        masks = kb.action_masks()
        kb.step(np.array([rng.choice(np.flatnonzero(m)) for m in masks]))
    assert checked > 50


# ------------------------------------------------------------------ Long Nardy
def nardy(me: dict, opp: dict) -> Position:
    """A Long Nardy board from ``{point: count}`` in each side's own numbering (the rest
    borne off), checked for the variant (o's point q is x's q + 12 or q - 12)."""
    def side(layout):
        counts = [0] * 26
        for point, n in layout.items():
            counts[point] = n
        counts[0] = 15 - sum(counts)
        return tuple(counts)

    pos = Position(side(me), side(opp))
    get_variant("long_nardy").validate(pos)
    return pos


BLOCK = nardy({24: 9, 15: 1, 8: 1, 7: 1, 6: 1, 5: 1, 4: 1}, {24: 14, 10: 1})
"""x's 15 -> 9 with the six makes six points in a row, 4..9 (o's 16..21); o's checker on
his 10 is past them, none is in his home: the main rule allows the block, seed 003's
alternative ("endast om minst en fiendepjäs har kommit in i huset") does not."""
HOUSE = nardy({1: 1}, {6: 3, 5: 3, 4: 3, 3: 3, 2: 2, 1: 1})
"""x bears off his last checker; every one of o's is in his home, none off: "house mars"."""
MARS = nardy({1: 1}, {6: 3, 5: 3, 4: 3, 3: 3, 2: 2, 9: 1})
"""The same with one of o's checkers outside his home: a mars."""


def test_the_six_block_rule_is_the_option_s():
    main = plays(Rules(variant="long_nardy", cube=False), BLOCK, (6, 1))
    entered = plays(Rules(variant="long_nardy", cube=False, six_block="entered"), BLOCK, (6, 1))
    assert "24/23 15/9" in main and "24/23 15/9" not in entered
    assert "15/9 4/3" in entered  # the one breaks the block: 4/3 first, then 15/9


def test_an_entered_checker_opens_the_block():
    """With an opposing checker in his home board (his 2, the player's 14) the
    alternative allows the block too."""
    pos = nardy({24: 9, 15: 1, 8: 1, 7: 1, 6: 1, 5: 1, 4: 1}, {24: 13, 10: 1, 2: 1})
    entered = plays(Rules(variant="long_nardy", cube=False, six_block="entered"), pos, (6, 1))
    assert "24/23 15/9" in entered


@pytest.mark.parametrize("option, board, kind, points", [
    (True, HOUSE, "backgammon", 3), (False, HOUSE, "gammon", 2),
    (True, MARS, "gammon", 2), (False, MARS, "gammon", 2),
])
def test_house_mars_scores_three_with_the_option(option, board, kind, points):
    rules = Rules(variant="long_nardy", cube=False, house_mars=option)
    game = Game(rules, position=board)
    game.begin_turn(np.random.default_rng(0), dice=(2, 1))  # 1/off, forced: played
    assert game.phase == Phase.OVER
    assert (game.result.winner, game.result.outcome, game.result.points) == (0, kind, points)
    for agent in ("player_0", "player_1"):  # the AEC env pays it, from both seats
        env = backgammon_v0.env(variant="long_nardy", house_mars=option)
        env.reset(seed=1, options={"position_id": board.position_id(), "dice": (2, 1),
                                   "agent": agent})
        # 1/off is forced: the env plays it, and the game is over at once
        assert env.terminations[agent] and env.rewards[agent] == points
        assert env.rewards[{"player_0": "player_1", "player_1": "player_0"}[agent]] == -points
        assert env.infos[agent]["outcome"] == kind


# ------------------------------------------------------- Long Nardy: the next game's starter
def _starts_follow(mode: str, games: list[tuple[int, int]]) -> None:
    """``games``: each game's (starter, winner), in order; every game after the first
    started as ``next_starter=mode`` says."""
    assert len(games) >= 3
    for (starter, winner), (next_starter, _) in zip(games, games[1:]):
        want = {"black": 1 - starter, "winner": winner}[mode]
        assert next_starter == want


@pytest.mark.parametrize("mode", ["black", "winner"])
def test_the_next_game_of_a_match_starts_as_the_option_says(mode):
    from bg_env.game.match import Match

    rng = np.random.default_rng(11)
    match = Match(9, Rules(variant="long_nardy", cube=False, next_starter=mode))
    games = []
    while not match.is_over:
        game = match.new_game(rng)
        while game.result is None:
            actions = game.legal_actions()
            game.step(actions[int(rng.integers(len(actions)))], rng)
        games.append((game.starter, game.result.winner))
        assert game.result.starter == game.starter
        match.record(game.result)
    _starts_follow(mode, games)


@pytest.mark.parametrize("mode", ["black", "winner"])
def test_the_aec_env_starts_each_game_of_the_match_as_the_option_says(mode):
    """Played on the env's kernels (its engine) to the match's end: each game's first
    side, as the kernels recorded it, follows the rule."""
    env = backgammon_v0.env(variant="long_nardy", match_length=9, next_starter=mode)
    env.reset(seed=4)
    rng = np.random.default_rng(4)
    for agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    match = env.unwrapped.match
    assert match.is_over
    _starts_follow(mode, [(r.starter, r.winner) for r in match.results])


def test_the_starter_rule_is_long_nardy_s():
    with pytest.raises(ValueError, match="next_starter='black': not an option of variant='standard'"):
        backgammon_v0.env(match_length=3, next_starter="black")
    with pytest.raises(ValueError, match="next_starter='white': expected one of"):
        Rules(variant="long_nardy", next_starter="white")


# ------------------------------------------------------- Long Nardy: the last roll and the draw
def _nardy_game(option: bool, me: dict, opp: dict, dice, cube: bool = True) -> Game:
    """Side 0 on roll with ``dice`` (so side 0 started the game), rolls given by the test."""
    from bg_env.game.game import STOP_AT_ROLLS

    rules = Rules(variant="long_nardy", cube=cube, last_roll_draw=option)
    return Game.from_position(nardy(me, opp), STOP_AT_ROLLS, rules, turn=0, dice=dice)


@pytest.mark.parametrize("black_roll, want", [((6, 6), "draw"), ((2, 1), "single")])
def test_the_side_that_did_not_start_has_a_last_roll(black_roll, want):
    game = _nardy_game(True, {1: 1}, {6: 2}, (2, 1))  # White's 1/off: he is off
    assert game.phase != Phase.OVER and game.roll_due == "turn" and game.turn == 1
    assert game.starter == 0
    game.give_roll(black_roll)  # no cube question before it, though the cube is centred
    if game.phase == Phase.MOVE:
        from bg_env.game.game import STOP_AT_ROLLS

        game.play(game.legal_continuations()[0], STOP_AT_ROLLS)
    assert game.phase == Phase.OVER
    r = game.result
    if want == "draw":
        assert (r.winner, r.outcome, r.points) == (None, "draw", 0)
    else:
        assert (r.winner, r.outcome, r.points) == (0, "single", 1)


def test_without_the_option_the_game_ends_when_the_starter_is_off():
    game = _nardy_game(False, {1: 1}, {6: 2}, (2, 1))
    assert game.phase == Phase.OVER and (game.result.winner, game.result.points) == (0, 1)


def test_the_side_that_did_not_start_wins_at_once():
    from bg_env.game.game import STOP_AT_ROLLS

    game = _nardy_game(True, {20: 1}, {1: 1}, (2, 1), cube=False)
    game.play(game.legal_continuations()[0], STOP_AT_ROLLS)  # White: 20/17
    assert game.roll_due == "turn" and game.turn == 1
    game.give_roll((3, 2))  # Black bears off his last checker: he wins, no last roll
    assert game.phase == Phase.OVER and (game.result.winner, game.result.outcome) == (1, "single")


def test_the_scoring_reference_says_the_same():
    from bg_env.rules.variants.scoring import outcome_after_play

    variant = Rules(variant="long_nardy", last_roll_draw=True).variant_spec
    all_off = tuple([15] + [0] * 25)
    me_off = Position(all_off, nardy({1: 1}, {6: 2}).opp)
    assert outcome_after_play(variant, me_off, mover_started=True) is None
    assert outcome_after_play(variant, me_off, mover_started=False).winner == 0
    both_off = outcome_after_play(variant, Position(all_off, all_off), mover_started=False)
    assert (both_off.winner, both_off.kind) == (None, "draw")


@pytest.mark.parametrize("agent", ["player_0", "player_1"])
def test_a_draw_pays_nothing_in_the_aec_env_and_in_a_match(agent):
    """White's 1/off and Black's last 1/off are both forced: the reset plays the game to
    its draw."""
    pos = nardy({1: 1}, {1: 1})
    for reward in ("points", "win"):
        env = backgammon_v0.env(variant="long_nardy", last_roll_draw=True, reward=reward,
                                render_mode="ansi")
        env.reset(seed=2, options={"position_id": pos.position_id(), "dice": (2, 1),
                                   "agent": agent})
        assert all(env.terminations.values())
        assert env.rewards == {"player_0": 0, "player_1": 0}
        assert env.infos[agent]["outcome"] == "draw" and env.infos[agent]["winner"] is None
        assert "a draw" in env.render()
    from bg_env.game.game import GameResult
    from bg_env.game.match import Match

    match = Match(3, Rules(variant="long_nardy", last_roll_draw=True))
    match.record(GameResult(None, "draw", 1, 0))
    assert match.score == (0, 0) and match.games == 1 and not match.is_over
    with pytest.raises(ValueError, match="expected a finished game"):
        match.record(GameResult(None, "single", 1, 1))
