"""Multi-agent PPO with action masking on backgammon, with RLlib (Ray).

One machine (starts a local Ray)::

    python examples/rllib_ppo.py --iterations 200 --env-runners 2

A Ray cluster (run on a node of it, e.g. after ``ray start --head`` there and
``ray start --address=HEAD:6379`` on the others; every node needs ``pip install
"bg_env[rllib]"``)::

    python examples/rllib_ppo.py --address auto --env-runners 32 --iterations 1000

A quick check that everything is wired (one tiny iteration, a few seconds once Ray is up)::

    python examples/rllib_ppo.py --smoke

Needs ``pip install "bg_env[rllib]"``. One policy plays both seats (self-play) unless
``--per-seat``; the cube is off unless ``--cube``.

``--seed`` repeats a run only with ``PYTHONHASHSEED`` fixed as well: RLlib iterates over sets
(of agents, of modules) whose order follows Python's string hashing, which is salted per
process. Set it for the driver (``PYTHONHASHSEED=0 python examples/rllib_ppo.py ...``); the
script passes it on to the Ray workers (``runtime_env`` ``env_vars``), which on a cluster do
not inherit the driver's environment.
"""

from __future__ import annotations

import argparse
import json
import os

import ray

from bg_env.integrations.rllib import ppo_config


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--address", default=None,
                   help="Ray cluster to join (ray.init(address=...), e.g. 'auto' or "
                        "'ray://HEAD:10001'); default: start a local Ray")
    p.add_argument("--num-cpus", type=int, default=None,
                   help="CPUs for a local Ray (ignored with --address)")
    p.add_argument("--iterations", type=int, default=100, help="training iterations")
    p.add_argument("--env-runners", type=int, default=2,
                   help="sampling actors (0: sample in the driver process)")
    p.add_argument("--batch", type=int, default=4000, help="env steps per training iteration")
    p.add_argument("--minibatch", type=int, default=500, help="SGD minibatch size")
    p.add_argument("--epochs", type=int, default=4, help="passes over each batch")
    p.add_argument("--hidden", type=int, nargs="+", default=[128, 128], help="hidden layer sizes")
    p.add_argument("--max-turns", type=int, default=None, help="truncate games after N turns")
    p.add_argument("--cube", action="store_true", help="play with the doubling cube")
    p.add_argument("--per-seat", action="store_true",
                   help="one policy per seat instead of self-play")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--checkpoint", default=None, help="save the algorithm here at the end")
    p.add_argument("--smoke", action="store_true",
                   help="one tiny iteration on a 1-CPU local Ray (a wiring check)")
    args = p.parse_args(argv)
    if args.smoke:
        args.iterations, args.env_runners, args.batch, args.minibatch = 1, 0, 128, 64
        args.epochs, args.hidden, args.max_turns = 1, [32], args.max_turns or 8
        args.num_cpus = args.num_cpus or 1
    return args


def build(args: argparse.Namespace):
    """The PPO algorithm the arguments describe."""
    env_config = {"cube": args.cube}
    if args.max_turns:
        env_config["max_turns"] = args.max_turns
    config = (
        ppo_config(env_config, self_play=not args.per_seat, hidden=tuple(args.hidden))
        .env_runners(num_env_runners=args.env_runners)
        .training(train_batch_size_per_learner=args.batch, minibatch_size=args.minibatch,
                  num_epochs=args.epochs)
        .debugging(seed=args.seed)
    )
    return config.build_algo()


def summary(result: dict) -> dict:
    """The figures of one training iteration worth a line."""
    runners, learners = result.get("env_runners", {}), result.get("learners", {})
    line = {
        "iteration": result.get("training_iteration"),
        "env_steps": runners.get("num_env_steps_sampled_lifetime"),
        "episodes": runners.get("num_episodes_lifetime"),
        "episode_len_mean": runners.get("episode_len_mean"),
    }
    for policy, stats in sorted(learners.items()):
        if policy != "__all_modules__" and "policy_loss" in stats:
            line[f"{policy}/policy_loss"] = round(float(stats["policy_loss"]), 4)
            line[f"{policy}/entropy"] = round(float(stats["entropy"]), 4)
    return line


def ray_init_kwargs(args: argparse.Namespace) -> dict:
    """``ray.init``'s arguments: the cluster to join or a local Ray's size, and the driver's
    ``PYTHONHASHSEED`` (when set) for every worker, so that ``--seed`` repeats a run."""
    if args.address:
        kwargs = {"address": args.address}
    else:
        kwargs = {"num_cpus": args.num_cpus, "include_dashboard": False}
    if "PYTHONHASHSEED" in os.environ:
        kwargs["runtime_env"] = {"env_vars": {"PYTHONHASHSEED": os.environ["PYTHONHASHSEED"]}}
    return kwargs


def main(argv: list[str] | None = None) -> dict:
    """Train; return the last iteration's result (RLlib's dict)."""
    args = parse_args(argv)
    ray.init(**ray_init_kwargs(args))
    try:
        algo = build(args)
        result: dict = {}
        for _ in range(args.iterations):
            result = algo.train()
            print(json.dumps(summary(result)), flush=True)
        if args.checkpoint:
            print("saved", algo.save_to_path(args.checkpoint))
        algo.stop()
        return result
    finally:
        ray.shutdown()


if __name__ == "__main__":
    main()
