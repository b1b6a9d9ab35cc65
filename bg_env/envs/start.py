"""Where a ``reset(options=...)`` starts a game: the options checked, then the
:class:`~bg_env.game.game.Game` (and :class:`~bg_env.game.match.Match`) made through their
public constructors. Nothing is changed until everything is checked: an env whose reset
raises goes on as before.

Options (each optional; none: the opening roll):

* ``position_id``: the board (GNU Backgammon Position ID) from the side of the agent to
  act (with a double on offer: the side that must answer it);
* ``match_id``: GNU Backgammon Match ID: the cube, the player on roll, a double on offer,
  the dice, and in match play the score and the Crawford flag;
* ``xgid``: an XGID (eXtreme Gammon): board, cube, player on roll, dice, score; not with
  ``position_id`` or ``match_id``;
* ``dice``: ``(a, b)``, two integers 1..6: the first turn's roll (over the ID's dice);
* ``agent``: the agent on roll when no ID says so (``player_0`` by default).

With any of them there is no opening roll: the game starts at the board given (the start
position by default) with the side on roll rolling a turn's two dice, doubles included,
unless ``dice`` gives them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from ..game.game import Game, check_dice
from ..game.match import Match
from ..rules.match_id import MatchState, from_xgid

__all__ = ["START_OPTIONS", "check_options", "start_game", "step_refused"]

START_OPTIONS = ("position_id", "match_id", "xgid", "dice", "agent")
"""The keys ``reset(options=...)`` of the checker-move env accepts."""

_API_PROBE = "options"
"""The one other key let through (and ignored): PettingZoo's ``api_test`` checks that
``reset`` takes options with ``reset(seed=0, options={"options": 1})``."""


def step_refused(started: bool) -> RuntimeError:
    """The error of a ``step()`` an env cannot take: before its first ``reset()``
    (``started`` false) or after its episode ended, in every view's words alike."""
    if not started:
        return RuntimeError("step() called before reset(); call reset() first")
    return RuntimeError("step() called on a finished episode; call reset()")


def check_options(options, allowed=START_OPTIONS) -> dict:
    """``options`` as a dict, every key among ``allowed``.

    Raises:
        ValueError: not a mapping, or an unknown key (named, with the allowed ones).
    """
    if options is None:
        return {}
    if not isinstance(options, Mapping):
        raise ValueError(f"options={options!r}: expected a dict with keys among {list(allowed)}")
    unknown = sorted(set(options) - set(allowed) - {_API_PROBE}, key=str)
    if unknown:
        raise ValueError(f"reset option(s) {unknown} unknown; allowed keys: {list(allowed)}")
    return {k: v for k, v in options.items() if k != _API_PROBE}


def _agent_side(options: dict, agents: list[str]) -> int | None:
    """The side of ``options['agent']``, ``None`` when not given."""
    if "agent" not in options:
        return None
    agent = options["agent"]
    if agent not in agents:
        raise ValueError(f"options['agent']={agent!r}: expected one of {agents}")
    return agents.index(agent)


def _match_state(options: dict, variant):
    """``(position from the player on roll, MatchState)`` of a ``match_id`` or an
    ``xgid``, or ``None`` when neither is given."""
    if "xgid" in options:
        clash = sorted({"position_id", "match_id"} & set(options))
        if clash:
            raise ValueError(f"options['xgid'] holds the board and the match: not with {clash}")
        return from_xgid(options["xgid"], checkers=variant.checkers)
    if "match_id" not in options:
        return None
    state = MatchState.from_match_id(options["match_id"])
    position = (variant.position_from_id(options["position_id"]) if "position_id" in options
                else variant.start_position())
    # the Position ID is from the side to act: with a double on offer, the doubled side
    return (position.swap() if state.double_offered else position), state


def _check_state(state: MatchState, key: str, value, config) -> None:
    """A Match ID's or XGID's match must be the env's, and still be played."""
    length = config.match_length
    if state.match_length != length:
        what = f"a {state.match_length}-point match" if state.match_length else "a money game"
        env = f"match_length={length}" if length else "money games (match_length=0)"
        raise ValueError(f"options[{key!r}]={value!r} is {what}; this env plays {env}")
    if length and max(state.score) >= length:
        raise ValueError(f"options[{key!r}]={value!r}: the match is already won "
                         f"(score {state.score[0]}-{state.score[1]} to {length})")
    if state.cube_value == 1 and state.cube_owner != -1:
        raise ValueError(f"options[{key!r}]={value!r}: a cube of 1 owned by player "
                         f"{state.cube_owner}; a cube is owned only once a double is taken")
    jacoby = config.game_rules.jacoby
    if not length and state.jacoby != jacoby:  # (in a match gnubg writes its setting there)
        said = "on" if state.jacoby else "off"
        raise ValueError(f"options[{key!r}]={value!r} has the Jacoby rule {said}; this env "
                         f"plays jacoby={jacoby}: make it with jacoby={state.jacoby}, or give "
                         f"the ID with the Jacoby rule {'off' if state.jacoby else 'on'}")


def start_game(options: dict, config, rng, agents: list[str]) -> tuple[Game, Match | None]:
    """The game (and, in match play, the match) that ``options`` start (forced moves
    played, as always in a Game).

    Args:
        options: checked by :func:`check_options`.
        config: the env's :class:`~bg_env.envs.config.EnvConfig`.
        rng: the generator the game rolls with.
        agents: the env's agent names (side 0, side 1).

    Raises:
        ValueError: a bad value (named): a Position ID, Match ID or XGID that does not
            parse or does not fit the env (another match length, a won match, a cube over
            ``max_cube``), dice that are not two integers 1..6, an unknown agent.
    """
    rules = config.rules()
    variant = Game(rules).variant
    dice = check_dice(options["dice"], "options['dice']") if "dice" in options else None
    side = _agent_side(options, agents)
    found = _match_state(options, variant)
    match = Match(config.match_length, rules) if config.match_length else None
    if found is None:
        position = (variant.position_from_id(options["position_id"]) if "position_id" in options
                    else variant.start_position())
        game_rules = match.game_rules() if match else rules
        return Game.from_position(position, rng, game_rules, turn=side or 0, dice=dice), match
    position, state = found
    key = "xgid" if "xgid" in options else "match_id"
    _check_state(state, key, options[key], config)
    if side is not None and side != state.player_on_roll:
        raise ValueError(f"options['agent']={options['agent']!r}, but options[{key!r}] has "
                         f"{agents[state.player_on_roll]} on roll")
    if dice is not None:
        if state.double_offered:
            raise ValueError(f"options['dice']={options['dice']!r}: options[{key!r}] has a "
                             "double on offer (no roll yet)")
        state = replace(state, dice=dice)
    if match is not None:
        match = Match.from_state(state, rules)
    try:
        game = Game.from_match_state(position, state, rng, match.game_rules() if match else rules)
    except ValueError as exc:
        raise ValueError(f"options[{key!r}]={options[key]!r}: {exc}") from None
    return game, match
