"""Every legal play of a roll under a variant, fast: the moves of the roll as a graph of
positions (``docs/RULES.md`` §2 and §7), in pure Python. The game plays the variants on
the numba kernels of :mod:`bg_env.kernels.variant_search` (the same search over the rules
compiled); this tree serves the ``BG_ENV_PURE_PYTHON`` mode and the pure-Python API
(:func:`legal_plays_tree`). :mod:`.sequences` (every order of the dice, by brute force)
stays as the reference both are tested against.

The rules are the same functions: one checker move is :func:`~.steps.step`. Only the
search differs. A node is a board in the middle of the turn with what the turn remembers
(:class:`~.steps.TurnState`) and the dice still to play; the same node reached by
another order of the moves (two checkers moved in turn, the same die twice) is searched
once. Each node knows how many dice can still be used from it (``best``; a node where the
game has ended counts as using them all), so the legal moves from a node are those to a
child that keeps every die usable: the plays that use the most dice (RULES.md §2), with
the larger-die rule applied at the root. Trees are cached per (variant, board, dice).
"""

from __future__ import annotations

from functools import lru_cache

from ..board import BAR
from ..moves import Move, Play, dice_to_play
from ..position import Position
from .catalog import VARIANTS, get_variant
from .spec import Variant
from .steps import TurnState, start_state, step

__all__ = ["PlayTree", "play_tree", "legal_plays_tree", "finish_plays"]

_MOVES = {(s, d, h): Move(s, d, h) for s in range(1, 26) for d in range(1, 7) for h in (False, True)}
"""Every Move, shared (Move is immutable)."""


class _Node:
    """A board in the middle of a turn plus the dice still to play. Its moves, how many
    dice can be used from it and its legal moves are found when first asked for."""

    __slots__ = ("state", "dice", "_memo", "_edges", "_more", "_reach", "_legal", "_longest",
                 "_board")

    def __init__(self, state: TurnState, dice: tuple[int, ...], memo: dict):
        self.state = state
        self.dice = dice
        self._memo = memo
        """The tree's nodes by ``(state, dice)``: one node per board reached, however."""
        self._edges: list[tuple[Move, _Node]] = []
        self._more = None
        """The moves not yet generated (a generator), ``None`` before the first is asked
        for, ``()`` once all are known."""
        self._reach: dict[int, bool] = {}
        self._legal = None
        self._longest = None
        self._board = None

    def board(self, variant: Variant) -> Position:
        """The board (a :class:`Position`; made once)."""
        if self._board is None:
            self._board = self.state.position(variant)
        return self._board

    def edges(self, variant: Variant) -> list[tuple[Move, "_Node"]]:
        """Every single move from here, one per (move, next node)."""
        for _ in self.iter_edges(variant):
            pass
        return self._edges

    def iter_edges(self, variant: Variant):
        """The single moves from here, generated only as far as they are read."""
        i = 0
        while True:
            if i < len(self._edges):
                yield self._edges[i]
                i += 1
                continue
            if self._more is None:
                self._more = _expand(variant, self)
            edge = next(self._more, None) if self._more != () else None
            if edge is None:
                self._more = ()
                return
            self._edges.append(edge)

    def reach(self, variant: Variant, k: int) -> bool:
        """``k`` more dice can be used from here (a game that has ended uses them all)."""
        if k == 0 or self.state.over:
            return True
        got = self._reach.get(k)
        if got is None:
            got = self._reach[k] = any(
                c.reach(variant, k - 1) for _, c in self.iter_edges(variant)
            )
        return got

    def best(self, variant: Variant) -> int:
        """The most dice usable from here."""
        return next((k for k in range(len(self.dice), 0, -1) if self.reach(variant, k)), 0)

    def legal(self, variant: Variant) -> list[tuple[Move, "_Node"]]:
        """The moves that keep the most dice usable (asked of nodes on a legal play)."""
        if self._legal is None:
            best = self.best(variant)
            self._legal = [e for e in self.edges(variant) if best and e[1].reach(variant, best - 1)]
        return self._legal

    def longest(self, variant: Variant, edges=None) -> int:
        """The most moves along the legal moves (``edges``, or :meth:`legal`) from here."""
        if edges is None and self._longest is not None:
            return self._longest
        most, top = 0, len(self.dice)
        for _, child in self.legal(variant) if edges is None else edges:
            most = max(most, 1 + child.longest(variant))
            if most == top:
                break  # no play is longer than the dice
        if edges is None:
            self._longest = most
        return most


def _movers(st: TurnState):
    """``(source, as_hitter)`` for every occupied point, highest first (what
    :func:`step` may move; the rest it would refuse at once)."""
    me, hitters = st.me, st.hitters
    for source in range(BAR, 0, -1):
        if me[source]:
            if not hitters or me[source] > hitters[source]:
                yield source, False
            if hitters and hitters[source]:
                yield source, True


def _expand(variant: Variant, node: _Node):
    """Every single move from ``node``, each to the tree's node of the board it makes
    (a generator)."""
    st, dice, memo = node.state, node.dice, node._memo
    if st.over:
        return
    tried = set()
    for i, die in enumerate(dice):
        if die in dice[:i]:
            continue  # equal dice are interchangeable
        rest = dice[:i] + dice[i + 1 :]
        for source, as_hitter in _movers(st):
            made = step(variant, st, source, die, as_hitter)
            if made is None:
                continue
            key = (made[0], rest)
            child = memo.get(key)
            if child is None:
                child = memo[key] = _Node(made[0], rest, memo)
            if (source, die, id(child)) not in tried:
                tried.add((source, die, id(child)))
                yield _MOVES[source, die, made[1]], child


def _larger_die_only(variant: Variant, root: _Node, dice: tuple[int, int]) -> list:
    """The root's legal edges under the larger-die rule: when only one die of two
    different ones can be used, the larger must be if it can (RULES.md §2)."""
    legal = root.legal(variant)
    if dice[0] == dice[1] or root.best(variant) != 1:
        return legal
    larger = [e for e in legal if e[0].die == max(dice)]
    return larger or legal


class PlayTree:
    """Every legal play of ``dice`` from ``pos`` under ``variant``, as a graph of nodes.

    ``root_moves`` are the legal first moves with their nodes; from any node reached by
    legal moves, ``node.legal(variant)`` are the legal next ones. Nodes are searched
    only as far as asked (whether a move keeps every die usable stops at the first play
    that shows it).
    """

    def __init__(self, variant: Variant, pos: Position, dice: tuple[int, int]):
        self.variant = variant
        self.start = pos
        left = tuple(dice_to_play(dice))
        self.root = _Node(start_state(variant, pos, dice), left, {})
        self.root_moves = _larger_die_only(variant, self.root, dice)
        self.longest = self.root.longest(variant, self.root_moves)

    def plays(self) -> list[Play]:
        """Every distinct legal play, one per resulting board (for each, the first
        move order found, bar and high points first)."""
        return finish_plays(self.variant, self.start, [(self.root, self.root_moves)])


def finish_plays(variant: Variant, current: Position, frontier) -> list[Play]:
    """Every distinct way to finish from the ``(node, legal edges)`` of ``frontier``,
    one :class:`Play` per resulting board, starting at ``current``."""
    memo: dict[int, dict[Position, tuple[Move, ...]]] = {}

    def ends(node: _Node, edges) -> dict[Position, tuple[Move, ...]]:
        """The boards the legal moves from ``node`` can end on, with a way to each."""
        out = memo.get((id(node), id(edges)))
        if out is not None:
            return out
        out = memo[id(node), id(edges)] = {}
        if not edges:
            out[node.board(variant)] = ()
        for move, child in edges:
            for board, moves in ends(child, child.legal(variant)).items():
                out.setdefault(board, (move,) + moves)
        return out

    found: dict[Position, tuple[Move, ...]] = {}
    for node, edges in frontier:
        for board, moves in ends(node, edges).items():
            found.setdefault(board, moves)
    return [Play(current, moves, result) for result, moves in found.items()]


@lru_cache(maxsize=4096)
def _cached_tree(name: str, pos: Position, dice: tuple[int, int]) -> PlayTree:
    return PlayTree(VARIANTS[name], pos, dice)


def play_tree(variant: "Variant | str", pos: Position, dice: tuple[int, int]) -> PlayTree:
    """The :class:`PlayTree` of ``dice`` from ``pos`` (cached for the variants of
    ``VARIANTS``; trees are never changed once built)."""
    dice = (int(dice[0]), int(dice[1]))
    dice_to_play(dice)  # raises ValueError for dice out of 1..6
    variant = get_variant(variant)
    if VARIANTS.get(variant.name) is variant:
        return _cached_tree(variant.name, pos, dice)
    return PlayTree(variant, pos, dice)


def legal_plays_tree(variant: "Variant | str", pos: Position, dice: tuple[int, int]) -> list[Play]:
    """Every distinct legal play (one per resulting board) under ``variant``: the same
    set as :func:`~.sequences.legal_plays_variant`, from the tree."""
    return play_tree(variant, pos, dice).plays()
