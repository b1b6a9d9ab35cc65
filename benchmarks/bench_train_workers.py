"""Training speed with 1..N worker processes: PPO games per minute (and TD with ``--td``).

PPO: the settings of the shipped ``ppo`` config, ``agents/configs/ppo.yaml`` (16 games side
by side, rollouts of 2048 steps),
``--rollouts`` rollouts and their updates per worker count, timed after the workers have
started. Reported: games finished per minute of training (rollouts and updates), and the
rollout phase alone (steps per second while the games are played). Same seed for every
worker count, so each plays the same games: only the time differs.

TD (``--td``): ``configs/td.yaml``'s settings, ``--td-games`` self-play games and the
learner's updates per worker count (the trainer's loop without evaluations and
checkpoints), games per minute after two rounds of warm-up (the workers' start-up is not
counted).

``--device cuda`` (or ``auto``): the networks learn on the GPU, as the trainers' ``device``
key does (TD: the learner's copy; self-play plays with a CPU copy refreshed after each
update).

    python benchmarks/bench_train_workers.py --workers 1 2 [--rollouts 3] [--td]  # --rollouts 0: TD only

Nothing is asserted; tests/agents/ checks that the runs are right.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from agents.config import load_config  # noqa: E402

CONFIGS = Path(__file__).resolve().parents[1] / "configs"


def ppo_speed(workers: int, rollouts: int, device: str) -> dict:
    import numpy as np
    import torch
    from stable_baselines3.common.callbacks import BaseCallback

    from agents.training.device import resolve_device
    from agents.training.train_ppo import PPOConfig, new_model, snapshot, make_vec_env

    cfg = load_config(PPOConfig, str(CONFIGS / "ppo.yaml"),
                      {"workers": workers, "device": device})
    torch.set_num_threads(cfg.torch_threads)
    clock = {"games": 0, "rollout": 0.0}

    class Clock(BaseCallback):
        def _on_rollout_start(self) -> None:
            self.t = time.perf_counter()

        def _on_rollout_end(self) -> None:
            clock["rollout"] += time.perf_counter() - self.t

        def _on_step(self) -> bool:
            clock["games"] += int(np.sum(self.locals["dones"]))
            return True

    venv = make_vec_env(cfg)
    try:
        model = new_model(cfg, venv, cfg.learning_rate, resolve_device(cfg.device))
        snapshot(model, venv, {"snapshots": []}, cfg.pool_size)
        t0 = time.perf_counter()
        model.learn(rollouts * cfg.n_envs * cfg.n_steps, callback=Clock())
        seconds = time.perf_counter() - t0
    finally:
        venv.close()
    steps = rollouts * cfg.n_envs * cfg.n_steps
    return {"workers": workers, "device": str(model.device), "games": clock["games"],
            "seconds": round(seconds, 1),
            "games_per_minute": round(60 * clock["games"] / seconds),
            "rollout_steps_per_second": round(steps / clock["rollout"])}


def td_speed(workers: int, games: int, device: str) -> dict:
    import numpy as np
    import torch

    from agents.training.device import resolve_device
    from agents.players.td import TDNet
    from agents.training.train_td import TDConfig, game_stream, worker_pool

    cfg = load_config(TDConfig, str(CONFIGS / "td.yaml"), {"workers": workers, "device": device})
    warm_up = 2 * workers * cfg.batch_games  # the workers' start-up is not timed
    cfg.games = warm_up + games
    torch.set_num_threads(cfg.torch_threads)
    torch.manual_seed(cfg.seed)
    where = resolve_device(cfg.device)
    player = TDNet(cfg.hidden, cfg.layers, cfg.extras)  # as the trainer: plays on the CPU, learns on `where`
    net = player if where == "cpu" else TDNet(cfg.hidden, cfg.layers, cfg.extras).to(where)
    net.load_state_dict(player.state_dict())
    opt = torch.optim.Adam(net.parameters(), lr=cfg.lr)
    pool = worker_pool(workers, player) if workers > 1 else None
    stream = game_stream(net if pool is not None else player, cfg,
                         np.random.default_rng(cfg.seed), 1, pool)
    batch_x, batch_t = [], []
    try:
        for number, x, targets in stream:  # the trainer's loop, without its bookkeeping
            batch_x.append(torch.from_numpy(x))
            batch_t.append(targets)
            if len(batch_x) == cfg.batch_games:
                loss = torch.nn.functional.mse_loss(net(torch.cat(batch_x).to(where)),
                                                    torch.cat(batch_t).to(where))
                opt.zero_grad()
                loss.backward()
                opt.step()
                if player is not net:
                    player.load_state_dict(net.state_dict())
                batch_x, batch_t = [], []
            if number == warm_up:
                t0 = time.perf_counter()
        seconds = time.perf_counter() - t0
    finally:
        if pool is not None:
            pool.shutdown()
    return {"workers": workers, "device": where, "games": games, "seconds": round(seconds, 1),
            "games_per_minute": round(60 * games / seconds)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--rollouts", type=int, default=3, help="0: no PPO measurement")
    parser.add_argument("--td", action="store_true", help="also TD self-play")
    parser.add_argument("--td-games", type=int, default=400)
    parser.add_argument("--device", default="cpu", choices=("cpu", "cuda", "auto"),
                        help="where the networks learn (the configs' 'device' key)")
    args = parser.parse_args()
    print(f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}", flush=True)
    for n in args.workers if args.rollouts > 0 else []:
        print("ppo", ppo_speed(n, args.rollouts, args.device), flush=True)
    if args.td:
        for n in args.workers:
            print("td ", td_speed(n, args.td_games, args.device), flush=True)


if __name__ == "__main__":
    main()
