"""What a picture or a text board of a game shows, and from whose side.

Every view of a game (the envs' ``render()``, their notebook display) names the **side
to act** the same way: the agent that must decide now (:attr:`Game.actor
<bg_env.game.game.Game.actor>`; the taker while a double waits for an answer). The board
is seen from that side (its checkers are ``X`` on the text board), the Position ID
printed is from that side (what the env's ``position_id()`` returns), its dice are drawn
on its side of the picture, and its name carries what it does now: ``on roll`` (the cube
question or the checker play), ``to take`` (a double or a beaver to answer). When the game
is over the winner is named: ``wins N (outcome)``.

While a double (or a beaver) waits for its answer, both views show the offer: the picture
draws the cube at the offered value on the taker's half of the board, as GNU Backgammon
does, and the text board says ``player_0 doubles to 2`` (``player_1 beavers to 4``).

The picture itself stays drawn from player_0's side (:mod:`bg_env.envs.render`), so the
frames of a game do not flip as the turn passes.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..game.game import Game, Phase
from ..rules.position import Position, render_text
from .context import standard_view

__all__ = ["Frame", "game_frame", "game_text", "match_title", "result_line"]

AGENTS = ("player_0", "player_1")


@dataclass(frozen=True)
class Frame:
    """The labels a view of a game draws (see the module docstring)."""

    side: int
    """The side to act (0 = player_0), or the winner once the game is over."""
    status: str
    """What that side does now: ``"on roll"``, ``"to take"``, ``"wins 2 (gammon)"``."""
    board: Position
    """The board from :attr:`side`'s side, in standard numbering (what is drawn)."""
    position_id: str
    """GNU Backgammon Position ID of the board from :attr:`side`'s side."""
    dice: tuple[int, ...] | None
    """The roll :attr:`side` is playing (``None`` outside checker play)."""
    cube_value: int
    cube_owner: int | None
    """``None`` for a centred cube, 0 when :attr:`side` owns it, 1 when the other does."""
    names: tuple[str, str] = AGENTS
    title: str = ""
    """The picture's top-right text: the match score (``match to 7: 3-5 (Crawford
    game)``), or nothing."""
    offered_value: int = 0
    """The cube value offered to :attr:`side` (who is to take) while a double or a beaver
    waits for his answer; 0 when none waits. :attr:`cube_value` and :attr:`cube_owner`
    stay the cube's until the answer."""
    offer: str = ""
    """The text board's words for that offer: ``"player_0 doubles to 2"``,
    ``"player_1 beavers to 4"``; ``""`` when none waits."""

    @property
    def name(self) -> str:
        """The name of :attr:`side`."""
        return self.names[self.side]

    @property
    def text_status(self) -> str:
        """The text board's word for :attr:`side`: ``on roll``, ``to take``, ``winner``."""
        return "winner" if self.status.startswith("wins") else self.status

    def line(self) -> str:
        """The text board's line naming the side: ``player_1 (X) on roll``."""
        return f" {self.name} (X) {self.status}"

    def image(self, **kwargs) -> np.ndarray:
        """The picture (:func:`~bg_env.envs.render.render_rgb`; ``kwargs``: its
        ``colours``, ``title``, ``width``, ``height``)."""
        from .render import render_rgb

        kwargs.setdefault("title", self.title or None)
        offered = self.offered_value != 0
        return render_rgb(self.board, dice=self.dice,
                          cube_value=self.offered_value if offered else self.cube_value,
                          cube_owner=self.cube_owner, cube_offered=0 if offered else None,
                          flip=self.side == 1, names=self.names, status=self.status,
                          position_id=self.position_id, **kwargs)

    def png(self, **kwargs) -> bytes:
        """:meth:`image` as PNG bytes (a notebook's ``_repr_png_``)."""
        from .render import png_bytes

        return png_bytes(self.image(**kwargs))


def _status(game: Game) -> str:
    """What the side to act does now, or the result once the game is over."""
    if game.phase == Phase.OVER:
        r = game.result
        if r is not None and r.winner is None:
            return "draw"
        return f"wins {r.points} ({r.outcome})" if r is not None else "game over"
    if game.phase in (Phase.TAKE, Phase.BEAVER_TAKE):
        return "to take"
    return "on roll"


def _offer(game: Game, names: tuple[str, str]) -> tuple[int, str]:
    """The cube value offered to the side to act and the text board's words for it, while
    a double (``TAKE``) or a beaver (``BEAVER_TAKE``) waits for his answer; ``(0, "")``
    otherwise. The offer comes from the other side: the doubler, or the beaverer."""
    verb = {Phase.TAKE: "doubles", Phase.BEAVER_TAKE: "beavers"}.get(game.phase)
    if verb is None:
        return 0, ""
    value = game.pending_cube
    return value, f"{names[1 - game.actor]} {verb} to {value}"


def _position_id(pos: Position) -> str:
    try:
        return pos.position_id()
    except Exception:  # a board no Position ID can hold
        return ""


def match_title(match) -> str:
    """A match's length and score (player_0's first) and its Crawford state, as the text
    board and the picture show them; ``""`` for a money game (``match`` None)."""
    if match is None:
        return ""
    return (f"match to {match.length}: {match.score[0]}-{match.score[1]}"
            + (" (Crawford game)" if match.crawford else "")
            + (" (post-Crawford)" if match.post_crawford else ""))


def result_line(result, names) -> str:
    """The text board's line for a finished game: `` NAME wins N (outcome)``, or a draw."""
    if result.winner is None:
        return f" a draw ({result.points} points)"
    return f" {names[result.winner]} wins {result.points} ({result.outcome})"


def game_frame(game: Game, names: tuple[str, str] = AGENTS, match=None) -> Frame:
    """The :class:`Frame` of ``game`` from the side to act (the winner once it is over);
    ``match``: the match it belongs to, for the title. A game without the cube (cube off,
    the Crawford game) draws none."""
    over = game.phase == Phase.OVER and game.result is not None
    side = game.result.winner if over and game.result.winner is not None else game.actor
    board = game.position if side == game.turn else game.position.swap()
    dice = tuple(game.dice) if game.phase == Phase.MOVE and side == game.turn else None
    owner = None if game.cube_owner == -1 else int(game.cube_owner != side)
    offered, offer = _offer(game, tuple(names))
    return Frame(side=side, status=_status(game), board=standard_view(board, game.variant),
                 position_id=_position_id(board), dice=dice or None,
                 cube_value=game.cube_value if game.rules.cube else 0, cube_owner=owner,
                 names=tuple(names), title=match_title(match), offered_value=offered,
                 offer=offer)


def game_text(game: Game, names: tuple[str, str] = AGENTS, match=None) -> str:
    """The text board of ``game`` (the envs' ``"ansi"`` render): the board from the side
    to act, then its dice, phase and cube, the moves played so far this turn, the variant,
    the match and the result."""
    frame = game_frame(game, names)
    owner = "centred" if game.cube_owner == -1 else names[game.cube_owner]
    extra = [f"{frame.line()}; phase {game.phase}; cube {game.cube_value} ({owner})"
             + (f"; {frame.offer}" if frame.offer else "")]
    if game.played:
        extra.append(" played so far: " + " ".join(str(m) for m in game.played))
    if game.variant.name != "standard":
        bomb = "unowned" if game.bomb_owner < 0 else names[game.bomb_owner]
        extra.append(f" variant {game.variant.name}"
                     + (f"; bomb {bomb}" if game.variant.bomb else ""))
    if match is not None:
        extra.append(" " + match_title(match))
    if game.result:
        extra.append(result_line(game.result, names))
    return render_text(frame.board, frame.dice, extra, status=frame.text_status)
