"""A person plays an agent in the terminal (``bg-env play``).

The person is ``player_0`` (X on the text board). Plays are typed in Magriel notation
(``13/7*/5``, ``bar/22``, ``6/off``, ``8/4(2)``); after moves the engine played alone
(forced), either the rest or the whole play; a bad entry prints why and the legal plays. Cube offers are answered by typing ``take``/``drop``; before rolling, ``double``
(``bomb`` in the nuclear variant) or just Enter to roll. ``quit`` (or the end of the
input, Ctrl-D) ends the game. Any rule
variant can be played (``bg-env play --variant plakoto``).
"""

from __future__ import annotations

import sys
from typing import Callable

from bg_env import backgammon_v0
from bg_env.actions import BEAVER, BOMB, DOUBLE, DROP, ROLL, TAKE
from bg_env.core.game import Phase
from bg_env.core.magriel import IllegalMoveError, InvalidNotationError, format_play, match_play
from bg_env.core.moves import Play

from .base import PlayAgent

__all__ = ["HumanAgent", "play_human", "read_play"]


class HumanAgent(PlayAgent):
    """Asks a person (through ``ask``/``say``) for plays and cube decisions."""

    name = "human"

    def __init__(self, ask: Callable[[str], str] = input, say: Callable[[str], None] = print) -> None:
        super().__init__()
        self.ask, self.say = ask, say

    def choose_play(self, plays, env):
        game = env.game
        done = tuple(game.played)
        if len(plays) == 1:
            self.say(f"Forced: {format_play(done + plays[0].moves)}")
            return plays[0]
        if done:
            self.say(f"Forced: {format_play(done)}; enter the rest (or the whole play)")
        while True:
            text = self.ask(f"Your move ({game.dice[0]}-{game.dice[1]}): ").strip()
            if text.lower() in ("quit", "exit", "q"):
                raise KeyboardInterrupt
            try:
                return read_play(game, plays, text)
            except (InvalidNotationError, IllegalMoveError) as exc:
                self.say(str(exc))

    def cube_action(self, env, legal):
        names = {ROLL: "roll", DOUBLE: "double", TAKE: "take", DROP: "drop", BEAVER: "beaver",
                 BOMB: "bomb"}
        choices = {names[a]: a for a in legal}
        prompt = f"Before rolling: [{'/'.join(choices)}] " if ROLL in legal else \
            f"You are doubled to {env.game.pending_cube}. [{'/'.join(choices)}] "
        while True:
            text = self.ask(prompt).strip().lower() or ("roll" if ROLL in legal else "")
            if text in ("quit", "exit", "q"):
                raise KeyboardInterrupt
            if text in choices:
                return choices[text]
            self.say(f"Please type one of: {', '.join(choices)}")


def read_play(game, plays: list[Play], text: str) -> Play:
    """The play among ``plays`` (``game.legal_continuations()``) that ``text`` describes:
    the rest of the turn after the moves already made (forced ones), or the whole play of
    the roll written from the start of the turn.

    Raises:
        InvalidNotationError: ``text`` is not notation.
        IllegalMoveError: it is neither; the message lists what can be entered.
    """
    done = tuple(game.played)
    if not done:
        return match_play(game.position, text, game.dice, plays)
    try:
        return match_play(game.position, text, game.dice, plays)
    except IllegalMoveError:
        pass
    whole = [Play(game.turn_start, done + p.moves, p.result) for p in plays]
    try:
        chosen = match_play(game.turn_start, text, game.dice, whole)
    except IllegalMoveError:
        raise IllegalMoveError(
            f"play {text!r} with {game.dice[0]}-{game.dice[1]} is neither the rest after the "
            f"forced {format_play(done)} nor a whole legal play; the rest can be: "
            + ", ".join(sorted(p.notation for p in plays))) from None
    return next(p for p, w in zip(plays, whole) if w is chosen)


CUBE_WORDS = {DOUBLE: "doubles", TAKE: "takes", DROP: "drops (passes)", BEAVER: "beavers",
              BOMB: "sets off the bomb"}
"""What ``bg-env play`` says when the opponent makes a cube action (rolling says nothing)."""


def play_human(opponent: str, seed: int | None = None, cube: bool = False,
               ask: Callable[[str], str] = input, say: Callable[[str], None] = print,
               variant: str = "standard") -> int:
    """Play one game in the terminal; returns 0."""
    from . import load_agent

    env = backgammon_v0.raw_env(cube=cube, render_mode="ansi", variant=variant)
    env.reset(seed=seed)
    human, bot = HumanAgent(ask, say), load_agent(opponent)
    say(f"You are X (player_0), moving from 24 down to 1. Opponent: {opponent}.")
    last_turn = None
    try:
        while not env.terminations["player_0"]:
            agent = env.agent_selection
            g = env.game
            if agent == "player_0":
                if (g.turns, g.phase) != last_turn:
                    say(env.render() if g.turn == 0 else str(env.position))
                    last_turn = (g.turns, g.phase)
                env.step(human.act(env))
            else:
                before = g.turns
                action = bot.act(env)
                env.step(action)
                if action in CUBE_WORDS:
                    say(f"{opponent} {CUBE_WORDS[action]}.")
                elif g.phase == Phase.OVER or g.turns != before:
                    say(f"{opponent} played: " + (" ".join(str(m) for m in g.last_play) or "no move"))
    except (KeyboardInterrupt, EOFError):  # Ctrl-C, quit, or the end of the input
        say("Game abandoned.")
        return 0
    info = env.infos["player_0"]
    say(env.render())
    who = "You win" if info["winner"] == "player_0" else f"{opponent} wins"
    say(f"{who} {info['points']} point(s) ({info['outcome']}).")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(play_human("random"))
