"""The rules of :mod:`bg_env.rules` compiled with numba: move generation, masks, dice, the
turn state machine over batches of games (:mod:`bg_env.kernels.batch`), match play,
opponents and every variant's turns. Each kernel is tested against the pure-Python rules.
Nothing here draws a die of its own or knows of an env: :mod:`bg_env.game` and the envs
drive these kernels."""
