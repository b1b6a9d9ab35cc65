"""Draughts for one learner against a fixed opponent, a Gymnasium env:
``gymnasium.make("bg_env/Draughts-v0", opponent="random", variant="english")``.

Description:
    The learner plays one side of a :mod:`bg_env.envs.draughts` game (its colour drawn at
    random each episode unless ``learner`` fixes it); the opponent's hops are played
    inside :meth:`reset` and :meth:`step`. Every learner hop is one step.

Observation:
    The two-agent env's board planes from the learner's side, ``float32[size, size, 6]``.
    The legal actions come from :meth:`action_masks` (what sb3-contrib's ``MaskablePPO``
    calls) and ``info["action_mask"]``.

Action:
    The two-agent env's hops, in the learner's view (``Discrete(1800)`` on 10x10,
    ``Discrete(896)`` on 8x8).

Rewards:
    +1 when the learner wins, -1 when it loses, 0 for a draw and before the end.

Episode End:
    Terminated at the end of the game; truncated (reward 0, ``info["reason"]`` ``"move
    limit"``) at the two-agent env's ``max_moves``.

Illegal actions:
    An action outside the mask ends the episode as a loss by forfeit (``illegal_reward``,
    -1 by default; ``info["illegal_action"]``), or raises with ``illegal_action="raise"``.
    The game is never changed by one.

Arguments:
    ``opponent``: ``"random"`` (a uniform legal hop, from the env's generator), an object
    with ``act(env) -> int`` (``agents.players.draughts.DraughtsAlphaBeta``, ...) or a
    callable ``f(env) -> int`` given the two-agent env; ``learner``: ``None``,
    ``"player_0"`` or ``"player_1"``; ``variant``, ``render_mode`` (``"ansi"``,
    ``"human"``, ``"rgb_array"``), ``max_moves``: as the two-agent env's.
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np

from ..game.game import action_index
from .config import check_reward
from .draughts import DEFAULT_MAX_MOVES, raw_env
from .start import step_refused

__all__ = ["DraughtsGymEnv"]


def _random_hop(env: raw_env) -> int:
    """A uniform legal hop of the agent to act, from the two-agent env's generator."""
    legal = np.flatnonzero(env.observe(env.agent_selection)["action_mask"])
    return int(legal[env.np_random.integers(len(legal))])


class DraughtsGymEnv(gym.Env):
    """One learner against a fixed opponent (the module docstring says what it does).

    >>> import gymnasium as gym, bg_env
    >>> env = gym.make("bg_env/Draughts-v0", variant="english")
    >>> obs, info = env.reset(seed=0)
    >>> obs.shape, int(env.unwrapped.action_masks().sum()) > 0
    ((8, 8, 6), True)
    """

    metadata = {"render_modes": ["ansi", "human", "rgb_array"], "render_fps": 1}

    def __init__(self, opponent: Any = "random", learner: str | None = None,
                 variant: str = "international", render_mode: str | None = None,
                 illegal_action: str = "lose", illegal_reward: float = -1.0,
                 max_moves: int | None = DEFAULT_MAX_MOVES):
        if learner not in (None, "player_0", "player_1"):
            raise ValueError(f"learner={learner!r}: expected None, 'player_0' or 'player_1'")
        if illegal_action not in ("lose", "raise"):
            raise ValueError(f"illegal_action={illegal_action!r}: expected 'lose' or 'raise'")
        self.game_env = raw_env(variant=variant,
                                render_mode="ansi" if render_mode == "human" else render_mode,
                                max_moves=max_moves)
        self.render_mode = render_mode
        if opponent == "random":
            self.opponent = _random_hop
        elif hasattr(opponent, "act"):
            self.opponent = opponent.act
        elif callable(opponent):
            self.opponent = opponent
        else:
            raise ValueError(f"opponent={opponent!r}: expected 'random', an object with "
                             "act(env) or a callable f(env)")
        self.learner_choice = learner
        self.learner = learner or "player_0"
        self.illegal_action = illegal_action
        self.illegal_reward = check_reward("illegal_reward", illegal_reward)
        self.observation_space = self.game_env.observation_space("player_0")["observation"]
        self.action_space = gym.spaces.Discrete(self.game_env.action_space("player_0").n)
        self._over, self._truncated, self._started = True, False, False

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        self.game_env.reset(seed=seed, options=options)  # (bad options: nothing changed)
        super().reset(seed=seed)
        if self.learner_choice is None:
            self.learner = self.game_env.possible_agents[int(self.np_random.integers(2))]
        self._started = True
        reward = self._play_opponent()
        obs, info = self._observe()
        info["opening_reward"] = reward
        self._show()
        return obs, info

    def _play_opponent(self) -> float:
        """The opponent's hops until the learner must act or the game ends; the learner's
        reward on the way (the end's)."""
        g = self.game_env
        learner = self.learner
        while (not (g.terminations[learner] or g.truncations[learner])
               and g.agent_selection != learner):
            g.step(self.opponent(g))
        self._truncated = g.truncations[learner]
        self._over = g.terminations[learner] or self._truncated
        return float(g.rewards[learner]) if self._over else 0.0

    def action_masks(self) -> np.ndarray:
        """``bool[n_actions]``: the learner's legal hops (none once the episode is over)."""
        if self._over:
            return np.zeros(self.action_space.n, dtype=bool)
        return self.game_env.observe(self.learner)["action_mask"].astype(bool)

    def _observe(self) -> tuple[np.ndarray, dict]:
        obs = self.game_env.observe(self.learner)
        info = {"action_mask": obs["action_mask"] if not self._over
                else np.zeros_like(obs["action_mask"])}
        if self._over:
            info.update(self.game_env.infos[self.learner])
        return obs["observation"], info

    def step(self, action):
        if not self._started or self._over:
            raise step_refused(self._started)
        mask = self.action_masks()
        action = action_index(action)  # numpy integers pass; 3.7 or True raises
        if not 0 <= action < len(mask) or not mask[action]:
            if self.illegal_action == "raise":
                raise ValueError(f"action {action!r} is not a legal hop of {self.learner}; "
                                 f"legal: {np.flatnonzero(mask).tolist()}")
            self._over = True
            obs, info = self._observe()
            info["illegal_action"] = action
            return obs, self.illegal_reward, True, False, info
        self.game_env.step(action)
        reward = self._play_opponent()  # (the end's reward, whoever's hop ended it)
        obs, info = self._observe()
        self._show()
        return obs, reward, self._over and not self._truncated, self._truncated, info

    def _show(self) -> None:
        if self.render_mode == "human":
            print(self.game_env.render())

    def render(self):
        """The board as text (``"ansi"``: returned; ``"human"``: printed) or its picture
        (``"rgb_array"``)."""
        if self.render_mode is None:
            gym.logger.warn("render() called without a render_mode; make the env with "
                            "render_mode='ansi', 'human' or 'rgb_array'")
            return None
        text = self.game_env.render()
        if self.render_mode == "human":
            print(text)
            return None
        return text
