"""The one-roll lookahead of the TD agent (agents/players/td_search.py, ``td:2ply``) against a slow
reference that evaluates every reply of every roll one position at a time."""

from __future__ import annotations

import os

import numpy as np
import pytest
import torch

from agents import load_agent
from agents.players.base import RandomAgent
from agents.evaluation.evaluate import evaluate, play_game_env
from agents.players.td import TDAgent, TDNet, features, numpy_equity, terminal_target
from agents.players.td_search import ROLLS, flip_numpy, search_choice, search_values
from bg_env.rules.moves import legal_plays_reference
from bg_env.rules.position import Position


@pytest.fixture(scope="module")
def net() -> TDNet:
    torch.manual_seed(5)
    net = TDNet(hidden=6).eval()
    with torch.no_grad():  # spread the outputs so that plays differ clearly
        for p in net.parameters():
            p.mul_(3.0)
    return net


def one_value(net: TDNet, pos: Position) -> np.ndarray:
    """Outputs of one afterstate (mover's view): the board's result if the game is over."""
    done = pos.outcome()
    if done is not None:
        return np.array(terminal_target(done.kind), dtype=np.float64)
    row = features(np.array([pos.me]), np.array([pos.opp]))
    with torch.inference_mode():
        return net(torch.from_numpy(row))[0].numpy().astype(np.float64)


def reference_equity(net: TDNet, pos: Position) -> float:
    """Expected equity after the opponent's 0-ply best reply, looping over each roll and
    each reply one by one, with the brute-force move generator."""
    if pos.outcome() is not None:
        return float(numpy_equity(one_value(net, pos).astype(np.float32)))
    total = 0.0
    for a in range(1, 7):
        for b in range(1, 7):  # all 36 rolls, each 1/36
            best = None
            for reply in legal_plays_reference(pos.swap(), (a, b)):
                eq = float(numpy_equity(one_value(net, reply.result).astype(np.float32)))
                if best is None or eq > best:
                    best = eq
            total += -best / 36.0
    return total


def reference_choice(net: TDNet, plays) -> int:
    values = [reference_equity(net, p.result) for p in plays]
    return int(np.argmax(values)), values


def random_position(seed: int, turns: int) -> Position:
    rng = np.random.default_rng(seed)
    pos = Position.start()
    for _ in range(turns):
        plays = pos.legal_plays(tuple(int(d) for d in rng.integers(1, 7, 2)))
        pos = plays[int(rng.integers(len(plays)))].result
        if pos.outcome() is not None:
            break
        pos = pos.swap()
    return pos


POSITIONS = [
    (Position.start(), (3, 1)),
    (Position.start(), (6, 5)),
    (random_position(1, 8), (4, 2)),
    (random_position(2, 14), (6, 6)),
    # bear-off: some plays end the game (a gammon), replies may end it too
    (Position.from_layout({1: 1, 2: 1}, {1: 2, 2: 1, 3: 1}), (2, 1)),
    (Position.from_layout({2: 2, 5: 1}, {1: 1, 3: 1}), (5, 2)),
    # the opponent is on the bar against a closed board: he has no legal play
    (Position.from_layout({1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 8: 3}, {25: 1, 13: 2, 12: 12}), (2, 1)),
]


@pytest.mark.parametrize("pos, dice", POSITIONS)
def test_search_matches_reference(net, pos, dice):
    plays = pos.legal_plays(dice)
    want, ref_values = reference_choice(net, plays)
    got, searched, equities = search_choice(net, plays, prune=None)
    assert sorted(searched.tolist()) == list(range(len(plays)))
    by_play = dict(zip(searched.tolist(), equities.tolist()))
    assert np.allclose([by_play[i] for i in range(len(plays))], ref_values, atol=1e-5)
    assert got == want


def test_rolls_are_the_21_with_their_weights():
    assert len(ROLLS) == 21
    assert sum(w for _, _, w in ROLLS) == pytest.approx(1.0)
    assert {(a, b) for a, b, _ in ROLLS} == {(min(a, b), max(a, b)) for a in range(1, 7) for b in range(1, 7)}


def test_search_values_are_the_board_when_every_reply_ends_the_game(net):
    # the opponent bears off his last two checkers with any roll: we lose, a gammon
    # unless our play bore a checker off
    pos = Position.from_layout({6: 15}, {1: 2})
    no_off = search_values(net, pos.legal_plays((2, 1)))
    assert np.allclose(no_off, np.tile([0, 0, 0, 1, 0], (len(no_off), 1)), atol=1e-6)
    plays = pos.legal_plays((6, 5))
    v = search_values(net, plays)
    for play, row in zip(plays, v):
        assert np.allclose(row, [0, 0, 0, 0, 0] if play.result.me[0] else [0, 0, 0, 1, 0], atol=1e-6)


def test_prune_all_equals_no_pruning_and_prune_one_is_zero_ply(net):
    pos, dice = Position.start(), (4, 3)
    plays = pos.legal_plays(dice)
    unpruned = search_choice(net, plays, None)
    assert search_choice(net, plays, len(plays))[0] == unpruned[0]
    assert search_choice(net, plays, len(plays) + 5)[0] == unpruned[0]
    zero_ply = TDAgent(net).choose_play(plays)
    assert plays[search_choice(net, plays, 1)[0]] is zero_ply
    k = 3
    choice, searched, _ = search_choice(net, plays, k)
    assert len(searched) == k and choice in searched.tolist()


def test_agent_with_plies_picks_the_reference_play(net):
    pos, dice = random_position(4, 6), (6, 1)
    plays = pos.legal_plays(dice)
    agent = TDAgent(net, plies=1, prune=None)
    assert agent.name == "td:2ply"
    assert agent.choose_play(plays) is plays[reference_choice(net, plays)[0]]


def test_two_ply_agent_plays_full_games_through_the_env(net):
    agent = TDAgent(net, plies=1, prune=4)
    winner, kind, points = play_game_env([agent, RandomAgent(seed=1)], seed=7, config={})
    assert winner in (0, 1) and kind in ("single", "gammon", "backgammon") and points >= 1
    stats = evaluate(agent, RandomAgent(seed=2), games=2, seed=3, cube=True)
    assert stats.games == 2


@pytest.mark.parametrize("spec, match", [
    ("td:3ply", "3ply"),
    ("td:1ply", "1ply"),
    ("td:2ply:abc", "abc"),
    ("td:2ply:0", "'0'"),
])
def test_spec_errors_are_clear(spec, match):
    with pytest.raises(ValueError, match=match):
        load_agent(spec)


def test_spec_loads_the_search_agent_and_a_missing_path_is_named():
    agent = load_agent("td:2ply:all")
    assert agent.plies == 1 and agent.prune is None
    assert load_agent("td:2ply").prune == 8 and load_agent("td").plies == 0
    with pytest.raises(FileNotFoundError, match="nowhere.pt"):
        load_agent("td:/nowhere.pt:2ply")


@pytest.mark.parametrize("kwargs, match", [
    ({"plies": 2}, "plies=2"),
    ({"plies": 1, "prune": 0}, "prune=0"),
    ({"plies": 1, "prune": 2.5}, "prune=2.5"),
])
def test_bad_settings_are_refused(net, kwargs, match):
    with pytest.raises(ValueError, match=match):
        TDAgent(net, **kwargs)


def reference_two_ply(net: TDNet, pos: Position, inner=None) -> float:
    """Two rolls of lookahead, one position at a time: after each of the opponent's 36
    rolls his 0-ply best reply, valued (from our side) by our own one-roll lookahead of it,
    :func:`reference_equity` seen from the replier (or ``inner(net, reply)``)."""
    inner = inner or reference_equity
    if pos.outcome() is not None:
        return reference_equity(net, pos)
    total = 0.0
    for a in range(1, 7):
        for b in range(1, 7):
            replies = legal_plays_reference(pos.swap(), (a, b))
            statics = [float(numpy_equity(one_value(net, r.result).astype(np.float32)))
                       for r in replies]
            chosen = replies[int(np.argmax(statics))].result
            total += -inner(net, chosen) / 36.0
    return total


@pytest.mark.parametrize("pos, dice", POSITIONS[4:6])  # bear-offs: the reference is slow
def test_two_plies_match_the_reference(net, pos, dice):
    plays = pos.legal_plays(dice)
    values = numpy_equity(search_values(net, plays, plies=2))
    assert np.allclose(values, [reference_two_ply(net, p.result) for p in plays], atol=1e-5)
    # one ply is what the search has always used
    assert np.allclose(numpy_equity(search_values(net, plays, plies=1)),
                       [reference_equity(net, p.result) for p in plays], atol=1e-5)


def test_lookahead_chunks_give_the_same_values(net, monkeypatch):
    import agents.players.td_search as td_search

    plays = POSITIONS[5][0].legal_plays(POSITIONS[5][1])
    whole = search_values(net, plays, plies=2)
    monkeypatch.setattr(td_search, "LOOKAHEAD_CHUNK", 3)
    assert np.array_equal(search_values(net, plays, plies=2), whole)
    with pytest.raises(ValueError, match="plies=-1"):
        search_values(net, plays, plies=-1)


def reference_pruned(net: TDNet, pos: Position, leaves: int) -> float:
    """:func:`reference_equity` with each reply chosen by the network among only the
    ``leaves`` best by pubeval (numpy's pubeval, the race flag of the position before it)."""
    from agents.players.pubeval import pubeval_scores

    if pos.outcome() is not None:
        return float(numpy_equity(one_value(net, pos).astype(np.float32)))
    total = 0.0
    for a in range(1, 7):
        for b in range(1, 7):
            replies = legal_plays_reference(pos.swap(), (a, b))
            scores = pubeval_scores([r.result for r in replies], race=pos.swap().is_race())
            kept = np.argsort(-scores, kind="stable")[:leaves]
            total -= max(float(numpy_equity(one_value(net, replies[k].result).astype(np.float32)))
                         for k in kept) / 36.0
    return total


@pytest.mark.parametrize("pos, dice", POSITIONS)  # contact, bear-offs (races), no reply
def test_leaves_pruned_by_pubeval_match_the_reference(net, pos, dice):
    plays = pos.legal_plays(dice)[:6]
    pruned = numpy_equity(search_values(net, plays, plies=1, leaves=3))
    assert np.allclose(pruned, [reference_pruned(net, p.result, 3) for p in plays], atol=1e-5)
    whole = search_values(net, plays, plies=1)
    assert np.array_equal(search_values(net, plays, plies=1, leaves=10_000), whole)
    if len(plays) > 1 and pos == Position.start():
        assert not np.array_equal(search_values(net, plays, plies=1, leaves=1), whole)


@pytest.mark.parametrize("pos, dice", POSITIONS[4:6])  # bear-offs: the reference is slow
def test_leaves_prune_only_the_last_roll_of_two(net, pos, dice):
    """His reply is chosen among all his plays, ours to it among pubeval's best one."""
    def reference(after: Position) -> float:
        return reference_two_ply(net, after, lambda net, reply: reference_pruned(net, reply, 1))

    plays = pos.legal_plays(dice)
    values = numpy_equity(search_values(net, plays, plies=2, leaves=1))
    assert np.allclose(values, [reference(p.result) for p in plays], atol=1e-5)
    whole = search_values(net, plays, plies=2)
    assert np.array_equal(search_values(net, plays, plies=2, leaves=10_000), whole)


def test_leaves_are_pruned_in_the_last_roll_alone(net, monkeypatch):
    import agents.players.td_search as td_search

    pruned, calls = td_search.pubeval_pruned, []

    def counting(res_me, res_opp, race, segments, leaves):
        calls.append(len(segments))
        return pruned(res_me, res_opp, race, segments, leaves)

    monkeypatch.setattr(td_search, "pubeval_pruned", counting)
    plays = Position.start().legal_plays((6, 5))[:3]
    search_values(net, plays, plies=2, leaves=3)
    assert calls == [3 * 21 * 21]  # our replies to his reply to each roll, not his replies


@pytest.mark.parametrize("leaves", [0, -1, True, 2.5])
def test_bad_leaves_are_refused_by_name(net, leaves):
    plays = POSITIONS[0][0].legal_plays(POSITIONS[0][1])
    with pytest.raises(ValueError, match=f"leaves={leaves!r}"):
        search_values(net, plays, plies=1, leaves=leaves)


def test_pubeval_pruned_keeps_each_segment_best_rows():
    from agents.players.td_search import pubeval_pruned
    from bg_env.kernels.fast import fast_legal_plays
    from bg_env.kernels.pubeval import pubeval_value

    pos = random_position(3, 10)
    me, opp = (np.array(side, dtype=np.int64) for side in (pos.me, pos.opp))
    parts = [fast_legal_plays(me, opp, d1, d2)[:2] for d1, d2 in ((6, 5), (2, 1), (4, 4))]
    res_me = np.concatenate([p[0] for p in parts])
    res_opp = np.concatenate([p[1] for p in parts])
    segments = np.array([len(p[0]) for p in parts])
    race = np.zeros(len(res_me), dtype=bool)
    rows, kept = pubeval_pruned(res_me, res_opp, race, segments, 4)
    assert kept.tolist() == np.minimum(segments, 4).tolist() and len(rows) == kept.sum()
    assert np.all(np.diff(rows) > 0)
    score = np.array([pubeval_value(a.astype(np.int64), b.astype(np.int64), False)
                      for a, b in zip(res_me, res_opp)])
    start = 0
    for n in segments:
        mine = rows[(rows >= start) & (rows < start + n)]
        dropped = np.setdiff1d(np.arange(start, start + n), mine)
        if len(dropped):
            assert score[mine].min() >= score[dropped].max()
        start += n


def test_segment_top_is_each_segments_best_rows_first_on_ties():
    from agents.players.td_search import segment_top

    rng = np.random.default_rng(0)
    for _ in range(200):
        lengths = rng.integers(0, 7, rng.integers(1, 9))
        x, k = rng.integers(0, 4, lengths.sum()).astype(float), int(rng.integers(1, 5))
        starts = np.r_[0, np.cumsum(lengths)[:-1]]
        one_by_one = [s + np.argsort(-x[s:s + n], kind="stable")[:k] for s, n in zip(starts, lengths)]
        assert segment_top(x, lengths, k).tolist() == sorted(np.concatenate(one_by_one).tolist())


def reference_cube_probabilities(net: TDNet, pos: Position) -> np.ndarray:
    """The roller's five probabilities one roll ahead, position by position: over the 36
    rolls, the outputs (his view) of the play his 0-ply network rates best."""
    total = np.zeros(5)
    for a in range(1, 7):
        for b in range(1, 7):
            plays = legal_plays_reference(pos, (a, b))
            values = [one_value(net, p.result) for p in plays]
            total += values[int(np.argmax([numpy_equity(v.astype(np.float32))
                                           for v in values]))] / 36.0
    return total


@pytest.mark.parametrize("pos", [p for p, _ in POSITIONS[:4]] + [
    Position.from_layout({1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 8: 3}, {25: 1, 13: 2, 12: 12}),
    Position.from_layout({1: 1, 2: 1}, {1: 2, 2: 1, 3: 1}),  # some rolls end the game
])
def test_cube_probabilities_one_roll_ahead_match_the_reference(net, pos):
    agent = TDAgent(net, cube_plies=1)
    assert np.allclose(agent.probabilities(pos), reference_cube_probabilities(net, pos),
                       atol=1e-5)
    # no lookahead: the network's own view of the board, flipped to the roller's
    flat = TDAgent(net).probabilities(pos)
    assert np.allclose(flat, flip_numpy(one_value(net, pos.swap())[None])[0], atol=1e-6)


def test_cube_probabilities_are_kept_for_the_answer_and_not_shared(net):
    agent = TDAgent(net, cube_plies=1)
    pos = random_position(3, 10)
    first = agent.probabilities(pos)
    first[:] = 0  # the caller's copy
    again = agent.probabilities(pos)
    assert again.sum() > 0 and np.allclose(again, reference_cube_probabilities(net, pos),
                                           atol=1e-5)
    assert not np.allclose(agent.probabilities(pos.swap()), again)


def test_cube_lookahead_specs():
    agent = load_agent("td:cube1")
    assert (agent.plies, agent.cube_plies, agent.name) == (0, 1, "td:cube1")
    agent = load_agent("td:2ply:4:cube2")
    assert (agent.plies, agent.prune, agent.cube_plies) == (1, 4, 2)
    assert load_agent("td:2ply:cube2").prune == 8 and load_agent("td").cube_plies == 0
    from agents import MODELS_DIR, model_file

    assert model_file("td:cube1") == os.path.join(MODELS_DIR, "td.pt")
    assert model_file("td:runs/x.pt:cube2") == "runs/x.pt"
    for spec, words in (("td:cube3", "cube3"), ("td:cube", "'cube'")):
        with pytest.raises(ValueError, match=words):
            load_agent(spec)
    with pytest.raises(FileNotFoundError, match="'cube'"):  # the cube part comes last
        load_agent("td:cube:2ply")
    with pytest.raises(ValueError, match="cube_plies=3"):
        TDAgent(TDNet(hidden=2), cube_plies=3)
