"""The AEC env's action space: ``Discrete(N_ACTIONS)``, cheaper where the env uses it at
every step or reset."""

from __future__ import annotations

import numpy as np
from gymnasium import spaces

__all__ = ["ActionSpace"]


class ActionSpace(spaces.Discrete):
    """``Discrete(N_ACTIONS)`` checking a plain ``int`` or a numpy ``int64`` (what
    ``np.flatnonzero(mask)`` and ``mask.nonzero()[0]`` hold) directly: gymnasium's
    ``contains`` goes through numpy's type checks, which cost more than a game step, and
    ``AssertOutOfBoundsWrapper`` calls it at every step. The answers are gymnasium's."""

    def __init__(self, n: int, seed=None, start: int = 0):
        super().__init__(n, seed=seed, start=start)
        self._bounds = (int(self.start), int(self.start + self.n))

    def contains(self, x) -> bool:
        kind = type(x)
        if kind is int or kind is np.int64:
            low, high = self._bounds  # plain ints: numpy's scalars compare slower
            return low <= int(x) < high
        return super().contains(x)

    def seed_on_use(self, seed: int) -> None:
        """:meth:`seed` with ``seed`` when the generator is first used (``sample``,
        ``np_random``): the same draws, without making a generator (as costly as a game's
        ten decisions) at every ``reset(seed=...)`` of an env whose spaces are not sampled."""
        self._seed_on_use = seed

    def seed(self, seed=None):
        self._seed_on_use = None
        return super().seed(seed)

    @property
    def np_random(self) -> np.random.Generator:
        if getattr(self, "_seed_on_use", None) is not None:
            self.seed(self._seed_on_use)
        return super().np_random
