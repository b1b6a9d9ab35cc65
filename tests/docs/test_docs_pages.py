"""The documentation site: it builds with Sphinx with every warning an error, and the
Python blocks of its pages run as written.

A page's blocks run in order in one namespace (a later block may use an earlier one's
names), from the repository root. A page whose blocks need an optional extra that is not
installed is skipped; ``docs/scaling.md`` runs as scripts in
``tests/integrations/test_readme_recipes.py``.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
BLOCK = re.compile(r"^```python\n(.*?)^```", re.S | re.M)
RUN_ELSEWHERE = {"scaling.md"}


def pages() -> list[Path]:
    return sorted(p for p in DOCS.rglob("*.md") if "_build" not in p.parts)


def page_blocks(page: Path) -> list[str]:
    return BLOCK.findall(page.read_text())


def _cases():
    for page in pages():
        blocks = page_blocks(page)
        if not blocks or page.name in RUN_ELSEWHERE:
            continue
        marks = [pytest.mark.slow] if any(".learn(" in b for b in blocks) else []
        yield pytest.param(page, id=str(page.relative_to(DOCS)), marks=marks)


def test_the_site_has_its_pages_and_snippets():
    names = {str(p.relative_to(DOCS)) for p in pages()}
    for page in ("index.md", "getting-started.md", "envs/backgammon.md", "RULES.md",
                 "variants.md", "cube.md", "agents.md", "models.md", "training.md",
                 "evaluation.md", "records.md", "scaling.md", "speed.md", "api.md",
                 "changelog.md"):
        assert page in names
    assert len(list(_cases())) >= 6


@pytest.mark.parametrize("page", list(_cases()))
def test_page_blocks_run_as_written(page):
    namespace: dict = {"__name__": "__docs__"}
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            for code in page_blocks(page):
                exec(compile(code, str(page), "exec"), namespace)
    except ModuleNotFoundError as exc:  # an optional extra that is not installed
        pytest.skip(f"{page.name} needs {exc.name}")
    finally:
        os.chdir(cwd)


def test_the_site_builds_without_a_warning(tmp_path):
    pytest.importorskip("sphinx", reason="the docs extra: pip install -e '.[docs]'")
    pytest.importorskip("myst_parser", reason="the docs extra: pip install -e '.[docs]'")
    pytest.importorskip("furo", reason="the docs extra: pip install -e '.[docs]'")
    out = subprocess.run(
        [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html",
         "-d", str(tmp_path / "doctrees"), str(DOCS), str(tmp_path / "html")],
        capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 0, out.stderr[-4000:]
    assert (tmp_path / "html" / "envs" / "backgammon.html").exists()
    assert "Observation" in (tmp_path / "html" / "envs" / "observation.html").read_text()
