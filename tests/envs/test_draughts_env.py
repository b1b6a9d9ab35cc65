"""The draughts PettingZoo env (``bg_env.draughts_v0``): PettingZoo's API test, what each
seat sees (black's board turned half round, its actions too), captures hop by hop, the
rewards and the end, bad input, copies."""

from __future__ import annotations

import copy
import pickle
import random

import numpy as np
import pytest
from pettingzoo.test import api_test

from bg_env import draughts_v0
from bg_env.draughts import DraughtsPosition, legal_moves
from bg_env.draughts.game import IllegalHopError
from bg_env.envs.draughts import PLANES


@pytest.mark.parametrize("variant", ["international", "english", "russian", "brazilian",
                                     "losing", "italian", "turkish"])
def test_pettingzoo_api_test(variant):
    api_test(draughts_v0.env(variant=variant), num_cycles=200)


def legal_hops(env, agent=None) -> set:
    """The board squares of the acting agent's legal actions."""
    raw = env.unwrapped
    agent = agent or raw.agent_selection
    mask = raw.observe(agent)["action_mask"]
    return {raw.hop(int(a), agent) for a in np.flatnonzero(mask)}


def test_each_seat_sees_its_own_men_at_the_bottom():
    env = draughts_v0.env()
    env.reset(seed=0)
    for agent in ("player_0", "player_1"):
        planes = env.observe(agent)["observation"]
        assert planes.shape == (10, 10, len(PLANES))
        assert planes[6:, :, 0].sum() == 20 and planes[:4, :, 2].sum() == 20  # own / theirs
        assert planes[..., [1, 3, 4, 5]].sum() == 0


def test_actions_are_in_the_acting_agents_view():
    env = draughts_v0.env()
    env.reset(seed=0)
    assert legal_hops(env) == {(m.start, m.end) for m in legal_moves(
        DraughtsPosition.start("international"))}
    env.step(int(np.flatnonzero(env.observe("player_0")["action_mask"])[0]))  # 31-26
    assert env.agent_selection == "player_1"
    raw = env.unwrapped
    black = {(m.start, m.end) for m in legal_moves(raw.game.position)}
    assert legal_hops(env) == black
    # black's men move up its board like white's: its actions read as white's would
    mask = env.observe("player_1")["action_mask"]
    white_view = {raw.hop(int(a), "player_0") for a in np.flatnonzero(mask)}
    assert white_view == {(51 - s, 51 - e) for s, e in black}


def test_english_black_moves_first_as_player_0():
    env = draughts_v0.env(variant="english")
    env.reset(seed=0)
    assert env.agent_selection == "player_0"
    assert legal_hops(env) == {(9, 13), (9, 14), (10, 14), (10, 15), (11, 15), (11, 16),
                               (12, 16)}
    assert env.observe("player_0")["observation"][5:, :, 0].sum() == 12  # black at its bottom


def test_a_capture_is_stepped_hop_by_hop_by_the_same_agent():
    env = draughts_v0.env()
    env.reset(options={"fen": "W:W33:B29,19,20,3"})
    raw = env.unwrapped
    (first,) = np.flatnonzero(env.observe("player_0")["action_mask"])
    env.step(int(first))
    assert env.agent_selection == "player_0" and raw.game.hops == [33, 24]
    planes = env.observe("player_0")["observation"]
    r, c = raw.geometry.cells[24]
    assert planes[r, c, 4] == 1 and planes[r, c, 0] == 1  # the man where it got to
    r, c = raw.geometry.cells[33]
    assert planes[r, c, 0] == 0  # its start empty
    r, c = raw.geometry.cells[29]
    assert planes[r, c, 5] == 1 and planes[r, c, 2] == 1  # taken, still on the board
    assert legal_hops(env) == {(24, 13), (24, 15)}
    choice = next(int(a) for a in np.flatnonzero(env.observe("player_0")["action_mask"])
                  if raw.hop(int(a)) == (24, 15))
    env.step(choice)
    assert env.agent_selection == "player_1" and raw.fen() == "B:W15:B3,19"


@pytest.mark.parametrize("variant, rewards", [("international", (1, -1)), ("losing", (-1, 1))])
def test_the_last_piece_taken_ends_the_game(variant, rewards):
    env = draughts_v0.env(variant=variant)
    env.reset(options={"fen": "W:W33:B29"})
    env.step(int(np.flatnonzero(env.observe("player_0")["action_mask"])[0]))
    assert all(env.terminations.values())
    assert (env.rewards["player_0"], env.rewards["player_1"]) == rewards
    assert env.infos["player_0"]["reason"] == "no moves"
    winner = "player_0" if rewards[0] > 0 else "player_1"
    assert env.infos["player_1"]["winner"] == winner
    assert not env.observe("player_0")["action_mask"].any()


def test_a_repetition_draw_pays_nothing():
    env = draughts_v0.env()
    env.reset(options={"fen": "W:WK46,31:BK1,15"})
    raw = env.unwrapped
    for hop in [(46, 41), (1, 6), (41, 46), (6, 1)] * 2:
        action = next(int(a) for a in np.flatnonzero(env.observe(env.agent_selection)[
            "action_mask"]) if raw.hop(int(a)) == hop)
        env.step(action)
    assert all(env.terminations.values()) and env.rewards == {"player_0": 0, "player_1": 0}
    assert env.infos["player_0"] == {"reason": "repetition", "winner": None}


def test_an_illegal_action_ends_the_game_against_the_offender():
    env = draughts_v0.env()
    env.reset(seed=0)
    illegal = int(np.flatnonzero(env.observe("player_0")["action_mask"] == 0)[0])
    env.step(illegal)
    assert env.rewards["player_0"] == -1 and all(env.terminations.values())
    raw = draughts_v0.raw_env()
    raw.reset(seed=0)
    with pytest.raises(IllegalHopError, match=f"action {illegal} is not a legal hop"):
        raw.step(illegal)
    assert raw.fen() == "W:W31-50:B1-20"


def test_bad_arguments_and_options_are_named():
    with pytest.raises(ValueError, match="'checkers' unknown; expected one of"):
        draughts_v0.env(variant="checkers")
    with pytest.raises(ValueError, match="render_mode='rgb'"):
        draughts_v0.env(render_mode="rgb")
    env = draughts_v0.raw_env()
    env.reset(seed=0)
    with pytest.raises(ValueError, match=r"\['fne'\] unknown; allowed keys: \['fen'\]"):
        env.reset(options={"fne": "W:W31:B1"})
    with pytest.raises(ValueError, match="square 31 given twice"):
        env.reset(options={"fen": "W:W31,31:B1"})
    assert env.fen() == "W:W31-50:B1-20"  # left as it was
    with pytest.raises(RuntimeError, match="before reset"):
        draughts_v0.raw_env().step(0)
    with pytest.raises(ValueError, match="action 1800: expected 0..1799"):
        env.hop(1800)
    assert env.hop(env.action_of(32, 28)) == (32, 28)


def play_random(env, rnd: random.Random, steps: int) -> list:
    seen = []
    for _ in range(steps):
        agent = env.agent_selection
        if env.terminations[agent]:
            break
        legal = np.flatnonzero(env.observe(agent)["action_mask"])
        action = int(legal[rnd.randrange(len(legal))])
        env.step(action)
        seen.append((agent, action, env.unwrapped.fen()))
    return seen


@pytest.mark.parametrize("clone", [copy.deepcopy, lambda e: pickle.loads(pickle.dumps(e))])
def test_a_copy_goes_on_like_the_original(clone):
    env = draughts_v0.env(variant="russian")
    env.reset(seed=3)
    play_random(env, random.Random(0), 25)
    twin = clone(env)
    assert play_random(env, random.Random(1), 200) == play_random(twin, random.Random(1), 200)


def test_the_game_is_written_as_a_pdn_record():
    from bg_env.draughts import read_pdn

    env = draughts_v0.env(variant="english")
    env.reset(seed=0)
    rnd = random.Random(2)
    while not env.terminations[env.agent_selection]:
        legal = np.flatnonzero(env.observe(env.agent_selection)["action_mask"])
        env.step(int(legal[rnd.randrange(len(legal))]))
    text = env.unwrapped.pdn(White="a", Black="b")
    game = read_pdn(text)
    assert game.positions()[-1] == env.unwrapped.game.position
    assert game.result in ("1-0", "0-1", "1/2-1/2") and '[White "a"]' in text


def _pixel(img, geometry, square, dy=0, dx=0):
    r, c = geometry.cells[square]
    return tuple(int(x) for x in img[r * 48 + 24 + dy, c * 48 + 24 + dx])


@pytest.mark.parametrize("variant", ["international", "turkish"])
def test_the_picture_shows_the_pieces_from_whites_side(variant):
    env = draughts_v0.env(render_mode="rgb_array", variant=variant)
    env.reset(seed=0)
    raw = env.unwrapped
    img = env.render()
    size = raw.variant.size
    assert img.shape == (size * 48, size * 48, 3) and img.dtype == np.uint8
    g, n = raw.geometry, raw.variant.squares
    white = [s for s in range(1, n + 1) if raw.game.position.board[s] > 0]
    black = [s for s in range(1, n + 1) if raw.game.position.board[s] < 0]
    assert min(_pixel(img, g, white[0])) > 200 and max(_pixel(img, g, black[0])) < 60
    empty = next(s for s in range(1, n + 1) if not raw.game.position.board[s])
    assert _pixel(img, g, empty) not in (_pixel(img, g, white[0]), _pixel(img, g, black[0]))


def test_the_picture_marks_kings_and_the_capture_under_way():
    env = draughts_v0.env(render_mode="rgb_array")
    env.reset(options={"fen": "W:W33,K46:B29,19,20,3"})
    raw = env.unwrapped
    g = raw.geometry
    before = env.render()
    ring = _pixel(before, g, 46, dy=-12)  # the gold ring of the king on 46
    assert ring[0] > 180 and ring[2] < 100
    env.step(raw.action_of(33, 24))  # 33x24, a choice of how to go on
    img = env.render()
    assert raw.game.hops == [33, 24]
    assert min(_pixel(img, g, 24)) > 200  # the man where it got to
    assert _pixel(img, g, 33) != _pixel(before, g, 33)  # its start empty
    red = _pixel(img, g, 29, dy=-12, dx=-12)  # (the cross runs corner to corner)
    assert red[0] > 180 and red[1] < 80 and red != _pixel(before, g, 29, dy=-12, dx=-12)


def test_render_returns_or_prints_the_board(capsys):
    env = draughts_v0.env(render_mode="ansi")
    env.reset(seed=0)
    text = env.render()
    assert text.splitlines()[0].split() == ["b"] * 5 and text.endswith("white to move")
    env = draughts_v0.env(render_mode="human", variant="english")
    env.reset(seed=0)
    env.render()
    assert capsys.readouterr().out.strip().endswith("black to move")


@pytest.mark.parametrize("variant", ["turkish", "english"])
def test_a_game_without_a_result_is_truncated_at_max_moves(variant):
    """Both sides' moves count; every agent is truncated, not terminated, reward 0;
    max_moves=None plays to the end."""
    env = draughts_v0.env(variant=variant, max_moves=7)
    env.reset(seed=3)
    rnd, hops = random.Random(3), 0
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        if term or trunc:
            assert trunc and not term and reward == 0
            assert info == {"reason": "move limit", "winner": None}
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rnd.randrange(len(legal))]))
        hops += 1
    raw = env.unwrapped
    assert raw.game.plies == 7 and raw.game.result is None and hops >= 7
    long = draughts_v0.env(variant=variant, max_moves=None)
    long.reset(seed=3)
    assert long.unwrapped.max_moves is None
    assert draughts_v0.raw_env().max_moves == 1000
    for _ in long.agent_iter():
        obs, _, term, trunc, _ = long.last()
        assert not trunc
        legal = np.flatnonzero(obs["action_mask"])
        long.step(None if term else int(legal[rnd.randrange(len(legal))]))
    assert long.unwrapped.game.result is not None


@pytest.mark.parametrize("bad", [0, -3, 2.5, True, "10"])
def test_bad_max_moves_is_named(bad):
    with pytest.raises(ValueError, match=f"max_moves={bad!r}: expected a whole number"):
        draughts_v0.env(max_moves=bad)
