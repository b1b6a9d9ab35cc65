"""A state for search with the dice as chance nodes, in the style of OpenSpiel's ``State``:
for expectimax, MCTS with chance nodes, AlphaZero- and Stochastic-MuZero-style planners.

:class:`SearchState` wraps a :class:`~bg_env.game.game.Game` (and in match play its
:class:`~bg_env.game.match.Match`) that never rolls by itself (:data:`STOP_AT_ROLLS`): at
each roll the state is a *chance node* whose outcomes the search lists with their
probabilities and chooses; otherwise one side decides, by one action (a checker move or a
cube action: :mod:`bg_env.rules.actions`, the envs' actions) or a whole play. Every variant,
the cube and match play; forced moves are played at once, as in every bg_env game.

Chance actions are the rolls as numbers (:func:`roll_action`: ``6 * (a - 1) + (b - 1)``
for the dice ``a``, ``b``, 0..35). A turn's roll has 21 outcomes, ``a >= b`` (a double 1/36,
the others 2/36); the opening roll (``a`` side 0's die, ``b`` side 1's) has 30 outcomes of
1/36 and a tie, listed once as action 0 (1-1) with 6/36, after which the opening is
rolled again (with ``auto_doubles``, the cube doubled first).

>>> from bg_env.game.search import SearchState
>>> state = SearchState.new()
>>> state.is_chance_node(), len(state.chance_outcomes())
(True, 31)
>>> state.apply_action(roll_action(3, 1))  # side 0 rolls 3, side 1 rolls 1: 3-1 to side 0
>>> state.current_player(), len(state.legal_actions()) > 0
(0, True)
"""

from __future__ import annotations

import copy

import numpy as np

from ..rules.cube import Rules
from ..rules.moves import Play
from .game import Game, Phase
from .match import Match
from .start import STOP_AT_ROLLS

__all__ = ["SearchState", "CHANCE", "TERMINAL", "roll_action", "action_roll", "TURN_ROLLS",
           "OPENING_ROLLS"]

CHANCE = -1
""":meth:`SearchState.current_player` at a chance node (OpenSpiel's ``kChancePlayerId``)."""
TERMINAL = -4
""":meth:`SearchState.current_player` once the game (or match) is over (OpenSpiel's
``kTerminalPlayerId``)."""


def roll_action(a: int, b: int) -> int:
    """The chance action of the dice ``a``, ``b`` (0..35)."""
    return 6 * (a - 1) + (b - 1)


def action_roll(action: int) -> tuple[int, int]:
    """The dice of a chance action (:func:`roll_action`'s inverse)."""
    return action // 6 + 1, action % 6 + 1


TURN_ROLLS = tuple((roll_action(a, b), (1 if a == b else 2) / 36)
                   for a in range(1, 7) for b in range(1, a + 1))
"""A turn's 21 outcomes: ``(action, probability)``, the higher die first."""
OPENING_ROLLS = ((roll_action(1, 1), 6 / 36),) + tuple(
    (roll_action(a, b), 1 / 36) for a in range(1, 7) for b in range(1, 7) if a != b)
"""The opening roll's 31 outcomes: a tie (6/36, re-rolled) and the 30 others (side 0's die
first)."""


class SearchState:
    """One state of a game, or of a match, for search (see the module docstring).

    Make one with :meth:`new` (the opening roll first), :meth:`from_game` (any
    :class:`~bg_env.game.game.Game`, e.g. one of ``Game.from_position``,
    ``from_match_id``, ``from_xgid`` given :data:`STOP_AT_ROLLS` as its generator) or
    :meth:`from_position_id`.
    """

    def __init__(self, game: Game, match: Match | None = None) -> None:
        self.game = game
        """The game being played (its generator: :data:`STOP_AT_ROLLS`)."""
        self.match = match
        """The match, in match play (``None``: a money game)."""

    # ------------------------------------------------------------------ making one
    @classmethod
    def new(cls, rules: Rules | None = None, match_length: int = 0) -> "SearchState":
        """A new game under ``rules`` (a money game, or with ``match_length`` the first
        game of a match to that many points), at its opening roll."""
        rules = rules if rules is not None else Rules()
        if match_length:
            match = Match(match_length, rules)
            return cls(match.new_game(STOP_AT_ROLLS), match)
        game = Game(rules)
        game.opening(STOP_AT_ROLLS)
        return cls(game)

    @classmethod
    def from_game(cls, game: Game, match: Match | None = None) -> "SearchState":
        """A state at ``game`` (a copy: the game is not changed), the game of ``match`` in
        match play. A roll the game already waits for is the first chance node."""
        game = copy.copy(game)
        return cls(game, _match_copy(match, game))

    @classmethod
    def from_position_id(cls, position_id: str, rules: Rules | None = None, *,
                         turn: int = 0, dice: tuple[int, int] | None = None,
                         cube_value: int = 1, cube_owner: int = -1) -> "SearchState":
        """A money game in the position ``position_id`` (seen from ``turn``, the side on
        turn) at the start of its turn: the cube question when doubling is allowed, else
        its roll (a chance node), or with ``dice`` rolled already."""
        rules = rules if rules is not None else Rules()
        position = rules.variant_spec.position_from_id(position_id)
        game = Game.from_position(position, STOP_AT_ROLLS, rules, turn=turn, dice=dice,
                                  cube_value=cube_value, cube_owner=cube_owner)
        return cls(game)

    def clone(self) -> "SearchState":
        """An independent copy: play on either changes nothing in the other."""
        game = copy.copy(self.game)
        return type(self)(game, _match_copy(self.match, game))

    def __deepcopy__(self, memo) -> "SearchState":
        return self.clone()

    # ------------------------------------------------------------------ who acts
    def is_terminal(self) -> bool:
        """The game is over (in match play: the match is over)."""
        if self.match is not None:
            return self.match.is_over
        return self.game.phase == Phase.OVER

    def is_chance_node(self) -> bool:
        """A roll is due: the next action is a chance action (never once over: a finished
        game waits for no roll)."""
        return self.game.roll_due is not None

    def current_player(self) -> int:
        """The side (0 or 1) to decide, :data:`CHANCE` or :data:`TERMINAL`."""
        if self.game.roll_due is not None:
            return CHANCE
        return TERMINAL if self.is_terminal() else self.game.actor

    # ------------------------------------------------------------------ chance
    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The chance actions and their probabilities (summing to 1): a turn's 21 rolls,
        or the opening's 31 (:data:`TURN_ROLLS`, :data:`OPENING_ROLLS`).

        Raises:
            ValueError: not a chance node.
        """
        due = self._roll_due()
        return list(OPENING_ROLLS if due == "opening" else TURN_ROLLS)

    def apply_roll(self, dice: tuple[int, int]) -> None:
        """The roll that is due is ``dice`` (any order for a turn; for the opening side
        0's die first); the game goes on to the next decision or roll.

        Raises:
            ValueError: no roll is due, or ``dice`` are not two dice."""
        self.game.give_roll(dice)
        self._next_game()

    # ------------------------------------------------------------------ decisions
    def legal_actions(self) -> list[int]:
        """The legal actions now: the chance actions of :meth:`chance_outcomes` at a chance
        node, else the deciding side's (checker moves, cube actions), none when over."""
        if self.is_chance_node():
            return [a for a, _ in self.chance_outcomes()]
        return [] if self.is_terminal() else self.game.legal_actions()

    def legal_plays(self) -> list[Play]:
        """The whole plays that complete the turn from here (in the move phase; else
        none)."""
        if self.is_terminal() or self.game.phase != Phase.MOVE or self.game.roll_due:
            return []
        return self.game.legal_continuations()

    def apply_action(self, action: int) -> None:
        """Apply a chance action at a chance node (any roll, :func:`roll_action`; those of
        :meth:`chance_outcomes` are the distinct ones), else a decision of the deciding side.

        Raises:
            ValueError: a chance action that is no roll, or any action once the state is
                terminal.
            IllegalActionError: a decision that is not legal now (nothing changed).
        """
        if self.game.roll_due is not None:
            if not isinstance(action, (int, np.integer)) or not 0 <= action < 36:
                raise ValueError(f"chance action {action!r}: expected a roll 0..35 "
                                 "(roll_action(a, b); the distinct ones: chance_outcomes())")
            self.apply_roll(action_roll(action))
            return
        if self.is_terminal():
            raise ValueError(f"action {action!r}: the {'match' if self.match else 'game'} "
                             "is over")
        self.game.step(action, STOP_AT_ROLLS)
        self._next_game()

    def apply_play(self, play: Play) -> None:
        """Complete the turn with one of :meth:`legal_plays`."""
        if play not in self.legal_plays():
            raise ValueError(f"play {play.notation}: not one of the legal plays")
        self.game.play(play, STOP_AT_ROLLS)
        self._next_game()

    # ------------------------------------------------------------------ results
    def returns(self) -> tuple[float, float]:
        """Each side's return: in a money game the points of the finished game (``+`` to
        the winner, ``-`` to the loser: cube x 1, 2 or 3); in match play +-1 for the
        match; 0 for both before the end."""
        if not self.is_terminal():
            return 0.0, 0.0
        if self.match is not None:
            return (1.0, -1.0) if self.match.winner == 0 else (-1.0, 1.0)
        r = self.game.result
        return (float(r.points), -float(r.points)) if r.winner == 0 else (
            -float(r.points), float(r.points))

    def key(self) -> tuple:
        """A hashable key of the state (a transposition table's): the game's
        (:meth:`Game.key <bg_env.game.game.Game.key>`), with the match score in match play."""
        if self.match is None:
            return self.game.key()
        m = self.match
        return self.game.key() + (m.score, m.crawford, m.post_crawford)

    def __repr__(self) -> str:
        where = f", match {self.match.score} to {self.match.length}" if self.match else ""
        return f"SearchState({self.game!r}{where})"

    # ------------------------------------------------------------------ the flow
    def _roll_due(self) -> str:
        due = None if self.is_terminal() else self.game.roll_due
        if due is None:
            raise ValueError(f"not a chance node (player {self.current_player()} to act)")
        return due

    def _next_game(self) -> None:
        """Match play: a finished game is recorded and the next begins (its opening roll
        a chance node) unless the match is over."""
        m = self.match
        if m is None or self.game.phase != Phase.OVER:
            return
        m.record(self.game.result)
        if not m.is_over:
            self.game = m.new_game(STOP_AT_ROLLS)


def _match_copy(match: Match | None, game: Game | None) -> Match | None:
    """A copy of ``match`` (its own results list) whose game is ``game``."""
    if match is None:
        return None
    twin = copy.copy(match)
    twin.results, twin.game = list(match.results), game
    return twin
