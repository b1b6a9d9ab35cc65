"""The context block of an observation: which variant is played, the nuclear bomb, Plakoto
pins, the match score and the rule options.

Appended to the board encoders of :mod:`bg_env.envs.observation` when the env's
``context`` option is on (by default: whenever the variant is not ``standard`` or a match
is played, or a rule option is on), so that one network can play several variants and
matches. Float32, length :data:`CONTEXT_SIZE` = 72, from the observing side (the *actor*):

=======  =====  =============================================================
offset   size   meaning
=======  =====  =============================================================
0        11     variant one-hot, in the order of :data:`VARIANT_ORDER`
11       3      bomb: owned by the actor, owned by the opponent, the actor may
                set it off now (all 0 outside ``nuclear``)
14       24     the actor's pinned checker on his point 1..24 (Plakoto)
38       24     the opponent's pinned checker on the actor's point 1..24
62       1      1 in match play
63       2      points away / 25: actor, opponent (0 in a money game; with the
                ``"compact"`` encoder the block is ``int8``: points away, and the
                match-winning chance below in percent)
65       2      this game is the Crawford game; the match is post-Crawford
67       1      the actor's match-winning chance now (Kazaross-XG2; 0 in money play)
68       4      the rule options on (RULES.md §10), in the order of
                :data:`OPTION_ORDER`: ``no_hit_and_hide``, ``six_block="entered"``,
                ``house_mars``, ``last_roll_draw``
=======  =====  =============================================================

Long Nardy's board: both sides move the same way round, so the opponent's checkers are
drawn (and encoded) on the actor's points through :func:`standard_view`.
"""

from __future__ import annotations

from operator import itemgetter

import numpy as np
from gymnasium import spaces

from ..game.game import Game, Phase
from ..kernels.io import new_position
from ..rules.position import Position
from ..rules.variants import PinnedPosition, Variant, get_variant, opp_index
from .observation import BOARD_SIZE, encode, encode_board

__all__ = ["CONTEXT_SIZE", "MATCH_SLOTS", "OPTION_SLOTS", "OPTION_ORDER", "VARIANT_ORDER",
           "encode_context", "encode_contexts", "observe_game", "match_blocks", "context_space",
           "standard_view"]

VARIANT_ORDER = (
    "standard", "nackgammon", "hypergammon1", "hypergammon2", "hypergammon3", "longgammon",
    "sudden_death", "nuclear", "plakoto", "caucasian", "long_nardy",
)
OPTION_ORDER = ("no_hit_and_hide", "six_block", "house_mars", "last_roll_draw")
"""The rule options of :class:`~bg_env.rules.cube.Rules` the block marks (RULES.md §10)."""
CONTEXT_SIZE = 72
MATCH_SLOTS = slice(62, 68)
"""The match's part of the block (the table above: in match play, points away, Crawford,
match-winning chance), offsets 62..67."""
OPTION_SLOTS = slice(68, 68 + len(OPTION_ORDER))
"""The rule options' part of the block (:data:`OPTION_ORDER`), offsets 68..71."""
_POINTS = np.arange(1, 25, dtype=np.int64)
_FACING = 25 - _POINTS


def standard_view(pos: Position, variant: "Variant | str") -> Position:
    """``pos`` with the opponent's checkers renumbered so that his count on the actor's
    point ``p`` is at index ``25 - p``, as in standard backgammon (what the encoders and
    the text board assume). The identity for every variant but Long Nardy."""
    variant = get_variant(variant)
    if variant.geometry == "opposite":
        return pos
    return new_position(pos.me, _renumbering(variant)(pos.opp))


_RENUMBER: dict = {}


def _renumbering(variant: Variant) -> itemgetter:
    """The opponent's 26 counts renumbered as :func:`standard_view` says (made once per
    variant)."""
    got = _RENUMBER.get(variant.name)
    if got is None or got[0] is not variant:
        index = list(range(26))
        for p in range(1, 25):
            index[25 - p] = opp_index(variant, p)
        got = _RENUMBER[variant.name] = (variant, itemgetter(*index))
    return got[1]


def option_flags(variant: Variant) -> list[int]:
    """The option slots of ``variant``'s block: 1 for each rule option off its default
    (:data:`OPTION_ORDER`)."""
    return [int(name in variant.options) for name in OPTION_ORDER]


def encode_context(game: Game, actor: int, match=None, integer: bool = False) -> np.ndarray:
    """The context block of ``game`` for side ``actor`` (``match``: the
    :class:`~bg_env.game.match.Match` being played, if any). ``integer=True`` gives the
    ``int8`` form that goes with the ``"compact"`` encoder: points away as integers and the
    match-winning chance in percent."""
    out = np.zeros(CONTEXT_SIZE, dtype=np.float32)
    variant = game.variant
    out[VARIANT_ORDER.index(variant.name)] = 1
    out[OPTION_SLOTS] = option_flags(variant)
    if variant.bomb:
        out[11] = game.bomb_owner == actor
        out[12] = game.bomb_owner == 1 - actor
        out[13] = game.phase == Phase.CUBE and game.turn == actor and game.may_bomb()
    pos = game.position
    if isinstance(pos, PinnedPosition):
        mine, theirs = pos.pinned if actor == game.turn else pos.pinned[::-1]
        if mine or theirs:
            out[14:38] = (mine >> _POINTS) & 1  # the actor's point p at 13 + p
            out[38:62] = (theirs >> _FACING) & 1  # the opponent's 25 - p at 37 + p
    if match is not None:
        out[62] = 1
        out[63] = match.away(actor) / 25
        out[64] = match.away(1 - actor) / 25
        out[65] = match.crawford
        out[66] = match.post_crawford
        out[67] = match.equity(actor)
        if integer:
            out[63:65] *= 25
            out[67] = round(out[67] * 100)
    return out.astype(np.int8) if integer else out


def observe_game(game: Game, actor: int, config, match=None) -> np.ndarray:
    """The observation of ``actor`` in ``game`` on the :class:`~bg_env.game.game.Game`
    path: ``config.observation``'s encoding (a Long Nardy board shown as a standard one)
    followed by the context block when ``config.uses_context``."""
    obs = encode(game, actor, config.observation)
    if not config.uses_context:
        return obs
    compact = config.observation == "compact"
    if game.variant.geometry != "opposite" and not compact:  # Long Nardy: the real board
        pos = game.position if actor == game.turn else game.position.swap()
        obs[:BOARD_SIZE] = encode_board(standard_view(pos, game.variant))
    return np.concatenate([obs, encode_context(game, actor, match, integer=compact)])


def context_space(space: spaces.Box) -> spaces.Box:
    """The observation space of an encoder's ``space`` with the context block appended
    (its bounds widened to hold the block: 0..1, or 0..100 for the ``int8`` form)."""
    high = 100 if space.dtype == np.int8 else 1
    return spaces.Box(min(space.low.min(), 0), max(space.high.max(), high),
                      shape=(space.shape[0] + CONTEXT_SIZE,), dtype=space.dtype)


def match_blocks(away: np.ndarray, crawford, post_crawford, equity,
                 integer: bool = False) -> np.ndarray:
    """The match slots (:data:`MATCH_SLOTS`) of many games' context blocks, as
    :func:`encode_context` gives them, in the same float32 steps: ``float32[n, 6]`` (with
    ``integer``, the ``int8`` form's values: points away as integers, the match-winning
    chance in percent).

    Args:
        away: ``(n, 2)`` points away of the observer and his opponent.
        crawford, post_crawford: ``(n,)`` whether each game is the Crawford game, or
            post-Crawford.
        equity: ``(n,)`` the observer's match-winning chance.
    """
    block = np.empty((away.shape[0], 6), dtype=np.float32)
    block[:, 0] = 1
    block[:, 1] = away[:, 0] / 25
    block[:, 2] = away[:, 1] / 25
    block[:, 3] = crawford
    block[:, 4] = post_crawford
    block[:, 5] = equity
    if integer:  # the same float32 steps as encode_context
        block[:, 1:3] *= 25
        block[:, 5] = np.round(block[:, 5] * 100)
    return block


def encode_contexts(out: np.ndarray, variant: "str | Variant" = "standard", away: np.ndarray | None = None,
                    crawford: np.ndarray | None = None, post_crawford: np.ndarray | None = None,
                    equity: np.ndarray | None = None, integer: bool = False) -> None:
    """The context blocks of many games at once into ``out`` (``(n, CONTEXT_SIZE)``): the
    values :func:`encode_context` gives for each game, for games of ``variant`` without a
    bomb or pins (the batched kernels' games; the variants' blocks come with their
    kernels).

    Args:
        out: ``(n, CONTEXT_SIZE)``, float32, or int8 with ``integer=True``.
        variant: the variant every game plays (a name, or a Variant with its rule options:
            :attr:`Rules.variant_spec <bg_env.rules.cube.Rules.variant_spec>`).
        away: ``(n, 2)`` points away of the observer and his opponent, in match play
            (``None``: money games, and the other match arguments are ignored).
        crawford, post_crawford: ``(n,)`` whether each game is the Crawford game, or
            post-Crawford.
        equity: ``(n,)`` the observer's match-winning chance.
        integer: the ``int8`` form of the ``"compact"`` encoder.
    """
    block = np.zeros(out.shape, dtype=np.float32)
    variant = get_variant(variant)
    block[:, VARIANT_ORDER.index(variant.name)] = 1
    block[:, OPTION_SLOTS] = option_flags(variant)
    if away is not None:
        block[:, MATCH_SLOTS] = match_blocks(away, crawford, post_crawford, equity, integer)
    out[:] = block.astype(np.int8) if integer else block
