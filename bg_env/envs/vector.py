"""Vector environments for Stable-Baselines3: many games stepped in one call.

Description:
    ``make_vec_env(num_envs, opponent="random")`` returns a Stable-Baselines3 ``VecEnv`` of
    ``num_envs`` single-agent games, each the :class:`~bg_env.envs.gym_env.BackgammonEnv`
    view: one learner against an opponent, one step per learner decision. Against a
    built-in opponent (``"random"`` or ``"pubeval"``, :mod:`bg_env.kernels.opponents`)
    with the checker-move view, all games live in numpy arrays
    and one call to the numba kernels of :mod:`bg_env.kernels.batch` steps them all (the
    learner's action, then the opponent's decisions until the learner must act again);
    nothing runs per game in Python but the bookkeeping of finished episodes (every
    variant: money games or matches, ``match_length=N``, with or without the cube and the
    context block; pubeval plays every variant but Plakoto and Long Nardy, whose boards it
    does not judge: :func:`~bg_env.envs.kernel_batch.kernels_play`). Other opponents
    (agents, callables, specs), pubeval in Plakoto or Long Nardy, a ``render_mode`` and
    the play-level view (``view="plays"``, :mod:`bg_env.envs.play_env`) run their
    Gymnasium envs one after the other (:class:`GymVecEnv`, Stable-Baselines3's
    ``DummyVecEnv``). Either comes wrapped in Stable-Baselines3's ``VecMonitor``
    (:class:`CopyableVecMonitor`, unless ``monitor=False``) for the episode statistics
    (``rollout/ep_rew_mean``, ``evaluate_policy``); its attributes (``action_masks()``,
    ``batch``, ``games``, ...) read through, and ``venv.unwrapped`` is the env itself.

Observation:
    ``(num_envs, size)``: the Gymnasium env's observation of each game (the learner's
    side, :mod:`bg_env.envs.observation`). :meth:`BackgammonVecEnv.action_masks` gives
    the legal actions, ``(num_envs, N_ACTIONS)`` bool, and
    ``env_method("action_masks")`` the same per game, so sb3-contrib's
    ``get_action_masks`` and ``MaskablePPO`` work.

Action:
    ``(num_envs,)`` actions of ``Discrete(156)`` (:mod:`bg_env.actions`).

Rewards:
    As the Gymnasium env: 0 until a game ends, then +-points (or +-1 with
    ``reward="win"``) from the learner's side; ``illegal_reward`` for an illegal action.
    Match play: +-1 when the match ends, or with ``match_reward="equity"`` twice each
    game's change in the learner's match-winning chance, in the step where it ends.

Episode End:
    A finished game (or one truncated at ``max_turns``, or ended by an illegal action) is
    reported with ``done``; its info holds ``terminal_observation``,
    ``TimeLimit.truncated``, and ``outcome``, ``cube_value``, ``points``, ``winner`` (or
    ``illegal_action``; in match play the episode is the match and the info holds its last
    ``game``, the ``score``, the match's ``winner``, ``games`` and ``crawford_games``, as
    the single env's), and ``episode``: ``{"r": return, "l": learner steps, "t": seconds
    since the env was made}``, as Stable-Baselines3's ``Monitor`` gives (not with
    ``monitor=False``); and the env starts a new game at once (Stable-Baselines3's
    auto-reset). Each new game draws the learner's colour unless ``learner`` fixes it; a
    game that would end before the learner's first decision (only possible with a tiny
    ``max_turns``) is replayed.

Starting positions:
    The single envs' reset options (``position_id``, ``match_id``, ``xgid``, ``dice``,
    ``agent``: :mod:`bg_env.envs.start`) given with Stable-Baselines3's ``set_options``
    (one dict for every game, or a list with one per game) start the next ``reset()``'s
    games there; ``reset_infos[i]`` holds game ``i``'s ``opening_reward``, and the result
    of a game that ended before the learner's first decision (it then starts again from
    the opening): :meth:`KernelBatch.reset <bg_env.envs.kernel_batch.KernelBatch.reset>`.

Arguments:
    See :func:`make_vec_env`.

Seeding:
    Every game of the fast path has its own generator; ``seed=s`` (or ``venv.seed(s)``
    before ``reset()``) seeds game ``i`` with ``s + i``. Same seed and actions, same games.
"""

from __future__ import annotations

import inspect
import time
from typing import Any

import numpy as np
from gymnasium import spaces
from stable_baselines3.common.vec_env import DummyVecEnv, VecEnv, VecMonitor

from ..kernels.games import Games
from ..rules.actions import N_ACTIONS
from ..game.game import PURE_PYTHON
from .backgammon import EnvConfig
from .gym_env import BackgammonEnv
from .kernel_batch import AGENTS, KernelBatch, kernels_play

__all__ = ["make_vec_env", "BackgammonVecEnv", "GymVecEnv", "CopyableVecMonitor",
           "bench_vec_env"]

VIEWS = ("moves", "plays")


def make_vec_env(num_envs: int, opponent: Any = "random", view: str = "moves",
                 seed: int | None = None, monitor: bool = True, **config) -> VecEnv:
    """``num_envs`` games for Stable-Baselines3, stepped together.

    Args:
        num_envs: how many games.
        opponent: ``"random"`` or ``"pubeval"`` (the fast path, on the kernels), or anything
            the Gymnasium env takes: an agent, a callable, a spec string of the opponent
            registry (:mod:`bg_env.envs.opponents`).
        view: ``"moves"`` (one checker move a step, :mod:`bg_env.envs.gym_env`) or
            ``"plays"`` (one whole play a step, :mod:`bg_env.envs.play_env`).
        seed: game ``i`` is seeded with ``seed + i`` at the first ``reset()``.
        monitor: wrap the env in :class:`CopyableVecMonitor` (Stable-Baselines3's
            ``VecMonitor``): the info of the step that ends an episode holds ``episode``
            (``{"r", "l", "t"}``), which SB3 logs as ``rollout/ep_rew_mean`` and
            ``ep_len_mean`` and ``evaluate_policy`` reads. ``False``: the bare
            :class:`BackgammonVecEnv` or :class:`GymVecEnv` (to wrap it yourself).
        **config: the Gymnasium env's arguments (``learner``, ``illegal_action``,
            ``illegal_reward``, and the :class:`~bg_env.envs.backgammon.EnvConfig` keys;
            for ``"plays"``, those of :class:`~bg_env.envs.play_env.BackgammonPlaysEnv`).

    Raises:
        ValueError: a bad ``num_envs``, ``view`` or configuration.
    """
    if not isinstance(num_envs, (int, np.integer)) or num_envs < 1:
        raise ValueError(f"num_envs={num_envs!r}: expected a positive integer")
    if view not in VIEWS:
        raise ValueError(f"view={view!r}: expected one of {list(VIEWS)}")
    if view == "plays":
        from .play_env import BackgammonPlaysEnv

        make = lambda: BackgammonPlaysEnv(opponent=opponent, **config)  # noqa: E731
        venv: VecEnv = GymVecEnv([make] * num_envs)
    elif (not PURE_PYTHON and config.get("render_mode") is None
          and kernels_play(opponent, EnvConfig.from_kwargs(**_env_keys(config)))):
        venv = BackgammonVecEnv(num_envs, opponent=opponent, **config)
    else:
        venv = GymVecEnv([lambda: BackgammonEnv(opponent=opponent, **config)] * num_envs)
    if seed is not None:
        venv.seed(seed)
    return CopyableVecMonitor(venv) if monitor else venv


def _env_keys(config: dict) -> dict:
    """The :class:`EnvConfig` keys of ``config`` (it also holds the Gymnasium env's own)."""
    known = set(EnvConfig.keys())
    return {k: v for k, v in config.items() if k in known}


class GymVecEnv(DummyVecEnv):
    """Stable-Baselines3's ``DummyVecEnv`` with :meth:`action_masks` (the general path:
    any opponent, either view)."""

    def action_masks(self) -> np.ndarray:
        """``(num_envs, n_actions)`` bool: each game's legal actions."""
        return np.stack(self.env_method("action_masks"))

    def _repr_png_(self) -> bytes:
        """The picture of the first game (a notebook's display)."""
        return self.envs[0].unwrapped._repr_png_()


class CopyableVecMonitor(VecMonitor):
    """Stable-Baselines3's ``VecMonitor`` (episode return, length and time in the info of
    the step that ends an episode) that survives ``copy.deepcopy`` and pickling, as the
    envs do: ``VecEnvWrapper`` keeps its class's members in ``class_attributes``, which do
    not pickle, so they are left out and rebuilt (as SB3's ``VecNormalize`` does); and
    that shows the wrapped env's ``reset_infos`` (SB3's wrappers keep empty ones of their
    own; the plays view's hold ``n_plays`` and ``dice``). :func:`make_vec_env` makes it
    without a log file (``filename``: an open file would not pickle)."""

    def reset(self) -> np.ndarray:
        obs = super().reset()
        self.reset_infos = self.venv.reset_infos  # the same list, kept up by auto-resets
        return obs

    def action_masks(self) -> np.ndarray:
        """The wrapped env's :meth:`~BackgammonVecEnv.action_masks` (a method of its own: a
        wrapper's attribute lookup costs ~5 us a call, and masks are read every step)."""
        return self.venv.action_masks()

    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        del state["class_attributes"]
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self.class_attributes = dict(inspect.getmembers(self.__class__))


class BackgammonVecEnv(VecEnv):
    """Games against a built-in opponent (``opponent="random"`` or ``"pubeval"``), all
    stepped by one kernel call
    (Stable-Baselines3's ``VecEnv`` over :class:`~bg_env.envs.kernel_batch.KernelBatch`).

    Args:
        num_envs: how many games.
        learner: ``None`` (the learner's colour drawn per game), ``"player_0"`` or
            ``"player_1"``.
        illegal_action: ``"lose"`` (the game ends, reward ``illegal_reward``) or
            ``"raise"`` (:class:`~bg_env.game.game.IllegalActionError`, nothing stepped).
        illegal_reward: the reward for an illegal action under ``"lose"``.
        **config: :class:`~bg_env.envs.backgammon.EnvConfig` keys (no ``render_mode``).
    """

    def __init__(self, num_envs: int, learner: str | None = None, illegal_action: str = "lose",
                 illegal_reward: float = -1.0, opponent: str = "random", **config):
        self.batch = KernelBatch(num_envs, learner=learner, illegal_action=illegal_action,
                                 illegal_reward=illegal_reward, opponent=opponent, **config)
        self.render_mode = None
        super().__init__(num_envs, self.batch.observation_space, spaces.Discrete(N_ACTIONS))

    @property
    def config(self) -> EnvConfig:
        return self.batch.config

    @property
    def games(self) -> Games:
        """The games' arrays (:class:`bg_env.kernels.games.Games`)."""
        return self.batch.games

    @property
    def sides(self) -> np.ndarray:
        """The learner's side (0 = ``player_0``) in each game."""
        return self.batch.sides

    @property
    def illegal_action(self) -> str:
        return self.batch.illegal_action

    @property
    def illegal_reward(self) -> float:
        return self.batch.illegal_reward

    # ----------------------------------------------------------------- VecEnv API
    def reset(self) -> np.ndarray:
        """New games; the options given by ``set_options`` (one dict for every game, or a
        list: one per game) start them where they say (:meth:`KernelBatch.reset
        <bg_env.envs.kernel_batch.KernelBatch.reset>`; ``reset_infos`` holds each one's
        ``opening_reward``)."""
        options = self._options if any(self._options) else None
        seeds = self._seeds if any(s is not None for s in self._seeds) else None
        obs = self.batch.reset(options, seeds)  # (bad options raise, nothing changed)
        self._reset_seeds()
        self._reset_options()
        self.reset_infos = self.batch.reset_infos
        return obs

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = actions

    def step_wait(self):
        return self.batch.step(self._actions)

    def action_masks(self) -> np.ndarray:
        """``(num_envs, N_ACTIONS)`` bool: the legal actions of each game's learner."""
        return self.batch.action_masks()

    def _repr_png_(self) -> bytes:
        """The picture of the first game (a notebook's display)."""
        return self.batch.png(0)

    def close(self) -> None:
        pass

    # ------------------------------------------------------ per-env attribute access
    def _indices(self, indices) -> list[int]:
        if indices is None:
            return list(range(self.num_envs))
        if isinstance(indices, (int, np.integer)):
            return [int(indices)]
        return [int(i) for i in indices]

    def get_attr(self, attr_name: str, indices=None) -> list[Any]:
        """``action_masks`` (one callable per game, as sb3-contrib checks for it),
        ``learner`` (each game's learner), or an attribute shared by all games."""
        idx = self._indices(indices)
        if attr_name == "action_masks":
            return [lambda i=i: self.games.mask[i].copy() for i in idx]
        if attr_name == "learner":
            return [AGENTS[self.sides[i]] for i in idx]
        value = getattr(self, attr_name)
        return [value for _ in idx]

    def set_attr(self, attr_name: str, value: Any, indices=None) -> None:
        """Set an attribute shared by all games (they have no separate objects)."""
        setattr(self, attr_name, value)

    def env_method(self, method_name: str, *method_args, indices=None,
                   **method_kwargs) -> list[Any]:
        """``action_masks`` per game (what ``get_action_masks`` stacks): the rows of one
        copy of the masks, made in one call, not a call per game."""
        if method_name == "action_masks" and not method_args and not method_kwargs:
            masks = self.batch.action_masks()  # (a copy)
            return list(masks if indices is None else masks[self._indices(indices)])
        return [f(*method_args, **method_kwargs) for f in self.get_attr(method_name, indices)]

    def env_is_wrapped(self, wrapper_class, indices=None) -> list[bool]:
        return [False for _ in self._indices(indices)]


def bench_vec_env(seconds: float = 3.0, num_envs: int = 64, opponent: str = "random",
                  kernels: bool = True, **config) -> tuple[float, float]:
    """A random learner against ``opponent``, cube off unless ``config`` says otherwise,
    through :func:`make_vec_env` (``kernels=False``: the single envs one after another,
    :class:`GymVecEnv`): ``(episodes/s, steps/s)``, an episode being a game (a match with
    ``match_length``) and a step one learner decision in one game (the opponent's are not
    counted). ``config``: :class:`~bg_env.envs.backgammon.EnvConfig` keys (e.g.
    ``match_length=7, cube=True``). Both paths are timed bare (no ``VecMonitor``)."""
    config = {"cube": False, **config}
    if kernels:
        venv = make_vec_env(num_envs, opponent=opponent, seed=0, monitor=False, **config)
    else:
        venv = GymVecEnv([lambda: BackgammonEnv(opponent=opponent, **config)] * num_envs)
        venv.seed(0)
    rng = np.random.default_rng(0)
    venv.reset()
    venv.step(_random_actions(venv.action_masks(), rng))  # compile / load the kernels
    games = steps = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        _, _, dones, _ = venv.step(_random_actions(venv.action_masks(), rng))
        games += int(dones.sum())
        steps += num_envs
    dt = time.perf_counter() - t0
    return games / dt, steps / dt


def _random_actions(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A uniform legal action per row of ``masks``."""
    keys = rng.random(masks.shape)
    keys[~masks] = -1.0
    return keys.argmax(axis=1)
