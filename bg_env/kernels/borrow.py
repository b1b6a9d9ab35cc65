"""Borrowed views of arrays inside the kernels, so that passing them around costs nothing.

numba counts references to every array a compiled function receives, creates (a row
``state[i]``, a slice) or hands to another compiled function: an atomic increment on the
way in and a decrement on the way out, unless its optimiser proves a pair redundant,
which it rarely can across the loops and branches of a turn. In the turn kernels those
atomic operations took more time than the rules themselves (about 40 of them a decision).
A count is only kept when the array has a memory record (numba's "meminfo"); a view
without one is counted by a null check, nothing more.

:func:`borrowed` is such a view: the same data, shape and strides, no record. The
kernels called from Python borrow their array arguments once at the top (the Python
caller holds the arrays for the whole call, so the data stays alive) and everything
below, rows and calls alike, then runs without atomic operations. A borrowed view must
not outlive the call that made it: never return one to Python or keep it in an object,
and never borrow an array the kernel allocated itself (nothing would keep it alive).
"""

from __future__ import annotations

from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

__all__ = ["borrowed"]


@intrinsic
def borrowed(typingctx, array):
    """A view of ``array`` (a numba array) without numba's memory record: the same data,
    shape and strides, not reference counted (see the module docstring for when it is
    safe). ``None`` stays ``None`` (an optional argument left out)."""
    if isinstance(array, types.NoneType):
        return array(array), lambda context, builder, signature, args: args[0]
    if not isinstance(array, types.Array):
        return None

    def codegen(context, builder, signature, args):
        source = context.make_array(array)(context, builder, value=args[0])
        view = context.make_array(array)(context, builder)
        for field in ("data", "shape", "strides", "itemsize", "nitems"):
            setattr(view, field, getattr(source, field))
        view.meminfo = cgutils.get_null_value(view.meminfo.type)
        view.parent = cgutils.get_null_value(view.parent.type)
        return view._getvalue()

    return array(array), codegen
