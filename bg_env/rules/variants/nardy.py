"""Long Nardy's own movement rules (``docs/RULES.md`` §7): the head rule, its first-roll
exception and the six-block rule, with the source's alternative (``six_block="entered"``,
§10). (No hitting is a landing rule: see ``steps``.)"""

from __future__ import annotations

from .geometry import opp_index

__all__ = ["HEAD", "head_allowance", "head_closed", "leaves_head", "blocks_illegally"]

HEAD = 24
"""Each side's head: its 24-point, where all its checkers start."""
_FIRST_ROLL_DOUBLES = (6, 4, 3)
"""The first rolls that may take two checkers off the head (seed 003, rule 3.1)."""


def _is_first_roll(variant, pos) -> bool:
    """The side has not moved yet: every checker is still on the head."""
    return pos.me[HEAD] == variant.checkers


def _head_stops_one_checker(variant, pos, die: int) -> bool:
    """Four moves of ``die`` by one checker from the head are stopped, and first by the
    opponent's head (his 24-point, the player's 12-point): the first point on the way that
    holds opposing checkers is that head. An opposing checker met before it (seed 003's
    note: after White's opening 5-5, Black's 4-4 meets White's checker on Black's 16)
    stops the checker too, but then the exception does not apply."""
    point = HEAD
    for _ in range(4):
        point -= die
        if point < 1:
            return False
        q = opp_index(variant, point)
        if pos.opp[q]:
            return q == HEAD
    return False


def head_allowance(variant, pos, dice: tuple[int, int]) -> int:
    """How many checkers may leave the head this turn: one; two on the side's first roll
    when it is 6-6, 4-4 or 3-3 and cannot be played with one checker because the opponent's
    head is in the way. Zero when the Long Nardy rules are off (the count is not read)."""
    if not variant.nardy_rules:
        return 0
    double = dice[0] == dice[1] and dice[0] in _FIRST_ROLL_DOUBLES
    if double and _is_first_roll(variant, pos) and _head_stops_one_checker(variant, pos, dice[0]):
        return 2
    return 1


def head_closed(variant, head_left: int, source: int) -> bool:
    """No more checkers may leave the head this turn."""
    return variant.nardy_rules and source == HEAD and head_left == 0


def leaves_head(variant, source: int) -> int:
    """1 when a move from ``source`` takes a checker off the head, else 0."""
    return int(variant.nardy_rules and source == HEAD)


def _block_allowed(variant, opp: tuple[int, ...], lowest: int) -> bool:
    """A block whose lowest point is the opponent's ``lowest`` may stand: an opposing
    checker is past it (the main rule), or with ``six_block="entered"`` one has entered
    its home board (points 1..6, or borne off)."""
    if variant.six_block == "entered":
        return any(opp[0:7])
    return any(opp[1:lowest])


def blocks_illegally(variant, me: tuple[int, ...], opp: tuple[int, ...]) -> bool:
    """Six or more consecutive points (along the opponent's way round) held by the player
    that may not stand (:func:`_block_allowed`: by the main rule, no opposing checker on
    the board past them)."""
    held = [False] * 25  # by the opponent's numbering 1..24
    for p in range(1, 25):
        if me[p]:
            held[opp_index(variant, p)] = True
    run = 0
    for q in range(24, 0, -1):  # the opponent's way: 24 -> 1
        run = run + 1 if held[q] else 0
        if run >= 6:
            lowest = q
            while lowest > 1 and held[lowest - 1]:
                lowest -= 1
            if not _block_allowed(variant, opp, lowest):
                return True
    return False
