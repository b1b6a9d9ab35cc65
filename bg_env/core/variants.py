"""Rule variants: start positions, movement rules and scoring (RULES.md §7).

A :class:`Variant` says everything the engine needs to play it: the start layout and the
number of checkers, how the two sides' numberings face each other (``geometry``), what
landing on a lone opposing checker does (``landing``), and the special rules (sudden
death, the nuclear bomb, the Caucasian rule, the Long Nardy head and block rules, the
Plakoto mother). ``VARIANTS`` holds them by name.

Variants whose checkers move by the standard rules (``standard``, ``nackgammon``,
``hypergammon1..3``, ``longgammon``, ``nuclear``) use the library's fast generators
(:func:`bg_env.core.moves.legal_plays`, the numba kernels); the others are played by
:func:`variant_sequences`, a plain brute-force search over every order of the dice that
applies the rules below move by move. Run on a standard variant it gives exactly
:func:`~bg_env.core.moves.legal_plays_reference` (tested), which is what makes it
trustworthy for the others.

Rules as this module applies them (RULES.md §7, with the choices it leaves open):

* **Sudden death**: a move that hits ends the game at once; the mover wins one point
  times the cube, and a play that hits counts as using all its dice (nothing is left to
  play). A game that ends by bearing off is single: no gammons.
* **Nuclear**: one bomb, owned by nobody at the start. Before rolling, a side that owns
  it or while nobody does may set it off (action ``BOMB``): every blot of both sides
  goes to the bar, and the bomb then belongs to the opponent (:func:`explode`).
* **Plakoto**: both sides start with 15 checkers on their 24-point and move as in
  standard backgammon, without a bar. A move landing on a lone opposing checker *pins*
  it: the pinned checker cannot move, and the point belongs to the pinner, who may add
  checkers to it; the opponent may not land there. The pin is released when the
  pinner's last checker leaves. Pinning the opponent's last checker on his 24-point
  (the "mother") ends the game: a double game (2 x cube). Otherwise a gammon ("mars",
  the loser bore off none) is 2 and there are no backgammons. Pins are kept in
  :class:`PinnedPosition`.
* **Caucasian rule**: a checker that hits in its own home board (points 1..6) may not,
  later in the same turn, move to a point that holds one of its own checkers, nor bear
  off ("no hit and hide"). When a point holds both such a hitter and other checkers, a
  move from it may be either; both are searched.
* **Long Nardy**: 15 checkers on the head (own 24-point); both sides move the same way
  round, so the opponent's point ``q`` is the player's ``q + 12`` (``q <= 12``) or
  ``q - 12``. No hitting: a checker may not land on a point that holds an opposing
  checker. One checker per turn may leave the head, two on the side's first roll (all 15
  still on the head) when it is 6-6, 4-4 or 3-3. No move may leave six consecutive points
  (consecutive along the opponent's way round) held by the player unless at least one
  opposing checker on the board is already past that block. Home is points 1..6;
  bearing off as standard; a "mars" (the loser bore off none) is 2, no backgammons.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .moves import Move, Play, dice_to_play
from .outcome import Outcome
from .position import BAR, OFF, STANDARD_START, InvalidPositionError, Position

__all__ = [
    "Variant",
    "VARIANTS",
    "get_variant",
    "PinnedPosition",
    "variant_sequences",
    "legal_plays_variant",
    "variant_outcome",
    "opp_index",
    "explode",
]


@dataclass(frozen=True)
class Variant:
    """One way to play (RULES.md §7).

    Attributes:
        name: the ``variant=`` value.
        start: the start layout, ``{point: checkers}`` in each side's own numbering.
        checkers: checkers per side.
        geometry: ``"opposite"`` (the opponent's point ``q`` is the player's ``25 - q``)
            or ``"same_way"`` (Long Nardy: both move the same way round).
        landing: what a move onto a lone opposing checker does: ``"hit"`` (to the bar),
            ``"pin"`` (Plakoto) or ``"blocked"`` (Long Nardy: not allowed).
        first_hit_wins: sudden death.
        bomb: the nuclear bomb is in play.
        no_hit_and_hide: the Caucasian rule.
        nardy_rules: the Long Nardy head rule and six-block rule.
        mother: pinning the opponent's last checker on his 24-point wins a double game.
        max_kind: the biggest win the board can give: ``"backgammon"``, ``"gammon"`` or
            ``"single"``.
    """

    name: str
    start: dict[int, int] = field(default_factory=lambda: dict(STANDARD_START))
    checkers: int = 15
    geometry: str = "opposite"
    landing: str = "hit"
    first_hit_wins: bool = False
    bomb: bool = False
    no_hit_and_hide: bool = False
    nardy_rules: bool = False
    mother: bool = False
    max_kind: str = "backgammon"
    description: str = ""

    @property
    def standard_moves(self) -> bool:
        """Checkers move exactly as in standard backgammon (the fast generators apply)."""
        return (
            self.geometry == "opposite" and self.landing == "hit" and not self.first_hit_wins
            and not self.no_hit_and_hide and not self.nardy_rules
        )

    @property
    def has_bar(self) -> bool:
        return self.landing == "hit"

    def start_position(self) -> Position:
        """The start position, seen from the side that moves first."""
        if self.landing == "pin":
            base = Position.start(self.start, self.checkers)
            return PinnedPosition(base.me, base.opp, (0, 0))
        return Position.start(self.start, self.checkers)

    def position_from_id(self, position_id: str) -> Position:
        """A Position ID read for this variant: its checker count, its geometry, and for
        Plakoto no pins (IDs carry none, so a point both sides hold is refused).

        Raises:
            InvalidPositionError: not a Position ID of a board of this variant, or one
                whose game is already over.
        """
        pos = Position.from_position_id(position_id, checkers=self.checkers, validate=False)
        if self.landing == "pin":
            pos = PinnedPosition(pos.me, pos.opp, (0, 0))
        self.validate(pos)
        if variant_outcome(self, pos) is not None:
            raise InvalidPositionError(f"Position ID {position_id!r}: the game is already over")
        return pos

    def validate(self, pos: Position) -> None:
        """Raise :class:`InvalidPositionError` if ``pos`` cannot occur in this variant."""
        for name, side in (("player", pos.me), ("opponent", pos.opp)):
            if sum(side) != self.checkers:
                raise InvalidPositionError(
                    f"{self.name}: the {name} has {sum(side)} checkers, expected {self.checkers}"
                )
            if side[BAR] and not self.has_bar:
                raise InvalidPositionError(f"{self.name} has no bar, but the {name} has checkers on it")
        pinned = pos.pinned if isinstance(pos, PinnedPosition) else (0, 0)
        for p in range(1, 25):
            q = opp_index(self, p)
            mine, theirs = pos.me[p], pos.opp[q]
            if not (mine and theirs):
                continue
            if self.landing == "pin":
                me_pinned, opp_pinned = pinned[0] >> p & 1, pinned[1] >> q & 1
                if (me_pinned and mine == 1 and not opp_pinned) or (opp_pinned and theirs == 1 and not me_pinned):
                    continue
            raise InvalidPositionError(
                f"{self.name}: point {p} holds {mine} of the player's and {theirs} of the "
                "opponent's checkers"
            )
        if isinstance(pos, PinnedPosition):
            for side, mask in ((pos.me, pinned[0]), (pos.opp, pinned[1])):
                for p in range(1, 25):
                    if mask >> p & 1 and side[p] != 1:
                        raise InvalidPositionError(f"{self.name}: a pinned point {p} must hold one checker")


_HYPER = {1: {24: 1}, 2: {24: 1, 23: 1}, 3: {24: 1, 23: 1, 22: 1}}

VARIANTS: dict[str, Variant] = {
    v.name: v
    for v in (
        Variant("standard", description="standard backgammon"),
        Variant("nackgammon", {24: 2, 23: 2, 13: 4, 8: 3, 6: 4},
                description="Nick Ballard's variant: two more back checkers"),
        *(
            Variant(f"hypergammon{n}", _HYPER[n], checkers=n,
                    description=f"hypergammon with {n} checker{'s' * (n > 1)} each")
            for n in (1, 2, 3)
        ),
        Variant("longgammon", {24: 15}, description="all 15 checkers start on the 24-point"),
        Variant("sudden_death", first_hit_wins=True, max_kind="single",
                description="the first hit wins the game"),
        Variant("nuclear", bomb=True, description="one bomb that sends every blot to the bar"),
        Variant("plakoto", {24: 15}, landing="pin", mother=True, max_kind="gammon",
                description="Greek tavli: pinning instead of hitting, the mother checker"),
        Variant("caucasian", no_hit_and_hide=True,
                description="no hit and hide in the home board"),
        Variant("long_nardy", {24: 15}, geometry="same_way", landing="blocked", nardy_rules=True,
                max_kind="gammon", description="no hitting, both sides move the same way round"),
    )
}
VARIANTS["hypergammon"] = VARIANTS["hypergammon3"]


def get_variant(name: "str | Variant") -> Variant:
    """The :class:`Variant` called ``name``.

    Raises:
        ValueError: an unknown name (the message lists the known ones).
    """
    if isinstance(name, Variant):
        return name
    try:
        return VARIANTS[name]
    except (KeyError, TypeError):
        raise ValueError(f"variant={name!r}: expected one of {sorted(VARIANTS)}") from None


def opp_index(variant: Variant, point: int) -> int:
    """Index in the opponent's own numbering of the player's ``point`` (1..24)."""
    if variant.geometry == "same_way":
        return point - 12 if point > 12 else point + 12
    return 25 - point


@dataclass(frozen=True, slots=True)
class PinnedPosition(Position):
    """A Plakoto position: a :class:`Position` plus which checkers are pinned.

    ``pinned[0]`` has bit ``p`` set when the player's lone checker on his point ``p`` is
    pinned under the opponent's; ``pinned[1]`` the same for the opponent, in the
    opponent's numbering. Position IDs do not carry pins (they hold checker counts only).
    """

    pinned: tuple[int, int] = (0, 0)

    def swap(self) -> "PinnedPosition":
        return PinnedPosition(self.opp, self.me, (self.pinned[1], self.pinned[0]))

    def validate(self, allow_shared_points: bool = False) -> None:
        VARIANTS["plakoto"].validate(self)

    def __repr__(self) -> str:
        return f"PinnedPosition({self.me!r}, {self.opp!r}, {self.pinned!r})"


# --------------------------------------------------------------------------- moves
@dataclass(frozen=True)
class _TurnState:
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

    def position(self, variant: Variant) -> Position:
        if variant.landing == "pin":
            return PinnedPosition(self.me, self.opp, self.pinned)
        return Position._unchecked(self.me, self.opp)


def _start_state(variant: Variant, pos: Position, dice: tuple[int, int]) -> _TurnState:
    pinned = pos.pinned if isinstance(pos, PinnedPosition) else (0, 0)
    hitters = (0,) * 26 if variant.no_hit_and_hide else ()
    head_left = 0
    if variant.nardy_rules:
        first_roll = pos.me[24] == variant.checkers
        head_left = 2 if first_roll and dice[0] == dice[1] and dice[0] in (3, 4, 6) else 1
    return _TurnState(pos.me, pos.opp, pinned, hitters, head_left)


def _blocks_illegally(variant: Variant, me: tuple[int, ...], opp: tuple[int, ...]) -> bool:
    """Long Nardy: six or more consecutive points (along the opponent's way round) held by
    the player with no opposing checker on the board past them."""
    held = [False] * 25  # by the opponent's numbering 1..24
    for p in range(1, 25):
        if me[p]:
            held[opp_index(variant, p)] = True
    run = 0
    for q in range(24, 0, -1):  # the opponent's way: 24 -> 1
        run = run + 1 if held[q] else 0
        if run >= 6:
            lowest = q
            while lowest > 1 and held[lowest - 1]:
                lowest -= 1
            if not any(opp[1:lowest]):
                return True
    return False


def _step(variant: Variant, st: _TurnState, source: int, die: int, as_hitter: bool) -> tuple[_TurnState, bool] | None:
    """One checker moved from ``source`` by ``die`` (by a Caucasian hitter when
    ``as_hitter``); the new state and whether the move hit or pinned, or ``None`` when the
    move is illegal."""
    me, opp = st.me, st.opp
    if me[source] == 0:
        return None
    if source == BAR:
        if not variant.has_bar:
            return None
    elif me[BAR]:
        return None  # checkers on the bar enter first
    if st.pinned[0] >> source & 1:
        return None  # a pinned checker cannot move
    if variant.nardy_rules and source == 24 and st.head_left == 0:
        return None
    if variant.no_hit_and_hide:
        movers = st.hitters[source] if as_hitter else me[source] - st.hitters[source]
        if movers <= 0:
            return None
    elif as_hitter:
        return None
    dest = source - die
    hit = False
    pinned = st.pinned
    new_opp = opp
    if dest >= 1:
        q = opp_index(variant, dest)
        theirs = opp[q]
        if as_hitter and me[dest]:
            return None  # Caucasian: no hiding after a hit in the home board
        if variant.landing == "hit":
            if theirs >= 2:
                return None
            if theirs == 1:
                hit = True
                new_opp = list(opp)
                new_opp[q], new_opp[BAR] = 0, opp[BAR] + 1
                new_opp = tuple(new_opp)
        elif variant.landing == "pin":
            if theirs >= 2:
                return None
            if theirs == 1 and not pinned[1] >> q & 1:
                if me[dest]:
                    return None  # the opponent's checker there pins one of ours
                hit = True
                pinned = (pinned[0], pinned[1] | 1 << q)
        elif theirs:
            return None  # Long Nardy: no landing on an opposing checker
    else:
        if any(me[7:26]) or as_hitter:
            return None  # bear off only with every checker home; never a Caucasian hitter
        if dest < 0 and any(me[source + 1 : 7]):
            return None  # a larger die bears off only from the highest point
        dest = OFF
    new_me = list(me)
    new_me[source] -= 1
    new_me[dest] += 1
    new_me = tuple(new_me)
    if variant.landing == "pin" and new_me[source] == 0:
        q_src = opp_index(variant, source)
        if pinned[1] >> q_src & 1:
            pinned = (pinned[0], pinned[1] & ~(1 << q_src))  # the pinned checker is free again
    if variant.nardy_rules and _blocks_illegally(variant, new_me, new_opp):
        return None
    hitters = st.hitters
    if variant.no_hit_and_hide:
        hitters = list(hitters)
        if as_hitter:
            hitters[source] -= 1
        if as_hitter or (hit and dest <= 6):
            hitters[dest] += 1
        hitters = tuple(hitters)
    head_left = st.head_left - (variant.nardy_rules and source == 24)
    over = hit and (variant.first_hit_wins or (variant.mother and q == 24))  # q: hit's point
    return _TurnState(new_me, new_opp, pinned, hitters, head_left, over), hit


def variant_sequences(
    variant: "Variant | str", pos: Position, dice: tuple[int, int]
) -> list[tuple[tuple[Move, ...], Position]]:
    """Every legal way to play ``dice`` from ``pos``, as ``(moves, result)`` pairs, by brute
    force over every order of the dice (the slow reference for all variants).

    The same result may appear under several move orders: each order is a way to build
    the play step by step. A play that ends the game (a sudden-death hit, a pinned
    mother) counts as using all its dice. No legal move: one empty sequence.
    """
    return [(moves, boards[-1]) for moves, boards in _sequences(get_variant(variant), pos, dice)]


def _sequences(variant: Variant, pos: Position, dice: tuple[int, int]):
    """:func:`variant_sequences` with the board after every move: ``(moves, boards)``,
    ``boards[0]`` the start and ``boards[k]`` the board after ``k`` moves."""
    to_play = dice_to_play(dice)
    found: list[tuple[tuple[Move, ...], tuple[_TurnState, ...]]] = []

    def extend(states: tuple[_TurnState, ...], remaining: list[int], moves: tuple[Move, ...]) -> None:
        st, moved = states[-1], False
        if not st.over:
            for i, die in enumerate(remaining):
                if die in remaining[:i]:
                    continue  # equal dice are interchangeable
                rest = remaining[:i] + remaining[i + 1 :]
                for source in range(25, 0, -1):
                    seen = set()
                    for as_hitter in (False, True):
                        step = _step(variant, st, source, die, as_hitter)
                        if step is None or step[0] in seen:
                            continue
                        seen.add(step[0])
                        moved = True
                        extend(states + (step[0],), rest, moves + (Move(source, die, step[1]),))
        if not moved:
            found.append((moves, states))

    extend((_start_state(variant, pos, dice),), to_play, ())
    full = len(to_play)

    def used(item) -> int:
        return full if item[1][-1].over else len(item[0])

    most = max(used(s) for s in found)
    kept = [s for s in found if used(s) == most]
    if most == 1 and dice[0] != dice[1]:
        larger = [s for s in kept if s[0][0].die == max(dice)]
        kept = larger or kept
    out, seen_orders = [], set()
    for moves, states in kept:
        key = tuple((m.source, m.die) for m in moves)
        if key not in seen_orders:  # the same moves with another Caucasian hitter: same boards
            seen_orders.add(key)
            out.append((moves, tuple(st.position(variant) for st in states)))
    return out


def legal_plays_variant(variant: "Variant | str", pos: Position, dice: tuple[int, int]) -> list[Play]:
    """Every distinct legal play (one per resulting position) under ``variant``."""
    plays: dict[Position, Play] = {}
    for moves, result in variant_sequences(variant, pos, dice):
        plays.setdefault(result, Play(pos, moves, result))
    return list(plays.values())


# ------------------------------------------------------------------------ the bomb
def explode(pos: Position) -> Position:
    """The nuclear bomb: every blot (a point with one checker) of both sides goes to the
    bar."""

    def blast(side: tuple[int, ...]) -> tuple[int, ...]:
        out = list(side)
        for p in range(1, 25):
            if out[p] == 1:
                out[p], out[BAR] = 0, out[BAR] + 1
        return tuple(out)

    return Position(blast(pos.me), blast(pos.opp))


# ------------------------------------------------------------------------- scoring
def _loss_kind(variant: Variant, loser: tuple[int, ...]) -> str:
    if loser[OFF]:
        kind = "single"
    elif any(loser[19:26]) and variant.geometry == "opposite":
        kind = "backgammon"  # a checker on the bar or in the winner's home board
    else:
        kind = "gammon"
    order = ("single", "gammon", "backgammon")
    return order[min(order.index(kind), order.index(variant.max_kind))]


def variant_outcome(variant: "Variant | str", pos: Position) -> Outcome | None:
    """How the game stands in ``pos`` under ``variant``: an :class:`Outcome` (``winner`` 0
    for the player on roll's side, ``me``) or ``None`` while it goes on.

    Besides bearing off: in sudden death a checker on the bar means its side was hit
    (``kind "hit"``, single); in Plakoto a pinned mother (``kind "mother"``, double)."""
    variant = get_variant(variant)
    if variant.first_hit_wins:
        if pos.opp[BAR]:
            return Outcome(0, "hit")
        if pos.me[BAR]:
            return Outcome(1, "hit")
    if variant.mother and isinstance(pos, PinnedPosition):
        if pos.pinned[1] >> 24 & 1:
            return Outcome(0, "mother")
        if pos.pinned[0] >> 24 & 1:
            return Outcome(1, "mother")
    if not any(pos.me[1:26]):
        return Outcome(0, _loss_kind(variant, pos.opp))
    if not any(pos.opp[1:26]):
        return Outcome(1, _loss_kind(variant, pos.me))
    return None


# ------------------------------------------------------------- a turn, move by move
class VariantTurn:
    """One roll of a variant played one checker move at a time (what :class:`Game` uses
    for the variants whose moves are not standard).

    Holds every legal move sequence of the roll (:func:`variant_sequences`) and narrows
    them as moves are made, so the legal next moves are exactly the next moves of some
    complete legal play (DESIGN.md, "Actions").
    """

    def __init__(self, variant: "Variant | str", pos: Position, dice: tuple[int, int]):
        self.variant = get_variant(variant)
        self.start = pos
        self.sequences = _sequences(self.variant, pos, dice)
        """``(moves, boards)`` of every legal sequence still open (see :func:`_sequences`)."""
        self.made = 0

    @property
    def moves_to_play(self) -> int:
        """How many more moves the longest legal play still has."""
        return max(len(m) for m, _ in self.sequences) - self.made

    def next_moves(self) -> list[Move]:
        """The legal next moves (with their hit flags), one per action, ascending."""
        k, out = self.made, {}
        for moves, _ in self.sequences:
            if len(moves) > k:
                out.setdefault(moves[k].action, moves[k])
        return [out[a] for a in sorted(out)]

    def next_actions(self) -> list[int]:
        """The legal next checker-move actions, ascending; empty when the play is done."""
        return [m.action for m in self.next_moves()]

    def move(self, action: int) -> tuple[Position, bool]:
        """Make one legal next move; the new position and whether it hit (or pinned).

        Raises:
            ValueError: ``action`` is not a legal next move.
        """
        k = self.made
        left = [s for s in self.sequences if len(s[0]) > k and s[0][k].action == action]
        if not left:
            raise ValueError(f"action {action} is not a legal next move (legal: {self.next_actions()})")
        self.sequences, self.made = left, k + 1
        moves, boards = left[0]
        return boards[k + 1], moves[k].hit

    def continuations(self, current: Position) -> list[Play]:
        """Every distinct way to finish the play from ``current`` (the position after the
        moves made so far), one :class:`Play` per result."""
        plays: dict[Position, Play] = {}
        for moves, boards in self.sequences:
            plays.setdefault(boards[-1], Play(current, moves[self.made :], boards[-1]))
        return list(plays.values())
