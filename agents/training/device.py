"""The ``device`` setting of the trainers: where the networks learn.

>>> resolve_device("cpu")
'cpu'
"""

from __future__ import annotations

__all__ = ["DEVICES", "resolve_device"]

DEVICES = ("auto", "cpu", "cuda")
"""Accepted values: ``auto`` picks ``cuda`` when torch sees a GPU, else ``cpu``."""


def resolve_device(device: str) -> str:
    """The torch device for a ``device`` setting.

    Raises:
        ValueError: an unknown value, or ``cuda`` without a GPU that torch can use (both
            named).
    """
    import torch

    if device not in DEVICES:
        raise ValueError(f"device={device!r}: expected one of {list(DEVICES)}")
    if device == "auto":
        return "cuda" if torch.cuda.is_available() else "cpu"
    if device == "cuda" and not torch.cuda.is_available():
        raise ValueError("device='cuda': torch finds no CUDA GPU here; use 'cpu' or 'auto'")
    return device
