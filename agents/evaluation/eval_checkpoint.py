"""Checkpoints of a long evaluation (``bg-env eval --checkpoint FILE``): an evaluation that
was interrupted picks up at the pair of games it stopped at, and ends with the same games,
statistics and records as one that was never stopped.

Skipping the pairs already played is exact. Each pair's dice come from its own seed,
the ``i``-th of ``SeedSequence(seed).generate_state(pairs)``, and that list starts the
same for any number of pairs. The only other state that one game hands to the next is
held by the agents' own generators (the ``rng`` of a random agent), and the checkpoint
saves them. An agent that kept some other state from game to game would not resume
exactly; none of the shipped agents does.

The file is JSON, so loading it runs no code. It is rewritten atomically at the end of a
pair, at most every ``every`` seconds (less often when saving takes long: a large record
is rewritten whole, so saves are spaced to cost at most 5% of the time), and always after
the last pair. It holds:

* what identifies the evaluation: the agents' names, the seed, the cube, the rule
  options, the match length, whether records are kept, and the caller's own settings
  (``bg-env eval``'s ``--match-cube`` and the SHA-256 of each agent's model file, so that
  a model file changed between two runs makes it another evaluation; called from Python,
  the agents are known by name only, unless ``settings`` says more);
* the pairs done, the statistics and the agents' generator states;
* with records (``--save-mat``), the records so far as ``.mat`` text.

Running again with more games continues the same evaluation, because its first pairs are
the same games. A run with different settings, or fewer games than are done, is refused
with the setting named.
"""

from __future__ import annotations

import json
import logging
import os
import time
from dataclasses import asdict

import numpy as np

from bg_env.envs.opponents import opponent_generator_state, restore_opponent_generator

from ..config import changed_settings
from ..players.model_files import write_atomically

__all__ = ["EvalCheckpoint", "FORMAT"]

logger = logging.getLogger(__name__)

FORMAT = "bg-env eval checkpoint 1"
"""The ``format`` entry of a checkpoint file (its version follows the name)."""


class EvalCheckpoint:
    """The checkpoint file of one evaluation; see the module's description.

    :func:`~agents.evaluation.evaluate.evaluate` and :func:`~agents.evaluation.evaluate.evaluate_matches` take
    one (or a path, which they make one of with the default interval) and call :meth:`start`
    before the first game and :meth:`pair_done` after every pair.
    """

    def __init__(self, path: str | os.PathLike, every: float = 10.0,
                 settings: dict | None = None) -> None:
        self.path = os.fspath(path)
        self.every = float(every)
        """Seconds between two saves (0: after every pair)."""
        self.settings = dict(settings or {})
        """Settings of the caller's that change the games but that the evaluation does not
        see, kept and checked with its own (``bg-env eval`` keeps ``--match-cube``)."""
        self._last_save = 0.0
        self._wait = self.every
        self._bound: dict | None = None

    def start(self, run: dict, stats, agents, pairs: int, records: list | None = None,
              rules=None):
        """Bind the evaluation ``run`` (what identifies it; JSON values) that fills
        ``stats`` over ``pairs`` pairs, with ``agents`` and ``records`` (the
        :class:`~bg_env.records.MatchRecord` list being filled, or None). When the file
        exists, the statistics, the agents' generators and the records are put back as
        they were after its last pair. Returns the statistics to go on with and the pairs
        done.

        Raises:
            ValueError: the file is not a checkpoint, is of another evaluation (the
                setting that differs is named), or has more pairs done than ``pairs``.
        """
        run = json.loads(json.dumps(dict(run, **self.settings), default=_plain))  # as read
        self._bound = {"run": run, "stats": stats, "agents": agents, "pairs": pairs,
                       "records": records}
        done = 0
        if os.path.exists(self.path):
            saved = self._read()
            self._check_same_run(saved["run"], run)
            done = saved["pairs_done"]
            if done > pairs:
                raise ValueError(f"checkpoint {self.path!r} has {2 * done} games done, more "
                                 f"than the {2 * pairs} asked for")
            stats = self._bound["stats"] = self._put_back(saved, stats, agents, records, rules)
            logger.info("resuming from %s: %d of %d games done", self.path, 2 * done, 2 * pairs)
        self._last_save = time.monotonic()
        return stats, done

    def _put_back(self, saved: dict, stats, agents, records: list | None, rules):
        """The saved statistics, with the agents' generators and the ``records`` put back
        as saved: all or nothing (a damaged entry raises ValueError naming the file, and
        leaves the agents and the records as they were)."""
        from bg_env.records import parse_mat

        before = [opponent_generator_state(agent) for agent in agents]
        try:
            stats = _checked_stats(saved["stats"], stats, saved["pairs_done"])
            texts = saved["records"] if records is not None else []
            expected = 2 * saved["pairs_done"] if hasattr(stats, "matches") else 1
            if records is not None and len(texts) != expected:
                raise ValueError(f"{len(texts)} records, {expected} expected")
            saved_records = [parse_mat(text, rules) for text in texts]
            if len(saved["generators"]) != len(agents):
                raise ValueError(f"{len(saved['generators'])} generator states for "
                                 f"{len(agents)} agents")
            for agent, state, now in zip(agents, saved["generators"], before):
                if (state is None) != (now is None):
                    raise ValueError("a generator state for an agent without a generator, "
                                     "or none for one with a generator")
                restore_opponent_generator(agent, state)
        except (TypeError, KeyError, ValueError, AttributeError) as exc:
            for agent, state in zip(agents, before):
                restore_opponent_generator(agent, state)
            raise ValueError(f"checkpoint {self.path!r} is damaged "
                             f"({type(exc).__name__}: {exc})") from None
        _add_records(records, saved_records)
        return stats

    def pair_done(self, done: int) -> None:
        """``done`` pairs are finished: save when ``every`` seconds (or 20 times the last
        save's time, when that is longer and ``every`` is not 0) have passed since the last
        save, or when this was the last pair."""
        if done >= self._bound["pairs"] or time.monotonic() - self._last_save >= self._wait:
            self.save(done)

    def save(self, done: int) -> None:
        """Write the checkpoint with ``done`` pairs finished (atomically)."""
        began = time.monotonic()
        bound = self._bound
        data = {
            "format": FORMAT, "run": bound["run"], "pairs_done": done,
            "stats": asdict(bound["stats"]),
            "generators": [opponent_generator_state(agent) for agent in bound["agents"]],
        }
        if bound["records"] is not None:
            from bg_env.records import format_mat

            data["records"] = [format_mat(record) for record in bound["records"]]
        write_atomically(self.path, json.dumps(data))
        self._last_save = time.monotonic()
        if self.every > 0:  # (0: after every pair, however long saving takes)
            self._wait = max(self.every, 20 * (self._last_save - began))

    def _read(self) -> dict:
        """The saved checkpoint, its entries checked."""
        try:
            with open(self.path, encoding="utf-8") as fh:
                text = fh.read()
        except UnicodeDecodeError:
            raise ValueError(f"{self.path!r} is not a bg-env evaluation checkpoint (a binary "
                             "file, not JSON); give another --checkpoint file") from None
        try:
            saved = json.loads(text)
        except ValueError as exc:
            raise ValueError(f"checkpoint {self.path!r} is not JSON ({exc})") from None
        if not isinstance(saved, dict) or saved.get("format") != FORMAT:
            raise ValueError(f"{self.path!r} is not a bg-env evaluation checkpoint (expected "
                             f"format {FORMAT!r}); give another --checkpoint file")
        missing = [k for k in ("run", "pairs_done", "stats", "generators") if k not in saved]
        if missing:
            raise ValueError(f"checkpoint {self.path!r} lacks {missing}")
        done = saved["pairs_done"]
        if isinstance(done, bool) or not isinstance(done, int) or done < 0:
            raise ValueError(f"checkpoint {self.path!r} is damaged (pairs_done {done!r})")
        for key, kind in (("run", dict), ("stats", dict), ("generators", list)):
            if not isinstance(saved[key], kind):
                raise ValueError(f"checkpoint {self.path!r} is damaged ({key} is not a "
                                 f"{kind.__name__})")
        if not isinstance(saved["run"].get("rules", {}), dict):
            raise ValueError(f"checkpoint {self.path!r} is damaged (its rules are not a dict)")
        return saved

    def _check_same_run(self, saved: dict, run: dict) -> None:
        """Raise ValueError naming every setting where the saved run differs."""
        changed = changed_settings(_flat(saved), _flat(run))
        if changed:
            raise ValueError(
                f"checkpoint {self.path!r} is of another evaluation: {changed} "
                f"(run with the same settings to continue it, or give another --checkpoint "
                f"file to start anew)")


def _checked_stats(data: dict, fresh, pairs_done: int):
    """The statistics saved as ``data``, of the kind of ``fresh`` (a new object), each
    field checked against ``fresh``'s kind, and the games (money) or matches counted no
    more than the pairs done allow (exactly, for matches).

    Raises:
        ValueError, TypeError: a field of another kind; a count that does not fit.
    """
    stats = type(fresh).from_dict(data)
    for name, value in vars(stats).items():
        expected = getattr(fresh, name)
        items = value.values() if isinstance(value, dict) else value
        if type(value) is not type(expected) or (
                isinstance(value, (list, dict)) and not all(_whole(v) for v in items)):
            raise ValueError(f"the statistics' {name} is {value!r}")
    matches = getattr(stats, "matches", None)
    if matches is not None and matches != 2 * pairs_done:
        raise ValueError(f"{matches} matches for {pairs_done} pairs")
    if matches is None and not 0 <= stats.games <= 2 * pairs_done:  # (truncated games
        raise ValueError(f"{stats.games} games for {pairs_done} pairs")  # are not counted)
    problems = stats.contradictions()
    if problems:
        raise ValueError("; ".join(problems))
    return stats


def _whole(value) -> bool:
    """A whole number, or a pair of them (a match's final score)."""
    if isinstance(value, tuple):
        return len(value) == 2 and all(_whole(v) for v in value)
    return isinstance(value, int) and not isinstance(value, bool)


def _plain(value):
    """A numpy number as the plain number it is (``json.dumps``'s ``default``).

    Raises:
        ValueError: a setting a checkpoint cannot keep, named.
    """
    if isinstance(value, np.generic):
        return value.item()
    raise ValueError(f"the evaluation's setting {value!r} cannot be kept in a checkpoint "
                     f"(numbers, text, true/false, lists and dicts can)")


def _flat(run: dict) -> dict:
    """``run`` with its rule options as keys of their own (``rule 'cube'``)."""
    flat = {k: v for k, v in run.items() if k != "rules"}
    flat.update({f"rule {k!r}": v for k, v in run.get("rules", {}).items()})
    return flat


def _add_records(records: list | None, saved: list) -> None:
    """Fill ``records`` with the ``saved`` ones: the games of those already in the list (money
    play's one record) are added to them, the others appended."""
    for i, record in enumerate(saved):
        if i < len(records):
            for game in record.games:
                records[i].add(game)
        else:
            records.append(record)
