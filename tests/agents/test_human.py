"""``bg-env play`` (agents/human.py): reading the person's plays, what the terminal shows."""

from __future__ import annotations

import pytest

from agents.human import HumanAgent
from bg_env import backgammon_v0
from bg_env.core.notation import format_play

# X on the bar against a 5-point board with 4-4: bar/21 is forced, then three 4s are free.
BAR_44 = "XGID=------F-C---eE-----bb-bbbA:0:0:1:44:0:0:0:0:10"


def _forced_bar_env():
    env = backgammon_v0.raw_env(cube=False, render_mode="ansi")
    env.reset(seed=0, options={"xgid": BAR_44})
    assert [str(m) for m in env.game.played] == ["bar/21"]
    return env


def _play(env, answers):
    said, replies = [], iter(answers)

    def ask(prompt):
        said.append(prompt)
        return next(replies)

    human = HumanAgent(ask=ask, say=said.append)
    while env.agent_selection == "player_0" and env.game.phase == "move":
        env.step(human.act(env))
    return said


@pytest.mark.parametrize("text, play", [("21/17 13/9(2)", "bar/17 13/9(2)"),
                                        ("13/9(3)", "bar/21 13/9(3)"),
                                        ("bar/21 13/9(3)", "bar/21 13/9(3)"),
                                        ("bar/17 13/9(2)", "bar/17 13/9(2)")])
def test_after_a_forced_move_the_rest_or_the_whole_play_is_accepted(text, play):
    env = _forced_bar_env()
    said = _play(env, [text])
    assert "Forced: bar/21; enter the rest (or the whole play)" in said
    assert sum(s.startswith("Your move") for s in said) == 1, said  # accepted at once
    assert format_play(env.game.last_play) == play


def test_after_a_forced_move_a_wrong_entry_lists_the_rest_that_can_be_played():
    env = _forced_bar_env()
    said = _play(env, ["24/20", "13/9(3)"])
    error = said[2]
    assert "neither the rest after the forced bar/21 nor a whole legal play" in error
    assert "the rest can be: " in error and "13/9(3)" in error and "bar/" not in error.split(
        "the rest can be: ")[1]
