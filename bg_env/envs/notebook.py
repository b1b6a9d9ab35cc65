"""Pictures in a notebook for what wraps bg_env's envs.

bg_env's envs draw themselves in Jupyter (``_repr_png_``: the board of the game, or of a
vector env's first game). The wrappers other libraries put around them do not pass that
on: ``gymnasium.make`` returns Gymnasium's ``Wrapper`` chain, ``gymnasium.make_vec`` may
return a ``VectorWrapper``, and ``bg_env.make_vec_env`` returns Stable-Baselines3's
``VecMonitor``. :func:`register_notebook_display` teaches IPython's PNG formatter to draw
those wrappers when the env inside is one of bg_env's (any other wrapped env is left to
IPython as before). ``import bg_env`` calls it when IPython is running.
"""

from __future__ import annotations

import sys
from typing import Any

__all__ = ["register_notebook_display", "inner_png"]

WRAPPERS = (("gymnasium.core", "Wrapper"),
            ("gymnasium.vector.vector_env", "VectorWrapper"),
            ("stable_baselines3.common.vec_env.base_vec_env", "VecEnvWrapper"))
"""The wrapper classes (module, name) drawn as the env they wrap."""


def inner_png(wrapper: Any) -> bytes | None:
    """The picture of the env inside ``wrapper`` when that env is one of bg_env's, else
    ``None`` (IPython then shows the wrapper as it would)."""
    inner = getattr(wrapper, "unwrapped", None)
    method = getattr(type(inner), "_repr_png_", None)
    if inner is None or method is None or not type(inner).__module__.startswith("bg_env."):
        return None
    return method(inner)


def register_notebook_display(shell: Any = None) -> bool:
    """Register :func:`inner_png` for the wrappers of :data:`WRAPPERS` with ``shell``'s
    PNG formatter (by default the running IPython's); whether it did (False outside
    IPython)."""
    if shell is None:
        ipython = sys.modules.get("IPython")
        shell = ipython.get_ipython() if ipython is not None else None
        if shell is None:
            return False
    formatter = shell.display_formatter.formatters["image/png"]
    for module, name in WRAPPERS:
        formatter.for_type_by_name(module, name, inner_png)
    return True
