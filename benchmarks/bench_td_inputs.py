"""Where the time of the td search goes: the hand-made inputs, the network's layers, and the
rest (replies, features, Python), on the positions of ``bench_td_search.py``.

    python benchmarks/bench_td_inputs.py --positions 150 --seed 0
    python benchmarks/bench_td_inputs.py --model td160.pt   # another network

Every batch the network sees during ``search_choice`` (prune 8) is recorded by a forward
pre-hook; then the inputs (:func:`agents.players.td_inputs.extra_inputs`) and the layers
(``net.body``) are timed again on exactly those batches. To compare two versions of the
inputs' code, run this file with ``PYTHONPATH`` set to a checkout of each.
"""

from __future__ import annotations

import argparse
import time

import torch
from bench_td_search import positions

from agents.players.td import load_net
from agents.players.td_inputs import extra_inputs
from agents.players.td_search import search_choice


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=150)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--model", default="agents/models/td.pt")
    args = parser.parse_args(argv)
    torch.set_num_threads(1)
    net = load_net(args.model).eval()
    cases = [pos.legal_plays(dice) for pos, dice in positions(args.positions, args.seed)]
    search_choice(net, cases[0], 8)  # warm up (compiles the kernels)
    batches: list[torch.Tensor] = []
    hook = net.register_forward_pre_hook(lambda _, inputs: batches.append(inputs[0].clone()))
    start = time.perf_counter()
    for plays in cases:
        search_choice(net, plays, 8)
    total = time.perf_counter() - start
    hook.remove()
    rows = sum(len(b) for b in batches)
    start = time.perf_counter()
    extras = [extra_inputs(b.numpy()) for b in batches] if net.extras else []
    inputs = time.perf_counter() - start
    full = [torch.cat([b, torch.from_numpy(e)], dim=1) for b, e in zip(batches, extras)] \
        if net.extras else batches
    start = time.perf_counter()
    with torch.inference_mode():
        for x in full:
            net.body(x)
    layers = time.perf_counter() - start
    per = 1000 / len(cases)
    print(f"{args.model}: {len(cases)} searches, {rows} rows, {len(cases) / total:.1f} moves/s")
    print(f"  search    {total * per:7.2f} ms a move")
    print(f"  inputs    {inputs * per:7.2f} ms a move ({inputs / total:5.1%}), "
          f"{inputs / max(rows, 1) * 1e6:.2f} us a row")
    print(f"  layers    {layers * per:7.2f} ms a move ({layers / total:5.1%})")
    rest = total - inputs - layers
    print(f"  the rest  {rest * per:7.2f} ms a move ({rest / total:5.1%})")


if __name__ == "__main__":
    main()
