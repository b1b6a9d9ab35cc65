"""``help()`` on what a user calls first names every option: the PettingZoo ``env()``
(every configuration key) and the Gymnasium envs' classes (their own keywords)."""

from __future__ import annotations

import inspect

import pytest

from bg_env import backgammon_v0
from bg_env.envs.config import EnvConfig
from bg_env.envs.gym_env import BackgammonEnv
from bg_env.envs.play_env import BackgammonPlaysEnv


def test_env_docstring_names_every_configuration_key():
    doc = inspect.getdoc(backgammon_v0.env)
    assert "See the module docstring" not in doc
    for key in EnvConfig.keys():
        assert f"    {key}: " in doc, key


@pytest.mark.parametrize("cls", [BackgammonEnv, BackgammonPlaysEnv])
def test_gym_env_docstrings_name_their_keywords(cls):
    doc = inspect.getdoc(cls)
    assert "See the module docstring." not in doc and "Example:" in doc
    for name, param in inspect.signature(cls.__init__).parameters.items():
        if name == "self":
            continue
        stars = "**" if param.kind is param.VAR_KEYWORD else ""
        assert f"    {stars}{name}: " in doc, name
