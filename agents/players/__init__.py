"""The agents that play: random and first (:mod:`~agents.players.base`), pubeval, td
(with its search and inputs), ppo, gnubg, the cube decisions, model files, and the person
at the terminal (``bg-env play``). Playing needs torch, never Stable-Baselines3."""
