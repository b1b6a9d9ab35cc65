"""One checker move under a variant's rules, from a board in the middle of a turn
(``docs/RULES.md`` §2-§4 and §7). :func:`step` applies the rules one small function at a
time: who may move (:func:`_may_move_from`), where it lands (:func:`_land`), bearing off
(:func:`_bear_off`), then the rules that look at the board after the move.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..board import BAR, OFF
from ..position import Position
from . import caucasian, nardy, plakoto
from .geometry import opp_index
from .pinned import PinnedPosition, pins_of

__all__ = ["TurnState", "start_state", "step"]


@dataclass(frozen=True)
class TurnState:
    """The board during a turn plus what the rules remember within the turn."""

    me: tuple[int, ...]
    opp: tuple[int, ...]
    pinned: tuple[int, int] = (0, 0)
    hitters: tuple[int, ...] = ()
    """Caucasian: how many of the player's checkers on each point hit in his home board
    this turn (empty tuple when the rule is off)."""
    head_left: int = 0
    """Long Nardy: how many more checkers may leave the head this turn."""
    over: bool = False
    """The game ended during this play (sudden-death hit, Plakoto mother pinned)."""

    def position(self, variant) -> Position:
        if variant.landing == "pin":
            return PinnedPosition(self.me, self.opp, self.pinned)
        return Position(self.me, self.opp)


def start_state(variant, pos: Position, dice: tuple[int, int]) -> TurnState:
    """The state at the start of a turn with ``dice``."""
    return TurnState(
        pos.me, pos.opp, pins_of(pos), caucasian.start_hitters(variant),
        nardy.head_allowance(variant, pos, dice),
    )


def _may_move_from(variant, st: TurnState, source: int, as_hitter: bool) -> bool:
    """A checker of the kind asked for may leave ``source``: there is one; checkers on the
    bar enter first (and only a variant with a bar has them); a pinned checker is held;
    the Long Nardy head is not closed for the turn."""
    me = st.me
    if me[source] == 0:
        return False
    if source == BAR:
        if not variant.has_bar:
            return False
    elif me[BAR]:
        return False
    if plakoto.is_pinned(st.pinned, source) or nardy.head_closed(variant, st.head_left, source):
        return False
    return caucasian.has_mover(variant, st.hitters, me[source], source, as_hitter)


def _hit(opp: tuple[int, ...], q: int) -> tuple[int, ...]:
    """The opponent's blot on his point ``q`` sent to the bar."""
    out = list(opp)
    out[q], out[BAR] = 0, opp[BAR] + 1
    return tuple(out)


def _land(variant, st: TurnState, dest: int, as_hitter: bool):
    """A landing on point ``dest``: ``(opp, pinned, hit)`` after it, or ``None`` when the
    point is closed: to a Caucasian hitter if it holds the player's checkers; in the
    backgammon family if it holds two or more opposing checkers (one is hit); in Plakoto
    see :func:`plakoto.pin_landing`; in Long Nardy if it holds any opposing checker."""
    if caucasian.hides(as_hitter, st.me[dest]):
        return None
    q = opp_index(variant, dest)
    theirs = st.opp[q]
    if variant.landing == "hit":
        if theirs >= 2:
            return None
        return (_hit(st.opp, q), st.pinned, True) if theirs == 1 else (st.opp, st.pinned, False)
    if variant.landing == "pin":
        pinned = plakoto.pin_landing(st.pinned, st.me[dest], theirs, q)
        return None if pinned is None else (st.opp, pinned[0], pinned[1])
    return None if theirs else (st.opp, st.pinned, False)


def _bear_off(
    variant, st: TurnState, source: int, die: int, as_hitter: bool, hitter_off: bool
) -> bool:
    """A checker may bear off from ``source`` with ``die``: every checker is home; a die
    larger than the point bears off only from the highest point; a Caucasian hitter only
    when that is the only way to play the die (not asked while ``hitter_off`` is false),
    unless the variant lets hitters bear off (``hitter_bears_off``)."""
    me = st.me
    if any(me[caucasian.HOME_TOP + 1 : 26]):
        return False
    if source - die < 0 and any(me[source + 1 : caucasian.HOME_TOP + 1]):
        return False
    return (not as_hitter or variant.hitter_bears_off
            or (hitter_off and not _die_playable_otherwise(variant, st, die)))


def _die_playable_otherwise(variant, st: TurnState, die: int) -> bool:
    """Some move with ``die`` other than a Caucasian hitter bearing off is legal."""
    return any(
        step(variant, st, source, die, as_hitter, hitter_off=False) is not None
        for source in range(BAR, 0, -1)
        for as_hitter in (False, True)
    )


def _ends_game(variant, hit: bool, q: int) -> bool:
    """The move ends the game: any hit in sudden death; a pin on the mother in Plakoto."""
    return hit and (variant.first_hit_wins or (variant.mother and plakoto.pins_mother(q)))


def step(variant, st: TurnState, source: int, die: int, as_hitter: bool, hitter_off: bool = True):
    """One checker moved from ``source`` by ``die`` (by a Caucasian hitter when
    ``as_hitter``): ``(state, hit)`` after it (``hit`` also for a Plakoto pin), or ``None``
    when the move is illegal. ``hitter_off=False`` leaves out a hitter's bear-off (used to
    ask whether the die can be played otherwise)."""
    if not _may_move_from(variant, st, source, as_hitter):
        return None
    dest = source - die
    q = opp_index(variant, dest) if dest >= 1 else 0
    if dest >= 1:
        landed = _land(variant, st, dest, as_hitter)
        if landed is None:
            return None
        opp, pinned, hit = landed
    elif _bear_off(variant, st, source, die, as_hitter, hitter_off):
        opp, pinned, hit, dest = st.opp, st.pinned, False, OFF
    else:
        return None
    me = list(st.me)
    me[source] -= 1
    me[dest] += 1
    me = tuple(me)
    if variant.landing == "pin":
        pinned = plakoto.release(pinned, me[source] == 0, opp_index(variant, source))
    if variant.nardy_rules and nardy.blocks_illegally(variant, me, opp):
        return None
    hitters = caucasian.track(variant, st.hitters, source, dest, as_hitter, hit)
    head_left = st.head_left - nardy.leaves_head(variant, source)
    return TurnState(me, opp, pinned, hitters, head_left, _ends_game(variant, hit, q)), hit
