"""The variant YAML files (``agents/configs/variants/*.yaml``) and ``bg-env eval
--rules/--variant``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from agents.cli import main
from agents.config import ConfigError, load_env_options
from bg_env import backgammon_v0
from bg_env.rules.variants import VARIANTS, get_variant

CONFIGS = Path(__file__).resolve().parents[2] / "agents" / "configs" / "variants"
FILES = sorted(CONFIGS.glob("*.yaml"))


def test_every_variant_has_a_yaml_file():
    chosen = {get_variant(yaml.safe_load(f.read_text())["variant"]).name for f in FILES}
    assert chosen == {v.name for v in VARIANTS.values()}


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_yaml_builds_an_env_that_starts_from_the_variant_start(path):
    options = load_env_options(str(path))
    env = backgammon_v0.raw_env(**options)
    env.reset(seed=0)
    variant = get_variant(options["variant"])
    assert env.game.variant is variant
    start = variant.start_position()
    assert env.game.turn_start.me == start.me and env.game.turn_start.opp == start.opp
    assert sum(env.game.position.me) == variant.checkers


def test_unknown_key_in_an_options_file_names_file_and_key(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("variant: plakoto\ncubes: true\n")
    with pytest.raises(ConfigError, match=r"bad.yaml.*'cubes'"):
        load_env_options(str(bad))
    bad.write_text("variant: plakotto\n")
    with pytest.raises(ConfigError, match=r"bad.yaml.*variant='plakotto'"):
        load_env_options(str(bad))
    with pytest.raises(ConfigError, match="does not exist"):
        load_env_options(str(tmp_path / "missing.yaml"))


def test_cli_eval_plays_a_variant_from_its_yaml(tmp_path):
    out = tmp_path / "r.json"
    path = str(CONFIGS / "hypergammon3.yaml")
    assert main(["eval", "random:1", "random:2", "--rules", path, "--games", "6", "--quiet",
                 "--json", str(out)]) == 0
    summary = json.loads(out.read_text())
    assert summary["games"] == 6


def test_cli_eval_rejects_an_unknown_variant(capsys):
    assert main(["eval", "random:1", "random:2", "--variant", "tapa", "--games", "2", "--quiet"]) == 2
    assert "variant='tapa'" in capsys.readouterr().err


def test_a_person_plays_long_nardy_in_the_terminal():
    from agents.play.human import play_human

    said = []
    answers = iter(["24/12", "24/20", "quit"])  # neither is legal with the roll of seed 4

    def ask(prompt):
        said.append(prompt)
        return next(answers)

    play_human("random:0", seed=4, ask=ask, say=said.append, variant="long_nardy")
    text = "\n".join(str(s) for s in said)
    assert "Your move" in text and "legal plays:" in text and "Game abandoned." in text


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_rules_by_name_finds_every_variant_under_each_of_its_names(name, tmp_path):
    out = tmp_path / "r.json"
    assert main(["eval", "random:1", "random:2", "--rules", name, "--games", "2", "--quiet",
                 "--json", str(out)]) == 0
    assert json.loads(out.read_text())["games"] == 2
