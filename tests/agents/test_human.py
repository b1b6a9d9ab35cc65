"""``bg-env play`` (agents/play/human.py): reading the person's plays, what the terminal shows."""

from __future__ import annotations

import pytest

from agents import load_agent
from agents.play.human import HumanAgent, play_human
from agents.play.human_view import board_text, in_persons_numbering
from bg_env import backgammon_v0
from bg_env.rules.notation import format_play

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


def test_an_empty_entry_asks_for_a_play_with_an_example():
    env = _forced_bar_env()
    said = _play(env, ["", "13/9(3)"])
    assert said[2].startswith("Type a play such as ") and said[2].endswith("(or help, or quit)."), said
    assert "not legal" not in " ".join(said)
    assert format_play(env.game.last_play) == "bar/21 13/9(3)"


def _scripted(captured, cube_answer=""):
    """A person who plays the first legal play, never doubles and takes; the env kept."""
    said = []

    def ask(prompt):
        said.append(prompt)
        if prompt.startswith("Your move"):
            return captured["env"].game.legal_continuations()[0].notation
        return cube_answer if prompt.startswith("Before") else "take"

    return said, ask


@pytest.fixture
def captured(monkeypatch):
    from agents import human

    kept, make = {}, human.backgammon_v0.raw_env

    def raw_env(**kwargs):
        kept["env"] = make(**kwargs)
        return kept["env"]

    monkeypatch.setattr(human.backgammon_v0, "raw_env", raw_env)
    return kept


def test_the_final_board_is_drawn_from_the_persons_side(captured):
    said, ask = _scripted(captured)
    assert play_human("pubeval", seed=0, ask=ask, say=said.append) == 0
    game = captured["env"].game
    assert game.result.winner == 1 and said[-1].startswith("pubeval wins ")
    final = said[-2]
    assert f"Position ID: {game.position.swap().position_id()}" in final  # player_0's view
    assert "X (loser)" in final and "player_1 (X)" not in final


def test_every_turn_of_the_opponent_is_told_with_its_roll(captured):
    said, ask = _scripted(captured)
    play_human("random:0", seed=0, ask=ask, say=said.append)
    game = captured["env"].game
    theirs = [s for s in said if s.startswith("random:0 rolls ")]
    ours = [s for i, s in enumerate(said) if s.startswith(("You roll ", "Forced: ")) or (
        s.startswith("Your move") and not said[i - 1].startswith("Forced"))]
    assert all(s[15] >= s[17] for s in theirs)  # the higher die first: '6-2'
    assert len(theirs) + len(ours) == game.turns + 1  # turns leaves out the last play


def test_the_opponents_roll_and_play_are_said_in_gnubg_notation_and_the_persons_numbering():
    said = []
    answers = iter(["double", "quit"])
    play_human("pubeval", seed=4, cube=True, ask=lambda p: next(answers), say=said.append)
    assert said[1] == "pubeval rolls 6-5: 1/12"  # his 24/13: the run from the person's 1
    assert "pubeval takes." in said and "cube 2 (pubeval's)" in said[-2]


def test_a_person_doubled_sees_the_offer_and_the_cube(captured):
    said = []

    def ask(prompt):
        said.append(prompt)
        if prompt.startswith("You are doubled"):
            return "quit"
        if prompt.startswith("Your move"):
            return captured["env"].game.legal_continuations()[0].notation
        return ""

    play_human("random:0", seed=0, cube=True, ask=ask, say=said.append)
    at = next(i for i, s in enumerate(said) if s.startswith("You are doubled to 2"))
    assert said[at - 2] == "random:0 doubles to 2."
    board = said[at - 1]
    assert "X (to take)" in board and "cube 1 (centred); random:0 doubles to 2" in board
    assert said[-1] == "Game abandoned."


def test_the_persons_roll_is_written_higher_die_first_as_the_opponents_are():
    env = backgammon_v0.raw_env(cube=False, render_mode="ansi")
    env.reset(seed=0, options={"xgid": "XGID=-b----E-C---eE---c-e----B-:0:0:1:25:0:0:0:0:10"})
    assert tuple(env.game.dice) == (2, 5)  # rolled low die first
    assert " dice: 5-2" in board_text(env.game, "pubeval")  # the board as the prompt
    said = _play(env, ["24/18", "13/11 13/8"])
    assert said[0] == "Your move (5-2): "
    assert said[1].startswith("play '24/18' with 5-2 ")


def test_help_and_question_mark_list_the_commands_and_quitting(captured):
    said, answers = [], iter(["help", "?", "quit"])
    play_human("pubeval", seed=3, ask=lambda p: next(answers), say=said.append)
    assert "help for the commands, quit to stop" in said[0]  # said before any prompt
    helps = [s for s in said if s.startswith("Commands:")]
    assert len(helps) == 2 and "hint" in helps[0] and "quit" in helps[0]
    assert "what pubeval would play" in helps[0]
    assert said[-1] == "Game abandoned."


def test_hint_names_the_opponents_choice_and_leaves_the_game_as_it_was(captured):
    said, answers = [], iter(["hint", "quit"])
    play_human("pubeval", seed=3, ask=lambda p: next(answers), say=said.append)
    env = captured["env"]
    hint = next(s for s in said if " would play " in s)
    plays = env.game.legal_continuations()
    expected = load_agent("pubeval").choose_play(plays, env).notation
    assert hint == f"pubeval would play {expected}."
    assert env.game.phase == "move" and not env.game.played  # nothing was played


def test_hint_at_the_cube_says_the_decision():
    said, answers = [], iter(["hint", "quit"])
    play_human("pubeval", seed=4, cube=True, ask=lambda p: next(answers), say=said.append)
    assert "pubeval would roll." in said  # pubeval never doubles


@pytest.mark.parametrize("variant, text, mine", [
    ("standard", "24/13", "1/12"), ("standard", "bar/22* 6/off", "bar/3* 19/off"),
    ("standard", "8/4(2)", "17/21(2)"), ("long_nardy", "24/17", "12/5"),
    ("long_nardy", "10/off", "22/off")])
def test_the_opponents_moves_in_the_persons_numbering(variant, text, mine):
    assert in_persons_numbering(text, variant) == mine
