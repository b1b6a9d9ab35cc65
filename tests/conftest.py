"""Makes ``tests/helpers.py`` importable (``from helpers import pos``) from every test
directory, and offers its builders as fixtures."""

from __future__ import annotations

import sys
from pathlib import Path

_TESTS = str(Path(__file__).resolve().parents[1])
if _TESTS not in sys.path:
    sys.path.insert(0, _TESTS)

import pytest  # noqa: E402

import helpers  # noqa: E402


@pytest.fixture
def pos():
    """The one-line position builder ``pos("x bar:1 13:5 8:3 6:6; o 19:2")``
    (every point in the numbering of x, the player on roll; see ``tests/helpers.py``)."""
    return helpers.pos


@pytest.fixture
def random_cases():
    """The seeded ``random_cases(n, seed)`` generator of ``(phase, position, dice)``."""
    return helpers.random_cases
