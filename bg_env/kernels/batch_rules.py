"""The variant's columns of the rules array of :mod:`bg_env.kernels.batch` and the rules they
carry for every variant: the start layout, the cap on the kind of win and the nuclear bomb
(``docs/RULES.md`` §7; the truth is :class:`~bg_env.game.game.Game` with
:mod:`bg_env.rules.variants`, which the kernels are tested against in lockstep).

The rules array of :class:`~bg_env.kernels.games.Games` is the cube options (columns
``0..6``, see :mod:`bg_env.kernels.batch`) followed by the columns below, for every variant
(the variants whose moves are not standard also have their turns in
:mod:`bg_env.kernels.batch_variants`; their start comes from here too):

* ``R_BOMB``: 1 when the nuclear bomb is in play.
* ``R_MAX_KIND``: the biggest win the board can give (0 single, 1 gammon, 2 backgammon).
* ``R_START..R_START + 25``: one side's start layout in its own numbering, as
  :meth:`Variant.start_position <bg_env.rules.variants.Variant.start_position>` gives it;
  both sides start alike.
* ``R_NEXT_STARTER``: who starts a match's next game (``Rules.next_starter``: 0 the
  opening roll, 1 the side that did not start the last one, 2 its winner).
"""

from __future__ import annotations

from numba import njit

from ..rules.variants import NEXT_STARTERS, get_variant

__all__ = ["R_BOMB", "R_MAX_KIND", "R_START", "R_NEXT_STARTER", "N_RULES", "variant_columns",
           "next_starter_code", "set_start", "explode_side", "cap_kind"]

R_BOMB, R_MAX_KIND, R_START = 7, 8, 9
R_NEXT_STARTER = R_START + 26
N_RULES = R_NEXT_STARTER + 1
"""Columns of the rules array."""

_KINDS = ("single", "gammon", "backgammon")


def next_starter_code(next_starter: str) -> int:
    """The ``R_NEXT_STARTER`` column of a ``Rules.next_starter`` value."""
    return NEXT_STARTERS.index(next_starter)


def variant_columns(variant) -> list[int]:
    """The columns ``R_BOMB..`` of the rules array for ``variant`` (a name or a Variant)."""
    v = get_variant(variant)
    return [int(v.bomb), _KINDS.index(v.max_kind), *v.start_position().me]


@njit(cache=True)
def set_start(me, opp, rules):
    """Both sides' checkers at the variant's start layout (``rules[R_START:]``)."""
    for p in range(26):
        me[p] = rules[R_START + p]
        opp[p] = rules[R_START + p]


@njit(cache=True)
def explode_side(side):
    """The nuclear bomb on one side: each of its blots (a point 1..24 holding one checker)
    goes to its bar (:func:`bg_env.rules.variants.explode`)."""
    for p in range(1, 25):
        if side[p] == 1:
            side[p] = 0
            side[25] += 1


@njit(cache=True)
def cap_kind(kind, rules):
    """The loser's kind (0 single, 1 gammon, 2 backgammon) capped at the variant's
    ``max_kind``."""
    return min(kind, rules[R_MAX_KIND])
