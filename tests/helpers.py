"""Shared test helpers: a one-line position builder and a seeded random-position generator.

``pos`` reads a position in one line, from the side of the player on roll (``x``)::

    pos("x bar:1 13:5 8:3 6:6; o 19:2")

* ``x`` lists the player on roll's checkers, ``o`` the opponent's, each as ``point:count``
  (``point:1`` may be written ``point``).
* **Every point is in x's numbering**, for both sides (as wildbg's ``pos!`` macro):
  x moves 24 -> 1 and his home board is 1..6; ``o 19:2`` is two opposing checkers on
  x's 19-point (the opponent's own 6-point), i.e. inside the home board x enters into.
* ``bar:n`` is that side's bar (x enters from it onto his points 19..24, o onto x's
  points 1..6).
* Each side's checkers that are not listed are borne off (15 per side by default).
* A side may be empty (``"x 1:1; o"``): all its checkers are off.

``random_position(rng, phase)`` draws a legal board (no point shared) for one of
``PHASES``; ``random_cases(n, seed)`` yields ``(phase, position, dice)`` covering every
phase, also positions reached by random playouts from the start. Both are deterministic
for a seed, so a failure can be replayed from its Position ID, which every test prints
together with the rendered board (``str(position)``).
"""

from __future__ import annotations

import random
import re
from typing import Iterator

import numpy as np

from bg_env.rules import BAR, Position, legal_plays
from bg_env.game.game import Game

__all__ = [
    "SplitMix",
    "RecordingGame",
    "pos",
    "show",
    "PHASES",
    "random_position",
    "random_cases",
    "random_dice",
    "playout_positions",
]

_SIDE = re.compile(r"^\s*([xo])\b(.*)$", re.IGNORECASE)
_ITEM = re.compile(r"^(bar|\d{1,2})(?::(\d{1,2}))?$", re.IGNORECASE)


def _read_side(text: str) -> dict[int, int]:
    """``"bar:1 13:5 8"`` -> ``{25: 1, 13: 5, 8: 1}`` (x's numbering, 25 = bar)."""
    layout: dict[int, int] = {}
    for item in text.replace(",", " ").split():
        m = _ITEM.match(item)
        if not m:
            raise ValueError(f"cannot read {item!r}: write 'point:count' or 'bar:count'")
        point = BAR if m.group(1).lower() == "bar" else int(m.group(1))
        if not 1 <= point <= 25:
            raise ValueError(f"point {point} is not 1..24 or bar")
        layout[point] = layout.get(point, 0) + int(m.group(2) or 1)
    return layout


def pos(text: str, checkers: int = 15) -> Position:
    """A position from one line ``"x <checkers>; o <checkers>"``, every point in the
    numbering of x (the player on roll); see the module docstring.

    >>> pos("x bar:1 13:5 8:3 6:6; o 19:2").opp[6]  # x's 19 is o's own 6-point
    2
    >>> pos("x 1:2; o bar:1 24").opp[25], pos("x 1:2; o bar:1 24").opp[1]
    (1, 1)
    """
    sides: dict[str, dict[int, int]] = {"x": {}, "o": {}}
    for part in text.split(";"):
        if not part.strip():
            continue
        m = _SIDE.match(part)
        if not m:
            raise ValueError(f"cannot read {part!r}: each part starts with 'x' or 'o'")
        sides[m.group(1).lower()] = _read_side(m.group(2))
    opp = {(BAR if p == BAR else 25 - p): n for p, n in sides["o"].items()}
    return Position.from_layout(sides["x"], opp, checkers=checkers)


def show(position: Position, dice: tuple[int, int] | None = None, *lines: str) -> str:
    """The rendered board (and dice, extra lines) for an assertion message."""
    text = "\n" + str(position)
    if dice:
        text += f"\n dice: {dice[0]}-{dice[1]}"
    return text + "".join("\n " + line for line in lines)


# ----------------------------------------------------------------- random positions
PHASES = (
    "contact",  # checkers anywhere, both sides, blots and points
    "bar",  # x has 1..4 checkers on the bar, 1..4 points of o's home board (x's 19..24) made
    "closed",  # x on the bar against a 4-, 5- or 6-point (closed) board
    "bearoff",  # x all home with some off, o anywhere
    "bearoff_hit",  # x bearing off with o's checkers (blots) in x's home or on o's bar,
    #                 or x hit during bear-off (on the bar with checkers off)
    "race",  # no contact left
    "playout",  # reached by random legal play from the start
)


def _scatter(rng: random.Random, n: int, points: list[int], taken: set[int], into: dict[int, int],
             stack: float = 0.5) -> None:
    """Drop ``n`` checkers on ``points`` avoiding ``taken``; with probability ``stack``
    a checker joins a point already used."""
    free = [p for p in points if p not in taken]
    for _ in range(n):
        used = [p for p in into if p in points]
        if used and (rng.random() < stack or not free):
            p = rng.choice(used)
        elif free:
            p = rng.choice(free)
        else:  # nowhere left: put it on the lowest allowed point used by nobody else
            p = rng.choice(used) if used else points[0]
        into[p] = into.get(p, 0) + 1
        if p in free:
            free.remove(p)


def _build(x: dict[int, int], o: dict[int, int]) -> Position:
    """Both layouts in x's numbering (25 = bar); the rest of each side is off."""
    opp = {(BAR if p == BAR else 25 - p): n for p, n in o.items() if n}
    return Position.from_layout({p: n for p, n in x.items() if n}, opp)


def _contact(rng: random.Random) -> Position:
    x: dict[int, int] = {}
    o: dict[int, int] = {}
    _scatter(rng, 15 - rng.choice([0, 0, 0, 1, 3]), list(range(1, 25)), set(), x)
    _scatter(rng, 15 - rng.choice([0, 0, 0, 2]), list(range(1, 25)), set(x), o)
    if rng.random() < 0.2:
        x[BAR] = rng.randint(1, 2)
        _trim(x, x[BAR], rng)
    if rng.random() < 0.2:
        o[BAR] = rng.randint(1, 2)
        _trim(o, o[BAR], rng)
    return _build(x, o)


def _trim(side: dict[int, int], n: int, rng: random.Random) -> None:
    """Take ``n`` checkers off the board points of ``side`` (they moved to the bar)."""
    for _ in range(n):
        points = [p for p, c in side.items() if c and p != BAR]
        if not points:
            return
        p = rng.choice(points)
        side[p] -= 1


def _home_board(rng: random.Random, made: int) -> dict[int, int]:
    """o's checkers with ``made`` points (two or more) on x's 19..24 and the rest spread
    over x's 7..18 (o's outer board and beyond)."""
    o: dict[int, int] = {}
    for p in rng.sample(range(19, 25), made):
        o[p] = 2 if made >= 5 else rng.randint(2, 3)
    left = 15 - sum(o.values())
    if rng.random() < 0.5:  # a blot or two in the home board
        for p in [q for q in range(19, 25) if q not in o][: rng.randint(0, 2)]:
            if left:
                o[p], left = 1, left - 1
    _scatter(rng, max(0, left - rng.randint(0, 2)), list(range(7, 19)), set(), o, stack=0.7)
    return o


def _bar(rng: random.Random, made: int | None = None) -> Position:
    made = rng.randint(1, 4) if made is None else made
    o = _home_board(rng, made)
    x: dict[int, int] = {BAR: rng.choice([1, 1, 2, 2, 3, 4])}
    free_for_x = [p for p in range(1, 25) if p not in o]
    _scatter(rng, 15 - x[BAR] - rng.randint(0, 2), free_for_x, set(), x)
    return _build(x, o)


def _closed(rng: random.Random) -> Position:
    return _bar(rng, made=rng.choice([4, 5, 5, 6]))


def _bearoff(rng: random.Random, hit: bool = False) -> Position:
    x: dict[int, int] = {}
    on_board = rng.randint(1, 14)
    _scatter(rng, on_board, list(range(1, 7)), set(), x, stack=0.6)
    o: dict[int, int] = {}
    if hit:
        # o's checkers inside x's home board: blots x may hit, points x must avoid
        blots = [p for p in range(1, 7) if p not in x]
        rng.shuffle(blots)
        for p in blots[: rng.randint(1, 3)]:
            o[p] = rng.choice([1, 1, 1, 2])
        if rng.random() < 0.3:
            o[BAR] = 1
        if rng.random() < 0.35:  # x was hit during bear-off and must come back in
            x[BAR] = 1
            o_home_free = [p for p in range(19, 25)]
            for p in rng.sample(o_home_free, rng.randint(0, 3)):
                o[p] = 2
        left = 15 - sum(o.values())
        _scatter(rng, max(0, left - rng.randint(0, 4)), list(range(7, 25)),
                 {p for p in x if p != BAR}, o, stack=0.6)
    else:
        _scatter(rng, 15 - rng.randint(0, 5), list(range(1, 25)), set(x), o, stack=0.6)
    return _build(x, o)


def _race(rng: random.Random) -> Position:
    split = rng.randint(6, 20)  # x's checkers on 1..split-1, o's on split..24
    x: dict[int, int] = {}
    o: dict[int, int] = {}
    _scatter(rng, rng.randint(1, 15), list(range(1, split)), set(), x, stack=0.6)
    _scatter(rng, rng.randint(1, 15), list(range(split, 25)), set(), o, stack=0.6)
    return _build(x, o)


def playout_positions(rng: random.Random, max_turns: int = 400) -> Iterator[Position]:
    """Positions met in one game of random legal plays from the start (each from the
    side of the player on roll), the finished position excluded."""
    position = Position.start()
    for _ in range(max_turns):
        if position.outcome() is not None:
            return
        yield position
        play = rng.choice(legal_plays(position, random_dice(rng)))
        position = play.result.swap()


_playout_pool: list[Position] = []


def _playout(rng: random.Random) -> Position:
    if not _playout_pool:
        pool_rng = random.Random(20240611)
        for _ in range(8):
            _playout_pool.extend(playout_positions(pool_rng))
    return rng.choice(_playout_pool)


_MAKERS = {
    "contact": _contact,
    "bar": _bar,
    "closed": _closed,
    "bearoff": _bearoff,
    "bearoff_hit": lambda rng: _bearoff(rng, hit=True),
    "race": _race,
    "playout": _playout,
}


def random_position(rng: random.Random, phase: str | None = None) -> Position:
    """A random legal position (no shared point, each side has a checker on the board)
    of ``phase`` (one of ``PHASES``; random when ``None``); randomly seen from either
    side for the phases that are not symmetric."""
    phase = phase or rng.choice(PHASES)
    while True:
        position = _MAKERS[phase](rng)
        if position.outcome() is None:
            return position


def random_dice(rng: random.Random) -> tuple[int, int]:
    return rng.randint(1, 6), rng.randint(1, 6)


def random_cases(n: int, seed: int = 0) -> Iterator[tuple[str, Position, tuple[int, int]]]:
    """``n`` seeded ``(phase, position, dice)`` cases, cycling through every phase."""
    rng = random.Random(seed)
    for i in range(n):
        phase = PHASES[i % len(PHASES)]
        yield phase, random_position(rng, phase), random_dice(rng)


def random_turns(seed: int, n: int):
    """``n`` (position, dice, plays) of seeded random play, positions on roll."""
    rng = random.Random(seed)
    pos = Position.start()
    for _ in range(n):
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        plays = pos.legal_plays(dice)
        yield pos, dice, plays
        result = rng.choice(plays).result
        pos = Position.start() if result.outcome() is not None else result.swap()


class RecordingGame(Game):
    """A Game that logs every play it completes in ``self.log`` (set it to a list first):
    ``(turn start, dice, moves, result)``, forced and empty plays included."""

    def _play_ended(self) -> None:  # the Game's hook at the end of each play
        self.log.append((self.turn_start, self.dice, tuple(self.played), self.position))
        super()._play_ended()


_M64 = (1 << 64) - 1


class SplitMix:
    """The batch's per-game generator in Python, with the ``integers`` that Game calls."""

    def __init__(self, state: int):
        self.state = int(state)

    def _u32(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _M64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _M64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _M64
        return (z ^ (z >> 31)) >> 32

    def _below(self, n: int) -> int:
        m = self._u32() * n
        if m & 0xFFFFFFFF < n:
            threshold = (2**32 - n) % n
            while m & 0xFFFFFFFF < threshold:
                m = self._u32() * n
        return m >> 32

    def integers(self, low, high=None, size=None):
        if high is None:
            low, high = 0, low
        if size is None:
            return low + self._below(high - low)
        return np.array([low + self._below(high - low) for _ in range(size)])


def pick_roll_take(legal: list[int], rnd: random.Random) -> int:
    """A random legal action, mostly ``roll`` and ``take`` so that games last."""
    from bg_env.actions import ROLL, TAKE

    if ROLL in legal and rnd.random() < 0.8:
        return ROLL
    if TAKE in legal and rnd.random() < 0.8:
        return TAKE
    return rnd.choice(legal)


def batch_lockstep(rules, seed: int, assert_same) -> int:
    """Play one random game on :class:`~bg_env.game.game.Game` and on one row of
    :class:`bg_env.kernels.games.Games` (with its variant turn rows, if any) from the same
    dice, calling ``assert_same(game, games)`` after every decision; now and then an
    illegal action (or one out of range) must change nothing. Returns the decisions."""
    from bg_env.actions import N_ACTIONS
    from bg_env.kernels import batch
    from bg_env.kernels import games as kgames
    from bg_env.game.game import Game, Phase

    games = kgames.Games(1, rules)
    games.seed(seed)
    dice = SplitMix(games.seeds[0])
    games.reset()
    game = Game(rules)
    game.opening(dice)
    game.settle(dice)
    rnd = random.Random(seed)
    legal_flag = np.zeros(1, dtype=bool)
    vt = games.kernel_variant_args
    steps = 0
    assert_same(game, games)
    while game.phase != Phase.OVER:
        legal = game.legal_actions()
        if rnd.random() < 0.03:
            bad = rnd.choice([a for a in range(N_ACTIONS + 2) if a not in legal])
            kgames.act(games.state, games.me, games.opp, games.seeds, games.rules, games.mask,
                      np.array([bad]), legal_flag, *vt)
            assert not legal_flag[0]
            assert_same(game, games)
        action = pick_roll_take(legal, rnd)
        game.step(action, dice)
        kgames.act(games.state, games.me, games.opp, games.seeds, games.rules, games.mask,
                  np.array([action]), legal_flag, *vt)
        assert legal_flag[0]
        assert_same(game, games)
        steps += 1
    assert dice.state == int(games.seeds[0])  # the same number of draws
    return steps


def load_script(path) -> object:
    """A script outside the package (``benchmarks/``, ``examples/``) imported as a module."""
    import importlib.util
    from pathlib import Path

    path = Path(path)
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def assert_one_board_a_call(env, capsys, seeds: int = 3, steps: int = 6) -> None:
    """A ``render_mode="human"`` Gymnasium env prints the board once a ``reset`` and once a
    ``step`` (random legal actions from ``action_masks()``), and once a ``render()``."""
    rng = np.random.default_rng(0)
    for seed in range(seeds):
        env.reset(seed=seed)
        assert capsys.readouterr().out.count("Position ID") == 1
        for _ in range(steps):
            _, _, term, trunc, _ = env.step(
                int(rng.choice(np.flatnonzero(env.unwrapped.action_masks()))))
            assert capsys.readouterr().out.count("Position ID") == 1
            if term or trunc:
                break
    assert env.render() is None and capsys.readouterr().out.count("Position ID") == 1
