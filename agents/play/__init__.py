"""A person plays an agent in the terminal (``bg-env play``): the prompts and what they
are shown."""
