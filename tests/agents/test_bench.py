"""``bg-env bench``: the optional rows (pgx, OpenSpiel) are measured when importable and
skipped with a note when not; the real timings are not checked, only their shape."""

import json
import sys

import pytest

from agents import bench


def _quick(monkeypatch):
    """Make run_bench cheap: no real timing loops, no PPO training."""
    monkeypatch.setattr(bench, "_timed", lambda fn, seconds: (1.0, 2.0))
    monkeypatch.setattr(bench, "_ppo_training", lambda *a, **k: None)


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
    from bg_env.core.variants import VARIANTS

    rates = iter(range(1, 100))
    monkeypatch.setattr(bench, "_timed", lambda fn, seconds: (1.0, float(next(rates))))
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
