"""The variants' rules in the kernels of :mod:`bg_env.core.batch`: the columns of the rules
array that describe a variant, the start layout, the nuclear bomb and the variant's cap on
the kind of win (``docs/RULES.md`` §7; the truth is :class:`~bg_env.core.game.Game` with
:mod:`bg_env.core.variants`, which the kernels are tested against in lockstep).

The rules array of :class:`~bg_env.core.batch.Games` is the cube options (columns
``0..6``, see :mod:`bg_env.core.batch`) followed by the columns below:

* ``R_KIND``: how checkers move, the batch kernels' dispatch: :data:`K_STANDARD`
  (standard moves: standard, nackgammon, hypergammon1..3, longgammon, nuclear) or
  :data:`K_FIRST_HIT` (sudden death: a hit ends the play and the game,
  :mod:`bg_env.core.sudden_death_kernels`) or :data:`K_TURN` (the variants whose moves
  are not standard: Plakoto, Caucasian, Long Nardy, one turn per row searched by
  :mod:`bg_env.core.variant_rows`).
* ``R_BOMB``: 1 when the nuclear bomb is in play.
* ``R_MAX_KIND``: the biggest win the board can give (0 single, 1 gammon, 2 backgammon).
* ``R_START..R_START + 25``: one side's start layout in its own numbering (index 0 = the
  checkers that start borne off, as in :meth:`Variant.start_position
  <bg_env.core.variants.Variant.start_position>`); both sides start alike.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .variants import get_variant

__all__ = ["R_KIND", "R_BOMB", "R_MAX_KIND", "R_START", "N_RULES", "K_STANDARD", "K_FIRST_HIT",
           "K_TURN",
           "variant_columns", "kernel_kind", "set_start", "explode_side", "cap_kind"]

R_KIND, R_BOMB, R_MAX_KIND, R_START = 7, 8, 9, 10
N_RULES = R_START + 26
"""Columns of the rules array."""

K_STANDARD, K_FIRST_HIT, K_TURN = 0, 1, 2
"""The values of ``R_KIND``."""

_KINDS = ("single", "gammon", "backgammon")


def kernel_kind(variant) -> int:
    """The ``R_KIND`` of ``variant`` (a name or a Variant)."""
    v = get_variant(variant)
    if v.standard_moves:
        return K_STANDARD
    plain = (v.geometry == "opposite" and v.landing == "hit" and not v.no_hit_and_hide
             and not v.nardy_rules)
    if plain and v.first_hit_wins:
        return K_FIRST_HIT
    return K_TURN


def variant_columns(variant) -> list[int]:
    """The columns ``R_KIND..`` of the rules array for ``variant``."""
    v = get_variant(variant)
    start = list(v.start_position().me)
    return [kernel_kind(v), int(v.bomb), _KINDS.index(v.max_kind)] + start


@njit(cache=True)
def set_start(me, opp, rules):
    """Both sides' checkers at the variant's start layout (``rules[R_START:]``)."""
    for p in range(26):
        me[p] = rules[R_START + p]
        opp[p] = rules[R_START + p]


@njit(cache=True)
def explode_side(side):
    """The nuclear bomb on one side: each of its blots (a point 1..24 holding one checker)
    goes to its bar (:func:`bg_env.core.variants.explode`)."""
    for p in range(1, 25):
        if side[p] == 1:
            side[p] = 0
            side[25] += 1


@njit(cache=True)
def cap_kind(kind, rules):
    """The loser's kind (0 single, 1 gammon, 2 backgammon) capped at the variant's
    ``max_kind``."""
    return min(kind, rules[R_MAX_KIND])
