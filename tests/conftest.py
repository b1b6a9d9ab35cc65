"""Makes ``tests/helpers.py`` importable (``from helpers import pos``) from every test
directory, offers its builders as fixtures, and sets Hypothesis's profile.

Hypothesis profiles: ``repeatable`` (the default) derandomizes, so every run of the suite
(CI included) tries the same examples and a failure can be rerun; ``explore`` draws new
examples each run, to look for cases nobody has tried yet:
``python -m pytest tests --hypothesis-profile=explore`` (or ``HYPOTHESIS_PROFILE=explore``).
"""

from __future__ import annotations

import sys
from pathlib import Path

_TESTS = str(Path(__file__).resolve().parents[1])
if _TESTS not in sys.path:
    sys.path.insert(0, _TESTS)

import os  # noqa: E402

import pytest  # noqa: E402
from hypothesis import settings  # noqa: E402

import helpers  # noqa: E402

settings.register_profile("repeatable", derandomize=True, print_blob=True)
settings.register_profile("explore", derandomize=False, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "repeatable"))


@pytest.fixture
def pos():
    """The one-line position builder ``pos("x bar:1 13:5 8:3 6:6; o 19:2")``
    (every point in the numbering of x, the player on roll; see ``tests/helpers.py``)."""
    return helpers.pos


@pytest.fixture
def random_cases():
    """The seeded ``random_cases(n, seed)`` generator of ``(phase, position, dice)``."""
    return helpers.random_cases
