"""bg_env as an OpenSpiel game: backgammon with the doubling cube, match play and every
variant, for OpenSpiel's algorithms (MCTS with chance nodes, CFR-style tools, its bots and
tests). OpenSpiel's own ``backgammon`` has no cube, no matches and no variants.

OpenSpiel is an optional extra (``pip install "bg_env[openspiel]"``); ``import bg_env``
never imports it. Importing this module registers the game (``pyspiel.register_game``)::

    import pyspiel
    import bg_env.integrations.openspiel  # noqa: F401  (registers "bg_env")

    game = pyspiel.load_game("bg_env", {"cube": True, "match_length": 5})
    state = game.new_initial_state()

Parameters (:data:`PARAMETERS`, with their defaults): ``cube``, ``jacoby``, ``beaver``,
``variant`` (:data:`bg_env.VARIANTS`), ``match_length`` (0: a money game). The state is a
:class:`~bg_env.game.search.SearchState`: the dice are explicit chance nodes (a turn's 21
rolls, the opening's 31: :func:`~bg_env.game.search.roll_action` numbers them 0..35);
player actions are the envs' 156 (:mod:`bg_env.rules.actions`: one checker move, written
with its die, ``13/8 (5)``, or a cube action); forced moves are played at once. Returns: the points of a money game
(cube x 1, 2 or 3), +-1 for a match. Observation tensor: the ``"tesauro"`` encoding of
the board from the observing player, then the context block (variant, bomb, pins, match
score, rule options): :data:`OBSERVATION_SIZE` float32. A history serializes and replays
(OpenSpiel's default for Python games).
"""

from __future__ import annotations

import numpy as np
import pyspiel

from ..envs.context import CONTEXT_SIZE, encode_context
from ..envs.observation import TESAURO_SIZE, encode
from ..game.game import Rules
from ..game.search import CHANCE, TERMINAL, SearchState, action_roll
from ..rules.actions import N_ACTIONS, N_CHECKER_ACTIONS, action_to_str, decode_move
from ..rules.cube import check_count

__all__ = ["SHORT_NAME", "PARAMETERS", "OBSERVATION_SIZE", "BgEnvGame", "BgEnvState",
           "rules_of"]

SHORT_NAME = "bg_env"
PARAMETERS = {"cube": True, "jacoby": False, "beaver": False, "variant": "standard",
              "match_length": 0}
"""The game's parameters and their defaults."""
OBSERVATION_SIZE = TESAURO_SIZE + CONTEXT_SIZE
MAX_GAME_LENGTH = 100_000
"""OpenSpiel asks for a bound on a game's length (actions, chance ones included); random
games stay far below it (RULES.md; ``docs/variants.md`` gives each variant's lengths)."""
_MAX_MATCH = 25

_GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="bg_env backgammon (cube, matches, variants)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=False,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=dict(PARAMETERS),
)


def rules_of(params: dict) -> tuple[Rules, int]:
    """The :class:`~bg_env.game.game.Rules` and match length of the game's parameters
    (each checked: a bad one raises ValueError naming it)."""
    params = {**PARAMETERS, **params}
    unknown = sorted(set(params) - set(PARAMETERS))
    if unknown:
        raise ValueError(f"unknown parameter(s) {unknown}; known: {sorted(PARAMETERS)}")
    check_count("match_length", params["match_length"], 0, _MAX_MATCH, "0: a money game")
    rules = Rules(cube=params["cube"], jacoby=params["jacoby"], beaver=params["beaver"],
                  variant=params["variant"])
    return rules, params["match_length"]


def _utility_bound(rules: Rules, match_length: int) -> float:
    """The largest return: 1 for a match; a money game's cube times 3."""
    if match_length:
        return 1.0
    cube = (rules.max_cube or 2**30) if rules.cube else 1
    return float(cube * 3)


class BgEnvGame(pyspiel.Game):
    """The game (see the module docstring)."""

    def __init__(self, params: dict | None = None) -> None:
        self.rules, self.match_length = rules_of(params or {})
        bound = _utility_bound(self.rules, self.match_length)
        info = pyspiel.GameInfo(
            num_distinct_actions=N_ACTIONS, max_chance_outcomes=36, num_players=2,
            min_utility=-bound, max_utility=bound, utility_sum=0.0,
            max_game_length=MAX_GAME_LENGTH)
        super().__init__(_GAME_TYPE, info, {**PARAMETERS, **(params or {})})

    def new_initial_state(self) -> "BgEnvState":
        """A new game (or match) at its opening roll."""
        return BgEnvState(self, SearchState.new(self.rules, self.match_length))

    def make_py_observer(self, iig_obs_type=None, params=None) -> "BgEnvObserver":
        """The observer of observation tensors and strings (perfect information: every
        player sees the whole state)."""
        return BgEnvObserver(params)


class BgEnvState(pyspiel.State):
    """A state of the game: a :class:`~bg_env.game.search.SearchState` inside."""

    def __init__(self, game: BgEnvGame, search: SearchState | None = None) -> None:
        super().__init__(game)
        self.search = search if search is not None else SearchState.new(game.rules,
                                                                          game.match_length)

    def current_player(self) -> int:
        player = self.search.current_player()
        if player == CHANCE:
            return pyspiel.PlayerId.CHANCE
        return pyspiel.PlayerId.TERMINAL if player == TERMINAL else player

    def _legal_actions(self, player: int) -> list[int]:
        return self.search.legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self.search.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        self.search.apply_action(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            a, b = action_roll(action)
            return f"roll {a}-{b}"
        if action < N_CHECKER_ACTIONS:  # the die too: 3/off with a 4 or with a 5
            return f"{action_to_str(action)} ({decode_move(action)[1]})"
        return action_to_str(action)

    def is_terminal(self) -> bool:
        return self.search.is_terminal()

    def returns(self) -> list[float]:
        return list(self.search.returns())

    def __str__(self) -> str:
        game, match = self.search.game, self.search.match
        score = f" match {match.score[0]}-{match.score[1]} to {match.length}" if match else ""
        return (f"{game.position.position_id()} turn {game.turn} {game.phase} "
                f"cube {game.cube_value}/{game.cube_owner} dice {game.dice}{score}")


class BgEnvObserver:
    """Observation tensors (``"observation"``: :data:`OBSERVATION_SIZE` float32) and
    strings of a state, from a player's side."""

    def __init__(self, params=None) -> None:
        if params:
            raise ValueError(f"observer params={params!r}: expected none")
        self.tensor = np.zeros(OBSERVATION_SIZE, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: BgEnvState, player: int) -> None:
        search = state.search
        self.tensor[:TESAURO_SIZE] = encode(search.game, player)
        self.tensor[TESAURO_SIZE:] = encode_context(search.game, player, search.match)

    def string_from(self, state: BgEnvState, player: int) -> str:
        return f"player {player}: {state}"


pyspiel.register_game(_GAME_TYPE, BgEnvGame)
