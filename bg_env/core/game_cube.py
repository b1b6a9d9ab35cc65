"""The decisions of :class:`~bg_env.core.game.Game` around the checker play: the cube
question before the roll (double, roll, or in the nuclear variant set off the bomb) and the
answer to a double (take, drop, beaver; after a beaver, the doubler's take or drop).

Rules source: ``docs/RULES.md`` §6 (the doubling cube, beavers, automatic doubles); the cube
rules themselves are the pure functions of :mod:`bg_env.core.cube`, which this module calls.

:class:`CubeDecisions` is a mixin of :class:`~bg_env.core.game.Game`, like
:class:`~bg_env.core.game_kernels.KernelMoves`: it reads and writes the Game's own fields
(``phase``, ``cube_value``, ``cube_owner``, ``cube_turned``, ``pending_cube``,
``bomb_owner``, ``position``, ``events``) and calls the Game's turn methods (``_roll``,
``_start_play``, ``_finish``). It holds no state of its own, so a Game copies and pickles
as before.
"""

from __future__ import annotations

from .actions import BEAVER, BOMB, DOUBLE, DROP, ROLL, TAKE
from .cube import Phase, cube_value_allowed, next_cube_value
from .cube import may_double as _cube_may_double
from .variants import explode

__all__ = ["CubeDecisions"]


class CubeDecisions:
    """Game's cube phase and answers to a double (a mixin: see the module docstring)."""

    # ----------------------------------------------------------------- queries
    def may_double(self) -> bool:
        """Whether the side on turn may double now (RULES.md §6)."""
        return self.phase != Phase.OVER and _cube_may_double(
            self.rules, self.cube_value, self.cube_owner, self.turn)

    def may_bomb(self) -> bool:
        """Nuclear variant: whether the side on turn may set off the bomb now."""
        return (
            self.variant.bomb and self.phase != Phase.OVER and self.bomb_owner in (-1, self.turn)
        )

    def may_beaver(self) -> bool:
        """Whether the doubled side may beaver: the option is on and the redoubled value is
        within ``max_cube`` (RULES.md §6)."""
        nxt = next_cube_value(self.pending_cube, self.rules.cube_progression)
        return self.rules.beaver and cube_value_allowed(nxt, self.rules)

    def _may_auto_double(self) -> bool:
        """An opening tie doubles the stake: the cube is in play and the doubled value
        is within ``max_cube`` (RULES.md §6)."""
        nxt = next_cube_value(self.cube_value, self.rules.cube_progression)
        return self.rules.cube and cube_value_allowed(nxt, self.rules)

    def _cube_actions(self) -> list[int]:
        """The legal actions of the phases ``CUBE``, ``TAKE`` and ``BEAVER_TAKE``
        (none in any other phase), ascending."""
        if self.phase == Phase.CUBE:
            return [ROLL] + [DOUBLE] * self.may_double() + [BOMB] * self.may_bomb()
        if self.phase == Phase.TAKE:
            return [TAKE, DROP] + ([BEAVER] if self.may_beaver() else [])
        if self.phase == Phase.BEAVER_TAKE:
            return [TAKE, DROP]
        return []

    # ------------------------------------------------------------------ steps
    def _cube_step(self, action: int, rng) -> None:
        """Apply the legal cube-phase action ``action`` (unchecked) of :attr:`actor`."""
        if self.phase == Phase.CUBE:
            if action == DOUBLE:
                self.offer_double()
            elif action == BOMB:
                self._set_off_bomb(rng)
            else:
                self._start_play(self._roll(rng), rng)
        elif self.phase == Phase.TAKE:
            self._answer(action, rng, taker=1 - self.turn)
        else:  # BEAVER_TAKE
            self._answer(action, rng, taker=self.turn)

    def offer_double(self) -> None:
        """The side on turn doubles: the other side must take, drop (or beaver)."""
        self.pending_cube = next_cube_value(self.cube_value, self.rules.cube_progression)
        self.phase = Phase.TAKE
        if self.events is not None:
            self.events.append(("double", self.turn, self.pending_cube))

    def _set_off_bomb(self, rng) -> None:
        """Nuclear: every blot to the bar; the bomb passes to the opponent; the side on
        turn then doubles or rolls as usual."""
        self.position = explode(self.position)
        self.bomb_owner = 1 - self.turn
        if self.events is not None:
            self.events.append(("bomb", self.turn))
        if not self.may_double():
            self._start_play(self._roll(rng), rng)

    def _answer(self, action: int, rng, taker: int) -> None:
        """``taker`` answers the cube on offer with ``TAKE``, ``DROP`` or ``BEAVER``."""
        if self.events is not None:
            self.events.append(({DROP: "drop", BEAVER: "beaver"}.get(action, "take"), taker))
        if action == DROP:
            self._drop(taker)
        elif action == BEAVER:
            self._beaver()
        else:
            self._take(rng)

    def _drop(self, taker: int) -> None:
        """A drop ends the game at the stake before this double (after a beaver, at the
        beavered stake): the doubler wins ``cube_value`` points."""
        self._finish(1 - taker, "drop", self.cube_value, self.cube_value)

    def _beaver(self) -> None:
        """A beaver takes the double and redoubles at once; the doubler must answer."""
        self.cube_value = self.pending_cube
        self.pending_cube = next_cube_value(self.pending_cube, self.rules.cube_progression)
        self.phase = Phase.BEAVER_TAKE

    def _take(self, rng) -> None:
        """A take: the cube goes to the doubled side (beaver or not) at the value on
        offer, and the side on turn rolls."""
        self.cube_value = self.pending_cube
        self.cube_owner = 1 - self.turn
        self.cube_turned = True
        self._start_play(self._roll(rng), rng)
