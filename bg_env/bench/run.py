"""``bg-env bench``: speed side by side, in one run, on this machine.

Random self-play with the cube off through each layer (the core, the raw AEC env,
``env()`` with wrappers, the Gymnasium env, the vector env, and the kernels alone with no
Python between decisions: :mod:`~bg_env.bench.kernel_rows`) and legal-play generation
(the pure-Python generator, the numba fast path when present, and GNU Backgammon's C
generator through gnubg-nn when installed). OpenSpiel (``pyspiel``) is measured too when
installed (the optional ``[bench]`` extra), and so is pgx's JAX backgammon: 256 games
stepped at once by ``jax.jit(jax.vmap(step))`` on the CPU, compile time left out. A row
whose library is missing is skipped with a note. Ratios are to OpenSpiel when it was
measured, else to the raw env; legal-play calls to gnubg-nn, else to the pure-Python
generator.

Timing (:mod:`bg_env.bench.timing`): the rows take turns of about 0.1 s, ``seconds`` each
in all, timed by this process's CPU time, not the wall clock (the machine may be shared);
pgx, which runs JAX's threads, keeps its own wall-clock loop. A legal-play row times
blocks of :data:`MOVEGEN_BLOCK` calls, not single calls, so that reading the clock adds
next to nothing to a call of a few microseconds. Below the table, the speed
targets (``TARGETS``), each with its ratio and the quartiles of the rounds' ratios:
``env()`` and the vector env against OpenSpiel, the numba legal-play kernel against
gnubg-nn's move generator (both given their input already converted: int8 arrays for the
kernel, gnubg's board for gnubg-nn). Both list every distinct legal play of the same 500
positions and rolls (met in random games; the counts agree on every one): gnubg-nn's
``moves`` as a tuple of the results' position keys (strings), the kernel as arrays of the
result boards of both sides and of each play's moves. ``bg-env bench --targets`` measures
only the rows these need.

Every self-play row uses the same random agent: a uniform pick among the legal actions
from Python's ``random.Random`` (``legal[rnd.randrange(len(legal))]``; a numpy
``rng.choice`` per decision costs more than a step of these envs, and would mostly
measure itself). OpenSpiel's chance nodes are sampled from the same generator by a plain
scan of ``chance_outcomes()`` (:func:`pick_outcome`). The vector env picks for all its
games at once with numpy (the largest random key among the legal actions, float32 keys).

Each library is driven by its own documented loop: the AEC rows by PettingZoo's (``for
agent in env.agent_iter()``, ``env.last()``, a random legal action from
``obs["action_mask"]`` or ``None`` once the agent is done, ``env.step``), OpenSpiel by its
own (``is_chance_node()`` and ``chance_outcomes()``, ``legal_actions()``,
``apply_action``), the Gymnasium env by Gymnasium's (``reset``, then ``step`` until
``terminated or truncated``), and the vector env of the target row as MaskablePPO reads it:
``make_vec_env(64)`` as it comes (in SB3's ``VecMonitor``), its masks read by
sb3-contrib's ``get_action_masks``. PettingZoo's loop gets an encoded observation at every
decision (``last()`` builds it); OpenSpiel's asks only for ``state.legal_actions()`` and
never encodes an observation tensor, so the comparison leans towards OpenSpiel.

Every variant gets a row too (``variant_rows``, or ``bg-env bench --variants`` for those
rows alone): the same AEC loop through ``env(variant=V, cube=False)``, in decisions/s (a
decision is a step of the loop) and games/s, with its decisions/s as a ratio to standard's.

The search loop (:mod:`~bg_env.bench.search_rows`): random games on bg_env's
:class:`~bg_env.game.search.SearchState` and on OpenSpiel's state, a ``clone()`` at every
decision, rolls applied as chance actions; games/s.

Last, MaskablePPO (sb3-contrib, when installed) trains for about 2048 steps on the vector
env: the training throughput, and the share of the wall time spent inside the env's calls
(measured by a wrapper), over the whole of ``learn()`` and over the rollouts alone.
"""

from __future__ import annotations

import json
import math
import platform
import random
from typing import Callable

import numpy as np

from .pgx_rows import pgx_games as _pgx
from .kernel_rows import kernel_game
from .search_rows import search_rows
from .timing import (
    ENV_ROW,
    GNUBG_ROW,
    KERNEL_ROW,
    OPENSPIEL_ROW,
    VEC_ROW,
    games_row,
    interleaved,
    pick_outcome,
    print_targets,
    rounds_for,
    target_ratios,
    timed,
)
from .vector_rows import ppo_training, random_legal, vec_stepper

__all__ = ["run_bench", "variant_rows", "random_legal"]

PGX_BATCH = 256
MOVEGEN_BLOCK = 50
"""Legal-play calls per timed step of a row: the CPU clock is read once per block, since
reading it (a system call) can cost as much as a call (2.5 us on a virtual machine), and
would add the same constant to both sides of the kernel-vs-gnubg ratio."""
PGX_ROW = f"pgx (JAX, vmap {PGX_BATCH}, CPU)"


def _cpu() -> str:
    try:
        with open("/proc/cpuinfo") as fh:
            for line in fh:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def _core_game(seed_box=[0]) -> int:
    from bg_env.game.game import Game, Phase, Rules

    seed_box[0] += 1
    rng = np.random.default_rng(seed_box[0])
    game = Game(Rules(cube=False))
    game.opening(rng)
    steps = 0
    while game.phase != Phase.OVER:
        plays = game.legal_continuations()
        game.play(plays[int(rng.integers(len(plays)))], rng)
        steps += 1
    return steps


def _aec_game(env, seed_box=[0]) -> int:
    """One game of the typical PettingZoo loop (``last()``, mask, ``step``)."""
    seed_box[0] += 1
    return random_aec_game(env, seed_box[0])


def random_aec_game(env, seed: int) -> int:
    """One game of random self-play through PettingZoo's documented loop (``for agent in
    env.agent_iter()``, ``env.last()``, a random legal action from the mask or ``None`` once
    the agent is done, ``env.step``) from ``reset(seed=seed)``; returns the decisions."""
    env.reset(seed=seed)
    pick = random.Random(seed).randrange
    steps = 0
    for _ in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            action = None
        else:
            legal = obs["action_mask"].nonzero()[0]
            action = int(legal[pick(len(legal))])
            steps += 1
        env.step(action)
    return steps


def _gym_episode(env, seed_box=[0]) -> int:
    seed_box[0] += 1
    env.reset(seed=seed_box[0])
    pick = random.Random(seed_box[0]).randrange
    steps, done = 0, False
    while not done:
        legal = env.unwrapped.action_masks().nonzero()[0]
        _, _, term, trunc, _ = env.step(int(legal[pick(len(legal))]))
        done = term or trunc
        steps += 1
    return steps


def _movegen_cases(n: int = 500):
    from bg_env.game.game import Game, Phase, Rules

    rng = np.random.default_rng(1)
    cases = []
    while len(cases) < n:
        game = Game(Rules(cube=False))
        game.opening(rng)
        while game.phase != Phase.OVER and len(cases) < n:
            cases.append((game.position, game.dice))
            plays = game.legal_continuations()
            game.play(plays[int(rng.integers(len(plays)))], rng)
    return cases


def variant_rows(seconds: float = 3.0, variants=None) -> dict[str, dict]:
    """Random self-play through ``env(variant=V, cube=False)`` for every variant (each
    name once: aliases left out): ``{V: {"games_per_s", "decisions_per_s", "ratio"}}``,
    ``ratio`` the variant's decisions/s over standard's."""
    from bg_env import backgammon_v0
    from bg_env.rules.variants import VARIANTS

    names = variants or [n for n, v in VARIANTS.items() if v.name == n]
    if "standard" not in names:
        names = ["standard", *names]
    out = {}
    for name in names:
        env = backgammon_v0.env(variant=name, cube=False)
        games, decisions = timed(lambda: _aec_game(env), seconds)
        out[name] = {"games_per_s": games, "decisions_per_s": decisions}
    base = out["standard"]["decisions_per_s"]
    for row in out.values():
        row["ratio"] = row["decisions_per_s"] / base
    return out


def _print_variants(rows: dict[str, dict]) -> None:
    print(f"\n{'env() random self-play, cube off':34s} {'decisions/s':>12s} {'games/s':>9s} "
          f"{'ratio':>7s}")
    for name, r in rows.items():
        print(f"{'variant=' + name:34s} {r['decisions_per_s']:12.0f} {r['games_per_s']:9.1f} "
              f"{r['ratio']:7.2f}")
    print("ratio: decisions/s to standard's")


def _openspiel_game():
    """A callable playing one OpenSpiel random game (returns its decisions), or None when
    ``pyspiel`` is not importable."""
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("backgammon")
    rnd = random.Random(0)

    def one() -> int:
        state = game.new_initial_state()
        steps = 0
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(pick_outcome(state.chance_outcomes(), rnd.random()))
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rnd.randrange(len(legal))])
                steps += 1
        return steps

    return one


def _movegen_rows(targets_only: bool) -> dict[str, tuple[str, Callable]]:
    """Legal-play generation rows: ``{name: (unit, fn)}``; a step of a row is one call
    for each of the next :data:`MOVEGEN_BLOCK` positions of :func:`_movegen_cases`, every
    row going through the same positions in the same order."""
    from bg_env.rules.moves import legal_plays

    cases = _movegen_cases()

    def each(fn, inputs):
        blocks = [inputs[i:i + MOVEGEN_BLOCK] for i in range(0, len(inputs), MOVEGEN_BLOCK)]
        turn = [0]

        def block() -> tuple[int, int]:
            calls = blocks[turn[0] % len(blocks)]
            turn[0] += 1
            for args in calls:
                fn(*args)
            return len(calls), len(calls)
        return block

    rows: dict[str, tuple[str, Callable]] = {}
    if not targets_only:
        rows["legal plays: pure Python"] = ("calls", each(legal_plays, cases))
    try:
        from bg_env.kernels.fast import fast_legal_plays, fast_legal_plays_into, legal_plays_fast
    except ImportError:
        fast_legal_plays = None
    if fast_legal_plays is not None:
        arrays = [(np.array(p.me, np.int8), np.array(p.opp, np.int8), d[0], d[1])
                  for p, d in cases]
        rows[KERNEL_ROW] = ("calls", each(fast_legal_plays, arrays))
        if not targets_only:  # the same kernel writing into the caller's buffers
            buffers = (np.empty((4096, 26), np.int8), np.empty((4096, 26), np.int8),
                       np.empty((4096, 4), np.int16))
            rows["legal plays: numba kernel (buffers)"] = (
                "calls", each(fast_legal_plays_into, [a + buffers for a in arrays]))
            rows["legal plays: fast path (Play objects)"] = ("calls",
                                                             each(legal_plays_fast, cases))
    try:
        import gnubg_nn

        boards = [(p.gnubg_board(), d[0], d[1]) for p, d in cases]
        rows[GNUBG_ROW] = ("calls", each(gnubg_nn.moves, boards))
    except ImportError:
        pass
    return rows


def _play_rows(targets_only: bool, skipped: dict[str, str]) -> dict[str, tuple[str, Callable]]:
    """Random self-play rows: ``{name: (unit, fn)}``; a missing library's row goes to
    ``skipped`` with the reason."""
    import gymnasium

    import bg_env  # noqa: F401  (registers the Gymnasium env)
    from bg_env import backgammon_v0

    rows: dict[str, tuple[str, Callable]] = {}
    if not targets_only:
        rows["core (Game.play, whole plays)"] = ("games", games_row(_core_game))
        raw = backgammon_v0.raw_env(cube=False)
        rows["raw AEC env"] = ("games", games_row(lambda: _aec_game(raw)))
    wrapped = backgammon_v0.env(cube=False)
    rows[ENV_ROW] = ("games", games_row(lambda: _aec_game(wrapped)))
    if not targets_only:
        genv = gymnasium.make("bg_env/Backgammon-v0", opponent="random", cube=False)
        rows["Gymnasium env (vs random)"] = ("episodes", games_row(lambda: _gym_episode(genv)))
        penv = gymnasium.make("bg_env/Backgammon-v0", opponent="pubeval", cube=False)
        rows["Gymnasium env (vs pubeval)"] = ("episodes", games_row(lambda: _gym_episode(penv)))
    vec = vec_stepper(monitor=True, as_maskable_ppo=True)
    if vec is not None:
        rows[VEC_ROW] = ("games", vec)
        if not targets_only:
            rows["vector env (64 games), bare, action_masks()"] = ("games", vec_stepper())
            match = {"match_length": 7, "cube": True}  # a 7-point match with the cube
            rows["vec env 7-pt matches (kernels)"] = ("matches", vec_stepper(**match))
            rows["vec env 7-pt matches (single envs)"] = (
                "matches", vec_stepper(kernels=False, **match))
            # a variant whose moves are not standard (Plakoto: pins, its own turn kernels)
            rows["vec env plakoto (kernels)"] = ("games", vec_stepper(variant="plakoto"))
    else:
        skipped[VEC_ROW] = "stable-baselines3 not importable (the [train] extra)"
    if not targets_only:
        rows["kernels alone (numba, no Python)"] = ("games", games_row(kernel_game()))
    spiel = _openspiel_game()
    if spiel is not None:
        rows[OPENSPIEL_ROW] = ("games", games_row(spiel))
    else:
        skipped[OPENSPIEL_ROW] = ("pyspiel not importable "
                                  "(pip install open_spiel, or the [bench] extra)")
    if not targets_only:
        rows.update(search_rows(games_row, skipped))
    return rows


def run_bench(seconds: float = 3.0, as_json: bool = False, variants_only: bool = False,
              targets_only: bool = False) -> dict:
    """Measure and print the table (or JSON); returns the numbers. ``variants_only``: only
    the per-variant rows (:func:`variant_rows`); ``targets_only``: only the rows that
    the speed targets need (:data:`bg_env.bench.timing.TARGETS`).

    Raises:
        ValueError: ``seconds`` is not a positive number.
    """
    if not (isinstance(seconds, (int, float)) and math.isfinite(seconds) and seconds > 0):
        raise ValueError(f"seconds={seconds!r}: expected a positive number of seconds")
    if variants_only:
        out = {"cpu": _cpu(), "python": platform.python_version(), "seconds_each": seconds,
               "variants": variant_rows(seconds)}
        if as_json:
            print(json.dumps(out, indent=2))
        else:
            _print_variants(out["variants"])
        return out
    skipped: dict[str, str] = {}
    specs = {**_play_rows(targets_only, skipped), **_movegen_rows(targets_only)}
    measured = interleaved({name: fn for name, (_, fn) in specs.items()}, seconds)
    rows = {name: {"unit": specs[name][0], **r} for name, r in measured.items()}
    if not targets_only:
        pgx_result = _pgx(seconds, PGX_BATCH)
        if pgx_result is None:
            skipped[PGX_ROW] = "pgx/jax not importable (pip install pgx, or the [bench] extra)"
        else:
            rows[PGX_ROW] = {"unit": "games", "per_s": pgx_result[0],
                             "steps_per_s": pgx_result[1], "compile_s": pgx_result[2]}
    out = {"cpu": _cpu(), "python": platform.python_version(), "seconds_each": seconds,
           "rounds": rounds_for(seconds), "rows": rows, "skipped": skipped,
           "targets": target_ratios(rows)}
    training = None
    if not targets_only:
        out["variants"] = variant_rows(seconds)
        training = ppo_training() if VEC_ROW in rows else None
    if training is not None:
        out["maskable_ppo"] = {"steps_per_s": training[0], "env_share": training[1],
                               "env_share_of_rollouts": training[2]}
    if as_json:
        print(json.dumps(out, indent=2))
        return out
    _print_rows(out)
    print_targets(out["targets"], skipped)
    if "variants" in out:
        _print_variants(out["variants"])
    if training is not None:
        print("\nMaskablePPO on the vector env (16 games, 2048 steps, SB3 defaults, "
              f"1 torch thread): {training[0]:.0f} steps/s; env {training[1]:.1%} of the wall time "
              f"({training[2]:.1%} of the rollouts)")
    return out


LOOPS = ("loops: every side picks with one random.Random (legal[rnd.randrange(len(legal))]); "
         "AEC rows: PettingZoo's agent_iter/last/step(None at the end); OpenSpiel: "
         "chance_outcomes (a plain weighted scan)/legal_actions/apply_action; Gymnasium: "
         "reset, step until terminated or truncated; vector env: make_vec_env(64) in its "
         "VecMonitor, masks by sb3-contrib's get_action_masks")
"""What the table's loops are (printed under it)."""


def _print_rows(out: dict) -> None:
    rows, skipped = out["rows"], out["skipped"]
    print(f"CPU: {out['cpu']}   Python {out['python']}   ~{out['seconds_each']:g} s of CPU "
          f"time per row, in {out['rounds']} turns\n")
    base_games = rows.get(OPENSPIEL_ROW, rows.get("raw AEC env"))
    base_calls = rows.get(GNUBG_ROW, rows.get("legal plays: pure Python"))
    width = max(38, *(len(name) for name in rows))
    print(f"{'measurement':{width}s} {'per second':>14s} {'steps/s':>10s} {'ratio':>8s}")
    for name, r in rows.items():
        base = base_calls if r["unit"] == "calls" else base_games
        ratio = f"{r['per_s'] / base['per_s']:8.2f}" if base else f"{'-':>8s}"
        steps = f"{r['steps_per_s']:10.0f}" if r["unit"] != "calls" else " " * 10
        print(f"{name:{width}s} {r['per_s']:10.1f} {r['unit']:>3.3s} {steps} {ratio}")
    print("\nratios: games to OpenSpiel (or the raw env when OpenSpiel is absent); "
          "calls to gnubg-nn (or pure Python)")
    print(LOOPS)
    if PGX_ROW in rows:
        print(f"pgx: {PGX_BATCH} games per jitted call, wall clock; its steps are single "
              f"checker moves, and {rows[PGX_ROW]['compile_s']:.1f} s of compiling and warm-up "
              "are left out")
    for name, why in skipped.items():
        print(f"skipped: {name}: {why}")
