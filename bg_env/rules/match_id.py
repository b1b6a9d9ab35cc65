"""The match state beside a board: GNU Backgammon Match IDs and eXtreme Gammon XGIDs.

**Match ID** (gnubg manual, "A technical description of the Match ID"; gnubg source
``matchid.c``, ``MatchID``/``MatchFromKey``). A 66-bit key, bit ``k`` stored in bit
``k % 8`` of byte ``k // 8`` (little-endian), 9 bytes written as 12 base64 characters.
Bits, counted from 0 (the manual counts from 1):

====== ===== =================================================================
bits   size  field
====== ===== =================================================================
0-3    4     log2 of the cube value
4-5    2     cube owner: 0 player 0, 1 player 1, 3 centred
6      1     player on roll (or who rolled)
7      1     Crawford game
8-10   3     game state: 0 none, 1 playing, 2 over, 3 resigned, 4 ended by a drop
11     1     turn: the player to make the next decision (the taker after a double)
12     1     a double is offered
13-14  2     resignation offered: 0 none, 1 single, 2 gammon, 3 backgammon
15-20  3+3   dice, 0 = not rolled; gnubg writes the higher die first
21-35  15    match length, 0 = money game
36-65  15+15 score of player 0, score of player 1
66     1     recent gnubg only (``matchid.c`` 1.26, 2013): set when Jacoby is *off*
====== ===== =================================================================

The manual's example: 2-4 in a 9-point match, player 0 owns a 2-cube, player 1 has
rolled 5-2 -> ``QYkqASAAIAAA``. Bit 66 is newer than the manual and is why gnubg's IDs
for money play without Jacoby end in ``E``; :attr:`MatchState.jacoby` is read from and
written to it, so ``jacoby=False`` (the default) writes it and the manual's example
reads back ``jacoby=True`` (what gnubg itself reads). Decoding also applies gnubg's
checks: dice 0..6, scores <= match length, no Crawford game in money play.

**XGID** (eXtreme Gammon; read as gnubg's ``SetXGID`` in ``set.c`` and
``PositionFromXG`` in ``positionid.c`` read it)::

    XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10
         board:cube:cube position:turn:dice:score X:score O:flags:match length:max cube

* board: 26 characters, always from X's side (X at the bottom, moving 24 -> 1).
  Index 0 is O's bar, 1..24 are points 1..24 in X's numbering, 25 is X's bar; ``-`` is
  empty, ``A``..``P`` are 1..16 of X's checkers, ``a``..``p`` of O's. Missing checkers
  are borne off.
* cube: log2 of the cube value (before the double, when one is offered); cube position
  1 X owns, -1 O owns, 0 centred; turn 1 X, -1 O: the player on roll, or who doubled.
* dice: ``00`` not rolled yet, ``D`` a double offered, two digits for a roll; ``B``
  (beavered) and ``R`` (raccooned) are refused, as gnubg refuses them.
* flags: in a match 1 = Crawford game; in money play 1 = Jacoby, +2 = beavers allowed
  (read past: :class:`MatchState` has no beaver rule). Max cube: read past; written 10.

**Conventions.** :class:`MatchState` player 0 is XG's X (bottom) and player 1 is O, so
``score == (score X, score O)``. (gnubg's own ``set xgid`` numbers them the other way
round: X is its player 1.) The :class:`~bg_env.rules.position.Position` that goes with
an XGID is seen from the player on roll, as always: ``me`` is X's checkers when X is on
roll (or doubled), else O's. An XGID holds only a game in play with no resignation
pending, and no Jacoby flag in match play.
"""

from __future__ import annotations

import base64
import re
from dataclasses import dataclass

from .position import BAR, Position

__all__ = ["MatchState", "InvalidMatchIdError", "InvalidXgidError", "to_xgid", "from_xgid",
           "GNUBG_MATCH_JACOBY_FLAG"]


class InvalidMatchIdError(ValueError):
    """A string that is not a GNU Backgammon Match ID of a valid match state."""


class InvalidXgidError(ValueError):
    """A string that is not a valid XGID, or a state an XGID cannot hold."""


_MATCH_ID_FIELDS = (  # name, first bit, size: the layout in the module docstring
    ("cube_log", 0, 4), ("cube_owner", 4, 2), ("player_on_roll", 6, 1), ("crawford", 7, 1),
    ("game_state", 8, 3), ("turn", 11, 1), ("double_offered", 12, 1), ("resigned", 13, 2),
    ("die1", 15, 3), ("die2", 18, 3), ("match_length", 21, 15), ("score0", 36, 15),
    ("score1", 51, 15), ("no_jacoby", 66, 1),
)
_MATCH_ID_BITS = 67

GNUBG_MATCH_JACOBY_FLAG = True
"""The Jacoby flag a match's Match ID carries: GNU Backgammon writes its Jacoby setting
(``fJacoby``, on by default) into every Match ID, matches included, where the rule does not
apply (``matchid.c``: bit 66 is ``!fJacoby``; ``play.c`` applies Jacoby only when
``!nMatchTo``). :meth:`bg_env.game.match.Match.state` writes it so, so that a match's
Match ID is the string gnubg shows for it (ending ``A``, not ``E``)."""

_MAX_SCORE = (1 << 15) - 1
_BASE64 = re.compile(r"[A-Za-z0-9+/]{12}")


@dataclass(frozen=True, slots=True)
class MatchState:
    """Everything a GNU Backgammon Match ID records, with gnubg's player numbering.

    >>> MatchState.from_match_id("QYkqASAAIAAA").score
    (2, 4)
    """

    cube_value: int = 1
    """Value of the cube: a power of two, 1..32768 (before the double while one is offered)."""
    cube_owner: int = -1
    """-1 centred, else the player (0 or 1) who owns the cube."""
    player_on_roll: int = 0
    """The player (0 or 1) on roll, or who rolled the dice shown."""
    crawford: bool = False
    """This game is the Crawford game (match play only)."""
    game_state: int = 1
    """0 no game started, 1 playing, 2 over, 3 ended by resignation, 4 ended by a drop."""
    turn: int = 0
    """The player (0 or 1) to make the next decision: the player on roll, except while a
    double or a resignation awaits the other's answer."""
    double_offered: bool = False
    """A double is offered and awaits take or drop."""
    resigned: int = 0
    """Resignation offered: 0 none, 1 single game, 2 gammon, 3 backgammon."""
    dice: tuple[int, int] = (0, 0)
    """The dice rolled, ``(0, 0)`` when not rolled."""
    match_length: int = 0
    """Points to win the match; 0 is a money game."""
    score: tuple[int, int] = (0, 0)
    """Points won by player 0 and player 1."""
    jacoby: bool = False
    """Jacoby rule in force (gnubg keeps it in bit 66, see the module docstring). In a
    match it means nothing: gnubg writes its setting there too, on by default
    (:data:`GNUBG_MATCH_JACOBY_FLAG`)."""

    def __post_init__(self) -> None:
        for name in ("crawford", "double_offered", "jacoby"):
            object.__setattr__(self, name, bool(getattr(self, name)))
        for name in ("dice", "score"):
            object.__setattr__(self, name, tuple(int(v) for v in getattr(self, name)))
        problem = self._problem()
        if problem:
            raise ValueError(f"invalid match state: {problem}")

    def _problem(self) -> str | None:
        """What makes this state invalid, or ``None``."""
        v = self.cube_value
        if not (isinstance(v, int) and 1 <= v <= 1 << 15 and v & (v - 1) == 0):
            return f"cube value {v!r} is not a power of two from 1 to 32768"
        checks = [
            (self.cube_owner in (-1, 0, 1), f"cube owner {self.cube_owner!r} is not -1, 0 or 1"),
            (self.player_on_roll in (0, 1), f"player on roll {self.player_on_roll!r} not 0 or 1"),
            (self.turn in (0, 1), f"turn {self.turn!r} is not 0 or 1"),
            (self.game_state in range(5), f"game state {self.game_state!r} is not 0..4"),
            (self.resigned in range(4), f"resignation {self.resigned!r} is not 0..3"),
            (len(self.dice) == 2 and (self.dice == (0, 0) or all(1 <= d <= 6 for d in self.dice)),
             f"dice {self.dice!r} are not two dice 1..6 nor (0, 0)"),
            (0 <= self.match_length <= _MAX_SCORE,
             f"match length {self.match_length!r} is not 0..32767"),
            (len(self.score) == 2 and all(0 <= s <= _MAX_SCORE for s in self.score),
             f"score {self.score!r} is not two numbers 0..32767"),
            (not self.match_length or max(self.score) <= self.match_length,
             f"score {self.score!r} exceeds the match length {self.match_length}"),
            (self.match_length or not self.crawford, "no Crawford game in money play"),
        ]
        return next((message for ok, message in checks if not ok), None)

    # ------------------------------------------------------------------ Match ID
    @classmethod
    def from_match_id(cls, match_id: str) -> "MatchState":
        """Decode a GNU Backgammon Match ID (12 base64 characters).

        Raises:
            InvalidMatchIdError: not 12 base64 characters, unused bits set, or fields
                that make no valid state (dice 7, game state 5, cube owner 2, ...).
        """
        if not isinstance(match_id, str) or not _BASE64.fullmatch(match_id):
            raise InvalidMatchIdError(f"Match ID {match_id!r}: expected 12 base64 characters")
        bits = int.from_bytes(base64.b64decode(match_id), "little")
        if bits >> _MATCH_ID_BITS:
            raise InvalidMatchIdError(f"Match ID {match_id!r}: bits past bit 66 are set")
        f = {name: (bits >> start) & ((1 << size) - 1) for name, start, size in _MATCH_ID_FIELDS}
        if f["cube_owner"] == 2:
            raise InvalidMatchIdError(f"Match ID {match_id!r}: cube owner 2 (expected 0, 1 or 3)")
        try:
            return cls(
                cube_value=1 << f["cube_log"],
                cube_owner=-1 if f["cube_owner"] == 3 else f["cube_owner"],
                player_on_roll=f["player_on_roll"], crawford=f["crawford"],
                game_state=f["game_state"], turn=f["turn"], double_offered=f["double_offered"],
                resigned=f["resigned"], dice=(f["die1"], f["die2"]),
                match_length=f["match_length"], score=(f["score0"], f["score1"]),
                jacoby=not f["no_jacoby"],
            )
        except ValueError as exc:
            raise InvalidMatchIdError(f"Match ID {match_id!r}: {exc}") from None

    def match_id(self) -> str:
        """GNU Backgammon's Match ID of this state (the higher die first, as gnubg)."""
        hi, lo = max(self.dice), min(self.dice)
        values = {
            "cube_log": self.cube_value.bit_length() - 1, "cube_owner": self.cube_owner & 3,
            "player_on_roll": self.player_on_roll, "crawford": self.crawford,
            "game_state": self.game_state, "turn": self.turn, "double_offered": self.double_offered,
            "resigned": self.resigned, "die1": hi, "die2": lo, "match_length": self.match_length,
            "score0": self.score[0], "score1": self.score[1], "no_jacoby": not self.jacoby,
        }
        bits = 0
        for name, start, _size in _MATCH_ID_FIELDS:
            bits |= int(values[name]) << start
        return base64.b64encode(bits.to_bytes(9, "little")).decode("ascii")


# ---------------------------------------------------------------------- XGID
_XGID_PREFIX = "XGID="
_INT = re.compile(r"-?[0-9]+")
_MAX_CUBE_WRITTEN = 10


def _xgid_problem(state: MatchState) -> str | None:
    """Why ``state`` cannot be written as an XGID, or ``None``."""
    if state.game_state != 1:
        return f"game state {state.game_state} (an XGID holds a game in play)"
    if state.resigned:
        return "a resignation is pending"
    if state.double_offered:
        if state.dice != (0, 0) or state.turn == state.player_on_roll:
            return "a double is offered but the dice are rolled or the doubler is to answer"
    elif state.turn != state.player_on_roll:
        return "the player to decide is not on roll, with no double offered"
    return None


def to_xgid(position: Position, state: MatchState) -> str:
    """The XGID of ``position`` (seen from the player on roll) in ``state``.

    Raises:
        InvalidXgidError: the state is not one an XGID holds (a game in play, no
            resignation pending, the player to decide on roll unless a double is
            offered), or a point holds more than 16 checkers.
        InvalidPositionError: both sides hold the same point.

    >>> to_xgid(Position.start(), MatchState(dice=(5, 2)))
    'XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10'
    """
    problem = _xgid_problem(state)
    if problem:
        raise InvalidXgidError(f"{state!r} cannot be written as an XGID: {problem}")
    position.validate()
    x, o = (position.me, position.opp) if state.player_on_roll == 0 else (position.opp, position.me)
    counts = [-o[BAR]] + [x[p] or -o[25 - p] for p in range(1, 25)] + [x[BAR]]
    if max(map(abs, counts)) > 16:
        raise InvalidXgidError(f"{position!r}: more than 16 checkers on a point")
    board = "".join(
        chr(ord("A") + n - 1) if n > 0 else chr(ord("a") - n - 1) if n < 0 else "-" for n in counts
    )
    dice = "D" if state.double_offered else "".join(map(str, state.dice))
    flags = int(state.crawford) if state.match_length else int(state.jacoby)
    cube_log = state.cube_value.bit_length() - 1
    fields = [
        board, cube_log, {0: 1, 1: -1, -1: 0}[state.cube_owner], 1 - 2 * state.player_on_roll,
        dice, *state.score, flags, state.match_length, max(_MAX_CUBE_WRITTEN, cube_log),
    ]
    return _XGID_PREFIX + ":".join(map(str, fields))


def _read_board(text: str, board: str, checkers: int) -> tuple[list[int], list[int]]:
    """X's and O's checker arrays (each in its own numbering) from a 26-character board."""
    if len(board) != 26 or not re.fullmatch(r"[-A-Pa-p]+", board):
        raise InvalidXgidError(
            f"XGID {text!r}: the board must be 26 characters of '-', 'A'-'P' or 'a'-'p'"
        )
    if board[0].isupper() or board[25].islower():
        raise InvalidXgidError(f"XGID {text!r}: index 0 is O's bar and 25 is X's bar")
    x, o = [0] * 26, [0] * 26
    for i, ch in enumerate(board):
        if ch.isupper():
            x[i] = ord(ch) - ord("A") + 1
        elif ch.islower():
            o[25 - i] = ord(ch) - ord("a") + 1  # index 0 -> O's bar (25), i -> O's 25 - i
    for name, side in (("X", x), ("O", o)):
        if sum(side) > checkers:
            raise InvalidXgidError(
                f"XGID {text!r}: {name} has {sum(side)} checkers, over {checkers}"
            )
        side[0] = checkers - sum(side)
    return x, o


def from_xgid(xgid: str, checkers: int = 15) -> tuple[Position, MatchState]:
    """Decode an XGID (the ``XGID=`` prefix is optional) into the board, seen from the
    player on roll, and the match state (player 0 = X).

    Raises:
        InvalidXgidError: a missing or malformed field, or values no valid state has.

    >>> pos, state = from_xgid("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10")
    >>> pos == Position.start(), state.player_on_roll, state.dice
    (True, 0, (5, 2))
    """
    if not isinstance(xgid, str):
        raise InvalidXgidError(f"XGID {xgid!r}: expected a string")
    body = xgid.strip()
    body = body[len(_XGID_PREFIX):] if body.startswith(_XGID_PREFIX) else body
    fields = body.split(":")
    if len(fields) != 10:
        raise InvalidXgidError(f"XGID {xgid!r}: expected 10 fields, got {len(fields)}")
    board, dice_text, numbers = fields[0], fields[4], fields[1:4] + fields[5:]
    if not all(_INT.fullmatch(n) for n in numbers):
        raise InvalidXgidError(f"XGID {xgid!r}: fields 2-4 and 6-10 must be integers")
    cube_log, owner, turn, score_x, score_o, flags, length, max_cube = map(int, numbers)
    checks = [
        (0 <= cube_log <= 15, f"cube exponent {cube_log} is not 0..15"),
        (owner in (-1, 0, 1), f"cube position {owner} is not -1, 0 or 1"),
        (turn in (-1, 1), f"turn {turn} is not 1 (X) or -1 (O)"),
        (dice_text not in ("B", "R"), f"dice {dice_text!r}: beavered/raccooned cubes unsupported"),
        (dice_text == "D" or re.fullmatch(r"00|[1-6][1-6]", dice_text),
         f"dice {dice_text!r} are not '00', 'D' or two digits 1-6"),
        (flags in ((0, 1) if length else (0, 1, 2, 3)), f"rule flags {flags} are not valid here"),
        (max_cube >= 0, f"max cube {max_cube} is negative"),
    ]
    for ok, message in checks:
        if not ok:
            raise InvalidXgidError(f"XGID {xgid!r}: {message}")
    x, o = _read_board(xgid, board, checkers)
    on_roll = 0 if turn == 1 else 1
    doubled = dice_text == "D"
    try:
        state = MatchState(
            cube_value=1 << cube_log, cube_owner={1: 0, -1: 1, 0: -1}[owner],
            player_on_roll=on_roll, crawford=bool(length and flags),
            game_state=1, turn=1 - on_roll if doubled else on_roll, double_offered=doubled,
            dice=(0, 0) if doubled else (int(dice_text[0]), int(dice_text[1])),
            match_length=length, score=(score_x, score_o), jacoby=bool(not length and flags & 1),
        )
    except ValueError as exc:
        raise InvalidXgidError(f"XGID {xgid!r}: {exc}") from None
    me, opp = (x, o) if on_roll == 0 else (o, x)
    return Position(tuple(me), tuple(opp)), state
