"""The AEC env's kernels (:class:`bg_env.core.engine.EngineGame`) in the variants they play,
in lockstep with the same env on :class:`~bg_env.core.game.Game`: with the same seed and
the same actions, both show the same agents, observations (context block included), masks,
rewards, terminations and infos, game after game; and a game handed over to a Game in the
middle (reading ``env.game``) goes on as the Game would have played it."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("numba")

from bg_env import backgammon_v0  # noqa: E402
from bg_env.core.actions import BOMB, ROLL  # noqa: E402
from bg_env.envs.context import CONTEXT_SIZE  # noqa: E402

VARIANTS = ("standard", "nackgammon", "hypergammon1", "hypergammon2", "hypergammon3",
            "longgammon", "sudden_death", "nuclear")


def _snapshot(env) -> tuple:
    agent = env.agent_selection
    views = tuple((env.observe(a)["observation"].tobytes(), env.observe(a)["action_mask"].tobytes())
                  for a in env.possible_agents)
    return (agent, views, dict(env.rewards), dict(env.terminations), dict(env.truncations),
            repr(env.infos))


def _pick(mask: np.ndarray, rng: np.random.Generator) -> int:
    """A random legal action, rolling more often than doubling (games last longer), and
    setting off the bomb now and then."""
    legal = np.flatnonzero(mask)
    if ROLL in legal and BOMB not in legal and rng.random() < 0.7:
        return ROLL
    return int(rng.choice(legal))


def lockstep(variant: str, seed: int, steps: int, hand_over_at: int = -1, **config) -> int:
    """Play ``steps`` decisions on both envs (games restarted without a seed); returns
    how many decisions the kernels played."""
    fast = backgammon_v0.raw_env(variant=variant, **config)
    slow = backgammon_v0.raw_env(variant=variant, **config)
    fast.reset(seed=seed)
    slow.reset(seed=seed)
    slow.game  # noqa: B018 - hands the game over to a Game
    rng = np.random.default_rng(seed)
    on_kernels = 0
    for step in range(steps):
        assert _snapshot(fast) == _snapshot(slow), (variant, config, step)
        agent = fast.agent_selection
        if fast.terminations[agent] or fast.truncations[agent]:
            fast.reset()
            slow.reset()
            slow.game  # noqa: B018
            continue
        if step == hand_over_at:
            fast.game  # noqa: B018 - the kernels' game handed over mid-game
        on_kernels += fast.on_kernels
        action = _pick(fast.observe(agent)["action_mask"], rng)
        fast.step(action)
        slow.step(action)
        assert fast.on_kernels or step >= hand_over_at >= 0
    return on_kernels


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("cube", [False, True])
def test_kernels_play_the_variant_as_game_with_the_context(variant, cube):
    played = lockstep(variant, 1, 400, cube=cube, context=True)
    assert played > 300
    played = lockstep(variant, 2, 200, cube=cube, observation="compact", max_turns=30)
    assert played > 100


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_game_handed_over_mid_game_goes_on_as_game(variant):
    for seed in range(3):
        lockstep(variant, 10 + seed, 60, hand_over_at=5 + 7 * seed, cube=True)


def test_variants_run_on_the_kernels_with_their_context_block():
    for variant in (*VARIANTS[1:], "plakoto", "caucasian", "long_nardy"):
        env = backgammon_v0.raw_env(variant=variant)
        env.reset(seed=0)
        assert env.on_kernels, variant
        obs = env.observe(env.agent_selection)["observation"]
        assert obs.shape[0] == 212 + CONTEXT_SIZE
    for config in ({"match_length": 3}, {"variant": "plakoto", "match_length": 3}):
        env = backgammon_v0.raw_env(**config)
        env.reset(seed=0)
        assert not env.on_kernels, config
