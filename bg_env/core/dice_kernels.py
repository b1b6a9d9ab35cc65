"""Dice drawn inside the kernels from a numpy bit generator, exactly as
``numpy.random.Generator.integers(1, 7)`` draws them.

* :func:`die_from` (a kernel): one die from the bit generator whose ``ctypes.next_uint32``
  and ``ctypes.state_address`` are ``fn`` and ``state``
  (:func:`bg_env.core.kernel_io.bit_generator_pointers` gives them).
* :func:`roll_dice` (a kernel): two dice, as two calls of ``Generator.integers(1, 7)``.

The one-game kernels (:mod:`bg_env.core.game_kernels`) and the batch kernels
(:mod:`bg_env.core.batch`) both draw their dice here, so a game on the kernels rolls what
the same seed rolls in pure Python.
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

__all__ = ["die_from", "roll_dice"]


@intrinsic
def _call_next_uint32(typingctx, fn, state):
    """``fn(state)`` for a C function ``uint32_t fn(void *)`` given by address (the
    ``next_uint32`` of a numpy ``BitGenerator``'s ``ctypes`` interface)."""
    if not (isinstance(fn, types.Integer) and isinstance(state, types.Integer)):
        return None
    sig = types.uint32(fn, state)

    def codegen(context, builder, signature, args):
        ptr = ir.IntType(8).as_pointer()
        fnty = ir.FunctionType(ir.IntType(32), [ptr])
        callee = builder.inttoptr(args[0], fnty.as_pointer())
        return builder.call(callee, [builder.inttoptr(args[1], ptr)])

    return sig, codegen


@njit(cache=True)
def die_from(fn, state):
    """One die, exactly as ``numpy.random.Generator.integers(1, 7)`` draws it from the
    same bit generator: Lemire's method on ``next_uint32``, rejecting as numpy does."""
    m = np.uint64(_call_next_uint32(fn, state)) * np.uint64(6)
    if (m & np.uint64(0xFFFFFFFF)) < np.uint64(6):
        # numpy's threshold: (UINT32_MAX - 5) % 6 == 4
        while (m & np.uint64(0xFFFFFFFF)) < np.uint64(4):
            m = np.uint64(_call_next_uint32(fn, state)) * np.uint64(6)
    return np.int64(m >> np.uint64(32)) + 1


@njit(cache=True)
def roll_dice(fn, state):
    """Two dice drawn as two calls of ``Generator.integers(1, 7)`` would draw them, from
    the bit generator whose ``ctypes.next_uint32`` and ``ctypes.state_address`` are
    ``fn`` and ``state`` (a kernel; not thread-safe: the generator's lock is not taken)."""
    d1 = die_from(fn, state)
    return d1, die_from(fn, state)
