"""The old module names of the rules, kernels and game (``bg_env.core.*``) still import,
as the very modules they moved to, so that code and pickles written against them load."""

from __future__ import annotations

import importlib
import pickle

import pytest

from bg_env.core import MOVED


@pytest.mark.parametrize("old", sorted(MOVED))
def test_every_old_name_is_the_moved_module(old):
    assert importlib.import_module(f"bg_env.core.{old}") is importlib.import_module(MOVED[old])


def test_old_submodule_names_import_too():
    old = importlib.import_module("bg_env.core.variants.catalog")
    assert old is importlib.import_module("bg_env.rules.variants.catalog")


def test_a_pickle_naming_the_old_module_loads():
    from bg_env.game.game import Game

    game = Game()
    game.begin_turn(None, (3, 1))
    data = pickle.dumps(game).replace(b"bg_env.game.game", b"bg_env.core.game")
    assert b"bg_env.core.game" in data
    copy = pickle.loads(data)
    assert type(copy) is Game and copy.position == game.position and copy.dice == game.dice


def test_an_unknown_old_name_is_not_found():
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("bg_env.core.no_such_module")


@pytest.mark.parametrize("old", sorted(__import__("agents").MOVED))
def test_every_old_agents_name_is_the_moved_module(old):
    from agents import MOVED as AGENTS_MOVED

    assert (importlib.import_module(f"agents.{old}")
            is importlib.import_module(AGENTS_MOVED[old]))


def test_the_shipped_ppo_archive_names_a_class_that_still_imports():
    import json
    import zipfile

    from agents import MODELS_DIR

    with zipfile.ZipFile(f"{MODELS_DIR}/ppo.zip") as archive:
        data = json.loads(archive.read("data"))
    module = data["policy_class"]["__module__"]  # what MaskablePPO.load unpickles
    assert module == "agents.ppo_policy"
    cls = getattr(importlib.import_module(module), "CandidatePolicy")
    from agents.training.ppo_policy import CandidatePolicy

    assert cls is CandidatePolicy
