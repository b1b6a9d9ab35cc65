"""Reading model and checkpoint files without running code that may be inside them.

``torch.save`` files are pickles, and a pickle can call any function while it is read.
:func:`load_torch_file` reads them with ``torch.load(weights_only=True)``: tensors,
numbers, strings, lists and dicts only; a file holding anything else is refused before
any of it runs. Errors name the file (a truncated download gives "model file 'x.pt' is
truncated or not a torch file", not torch's "PytorchStreamReader failed").

SB3 ``.zip`` models are another matter when SB3 loads them (``MaskablePPO.load``, as
resuming PPO training does): SB3 unpickles parts of them (the policy class, schedules),
which can run code. :func:`agents.players.ppo.load_actor`, which playing uses, reads only the
archive's JSON settings and its weights (``weights_only=True``).

Writing goes the other way round: :func:`write_atomically` (and :func:`save_torch_file` for
``torch.save``) writes a temporary file beside the target, flushes it to disk and renames it
over the target, so a crash or a kill leaves the old file or the new one, never half of one.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import pickle
import re
import zipfile
from typing import Any, Callable

from bg_env.files import write_atomically

__all__ = ["ModelFileError", "load_torch_file", "load_torch_member", "check_weights_fit",
           "write_atomically", "save_torch_file", "file_sha256"]


def file_sha256(path: str | os.PathLike) -> str:
    """The SHA-256 of the file at ``path`` (hex): what identifies a model file's contents
    to a job that goes on later (a label run's teacher, an evaluation's agents)."""
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


class ModelFileError(ValueError):
    """A model or checkpoint file that cannot be read safely or is not what was expected;
    the message names the file."""


def load_torch_file(path: str | os.PathLike, what: str = "model") -> Any:
    """``torch.load(path, weights_only=True)`` on the CPU, with errors that name ``path``.

    Raises:
        FileNotFoundError: no file at ``path`` (named).
        ModelFileError: the file holds objects other than tensors and plain data (refused,
            nothing in it ran), or it is truncated or not a torch file.
    """
    _check_file(path, what)
    return _safe_load(path, f"{what} file {str(path)!r}")


def load_torch_member(path: str | os.PathLike, member: str, what: str = "model") -> Any:
    """What ``torch.save`` wrote into ``member`` of the zip archive ``path`` (an SB3
    ``.zip`` holds ``policy.pth``; a PPO checkpoint also ``training_state.pt``), read as
    :func:`load_torch_file` reads a file.

    Raises:
        FileNotFoundError: no file at ``path`` (named).
        ModelFileError: ``path`` is not a zip archive (truncated?), has no ``member``, or
            the member is refused or unreadable as in :func:`load_torch_file` (named).
    """
    _check_file(path, what)
    where = f"{what} file {str(path)!r}"
    try:
        with zipfile.ZipFile(path) as archive:
            data = archive.read(member)
    except zipfile.BadZipFile as exc:
        raise ModelFileError(f"{where} is truncated or not a zip archive ({exc})") from None
    except KeyError:
        raise ModelFileError(f"{where} has no member {member!r}") from None
    return _safe_load(io.BytesIO(data), f"{where} (member {member!r})")


def check_weights_fit(build: Callable[[], Any], state: Any, where: str) -> None:
    """Check, before any network is built for real, that ``state`` holds exactly the
    weights ``build()`` makes, each of the same shape. ``build`` runs on PyTorch's meta
    device, which allocates nothing: a file whose header asks for a huge network (hidden
    units in the billions) is refused instead of exhausting the memory.

    Raises:
        ModelFileError: the header's settings build no network, ``state`` is not a dict of
            tensors, or a weight is missing, extra or of another shape (the first named),
            with ``where`` (the file) in the message.
    """
    import torch

    try:
        with torch.device("meta"):
            expected = {k: tuple(v.shape) for k, v in build().state_dict().items()}
    except (TypeError, ValueError, RuntimeError) as exc:
        raise ModelFileError(f"{where}: its settings build no network ({_first_line(exc)})"
                             ) from None
    if not isinstance(state, dict) or not all(torch.is_tensor(v) for v in state.values()):
        raise ModelFileError(f"{where}: the weights are not a dict of tensors")
    got = {k: tuple(v.shape) for k, v in state.items()}
    for key in sorted(set(expected) | set(got)):
        if expected.get(key) != got.get(key):
            raise ModelFileError(f"{where}: weight {key!r}: the file holds "
                                 f"{_shape(got.get(key))}, its settings need "
                                 f"{_shape(expected.get(key))}")


def _shape(shape: tuple | None) -> str:
    return "none" if shape is None else f"shape {list(shape)}"


def _check_file(path: str | os.PathLike, what: str) -> None:
    """Raise unless ``path`` is a file: FileNotFoundError (nothing there) or
    :class:`ModelFileError` (a folder), naming it."""
    if os.path.isdir(path):
        raise ModelFileError(f"{what} file {str(path)!r} is a folder, not a file")
    if not os.path.isfile(path):
        raise FileNotFoundError(f"{what} file {str(path)!r} does not exist")


def _safe_load(source: Any, where: str) -> Any:
    """``torch.load(source, weights_only=True)`` on the CPU; errors start with ``where``."""
    import torch

    try:
        return torch.load(source, map_location="cpu", weights_only=True)
    except pickle.UnpicklingError as exc:
        found = re.search(r"GLOBAL\s+([\w.]+)", str(exc))
        if found:
            raise ModelFileError(
                f"{where} holds pickled objects other than tensors and plain "
                f"data ({found.group(1)}); refused, nothing in it ran") from None
        raise ModelFileError(f"{where} is not a torch file ({_first_line(exc)})") from None
    except Exception as exc:  # torch's reader fails in many ways on foreign bytes
        raise ModelFileError(f"{where} is truncated or not a torch file "
                             f"({type(exc).__name__}: {_first_line(exc)})") from None


def _first_line(exc: BaseException) -> str:
    """The first sentence of the message (torch's go on about miniz and checkpoints)."""
    text = str(exc).strip()
    return text.splitlines()[0].split(". ")[0][:160] if text else "empty"


def write_json(path: str | os.PathLike, obj: Any) -> None:
    """``obj`` as indented JSON into ``path`` by :func:`write_atomically` (a run's
    ``config.json``, an evaluation's ``--json``: never left half-written)."""
    write_atomically(path, json.dumps(obj, indent=2) + "\n")


def save_torch_file(obj: Any, path: str | os.PathLike) -> None:
    """``torch.save(obj)`` into ``path`` by :func:`write_atomically`."""
    import torch

    buffer = io.BytesIO()
    torch.save(obj, buffer)
    write_atomically(path, buffer.getvalue())
