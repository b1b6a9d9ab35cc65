"""The fast paths: :class:`bg_env.game.game.Game` step by step (``play_and_settle``,
``plan_turn``, ``roll_dice``) and the environment's array engine
(:mod:`bg_env.kernels.engine`), against the pure-Python reference path.

The reference is the same code run with ``BG_ENV_PURE_PYTHON=1`` (Python rules, numpy's
``Generator.integers`` for the dice) in a subprocess: the same seeds and the same random
choices must give the very same games (boards, dice, masks, observations, results).
"""

from __future__ import annotations

import copy
import os
import random
import subprocess
import sys

import numpy as np
import pytest

from bg_env.game.game import PURE_PYTHON, Game, Phase, Rules

pytestmark = pytest.mark.skipif(PURE_PYTHON, reason="BG_ENV_PURE_PYTHON=1: no numba kernels")

_TRACE = r"""
import hashlib, json, random, sys
from bg_env import backgammon_v0
h = hashlib.sha256()
configs = ({"cube": False}, {"cube": True, "beaver": True}, {"observation": "compact"},
           {"cube": True, "jacoby": True, "auto_doubles": 2, "cube_progression": "arithmetic",
            "max_cube": 0},
           {"cube": False, "max_turns": 30, "reward": "win"})
for config in configs:
    e = backgammon_v0.env(**config)
    for seed in range(int(sys.argv[1])):
        e.reset(seed=seed)
        rnd = random.Random(seed)
        handover = rnd.randrange(200) if sys.argv[2] == "handover" else -1
        step = 0
        while True:
            obs, reward, term, trunc, info = e.last()
            h.update(repr((e.agent_selection, reward, term, trunc, sorted(info.items()))).encode())
            if term or trunc:
                break
            if step >= handover >= 0:  # reading the game hands it over to a Game
                g = e.unwrapped.game
                h.update(repr((e.unwrapped.position_id(), e.unwrapped.dice, g.played,
                               g.turn_start, g.phase, g.cube_value, g.turns)).encode())
            other = [a for a in e.possible_agents if a != e.agent_selection][0]
            for o in (obs, e.observe(other)):
                h.update(o["observation"].tobytes())
                h.update(o["action_mask"].tobytes())
            legal = obs["action_mask"].nonzero()[0]
            e.step(int(legal[rnd.randrange(len(legal))]))
            step += 1
        h.update(json.dumps(e.unwrapped.infos, sort_keys=True, default=str).encode())
        h.update(repr(e.unwrapped.rewards).encode())
print(h.hexdigest())
"""


def _trace(pure: bool, games: int, mode: str) -> str:
    env = dict(os.environ, BG_ENV_PURE_PYTHON="1" if pure else "0")
    out = subprocess.run([sys.executable, "-c", _TRACE, str(games), mode], env=env, check=True,
                         capture_output=True, text=True)
    return out.stdout.strip()


@pytest.mark.parametrize("mode", ["engine", "handover"])
def test_fast_paths_play_the_same_games_as_the_pure_python_path(mode):
    """The env's array engine (``engine``), then also the hand-over to a ``Game`` at a
    random decision (``handover``), against the pure-Python ``Game``: the same seeds and
    choices give the same observations, masks, rewards and infos, cube games included."""
    assert _trace(False, 12, mode) == _trace(True, 12, mode)


def test_dice_kernel_draws_what_generator_integers_draws():
    from bg_env.kernels.io import bit_generator_pointers
    from bg_env.kernels.dice import roll_dice

    for bitgen in (np.random.PCG64, np.random.MT19937, np.random.Philox, np.random.SFC64):
        ours, theirs = np.random.Generator(bitgen(7)), np.random.Generator(bitgen(7))
        other = random.Random(1)
        for _ in range(3000):
            if other.random() < 0.2:  # other draws in between: the streams stay in step
                assert ours.integers(1000) == theirs.integers(1000)
                assert ours.random() == theirs.random()
            expected = (int(theirs.integers(1, 7)), int(theirs.integers(1, 7)))
            assert roll_dice(*bit_generator_pointers(ours)) == expected
        assert (ours.integers(1 << 62, size=8) == theirs.integers(1 << 62, size=8)).all()


def test_roll_falls_back_for_other_generators():
    class Dice:
        def integers(self, low, high):
            return 4

    assert Game()._roll(Dice()) == (4, 4)


def _random_steps(game: Game, rng, pick, n: int) -> None:
    for _ in range(n):
        if game.phase == Phase.OVER:
            return
        legal = game.legal_actions()
        game.step(legal[pick(len(legal))], rng)


def test_a_shallow_copy_does_not_share_the_kernel_buffers():
    rng = np.random.default_rng(3)
    game = Game(Rules(cube=False))
    game.opening(rng)
    game.settle(rng)
    _random_steps(game, rng, random.Random(3).randrange, 7)
    twin = copy.copy(game)
    for name, value in vars(twin).items():
        if isinstance(value, list):
            setattr(twin, name, list(value))
    before = (game.position, list(game.remaining), game.legal_actions(), game.board_array().copy())
    _random_steps(twin, np.random.default_rng(4), random.Random(4).randrange, 5)
    assert (game.position, list(game.remaining), game.legal_actions()) == tuple(before[:3])
    assert (game.board_array() == before[3]).all()
    assert game.board_array().tobytes() == bytes(game.position.me + game.position.opp)


def test_a_turn_started_anywhere_has_the_masks_of_the_game_it_came_from():
    rng = np.random.default_rng(5)
    game = Game(Rules(cube=False))
    game.opening(rng)
    game.settle(rng)
    first = game.legal_mask_int8()
    other = Game(Rules(cube=False))
    other.opening(np.random.default_rng(11))
    other.settle(np.random.default_rng(11))
    # the same turn started anywhere (its roll, the moves made): the same masks
    game = Game.from_position(other.turn_start, None, Rules(cube=False), turn=other.turn,
                              dice=other.dice, played=[m.action for m in other.played])
    assert game.position == other.position and game.remaining == other.remaining
    assert (game.legal_mask_int8() == other.legal_mask_int8()).all()
    assert game.legal_actions() == other.legal_actions()
    assert not (first == other.legal_mask_int8()).all()
    assert first.dtype == np.int8 and first.shape == (156,)


def test_observation_kernel_matches_the_python_encoder():
    from bg_env.envs import observation as obs_module

    rng = np.random.default_rng(8)
    pick = random.Random(8).randrange
    checked = 0
    for cube in (False, True):
        game = Game(Rules(cube=cube, beaver=True))
        game.opening(rng)
        game.settle(rng)
        while game.phase != Phase.OVER and checked < 400:
            for side in (0, 1):
                fast = obs_module.encode(game, side)
                kernel, obs_module._tesauro_kernel = obs_module._tesauro_kernel, None
                try:
                    slow = obs_module.encode(game, side)
                finally:
                    obs_module._tesauro_kernel = kernel
                assert fast.dtype == slow.dtype and (fast == slow).all(), (game.phase, side)
            checked += 1
            legal = game.legal_actions()
            game.step(legal[pick(len(legal))], rng)
    assert checked > 100



@pytest.mark.parametrize("cube", [False, True])
def test_engine_illegal_action_raises_naming_it_and_the_game_goes_on_unchanged(cube):
    from bg_env import backgammon_v0
    from bg_env.game.game import IllegalActionError

    def play(env, seed, poke):
        env.reset(seed=seed)
        rnd, poker = random.Random(seed), random.Random(seed + 100)
        seen = []
        while True:
            obs, _, term, trunc, info = env.last()
            if term or trunc:
                return seen, info
            mask = obs["action_mask"]
            if poke and poker.random() < 0.3:
                bad = int(np.flatnonzero(mask == 0)[poker.randrange(int((mask == 0).sum()))])
                with pytest.raises(IllegalActionError, match=str(bad)):
                    env.step(bad)
                again = env.observe(env.agent_selection)
                assert (again["action_mask"] == mask).all()
                assert (again["observation"] == obs["observation"]).all()
            legal = mask.nonzero()[0]
            seen.append(obs["observation"].tobytes())
            env.step(int(legal[rnd.randrange(len(legal))]))

    for seed in range(3):
        clean = play(backgammon_v0.raw_env(cube=cube), seed, False)
        poked = play(backgammon_v0.raw_env(cube=cube), seed, True)
        assert clean == poked
