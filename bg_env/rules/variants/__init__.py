"""Rule variants: start positions, movement rules and scoring (``docs/RULES.md`` §7).

A :class:`Variant` says everything the engine needs to play it: the start layout and the
number of checkers, how the two sides' numberings face each other (``geometry``), what
landing on a lone opposing checker does (``landing``), the opening, and the special rules
(sudden death, the nuclear bomb, the Caucasian rule, the Long Nardy head and block rules,
the Plakoto mother). ``VARIANTS`` holds them by name.

Variants whose checkers move by the standard rules (``standard``, ``nackgammon``,
``hypergammon1..3``, ``longgammon``, ``nuclear``) use the library's fast generators
(:func:`bg_env.rules.moves.legal_plays`, the numba kernels); the game plays the others on
the variant kernels (:mod:`bg_env.kernels.variant_moves`, the rules below compiled, and
:mod:`bg_env.kernels.variant_search`). Here, in pure Python: :func:`play_tree` (``tree``),
the moves of a roll as a graph of boards, searched once per board however reached and
only as far as asked (the ``BG_ENV_PURE_PYTHON`` mode plays by it), and
:func:`variant_sequences`, a plain brute-force search over every order of the dice with
the same rules (``steps``): the reference the tree and the kernels are tested against.

The package, one module per concern, lowest first:

* ``geometry``: how the numberings face each other (:func:`opp_index`);
* ``checks``: what makes a board possible; ``pinned``: the Plakoto board;
* ``scoring``: how a game ends and its kind; ``bomb``: the nuclear bomb (:func:`explode`);
* ``spec``: the :class:`Variant` description; ``catalog``: ``VARIANTS`` by name;
  ``options``: the rule options of the sources (§10) applied to a variant;
* ``plakoto``, ``caucasian``, ``nardy``: each variant's movement rules, one function per
  rule; ``steps``: one checker move under them;
* ``sequences``: every legal play of a roll, by brute force (the reference); ``tree``:
  the same, fast; ``turn``: a roll played move by move on the tree (:class:`VariantTurn`).

The rules as applied here, with the choices the sources leave open, are written out in
``docs/RULES.md`` §7.
"""

from .bomb import explode
from .catalog import VARIANTS, get_variant, variant_outcome
from .options import NEXT_STARTERS, OPTION_DEFAULTS, SIX_BLOCK_RULES, check_options, with_options
from .geometry import opp_index
from .pinned import PinnedPosition
from .sequences import legal_plays_variant, variant_sequences
from .spec import Variant
from .tree import PlayTree, legal_plays_tree, play_tree
from .turn import VariantTurn

__all__ = [
    "Variant",
    "VARIANTS",
    "get_variant",
    "with_options",
    "check_options",
    "OPTION_DEFAULTS",
    "SIX_BLOCK_RULES",
    "NEXT_STARTERS",
    "PinnedPosition",
    "variant_sequences",
    "legal_plays_variant",
    "variant_outcome",
    "opp_index",
    "explode",
    "VariantTurn",
    "PlayTree",
    "play_tree",
    "legal_plays_tree",
]
