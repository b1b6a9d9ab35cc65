"""The architecture page (``docs/architecture.md``) against the tree: its table of layers
names every module of ``bg_env`` and ``agents`` once, in the layer ``tests/test_layers.py``
enforces, and nothing that is not there; every ``*.py`` file the page names exists.

A table cell lists modules either as paths (``bg_env/files.py``, ``bg_env/envs/`` for a
whole folder) or as a folder and its module names (``bg_env/core/``: ``game``, ``match``,
``variants/``).
"""

from __future__ import annotations

import ast
import pathlib
import re

import test_layers as layers

ROOT = pathlib.Path(__file__).resolve().parents[2]

PAGE = ROOT / "docs" / "architecture.md"
PACKAGES = ("bg_env", "agents")


def layout_section() -> str:
    """The page's text from ``## Layout`` to the next ``## `` heading."""
    text = PAGE.read_text()
    start = text.index("\n## Layout\n")
    end = text.find("\n## ", start + 1)
    return text[start:end if end != -1 else len(text)]


def cell_paths(cell: str) -> list[str]:
    """The paths one table cell names (``.py`` added to bare module names)."""
    grouped = re.fullmatch(r"`([^`]+/)`:\s*(.*)", cell)
    if grouped is None:
        return re.findall(r"`([^`]+)`", cell)
    folder, names = grouped.groups()
    return [folder + name if name.endswith("/") else f"{folder}{name}.py"
            for name in re.findall(r"`([^`]+)`", names)]


def table() -> dict[str, list[str]]:
    """``{layer: [paths]}`` from the layout table, lowest layer first."""
    rows = {}
    for line in layout_section().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 3 or cells[0] in ("layer", "---"):
            continue
        rows[cells[0]] = cell_paths(cells[1])
    return rows


def layer_of_file(rel: str, rows: dict[str, list[str]]) -> list[str]:
    """Every layer whose entries cover the file ``rel`` (a path or a folder above it)."""
    return [layer for layer, paths in rows.items()
            for path in paths if rel == path or (path.endswith("/") and rel.startswith(path))]


def python_files() -> list[str]:
    return sorted(str(p.relative_to(ROOT)) for package in PACKAGES
                  for p in (ROOT / package).rglob("*.py"))


def test_the_table_has_the_layers_in_order():
    assert list(table()) == layers.NAMES + ["agents"]


def test_every_listed_module_exists():
    missing = [path for paths in table().values() for path in paths
               if not (ROOT / path).exists()]
    assert missing == []


def test_every_module_is_listed_in_one_layer():
    rows = table()
    placed = {rel: layer_of_file(rel, rows) for rel in python_files()}
    assert {rel: found for rel, found in placed.items() if len(found) != 1} == {}


def test_the_layers_are_those_the_import_test_enforces():
    """A module's layer on the page is its layer in ``tests/test_layers.py``, and
    ``agents`` is on top."""
    rows = table()
    wrong = []
    for rel in python_files():
        module = ".".join(pathlib.PurePath(rel).with_suffix("").parts)
        if module.endswith(".__init__"):
            module = module[: -len(".__init__")]
        want = "agents" if rel.startswith("agents/") else layers.NAMES[layers.layer_of(module)]
        if layer_of_file(rel, rows) != [want]:
            wrong.append((rel, layer_of_file(rel, rows), want))
    assert wrong == []


def test_the_rules_layer_imports_no_numba():
    """The table says the rules are plain Python (no compiled kernels)."""
    offenders = []
    for path in table()["rules"]:
        files = sorted((ROOT / path).rglob("*.py")) if path.endswith("/") else [ROOT / path]
        for file in files:
            for node in ast.walk(ast.parse(file.read_text())):
                names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                         else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
                offenders += [(file.name, n) for n in names if n.split(".")[0] == "numba"]
    assert offenders == []


def test_every_file_the_page_names_exists():
    names = set(re.findall(r"`([\w/]+\.py)`", PAGE.read_text()))
    basenames = {pathlib.PurePath(rel).name for rel in python_files()}
    missing = sorted(n for n in names
                     if n not in basenames and not (ROOT / n).is_file())
    assert names and missing == []
