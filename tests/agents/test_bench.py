"""``bg-env bench``: the optional rows (pgx, OpenSpiel) are measured when importable and
skipped with a note when not; the real timings are not checked, only their shape."""

import json
import sys

import pytest

from bg_env.bench import run as bench, timing as bench_timing


def _fake_interleaved(rates=None):
    """An ``interleaved`` that runs nothing: each row at ``rates[name]`` (default 1.0) per
    second in every round."""
    rates = rates or {}

    def fake(rows, seconds, rounds=5):
        return {name: {"per_s": rates.get(name, 1.0), "steps_per_s": 2.0,
                       "round_per_s": [rates.get(name, 1.0)] * rounds} for name in rows}
    return fake


def _quick(monkeypatch, rates=None):
    """Make run_bench cheap: no real timing loops, no PPO training."""
    monkeypatch.setattr(bench, "timed", lambda fn, seconds: (1.0, 2.0))
    monkeypatch.setattr(bench, "interleaved", _fake_interleaved(rates))
    monkeypatch.setattr(bench, "ppo_training", lambda *a, **k: None)


def test_pgx_missing_returns_none(monkeypatch):
    monkeypatch.setitem(sys.modules, "pgx", None)  # import pgx -> ImportError
    assert bench._pgx(0.01) is None


def test_run_bench_skips_missing_pgx_with_a_note(monkeypatch, capsys):
    _quick(monkeypatch)
    monkeypatch.setitem(sys.modules, "pgx", None)
    monkeypatch.setitem(sys.modules, "pyspiel", None)
    out = bench.run_bench(seconds=0.01)
    assert bench.PGX_ROW not in out["rows"]
    assert "OpenSpiel pyspiel" not in out["rows"]
    assert "pgx" in out["skipped"][bench.PGX_ROW]
    text = capsys.readouterr().out
    assert f"skipped: {bench.PGX_ROW}" in text
    assert "skipped: OpenSpiel pyspiel" in text


def test_run_bench_json_has_pgx_row(monkeypatch, capsys):
    _quick(monkeypatch)
    monkeypatch.setattr(bench, "_pgx", lambda seconds, batch=256: (150.0, 50000.0, 3.0))
    out = bench.run_bench(seconds=0.01, as_json=True)
    printed = json.loads(capsys.readouterr().out)
    row = printed["rows"][bench.PGX_ROW]
    assert row == out["rows"][bench.PGX_ROW]
    assert row["unit"] == "games" and row["per_s"] == 150.0 and row["compile_s"] == 3.0
    assert bench.PGX_ROW not in printed["skipped"]


@pytest.mark.slow
def test_pgx_measures_games():
    pytest.importorskip("pgx")
    games_per_s, steps_per_s, compile_s = bench._pgx(0.5, batch=8)
    assert games_per_s >= 0 and steps_per_s > 0 and compile_s > 0


def test_variant_rows_one_per_variant_with_ratio_to_standard(monkeypatch, capsys):
    from bg_env.rules.variants import VARIANTS

    rates = iter(range(1, 100))
    monkeypatch.setattr(bench, "timed", lambda fn, seconds: (1.0, float(next(rates))))
    out = bench.run_bench(seconds=0.01, variants_only=True)
    rows = out["variants"]
    assert "rows" not in out  # only the variant rows were measured
    assert set(rows) == {n for n, v in VARIANTS.items() if v.name == n}  # no alias twice
    assert rows["standard"]["ratio"] == 1.0
    plakoto = rows["plakoto"]
    assert plakoto["ratio"] == plakoto["decisions_per_s"] / rows["standard"]["decisions_per_s"]
    text = capsys.readouterr().out
    assert "variant=long_nardy" in text and "variant=hypergammon " not in text


def test_variant_rows_play_real_games():
    rows = bench.variant_rows(seconds=0.01, variants=["plakoto"])
    assert set(rows) == {"standard", "plakoto"}
    assert all(r["decisions_per_s"] > 0 and r["games_per_s"] > 0 for r in rows.values())


def test_interleaved_takes_turns_and_counts_units_and_steps():
    calls = []

    def row(name, units, steps):
        def fn():
            calls.append(name)
            return units, steps
        return fn

    out = bench_timing.interleaved({"a": row("a", 1, 10), "b": row("b", 3, 0)}, 0.02, rounds=3)
    assert set(out) == {"a", "b"}
    assert len(out["a"]["round_per_s"]) == 3 == len(out["b"]["round_per_s"])
    assert out["a"]["steps_per_s"] == pytest.approx(10 * out["a"]["per_s"])
    assert out["b"]["steps_per_s"] == 0
    # after the warm-up (a, b), the rows alternate: a's calls, then b's, three times
    runs = [name for i, name in enumerate(calls[2:]) if i == 0 or calls[2:][i - 1] != name]
    assert runs == ["a", "b", "a", "b", "a", "b"]


def test_target_ratios_ratio_range_and_verdict():
    rows = {
        bench_timing.ENV_ROW: {"per_s": 400.0, "round_per_s": [390.0, 410.0]},
        bench_timing.OPENSPIEL_ROW: {"per_s": 200.0, "round_per_s": [200.0, 200.0]},
        bench_timing.VEC_ROW: {"per_s": 1000.0, "round_per_s": [1000.0, 1000.0]},
    }
    out = bench_timing.target_ratios(rows)
    env, vec = out["env() random self-play, games/s"], out["vector env (one process), games/s"]
    assert env["ratio"] == 2.0 and env["met"] and (env["low"], env["high"]) == (1.95, 2.05)
    assert vec["ratio"] == 5.0 and not vec["met"] and vec["target"] == 10.0
    kernel = out["legal-play kernel, calls/s"]
    assert "met" not in kernel and bench_timing.KERNEL_ROW in kernel["skipped"]


def test_run_bench_prints_targets_and_skips_openspiel_with_a_note(monkeypatch, capsys):
    _quick(monkeypatch, {bench_timing.KERNEL_ROW: 2.0, bench_timing.GNUBG_ROW: 1.0})
    monkeypatch.setitem(sys.modules, "pyspiel", None)
    out = bench.run_bench(seconds=0.01, targets_only=True)
    assert "variants" not in out and "core (Game.play, whole plays)" not in out["rows"]
    kernel = out["targets"]["legal-play kernel, calls/s"]
    assert kernel["ratio"] == 2.0 and kernel["met"]
    assert "skipped" in out["targets"]["env() random self-play, games/s"]
    text = capsys.readouterr().out
    assert "legal-play kernel, calls/s" in text and "met" in text
    env_line = next(line for line in text.splitlines() if line.startswith("env() random"))
    assert "skipped (OpenSpiel pyspiel: pyspiel not importable" in env_line


def test_run_bench_targets_missed_are_marked(monkeypatch, capsys):
    pytest.importorskip("stable_baselines3")
    rates = {bench_timing.OPENSPIEL_ROW: 100.0, bench_timing.ENV_ROW: 120.0,
             bench_timing.VEC_ROW: 1100.0}
    _quick(monkeypatch, rates)
    monkeypatch.setattr(bench, "_openspiel_game", lambda: (lambda: 1))
    out = bench.run_bench(seconds=0.01, targets_only=True)
    assert out["targets"]["env() random self-play, games/s"]["ratio"] == pytest.approx(1.2)
    assert out["targets"]["vector env (one process), games/s"]["met"]
    lines = capsys.readouterr().out.splitlines()
    env_line = next(line for line in lines if line.startswith("env() random self-play"))
    assert env_line.endswith("MISSED") and "1.20x" in env_line


def test_random_legal_picks_only_legal_actions_uniformly():
    import numpy as np

    rng = np.random.default_rng(0)
    masks = np.zeros((3, 156), bool)
    masks[0, [4, 90, 155]] = True
    masks[1, 0] = True
    masks[2, :] = True
    picks = np.stack([bench.random_legal(masks, rng) for _ in range(3000)])
    assert masks[np.arange(3), picks].all()
    assert (picks[:, 1] == 0).all()
    counts = np.bincount(picks[:, 0], minlength=156)[[4, 90, 155]]
    assert counts.sum() == 3000 and counts.min() > 850  # about 1000 each
    assert len(set(picks[:, 2].tolist())) > 140


def test_movegen_rows_time_blocks_of_calls_over_the_same_positions(monkeypatch):
    pytest.importorskip("numba")
    from bg_env.kernels import fast

    block = bench.MOVEGEN_BLOCK
    cases = bench._movegen_cases(block + 10)
    monkeypatch.setattr(bench, "_movegen_cases", lambda: cases)
    seen = []
    monkeypatch.setattr(fast, "fast_legal_plays",
                        lambda me, opp, d1, d2: seen.append((tuple(me.tolist()), d1, d2)))
    row = bench._movegen_rows(targets_only=True)[bench_timing.KERNEL_ROW][1]
    assert [row() for _ in range(3)] == [(block, block), (10, 10), (block, block)]
    expected = [(p.me, *d) for p, d in cases]
    assert seen == expected + expected[:block]


def test_the_search_loop_rows_play_whole_games_and_skip_openspiel_with_a_note(monkeypatch):
    from bg_env.bench import search_rows
    from bg_env.bench.timing import games_row

    monkeypatch.setitem(sys.modules, "pyspiel", None)
    skipped: dict = {}
    rows = search_rows.search_rows(games_row, skipped)
    assert list(rows) == [search_rows.SEARCH_ROW]
    assert "pyspiel not importable" in skipped[search_rows.OPENSPIEL_SEARCH_ROW]
    unit, timer = rows[search_rows.SEARCH_ROW]
    games, decisions = timer()
    assert unit == "games" and games == 1 and decisions > 20
