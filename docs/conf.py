"""Sphinx configuration of the bg_env documentation (MyST Markdown pages, furo theme).

Build: ``python -m sphinx -W --keep-going -b html docs docs/_build/html`` (``-W``: a
warning fails the build; ``tests/docs/test_docs_build.py`` runs exactly this)."""

from __future__ import annotations

import importlib.metadata
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

project = "bg_env"
author = "the bg_env authors"
copyright = "the bg_env authors, MIT licence"
release = importlib.metadata.version("bg_env")
version = release

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "sphinx.ext.viewcode",
]
source_suffix = {".md": "markdown", ".rst": "restructuredtext"}
root_doc = "index"
exclude_patterns = ["_build", "Thumbs.db", ".DS_Store"]

myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3

autodoc_member_order = "bysource"
autodoc_typehints = "description"
autodoc_default_options = {"members": True, "show-inheritance": True}
napoleon_google_docstring = True
napoleon_numpy_docstring = False

html_theme = "furo"
html_title = "bg_env"
html_static_path = []
