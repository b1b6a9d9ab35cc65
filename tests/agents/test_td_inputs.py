"""The TD network's hand-made inputs (agents/players/td_inputs.py): the shot counts of the
backgammon literature for a lone blot, blocks and the bar, the compiled rules equal to the
plain ones, the hit rule against the legal plays of the move generator, and a network
that reads them (extras) saved, loaded and extended without changing what it computes."""

from __future__ import annotations

import random

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from agents.players.td import TDNet, load_net, save_net
from agents.players.td_features import N_FEATURES, position_features
from agents.players.td_inputs import (
    EXTRA_NAMES,
    N_EXTRA,
    boards_of,
    dance_share,
    extra_inputs,
    extra_inputs_python,
    hit_stats,
    longest_prime,
    roll_hits,
)
from agents.training.train_distill import add_extras
from bg_env.rules.moves import legal_plays
from bg_env.rules.position import Position
from bg_env.envs.play_env import board_features
from tests.helpers import pos, random_position

# The number of rolls that hit a lone blot d pips away with nothing in between (the
# table every backgammon book prints): direct and indirect shots.
SHOTS_AT = {1: 11, 2: 12, 3: 14, 4: 15, 5: 15, 6: 17, 7: 6, 8: 6, 9: 5, 10: 3, 11: 2,
            12: 3, 13: 0, 14: 0, 15: 1, 16: 1, 17: 0, 18: 1, 19: 0, 20: 1, 21: 0, 22: 0,
            23: 0}


def sides(position: Position) -> tuple[np.ndarray, np.ndarray]:
    """``(hitter, target)``: the player on roll's counts and the other's."""
    return np.array(position.me, dtype=np.int64), np.array(position.opp, dtype=np.int64)


@pytest.mark.parametrize("distance", sorted(SHOTS_AT))
def test_a_lone_blot_is_hit_by_the_books_number_of_rolls(distance):
    # x (on roll) has one checker on his 24-point; o's only checker on the board stands
    # `distance` pips in front of it, on x's point 24 - distance.
    position = pos(f"x 24:1; o {24 - distance}:1")
    shots, pips = hit_stats(*sides(position))
    assert shots == SHOTS_AT[distance]
    assert pips == shots * (24 - distance)  # x's point 24 - d is 24 - d pips from o's bar


def test_blocked_points_stop_the_indirect_shots():
    # 6 away, with x's 19 and 23 (5 and 1 pips on) held by o: 5-1 cannot go through
    # either; 4-2 (20, 22), 3-3 (21) and 2-2 (22, 20) still get there: 17 - 2 = 15.
    position = pos("x 24:1; o 18:1 19:2 23:2")
    assert hit_stats(*sides(position))[0] == 15


def test_on_the_bar_only_entering_checkers_hit_when_two_are_up():
    # x has two on the bar; o's blot on x's 22-point (o's 3-point) is hit by a 3 as it
    # enters, or by 1-1 (both enter on 24, one walks on to 22); 13/10 with a 3 is not
    # allowed before both have entered
    position = pos("x bar:2 13:2; o 22:1 10:2")
    shots, _ = hit_stats(*sides(position))
    assert shots == 12
    rolls = [(a, b) for a in range(1, 7) for b in range(1, 7)]
    assert sum(_exact_hits(position, r) for r in rolls) == 12
    hitter, target = sides(position)
    assert roll_hits(hitter, target, 4, 2) == 0  # 13/9 with the 4 would hit nothing anyway
    assert roll_hits(hitter, target, 3, 5) == 22


def test_a_closed_board_leaves_no_shot_and_a_full_dance():
    position = pos("x bar:1 13:5; o 19:2 20:2 21:2 22:2 23:2 24:2 8:1")
    hitter, target = sides(position)
    assert hit_stats(hitter, target) == (0, 0)
    assert dance_share(hitter, target) == 1.0
    assert longest_prime(target) == 6


def test_start_position_inputs():
    x = position_features([Position.start()])
    got = dict(zip(EXTRA_NAMES, extra_inputs(x)[0]))
    assert got["opp_shots"] == got["my_shots"] == 0.0  # no blots
    assert got["my_prime"] == got["opp_prime"] == pytest.approx(1 / 6)
    assert got["opp_dance"] == got["my_dance"] == 0.0


def _exact_hits(position: Position, dice: tuple[int, int]) -> bool:
    """Some legal play of the player on roll sends an opponent's checker to the bar."""
    return any(p.result.opp[25] > position.opp[25] for p in legal_plays(position, dice))


def test_the_hit_rule_against_the_legal_plays_on_random_positions():
    rng = random.Random(7)
    rolls = [(a, b) for a in range(1, 7) for b in range(a, 7)]
    checked = differ = 0
    for _ in range(250):
        position = random_position(rng)
        hitter, target = sides(position)
        for dice in rolls:
            rule = roll_hits(hitter, target, *dice) > 0
            exact = _exact_hits(position, dice)
            assert rule or not exact, (position.position_id(), dice)  # never misses a hit
            checked += 1
            differ += rule != exact
    # it may count a hit that the use-both-dice rule forbids: rare
    assert differ / checked < 0.01, (differ, checked)


def _walk_hits(hitter, target, d1, d2) -> int:
    """The hit rule as first written (forwards: every checker walks its dice, the largest
    blot landed on counts), kept as the oracle of :func:`roll_hits` (which looks back
    from each blot, about twice as fast)."""
    held = lambda s: target[25 - s] >= 2
    blot = lambda s: 1 <= s <= 24 and target[25 - s] == 1

    def walk(start, die, steps):
        found, s = 0, start
        for _ in range(steps):
            s -= die
            if s < 1 or held(s):
                break
            found = max(found, s if blot(s) else 0)
        return found

    board = [p for p in range(1, 25) if hitter[p] > 0]
    bar = hitter[25]
    if d1 == d2:
        left, gain = 4, 0
        if bar:
            entry = 25 - d1
            if held(entry):
                return 0
            left = 4 - min(bar, 4)
            gain = max(entry if blot(entry) else 0, walk(entry, d1, left) if left else 0)
        return max([gain] + [walk(p, d1, left) for p in board if left])
    if bar >= 2:
        return max(25 - d if blot(25 - d) else 0 for d in (d1, d2))
    if bar == 1:
        gain = 0
        for d, other in ((d1, d2), (d2, d1)):
            entry = 25 - d
            if not held(entry):
                gain = max([gain, entry if blot(entry) else 0, walk(entry, other, 1)]
                           + [walk(p, other, 1) for p in board])
        return gain
    gains = [walk(p, d, 1) for p in board for d in (d1, d2)]
    gains += [p - d1 - d2 for p in board if blot(p - d1 - d2)
              and (not held(p - d1) or not held(p - d2))]
    return max(gains, default=0)


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_the_hit_rule_equals_its_first_forward_form(seed):
    position = random_position(random.Random(seed))  # phases with checkers on the bar too
    for hitter, target in (sides(position), sides(position.swap())):
        for d1 in range(1, 7):
            for d2 in range(d1, 7):
                assert (roll_hits(hitter, target, d1, d2)
                        == _walk_hits(hitter, target, d1, d2)), (position.position_id(), d1, d2)


def test_compiled_inputs_equal_the_plain_rules():
    rng = random.Random(3)
    x = position_features([random_position(rng) for _ in range(300)])
    fast, plain = extra_inputs(x), extra_inputs_python(x)
    assert fast.shape == (300, N_EXTRA)
    np.testing.assert_array_equal(fast, plain)
    assert (fast[:, 0] > 0).any() and (fast[:, 2] > 0).any() and (fast[:, 6] > 0).any()


def test_a_network_with_extras_round_trips_and_an_extended_one_computes_the_same(tmp_path):
    torch.manual_seed(0)
    net = TDNet(8).eval()
    more = add_extras(net).eval()
    x = position_features([random_position(random.Random(s)) for s in range(40)])
    xt = torch.from_numpy(x)
    with torch.inference_mode():
        np.testing.assert_allclose(more(xt).numpy(), net(xt).numpy(), atol=1e-6)
    with torch.no_grad():
        more.body[0].weight[:, N_FEATURES:] += 0.5  # the extras now count
    save_net(more, str(tmp_path / "x.pt"))
    back = load_net(str(tmp_path / "x.pt"))
    assert back.extras and back.body[0].in_features == N_FEATURES + N_EXTRA
    with torch.inference_mode():
        np.testing.assert_array_equal(back(xt).numpy(), more(xt).numpy())
        assert not np.allclose(back(xt).numpy(), net(xt).numpy())
    save_net(net, str(tmp_path / "plain.pt"))
    assert not load_net(str(tmp_path / "plain.pt")).extras
    assert "extras" not in torch.load(str(tmp_path / "plain.pt"), weights_only=True)
    with pytest.raises(ValueError, match="already reads"):
        add_extras(more)


@pytest.mark.parametrize("extras", [False, True])
def test_the_layers_read_the_rows_the_network_builds(extras):
    torch.manual_seed(1)
    net = TDNet(8, extras=extras).eval()
    x = position_features([random_position(random.Random(s)) for s in range(40)])
    rows = net.layer_inputs(x)
    assert rows.shape == (40, N_FEATURES + (N_EXTRA if extras else 0)) and rows.dtype == np.float32
    with torch.inference_mode():
        np.testing.assert_array_equal(net.body(torch.from_numpy(rows)).numpy(),
                                      net(torch.from_numpy(x)).numpy())


def test_boards_are_read_back_from_the_features():
    rng = random.Random(11)
    positions = [random_position(rng) for _ in range(200)]
    boards = np.array([list(p.me) + list(p.opp) for p in positions], dtype=np.uint8)
    np.testing.assert_array_equal(boards_of(board_features(boards)[:, :N_FEATURES]), boards)
