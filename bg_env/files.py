"""Writing files whole: :func:`write_atomically` writes a temporary file beside the target,
flushes it to disk and renames it over the target, so that a crash or a kill leaves the
old file or the new one, never half of one. ``.mat`` records
(:func:`bg_env.records.write_mat`) are written this way, and so are the models,
checkpoints and reports of :mod:`agents` (:mod:`agents.players.model_files` re-exports it).

It writes as careful tools do: what is at the target must be a regular file the user may
write (a folder, a FIFO, a device or a read-only file is refused, naming it, and left as
it was); a symbolic link is followed, so the file it points to gets the new content and
the link stays a link; the new file keeps the old one's permissions (a new file gets the
usual ones, by the umask); the temporary file has a name of its own in the same folder
(``.NAME.XXXXXXXX.tmp``), so no file of the user's is touched on the way.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile

__all__ = ["write_atomically", "check_writable", "same_file"]


def check_writable(path: str | os.PathLike) -> str:
    """The file :func:`write_atomically` would write for ``path`` (a link's target), after
    checking that it may be replaced: nothing there yet, or a regular file the user may
    write, in a folder that exists and takes new files (the temporary one).

    Raises:
        IsADirectoryError: ``path`` is a folder.
        ValueError: ``path`` is not a regular file (a FIFO, a socket, a device).
        PermissionError: ``path`` is read-only, or its folder is not writable.
        FileNotFoundError: its folder does not exist.
    """
    target = os.path.realpath(path)
    folder = os.path.dirname(target) or "."
    try:
        st = os.stat(target)
    except FileNotFoundError:
        st = None
    if st is not None and stat.S_ISDIR(st.st_mode):
        raise IsADirectoryError(f"{path}: is a folder, not a file; refusing to replace it")
    if not os.path.isdir(folder):
        raise FileNotFoundError(f"{path}: the folder {folder} does not exist")
    if not os.access(folder, os.W_OK):
        raise PermissionError(f"{path}: the folder {folder} is not writable")
    if st is None:
        return target
    if not stat.S_ISREG(st.st_mode):
        raise ValueError(f"{path}: is not a regular file (a {_kind(st.st_mode)}); "
                         "refusing to replace it")
    if not (st.st_mode & stat.S_IWUSR and os.access(target, os.W_OK)):  # (root: the mode)
        raise PermissionError(f"{path}: the file is read-only; refusing to replace it")
    return target


def same_file(a: str | os.PathLike, b: str | os.PathLike) -> bool:
    """Whether two paths name one file (links and ``..`` followed; a file that does not
    exist yet is compared by its resolved path)."""
    ra, rb = os.path.realpath(a), os.path.realpath(b)
    if ra == rb:
        return True
    with contextlib.suppress(OSError):
        return os.path.samefile(ra, rb)
    return False


def write_atomically(path: str | os.PathLike, data: bytes | str) -> None:
    """``data`` to a temporary file beside ``path``, flushed to disk, renamed over it. An
    error or an interrupt on the way leaves ``path`` as it was and removes the temporary
    file (only a kill no handler sees, SIGKILL or a power cut, leaves a ``.NAME.*.tmp``).
    See the module docstring for what it refuses (:func:`check_writable`)."""
    target = check_writable(path)
    folder, name = os.path.split(target)
    fd, tmp = tempfile.mkstemp(prefix=f".{name}.", suffix=".tmp", dir=folder or ".")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data.encode() if isinstance(data, str) else data)
            fh.flush()
            os.chmod(tmp, _mode_for(target))
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    _sync_folder(folder or ".")


def _mode_for(target: str) -> int:
    """The old file's permissions, or a new file's by the umask (``mkstemp`` makes 0600)."""
    try:
        return stat.S_IMODE(os.stat(target).st_mode)
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def _sync_folder(folder: str) -> None:
    """Flush the rename to disk too, where the system allows it."""
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _kind(mode: int) -> str:
    for test, word in ((stat.S_ISFIFO, "FIFO"), (stat.S_ISSOCK, "socket"),
                       (stat.S_ISCHR, "character device"), (stat.S_ISBLK, "block device")):
        if test(mode):
            return word
    return "special file"
