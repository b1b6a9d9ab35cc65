"""The ``bg-env`` command line: ``train``, ``eval``, ``play``, ``bench``.

Examples::

    bg-env train                              # agents/configs/default.yaml (TD-Gammon, ~10 min)
    bg-env train ppo --set total_steps=200000 # a shipped config by name, from any folder
    bg-env train td --resume                  # continue an interrupted run
    bg-env train td_distill --workers 2       # teach td's 0-ply net its own lookahead
    bg-env train td_cube --workers 2          # td's cube network from its self-play results
    bg-env train my_run.yaml --set lr=0.0005 --set games=5000
    bg-env train ppo --workers 4 --set device=auto  # 4 processes play; GPU if any
    bg-env eval td pubeval --games 1000 --json results.json
    bg-env eval td:2ply gnubg --games 10000 --checkpoint eval.json  # again to continue
    bg-env eval td pubeval --match 7 --games 200   # 200 matches to 7 points
    bg-env eval td pubeval --games 6 --cube --save-mat games.mat   # for GNU Backgammon
    bg-env eval td td+naive --cube --games 600      # what td's cube decisions are worth
    bg-env eval td td --match 7 --cube --match-cube dead  # match cube without recube value
    bg-env eval random pubeval --rules nackgammon  # agents/configs/variants/nackgammon.yaml
    bg-env play --opponent td
    bg-env bench

The library logs through :mod:`logging`; the command shows its INFO messages on stderr.
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import math
import os
import sys
import textwrap
from dataclasses import asdict

from .evaluation.eval_command import cmd_eval

__all__ = ["main", "StderrHandler"]

DEFAULT_CONFIG = "default"
LIBRARY_LOGGERS = ("agents", "bg_env")
RESUME_HINTS = {
    "train": "`bg-env train --resume` continues a training run",
    "eval": "an evaluation run with --checkpoint FILE continues from FILE's last save when "
            "the same command is run again",
}
"""What to tell a user who interrupted a command (Ctrl-C)."""


def _whole_number(text: str, least: int, most: int) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if not least <= value <= most:
        raise argparse.ArgumentTypeError(f"{text!r}: expected a whole number in {least}..{most}")
    return value


def _count(text: str) -> int:
    """Games or matches: 1 to :data:`~agents.config.MAX_COUNT`."""
    from .config import MAX_COUNT

    return _whole_number(text, 1, MAX_COUNT)


def _processes(text: str) -> int:
    """Workers or threads: 1 to :data:`~agents.config.MAX_PROCESSES`."""
    from .config import MAX_PROCESSES

    return _whole_number(text, 1, MAX_PROCESSES)


def _seed(text: str) -> int:
    """A seed: numpy's and torch's generators take whole numbers of 0 to 2**63 - 1."""
    from .config import MAX_SEED

    return _whole_number(text, 0, MAX_SEED)


MAX_BENCH_SECONDS = 3600.0
"""The longest time ``bg-env bench --seconds`` gives one measurement."""


def _positive_seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not (math.isfinite(value) and 0 < value <= MAX_BENCH_SECONDS):
        raise argparse.ArgumentTypeError(
            f"{text!r}: expected a number of seconds above 0, at most {MAX_BENCH_SECONDS:g}")
    return value


def _overrides(groups: list[list[str]] | None) -> list[str]:
    """``--set a=1 b=2 --set c=3`` -> ``["a=1", "b=2", "c=3"]``."""
    return [item for group in groups or [] for item in group]


def cmd_train(args) -> int:
    from .config import find_config, load_config, parse_overrides, read_mapping

    path = find_config(args.config or DEFAULT_CONFIG)
    overrides = parse_overrides(_overrides(args.set))
    if args.workers is not None:
        overrides["workers"] = args.workers
    algo = overrides.get("algo", read_mapping(path).get("algo", "td"))
    if algo == "td":
        from .training.train_td import TDConfig as settings, train_td as train
    elif algo == "ppo":
        from .training.train_ppo import PPOConfig as settings, train_ppo as train
    elif algo == "td_distill":
        from .training.train_distill import DistillConfig as settings, train_distill as train
    elif algo == "td_cube":
        from .training.train_cube import CubeNetConfig as settings, train_cube as train
    else:
        raise ValueError(f"{path}: algo={algo!r}: expected 'td', 'ppo', 'td_distill' or "
                         f"'td_cube'")
    cfg = load_config(settings, path, overrides)
    saved = os.path.join(cfg.run_dir, "config.json")
    if args.resume and os.path.isfile(saved):  # the run's own settings, --set on top
        cfg = load_config(settings, saved, overrides)
    made = _missing_folders(cfg.run_dir)
    try:
        with _logs_above_progress_bar(not args.quiet):
            final = train(cfg, resume=args.resume, progress=not args.quiet)
    except BaseException:
        _remove_if_empty(made)  # a run that failed to start leaves no empty folders
        raise
    print(f"\nrun folder: {cfg.run_dir}  (report: {os.path.join(cfg.run_dir, 'report.md')})")
    for spec, s in final.items():
        if isinstance(s, dict):
            print(f"  vs {spec:8s} win {s['win_rate']:6.1%}  ppg {s['ppg']:+.3f} +- {s['ppg_ci95']:.3f}"
                  f"  ({s['games']} games)")
    from .training.report import next_commands

    print("\nnext:")
    for line in next_commands(asdict(cfg)):
        print(f"  {line}")
    return 0


def _missing_folders(path: str) -> list[str]:
    """``path`` and those of its parent folders that do not exist yet, deepest first."""
    missing = []
    path = os.path.abspath(path)
    while not os.path.exists(path) and os.path.dirname(path) != path:
        missing.append(path)
        path = os.path.dirname(path)
    return missing


def _remove_if_empty(folders: list[str]) -> None:
    """Remove the ``folders`` (deepest first) that are there and empty."""
    for folder in folders:
        if os.path.isdir(folder) and not os.listdir(folder):
            os.rmdir(folder)


def _logs_above_progress_bar(progress: bool):
    """Log lines printed above tqdm's bar instead of through it (when there is one)."""
    if not progress:
        return contextlib.nullcontext()
    from tqdm.contrib.logging import logging_redirect_tqdm

    return logging_redirect_tqdm(loggers=[logging.getLogger(n) for n in LIBRARY_LOGGERS])


def cmd_play(args) -> int:
    from .play.human import play_human

    return play_human(args.opponent, seed=args.seed, cube=args.cube, variant=args.variant)


def cmd_bench(args) -> int:
    from bg_env.bench.run import run_bench

    run_bench(seconds=args.seconds, as_json=args.json, variants_only=args.variants,
              targets_only=args.targets)
    return 0


class _HelpFormatter(argparse.RawDescriptionHelpFormatter):
    """Help that keeps the examples' lines as written and shows each flag's default (where
    it has one that its help does not already say)."""

    def _get_help_string(self, action):
        text = action.help or ""
        if (action.default is None or action.default is False
                or action.default == argparse.SUPPRESS or "default" in text
                or not action.option_strings):
            return text
        return f"{text} (default: %(default)s)"


MAIN_EXAMPLES = """\
examples:
  bg-env train                                    train TD-Gammon on the default config
  bg-env eval td:runs/default/model.pt pubeval    evaluate the model just trained
  bg-env eval td gnubg --games 1000 --seed 2026   the shipped td against GNU Backgammon
  bg-env play --opponent td                       play against td in the terminal
  bg-env bench                                    speed, side by side with OpenSpiel

'bg-env COMMAND --help' tells more; the documentation is in docs/ (cli.md, agents.md)."""

EVAL_EXAMPLES = """\
examples:
  bg-env eval td pubeval --games 1000 --seed 2026     cubeless money games
  bg-env eval td td+naive --cube --games 600          what td's cube decisions are worth
  bg-env eval td pubeval --match 7 --games 100        7-point matches
  bg-env eval td:2ply gnubg --workers 2               two processes, the same games
  bg-env eval td pubeval --checkpoint eval.json       Ctrl-C, then the same command goes on
"""


def _fill(text: str) -> str:
    """A description as one paragraph of the help's width."""
    return textwrap.fill(text, width=88)


def _spec_list() -> str:
    """The agent specs, one paragraph each, for ``eval --help`` and ``play --help``."""
    from . import SPECS

    specs = dict(SPECS, **{"SPEC+naive": "the same checker play, but never doubles and "
                                         "always takes (td+naive)"})
    lines = ["agent specs (A, B, --opponent):"]
    for name, text in specs.items():
        lines += textwrap.wrap(text, width=88, initial_indent=f"  {name:11s}",
                               subsequent_indent=" " * 13)
    return "\n".join(lines)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="bg-env", description=_fill("bg_env: backgammon for reinforcement-learning research: "
        "train and evaluate agents, play against them, measure speed."),
        epilog=MAIN_EXAMPLES, formatter_class=_HelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    t = sub.add_parser("train", help="train a baseline from a YAML config",
                       description=_fill("Train an agent from a YAML config, evaluate it and write "
                       "a report, the model and a checkpoint into the config's run_dir."),
                       epilog="examples:\n"
                       "  bg-env train                                  configs/default.yaml\n"
                       "  bg-env train td --set games=50000 hidden=160  a longer TD run\n"
                       "  bg-env train ppo --workers 4                  MaskablePPO, 4 processes\n"
                       "  bg-env train --resume                         go on after a stop\n",
                       formatter_class=_HelpFormatter)
    t.add_argument("config", nargs="?",
                   help="YAML config: a path, or a shipped one by name (td, ppo, td_distill, "
                        "default; the default is default)")
    t.add_argument("--set", nargs="+", action="append", metavar="KEY=VALUE",
                   help="override config values (repeatable)")
    t.add_argument("--resume", action="store_true",
                   help="continue from the run folder's checkpoint, with the run's own settings "
                        "(its config.json) and --set on top")
    t.add_argument("--quiet", action="store_true", help="no progress bar")
    t.add_argument("--workers", type=_processes, metavar="N",
                   help="processes playing the training games (the config's 'workers' key)")
    t.set_defaults(func=cmd_train)

    e = sub.add_parser("eval", help="play agent A against agent B",
                       description=_fill("Play agent A against agent B and print A's points per "
                       "game with its 95% confidence interval. Games are played in pairs "
                       "with the same dice and the seats swapped."),
                       epilog=EVAL_EXAMPLES + "\n" + _spec_list(), formatter_class=_HelpFormatter)
    e.add_argument("agent_a", metavar="A", help="agent spec (listed below), e.g. td")
    e.add_argument("agent_b", metavar="B", help="agent spec, e.g. pubeval")
    e.add_argument("--games", type=_count, default=1000,
                   help="games, played in pairs with the same dice and the seats swapped "
                        "(an odd number is rounded up to the next pair)")
    e.add_argument("--seed", type=_seed, default=0,
                   help="the dice's seed: the same seed gives the same games")
    e.add_argument("--cube", action="store_true", help="play with the doubling cube")
    e.add_argument("--cube-naive", choices=("A", "B", "both"),
                   help="make agent A, B or both cube-naive (never double, always take; the "
                        "same checker play), to measure what the cube decisions are worth; "
                        "a spec suffix does the same: td+naive")
    e.add_argument("--match", type=_count, metavar="N",
                   help="play matches to N points (cube and Crawford rule); --games is then "
                        "the number of matches")
    e.add_argument("--match-cube", choices=("live", "dead"), default="live",
                   help="match-play cube model of the agents that judge the cube (td, ppo, "
                        "gnubg): live (recube value by the cube-life index, the default) or "
                        "dead (no recube value)")
    e.add_argument("--rules", metavar="YAML",
                   help="environment options file: a path, or a shipped variant by name "
                        "(plakoto = agents/configs/variants/plakoto.yaml)")
    e.add_argument("--variant", help="rule variant, e.g. nackgammon (overrides --rules)")
    e.add_argument("--json", metavar="PATH", help="write the statistics as JSON")
    e.add_argument("--save-mat", metavar="FILE",
                   help="save the games as a Jellyfish .mat record for GNU Backgammon "
                        "(with --match: one file per match, FILE-1.mat, ...)")
    e.add_argument("--checkpoint", metavar="FILE",
                   help="save the progress to FILE (JSON; every 10 s, less often when "
                        "saving is slow, and at the end); the same command again continues "
                        "from it, with the same games as a run never stopped; more --games "
                        "extends a finished one")
    e.add_argument("--torch-threads", type=_processes, default=1, metavar="N",
                   help="threads of the agents' networks (default 1, as training's "
                        "torch_threads: jobs side by side do not wait on each other's threads)")
    e.add_argument("--workers", type=_processes, default=1, metavar="N",
                   help="processes that play the pairs of games (default 1); the same games "
                        "and statistics as one (not for agents with their own generator, "
                        "such as random)")
    e.add_argument("--quiet", action="store_true", help="no progress bar")
    e.set_defaults(func=cmd_eval)

    p = sub.add_parser("play", help="play against an agent in the terminal",
                       description=_fill("Play a game against an agent in the terminal: type your "
                       "play in Magriel notation (8/5 6/5), 'hint' for the agent's choice, "
                       "'help' for every command, 'quit' to stop."),
                       epilog=_spec_list(), formatter_class=_HelpFormatter)
    p.add_argument("--opponent", default="td", help="agent spec (listed below)")
    p.add_argument("--seed", type=_seed, default=None,
                   help="the dice's seed (default: new dice each time)")
    p.add_argument("--cube", action="store_true", help="play with the doubling cube")
    p.add_argument("--variant", default="standard", help="rule variant, e.g. plakoto")
    p.set_defaults(func=cmd_play)

    b = sub.add_parser("bench", help="measure speed side by side",
                       description=_fill("Measure random self-play side by side with OpenSpiel "
                       "(and pgx, gnubg-nn where installed), in process CPU time."),
                       formatter_class=_HelpFormatter)
    b.add_argument("--seconds", type=_positive_seconds, default=3.0, help="time per measurement")
    b.add_argument("--json", action="store_true", help="print the numbers as JSON")
    b.add_argument("--variants", action="store_true",
                   help="only the per-variant rows (env() random self-play, every variant)")
    b.add_argument("--targets", action="store_true",
                   help="only the rows of the speed targets (env() and the vector env "
                        "against OpenSpiel, the legal-play kernel against gnubg-nn)")
    b.set_defaults(func=cmd_bench)
    return parser


def main(argv: list[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(argv)
    except SystemExit as exc:  # argparse printed the usage and the error (or --help)
        return int(exc.code or 0)
    _show_library_logs()
    from bg_env.kernels.cache import first_use_note

    note = first_use_note()
    if note:
        logging.getLogger("bg_env").info(note)
    try:
        return args.func(args)
    except (ValueError, OSError) as exc:  # OSError: a path that cannot be read or written
        print(f"bg-env {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        hint = RESUME_HINTS.get(args.command)
        print("\ninterrupted" + (f"; {hint}" if hint else ""), file=sys.stderr)
        return 130


class StderrHandler(logging.StreamHandler):
    """A handler that writes to ``sys.stderr`` as it is when a message comes, not as it was
    when the handler was made (a redirect, a test's capture: the old stream may be closed)."""

    @property
    def stream(self):
        return sys.stderr

    @stream.setter
    def stream(self, value) -> None:
        """(``StreamHandler`` sets its stream; this one has none of its own.)"""


def _show_library_logs() -> None:
    """INFO messages of ``agents`` and ``bg_env`` on stderr, once."""
    handler = StderrHandler()
    handler.setFormatter(logging.Formatter("%(message)s"))
    for name in LIBRARY_LOGGERS:
        log = logging.getLogger(name)
        if not log.handlers:
            log.addHandler(handler)
            log.setLevel(logging.INFO)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
