"""Old module names that still import, as the modules they moved to.

When a package's modules move (``bg_env.core.game`` to ``bg_env.game.game``,
``agents.td`` to ``agents.players.td``), :func:`keep_old_names` lets the old dotted names
import as the very module objects of the new ones (not copies), so that code written
against them, and pickles that name them (envs, SB3 model archives), keep loading. The
finder sits ahead of Python's path finder, which would otherwise load a second copy of a
moved package's submodules through the alias's ``__path__``.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.util
import sys

__all__ = ["keep_old_names"]


class _MovedModules(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds ``PREFIX.NAME`` (and its submodules) as the module ``moved[NAME]``."""

    def __init__(self, prefix: str, moved: dict[str, str]) -> None:
        self.prefix, self.moved = prefix + ".", dict(moved)

    def new_name(self, fullname: str) -> str | None:
        if not fullname.startswith(self.prefix):
            return None
        head, _, rest = fullname[len(self.prefix):].partition(".")
        if head not in self.moved:
            return None
        return self.moved[head] + (f".{rest}" if rest else "")

    def find_spec(self, fullname, path=None, target=None):
        if self.new_name(fullname) is None:
            return None
        return importlib.util.spec_from_loader(fullname, self)

    def create_module(self, spec):
        return importlib.import_module(self.new_name(spec.name))

    def exec_module(self, module):
        """The module is the moved one, already run."""


def keep_old_names(prefix: str, moved: dict[str, str]) -> None:
    """Make ``PREFIX.OLD`` import as ``moved[OLD]`` (a dotted module name) for every key,
    submodules included; calling it again for the same prefix changes nothing."""
    for finder in sys.meta_path:
        if isinstance(finder, _MovedModules) and finder.prefix == prefix + ".":
            return
    sys.meta_path.insert(0, _MovedModules(prefix, moved))
