"""The progress of a long labelling run (``python -m agents.training.distill_file label``), so that
an interrupted run can go on where it stopped. Two-roll labels take about 80 core-hours a
round.

Each finished chunk of games is saved, atomically, as a part file in the folder
``OUT.parts/``, named by its games: ``games-0000100-0000105.npz`` holds games 100 to 104.
The folder's ``settings.json`` records what the labels depend on: the teacher file's
SHA-256, the seed, ``top_k`` and the plies. Running the same command again labels only the
games that no part holds yet.

The result is exact. Game ``g`` rolls its dice from ``default_rng([seed, g])``, so a part
holds the same rows whichever run made it. The label file is the parts in game order:
the same arrays an uninterrupted run writes. Once that file is written, the parts of its
games are deleted, and the folder too when no part of other games is left in it. A folder
whose settings differ from the run's is refused, with each difference named. Part files
are read with ``allow_pickle=False``, so reading them runs no code.
"""

from __future__ import annotations

import io
import json
import os
import re
import shutil

import numpy as np

from ..config import changed_settings
from ..players.model_files import write_atomically

__all__ = ["LabelParts"]

_PART = re.compile(r"games-(\d+)-(\d+)\.npz")
_SETTINGS = "settings.json"


class LabelParts:
    """The parts folder of the label file ``out``, for a run with ``settings`` (JSON
    values: what the labels depend on)."""

    def __init__(self, out: str, settings: dict) -> None:
        self.folder = f"{out}.parts"
        self.settings = json.loads(json.dumps(settings))

    def open(self) -> None:
        """Make the folder with the run's settings, or check the settings of the one
        there.

        Raises:
            ValueError: the folder holds parts of other settings (each one named).
        """
        path = os.path.join(self.folder, _SETTINGS)
        if not os.path.exists(path):
            os.makedirs(self.folder, exist_ok=True)
            write_atomically(path, json.dumps(self.settings, indent=2) + "\n")
            return
        with open(path, encoding="utf-8") as fh:
            try:
                saved = json.load(fh)
            except ValueError as exc:
                raise ValueError(f"{path!r} is not JSON ({exc})") from None
        changed = changed_settings(saved, self.settings)
        if changed:
            raise ValueError(f"the parts in {self.folder!r} are of another labelling run: "
                             f"{changed} (run with the same settings to go on, "
                             f"or delete the folder to start anew)")

    def saved_ranges(self, first: int, end: int) -> list[tuple[int, int]]:
        """The game ranges ``(g0, g1)`` (``g1`` excluded) of the parts inside
        ``first .. end - 1``, in order, none overlapping another."""
        chosen: list[tuple[int, int]] = []
        for g0, g1 in self._inside(first, end):
            if not chosen or g0 >= chosen[-1][1]:
                chosen.append((g0, g1))
        return chosen

    def chunks_to_do(self, first: int, end: int, size: int) -> list[list[int]]:
        """The games of ``first .. end - 1`` that no part holds, in chunks of at most
        ``size`` consecutive games."""
        chunks, g = [], first
        for g0, g1 in self.saved_ranges(first, end) + [(end, end)]:
            for start in range(g, g0, size):
                chunks.append(list(range(start, min(start + size, g0))))
            g = g1
        return chunks

    def save(self, games: list[int], arrays: dict[str, np.ndarray]) -> None:
        """Save the labelled ``games`` (consecutive) as one part, atomically."""
        buffer = io.BytesIO()
        np.savez(buffer, **arrays)
        write_atomically(self._path(games[0], games[-1] + 1), buffer.getvalue())

    def load(self, g0: int, g1: int) -> dict[str, np.ndarray]:
        """The arrays of the part of games ``g0 .. g1 - 1``."""
        with np.load(self._path(g0, g1), allow_pickle=False) as blob:
            return {key: blob[key] for key in blob.files}

    def remove(self, first: int, end: int) -> None:
        """Delete the parts of games ``first .. end - 1`` (the label file is written), and
        the folder when no other part is left in it (those of other games are kept)."""
        for g0, g1 in self._inside(first, end):
            os.unlink(self._path(g0, g1))
        if not self._inside(0, float("inf")):
            shutil.rmtree(self.folder, ignore_errors=True)

    def _inside(self, first: int, end: float) -> list[tuple[int, int]]:
        """The game ranges of all the parts inside ``first .. end - 1``, in order."""
        ranges = []
        for name in os.listdir(self.folder):
            match = _PART.fullmatch(name)
            if match and first <= int(match[1]) < int(match[2]) <= end:
                ranges.append((int(match[1]), int(match[2])))
        return sorted(ranges)

    def _path(self, g0: int, g1: int) -> str:
        """The file of the part of games ``g0 .. g1 - 1``."""
        return os.path.join(self.folder, f"games-{g0:07d}-{g1:07d}.npz")
