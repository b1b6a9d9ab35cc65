"""Training the baselines: TD-Gammon self-play, MaskablePPO (kickstarted), the distillation
of td's lookahead, their run reports (``bg-env train``)."""
