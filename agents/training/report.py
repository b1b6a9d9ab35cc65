"""The run report: a markdown table of the periodic evaluations, what they can and cannot
show, where the run came from (commit, package versions, time), the commands to go on,
and a learning-curve PNG."""

from __future__ import annotations

import datetime
import importlib.metadata
import io
import json
import math
import os
import platform
import subprocess

from ..players.model_files import write_atomically

__all__ = ["write_report", "trend", "provenance", "next_commands"]

PACKAGES = ("bg_env", "numpy", "numba", "torch", "gymnasium", "pettingzoo",
            "stable-baselines3", "sb3-contrib")
"""The packages whose versions a report names (those installed)."""


def write_report(run_dir: str, title: str, config: dict, history: list[dict]) -> str:
    """Write ``report.md``, ``history.json`` and ``learning_curve.png`` into ``run_dir``
    (each atomically); returns the report's path."""
    opponents = _opponents(history)
    lines = [f"# {title} training report", ""]
    lines += _summary(config, history)
    lines += ["## Evaluations", "",
              "Each row: the agent's win rate and points per game (ppg) against each "
              "opponent, with the 95% confidence interval of the ppg, over the number of "
              "games given (played in pairs with the same dice, seats swapped).", ""]
    head = "| training games | minutes | " + " | ".join(
        f"vs {o}: games | vs {o}: win % | vs {o}: ppg (95% CI)" for o in opponents) + " |"
    lines += [head, "|" + "---|" * (2 + 3 * len(opponents))]
    for h in history:
        cells = [str(h["games"]), f"{h.get('seconds', 0) / 60:.1f}"]
        for o in opponents:
            s = h.get(o)
            cells += ([str(s["games"]), f"{100 * s['win_rate']:.1f}",
                       f"{s['ppg']:+.3f} +- {s['ppg_ci95']:.3f}"] if s else ["", "", ""])
        lines.append("| " + " | ".join(cells) + " |")
    lines += ["", "## What the evaluations show", ""]
    lines += [f"- {trend(history, o)}" for o in opponents] or ["- no evaluation yet"]
    lines += ["", "![learning curve: ppg against each opponent; the bars are 95% confidence "
              "intervals](learning_curve.png)", "",
              "## Go on", "", "```bash", *next_commands(config), "```", "",
              "## Where this run came from", ""]
    lines += [f"- {k}: {v}" for k, v in provenance().items()]
    lines += ["", "## Settings", "", "```json", json.dumps(config, indent=2), "```", ""]
    path = os.path.join(run_dir, "report.md")
    write_atomically(path, "\n".join(lines))
    write_atomically(os.path.join(run_dir, "history.json"), json.dumps(history, indent=2))
    _plot(run_dir, title, opponents, history)
    return path


def _opponents(history: list[dict]) -> list[str]:
    return sorted({k for h in history for k, v in h.items() if isinstance(v, dict)})


def _summary(config: dict, history: list[dict]) -> list[str]:
    if not history:
        return []
    last = history[-1]
    counted, setting = _LENGTH.get(config.get("algo"), _LENGTH["td"])
    done = "finished" if last.get(counted, 0) >= config.get(setting, math.inf) else "so far"
    return [f"{last['games']:,} training games {done}, {last.get('seconds', 0) / 60:.1f} "
            f"minutes of wall time (evaluations included). Model: `{_model_path(config)}`.", ""]


def trend(history: list[dict], opponent: str) -> str:
    """One honest sentence on whether the evaluations against ``opponent`` show a change:
    the first and last ppg differ by more than their intervals' combined half-width, or
    the evaluations are too small to tell."""
    rows = [h[opponent] for h in history if opponent in h]
    if len(rows) < 2:
        return f"vs {opponent}: one evaluation, so no trend to read."
    first, last = rows[0], rows[-1]
    change = last["ppg"] - first["ppg"]
    noise = math.hypot(first["ppg_ci95"], last["ppg_ci95"])
    seen = (f"vs {opponent}: {first['ppg']:+.3f} -> {last['ppg']:+.3f} ppg "
            f"({first['games']} and {last['games']} games), a change of {change:+.3f} "
            f"against +- {noise:.3f} of noise: ")
    if abs(change) > noise:
        return seen + ("the agent got better." if change > 0 else "the agent got worse.")
    return seen + ("too few games to tell a change; raise `eval_games` (4 times the games "
                   "halve the interval).")


def _model_path(config: dict) -> str:
    name = "model.zip" if config.get("algo") == "ppo" else "model.pt"
    return os.path.join(config.get("run_dir", "."), name)


_LENGTH = {"td": ("games", "games"), "ppo": ("steps", "total_steps"),
           "td_distill": ("round", "rounds"), "td_cube": ("games", "games")}
"""For each kind of run: what its history entries count, and the setting that says how far
it trains."""


def next_commands(config: dict) -> list[str]:
    """The commands that evaluate and play the model this run writes, and resume it."""
    if config.get("algo") == "td_cube":  # the same checker play: its cube is what to measure
        spec = f"td:{_model_path(config)}"
        return [f"bg-env eval {spec} td --cube --games 2000 --seed 2026   # its cube "
                f"against the shipped td's",
                f"python benchmarks/cube_agreement.py --agents td,{spec} --games 150 "
                f"--per-class 100 --seed 1   # against GNU Backgammon's verdicts "
                f"(the cube-reference extra)",
                f"bg-env play --opponent {spec} --cube   # play it yourself"]
    kind = "ppo" if config.get("algo") == "ppo" else "td"
    spec = f"{kind}:{_model_path(config)}"
    setting = _LENGTH.get(config.get("algo"), _LENGTH["td"])[1]
    return [f"bg-env eval {spec} pubeval --games 1000 --seed 2026   # the model just trained",
            f"bg-env eval {spec} {kind} --games 1000 --seed 2026   # against the shipped {kind}",
            f"bg-env play --opponent {spec}   # play it yourself",
            f"bg-env train {config.get('algo', 'td')} --set run_dir={config.get('run_dir', '.')} "
            f"--resume   # go on training (--set {setting}=... "
            "to go further)"]


def provenance() -> dict[str, str]:
    """The date, the commit of the checkout (if any) and the versions a run used."""
    info = {"date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
            "commit": _commit(), "python": platform.python_version(),
            "machine": f"{platform.machine()}, {os.cpu_count()} cores"}
    for name in PACKAGES:
        try:
            info[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            continue
    return info


def _commit() -> str:
    """The git commit of the checkout bg_env runs from, marked when it has local changes."""
    here = os.path.dirname(os.path.abspath(__file__))
    try:
        head = subprocess.run(["git", "-C", here, "rev-parse", "--short", "HEAD"],
                              capture_output=True, text=True, timeout=10)
        dirty = subprocess.run(["git", "-C", here, "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return "unknown (git not found)"
    if head.returncode != 0:
        return "not a git checkout"
    return head.stdout.strip() + (" (with local changes)" if dirty.stdout.strip() else "")


def _plot(run_dir: str, title: str, opponents: list[str], history: list[dict]) -> None:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:  # matplotlib is in the [train] extra
        return
    fig, ax = plt.subplots(figsize=(6.5, 4))
    for o in opponents:
        pts = [(h["games"], h[o]["ppg"], h[o]["ppg_ci95"], h[o]["games"])
               for h in history if o in h]
        if pts:
            x, y, e, n = zip(*pts)
            sizes = sorted(set(n))
            games = ", ".join(map(str, sizes)) + " games" + (" a point" if len(sizes) == 1 else "")
            ax.errorbar(x, y, yerr=e, marker="o", capsize=3, label=f"vs {o} ({games})")
    ax.axhline(0, color="grey", lw=0.8)
    ax.set_xlabel("training games")
    ax.set_ylabel("points per game")
    ax.set_title(f"{title}: bars are 95% confidence intervals", fontsize=10)
    ax.legend(fontsize=8)
    fig.tight_layout()
    picture = io.BytesIO()
    fig.savefig(picture, format="png", dpi=100)
    plt.close(fig)
    write_atomically(os.path.join(run_dir, "learning_curve.png"), picture.getvalue())
