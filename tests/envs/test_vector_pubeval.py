"""The pubeval opponent batched in the kernels (:mod:`bg_env.kernels.opponents`): its
choice equals ``agents.players.pubeval``'s on positions of every phase, every opponent play in a
batched rollout is legal, the learner's results are plausible, and one seed gives one
rollout."""

from __future__ import annotations

import numpy as np
import pytest

from agents.players.pubeval import PubevalAgent, choose_play
from bg_env.kernels import batch
from bg_env.kernels.opponents import turn_start
from bg_env.game.game import PURE_PYTHON
from bg_env.rules.position import Position
from bg_env.kernels.pubeval import is_race, pubeval_best
from bg_env.envs.kernel_batch import KernelBatch

pytestmark = pytest.mark.skipif(PURE_PYTHON, reason="BG_ENV_PURE_PYTHON=1: no numba kernels")

ROLLS = [(a, b) for a in range(1, 7) for b in range(1, a + 1)]


def sweep_positions(games: int, seed: int = 7):
    """(position, dice) on roll in random games played to the end (both sides random)."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(games):
        pos = Position.start()
        while True:
            dice = (int(rng.integers(1, 7)), int(rng.integers(1, 7)))
            out.append((pos, dice))
            plays = pos.legal_plays(dice)
            result = plays[int(rng.integers(len(plays)))].result
            if not any(result.me[1:26]):
                break
            pos = result.swap()
    return out


def kernel_choice(pos: Position, dice) -> tuple[tuple, tuple]:
    me = np.array(pos.me, np.int64)
    opp = np.array(pos.opp, np.int64)
    res_me, res_opp, _, best = pubeval_best(me, opp, dice[0], dice[1], is_race(me, opp))
    return tuple(int(x) for x in res_me[best]), tuple(int(x) for x in res_opp[best])


def test_kernel_choice_equals_agents_pubeval_on_every_phase():
    cases = sweep_positions(12)
    bar = bearoff = race = 0
    for pos, dice in cases:
        chosen = choose_play(pos, dice).result
        assert kernel_choice(pos, dice) == (chosen.me, chosen.opp), (pos.position_id(), dice)
        bar += pos.me[25] > 0
        bearoff += not any(pos.me[7:26])
        race += pos.is_race()
    assert bar > 10 and bearoff > 10 and race > 10  # the sweep covers every phase


def test_kernel_choice_equals_pubeval_agent_with_its_plays():
    agent = PubevalAgent()
    for pos, dice in sweep_positions(3, seed=11)[::3]:
        plays = pos.legal_plays(dice)
        chosen = agent.choose_play(plays).result
        assert kernel_choice(pos, dice) == (chosen.me, chosen.opp)


def test_turn_start_takes_back_the_moves_played():
    me = np.array(Position.start().me, np.int64)
    opp = np.array(Position.start().opp, np.int64)
    s = np.zeros(batch.N_COLUMNS, np.int64)
    # 13/8 (action 12*6+4) then 6/1* with a blot of the opponent on our 1 point
    opp[24] -= 1
    opp[25 - 1] = 1
    start_me, start_opp = me.copy(), opp.copy()
    me[13] -= 1
    me[8] += 1
    me[6] -= 1
    me[1] += 1
    opp[24] = 0
    opp[25] += 1
    s[batch.N_PLAYED] = 2
    s[batch.PLAYED0] = 12 * 6 + 4
    s[batch.PLAYED0 + 1] = 5 * 6 + 4 + 150
    got_me, got_opp = np.empty(26, np.int64), np.empty(26, np.int64)
    turn_start(s, me, opp, got_me, got_opp)
    assert got_me.tolist() == start_me.tolist()
    assert got_opp.tolist() == start_opp.tolist()


def _after_action(me, opp, action):
    """The learner's board after its checker move ``action`` (mover's view)."""
    me, opp = me.copy(), opp.copy()
    source = action // 6 + 1
    dest = max(source - (action % 6 + 1), 0)
    me[source] -= 1
    me[dest] += 1
    if dest >= 1 and opp[25 - dest] == 1:
        opp[25 - dest] = 0
        opp[25] += 1
    return me, opp


def _rollout(seed: int, steps: int, num_envs: int = 16, check: bool = False):
    kb = KernelBatch(num_envs, opponent="pubeval", learner="player_0")
    kb.seed(seed)
    rng = np.random.default_rng(seed)
    obs = [kb.reset()]
    rewards, checked = [], 0
    g = kb.games
    for _ in range(steps):
        masks = kb.action_masks()
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        before = (g.state.copy(), g.me.copy(), g.opp.copy())
        o, r, d, _ = kb.step(actions)
        obs.append(o)
        rewards.append(r)
        if check:
            checked += _check_opponent_plays(before, g, actions, d)
    return np.array(obs), np.array(rewards), checked


def _check_opponent_plays(before, g, actions, dones) -> int:
    """Every opponent play completed within this step (learner's last move, one opponent
    turn, the learner on roll again) is a legal play for some roll and pubeval's choice
    for that roll. Returns how many were checked."""
    state, me, opp = before
    n = 0
    for i in range(len(actions)):
        s = state[i]
        if (dones[i] or s[batch.PHASE] != batch.P_MOVE or s[batch.MOVES_LEFT] != 1
                or g.state[i, batch.TURNS] != s[batch.TURNS] + 2):
            continue
        lme, lopp = _after_action(me[i], opp[i], actions[i])
        opp_start = Position(tuple(int(x) for x in lopp), tuple(int(x) for x in lme))
        now_me, now_opp = np.empty(26, np.int64), np.empty(26, np.int64)
        turn_start(g.state[i], g.me[i], g.opp[i], now_me, now_opp)
        played = (tuple(int(x) for x in now_opp), tuple(int(x) for x in now_me))
        legal = [roll for roll in ROLLS
                 if played in {(p.result.me, p.result.opp) for p in opp_start.legal_plays(roll)}]
        assert legal, f"game {i}: the opponent's play from {opp_start.position_id()} is illegal"
        assert any((choose_play(opp_start, roll).result.me, choose_play(opp_start, roll).result.opp)
                   == played for roll in legal)
        n += 1
    return n


def test_rollout_against_pubeval_is_legal_and_pubeval_wins():
    _, rewards, checked = _rollout(seed=3, steps=200, check=True)
    assert checked > 30
    finished = rewards[rewards != 0]
    assert len(finished) > 10
    assert set(np.unique(np.abs(finished))) <= {1.0, 2.0, 3.0}
    # a random learner against pubeval loses nearly every game
    assert (finished < 0).mean() > 0.8


def test_same_seed_same_rollout():
    obs_a, rew_a, _ = _rollout(seed=5, steps=60, num_envs=8)
    obs_b, rew_b, _ = _rollout(seed=5, steps=60, num_envs=8)
    obs_c, _, _ = _rollout(seed=6, steps=60, num_envs=8)
    assert np.array_equal(obs_a, obs_b) and np.array_equal(rew_a, rew_b)
    assert not np.array_equal(obs_a, obs_c)


def test_vector_envs_run_pubeval_on_the_kernels():
    gymnasium = pytest.importorskip("gymnasium")
    import bg_env  # noqa: F401  (registers the envs)
    from bg_env.envs.gym_vector import BackgammonVectorEnv
    from bg_env.envs.vector import BackgammonVecEnv, make_vec_env

    venv = make_vec_env(4, opponent="pubeval")
    assert isinstance(venv.unwrapped, BackgammonVecEnv) and venv.batch.opponent == "pubeval"
    genv = gymnasium.make_vec("bg_env/Backgammon-v0", num_envs=4, opponent="pubeval",
                              vectorization_mode="vector_entry_point")
    assert isinstance(genv.unwrapped if hasattr(genv, "unwrapped") else genv,
                      BackgammonVectorEnv)
    assert genv.batch.opponent == "pubeval"
    obs, _ = genv.reset(seed=0)
    assert obs.shape[0] == 4


def test_kernel_batch_refuses_other_opponents():
    with pytest.raises(ValueError, match="opponent="):
        KernelBatch(2, opponent="gnubg")
