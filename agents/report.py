"""The run report: a markdown table of the periodic evaluations and a learning-curve PNG."""

from __future__ import annotations

import json
import os

from .model_files import write_atomically

__all__ = ["write_report"]


def write_report(run_dir: str, title: str, config: dict, history: list[dict]) -> str:
    """Write ``report.md``, ``history.json`` and ``learning_curve.png`` into ``run_dir``
    (each atomically); returns the report's path."""
    opponents = sorted({k for h in history for k, v in h.items() if isinstance(v, dict)})
    lines = [f"# {title} training report", "", "## Evaluations", ""]
    head = "| games | minutes | " + " | ".join(f"vs {o}: win % | vs {o}: ppg (95% CI)" for o in opponents) + " |"
    lines += [head, "|" + "---|" * (2 + 2 * len(opponents))]
    for h in history:
        cells = [str(h["games"]), f"{h.get('seconds', 0) / 60:.1f}"]
        for o in opponents:
            s = h.get(o)
            cells += ([f"{100 * s['win_rate']:.1f}", f"{s['ppg']:+.3f} +- {s['ppg_ci95']:.3f}"]
                      if s else ["", ""])
        lines.append("| " + " | ".join(cells) + " |")
    lines += ["", f"Games per evaluation: {history[-1][opponents[0]]['games'] if opponents and history else 0}.", "",
              "## Settings", "", "```json", json.dumps(config, indent=2), "```", "",
              "![learning curve](learning_curve.png)", ""]
    path = os.path.join(run_dir, "report.md")
    write_atomically(path, "\n".join(lines))
    write_atomically(os.path.join(run_dir, "history.json"), json.dumps(history, indent=2))
    _plot(run_dir, title, opponents, history)
    return path


def _plot(run_dir: str, title: str, opponents: list[str], history: list[dict]) -> None:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:  # matplotlib is in the [train] extra
        return
    fig, ax = plt.subplots(figsize=(6, 3.5))
    for o in opponents:
        pts = [(h["games"], h[o]["ppg"], h[o]["ppg_ci95"]) for h in history if o in h]
        if pts:
            x, y, e = zip(*pts)
            ax.errorbar(x, y, yerr=e, marker="o", capsize=3, label=f"vs {o}")
    ax.axhline(0, color="grey", lw=0.8)
    ax.set_xlabel("training games")
    ax.set_ylabel("points per game")
    ax.set_title(title)
    ax.legend()
    fig.tight_layout()
    tmp = os.path.join(run_dir, "learning_curve.tmp.png")
    fig.savefig(tmp, dpi=100)
    plt.close(fig)
    os.replace(tmp, os.path.join(run_dir, "learning_curve.png"))
