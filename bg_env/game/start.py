"""Starting a game anywhere: :class:`StartAnywhere` gives :class:`~bg_env.game.game.Game`
its public constructors (:meth:`~StartAnywhere.from_position`, ``from_match_state``,
``from_match_id``, ``from_xgid``, ``from_games``), and the checks of values that come from outside (a
user, a config, a reset option): dice, actions and start positions. Each raises a
``ValueError`` that names the value and what was expected, before anything is changed.
"""

from __future__ import annotations

import operator

import numpy as np

from ..rules.actions import decode_move
from ..rules.cube import IllegalActionError, Rules, check_cube
from ..kernels.moves import HIT
from ..rules.moves import check_dice
from ..rules.position import Position
from ..rules.variants import PinnedPosition, get_variant, variant_outcome

__all__ = ["StartAnywhere", "check_dice", "action_index", "checked_position", "NoDice",
           "StopAtRolls", "STOP_AT_ROLLS"]


def action_index(action) -> int:
    """``action`` as an ``int`` when it is an integer (Python or numpy, or a 0-d integer
    array); a float (``3.7``, even ``3.0``), a bool or a string is refused.

    Raises:
        IllegalActionError: not an integer (naming it).
    """
    if type(action) is int:
        return action
    if not isinstance(action, (bool, np.bool_)):
        if isinstance(action, np.ndarray) and action.shape == () and action.dtype.kind in "iu":
            return int(action)
        try:
            return operator.index(action)
        except TypeError:
            pass
    raise IllegalActionError(f"action {action!r}: expected an integer action index")


def checked_position(position, variant) -> Position:
    """``position`` as the variant's board type (Plakoto: pins), checked for the variant
    and for a game still in play."""
    if not isinstance(position, Position):
        raise ValueError(f"position={position!r}: expected a Position")
    if variant.landing == "pin" and not isinstance(position, PinnedPosition):
        position = PinnedPosition(position.me, position.opp, (0, 0))
    variant.validate(position)
    if variant_outcome(variant, position) is not None:
        raise ValueError(f"position {position.position_id()}: the game is already over")
    return position


def before_moves(me: list, opp: list, played: list) -> tuple[tuple, tuple]:
    """The standard board before the logged moves ``played`` (action + ``HIT`` when it
    hit) were made on ``me``/``opp``."""
    for code in reversed(played):
        (source, die), hit = decode_move(code % HIT), code >= HIT
        dest = max(source - die, 0)
        me[source] += 1
        me[dest] -= 1
        if hit:
            opp[25 - dest], opp[25] = 1, opp[25] - 1
    return tuple(me), tuple(opp)


class NoDice:
    """The generator of a game started without one: a roll raises."""

    def integers(self, *args, **kwargs):
        raise ValueError("this start needs a roll: pass rng (a numpy Generator)")


class StopAtRolls:
    """A dice source that rolls nothing: a :class:`~bg_env.game.game.Game` given it as its
    generator stops wherever a roll is due (:attr:`Game.roll_due
    <bg_env.game.game.Game.roll_due>`), for the caller to give the roll
    (:meth:`Game.give_roll <bg_env.game.game.Game.give_roll>`): the chance nodes of a
    search. Use the instance :data:`STOP_AT_ROLLS`."""

    def integers(self, *args, **kwargs):
        raise ValueError("a roll is due: give it with Game.give_roll (STOP_AT_ROLLS rolls none)")

    def __repr__(self) -> str:
        return "STOP_AT_ROLLS"

    def __reduce__(self):
        return "STOP_AT_ROLLS"


STOP_AT_ROLLS = StopAtRolls()


class StartAnywhere:
    """The public constructors of :class:`~bg_env.game.game.Game` (a mixin): a game
    started in any position, cube state, roll or pending double, checked first."""

    @classmethod
    def from_position(cls, position: Position, rng=None, rules: Rules | None = None, *,
                      turn: int = 0, dice=None, played=(), cube_value: int = 1,
                      cube_owner: int = -1, cube_turned: bool | None = None,
                      double_offered: bool = False, bomb_owner: int = -1,
                      turns: int = 0, ask_forced: bool = False) -> "Game":
        """A game started anywhere: ``position`` seen from ``turn`` (0 or 1), the side on
        turn, at the start of its turn (the cube question when doubling is allowed, else
        a roll from ``rng``), with ``dice`` already rolled, or with a double offered
        (``double_offered``: the other side must answer). ``played``: checker actions
        already made with ``dice`` this turn (each checked, as :meth:`step` checks it).
        ``cube_turned`` (whether a double has been taken, for the Jacoby rule) defaults to
        whether the cube is owned: a centred cube above 1 comes from automatic doubles,
        which do not turn it (GNU Backgammon's test in play.c: Jacoby counts gammons single
        while ``fCubeOwner == -1``).

        ``rng`` (a numpy ``Generator``) is needed only when the game must roll: no dice
        given and no cube question, or a roll that cannot be played. Forced moves after
        ``played`` are played, as always in a Game; with ``ask_forced`` (see
        :attr:`~bg_env.game.game.Game.ask_forced`) a play whose every move is forced is left
        for :meth:`play` to end, this first one included.

        Raises:
            ValueError: a bad turn, dice, cube (see :func:`~bg_env.rules.cube.check_cube`),
                a double that may not be offered, or a position the variant cannot hold.
            IllegalActionError: a move of ``played`` is not legal.
        """
        rules = rules if rules is not None else Rules()
        if turn not in (0, 1) or isinstance(turn, bool):
            raise ValueError(f"turn={turn!r}: expected 0 or 1")
        position = checked_position(position, get_variant(rules.variant))
        check_cube(rules, cube_value, cube_owner)
        game = cls(rules, position, turn)
        game.ask_forced = bool(ask_forced)
        game._set_cube(cube_value, cube_owner,
                      cube_owner != -1 if cube_turned is None else bool(cube_turned),
                      bomb_owner=bomb_owner, turns=turns)
        if double_offered:
            if dice is not None or played:
                raise ValueError("double_offered: a double comes before the roll (no dice)")
            if not game.may_double():
                raise ValueError(f"double_offered: side {turn} may not double a cube of "
                                 f"{cube_value} owned by {cube_owner} under {rules}")
            game.begin_turn(rng, offer=True)
            return game
        if played and dice is None:
            raise ValueError("played: moves need the dice they were played with")
        if dice is None:
            game.begin_turn(rng)
            return game
        game.begin_turn(rng, check_dice(dice), moves=[action_index(a) for a in played])
        return game

    @classmethod
    def from_match_state(cls, position: Position, state, rng=None,
                         rules: Rules | None = None) -> "Game":
        """The game of a :class:`~bg_env.rules.match_id.MatchState` (a Match ID's or an
        XGID's): ``position`` seen from the player on roll; the cube, the dice and a
        pending double from ``state`` (the score is the match's, not the game's).

        Raises:
            ValueError: the state's game is not in play, or its cube does not fit ``rules``.
        """
        if state.game_state not in (0, 1):
            raise ValueError(f"{state!r}: the game is not in play (game state {state.game_state})")
        if state.resigned:
            raise ValueError(f"{state!r}: a resignation is pending (not supported)")
        rolled = state.dice if state.dice[0] and not state.double_offered else None
        return cls.from_position(
            position, rng, rules, turn=state.player_on_roll, dice=rolled,
            cube_value=state.cube_value, cube_owner=state.cube_owner,
            double_offered=state.double_offered)

    @classmethod
    def from_match_id(cls, position_id: str, match_id: str, rng=None,
                      rules: Rules | None = None) -> "Game":
        """:meth:`from_match_state` from a Position ID (the player on roll's view) and a
        GNU Backgammon Match ID."""
        from ..rules.match_id import MatchState

        rules = rules if rules is not None else Rules()
        position = get_variant(rules.variant).position_from_id(position_id)
        return cls.from_match_state(position, MatchState.from_match_id(match_id), rng, rules)

    @classmethod
    def from_xgid(cls, xgid: str, rng=None, rules: Rules | None = None) -> "Game":
        """:meth:`from_match_state` from an XGID (eXtreme Gammon's position and match)."""
        from ..rules.match_id import from_xgid

        rules = rules if rules is not None else Rules()
        position, state = from_xgid(xgid, checkers=get_variant(rules.variant).checkers)
        return cls.from_match_state(position, state, rng, rules)

    @classmethod
    def from_games(cls, games, i: int) -> "Game":
        """Game ``i`` of a :class:`~bg_env.kernels.games.Games` (the kernels' arrays) as a
        Game in the same state, to inspect or to go on with (the same game: the dice to
        come are those of the generator it is given)."""
        game = cls(games.game_rules)
        game._load_row(games, i)
        return game
