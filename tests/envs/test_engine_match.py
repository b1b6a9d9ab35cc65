"""``env(match_length=N)`` plays each game of the match on the engine, and the match it
plays is the one the :class:`Game` path plays: with the same seed and the same actions,
three things agree after every decision: the env on the engine, an env whose games are
handed over to a :class:`Game` at once (reading ``env.game``: the Game path's
observations, masks, rewards, terminations and infos), and a :class:`Match` driven by
hand with its games on :class:`Game` (``Match.new_game``, ``Game.step``, ``Match.record``:
the score, the Crawford game, the positions and dice)."""

from __future__ import annotations

import copy
import pickle
import random

import numpy as np
import pytest

pytest.importorskip("numba")

from bg_env.game.game import Phase  # noqa: E402
from bg_env.game.match import Match  # noqa: E402
from bg_env.envs.backgammon import raw_env  # noqa: E402
from bg_env.actions import ROLL  # noqa: E402
from test_engine_variants import assert_same_env  # noqa: E402
from test_engine_variants import pick as pick_any  # noqa: E402

CONFIGS = [
    dict(match_length=5, cube=True),
    dict(match_length=3, cube=True, observation="compact", match_reward="equity"),
    dict(match_length=3, cube=True, variant="plakoto"),
    dict(match_length=1, cube=True),
    dict(match_length=4, cube=True, context=False),
    dict(match_length=3, cube=False, variant="long_nardy", reward="win"),
]


class Reference:
    """The match as the env played it on Games: ``Match.new_game`` and ``settle``, each
    action through ``Game.step`` and ``settle``, each finished game recorded."""

    def __init__(self, config: dict, rules, seed: int):
        self.rng = np.random.default_rng(seed)
        self.match = Match(config["match_length"], rules)
        self._new_game()

    def _new_game(self) -> None:
        self.game = self.match.new_game(self.rng)
        self.game.settle(self.rng)

    def step(self, action: int) -> None:
        self.game.step(action, self.rng)
        if not self.game.settled:
            self.game.settle(self.rng)
        if self.game.phase == Phase.OVER:
            self.match.record(self.game.result)
            if not self.match.is_over:
                self._new_game()


def pick(mask: np.ndarray, rnd: random.Random) -> int:
    """A random legal action, doubling seldom (so that matches reach a Crawford game)."""
    if mask[ROLL] and rnd.random() < 0.95:
        return ROLL
    return pick_any(mask, rnd)


def _match_state(match: Match) -> tuple:
    return match.score, match.crawford, match.post_crawford, match.games


def play_match(config: dict, seed: int) -> tuple[int, int]:
    """Play one match three ways in lockstep (see the module docstring); returns the
    decisions and the Crawford games played."""
    fast, slow = raw_env(**config), raw_env(**config)
    fast.reset(seed=seed)
    slow.reset(seed=seed)
    ref = Reference(config, fast.config.rules(), seed)
    rnd = random.Random(seed)
    steps = 0
    while True:
        where = f"{config} seed {seed} step {steps}"
        assert fast.on_kernels, where
        game = slow.game  # hands the game over to a Game (each new game starts anew)
        assert (game.position, game.phase, game.dice, game.cube_value) == (
            ref.game.position, ref.game.phase, ref.game.dice, ref.game.cube_value), where
        assert_same_env(fast, slow, where)
        assert dict(fast.rewards) == dict(slow.rewards), where
        assert _match_state(fast.match) == _match_state(slow.match) == _match_state(
            ref.match), where
        if all(fast.terminations.values()):
            break
        action = pick(fast.observe(fast.agent_selection)["action_mask"], rnd)
        fast.step(action)
        slow.step(action)
        ref.step(action)
        steps += 1
    assert ref.match.is_over and fast.infos == slow.infos
    assert fast.infos["player_0"]["winner"] == fast.possible_agents[ref.match.winner]
    return steps, fast.match.crawford_games_played


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: "-".join(map(str, c.values())))
def test_match_on_the_engine_is_the_game_paths_match(config):
    """Three matches at least, and until one has had a Crawford game (12 at most)."""
    played = []
    for seed in range(12):
        played.append(play_match(config, seed))
        if seed >= 2 and (config["match_length"] == 1 or any(c for _, c in played)):
            break
    assert sum(steps for steps, _ in played) > 30
    if config["match_length"] > 1:  # (a 1-point match has no Crawford game)
        assert any(crawford for _, crawford in played)


def test_match_copies_go_on_as_the_original():
    """A deepcopy and a pickle of an env in the middle of a match play on as it does."""
    env = raw_env(match_length=5, cube=True)
    env.reset(seed=8)
    rnd = random.Random(8)
    steps = 0
    while env.match.games < 1 or steps < 10:  # some decisions into the second game
        steps = steps + 1 if env.match.games else 0
        env.step(pick(env.observe(env.agent_selection)["action_mask"], rnd))
    assert env.on_kernels and not any(env.terminations.values())
    copies = [copy.deepcopy(env), pickle.loads(pickle.dumps(env))]
    while not all(env.terminations.values()):
        action = pick(env.observe(env.agent_selection)["action_mask"], rnd)
        for e in (env, *copies):
            e.step(action)
        for c in copies:
            assert_same_env(env, c, "copy")
            assert _match_state(c.match) == _match_state(env.match)
