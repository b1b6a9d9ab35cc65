"""A person plays an agent in the terminal (``bg-env play``).

The person is ``player_0`` (X on the text board). Plays are typed in Magriel notation
(``13/7*/5``, ``bar/22``, ``6/off``, ``8/4(2)``); after moves the engine played alone
(forced), either the rest or the whole play; a bad entry prints why and the legal plays.
Cube offers are answered by typing ``take``/``drop``; before rolling, ``double`` (``bomb``
in the nuclear variant) or just Enter to roll. ``hint`` asks the opponent agent what it
would do in the person's place, ``help`` (or ``?``) lists the commands, ``quit`` (or the
end of the input, Ctrl-D) ends the game. The board is always drawn from the person's side,
and the opponent's turns are told with their rolls in the person's numbering
(``pubeval rolls 4-3: 1/12``; see :mod:`agents.play.human_view`).
Any rule variant can be played (``bg-env play --variant plakoto``).
"""

from __future__ import annotations

import sys
from collections.abc import Callable

from bg_env import backgammon_v0
from bg_env.actions import CUBE_ACTIONS, ROLL
from bg_env.game.game import Phase
from bg_env.rules.magriel import (IllegalMoveError, InvalidNotationError, format_play, match_play,
                                 roll_text)
from bg_env.rules.moves import Play

from ..players.base import PlayAgent
from .human_view import HELP, PERSON, board_text, event_text, forced_text

__all__ = ["HumanAgent", "play_human", "read_play"]


QUIT = ("quit", "exit", "q")
HELP_WORDS = ("help", "?", "h")


class HumanAgent(PlayAgent):
    """Asks a person (through ``ask``/``say``) for plays and cube decisions; ``adviser``
    (an agent, the opponent in ``bg-env play``) answers ``hint``."""

    name = "human"

    def __init__(self, ask: Callable[[str], str] = input,
                 say: Callable[[str], None] = print, adviser=None,
                 adviser_name: str = "the opponent") -> None:
        super().__init__()
        self.ask, self.say = ask, say
        self.adviser, self.adviser_name = adviser, adviser_name

    def _common(self, text: str, env) -> bool:
        """Handle ``quit``, ``help`` and ``hint``; whether ``text`` was one of them."""
        if text in QUIT:
            raise KeyboardInterrupt
        if text in HELP_WORDS:
            bomb = ", or bomb" if env.game.variant.bomb else ""
            self.say(HELP.format(opponent=self.adviser_name, bomb=bomb))
            return True
        if text == "hint":
            self.say(self._hint(env))
            return True
        return False

    def _hint(self, env) -> str:
        if self.adviser is None:
            return "No hint: no agent to ask."
        game = env.game
        if game.phase == Phase.MOVE:
            plays = game.legal_continuations()
            chosen = self.adviser.choose_play(plays, env)
            whole = format_play(tuple(game.played) + chosen.moves)
            return f"{self.adviser_name} would play {whole}."
        return f"{self.adviser_name} would {CUBE_ACTIONS[int(self.adviser.act(env))]}."

    def choose_play(self, plays, env):
        game = env.game
        done = tuple(game.played)
        if len(plays) == 1:
            self.say(f"Forced: {format_play(done + plays[0].moves)}")
            return plays[0]
        if done:
            self.say(f"Forced: {format_play(done)}; enter the rest (or the whole play)")
        while True:
            text = self.ask(f"Your move ({roll_text(game.dice)}): ").strip()
            if self._common(text.lower(), env):
                continue
            if not text:
                self.say(f"Type a play such as {plays[0].notation} (or help, or quit).")
                continue
            try:
                return read_play(game, plays, text)
            except (InvalidNotationError, IllegalMoveError) as exc:
                self.say(str(exc))

    def cube_action(self, env, legal):
        choices = {CUBE_ACTIONS[a]: a for a in legal}
        prompt = f"Before rolling: [{'/'.join(choices)}] " if ROLL in legal else \
            f"You are doubled to {env.game.pending_cube}. [{'/'.join(choices)}] "
        while True:
            text = self.ask(prompt).strip().lower() or ("roll" if ROLL in legal else "")
            if self._common(text, env):
                continue
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
    try:
        return match_play(game.position, text, game.dice, plays)
    except IllegalMoveError:
        if not done:
            raise
    whole = [Play(game.turn_start, done + p.moves, p.result) for p in plays]
    try:
        chosen = match_play(game.turn_start, text, game.dice, whole)
    except IllegalMoveError:
        raise IllegalMoveError(
            f"play {text!r} with {roll_text(game.dice)} is neither the rest after the "
            f"forced {format_play(done)} nor a whole legal play; the rest can be: "
            + ", ".join(sorted(p.notation for p in plays))) from None
    return next(p for p, w in zip(plays, whole) if w is chosen)


def play_human(opponent: str, seed: int | None = None, cube: bool = False,
               ask: Callable[[str], str] = input, say: Callable[[str], None] = print,
               variant: str = "standard") -> int:
    """Play one game in the terminal; returns 0."""
    from .. import load_agent

    env = backgammon_v0.raw_env(cube=cube, render_mode="ansi", variant=variant)
    env.reset(seed=seed)
    env.game.events = []  # the record tells the opponent's turns (human_view)
    bot = load_agent(opponent)
    human = HumanAgent(ask, say, adviser=bot, adviser_name=opponent)
    say(f"You are X (player_0), moving from 24 down to 1. Opponent: {opponent}. "
        "Type help for the commands, quit to stop.")
    try:
        _play_out(env, human, bot, opponent, say)
    except (KeyboardInterrupt, EOFError):  # Ctrl-C, quit, or the end of the input
        say("Game abandoned.")
        return 0
    info = env.infos["player_0"]
    say(board_text(env.game, opponent))
    who = "You win" if info["winner"] == "player_0" else f"{opponent} wins"
    say(f"{who} {info['points']} point(s) ({info['outcome']}).")
    return 0


def _play_out(env, human: HumanAgent, bot, opponent: str, say) -> None:
    """Step the game to its end: the person's turns asked, the opponent's told."""
    last_turn, asked = None, False
    while not env.terminations["player_0"]:
        g = env.game
        if env.agent_selection == "player_0":
            if (g.turns, g.phase) != last_turn:
                say(board_text(g, opponent))
                last_turn = (g.turns, g.phase)
            asked = asked or g.phase == Phase.MOVE
            env.step(human.act(env))
        else:
            env.step(bot.act(env))
        asked = _tell(g, opponent, say, asked)


def _tell(game, opponent: str, say, asked: bool) -> bool:
    """Say what the record gained (then forget it); returns whether the person's current
    play was asked for (a play of theirs the engine made alone is told as forced)."""
    for event in game.events:
        if event[0] == "play" and event[1] == PERSON:
            if not asked:
                say(forced_text(event))
            asked = False
        elif (text := event_text(event, opponent, game.variant)) is not None:
            say(text)
    game.events.clear()
    return asked


if __name__ == "__main__":  # pragma: no cover
    sys.exit(play_human("random"))
