"""Writing files whole: :func:`write_atomically` writes a temporary file beside the target,
flushes it to disk and renames it over the target, so that a crash or a kill leaves the
old file or the new one, never half of one. ``.mat`` records
(:func:`bg_env.records.write_mat`) are written this way, and so are the models,
checkpoints and reports of :mod:`agents` (:mod:`agents.players.model_files` re-exports it).
"""

from __future__ import annotations

import contextlib
import os

__all__ = ["write_atomically"]


def write_atomically(path: str | os.PathLike, data: bytes | str) -> None:
    """``data`` to a temporary file beside ``path``, flushed to disk, renamed over it. An
    error or an interrupt on the way leaves ``path`` as it was and removes the temporary
    file (only a kill no handler sees, SIGKILL or a power cut, leaves ``<path>.tmp``)."""
    tmp = f"{path}.tmp"
    try:
        with open(tmp, "wb") as fh:
            fh.write(data.encode() if isinstance(data, str) else data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
