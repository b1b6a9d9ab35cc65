"""The ``bg-env`` command line: ``train``, ``eval``, ``play``, ``bench``.

Examples::

    bg-env train                              # configs/default.yaml (TD-Gammon, ~10 min)
    bg-env train configs/ppo.yaml --set total_timesteps=200000
    bg-env train configs/td.yaml --resume     # continue an interrupted run
    bg-env eval td pubeval --games 1000 --json results.json
    bg-env eval td pubeval --match 7 --games 200   # 200 matches to 7 points
    bg-env eval random pubeval --rules configs/variants/nackgammon.yaml
    bg-env play --opponent td
    bg-env bench
"""

from __future__ import annotations

import argparse
import json
import os
import sys

__all__ = ["main"]

DEFAULT_CONFIG = os.path.join("configs", "default.yaml")


def _find_config(path: str | None) -> str:
    if path is None:
        path = DEFAULT_CONFIG
    if os.path.exists(path):
        return path
    for base in ("configs", os.path.join(os.path.dirname(__file__), "..", "configs")):
        cand = os.path.join(base, path if path.endswith(".yaml") else path + ".yaml")
        if os.path.exists(cand):
            return cand
    raise FileNotFoundError(f"config file {path!r} does not exist (looked in ./ and configs/)")


def cmd_train(args) -> int:
    import yaml

    from .config import load_config, parse_overrides

    path = _find_config(args.config)
    overrides = parse_overrides(args.set or [])
    with open(path) as fh:
        algo = (yaml.safe_load(fh) or {}).get("algo", "td")
    algo = overrides.get("algo", algo)
    if algo == "td":
        from .train_td import TDConfig, train_td

        cfg = load_config(TDConfig, path, overrides)
        final = train_td(cfg, resume=args.resume, progress=not args.quiet)
    elif algo == "ppo":
        from .ppo import PPOConfig, train_ppo

        cfg = load_config(PPOConfig, path, overrides)
        final = train_ppo(cfg, resume=args.resume, progress=not args.quiet)
    else:
        raise ValueError(f"{path}: algo={algo!r}: expected 'td' or 'ppo'")
    print(f"\nrun folder: {cfg.run_dir}  (report: {os.path.join(cfg.run_dir, 'report.md')})")
    for spec, s in final.items():
        if isinstance(s, dict):
            print(f"  vs {spec:8s} win {s['win_rate']:6.1%}  ppg {s['ppg']:+.3f} +- {s['ppg_ci95']:.3f}"
                  f"  ({s['games']} games)")
    return 0


def cmd_eval(args) -> int:
    from . import load_agent
    from .evaluate import evaluate

    a, b = load_agent(args.agent_a), load_agent(args.agent_b)
    a.name, b.name = args.agent_a, args.agent_b
    options = {}
    if args.rules:
        from .config import load_env_options

        options = load_env_options(args.rules)
    if args.variant:
        options["variant"] = args.variant
    cube = bool(options.pop("cube", False)) or args.cube
    if args.match is not None:
        from .evaluate import evaluate_matches

        if args.match < 1:
            raise ValueError(f"--match {args.match}: expected a match length of 1 or more points")
        stats = evaluate_matches(a, b, matches=args.games, length=args.match, seed=args.seed,
                                 progress=not args.quiet, **options)
    else:
        stats = evaluate(a, b, games=args.games, seed=args.seed, cube=cube,
                         progress=not args.quiet, **options)
    print(stats.table())
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(stats.summary(), fh, indent=2)
        print(f"wrote {args.json}")
    return 0


def cmd_play(args) -> int:
    from .human import play_human

    return play_human(args.opponent, seed=args.seed, cube=args.cube, variant=args.variant)


def cmd_bench(args) -> int:
    from .bench import run_bench

    run_bench(seconds=args.seconds, as_json=args.json)
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="bg-env", description="bg_env: backgammon for RL research")
    sub = parser.add_subparsers(dest="command", required=True)

    t = sub.add_parser("train", help="train a baseline from a YAML config")
    t.add_argument("config", nargs="?", help=f"YAML config (default {DEFAULT_CONFIG})")
    t.add_argument("--set", nargs="*", metavar="KEY=VALUE", help="override config values")
    t.add_argument("--resume", action="store_true", help="continue from the run folder's checkpoint")
    t.add_argument("--quiet", action="store_true", help="no progress bar")
    t.set_defaults(func=cmd_train)

    e = sub.add_parser("eval", help="play agent A against agent B")
    e.add_argument("agent_a", help="agent spec, e.g. td, ppo:PATH, pubeval, random")
    e.add_argument("agent_b", help="agent spec")
    e.add_argument("--games", type=int, default=1000, help="games (played in pairs with the same dice)")
    e.add_argument("--seed", type=int, default=0)
    e.add_argument("--cube", action="store_true", help="play with the doubling cube")
    e.add_argument("--match", type=int, metavar="N",
                   help="play matches to N points (cube and Crawford rule); --games is then "
                        "the number of matches")
    e.add_argument("--rules", metavar="YAML",
                   help="environment options file, e.g. configs/variants/plakoto.yaml")
    e.add_argument("--variant", help="rule variant, e.g. nackgammon (overrides --rules)")
    e.add_argument("--json", metavar="PATH", help="write the statistics as JSON")
    e.add_argument("--quiet", action="store_true")
    e.set_defaults(func=cmd_eval)

    p = sub.add_parser("play", help="play against an agent in the terminal")
    p.add_argument("--opponent", default="td", help="agent spec (default td)")
    p.add_argument("--seed", type=int, default=None)
    p.add_argument("--cube", action="store_true", help="play with the doubling cube")
    p.add_argument("--variant", default="standard", help="rule variant, e.g. plakoto")
    p.set_defaults(func=cmd_play)

    b = sub.add_parser("bench", help="measure speed side by side")
    b.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    b.add_argument("--json", action="store_true", help="print the numbers as JSON")
    b.set_defaults(func=cmd_bench)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except (ValueError, FileNotFoundError) as exc:
        print(f"bg-env {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\ninterrupted; `bg-env train --resume` continues a training run", file=sys.stderr)
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
