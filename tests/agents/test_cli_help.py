"""What the command line teaches a newcomer: help with examples, the agent specs and
defaults, and evaluation tables whose two sides can be told apart."""

from __future__ import annotations

import pytest

from agents import SPECS
from agents.cli import main


def _help(capsys, *argv) -> str:
    assert main([*argv, "--help"]) == 0
    return capsys.readouterr().out


def test_main_help_has_examples_and_every_command(capsys):
    text = _help(capsys)
    assert "examples:" in text and "bg-env eval td:runs/default/model.pt pubeval" in text
    for command in ("train", "eval", "play", "bench"):
        assert f"    {command}" in text


@pytest.mark.parametrize("command", ["eval", "play"])
def test_eval_and_play_help_list_every_agent_spec(capsys, command):
    text = _help(capsys, command)
    for spec in SPECS:
        assert f"\n  {spec} " in text
    assert "0-ply" in text and "SPEC+naive" in text


def test_flags_show_their_defaults_and_every_flag_has_help(capsys):
    text = " ".join(_help(capsys, "eval").split())  # help wraps at the terminal's width
    assert "(default: 1000)" in text and "(default: 0)" in text
    assert "(default: None)" not in text and "(default: False)" not in text
    from agents.cli import build_parser

    parser = build_parser()
    for sub in parser._subparsers._group_actions[0].choices.values():
        for action in sub._actions:
            assert action.help, f"{sub.prog} {action.option_strings or action.dest}"


def test_an_agent_against_itself_is_told_apart(capsys):
    assert main(["eval", "first", "first", "--games", "2", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("first (A) vs first (B): 2 games")
