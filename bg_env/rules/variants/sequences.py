"""Every legal play of a roll under a variant, by brute force over every order of the dice
(``docs/RULES.md`` §2 and §7): the reference generator for all variants.

Run on a standard variant it gives exactly :func:`~bg_env.rules.moves.legal_plays_reference`
(tested), which is what makes it trustworthy for the others.
"""

from __future__ import annotations

from ..moves import Move, Play, dice_to_play
from ..position import Position
from .catalog import get_variant
from .spec import Variant
from .steps import TurnState, start_state, step

__all__ = ["variant_sequences", "legal_plays_variant", "sequences_with_boards"]


def _search(variant: Variant, pos: Position, dice: tuple[int, int]):
    """Every maximal sequence of moves: ``(moves, states)`` with the state after each."""
    found: list[tuple[tuple[Move, ...], tuple[TurnState, ...]]] = []

    def extend(states: tuple[TurnState, ...], remaining: list[int], moves: tuple) -> None:
        st, moved = states[-1], False
        if not st.over:
            for i, die in enumerate(remaining):
                if die in remaining[:i]:
                    continue  # equal dice are interchangeable
                rest = remaining[:i] + remaining[i + 1 :]
                for source in range(25, 0, -1):
                    seen = set()
                    for as_hitter in (False, True):
                        made = step(variant, st, source, die, as_hitter)
                        if made is None or made[0] in seen:
                            continue
                        seen.add(made[0])
                        moved = True
                        extend(states + (made[0],), rest, moves + (Move(source, die, made[1]),))
        if not moved:
            found.append((moves, states))

    extend((start_state(variant, pos, dice),), dice_to_play(dice), ())
    return found


def _most_dice(found, dice: tuple[int, int]):
    """The sequences that use as many dice as possible (a play that ends the game uses
    them all), and the larger die when only one of two different dice can be used."""
    full = len(dice_to_play(dice))

    def used(item) -> int:
        return full if item[1][-1].over else len(item[0])

    most = max(used(s) for s in found)
    kept = [s for s in found if used(s) == most]
    if most == 1 and dice[0] != dice[1]:
        larger = [s for s in kept if s[0][0].die == max(dice)]
        kept = larger or kept
    return kept


def sequences_with_boards(variant: Variant, pos: Position, dice: tuple[int, int]):
    """:func:`variant_sequences` with the board after every move: ``(moves, boards)``,
    ``boards[0]`` the start and ``boards[k]`` the board after ``k`` moves."""
    out, seen_orders = [], set()
    for moves, states in _most_dice(_search(variant, pos, dice), dice):
        key = tuple((m.source, m.die) for m in moves)
        if key not in seen_orders:  # the same moves with another Caucasian hitter: same boards
            seen_orders.add(key)
            out.append((moves, tuple(st.position(variant) for st in states)))
    return out


def variant_sequences(
    variant: "Variant | str", pos: Position, dice: tuple[int, int]
) -> list[tuple[tuple[Move, ...], Position]]:
    """Every legal way to play ``dice`` from ``pos``, as ``(moves, result)`` pairs, by brute
    force over every order of the dice (the slow reference for all variants).

    The same result may appear under several move orders: each order is a way to build
    the play step by step. A play that ends the game (a sudden-death hit, a pinned
    mother) counts as using all its dice. No legal move: one empty sequence.
    """
    found = sequences_with_boards(get_variant(variant), pos, dice)
    return [(moves, boards[-1]) for moves, boards in found]


def legal_plays_variant(
    variant: "Variant | str", pos: Position, dice: tuple[int, int]
) -> list[Play]:
    """Every distinct legal play (one per resulting position) under ``variant``."""
    plays: dict[Position, Play] = {}
    for moves, result in variant_sequences(variant, pos, dice):
        plays.setdefault(result, Play(pos, moves, result))
    return list(plays.values())
