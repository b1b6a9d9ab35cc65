"""The fixed action layout shared by every variant (the README's "Using it" names it).

``Discrete(N_ACTIONS)``:

* ``0..149`` -- a checker move: ``action = (source - 1) * 6 + (die - 1)``, ``source`` the
  mover's point 1..24 or 25 for the bar; the checker goes to ``source - die``, or off the
  board when that is below 1.
* ``ROLL`` (150) -- do not double; roll the dice.
* ``DOUBLE`` (151) -- offer a double (or redouble) before rolling.
* ``TAKE`` (152) / ``DROP`` (153) -- answer a double.
* ``BEAVER`` (154) -- answer a double by redoubling at once and keeping the cube (an option).
* ``BOMB`` (155) -- set off the nuclear bomb before rolling (the ``nuclear`` variant only).

>>> encode_move(13, 6), decode_move(77), action_to_str(ROLL)
(77, (13, 6), 'roll')
>>> action_to_str(encode_move(25, 3)), action_to_str(encode_move(2, 6))
('bar/22', '2/off')
"""

from __future__ import annotations

__all__ = [
    "N_CHECKER_ACTIONS",
    "ROLL",
    "DOUBLE",
    "TAKE",
    "DROP",
    "BEAVER",
    "BOMB",
    "N_ACTIONS",
    "CUBE_ACTIONS",
    "encode_move",
    "decode_move",
    "action_to_str",
]

N_CHECKER_ACTIONS = 150
"""Checker moves: 25 sources (points 1..24 and the bar) x 6 dice."""
ROLL = 150
DOUBLE = 151
TAKE = 152
DROP = 153
BEAVER = 154
BOMB = 155
N_ACTIONS = 156
"""Size of the one action space used by every variant."""

CUBE_ACTIONS = {ROLL: "roll", DOUBLE: "double", TAKE: "take", DROP: "drop", BEAVER: "beaver", BOMB: "bomb"}


def encode_move(source: int, die: int) -> int:
    """The action index of moving a checker from ``source`` (1..24, 25 = bar) by ``die``."""
    if not (1 <= source <= 25 and 1 <= die <= 6):
        raise ValueError(f"move from {source} with die {die}: source must be 1..25, die 1..6")
    return (source - 1) * 6 + (die - 1)


def decode_move(action: int) -> tuple[int, int]:
    """``(source, die)`` of a checker-move action."""
    if not 0 <= action < N_CHECKER_ACTIONS:
        raise ValueError(f"action {action} is not a checker move (0..{N_CHECKER_ACTIONS - 1})")
    return action // 6 + 1, action % 6 + 1


def action_to_str(action: int) -> str:
    """A readable name: ``13/7``, ``bar/22``, ``6/off`` or ``roll``/``double``/..."""
    action = int(action)
    if action in CUBE_ACTIONS:
        return CUBE_ACTIONS[action]
    source, die = decode_move(action)
    dest = source - die
    return f"{'bar' if source == 25 else source}/{'off' if dest < 1 else dest}"
