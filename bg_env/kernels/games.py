"""The arrays of many games under one set of rules (:class:`Games`) and the kernels that
start and step all of them at once: the state and the row kernels are those of
:mod:`bg_env.kernels.batch`, whose docstring lays the arrays out.
"""

from __future__ import annotations

import copy

import numpy as np
from numba import njit

from ..rules.actions import N_ACTIONS
from ..rules.outcome import GAMMON_RULES
from .batch import N_COLUMNS, P_OVER, PHASE, STARTER, act_row, open_row
from .batch_rules import next_starter_code, variant_columns
from .batch_variants import VariantRows, uses_variant_turn
from .borrow import borrowed

__all__ = ["Games", "act", "reset_games"]


@njit(cache=True)
def reset_games(state, me, opp, seeds, rules, mask, which, vt=None):
    """Start a new game in every ``i`` with ``which[i]`` (``vt``: the variant turns, when
    the variant's moves are not standard)."""
    state, me, opp, seeds, rules, mask = (borrowed(state), borrowed(me), borrowed(opp),
                                          borrowed(seeds), borrowed(rules), borrowed(mask))
    for i in range(state.shape[0]):
        if which[i]:
            open_row(state[i], me[i], opp[i], rules, mask[i], seeds, i, 0, 0, vt)


@njit(cache=True)
def act(state, me, opp, seeds, rules, mask, actions, legal, vt=None):
    """Apply ``actions[i]`` in every game with ``actions[i] >= 0`` (both sides are
    driven from outside); ``legal[i]`` says whether it was legal (an illegal one changes
    nothing)."""
    state, me, opp, seeds, rules, mask = (borrowed(state), borrowed(me), borrowed(opp),
                                          borrowed(seeds), borrowed(rules), borrowed(mask))
    for i in range(state.shape[0]):
        if actions[i] >= 0:
            legal[i] = act_row(state[i], me[i], opp[i], seeds, i, rules, mask[i], actions[i], vt)


class Games:
    """The arrays of ``n`` games under one set of rules, and their generators.

    Args:
        n: how many games.
        rules: a :class:`~bg_env.game.game.Rules`.
    """

    def __init__(self, n: int, rules) -> None:
        self.n = n
        self.game_rules = rules
        """The :class:`~bg_env.game.game.Rules` the games are played under."""
        self.rules = np.array(
            [rules.cube, rules.jacoby, rules.beaver, rules.auto_doubles, rules.max_cube,
             GAMMON_RULES.index(rules.gammons), rules.cube_progression == "arithmetic",
             *variant_columns(rules.variant_spec), next_starter_code(rules.next_starter)],
            dtype=np.int64,
        )
        self.state = np.zeros((n, N_COLUMNS), dtype=np.int64)
        self.state[:, PHASE] = P_OVER
        self.state[:, STARTER] = -1
        self.me = np.zeros((n, 26), dtype=np.int64)
        self.opp = np.zeros((n, 26), dtype=np.int64)
        self.mask = np.zeros((n, N_ACTIONS), dtype=bool)
        self.seeds = np.zeros(n, dtype=np.uint64)
        self.variant_rows = (VariantRows(n, rules.variant_spec)
                             if uses_variant_turn(rules.variant_spec) else None)
        """The variant turns (:mod:`~.batch_variants`) when the variant's moves are not
        standard, else ``None``."""
        self.seed(None)

    def copy(self) -> "Games":
        """A copy with arrays of its own (the frozen rules, the variant's numbers and work
        arrays shared): what a search's ``clone`` costs, so only the arrays are copied."""
        return self.__deepcopy__({})

    def __deepcopy__(self, memo) -> "Games":
        """:meth:`copy` through ``memo``, as any deep copy: whatever else in the same copy
        holds these arrays gets the copies."""
        twin = object.__new__(type(self))
        memo[id(self)] = twin
        twin.__dict__.update(self.__dict__)
        for name in ("rules", "state", "me", "opp", "mask", "seeds"):
            array = getattr(self, name)
            setattr(twin, name, memo.setdefault(id(array), array.copy()))
        if self.variant_rows is not None:
            twin.variant_rows = copy.deepcopy(self.variant_rows, memo)
        return twin

    def put(self, i: int, source: "Games", j: int = 0) -> None:
        """Game ``i`` becomes a copy of ``source``'s game ``j`` (the same rules; a
        :class:`~bg_env.game.game.Game`'s :attr:`~bg_env.game.game.Game.games`, say): its
        board, state and legal actions, not its generator. Follow it with
        :func:`resume_row` when ``source`` holds a Game's row (``HOLD`` set)."""
        self.state[i], self.me[i], self.opp[i] = source.state[j], source.me[j], source.opp[j]
        self.mask[i] = source.mask[j]
        if self.variant_rows is not None:
            self.variant_rows.copy_row(i, source.variant_rows, j)

    def seed(self, seed=None) -> None:
        """Seed the generators: ``None`` (fresh entropy for every game), an int (game ``i``
        gets ``seed + i``, as Stable-Baselines3 seeds vector envs), or one seed per game
        (``None`` entries keep their generator)."""
        if seed is None or isinstance(seed, (int, np.integer)):
            seeds, fresh = [None if seed is None else int(seed) + i for i in range(self.n)], True
        else:
            seeds, fresh = list(seed), False
            if len(seeds) != self.n:
                raise ValueError(f"seed: a list of {len(seeds)} seeds for {self.n} games; "
                                 "expected one per game (or one int)")
        for s in seeds:
            if s is not None and (isinstance(s, bool) or not isinstance(s, (int, np.integer))
                                  or s < 0):
                raise ValueError(f"seed {s!r}: expected a whole number of 0 or more, or None")
        for i, s in enumerate(seeds):
            if s is not None or fresh:
                self.seeds[i] = np.random.SeedSequence(s).generate_state(1, np.uint64)[0]

    def reset(self, which: np.ndarray | None = None) -> None:
        """Start new games (all, or where ``which`` is true)."""
        if which is None:
            which = np.ones(self.n, dtype=bool)
        vt = None if self.variant_rows is None else self.variant_rows.kernel_args
        reset_games(self.state, self.me, self.opp, self.seeds, self.rules, self.mask, which, vt)

    @property
    def kernel_variant_args(self) -> tuple:
        """``(vt,)`` for the turn kernels' last argument when the variant's moves are not
        standard, else ``()``."""
        return () if self.variant_rows is None else (self.variant_rows.kernel_args,)
