"""What ``bg-env play`` shows the person: the board, always from the person's side (they
are ``player_0``, ``X``), and what happened since they last acted, in gnubg's notation
and in the person's numbering, the one the board is labelled in (``pubeval rolls 4-3:
1/12`` is the opponent's 24/13 as the person sees it; ``pubeval doubles to 2.``). Every
roll is written the higher die first (``5-2``), on the board as in the lines.

What happened is read from the game record (:attr:`Game.events
<bg_env.game.game.Game.events>`): every play ends there with its dice, forced and empty
plays included, so the opponent's turns are all told, even those the engine played alone.
"""

from __future__ import annotations

import re

from bg_env.game.game import Phase
from bg_env.rules.notation import format_play, roll_text
from bg_env.rules.position import render_text
from bg_env.rules.variants import get_variant
from bg_env.rules.variants.geometry import opp_index
from bg_env.envs.context import standard_view

__all__ = ["PERSON", "board_text", "cube_text", "event_text", "forced_text", "in_persons_numbering",
           "HELP"]

PERSON = 0
"""The person's side (``player_0``)."""

CUBE_WORDS = {"take": "takes", "drop": "drops (passes)", "beaver": "beavers",
              "bomb": "sets off the bomb"}
"""What is said of the opponent's cube actions (a double: ``doubles to N``)."""


HELP = """Commands:
  a play in Magriel notation, in the board's numbering (you move from 24 down to 1):
      13/7*/5   bar/22   6/off   8/4(2)   (* marks a hit; (2) two checkers)
  hint          what {opponent} would play (or decide) in your place
  help, ?       this list
  quit          give up the game (Ctrl-D too)
Before rolling: Enter (or roll), double{bomb}. When doubled: take or drop.
The opponent's plays are written in your numbering, as the board is labelled."""
"""What ``help`` shows (``{opponent}``, ``{bomb}`` filled in)."""

_POINT = re.compile(r"(^|[ /])(\d{1,2})(?=[/*( ]|$)")
"""A point number in Magriel notation (not a count such as the ``2`` of ``(2)``)."""


def in_persons_numbering(text: str, variant="standard") -> str:
    """Notation written in the opponent's numbering, renumbered to the person's: in the
    backgammon family the opponent's point ``q`` is the person's ``25 - q`` (``24/13`` ->
    ``1/12``); ``bar`` and ``off`` stay.

    >>> in_persons_numbering("24/13 8/4*(2)")
    '1/12 17/21*(2)'
    """
    variant = get_variant(variant)
    return _POINT.sub(lambda m: m.group(1) + str(opp_index(variant, int(m.group(2)))), text)


def board_text(game, opponent: str) -> str:
    """The text board from the person's side, with the dice they are playing, the cube,
    a double on offer, the moves played so far this turn and the result once it is over."""
    mine = game.turn == PERSON
    pos = game.position if mine else game.position.swap()
    moving = game.phase == Phase.MOVE and mine
    dice = tuple(sorted(game.dice, reverse=True)) if moving else None  # as roll_text
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


def event_text(event: tuple, opponent: str, variant="standard") -> str | None:
    """What to say of one entry of the game record, or ``None`` for the person's own
    decisions (they typed them). The opponent's plays, in the person's numbering:
    ``pubeval rolls 4-3: 1/12`` (his 24/13)."""
    kind, side = event[0], event[1]
    if side == PERSON:
        return None
    if kind == "play":
        dice, moves = event[2], event[3]
        return f"{opponent} rolls {roll_text(dice)}: " + (
            in_persons_numbering(format_play(moves), variant) if moves else "cannot move")
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
    """The person's word on the board: on roll, to take, winner, loser or draw."""
    if game.phase == Phase.OVER and game.result is not None:
        if game.result.winner is None:
            return "draw"
        return "winner" if game.result.winner == PERSON else "loser"
    if game.phase in (Phase.TAKE, Phase.BEAVER_TAKE) and game.actor == PERSON:
        return "to take"
    return "on roll" if game.turn == PERSON else "waiting"


def _bomb_text(game, opponent: str) -> str:
    if not game.variant.bomb:
        return ""
    owner = game.bomb_owner
    return "; bomb " + ("unowned" if owner < 0 else "yours" if owner == PERSON else opponent + "'s")
