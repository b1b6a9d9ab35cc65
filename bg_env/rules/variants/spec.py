"""What a variant is: the :class:`Variant` description (``docs/RULES.md`` §7)."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..board import STANDARD_START, InvalidPositionError
from ..position import Position
from .checks import check_bar, check_checker_count, check_pinned_points, check_shared_points
from .geometry import opp_index
from .pinned import PinnedPosition
from .scoring import outcome_of

__all__ = ["Variant"]


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
        no_hit_and_hide: a checker that hits may not move on, in the same turn, to a point
            that holds the player's own checkers (the Caucasian rule; seed 003's short
            backgammon rule with ``Rules(no_hit_and_hide=True)``).
        hide_zone_top: with ``no_hit_and_hide``, a hit on the player's points
            ``1..hide_zone_top`` makes the hitter: 6 (the home board, Caucasian) or 24
            (anywhere, seed 003's short backgammon).
        hitter_bears_off: with ``no_hit_and_hide``, a hitter may bear off like any checker;
            otherwise (Caucasian) only when the die can be played no other way.
        nardy_rules: the Long Nardy head rule and six-block rule.
        six_block: with ``nardy_rules``, when six consecutive points may be held:
            ``"passed"`` (an opposing checker is already past them) or ``"entered"`` (an
            opposing checker has entered its home board, or been borne off).
        house_mars: Long Nardy: a loser with every checker in his home board and none
            borne off loses a triple game (kind ``"backgammon"``).
        last_roll_draw: Long Nardy: the side that did not start has a last roll when the
            starter is off; both off is a draw.
        mother: pinning the opponent's last checker on his 24-point wins a double game.
        max_kind: the biggest win the board can give: ``"backgammon"``, ``"gammon"`` or
            ``"single"``.
        fresh_first_roll: the one-die opening roll only decides who starts; the starter
            then rolls two fresh dice (Long Nardy), so his first roll can be a double.
            Otherwise the starter plays the two numbers of the opening roll.
    """

    name: str
    start: dict[int, int] = field(default_factory=lambda: dict(STANDARD_START))
    checkers: int = 15
    geometry: str = "opposite"
    landing: str = "hit"
    first_hit_wins: bool = False
    bomb: bool = False
    no_hit_and_hide: bool = False
    hide_zone_top: int = 6
    hitter_bears_off: bool = False
    nardy_rules: bool = False
    six_block: str = "passed"
    house_mars: bool = False
    last_roll_draw: bool = False
    mother: bool = False
    max_kind: str = "backgammon"
    fresh_first_roll: bool = False
    description: str = ""
    options: tuple[str, ...] = ()
    """The rule options on (``docs/RULES.md`` §10), by their :class:`~bg_env.rules.cube.Rules`
    names, when this is the catalogue's variant changed by them (:func:`with_options`)."""

    @property
    def standard_moves(self) -> bool:
        """Checkers move exactly as in standard backgammon (the fast generators apply)."""
        return (
            self.geometry == "opposite" and self.landing == "hit" and not self.first_hit_wins
            and not self.no_hit_and_hide and not self.nardy_rules
        )

    @property
    def backgammon_boards(self) -> bool:
        """Its boards read as standard backgammon boards: the two sides face each other and
        a lone checker landed on is hit. An evaluator of backgammon boards (pubeval, a
        network trained on standard rules) judges them: the backgammon family, sudden death
        and Caucasian included; not Plakoto (a pinned checker is not a blot) or Long Nardy
        (both sides move the same way round)."""
        return self.geometry == "opposite" and self.landing == "hit"

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
        if outcome_of(self, pos) is not None:
            raise InvalidPositionError(f"Position ID {position_id!r}: the game is already over")
        return pos

    def validate(self, pos: Position) -> None:
        """Raise :class:`InvalidPositionError` if ``pos`` cannot occur in this variant."""
        check_checker_count(pos, self.name, self.checkers)
        check_bar(pos, self.name, self.has_bar)
        pins = self.landing == "pin"
        check_shared_points(pos, self.name, lambda p: opp_index(self, p), pins=pins)
        check_pinned_points(pos, self.name)
