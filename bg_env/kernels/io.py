"""What :class:`~bg_env.game.game.Game`'s fast path hands to the numba kernels and reads
back: dice as ``int8`` arrays, moves by code, boards as Positions, and the addresses of a
numpy generator's bit generator (the dice kernels draw from it directly).

The addresses are only valid in the process and for the generator they were read from:
never store them in anything that is copied or pickled (:class:`~bg_env.kernels.engine.
EngineGame` drops them and reads them again from the copied generator).
"""

from __future__ import annotations

import ctypes
import struct

import numpy as np

from ..rules.moves import Move
from ..rules.position import Position

__all__ = ["MOVES", "new_position", "dice_array", "bit_generator_pointers", "unpack_side"]

_set_me = Position.__dict__["me"].__set__  # Position is a slots dataclass
_set_opp = Position.__dict__["opp"].__set__
_new_object = object.__new__


def new_position(me: tuple, opp: tuple) -> Position:
    """A Position from two 26-tuples, unchecked (boards made here come from valid ones):
    :meth:`Position._unchecked` through the slots' setters, faster."""
    pos = _new_object(Position)
    _set_me(pos, me)
    _set_opp(pos, opp)
    return pos


MOVES = {
    (s, d, h): Move(s, d, h) for s in range(1, 26) for d in range(1, 7) for h in (False, True)
}
"""Every Move, shared (Move is immutable): ``MOVES[source, die, hit]``."""

_DICE_ARRAYS = {
    tuple(dice): np.array(dice, np.int8)
    for d in range(1, 7)
    for dice in ([d] * 4, [d] * 3, [d] * 2, [d], [])
}
_DICE_ARRAYS.update({(a, b): np.array([a, b], np.int8) for a in range(1, 7) for b in range(1, 7)})
"""The dice still to play as the ``int8`` arrays the kernels take (shared, never written)."""

unpack_side = struct.Struct("26b").unpack_from
"""26 counts of a board's bytes as a tuple."""


def dice_array(remaining: list[int]) -> np.ndarray:
    """The dice still to play as an ``int8`` array (shared: do not write to it)."""
    dice = _DICE_ARRAYS.get(tuple(remaining))
    if dice is None:  # not a state Game makes; let the kernel judge it
        dice = np.array(remaining, np.int8)
    return dice


def bit_generator_pointers(rng) -> tuple[int, int] | None:
    """``(next_uint32, state)`` addresses of a numpy ``Generator``'s bit generator, for
    :func:`~bg_env.kernels.dice.roll_dice`; ``None`` when ``rng`` is anything else.
    Valid while ``rng`` lives, in this process only.

    Read from the bit generator's ``capsule`` (numpy's documented ``bitgen_t`` of
    ``numpy/random/bitgen.h``), the same addresses as its ``ctypes`` interface gives
    (``ctypes.next_uint32``, ``ctypes.state_address``) at a fifth of the cost: the
    environments read them again for each newly seeded generator."""
    if type(rng) is not np.random.Generator:
        return None
    bitgen = rng.bit_generator
    try:
        words = _BITGEN_T.from_address(_capsule_pointer(bitgen.capsule, b"BitGenerator"))
        return words.next_uint32, words.state
    except (AttributeError, TypeError, ValueError):  # pragma: no cover - no numpy capsule
        pass
    try:
        interface = bitgen.ctypes
        fn = ctypes.cast(interface.next_uint32, ctypes.c_void_p).value
    except (AttributeError, TypeError):  # pragma: no cover - not a numpy bit generator
        return None
    return fn, interface.state_address


class _BITGEN_T(ctypes.Structure):
    """numpy's ``bitgen_t`` (``numpy/random/bitgen.h``), the functions as addresses."""

    _fields_ = [("state", ctypes.c_void_p), ("next_uint64", ctypes.c_void_p),
                ("next_uint32", ctypes.c_void_p), ("next_double", ctypes.c_void_p),
                ("next_raw", ctypes.c_void_p)]


_capsule_pointer = ctypes.pythonapi.PyCapsule_GetPointer
_capsule_pointer.restype = ctypes.c_void_p
_capsule_pointer.argtypes = (ctypes.py_object, ctypes.c_char_p)
