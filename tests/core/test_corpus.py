"""The engine against ``tests/data/legal_plays_corpus.txt`` (GNU Backgammon's legal
results, stored as data; see the file header and ``tests/data/make_corpus.py``). Runs
without gnubg."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import pytest

from helpers import PHASES, show

from bg_env.rules import Position, legal_results

CORPUS = Path(__file__).resolve().parents[1] / "data" / "legal_plays_corpus.txt"


def read_corpus() -> list[tuple[str, str, tuple[int, int], int, str]]:
    """``(phase, position_id, dice, count, sha1)`` for every case line."""
    cases = []
    phase = "?"
    for number, line in enumerate(CORPUS.read_text(encoding="ascii").splitlines(), start=1):
        if line.startswith("# phase:"):
            phase = line.split(":", 1)[1].strip()
        if not line.strip() or line.startswith("#"):
            continue
        pid, dice, count, sha1 = line.split(" ")
        assert len(pid) == 14 and len(dice) == 2 and len(sha1) == 40, f"line {number}: {line!r}"
        cases.append((phase, pid, (int(dice[0]), int(dice[1])), int(count), sha1))
    return cases


def test_corpus_covers_every_phase():
    cases = read_corpus()
    assert len(cases) >= 1000
    phases = {c[0] for c in cases}
    assert {"opening", *PHASES} <= phases
    assert any(c[3] == 1 for c in cases) and max(c[3] for c in cases) > 100


def test_legal_results_match_the_corpus():
    failures = []
    for phase, pid, dice, count, sha1 in read_corpus():
        ids = sorted(legal_results(pid, dice))
        got = hashlib.sha1(" ".join(ids).encode("ascii")).hexdigest()
        if (len(ids), got) != (count, sha1):
            position = Position.from_position_id(pid)
            failures.append(show(
                position, dice, f"phase {phase}: expected {count} results (sha1 {sha1})",
                f"got {len(ids)} ({got})",
            ))
    assert not failures, f"{len(failures)} corpus cases differ:" + "".join(failures[:5])


@pytest.mark.parametrize("dice, shown", [(None, "dice=None"), (31, "dice=31"),
                                         ("61", "dice='61'")])
def test_legal_results_names_bad_dice_as_given(dice, shown):
    # tuple(dice) came first: None and 31 were a bare TypeError, '61' was shown as ('6', '1')
    with pytest.raises(ValueError, match=rf"^{re.escape(shown)}: expected two integer dice"):
        legal_results("4HPwATDgc/ABMA", dice)
