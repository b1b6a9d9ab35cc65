"""The Tianshou recipe ``examples/tianshou_dqn.py``: the single-agent Gymnasium env (the
random opponent moves inside ``step``) in a wrapper that gives Tianshou's masked DQN its
``{"obs", "mask"}`` observation. Skipped when Tianshou is not installed
(``pip install -e ".[tianshou]"``)."""

from __future__ import annotations

from functools import partial
from pathlib import Path

import numpy as np
import pytest
import torch

pytest.importorskip("tianshou")

from tianshou.data import Collector, CollectStats, VectorReplayBuffer
from tianshou.env import DummyVectorEnv

from helpers import load_script  # noqa: E402

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def load_example(name: str):
    return load_script(EXAMPLES / f"{name}.py")


@pytest.fixture
def script():
    return load_example("tianshou_dqn")


def test_every_step_has_the_same_info_keys(script):
    env = script.make_env(script.parse_args(["--smoke"]))
    obs, info = env.reset(seed=0)
    infos = [info]
    rng = np.random.default_rng(0)
    terminated = truncated = False
    while not (terminated or truncated):
        action = int(rng.choice(np.flatnonzero(obs["mask"])))
        obs, reward, terminated, truncated, info = env.step(action)
        infos.append(info)
    assert {tuple(sorted(i)) for i in infos} == {("points", "winner")}
    assert all(i == {"points": 0, "winner": -1} for i in infos[:-1])
    final = infos[-1]
    assert final["winner"] in (0, 1) and final["points"] > 0
    assert reward == (final["points"] if final["winner"] == 0 else -final["points"])
    assert not obs["mask"].any()


def learner_rows(batch, seat: int):
    """The learner's transitions (rewards, done flags) in a buffer's batch: every row of a
    single-agent buffer; in a two-agent one, the rows the learner's seat acted in."""
    rew, done = np.asarray(batch.rew), np.asarray(batch.done)
    agent_id = getattr(batch.obs, "agent_id", None)
    if agent_id is None:
        return rew, done
    mine = np.asarray(agent_id) == f"player_{seat}"
    return rew[mine, seat], done[mine]


@pytest.mark.parametrize("opponent", ["random", "self"])
@pytest.mark.parametrize("seat", [0, 1])
def test_learner_transitions_carry_every_game_result(script, seat, opponent):
    """Tianshou credits a step's reward to its own transition: the learner's transitions
    must sum to the games' true results and its last one in each game must be done (a
    game that ends on the opponent's move, or the engine's forced move, included), against
    a random player and against a frozen copy of the learner."""
    args = script.parse_args(["--smoke", "--seat", f"player_{seat}", "--opponent", opponent])
    algorithm = script.build(args)
    other = script.Snapshot(algorithm.policy.model) if opponent == "self" else None
    envs = DummyVectorEnv([partial(script.make_env, args, other)])
    envs.seed(seat)
    buffer = VectorReplayBuffer(20_000, 1)
    collector = Collector[CollectStats](algorithm, envs, buffer, exploration_noise=True)
    collector.reset()
    games = 12
    collector.collect(n_episode=games)
    batch = buffer[np.arange(len(buffer))]
    done = np.asarray(batch.done)
    winner, points = (np.asarray(batch.info[k])[done] for k in ("winner", "points"))
    assert done.sum() == games and (winner >= 0).all() and (points > 0).all()
    truth = np.where(winner == seat, points, -points).sum()
    rewards, learner_done = learner_rows(batch, seat)
    assert rewards.sum() == truth
    assert learner_done.sum() == games


@pytest.mark.slow
def test_example_script_trains_one_epoch(script):
    """``python examples/tianshou_dqn.py --smoke``: one epoch of DQN, then test games."""
    out = script.main(["--smoke"])
    assert out["info"].train_step >= 200
    rewards = out["test_rewards"]
    assert len(rewards) == 2
    assert set(np.abs(rewards)) <= {1.0, 2.0, 3.0}  # every game played to its end


def _net_wanting(script, args, action: int):
    """The learner's Q-network with every output 0 but ``action``'s, 100."""
    net = script.build(args).policy.model
    with torch.no_grad():
        for param in net.parameters():
            param.zero_()
        [m for m in net.modules() if isinstance(m, torch.nn.Linear)][-1].bias[action] = 100.0
    return net


def test_the_snapshot_plays_only_legal_actions_whatever_it_prefers(script):
    # the network's favourite, action 0, is rarely legal: the mask must overrule it; an
    # illegal answer from the opponent raises (opponent_step), so whole games show it
    args = script.parse_args(["--smoke", "--seat", "either"])
    snapshot = script.Snapshot(_net_wanting(script, args, 0))
    env = script.make_env(args, snapshot)
    answers = []
    env.unwrapped.opponent = _recording(snapshot, answers)
    rng = np.random.default_rng(1)
    for game in range(4):
        obs, _ = env.reset(seed=game)
        done = False
        while not done:
            action = int(rng.choice(np.flatnonzero(obs["mask"])))
            obs, _, terminated, truncated, info = env.step(action)
            done = terminated or truncated
        assert info["points"] > 0
    assert len(answers) > 20 and all(legal for _, legal in answers)
    assert any(answer == 0 for answer, _ in answers)  # the favourite, where it is legal


def _recording(snapshot, answers: list):
    def opponent(env):
        answer = snapshot(env)
        mask = env.observe(env.agent_selection)["action_mask"]
        answers.append((answer, bool(mask[answer])))
        return answer
    return opponent


def test_the_snapshot_stays_frozen_until_refreshed(script):
    args = script.parse_args(["--smoke"])
    learner = script.build(args).policy.model
    snapshot = script.Snapshot(learner)
    before = {k: v.clone() for k, v in snapshot.net.state_dict().items()}
    with torch.no_grad():
        for param in learner.parameters():
            param.add_(1.0)  # the learner trains on
    assert all(torch.equal(before[k], v) for k, v in snapshot.net.state_dict().items())
    assert not snapshot.refresh(learner, epoch=1, every=2)  # one epoch: not yet
    assert all(torch.equal(before[k], v) for k, v in snapshot.net.state_dict().items())
    assert snapshot.refresh(learner, epoch=2, every=2)
    assert all(torch.equal(learner.state_dict()[k], v)
               for k, v in snapshot.net.state_dict().items())
    assert not any(p.requires_grad for p in snapshot.net.parameters())
    assert snapshot.net is not learner and not snapshot.net.training


@pytest.mark.slow
def test_example_script_self_play_trains_one_epoch(script):
    """``--smoke --opponent self``: the learner trains against its frozen first weights
    (one epoch: no refresh yet), then is tested against random."""
    out = script.main(["--smoke", "--opponent", "self", "--seat", "either"])
    snapshot = out["snapshot"]
    assert snapshot is not None and snapshot.epoch == 0
    assert out["info"].train_step >= 200
    assert set(np.abs(out["test_rewards"])) <= {1.0, 2.0, 3.0}


TINY = ["--epoch-steps", "100", "--collect-steps", "50", "--batch", "16", "--train-envs", "2",
        "--test-games", "2", "--hidden", "32", "--buffer", "2000"]


@pytest.mark.slow
def test_self_play_refreshes_the_snapshot_between_epochs(script):
    """Two tiny epochs: the trainer's ``training_fn`` copies the learner after the first
    (``snapshot.epoch == 1``), so the snapshot holds neither the first weights nor the
    last (the learner trained on in the second epoch)."""
    argv = ["--opponent", "self", "--epochs", "2", *TINY]
    np.random.seed(0)
    torch.manual_seed(0)  # as main() seeds before it builds: the same first weights
    first = script.build(script.parse_args(argv)).policy.model.state_dict()
    out = script.main(argv)
    snapshot, last = out["snapshot"].net.state_dict(), out["model"].state_dict()
    assert out["snapshot"].epoch == 1
    assert not all(torch.equal(first[k], v) for k, v in snapshot.items())
    assert not all(torch.equal(last[k], v) for k, v in snapshot.items())


def test_snapshot_every_is_refused_without_self_play(script, capsys):
    with pytest.raises(SystemExit):
        script.parse_args(["--snapshot-every", "2"])
    err = capsys.readouterr().err
    assert "--snapshot-every 2: only with --opponent self" in err and "here is random" in err
    assert script.parse_args(["--opponent", "self"]).snapshot_every == 1


@pytest.mark.parametrize("argv, steps", [([], 104), (["--train-envs", "10"], 100),
                                         (["--collect-steps", "1", "--train-envs", "3"], 3)])
def test_collection_steps_are_a_whole_number_per_training_env(script, argv, steps):
    # otherwise Tianshou's collector warns and collects extra transitions
    args = script.parse_args(argv)
    assert args.collect_steps == steps and args.collect_steps % args.train_envs == 0


@pytest.mark.parametrize("option", ["--train-envs", "--snapshot-every"])
def test_a_count_below_one_is_refused_by_name(script, option, capsys):
    with pytest.raises(SystemExit):
        script.parse_args([option, "0", "--opponent", "self"])
    assert f"{option} 0: expected 1 or more" in capsys.readouterr().err
