"""Adapters to other libraries' training stacks (each an optional extra, imported on demand:
``from bg_env.integrations.rllib import ppo_config`` needs ``pip install "bg_env[rllib]"``)."""
