"""Agents played against each other: paired games, statistics, checkpoints that resume,
and worker processes (``bg-env eval``)."""
