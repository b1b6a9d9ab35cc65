"""``bg-env eval``: the command that plays two agents against each other
(:func:`~agents.evaluation.evaluate.evaluate`, or matches), prints the table and writes
what was asked for: JSON, ``.mat`` records, a checkpoint, each checked before the games."""

from __future__ import annotations

import os
import sys

__all__ = ["cmd_eval", "dead_match_cube"]


def cmd_eval(args) -> int:
    """``bg-env eval A B``: play agent A against agent B as the parsed ``args`` say
    (:func:`agents.cli.build_parser`), print the table, write the files asked for."""
    from .. import NAIVE_SUFFIX, load_agent
    from ..players.cube import cube_naive
    from .evaluate import evaluate

    for option, path in (("--json", args.json), ("--save-mat", args.save_mat),
                         ("--checkpoint", args.checkpoint)):
        if path:
            _check_output(option, path)  # before the games, not after them
    _check_outputs_apart(args)
    a, b = load_agent(args.agent_a), load_agent(args.agent_b)  # "td+naive" is cube-naive
    a.name, b.name = args.agent_a, args.agent_b
    torch = sys.modules.get("torch")  # loaded by the agents that run networks
    if torch is not None:
        torch.set_num_threads(args.torch_threads)
    naive = args.cube_naive
    if naive in ("A", "both"):
        a = cube_naive(a, args.agent_a + NAIVE_SUFFIX)
    if naive in ("B", "both"):
        b = cube_naive(b, args.agent_b + NAIVE_SUFFIX)
    if args.match_cube == "dead":
        dead_match_cube(a)
        dead_match_cube(b)
    options = {}
    if args.rules:
        from ..config import find_config, load_env_options

        options = load_env_options(find_config(_variant_file(args.rules), "variants"))
    if args.variant:
        options["variant"] = args.variant
    cube = bool(options.pop("cube", False)) or args.cube
    saving, checkpoint = {}, None
    if args.checkpoint:
        from .eval_checkpoint import EvalCheckpoint

        settings = {} if args.match is None else {"match_cube": args.match_cube}
        settings.update(_model_digests(args.agent_a, args.agent_b))
        checkpoint = EvalCheckpoint(args.checkpoint, settings=settings)
    if args.match is not None:
        from .evaluate import evaluate_matches

        if args.save_mat:
            saving["records"] = []
        stats = evaluate_matches(a, b, matches=args.games, length=args.match, seed=args.seed,
                                 progress=not args.quiet, checkpoint=checkpoint,
                                 workers=args.workers, **saving, **options)
    else:
        if args.save_mat:
            from bg_env.records import MatchRecord

            saving["record"] = MatchRecord((args.agent_a, args.agent_b))
        stats = evaluate(a, b, games=args.games, seed=args.seed, cube=cube,
                         progress=not args.quiet, checkpoint=checkpoint,
                         workers=args.workers, **saving, **options)
    if stats.agent_a == stats.agent_b:  # td against td: the table tells the seats apart
        stats.agent_a, stats.agent_b = f"{stats.agent_a} (A)", f"{stats.agent_b} (B)"
    print(stats.table())
    if saving:
        _save_mat(args.save_mat, saving.get("records") or [saving["record"]])
    if args.json:
        from ..players.model_files import write_json

        write_json(args.json, stats.summary())
        print(f"wrote {args.json}")
    return 0


def _variant_file(name: str) -> str:
    """``--rules NAME``: a variant's other name is its file's (``hypergammon`` is
    ``hypergammon3``); anything else (a path, a file name) as given."""
    from bg_env.rules.variants import VARIANTS

    return VARIANTS[name].name if name in VARIANTS else name


def _check_output(option: str, path: str) -> None:
    """Raise ValueError naming ``option`` unless ``path`` can be written whole
    (:func:`bg_env.files.check_writable`: a writable folder that exists, and nothing there
    or a regular file the user may write)."""
    from bg_env.files import check_writable

    try:
        check_writable(path)
    except (OSError, ValueError) as exc:
        reason = str(exc).removeprefix(f"{path}: ")
        raise ValueError(f"{option} {path!r}: {reason}") from None


def _save_mat(path: str, records: list) -> None:
    """Write the records of an evaluation: one .mat file, or for several matches one file
    per match (``NAME-1.mat``, ``NAME-2.mat``, ...: a .mat file holds one match), each
    written atomically (a kill mid-write leaves the old file whole, not half a record)."""
    from bg_env.records import write_mat

    paths = _mat_paths(path, len(records))
    for p, record in zip(paths, records):
        write_mat(p, record)
    games = sum(len(r.games) for r in records)
    shown = paths[0] if len(paths) == 1 else f"{paths[0]} .. {paths[-1]}"
    money = "set jacoby off, then " if records[0].length == 0 else ""
    print(f"wrote {shown} ({games} games; in GNU Backgammon: {money}import mat FILE)")


def _mat_paths(path: str, count: int) -> list[str]:
    """The files ``--save-mat PATH`` writes for ``count`` records: PATH for one,
    ``STEM-1.EXT`` .. ``STEM-count.EXT`` for several."""
    if count == 1:
        return [path]
    stem, ext = os.path.splitext(path)
    return [f"{stem}-{i}{ext or '.mat'}" for i in range(1, count + 1)]


def _model_digests(*specs: str) -> dict[str, str]:
    """The SHA-256 of each agent's model file, so that an evaluation's checkpoint is only
    continued with the same models (``td:PATH`` rewritten between two runs, or a new
    shipped ``td.pt``, is another evaluation)."""
    from .. import model_file
    from ..players.model_files import file_sha256

    files = {spec: model_file(spec) for spec in specs}
    return {f"sha256 of {spec}'s model": file_sha256(path)
            for spec, path in files.items() if path is not None}


def _check_outputs_apart(args) -> None:
    """Raise ValueError when two of ``--json``, ``--save-mat`` and ``--checkpoint`` name
    one file (links and ``..`` followed): the later write would replace the earlier one's
    games, report or checkpoint."""
    from bg_env.files import same_file

    outputs = [("--json", args.json)] if args.json else []
    if args.save_mat:
        from .evaluate import pairs_of

        records = 1 if args.match is None else 2 * pairs_of(args.games)
        outputs += [("--save-mat", p) for p in _mat_paths(args.save_mat, records)]
    if args.checkpoint:
        outputs.append(("--checkpoint", args.checkpoint))
    for i, (option, path) in enumerate(outputs):
        for other, other_path in outputs[i + 1:]:
            if other != option and same_file(path, other_path):
                raise ValueError(f"{option} {path!r} and {other} {other_path!r} are one file; "
                                 "give them different files")


def dead_match_cube(agent) -> None:
    """Switch ``agent``'s match-play cube to the dead-cube model (agents whose cube comes
    from their own evaluation have ``cube_settings``; others are left as they are)."""
    from dataclasses import replace

    settings = getattr(agent, "cube_settings", None)
    if settings is not None:
        agent.cube_settings = replace(settings, live_match_cube=False)
