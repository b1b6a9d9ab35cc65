"""``bg-env bench``: bg_env's speed measured side by side with OpenSpiel, pgx and gnubg-nn
(:mod:`bg_env.bench.run`; the timing in turns of CPU time, :mod:`bg_env.bench.timing`)."""
