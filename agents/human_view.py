"""What ``bg-env play`` shows the person: the board, always from the person's side (they
are ``player_0``, ``X``), and what happened since they last acted, in gnubg's notation
(``pubeval rolls 4-3: 24/13``, ``pubeval doubles to 2.``).

What happened is read from the game record (:attr:`Game.events
<bg_env.game.game.Game.events>`): every play ends there with its dice, forced and empty
plays included, so the opponent's turns are all told, even those the engine played alone.
"""

from __future__ import annotations

from bg_env.game.game import Phase
from bg_env.rules.notation import format_play, roll_text
from bg_env.rules.position import render_text
from bg_env.envs.context import standard_view

__all__ = ["PERSON", "board_text", "cube_text", "event_text", "forced_text"]

PERSON = 0
"""The person's side (``player_0``)."""

CUBE_WORDS = {"take": "takes", "drop": "drops (passes)", "beaver": "beavers",
              "bomb": "sets off the bomb"}
"""What is said of the opponent's cube actions (a double: ``doubles to N``)."""


def board_text(game, opponent: str) -> str:
    """The text board from the person's side, with the dice they are playing, the cube,
    a double on offer, the moves played so far this turn and the result once it is over."""
    mine = game.turn == PERSON
    pos = game.position if mine else game.position.swap()
    moving = game.phase == Phase.MOVE and mine
    dice = tuple(game.dice) if moving else None
    extra = [cube_text(game, opponent)]
    if moving and game.played:
        extra.append(" played so far: " + format_play(game.played))
    if game.variant.name != "standard":
        extra.append(f" variant {game.variant.name}" + _bomb_text(game, opponent))
    return render_text(standard_view(pos, game.variant), dice, extra, status=_status(game))


def cube_text(game, opponent: str) -> str:
    """The cube line: its value and owner, and the double on offer (``pubeval doubles to
    2``) while one waits for an answer."""
    owner = game.cube_owner
    whose = "centred" if owner == -1 else "yours" if owner == PERSON else opponent + "'s"
    text = f" cube {game.cube_value} ({whose})"
    if game.phase == Phase.TAKE:
        doubler = "you" if game.turn == PERSON else opponent
        text += f"; {doubler} {'double' if doubler == 'you' else 'doubles'} " \
                f"to {game.pending_cube}"
    elif game.phase == Phase.BEAVER_TAKE:
        beaverer = opponent if game.turn == PERSON else "you"
        text += f"; {beaverer} beaver{'s' if beaverer == opponent else ''} " \
                f"to {game.pending_cube}"
    return text


def event_text(event: tuple, opponent: str) -> str | None:
    """What to say of one entry of the game record, or ``None`` for the person's own
    decisions (they typed them). The opponent's plays: ``pubeval rolls 4-3: 24/13``."""
    kind, side = event[0], event[1]
    if side == PERSON:
        return None
    if kind == "play":
        dice, moves = event[2], event[3]
        return f"{opponent} rolls {roll_text(dice)}: " + (
            format_play(moves) if moves else "cannot move")
    if kind == "double":
        return f"{opponent} doubles to {event[2]}."
    return f"{opponent} {CUBE_WORDS[kind]}."


def forced_text(event: tuple) -> str:
    """What to say of a play of the person's that the engine made alone (every move
    forced, or none possible): ``You roll 6-6: cannot move.``"""
    dice, moves = event[2], event[3]
    return f"You roll {roll_text(dice)}: " + (
        f"{format_play(moves)} (forced)." if moves else "cannot move.")


def _status(game) -> str:
    """The person's word on the board: on roll, to take, winner or loser."""
    if game.phase == Phase.OVER and game.result is not None:
        return "winner" if game.result.winner == PERSON else "loser"
    if game.phase in (Phase.TAKE, Phase.BEAVER_TAKE) and game.actor == PERSON:
        return "to take"
    return "on roll" if game.turn == PERSON else "waiting"


def _bomb_text(game, opponent: str) -> str:
    if not game.variant.bomb:
        return ""
    owner = game.bomb_owner
    return "; bomb " + ("unowned" if owner < 0 else "yours" if owner == PERSON else opponent + "'s")
