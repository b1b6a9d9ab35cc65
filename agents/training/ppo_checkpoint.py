"""The PPO trainer's checkpoint (:mod:`agents.training.train_ppo`): one file,
``checkpoint.zip``, SB3's archive of the model, optimiser and step count with one more
member, :data:`STATE_MEMBER` (the snapshots, history, games played and seconds, plain
types read with ``weights_only=True``), written to a temporary file and renamed over the
old one; and the checks a ``--resume`` makes before anything is written.
"""

from __future__ import annotations

import io
import json
import os
import time
import zipfile
from dataclasses import asdict

import torch

from ..config import ConfigError, changed_settings
from ..players.model_files import load_torch_file, load_torch_member, write_atomically

__all__ = ["STATE_MEMBER", "NETWORK_KEYS", "elapsed_seconds", "write_checkpoint",
           "check_same_network", "read_checkpoint"]

STATE_MEMBER = "training_state.pt"
"""The member of ``checkpoint.zip`` beside SB3's own (not ``.pth``: SB3 would load it)."""


def elapsed_seconds(state: dict) -> float:
    """Seconds of training so far: those of the runs before a resume and this one's."""
    return state["seconds"] + time.time() - state["t0"]


def write_checkpoint(model, run_dir: str, history: list, state: dict) -> None:
    """``run_dir/checkpoint.zip``: the model, optimiser and step count (SB3's archive) and the
    snapshots, history and games played (member :data:`STATE_MEMBER`), replaced as one
    file."""
    buffer = io.BytesIO()
    model.save(buffer)
    extra = {"snapshots": state["snapshots"], "games": state["games"],
             "seconds": elapsed_seconds(state), "steps": model.num_timesteps,
             # plain JSON types: the state loads with weights_only=True
             "history": json.loads(json.dumps(history))}
    blob = io.BytesIO()
    torch.save(extra, blob)
    with zipfile.ZipFile(buffer, "a") as archive:
        archive.writestr(STATE_MEMBER, blob.getvalue())
    write_atomically(os.path.join(run_dir, "checkpoint.zip"), buffer.getvalue())


NETWORK_KEYS = ("hidden", "activation", "share_trunk", "value_pooling", "max_candidates")
"""The settings that shape the policy network: a resumed run must keep them."""


def check_same_network(cfg) -> None:
    """Raise :class:`ConfigError` when the run's saved settings (``run_dir/config.json``)
    shape the network otherwise than ``cfg`` (a ``--resume`` with ``--set hidden=...``),
    naming each setting; nothing is written before."""
    path = os.path.join(cfg.run_dir, "config.json")
    try:
        with open(path, encoding="utf-8") as fh:
            saved = json.load(fh)
    except (OSError, ValueError):
        return  # no settings saved beside the checkpoint: the checkpoint's own are used
    now = asdict(cfg)
    changed = changed_settings({k: saved.get(k) for k in NETWORK_KEYS},
                               {k: now[k] for k in NETWORK_KEYS})
    if changed:
        raise ConfigError(f"--resume: {path!r} shapes the network otherwise: {changed}; "
                          "resume with the run's own network settings, or give a new run_dir")


def read_checkpoint(run_dir: str) -> dict:
    """The training state saved in ``run_dir/checkpoint.zip`` (a checkpoint written
    before it held one reads ``checkpoint.pt`` beside it), read with
    ``weights_only=True``; ``"steps"`` is the step count it was taken at.

    Raises:
        FileNotFoundError: no checkpoint in ``run_dir`` (named).
        ModelFileError: a truncated or foreign checkpoint (the message names the file).
    """
    path = os.path.join(run_dir, "checkpoint.zip")
    if not os.path.exists(path):
        raise FileNotFoundError(f"--resume: no checkpoint at {path!r}")
    legacy_path = os.path.join(run_dir, "checkpoint.pt")
    if _has_member(path, STATE_MEMBER) or not os.path.exists(legacy_path):
        return load_torch_member(path, STATE_MEMBER, "PPO checkpoint")
    legacy = load_torch_file(legacy_path, "PPO checkpoint")
    return {**legacy, "snapshots": legacy["pool"]["snapshots"]}


def _has_member(path: str, member: str) -> bool:
    """Whether the zip archive ``path`` holds ``member`` (False when it is no archive)."""
    try:
        with zipfile.ZipFile(path) as archive:
            return member in archive.namelist()
    except zipfile.BadZipFile:
        return False
