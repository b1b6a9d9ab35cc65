"""PDN game records of draughts: a game's tags and moves written out, and read back.

Written: the seven tags (``Event``, ``Site``, ``Date``, ``Round``, ``White``, ``Black``,
``Result``), ``GameType`` (PDN's number of the variant: 20 international, 21 English, 22
Italian, 25 Russian, 26 Brazilian, 30 Turkish; the losing game is played with
international moves and written 20), ``Variant`` (bg_env's name, which says
``losing``), ``FEN`` when the game does not start from the variant's start, then the
moves in PDN's numeric notation (``32-28``, ``19x30``; a capture's whole path,
``19x2x11``, where two captures share start and end), numbered by the side that moves
first, and the result: each side's score, white's first (``2-0``, ``1-1``, ``0-2`` in the
10x10 variants, ``1-0``, ``1/2-1/2``, ``0-1`` on 8x8), ``*`` while the game goes on.
Squares are bg_env's numbers in every variant (docs/draughts.md): PDN's own on 10x10,
English and Italian boards.

Read: the tags, then the moves, skipping move numbers, comments (``{...}``) and
variations (``(...)``); every move is checked against the legal moves of its position.
Reading runs nothing from the file.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .board import DraughtsPosition
from .moves import DraughtsMove, apply_move, legal_moves, parse_move
from .variants import get_variant

__all__ = ["PdnGame", "write_pdn", "read_pdn", "GAME_TYPES"]

GAME_TYPES = {"international": 20, "english": 21, "italian": 22, "russian": 25,
              "brazilian": 26, "turkish": 30, "losing": 20}
"""PDN's ``GameType`` of each variant."""
_VARIANT_OF_TYPE = {20: "international", 21: "english", 22: "italian", 25: "russian",
                    26: "brazilian", 30: "turkish"}
SEVEN_TAGS = ("Event", "Site", "Date", "Round", "White", "Black", "Result")


@dataclass
class PdnGame:
    """A game record: its tags, start, moves and result."""

    start: DraughtsPosition
    moves: list[DraughtsMove] = field(default_factory=list)
    result: str = "*"
    """``"2-0"``, ``"1-1"``, ``"0-2"`` (10x10) / ``"1-0"``, ``"1/2-1/2"``, ``"0-1"`` (8x8),
    white's score first; ``"*"`` unfinished."""
    tags: dict[str, str] = field(default_factory=dict)

    def positions(self) -> list[DraughtsPosition]:
        """The position before each move, then the last one."""
        out = [self.start]
        for m in self.moves:
            out.append(apply_move(out[-1], m))
        return out


def result_text(variant, winner: int | None) -> str:
    """The PDN result of a game won by ``winner`` (1 white, -1 black, 0 a draw, ``None``
    unfinished)."""
    if winner is None:
        return "*"
    big = get_variant(variant).size == 10
    if winner == 0:
        return "1-1" if big else "1/2-1/2"
    return ("2-0" if big else "1-0") if winner > 0 else ("0-2" if big else "0-1")


def _written(pos: DraughtsPosition, move: DraughtsMove) -> str:
    """``move`` in PDN: start and end, or its whole path where another legal move shares
    them."""
    same = [m for m in legal_moves(pos) if (m.start, m.end) == (move.start, move.end)]
    return move.long_notation if len(same) > 1 else move.notation


def write_pdn(game: PdnGame) -> str:
    """The PDN text of ``game`` (see the module docstring)."""
    v = game.start.variant
    tags = {t: "?" for t in SEVEN_TAGS}  # (the seven first, in their order)
    tags.update({"GameType": str(GAME_TYPES[v.name]), "Variant": v.name})
    if game.start != DraughtsPosition.start(v):
        tags["FEN"] = game.start.fen()
    tags.update(game.tags)
    tags["Result"] = game.result
    lines = [f'[{k} "{_escaped(val)}"]' for k, val in tags.items()]
    first = 1 if v.first == "white" else -1
    words, pos, number = [], game.start, 1
    for k, move in enumerate(game.moves):
        if pos.turn == first:
            words.append(f"{number}.")
        elif k == 0:
            words.append(f"{number}...")
        words.append(_written(pos, move))
        pos = apply_move(pos, move)
        if pos.turn == first:
            number += 1
    words.append(game.result)
    return "\n".join(lines) + "\n\n" + _wrapped(words) + "\n"


def _escaped(value) -> str:
    return str(value).replace("\\", "\\\\").replace('"', '\\"')


def _wrapped(words: list[str], width: int = 79) -> str:
    lines, line = [], ""
    for w in words:
        if line and len(line) + 1 + len(w) > width:
            lines.append(line)
            line = w
        else:
            line = f"{line} {w}" if line else w
    return "\n".join(lines + [line])


_TAG = re.compile(r'^\[(\w+)\s+"((?:[^"\\]|\\.)*)"\]\s*$')
_RESULTS = ("2-0", "1-1", "0-2", "1-0", "1/2-1/2", "0-1", "0-0", "*")


def read_pdn(text: str) -> PdnGame:
    """The game of a PDN text (its first game).

    Raises:
        ValueError: a tag, variant, FEN or move that does not read, or an illegal move
            (named, with its number in the game).
    """
    tags, body = {}, []
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("[") and not body:
            match = _TAG.match(stripped)
            if match is None:
                raise ValueError(f"PDN tag line {stripped!r} does not read")
            tags[match.group(1)] = re.sub(r"\\(.)", r"\1", match.group(2))
        elif stripped:
            body.append(stripped)
    variant = _variant_of(tags)
    start = (DraughtsPosition.from_fen(tags["FEN"], variant) if "FEN" in tags
             else DraughtsPosition.start(variant))
    game = PdnGame(start, tags=tags)
    pos = start
    for token in _move_tokens(" ".join(body)):
        if token in _RESULTS:
            game.result = token
            break
        try:
            move = parse_move(pos, token)
        except ValueError as exc:
            raise ValueError(f"PDN move {len(game.moves) + 1} {token!r}: {exc}") from None
        game.moves.append(move)
        pos = apply_move(pos, move)
    if game.result == "*":  # (none after the moves: the tag's)
        game.result = tags.get("Result", "*")
    return game


def _variant_of(tags: dict) -> str:
    if "Variant" in tags:
        return get_variant(tags["Variant"]).name
    kind = tags.get("GameType", "20").split(",")[0].strip()
    if not kind.isdigit() or int(kind) not in _VARIANT_OF_TYPE:
        raise ValueError(f"PDN GameType {tags.get('GameType')!r}: bg_env plays "
                         f"{sorted(_VARIANT_OF_TYPE)} ({list(_VARIANT_OF_TYPE.values())})")
    return _VARIANT_OF_TYPE[int(kind)]


def _move_tokens(text: str) -> list[str]:
    """The moves and the result of a PDN game's text: comments, variations, move numbers,
    annotations (``!``, ``?``, ``$n``) left out."""
    while True:
        text, n = re.subn(r"\{[^{}]*\}|\([^()]*\)", " ", text)
        if not n:
            break
    text = re.sub(r"\$\d+", " ", text)
    out = []
    for word in text.split():
        word = re.sub(r"^\d+\.(\.\.)?", "", word).rstrip("!?")
        if word:
            out.append(word)
    return out
