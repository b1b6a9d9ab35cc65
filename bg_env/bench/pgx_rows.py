"""pgx's JAX backgammon for ``bg-env bench`` (:mod:`bg_env.bench.run`): optional, measured when
pgx and jax are importable (the ``[bench]`` extra)."""

from __future__ import annotations

import time

__all__ = ["pgx_games"]


def pgx_games(seconds: float, batch: int = 256):
    """pgx's backgammon (JAX) on the CPU: ``batch`` games stepped at once by
    ``jax.jit(jax.vmap(step))``, a uniform random legal action per game (``categorical``
    on the masked logits of ``legal_action_mask``), finished games reset in the same
    call. Compilation and a first stretch of steps are left out of the timing; the games
    counted are those that end (``terminated``) inside the timed window. Returns
    ``(games/s, steps/s, seconds spent compiling and warming up)``, or None when pgx (or
    jax) is not importable. A pgx step moves one checker by one die, so its steps are not
    our plays, nor OpenSpiel's."""
    try:
        import jax
        import jax.numpy as jnp
        import pgx
    except ImportError:
        return None
    env = pgx.make("backgammon")

    def one(state, key):
        k_act, k_step, k_init = jax.random.split(key, 3)
        logits = jnp.where(state.legal_action_mask, 0.0, -jnp.inf)
        action = jax.random.categorical(k_act, logits)
        state = env.step(state, action, k_step)
        ended = state.terminated
        reset = ended | state.truncated
        return jax.lax.cond(reset, lambda: env.init(k_init), lambda: state), ended

    vstep = jax.vmap(one)

    @jax.jit
    def step(state, key, finished):
        key, sub = jax.random.split(key)
        state, ended = vstep(state, jax.random.split(sub, batch))
        return state, key, finished + ended.sum()

    t_compile = time.perf_counter()
    with jax.default_device(jax.devices("cpu")[0]):
        key = jax.random.PRNGKey(0)
        key, sub = jax.random.split(key)
        state = jax.jit(jax.vmap(env.init))(jax.random.split(sub, batch))
        finished = jnp.zeros((), jnp.int32)
        for _ in range(20):  # compile, then warm up
            state, key, finished = step(state, key, finished)
        jax.block_until_ready(finished)
        t_compile = time.perf_counter() - t_compile
        finished = jnp.zeros((), jnp.int32)
        n = 0
        t0 = time.perf_counter()
        while time.perf_counter() - t0 < seconds:
            state, key, finished = step(state, key, finished)
            n += 1
        games = int(finished)  # waits for the queued steps
        dt = time.perf_counter() - t0
    return games / dt, n * batch / dt, t_compile
