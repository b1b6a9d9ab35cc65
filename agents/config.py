"""Reading training settings: a YAML file into a dataclass, with ``key=value`` overrides.

Unknown keys and values of the wrong type are errors that name the key, the file and
the allowed keys.
"""

from __future__ import annotations

import dataclasses
import os
from typing import Any, TypeVar, get_type_hints

import yaml

__all__ = ["load_config", "load_env_options", "parse_overrides", "ConfigError"]

T = TypeVar("T")


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
        if t is str and isinstance(value, str):
            return value
        if t in (list, dict) and isinstance(value, t):
            return value
        if getattr(t, "__origin__", None) in (list, dict) and isinstance(value, t.__origin__):
            return value
    raise ConfigError(f"{source}: {name}={value!r} has the wrong type; expected {hint}")


def load_config(cls: type[T], path: str | None = None, overrides: dict[str, Any] | None = None) -> T:
    """Build ``cls`` from a YAML file and overrides (overrides win).

    Raises:
        FileNotFoundError: the YAML file does not exist (named).
        ConfigError: an unknown key or a value of the wrong type (named).
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
        data.update(_read_mapping(path))
    data.update(overrides or {})
    unknown = sorted(set(data) - set(known))
    source = path or "overrides"
    if unknown:
        raise ConfigError(f"{source}: unknown key(s) {unknown}; allowed keys: {known}")
    values = {k: _coerce(k, v, hints[k], source) for k, v in data.items()}
    return cls(**values)


def parse_overrides(items: list[str]) -> dict[str, Any]:
    """``["games=100", "lr=1e-3"]`` -> ``{"games": 100, "lr": 0.001}`` (values read as YAML)."""
    out: dict[str, Any] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise ConfigError(f"override {item!r}: expected KEY=VALUE")
        out[key.strip()] = yaml.safe_load(value)
    return out


def load_env_options(path: str) -> dict[str, Any]:
    """Environment options from a YAML file such as ``configs/variants/plakoto.yaml``:
    flat keys of :class:`bg_env.envs.backgammon.EnvConfig` (``variant``, ``cube``, ...).

    Raises:
        ConfigError: a missing file, a file that is not a mapping, an unknown key or a bad
            value (the message names the file and the key).
    """
    from bg_env.envs.backgammon import EnvConfig

    if not os.path.isfile(path):
        raise ConfigError(f"environment options file {path!r} does not exist")
    data = _read_mapping(path)
    try:
        EnvConfig.from_kwargs(**data)
    except (TypeError, ValueError) as exc:
        raise ConfigError(f"{path}: {exc}") from None
    return data


def _read_mapping(path: str) -> dict[str, Any]:
    """A YAML file's top-level mapping (empty file: ``{}``).

    Raises:
        ConfigError: the file holds something else than a mapping (the message names it).
    """
    with open(path) as fh:
        data = yaml.safe_load(fh) or {}
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: expected a mapping of key: value, got {type(data).__name__}")
    return data
