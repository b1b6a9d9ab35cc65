"""Numba's on-disk cache of the package's kernels, kept in step with their sources.

numba keys a cached kernel by the timestamp of the file that defines it, not of the files
it calls: after ``move_kernels.py`` changes, a batch kernel in ``batch.py`` (unchanged)
would load from the cache with the old rule compiled into it. :func:`refresh_kernel_cache`
runs when ``bg_env`` is imported, before any kernel is: it hashes every source file of
the packages that hold kernels and, when the hash differs from the one stamped beside the
cache, deletes their cached kernels (``*.nbi``, ``*.nbc`` in ``__pycache__``) so that
numba compiles them afresh. A fresh clone or ``pip install`` has nothing stale; this is
for a checkout that pulls kernel changes. Where numba caches outside the package (a
read-only install), the files there were written for that install's sources.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

__all__ = ["KERNEL_PACKAGES", "STAMP_NAME", "FIRST_USE_NOTE", "kernel_source_digest",
           "refresh_kernel_cache", "kernels_cached", "started_cold", "first_use_note"]

KERNEL_PACKAGES = ("kernels", "envs", "bench")
"""The subpackages of ``bg_env`` whose modules define cached numba kernels (a test checks
that no other subpackage does)."""

STAMP_NAME = "bg_env_kernel_sources.sha256"
"""The stamp file in ``kernels/__pycache__``: the digest the cached kernels were built from."""

PACKAGE_ROOT = Path(__file__).resolve().parent.parent

FIRST_USE_NOTE = ("bg_env compiles its numba kernels on first use: the first games take "
                  "several seconds longer (up to a minute for every view), once; the machine "
                  "code is cached for later runs")
"""What is said when ``bg_env`` is imported with no kernel cached yet."""

_STATE = {"cold": None, "said": False}


def kernels_cached(root: Path = PACKAGE_ROOT) -> bool:
    """Whether any compiled kernel is cached: in the kernel packages' ``__pycache__``, or
    under ``NUMBA_CACHE_DIR`` when that is set (where numba then writes)."""
    elsewhere = os.environ.get("NUMBA_CACHE_DIR")
    folders = ([Path(elsewhere)] if elsewhere
               else [root / package / "__pycache__" for package in KERNEL_PACKAGES])
    pattern = "**/*.nbi" if elsewhere else "*.nbi"
    return any(next(folder.glob(pattern), None) is not None for folder in folders)


def first_use_note() -> str | None:
    """:data:`FIRST_USE_NOTE` the first time it is asked for in a process that
    :func:`started_cold`, else ``None`` (a command says it once)."""
    if not started_cold() or _STATE["said"]:
        return None
    _STATE["said"] = True
    return FIRST_USE_NOTE


def started_cold(root: Path | None = None) -> bool:
    """Whether no kernel was cached when ``bg_env`` was imported (the first call after it
    compiles them). ``root``: check that package folder now (and remember the answer)."""
    if root is not None or _STATE["cold"] is None:
        _STATE["cold"] = not kernels_cached(root or PACKAGE_ROOT)
        _STATE["said"] = False
    return _STATE["cold"]


def kernel_source_digest(root: Path = PACKAGE_ROOT) -> str:
    """SHA-256 over the names and bytes of every ``.py`` file in the kernel packages."""
    digest = hashlib.sha256()
    for package in KERNEL_PACKAGES:
        for path in sorted((root / package).glob("*.py")):
            digest.update(f"{package}/{path.name}\0".encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


def refresh_kernel_cache(root: Path = PACKAGE_ROOT) -> bool:
    """Delete the cached kernels under ``root`` if their sources changed; True if it did.

    Does nothing (returns False) where the stamp matches, or where the folders cannot be
    read or written: numba then caches as it would without this.
    """
    stamp = root / KERNEL_PACKAGES[0] / "__pycache__" / STAMP_NAME
    try:
        digest = kernel_source_digest(root)
        if stamp.is_file() and stamp.read_text() == digest:
            return False
        for package in KERNEL_PACKAGES:
            for cached in (root / package / "__pycache__").glob("*.nb[ic]"):
                cached.unlink(missing_ok=True)
        stamp.parent.mkdir(parents=True, exist_ok=True)
        partial = stamp.with_name(f"{STAMP_NAME}.{os.getpid()}.tmp")
        partial.write_text(digest)
        os.replace(partial, stamp)
    except OSError:
        return False
    return True
