"""The README's Python snippets run as written, and its first PettingZoo loop is
reproducible with its seed.

Every ```python block of README.md is a test case, run in a fresh namespace from the
repository root. A block that trains (``.learn(``) is marked slow; one whose imports are
not installed (an optional extra) is skipped; a block right after an
``<!-- readme-test: skip -->`` line is not run (one that needs a cluster, say)."""

from __future__ import annotations

import contextlib
import io
import os
import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"
_BLOCK = re.compile(r"(<!-- readme-test: skip -->\s*\n)?```python\n(.*?)```", re.S)


def python_blocks() -> list[tuple[str, bool]]:
    """``(code, skip)`` of every Python block of the README, in order."""
    return [(m.group(2), bool(m.group(1))) for m in _BLOCK.finditer(README.read_text())]


def _cases():
    for i, (code, skip) in enumerate(python_blocks()):
        marks = [pytest.mark.slow] if ".learn(" in code else []
        if skip:
            marks.append(pytest.mark.skip(reason="marked <!-- readme-test: skip --> in README"))
        yield pytest.param(code, id=f"block{i}-" + code.split("\n", 1)[0][:30], marks=marks)


def run_block(code: str) -> tuple[dict, str]:
    """Run ``code`` from the repository root; its namespace and what it printed."""
    namespace: dict = {"__name__": "__readme__"}
    out = io.StringIO()
    cwd = os.getcwd()
    os.chdir(README.parent)
    try:
        with contextlib.redirect_stdout(out):
            exec(compile(code, str(README), "exec"), namespace)
    except ModuleNotFoundError as exc:  # an optional extra that is not installed
        pytest.skip(f"README block needs {exc.name}")
    finally:
        os.chdir(cwd)
    return namespace, out.getvalue()


def test_the_readme_has_its_snippets():
    blocks = [code for code, _ in python_blocks()]
    assert len(blocks) >= 4
    assert any("env.agent_iter()" in code for code in blocks)


@pytest.mark.parametrize("code", list(_cases()))
def test_readme_block_runs_as_written(code):
    run_block(code)


def test_first_pettingzoo_loop_is_reproducible_with_its_seed():
    loop = next(code for code, _ in python_blocks() if "env.agent_iter()" in code)
    assert "seed=42" in loop and "sample(mask)" in loop  # the loop as the README shows it
    results = []
    for _ in range(2):
        ns, printed = run_block(loop)
        raw = ns["env"].unwrapped
        results.append((printed, ns["info"], raw.position_id(), raw.game.turns))
    assert results[0] == results[1]
    printed, info, _, turns = results[0]
    assert info["outcome"] in printed and turns > 10  # a whole game was played
