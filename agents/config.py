"""Reading training settings: a YAML file into a dataclass, with ``key=value`` overrides.

Unknown keys and values of the wrong type are errors that name the key, the file and
the allowed keys. The shipped YAML files live in the package (``agents/configs/``, read
through :mod:`importlib.resources`): :func:`find_config` turns a path or a bare name such
as ``td`` or ``variants/plakoto.yaml`` into a file, from any working folder.

>>> find_config("td").name
'td.yaml'
>>> find_config("plakoto", "variants").name
'plakoto.yaml'
"""

from __future__ import annotations

import dataclasses
import math
import os
import re
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar, get_type_hints

import numpy as np
import yaml

__all__ = [
    "load_config", "load_env_options", "parse_overrides", "ConfigError", "find_config",
    "packaged_configs", "require_at_least", "refuse_rewind", "changed_settings",
    "read_mapping", "check_whole", "require_at_most", "MAX_HIDDEN", "MAX_LAYERS", "MAX_COUNT",
    "MAX_SEED", "MAX_PROCESSES",
]

T = TypeVar("T")


_EXPONENT = re.compile(r"[-+]?(\d+\.?\d*|\.\d+)[eE][-+]?\d+")
"""A number in exponent notation, which YAML 1.1 (PyYAML) reads as a string without a dot."""


class ConfigError(ValueError):
    """A bad configuration file, key or value."""


def _coerce(name: str, value: Any, hint: Any, source: str) -> Any:
    origin = getattr(hint, "__origin__", None)
    types = getattr(hint, "__args__", ()) if origin is not None else (hint,)
    if value is None and type(None) in types:
        return None
    for t in types:
        if t is bool and isinstance(value, bool):
            return value
        if t is int and isinstance(value, int) and not isinstance(value, bool):
            return value
        if t is float and isinstance(value, (int, float)) and not isinstance(value, bool):
            return float(value)
        if t is float and isinstance(value, str) and _EXPONENT.fullmatch(value.strip()):
            return float(value)  # YAML 1.1 reads 1e-4 (no dot) as a string
        if t is str and isinstance(value, str):
            return value
        if t in (list, dict) and isinstance(value, t):
            return value
        if getattr(t, "__origin__", None) in (list, dict) and isinstance(value, t.__origin__):
            return value
    raise ConfigError(f"{source}: {name}={value!r} has the wrong type; expected {hint}")


def packaged_configs(folder: str = "") -> list[str]:
    """Names of the YAML files shipped in ``agents/configs/FOLDER``."""
    root = resources.files("agents") / "configs"
    if folder:
        root = root / folder
    return sorted(f.name for f in root.iterdir() if f.name.endswith(".yaml"))


def find_config(name: str | os.PathLike, folder: str = "") -> Path:
    """The YAML file meant by ``name``: an existing path as given, else a file shipped in
    ``agents/configs/FOLDER`` (``td``, ``td.yaml``, ``configs/td.yaml`` and
    ``variants/plakoto`` all work, from any working folder).

    Raises:
        FileNotFoundError: neither exists; the message names ``name`` and the shipped files.
    """
    if os.path.isfile(name):
        return Path(name)
    rel = Path(name).as_posix()
    rel = rel if rel.endswith(".yaml") else rel + ".yaml"
    for prefix in ("agents/configs/", "configs/"):
        rel = rel[len(prefix):] if rel.startswith(prefix) else rel
    root = resources.files("agents") / "configs"
    for cand in ((root / folder / rel) if folder else None, root / rel):
        if cand is not None and cand.is_file():
            return Path(str(cand))
    shipped = packaged_configs(folder)
    if os.path.isdir(name):
        raise FileNotFoundError(f"config file {str(name)!r} is a folder: expected a YAML file, "
                                f"or a shipped config's name: {[s[:-5] for s in shipped]}")
    raise FileNotFoundError(f"config file {str(name)!r} does not exist here nor among the "
                            f"shipped ones in agents/configs/{folder + '/' if folder else ''}: "
                            f"{[s[:-5] for s in shipped]}")


def require_at_least(obj: Any, low: float, *names: str) -> None:
    """Raise :class:`ConfigError` naming the first field of ``obj`` in ``names`` that is
    below ``low`` (or not a finite number)."""
    for name in names:
        value = getattr(obj, name)
        if not isinstance(value, (int, float)) or isinstance(value, bool) or \
                not math.isfinite(value) or value < low:
            raise ConfigError(f"{name}={value!r}: expected a number of {low:g} or more")


MAX_COUNT = 10**9
"""The most games, matches, steps, rounds or evaluation games a setting may ask for."""
MAX_SEED = 2**63 - 1
"""The largest seed (torch's generators take 64-bit seeds)."""
MAX_PROCESSES = 1024
"""The most worker processes or threads a setting may ask for."""
MAX_HIDDEN = 8192
"""The widest hidden layer a config may ask for (8192 x 8192 weights are 256 MB)."""
MAX_LAYERS = 8
"""The most hidden layers a config may ask for."""


def require_at_most(obj: Any, high: float, *names: str, why: str = "") -> None:
    """Raise :class:`ConfigError` naming the first field of ``obj`` in ``names`` above
    ``high`` (a list field: any of its items, or more than :data:`MAX_LAYERS` of them)."""
    for name in names:
        value = getattr(obj, name)
        items = value if isinstance(value, (list, tuple)) else [value]
        if isinstance(value, (list, tuple)) and len(value) > MAX_LAYERS:
            raise ConfigError(f"{name}={value!r}: at most {MAX_LAYERS} layers")
        if any(isinstance(v, (int, float)) and v > high for v in items):
            raise ConfigError(f"{name}={value!r}: expected at most {high}"
                              + (f" ({why})" if why else ""))


def refuse_rewind(checkpoint: str | os.PathLike, done: int, key: str, target: int,
                  unit: str) -> None:
    """``--resume`` never rewinds: raise :class:`ConfigError` when the run's length
    ``key=target`` is below the ``done`` ``unit`` (games, steps) that ``checkpoint`` holds;
    the message names both and what to set. Call it before anything is written."""
    if target < done:
        raise ConfigError(f"--resume: {str(checkpoint)!r} has {done} {unit} done, more than "
                          f"{key}={target}; set {key} to {done} or more to continue "
                          f"(resuming does not rewind)")


def check_whole(name: str, n, least: int, expected: str | None = None) -> int:
    """``n`` as an int, when it is a whole number of ``least`` or more (numpy's included): a
    count of games, matches or workers (1), a seed (0: numpy's generators take no other).
    ``expected`` words the error's "expected ..." for the setting (default: "a whole number
    of LEAST or more").

    Raises:
        ValueError: anything else, named.
    """
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < least:
        raise ValueError(f"{name}={n!r}: expected "
                         f"{expected or f'a whole number of {least} or more'}")
    return int(n)


def changed_settings(saved: dict, now: dict) -> str:
    """Every setting whose value in ``now`` differs from ``saved`` (one absent from either
    counts as None), as ``"key was A, now B"`` joined by ``"; "``; empty when none does.
    What a resumed job (an evaluation's checkpoint, a label run's parts) says when it is
    asked to go on with other settings."""
    return "; ".join(f"{key} was {saved.get(key)!r}, now {now.get(key)!r}"
                     for key in sorted(set(saved) | set(now)) if saved.get(key) != now.get(key))


def load_config(cls: type[T], path: str | os.PathLike | None = None,
                overrides: dict[str, Any] | None = None) -> T:
    """Build ``cls`` from a YAML file and overrides (overrides win).

    Raises:
        FileNotFoundError: the YAML file does not exist (named).
        ConfigError: an unknown key, a value of the wrong type or out of range (named,
            with the file).
    """
    data: dict[str, Any] = {}
    hints = get_type_hints(cls)
    known = [f.name for f in dataclasses.fields(cls)]
    bad = sorted(set(overrides or {}) - set(known))
    if bad:
        raise ConfigError(f"overrides: unknown key(s) {bad}; allowed keys: {known}")
    if path is not None:
        if not os.path.exists(path):
            raise FileNotFoundError(f"config file {path!r} does not exist")
        data.update(read_mapping(path))
    data.update(overrides or {})
    unknown = sorted(set(data) - set(known))
    source = path or "overrides"
    if unknown:
        raise ConfigError(f"{source}: unknown key(s) {unknown}; allowed keys: {known}")
    values = {k: _coerce(k, v, hints[k], "overrides" if k in (overrides or {}) else source)
              for k, v in data.items()}
    try:
        return cls(**values)
    except ValueError as exc:  # the dataclass's own checks name the key
        given = f" (with the overrides {sorted(overrides)})" if path and overrides else ""
        raise ConfigError(f"{source}: {exc}{given}") from None


def parse_overrides(items: list[str]) -> dict[str, Any]:
    """``["games=100", "lr=1e-3"]`` -> ``{"games": 100, "lr": 0.001}`` (values read as YAML;
    ``KEY=`` and ``KEY=""`` are the empty string, as a shell leaves ``kickstart=""``)."""
    out: dict[str, Any] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise ConfigError(f"override {item!r}: expected KEY=VALUE")
        out[key.strip()] = yaml.safe_load(value) if value.strip() else ""
    return out


def load_env_options(path: str | os.PathLike) -> dict[str, Any]:
    """Environment options from a YAML file such as ``agents/configs/variants/plakoto.yaml``:
    flat keys of :class:`bg_env.envs.backgammon.EnvConfig` (``variant``, ``cube``, ...).

    Raises:
        ConfigError: a missing file, a file that is not a mapping, an unknown key or a bad
            value (the message names the file and the key).
    """
    from bg_env.envs.backgammon import EnvConfig

    if not os.path.isfile(path):
        raise ConfigError(f"environment options file {path!r} does not exist")
    data = read_mapping(path)
    try:
        EnvConfig.from_kwargs(**data)
    except (TypeError, ValueError) as exc:
        raise ConfigError(f"{path}: {exc}") from None
    return data


def read_mapping(path: str | os.PathLike) -> dict[str, Any]:
    """A YAML file's top-level mapping (empty file: ``{}``).

    Raises:
        ConfigError: the file is not YAML, or holds something else than a mapping (the
            message names it).
    """
    with open(path) as fh:
        try:
            data = yaml.safe_load(fh) or {}
        except yaml.YAMLError as exc:
            where = getattr(exc, "problem_mark", None)
            line = f" at line {where.line + 1}" if where is not None else ""
            problem = getattr(exc, "problem", None) or type(exc).__name__
            raise ConfigError(f"{path}: not a YAML file{line} ({problem})") from None
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: expected a mapping of key: value, got {type(data).__name__}")
    return data
