"""Draughts as a PettingZoo AEC environment (classic-env style): ``draughts_v0.env()``.

Description:
    A game of draughts (:mod:`bg_env.draughts`; rules: ``docs/draughts.md``) for two
    agents: ``player_0`` moves first (white; black in English draughts) and ``player_1``
    second. One step is one hop of a piece (:mod:`bg_env.draughts.actions`): a plain move
    is one hop, a capture sequence one hop per piece taken, all by the same agent; hops
    that every legal continuation shares are played at once, and the pieces taken come
    off when the move is complete.

Observation:
    ``{"observation": float32[size, size, 6], "action_mask": int8[n_actions]}``, the
    board as the observing agent sees it, its own men moving up (black's board turned
    half round, as PettingZoo's chess turns it): planes of its men, its kings, the
    opponent's men, its kings, the piece in the middle of a capture (where it has got to;
    its start empty), and the pieces it has taken so far (still on the board until the
    move ends). The mask is all zeros for the agent not acting.

Action:
    ``Discrete(squares * 4 * (size - 1))`` (1,800 on 10x10, 896 on 8x8, 1,792 in
    Turkish draughts), in the acting agent's view:
    ``((square - 1) * 4 + d) * (size - 1) + (k - 1)`` moves the piece on ``square``
    ``k`` squares along diagonal ``d`` (up-left, up-right, down-left, down-right; in
    Turkish draughts along line ``d``: up, left, right, down). ``env.hop(action)`` says
    which squares of the board (PDN numbers) that is.

Rewards:
    0 until the game ends; then +1 to the winner, -1 to the loser, 0 to both in a draw.
    ``infos[agent]["reason"]`` at the end: ``"no moves"`` (the side to move has none and
    loses; in the losing game it wins), ``"repetition"``, ``"quiet moves"``,
    ``"endgame"`` (the draw rules of :mod:`bg_env.draughts.game`).

Episode End:
    Terminated at the end of the game; truncated (every agent, reward 0, ``reason``
    ``"move limit"``) after ``max_moves`` moves of both sides without a result (default
    1,000; random games of every variant end within about 210, but Turkish draughts has
    no quiet-move rule, so kings alone could go on for long).

Arguments:
    ``variant``: ``"international"`` (default), ``"brazilian"``, ``"russian"``,
    ``"english"``, ``"losing"``, ``"italian"`` or ``"turkish"``; ``render_mode``:
    ``None``, ``"ansi"``, ``"human"`` or ``"rgb_array"`` (a picture); ``max_moves``: the
    cap on moves (default :data:`DEFAULT_MAX_MOVES`; ``None``: none).
    ``reset(options={"fen": ...})`` starts from a PDN FEN.

Version History:
    * v0: initial release.
"""

from __future__ import annotations

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from numba import njit
from pettingzoo import AECEnv

from ..draughts.actions import hop_action, hop_of, n_actions, turned_action
from ..draughts.board import DraughtsPosition
from ..draughts.game import DraughtsGame, IllegalHopError
from ..draughts.pdn import PdnGame, result_text, write_pdn
from ..draughts.variants import get_variant
from ..game.game import action_index
from ..kernels.draughts import fast_legal_moves
from .draughts_render import draughts_rgb
from .start import check_options, step_refused
from .wrappers import wrap

__all__ = ["env", "raw_env", "PLANES", "DEFAULT_MAX_MOVES", "IllegalHopError"]

PLANES = ("own men", "own kings", "opponent men", "opponent kings", "moving piece", "taken")
"""The observation's planes, in order."""
RENDER_MODES = ("ansi", "human", "rgb_array")
DEFAULT_MAX_MOVES = 1000
"""Moves (both sides') after which a game without a result is truncated."""
_PLANE_OF = np.array([3, 2, 0, 0, 1])
"""The plane of a piece of value ``v`` (from the observer's side: -2 the opponent's king,
-1 its man, 1 the observer's man, 2 its king) at ``_PLANE_OF[v + 2]``."""


@njit(cache=True)
def _encode(board, colour, offsets, now, taken, legal, view, planes, mask):
    """The observation into ``planes`` (flat) and ``mask``: each piece of ``board``
    (``int8[n + 1]``) on its plane (:data:`_PLANE_OF`, from ``colour``'s side) at its
    square's ``offsets``; mid-move, the moving piece now on square ``now`` and the pieces
    ``taken``; ``mask`` 1 at ``view[a]`` for each action ``a`` of ``legal``."""
    planes[:] = 0.0
    for s in range(1, board.shape[0]):
        if board[s] != 0:
            planes[offsets[s] + _PLANE_OF[board[s] * colour + 2]] = 1.0
    if now:
        planes[offsets[now] + 4] = 1.0
    for s in taken:
        planes[offsets[s] + 5] = 1.0
    mask[:] = 0
    for a in legal:
        mask[view[a]] = 1


def env(**kwargs) -> AECEnv:
    """Draughts for two agents as a PettingZoo AEC env, with PettingZoo's standard
    wrappers (an illegal action ends the game against the offender, reward -1; actions out
    of range are rejected; the API order is enforced). Arguments: see :class:`raw_env`."""
    return wrap(raw_env(**kwargs))


class raw_env(AECEnv):
    """The unwrapped env (the module docstring says what it does).

    Args:
        variant: ``"international"`` (default), ``"brazilian"``, ``"russian"``,
            ``"english"``, ``"losing"``, ``"italian"`` or ``"turkish"``.
        render_mode: ``None``, ``"ansi"``, ``"human"`` or ``"rgb_array"``.
        max_moves: truncate a game after this many moves of both sides (default
            :data:`DEFAULT_MAX_MOVES`; ``None``: never).
    """

    metadata = {"name": "draughts_v0", "render_modes": list(RENDER_MODES),
                "is_parallelizable": False, "render_fps": 1}

    def __init__(self, variant: str = "international", render_mode: str | None = None,
                 max_moves: int | None = DEFAULT_MAX_MOVES):
        super().__init__()
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode={render_mode!r}: expected None or one of "
                             f"{list(RENDER_MODES)}")
        if max_moves is not None and (not isinstance(max_moves, int)
                                      or isinstance(max_moves, bool) or max_moves < 1):
            raise ValueError(f"max_moves={max_moves!r}: expected a whole number of 1 or more, "
                             "or None for no cap")
        self.max_moves = max_moves
        self.variant = get_variant(variant)
        self.render_mode = render_mode
        self.geometry = self.variant.geometry
        self.possible_agents = ["player_0", "player_1"]
        first = 1 if self.variant.first == "white" else -1
        self._colour = {"player_0": first, "player_1": -first}
        size, n = self.variant.size, n_actions(self.geometry)
        obs = spaces.Dict({
            "observation": spaces.Box(0.0, 1.0, (size, size, len(PLANES)), np.float32),
            "action_mask": spaces.Box(0, 1, (n,), np.int8),
        })
        self.observation_spaces = {a: obs for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(n) for a in self.possible_agents}
        self.np_random, _ = seeding.np_random(None)
        self.game: DraughtsGame | None = None
        cells = np.array(self.geometry.cells, np.int64)
        flat = (cells[:, 0] * size + cells[:, 1]) * len(PLANES)
        turned = np.concatenate(([0], flat[1:][::-1]))  # (square s seen turned: n + 1 - s)
        self._offsets = {False: flat, True: turned}
        """Where square ``s``'s planes start in the flat observation, in the board as it
        is and turned half round (``[0]`` unused)."""
        self._turned_actions = np.array([turned_action(self.geometry, a) for a in range(n)])
        """Each action seen turned half round (:func:`turned_action`)."""
        self._actions = np.arange(n)
        """Each action as it is."""

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    # ------------------------------------------------------------------ views
    def _turned(self, agent: str) -> bool:
        """Whether ``agent`` sees the board turned half round (black does)."""
        return self._colour[agent] < 0

    def _view_action(self, action: int, turned: bool) -> int:
        """An action of the board's frame in a turned agent's (the same: turning is its
        own inverse), or unchanged."""
        return turned_action(self.geometry, action) if turned else action

    def hop(self, action: int, agent: str | None = None) -> tuple[int, int] | None:
        """The squares (PDN numbers of the board) of ``agent``'s ``action`` (the acting
        agent's by default), or ``None`` when it leaves the board.

        Raises:
            ValueError: not an action of the action space."""
        agent = agent or self.agent_selection
        action = action_index(action)
        if not 0 <= action < self.action_spaces[agent].n:
            raise ValueError(f"action {action}: expected 0..{self.action_spaces[agent].n - 1}")
        return hop_of(self.geometry, self._view_action(action, self._turned(agent)))

    def action_of(self, start: int, end: int, agent: str | None = None) -> int:
        """``agent``'s action (the acting agent's by default) for the hop from square
        ``start`` to ``end`` of the board (PDN numbers): :meth:`hop`'s inverse.

        Raises:
            ValueError: the squares are not on one diagonal.
        """
        agent = agent or self.agent_selection
        return self._view_action(hop_action(self.geometry, start, end), self._turned(agent))

    def observe(self, agent):
        if agent not in self._colour:
            raise ValueError(f"agent {agent!r}: expected one of {self.possible_agents}")
        game, g = self.game, self.geometry
        colour, turned = self._colour[agent], self._turned(agent)
        board = np.array(game.board_now() if game.hops else game.position.board, np.int8)
        planes = np.empty((g.size, g.size, len(PLANES)), dtype=np.float32)
        mask = np.empty(self.action_spaces[agent].n, dtype=np.int8)
        acting = agent == self.agent_selection and game.result is None
        _encode(board, colour, self._offsets[turned], game.hops[-1] if game.hops else 0,
                np.array(game.taken() if game.hops else (), np.int64),
                np.array(game.legal_actions() if acting else (), np.int64),
                self._turned_actions if turned else self._actions, planes.reshape(-1), mask)
        return {"observation": planes, "action_mask": mask}

    # ------------------------------------------------------------------ play
    def reset(self, seed=None, options=None):
        """Start a game: the variant's start, or ``options={"fen": "W:W31-50:B1-20"}``.

        Raises:
            ValueError: an unknown option or a FEN that does not read (named); the env
                is left as it was.
        """
        options = check_options(options, allowed=("fen",))
        position = (DraughtsPosition.from_fen(options["fen"], self.variant) if "fen" in options
                    else DraughtsPosition.start(self.variant))
        if seed is not None:
            self.np_random, _ = seeding.np_random(seed)
            for i, agent in enumerate(self.possible_agents):
                self.action_spaces[agent].seed(seed + i)
        self.game = DraughtsGame(position, generator=fast_legal_moves)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0 for a in self.agents}
        self._cumulative_rewards = {a: 0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self._agent_of(position.turn)
        self._end_if_over()

    def _agent_of(self, colour: int) -> str:
        return "player_0" if self._colour["player_0"] == colour else "player_1"

    def step(self, action):
        if self.game is None:
            raise step_refused(False)
        if not self.agents:
            raise step_refused(True)
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            return self._was_dead_step(action)
        action = action_index(action)
        turned = self._turned(agent)
        self.game.step(self._view_action(action, turned))  # IllegalHopError: nothing changed
        self._cumulative_rewards[agent] = 0
        self.rewards = {a: 0 for a in self.agents}
        self.agent_selection = self._agent_of(self.game.turn)
        self._end_if_over()
        if self.render_mode == "human":
            self.render()

    def _end_if_over(self) -> None:
        result = self.game.result
        if result is None:
            self._truncate_if_long()
            return
        winner, reason = result
        for a in self.agents:
            self.rewards[a] = 0 if winner == 0 else (1 if self._colour[a] == winner else -1)
            self.terminations[a] = True
            self.infos[a] = {"reason": reason, "winner": self._agent_of(winner) if winner else None}
        self._accumulate_rewards()

    def _truncate_if_long(self) -> None:
        """At ``max_moves`` moves without a result (counted when a move is complete):
        every agent truncated, the rewards 0."""
        if self.max_moves is None or self.game.plies < self.max_moves:
            return
        for a in self.agents:
            self.truncations[a] = True
            self.infos[a] = {"reason": "move limit", "winner": None}

    # ------------------------------------------------------------------ reading
    def fen(self) -> str:
        """The position's PDN FEN (at a move's start; mid-capture, the board before it)."""
        return self.game.position.fen()

    def pdn(self, **tags) -> str:
        """The game so far as a PDN record (:mod:`bg_env.draughts.pdn`; ``tags`` such as
        ``White="me"`` added), its result once it is over."""
        game = self.game
        winner = None if game.result is None else game.result[0]
        record = PdnGame(game.initial, list(game.played), result_text(self.variant, winner),
                         {k: str(v) for k, v in tags.items()})
        return write_pdn(record)

    def render(self):
        """The board as the module's ``render_mode`` says: the text board (``w``/``b``
        men, ``W``/``B`` kings) returned (``"ansi"``) or printed (``"human"``), or its
        picture as an RGB array (``"rgb_array"``, :mod:`bg_env.envs.draughts_render`)."""
        if self.render_mode is None:
            import gymnasium

            gymnasium.logger.warn("render() called without a render_mode; make the env "
                                  "with render_mode='ansi', 'human' or 'rgb_array'")
            return None
        game = self.game
        if self.render_mode == "rgb_array":
            return draughts_rgb(game.position.variant, game.board_now(), game.taken())
        text = str(game.position)
        if game.hops:
            text += f" (mid-move: {'x'.join(map(str, game.hops))})"
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass

