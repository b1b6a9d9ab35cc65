"""The fixed action layout (re-exported from :mod:`bg_env.core.actions`, where it is documented)."""

from .core.actions import *  # noqa: F401,F403
from .core.actions import __all__  # noqa: F401
