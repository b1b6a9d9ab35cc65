"""Timing for ``bg-env bench`` (:mod:`bg_env.bench.run`): rows timed by this process's CPU
time, in turns, and the speed targets as ratios of rows.

Why CPU time and turns: the rows run in one process, one thread each; on a machine shared
with other jobs the wall clock also counts the time spent waiting for a core, which
changes from one row to the next, and even the CPU time of a row grows when a job on the
other hardware thread of its core competes for it. Taking short turns (rounds of
:data:`TURN_SECONDS` per row) spreads any change of load over every row alike.
"""

from __future__ import annotations

import time
from typing import Callable

__all__ = ["TARGETS", "TURN_SECONDS", "rounds_for", "timed", "interleaved", "games_row",
           "target_ratios", "print_targets", "pick_outcome", "OPENSPIEL_ROW", "ENV_ROW", "VEC_ROW",
           "KERNEL_ROW", "GNUBG_ROW"]

OPENSPIEL_ROW = "OpenSpiel pyspiel"
ENV_ROW = "env(), PettingZoo's loop"
VEC_ROW = "vector env (64 games), as MaskablePPO reads it"
KERNEL_ROW = "legal plays: numba kernel (arrays)"
GNUBG_ROW = "legal plays: gnubg-nn (C)"
TURN_SECONDS = 0.1
"""About how long one turn of a row lasts (see the module docstring)."""
MIN_ROUNDS = 5

TARGETS = (
    ("env() random self-play, games/s", ENV_ROW, OPENSPIEL_ROW, 2.0),
    ("vector env (one process), games/s", VEC_ROW, OPENSPIEL_ROW, 10.0),
    ("legal-play kernel, calls/s", KERNEL_ROW, GNUBG_ROW, 1.0),
)
"""The speed targets: (what, row, baseline row, the ratio to reach)."""


def timed(fn: Callable[[], int], seconds: float) -> tuple[float, float]:
    """Call ``fn`` (returns steps done) until ``seconds`` of this process's CPU time pass;
    (calls/s, steps/s)."""
    fn()  # warm-up (and JIT compilation)
    n = steps = 0
    t0 = time.process_time()
    while time.process_time() - t0 < seconds:
        steps += fn()
        n += 1
    dt = time.process_time() - t0
    return n / dt, steps / dt


def rounds_for(seconds: float) -> int:
    """How many rounds :func:`interleaved` takes for ``seconds`` per row: turns of about
    :data:`TURN_SECONDS`, at least 5 rounds."""
    return max(MIN_ROUNDS, round(seconds / TURN_SECONDS))


def interleaved(rows: dict[str, Callable[[], tuple[int, int]]], seconds: float,
                rounds: int | None = None) -> dict[str, dict]:
    """Time every row's ``fn`` (returns ``(units, steps)`` done in one call) in turns:
    ``rounds`` rounds (:func:`rounds_for` by default), each row running
    ``seconds / rounds`` of CPU time in each.
    Returns ``{name: {"per_s", "steps_per_s", "round_per_s"}}``: units and steps per CPU
    second over all rounds, and the units per second of each round."""
    rounds = rounds or rounds_for(seconds)
    for fn in rows.values():
        fn()  # warm-up (and JIT compilation)
    share = seconds / rounds
    total = {name: [0, 0, 0.0] for name in rows}
    per_round: dict[str, list[float]] = {name: [] for name in rows}
    for _ in range(rounds):
        for name, fn in rows.items():
            units = steps = 0
            t0 = time.process_time()
            while True:
                u, st = fn()
                units, steps = units + u, steps + st
                dt = time.process_time() - t0
                if dt >= share:
                    break
            acc = total[name]
            acc[0], acc[1], acc[2] = acc[0] + units, acc[1] + steps, acc[2] + dt
            per_round[name].append(units / dt)
    return {name: {"per_s": u / dt, "steps_per_s": st / dt, "round_per_s": per_round[name]}
            for name, (u, st, dt) in total.items()}


def games_row(fn: Callable[[], int]) -> Callable[[], tuple[int, int]]:
    """A row of whole games: ``fn`` plays one and returns its steps."""
    return lambda: (1, fn())


def target_ratios(rows: dict[str, dict]) -> dict[str, dict]:
    """The speed targets (:data:`TARGETS`) from measured ``rows`` (as :func:`interleaved`
    returns them): ``{what: {"ratio", "low", "high", "target", "met", "row", "base"}}``
    (``low``/``high``: the lowest and highest ratio of one round), or ``{"skipped": why}``
    when a row is missing."""
    out: dict[str, dict] = {}
    for what, name, base, target in TARGETS:
        missing = [n for n in (name, base) if n not in rows]
        if missing:
            out[what] = {"skipped": f"{' and '.join(missing)} not measured", "target": target}
            continue
        r, b = rows[name], rows[base]
        ratio = r["per_s"] / b["per_s"]
        rounds = [x / y for x, y in zip(r.get("round_per_s", ()), b.get("round_per_s", ()))]
        low, high = _quartiles(rounds) if rounds else (ratio, ratio)
        out[what] = {"ratio": ratio, "low": low, "high": high, "target": target,
                     "met": ratio >= target, "row": name, "base": base}
    return out


def _quartiles(values: list[float]) -> tuple[float, float]:
    """The lower and upper quartile (nearest rank)."""
    ordered = sorted(values)
    last = len(ordered) - 1
    return ordered[round(0.25 * last)], ordered[round(0.75 * last)]


def print_targets(targets: dict[str, dict], skipped: dict[str, str]) -> None:
    print(f"\n{'speed target':36s} {'ratio':>7s} {'quartiles':>13s} {'target':>8s}")
    for what, t in targets.items():
        if "skipped" in t:
            why = "; ".join(f"{n}: {skipped[n]}" for n in skipped if n in t["skipped"])
            print(f"{what:36s} skipped ({why or t['skipped']}); target >= {t['target']:g}x")
            continue
        rounds = f"{t['low']:.2f}-{t['high']:.2f}"
        print(f"{what:36s} {t['ratio']:6.2f}x {rounds:>13s} {'>= %gx' % t['target']:>8s}  "
              f"{'met' if t['met'] else 'MISSED'}")
    print("ratios: row / baseline (OpenSpiel's games/s, gnubg-nn's calls/s), CPU time; "
          "quartiles: of the rounds' ratios")


def pick_outcome(outcomes, r: float):
    """The chance outcome that ``r`` (uniform in [0, 1)) falls on among ``outcomes``,
    ``[(action, probability), ...]`` as OpenSpiel's ``chance_outcomes()`` lists them: a
    plain scan, the cheapest weighted pick for 21 rolls.

    >>> pick_outcome([(0, 0.25), (1, 0.75)], 0.3)
    1
    """
    for action, probability in outcomes:
        r -= probability
        if r < 0:
            return action
    return outcomes[-1][0]
