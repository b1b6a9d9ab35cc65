"""The fixed action layout (re-exported from :mod:`bg_env.rules.actions`, where it is documented)."""

from .rules.actions import *  # noqa: F401,F403
from .rules.actions import __all__  # noqa: F401
