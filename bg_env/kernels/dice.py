"""Dice drawn inside the kernels from a numpy bit generator, exactly as
``numpy.random.Generator.integers(1, 7)`` draws them.

* :func:`die_from` (a kernel): one die from the bit generator whose ``ctypes.next_uint32``
  and ``ctypes.state_address`` are ``fn`` and ``state``
  (:func:`bg_env.kernels.io.bit_generator_pointers` gives them).
* :func:`roll_dice` (a kernel): two dice, as two calls of ``Generator.integers(1, 7)``.
* :func:`next_u32`, :func:`below`, :func:`seeded_die`: the batch kernels' own per-game
  generators (splitmix64 states in a ``uint64`` array, one per game; unbiased integers by
  Lemire's method); :func:`next_die` draws from either source.

:class:`~bg_env.game.game.Game` (its rolls, :func:`roll_dice`), the engine and the batch
kernels (:mod:`bg_env.kernels.batch`) all draw their dice here, so a game rolls what the same
seed rolls wherever it is played.
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

__all__ = ["die_from", "roll_dice", "next_u32", "below", "seeded_die", "next_die"]


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


_U = np.uint64


@njit(cache=True)
def next_u32(seeds, i):
    """The next 32 random bits of game ``i`` (splitmix64, high half)."""
    z = seeds[i] + _U(0x9E3779B97F4A7C15)
    seeds[i] = z
    z = (z ^ (z >> _U(30))) * _U(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> _U(27))) * _U(0x94D049BB133111EB)
    z = z ^ (z >> _U(31))
    return z >> _U(32)


@njit(cache=True)
def below(seeds, i, n):
    """A uniform integer in ``0..n-1`` (Lemire's unbiased method)."""
    bound = _U(n)
    m = next_u32(seeds, i) * bound
    low = m & _U(0xFFFFFFFF)
    if low < bound:
        threshold = (_U(0x100000000) - bound) % bound
        while low < threshold:
            m = next_u32(seeds, i) * bound
            low = m & _U(0xFFFFFFFF)
    return np.int64(m >> _U(32))


@njit(cache=True)
def seeded_die(seeds, i):
    """One die from game ``i``'s own generator in ``seeds``."""
    return below(seeds, i, 6) + 1


@njit(cache=True)
def next_die(seeds, i, fn, st):
    """One die from the dice source: game ``i``'s generator in ``seeds``, or, with
    ``seeds`` None, the numpy bit generator whose ``ctypes`` ``next_uint32`` and
    ``state_address`` are ``fn`` and ``st`` (:func:`die_from`). Numba
    resolves the branch when it compiles, from the type of ``seeds``."""
    if seeds is None:
        return die_from(fn, st)
    return seeded_die(seeds, i)
