"""The "Scaling out" page (docs/scaling.md) runs as written: its Python blocks run as scripts,
and every ``python examples/...`` command names a script that exists and flags it accepts
(the ``--smoke`` commands themselves run in test_rllib.py and test_tianshou.py)."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import load_script

ROOT = Path(__file__).resolve().parents[2]
NEEDS = {"rllib_ppo": "ray.rllib", "tianshou_dqn": "tianshou"}


def section() -> str:
    """The page's text."""
    return (ROOT / "docs" / "scaling.md").read_text()


def blocks(language: str) -> list[str]:
    return re.findall(rf"^```{language}\n(.*?)^```", section(), re.S | re.M)


def example_commands() -> list[list[str]]:
    commands = []
    for block in blocks("bash"):
        for line in block.splitlines():
            words = shlex.split(line, comments=True)
            if words[:1] == ["python"] and words[1].startswith("examples/"):
                commands.append(words[1:])
    return commands


def test_section_names_both_recipes_and_their_smoke_runs():
    commands = {tuple(c) for c in example_commands()}
    assert ("examples/rllib_ppo.py", "--smoke") in commands
    assert ("examples/tianshou_dqn.py", "--smoke") in commands
    assert any("--address" in c for c in commands)  # the cluster recipe
    assert 'ray.init(address="auto")' in section()


@pytest.mark.parametrize("command", example_commands(), ids=lambda c: " ".join(c))
def test_example_command_parses(command):
    script = ROOT / command[0]
    assert script.is_file(), f"{command[0]} named in README.md does not exist"
    pytest.importorskip(NEEDS[script.stem])
    module = load_script(script)
    args = module.parse_args(command[1:])  # an unknown flag exits with status 2
    if "--address" in command:
        assert args.address == command[command.index("--address") + 1]


@pytest.mark.slow
@pytest.mark.parametrize("index", range(len(blocks("python"))))
def test_python_block_runs(index, tmp_path):
    pytest.importorskip("sb3_contrib")
    code = blocks("python")[index]
    path = tmp_path / f"readme_block_{index}.py"
    path.write_text(code)
    result = subprocess.run([sys.executable, str(path)], cwd=ROOT, capture_output=True,
                            text=True, timeout=900)
    assert result.returncode == 0, result.stderr[-3000:]
