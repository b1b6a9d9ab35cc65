"""PettingZoo's standard AEC wrappers, written out for speed: an illegal action ends the
game against the offender (:class:`TerminateIllegalWrapper`), actions out of range are
rejected (:class:`AssertOutOfBoundsWrapper`) and the API order is enforced
(:class:`OrderEnforcingWrapper`). :func:`wrap` puts the three around a raw env, as
PettingZoo's classic envs do; the envs' ``env()`` factories call it.
"""

from __future__ import annotations

from gymnasium.spaces import Discrete
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.env_logger import EnvLogger
from pettingzoo.utils.wrappers.order_enforcing import (
    AECOrderEnforcingIterable,
    AECOrderEnforcingIterator,
)

from ..game.game import action_index

__all__ = ["wrap", "TerminateIllegalWrapper", "AssertOutOfBoundsWrapper", "OrderEnforcingWrapper"]


def wrap(raw: AECEnv, illegal_reward: float = -1) -> AECEnv:
    """``raw`` inside the three wrappers (outermost: the order check)."""
    wrapped = TerminateIllegalWrapper(raw, illegal_reward=illegal_reward)
    wrapped = AssertOutOfBoundsWrapper(wrapped)
    return OrderEnforcingWrapper(wrapped)


_PER_STEP = ("agent_selection", "agents", "rewards", "_cumulative_rewards", "terminations",
             "truncations", "infos")
"""The attributes an AEC loop (and the wrappers) read at every step."""


def _forward_per_step_attributes(cls: type, guarded: tuple[str, ...] = ()) -> type:
    """Give a PettingZoo wrapper class properties that read (and write) the
    :data:`_PER_STEP` attributes straight on the raw env.

    PettingZoo's ``BaseWrapper.__getattr__`` fetches them through every wrapper in turn,
    which cost more than the game's own step; the values are the same. Names in
    ``guarded`` raise ``AttributeError`` before ``reset()``, as ``OrderEnforcingWrapper``
    does.
    """

    def forward(name: str) -> property:
        check = name in guarded

        def get(self):
            if check and not self._has_reset:
                raise AttributeError(f"{name} cannot be accessed before reset")
            return getattr(self._raw_env, name)

        def set_(self, value):
            setattr(self._raw_env, name, value)

        return property(get, set_)

    wrapper_init = cls.__init__

    def __init__(self, env, *args, **kwargs):
        wrapper_init(self, env, *args, **kwargs)
        self._raw_env = env.unwrapped

    cls.__init__ = __init__
    for name in _PER_STEP:
        setattr(cls, name, forward(name))
    return cls


# The three wrappers below are PettingZoo's (subclasses: ``isinstance`` holds), with
# ``step``/``observe``/``last`` written out to read the per-step attributes straight on the
# raw env and to call the next wrapper directly instead of through ``super()`` and
# ``BaseWrapper``: the same checks, in the same order, with the same effects (PettingZoo
# 1.24-1.27), at a fraction of the calls; they cost more than the game's own step.

@_forward_per_step_attributes
class TerminateIllegalWrapper(wrappers.TerminateIllegalWrapper):
    """PettingZoo's: an action outside the last observed ``action_mask`` ends the game
    against the offender."""

    def observe(self, agent):
        obs = self.env.observe(agent)
        self._remember(agent, obs)
        return obs

    def _remember(self, agent, obs) -> None:
        """Keep ``obs`` when it is the acting agent's: its mask judges the next step."""
        raw = self._raw_env
        if agent == raw.agent_selection:
            self._prev_obs = obs
            infos = raw.infos
            self._prev_info = infos[agent] if agent in infos else {}

    def step(self, action) -> None:
        _terminate_illegal_step(self, self._raw_env, action)


def _terminate_illegal_step(wrapper: TerminateIllegalWrapper, raw: AECEnv, action,
                            bounds: bool = False) -> None:
    """:meth:`TerminateIllegalWrapper.step` (PettingZoo's, the same checks in the same
    order), a function so that :class:`OrderEnforcingWrapper` can call it directly, with
    :class:`AssertOutOfBoundsWrapper`'s check first when ``bounds``."""
    agent = raw.agent_selection
    if bounds:
        _assert_in_bounds(raw, action, agent)
    prev = wrapper._prev_obs
    if prev is None:
        wrapper.observe(agent)
        prev = wrapper._prev_obs
    if type(prev) is dict and "action_mask" in prev:
        prev_mask = prev["action_mask"]
    else:
        prev_mask = _previous_mask(wrapper, prev)
    wrapper._prev_obs = None
    wrapper._prev_info = None
    done = raw.terminations[agent] or raw.truncations[agent]
    if wrapper._terminated and done:
        raw._was_dead_step(action)
    elif not done and not prev_mask[action_index(action)]:  # (mask[True] would pick a row)
        _end_illegal(wrapper, raw, agent)
    else:
        wrapper.env.step(action)


def _previous_mask(wrapper: TerminateIllegalWrapper, prev):
    """The action mask of the last observation ``prev`` (or of its info when it is not a
    dict), as PettingZoo's wrapper finds it: a missing mask fails its assertions."""
    if isinstance(prev, dict):
        if "action_mask" not in prev:  # (raised, not asserted: python -O keeps the check)
            raise AssertionError(
                f"`action_mask` not found in dictionary observation: {prev}. Action mask "
                "must either be in `observation['action_mask']` or `info['action_mask']` to "
                "use TerminateIllegalWrapper.")
        return prev["action_mask"]
    if wrapper._prev_info is None or "action_mask" not in wrapper._prev_info:
        raise AssertionError(
            f"`action_mask` not found in info for non-dictionary observation: "
            f"{wrapper._prev_info}. Action mask must either be in observation['action_mask'] "
            "or info['action_mask'] to use TerminateIllegalWrapper.")
    return wrapper._prev_info["action_mask"]


def _end_illegal(wrapper: TerminateIllegalWrapper, raw: AECEnv, agent) -> None:
    """An illegal action of ``agent``: every agent done, ``agent`` given the illegal
    reward (PettingZoo's)."""
    EnvLogger.warn_on_illegal_move()
    raw._cumulative_rewards[agent] = 0
    raw.terminations = dict.fromkeys(raw.agents, True)
    raw.truncations = dict.fromkeys(raw.agents, True)
    raw.rewards = dict.fromkeys(raw.truncations, 0)
    raw.rewards[agent] = float(wrapper._illegal_value)
    raw._accumulate_rewards()
    raw._deads_step_first()
    wrapper._terminated = True


@_forward_per_step_attributes
class AssertOutOfBoundsWrapper(wrappers.AssertOutOfBoundsWrapper):
    """PettingZoo's: an action outside the action space fails an assertion."""

    def step(self, action) -> None:
        raw = self._raw_env
        _assert_in_bounds(raw, action, raw.agent_selection)
        self.env.step(action)


def _assert_in_bounds(raw: AECEnv, action, agent) -> None:
    """:meth:`AssertOutOfBoundsWrapper.step`'s check (PettingZoo's) of ``agent``'s
    (``raw.agent_selection``) action; the message names the action, the agent and the
    space (PettingZoo's says only "action is not in action space"). It raises
    ``AssertionError`` as PettingZoo's does, but not by an ``assert``: under ``python -O``
    the check stays."""
    if not ((action is None and (raw.terminations[agent] or raw.truncations[agent]))
            or raw.action_space(agent).contains(action)):
        raise AssertionError(
            f"action {action!r} of {agent} is not in action space {raw.action_space(agent)}")


class OrderEnforcingWrapper(wrappers.OrderEnforcingWrapper):
    """PettingZoo's: calls before ``reset()`` are errors.

    Around :func:`wrap`'s chain (``AssertOutOfBoundsWrapper(TerminateIllegalWrapper(raw))``,
    exactly these classes) it makes the inner wrappers' checks itself, in their order, and
    calls the raw env directly: the same effects without a call through each wrapper."""

    def __init__(self, env):
        super().__init__(env)
        inner = env.env if type(env) is AssertOutOfBoundsWrapper else None
        self._chain = (inner if type(inner) is TerminateIllegalWrapper
                       and inner.env is inner.unwrapped else None)
        """The TerminateIllegalWrapper of :func:`wrap`'s chain, else None."""
        self._n_actions = _discrete_size(env.unwrapped)
        """``n`` when every agent's action space is ``Discrete(n)`` from 0 (an ``int``
        in ``0..n-1`` is in it), else -1."""

    def step(self, action) -> None:
        chain = self._chain
        if chain is not None and type(action) is int and self._has_reset:
            raw = self._raw_env
            prev = chain._prev_obs
            if raw.agents and type(prev) is dict:
                agent = raw.agent_selection
                mask = prev.get("action_mask")
                if (mask is not None and 0 <= action < self._n_actions
                        and not raw.terminations[agent] and not raw.truncations[agent]
                        and mask[action]):
                    # the usual step (a legal int action of an agent that has seen its
                    # mask): _terminate_illegal_step's checks all pass; its effects
                    self._has_updated = True
                    chain._prev_obs = chain._prev_info = None
                    raw.step(action)
                    return
        self._checked_step(action)

    def _checked_step(self, action) -> None:
        """:meth:`step` through every check in PettingZoo's order."""
        if not self._has_reset:
            EnvLogger.error_step_before_reset()
        elif not self._raw_env.agents:
            self._has_updated = True
            EnvLogger.warn_step_after_terminated_truncated()
        else:
            self._has_updated = True
            chain = self._chain
            if chain is None:
                self.env.step(action)
            else:
                _terminate_illegal_step(chain, self._raw_env, action, True)

    def observe(self, agent):
        if not self._has_reset:
            EnvLogger.error_observe_before_reset()
        return self._observe(agent)

    def agent_iter(self, max_iter: int = 2**63) -> AECOrderEnforcingIterable:
        if not self._has_reset:
            EnvLogger.error_agent_iter_before_reset()
        return _OrderIterable(self, max_iter)

    def _observe(self, agent):
        chain = self._chain
        if chain is None:
            return self.env.observe(agent)
        obs = self._raw_env.observe(agent)
        chain._remember(agent, obs)
        return obs

    def last(self, observe: bool = True):
        if not self._has_reset:  # as reading agent_selection before reset
            raise AttributeError("agent_selection cannot be accessed before reset")
        raw = self._raw_env
        agent = raw.agent_selection
        chain = self._chain
        if not observe:
            observation = None
        elif chain is None:
            observation = self.env.observe(agent)
        else:  # (self._observe and chain._remember, written out: agent is the one to act)
            observation = chain._prev_obs = raw.observe(agent)
            infos = raw.infos
            chain._prev_info = infos[agent] if agent in infos else {}
            return (observation, raw._cumulative_rewards[agent], raw.terminations[agent],
                    raw.truncations[agent], infos[agent])
        return (observation, raw._cumulative_rewards[agent], raw.terminations[agent],
                raw.truncations[agent], raw.infos[agent])

    def __str__(self) -> str:
        return str(self.env)

    def _repr_png_(self) -> bytes:
        """The raw env's picture (PettingZoo's wrappers do not forward ``_`` names)."""
        return self.unwrapped._repr_png_()


def _discrete_size(raw: AECEnv) -> int:
    """``n`` when every agent's action space is a ``Discrete(n)`` starting at 0, else -1."""
    sizes = set()
    for agent in raw.possible_agents:
        space = raw.action_space(agent)
        if not isinstance(space, Discrete) or int(space.start) != 0:
            return -1
        sizes.add(int(space.n))
    return sizes.pop() if len(sizes) == 1 else -1


class _OrderIterable(AECOrderEnforcingIterable):
    """PettingZoo's ``agent_iter()`` of an :class:`OrderEnforcingWrapper`, iterating with
    :class:`_OrderIterator`."""

    def __iter__(self) -> AECOrderEnforcingIterator:
        return _OrderIterator(self.env, self.max_iter)


class _OrderIterator(AECOrderEnforcingIterator):
    """PettingZoo's iterator (the agent to act, until no agent is left or ``max_iter``;
    a ``step()`` or ``reset()`` between two agents, else ``AssertionError``), reading the
    raw env's attributes directly instead of through the wrappers. The check raises
    rather than asserts, so that ``python -O`` keeps it."""

    def __init__(self, env: OrderEnforcingWrapper, max_iter: int) -> None:
        super().__init__(env, max_iter)
        self._raw = env._raw_env

    def __next__(self):
        raw = self._raw
        if not raw.agents or self.iters_til_term <= 0:
            raise StopIteration
        self.iters_til_term -= 1
        env = self.env
        if not env._has_updated:
            raise AssertionError("need to call step() or reset() in a loop over `agent_iter`")
        env._has_updated = False
        return raw.agent_selection


_forward_per_step_attributes(
    OrderEnforcingWrapper, guarded=("agent_selection", "agents", "rewards", "terminations",
                              "truncations", "infos"),
)
