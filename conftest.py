"""Repository-wide collection rules: the modules of an optional extra are left out of the
doctest collection when the extra is not installed (``bg_env.integrations.rllib`` needs
Ray, ``bg_env.integrations.openspiel`` OpenSpiel)."""

import importlib.util

collect_ignore = []
if importlib.util.find_spec("ray") is None:
    collect_ignore.append("bg_env/integrations/rllib.py")
if importlib.util.find_spec("pyspiel") is None:
    collect_ignore.append("bg_env/integrations/openspiel.py")
