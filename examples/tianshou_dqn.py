"""DQN against a random opponent on backgammon, with Tianshou 2.x.

The PettingZoo env goes into Tianshou's own ``PettingZooEnv`` wrapper as it comes: Tianshou
reads ``observation["action_mask"]``, its DQN policy picks only legal actions and the random
opponent samples from the mask. The one addition is :class:`BackgammonTianshouEnv`, which
gives every step the same info keys (Tianshou's trainer stops on the end-of-game infos
otherwise). One learner seat, one random seat::

    python examples/tianshou_dqn.py --epochs 20 --train-envs 8

A quick check that everything is wired (a few seconds)::

    python examples/tianshou_dqn.py --smoke

Needs ``pip install "bg_env[tianshou]"``. The cube is off unless ``--cube``.
"""

from __future__ import annotations

import argparse
from functools import partial

import numpy as np
import torch
from tianshou.algorithm import (
    DQN,
    MARLRandomDiscreteMaskedOffPolicyAlgorithm,
    MultiAgentOffPolicyAlgorithm,
)
from tianshou.algorithm.modelfree.dqn import DiscreteQLearningPolicy
from tianshou.algorithm.optim import AdamOptimizerFactory
from tianshou.data import Collector, CollectStats, VectorReplayBuffer
from tianshou.env import DummyVectorEnv
from tianshou.env.pettingzoo_env import PettingZooEnv
from tianshou.trainer import OffPolicyTrainerParams
from tianshou.utils.net.common import Net

from bg_env import backgammon_v0

SEATS = ("player_0", "player_1")


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--seat", choices=SEATS, default="player_0", help="the learner's seat")
    p.add_argument("--epochs", type=int, default=10)
    p.add_argument("--epoch-steps", type=int, default=5000, help="env steps per epoch")
    p.add_argument("--collect-steps", type=int, default=100, help="env steps per collection")
    p.add_argument("--updates-per-step", type=float, default=0.1)
    p.add_argument("--batch", type=int, default=64)
    p.add_argument("--buffer", type=int, default=50_000)
    p.add_argument("--train-envs", type=int, default=8)
    p.add_argument("--test-games", type=int, default=50, help="games against random per test")
    p.add_argument("--hidden", type=int, nargs="+", default=[128, 128])
    p.add_argument("--lr", type=float, default=1e-4)
    p.add_argument("--gamma", type=float, default=0.99)
    p.add_argument("--eps-train", type=float, default=0.1)
    p.add_argument("--max-turns", type=int, default=None, help="truncate games after N turns")
    p.add_argument("--cube", action="store_true", help="play with the doubling cube")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--smoke", action="store_true", help="one tiny epoch (a wiring check)")
    args = p.parse_args(argv)
    if args.smoke:
        args.epochs, args.epoch_steps, args.collect_steps, args.batch = 1, 200, 50, 16
        args.train_envs, args.test_games, args.hidden, args.buffer = 2, 2, [32], 2000
    return args


class BackgammonTianshouEnv(PettingZooEnv):
    """Tianshou's PettingZoo wrapper with the same info keys at every step.

    The env names the result only when a game ends (``outcome``, ``winner``, ...). Tianshou's
    replay buffer fills a key's earlier steps with ``None``, and its trainer stops at the
    first ``None`` ("Encountered NaNs in buffer"). So every step carries ``points`` (0
    until the end) and ``winner`` (the winner's seat, 0 or 1; -1 until the end).
    """

    def reset(self, *args, **kwargs):
        obs, info = super().reset(*args, **kwargs)
        return obs, _uniform_info(info)

    def step(self, action):
        obs, rewards, terminated, truncated, info = super().step(action)
        return obs, rewards, terminated, truncated, _uniform_info(info)


def _uniform_info(info: dict) -> dict:
    winner = info.get("winner")
    return {"points": int(info.get("points", 0)),
            "winner": SEATS.index(winner) if winner in SEATS else -1}


def make_env(args: argparse.Namespace) -> PettingZooEnv:
    """The PettingZoo env, as it comes, in Tianshou's wrapper."""
    config = {"cube": args.cube}
    if args.max_turns:
        config["max_turns"] = args.max_turns
    return BackgammonTianshouEnv(backgammon_v0.env(**config))


def build(args: argparse.Namespace) -> MultiAgentOffPolicyAlgorithm:
    """The learner (DQN) in its seat and a masked random player in the other."""
    env = make_env(args)
    obs_space = env.observation_space["observation"]
    net = Net(state_shape=obs_space.shape, action_shape=env.action_space.n,
              hidden_sizes=args.hidden)
    policy = DiscreteQLearningPolicy(model=net, action_space=env.action_space,
                                     eps_training=args.eps_train, eps_inference=0.0)
    learner = DQN(policy=policy, optim=AdamOptimizerFactory(lr=args.lr), gamma=args.gamma,
                  target_update_freq=320)
    opponent = MARLRandomDiscreteMaskedOffPolicyAlgorithm(action_space=env.action_space)
    seats = [learner, opponent] if args.seat == SEATS[0] else [opponent, learner]
    return MultiAgentOffPolicyAlgorithm(algorithms=seats, env=env)


def main(argv: list[str] | None = None) -> dict:
    """Train; return the training summary and the last test's rewards (learner's side)."""
    args = parse_args(argv)
    np.random.seed(args.seed)
    torch.manual_seed(args.seed)
    train_envs = DummyVectorEnv([partial(make_env, args)] * args.train_envs)
    test_envs = DummyVectorEnv([partial(make_env, args)] * min(args.test_games, 10))
    train_envs.seed(args.seed)
    test_envs.seed(args.seed + 1)
    algorithm = build(args)
    seat = SEATS.index(args.seat)
    train_collector = Collector[CollectStats](
        algorithm, train_envs, VectorReplayBuffer(args.buffer, len(train_envs)),
        exploration_noise=True)
    test_collector = Collector[CollectStats](algorithm, test_envs)
    train_collector.reset()
    train_collector.collect(n_step=args.batch * args.train_envs)
    info = algorithm.run_training(OffPolicyTrainerParams(
        training_collector=train_collector,
        test_collector=test_collector,
        max_epochs=args.epochs,
        epoch_num_steps=args.epoch_steps,
        collection_step_num_env_steps=args.collect_steps,
        test_step_num_episodes=args.test_games,
        batch_size=args.batch,
        update_step_num_gradient_steps_per_sample=args.updates_per_step,
        multi_agent_return_reduction=lambda rewards: rewards[:, seat],
        show_progress=False,
    ))
    algorithm.eval()
    test = test_collector.collect(n_episode=args.test_games, reset_before_collect=True)
    rewards = np.asarray(test.returns)[:, seat]
    print(f"{args.seat} vs random over {len(rewards)} games: {rewards.mean():+.3f} points/game, "
          f"{(rewards > 0).mean():.0%} won; {info.train_step} training steps")
    return {"info": info, "test_rewards": rewards}

if __name__ == "__main__":
    main()
