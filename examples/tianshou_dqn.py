"""DQN on backgammon against a random opponent or itself, with Tianshou 2.x.

Tianshou's ``PettingZooEnv`` credits each step's reward to the agent that just acted (it
returns the env's rewards of the last step; thu-ml/tianshou#399). In backgammon a game often
ends on the other seat's move (and the engine plays forced moves itself), so through that
wrapper the learner's last transition would get reward 0, not be marked done, and have the
opponent's observation as its next one: about half the final rewards would be lost.

So the learner's env here is single-agent: ``gym.make("bg_env/Backgammon-v0",
opponent="random")`` plays the opponent inside ``step``, and every game's result lands on the
learner's own last transition, marked done. :class:`BackgammonTianshouEnv` gives it the
observation Tianshou's masked-action policies read (``{"obs": ..., "mask": ...}``, as
``PettingZooEnv`` does) and the same info keys at every step (Tianshou's trainer stops on the
end-of-game infos otherwise). One learner seat, one random seat::

    python examples/tianshou_dqn.py --epochs 20 --train-envs 8

Self-play (``--opponent self``): the other seat is a frozen copy of the learner's Q-network
(:class:`Snapshot`, greedy over its legal actions, from its own seat's observation), which
the learner's weights replace every ``--snapshot-every`` epochs; the game's result still
lands on the learner's own last transition. The tests are against random, as before::

    python examples/tianshou_dqn.py --opponent self --seat either --epochs 20 --train-envs 8

A quick check that everything is wired (a few seconds)::

    python examples/tianshou_dqn.py --smoke

Needs ``pip install "bg_env[tianshou]"``. The cube is off unless ``--cube``.
"""

from __future__ import annotations

import argparse
import copy
from functools import partial

import gymnasium as gym
import numpy as np
import torch
from tianshou.algorithm import DQN
from tianshou.algorithm.modelfree.dqn import DiscreteQLearningPolicy
from tianshou.algorithm.optim import AdamOptimizerFactory
from tianshou.data import Collector, CollectStats, VectorReplayBuffer
from tianshou.env import DummyVectorEnv
from tianshou.trainer import OffPolicyTrainerParams
from tianshou.utils.net.common import Net

import bg_env  # noqa: F401  (registers bg_env/Backgammon-v0)

SEATS = ("player_0", "player_1")
EITHER = "either"  # the learner's seat drawn at each game


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--seat", choices=SEATS + (EITHER,), default="player_0",
                   help="the learner's seat (either: drawn at each game)")
    p.add_argument("--opponent", choices=("random", "self"), default="random",
                   help="the other seat in training: random, or a frozen copy of the learner")
    p.add_argument("--snapshot-every", type=int, default=None,
                   help="with --opponent self: epochs between copies of the learner (1)")
    p.add_argument("--epochs", type=int, default=10)
    p.add_argument("--epoch-steps", type=int, default=5000, help="env steps per epoch")
    p.add_argument("--collect-steps", type=int, default=100,
                   help="env steps per collection (rounded up to a multiple of --train-envs)")
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
    if args.snapshot_every is None:
        args.snapshot_every = 1
    elif args.opponent != "self":
        p.error(f"--snapshot-every {args.snapshot_every}: only with --opponent self "
                f"(the opponent here is {args.opponent})")
    for name in ("snapshot_every", "train_envs"):
        if getattr(args, name) < 1:
            p.error(f"--{name.replace('_', '-')} {getattr(args, name)}: expected 1 or more")
    if args.smoke:
        args.epochs, args.epoch_steps, args.collect_steps, args.batch = 1, 200, 50, 16
        args.train_envs, args.test_games, args.hidden, args.buffer = 2, 2, [32], 2000
    # Tianshou's collector takes the same number of steps from every env (and warns otherwise)
    args.collect_steps = -(-args.collect_steps // args.train_envs) * args.train_envs
    return args


class BackgammonTianshouEnv(gym.Wrapper):
    """The single-agent env with the observation and infos Tianshou's DQN expects.

    The observation is ``{"obs": the learner's vector, "mask": its legal actions}``: Tianshou's
    DQN policy reads ``obs.mask`` (greedy and random actions both stay legal). The env names
    the result only when a game ends (``outcome``, ``winner``, ...); Tianshou's replay buffer
    fills a key's earlier steps with ``None`` and its trainer stops at the first ``None``
    ("Encountered NaNs in buffer"). So every step's info is ``points`` (0 until the end) and
    ``winner`` (the winner's seat, 0 or 1; -1 until the end).
    """

    def __init__(self, env: gym.Env):
        super().__init__(env)
        self.observation_space = gym.spaces.Dict({
            "obs": env.observation_space,
            "mask": gym.spaces.MultiBinary(int(env.action_space.n)),
        })

    def reset(self, **kwargs):
        obs, info = self.env.reset(**kwargs)
        return _masked(obs, info), _uniform_info(info)

    def step(self, action):
        obs, reward, terminated, truncated, info = self.env.step(action)
        return _masked(obs, info), reward, terminated, truncated, _uniform_info(info)


def _masked(obs: np.ndarray, info: dict) -> dict:
    return {"obs": obs, "mask": info["action_mask"].astype(bool)}


def _uniform_info(info: dict) -> dict:
    winner = info.get("winner")
    return {"points": int(info.get("points", 0)),
            "winner": SEATS.index(winner) if winner in SEATS else -1}


class Snapshot:
    """The other seat in self-play: a frozen copy of a Q-network, greedy over the legal
    actions of the seat to act, from that seat's own observation (the env encodes each
    seat's view alike, so one network plays both). The Gymnasium env calls it with its
    two-agent env (``opponent=f``, ``f(env) -> action``); it draws nothing at random."""

    def __init__(self, net: torch.nn.Module):
        self.net = copy.deepcopy(net).eval()
        self.net.requires_grad_(False)
        self.epoch = 0  # the learner's epoch at the last copy

    def refresh(self, net: torch.nn.Module, epoch: int, every: int) -> bool:
        """Copy ``net``'s weights when ``every`` epochs have passed since the last copy."""
        if epoch - self.epoch < every:
            return False
        self.net.load_state_dict(net.state_dict())
        self.epoch = epoch
        return True

    @torch.no_grad()
    def __call__(self, env) -> int:
        obs = env.observe(env.agent_selection)
        q = self.net(obs["observation"][None])[0][0].numpy().astype(np.float64)
        q[obs["action_mask"] == 0] = -np.inf
        return int(np.argmax(q))


def make_env(args: argparse.Namespace, opponent=None) -> BackgammonTianshouEnv:
    """The learner's seat against ``opponent`` (a random player by default, or a
    :class:`Snapshot`), who moves inside ``step``; an action outside the mask raises (a
    masking bug shows at once instead of scoring a forfeit)."""
    config = {"cube": args.cube}
    if args.max_turns:
        config["max_turns"] = args.max_turns
    env = gym.make("bg_env/Backgammon-v0", opponent=opponent or "random",
                   learner=None if args.seat == EITHER else args.seat,
                   illegal_action="raise", **config)
    return BackgammonTianshouEnv(env)


def build(args: argparse.Namespace) -> DQN:
    """The learner: DQN with Tianshou's masked Q-learning policy."""
    env = make_env(args)
    net = Net(state_shape=env.observation_space["obs"].shape, action_shape=env.action_space.n,
              hidden_sizes=args.hidden)
    policy = DiscreteQLearningPolicy(model=net, action_space=env.action_space,
                                     eps_training=args.eps_train, eps_inference=0.0)
    return DQN(policy=policy, optim=AdamOptimizerFactory(lr=args.lr), gamma=args.gamma,
               target_update_freq=320)


def main(argv: list[str] | None = None) -> dict:
    """Train; return the training summary, the last test's returns (the learner's), the
    self-play snapshot (``None`` against random) and the trained Q-network."""
    args = parse_args(argv)
    np.random.seed(args.seed)
    torch.manual_seed(args.seed)
    algorithm = build(args)
    model = algorithm.policy.model
    # in-process envs (DummyVectorEnv): every training env's opponent is this one snapshot
    snapshot = Snapshot(model) if args.opponent == "self" else None
    train_envs = DummyVectorEnv([partial(make_env, args, snapshot)] * args.train_envs)
    test_envs = DummyVectorEnv([partial(make_env, args)] * min(args.test_games, 10))
    train_envs.seed(args.seed)
    test_envs.seed(args.seed + 1)

    def training_fn(epoch: int, step: int) -> None:
        if snapshot is not None:
            snapshot.refresh(model, epoch - 1, args.snapshot_every)
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
        show_progress=False,
        training_fn=training_fn,
    ))
    algorithm.eval()
    test = test_collector.collect(n_episode=args.test_games, reset_before_collect=True)
    rewards = np.asarray(test.returns)
    trained = "self-play" if snapshot else "random"
    print(f"{args.seat} (trained against {trained}) vs random over {len(rewards)} games: "
          f"{rewards.mean():+.3f} points/game, {(rewards > 0).mean():.0%} won; "
          f"{info.train_step} training steps")
    return {"info": info, "test_rewards": rewards, "snapshot": snapshot, "model": model}


if __name__ == "__main__":
    main()
