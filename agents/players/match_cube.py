"""Match-play cube equities from cubeless probabilities and the match equity table.

The unit is the match-winning chance (MWC) of one side, read from the Kazaross-XG2 table
(:mod:`bg_env.game.match`: :meth:`~bg_env.game.match.Match.equity_after` knows the
Crawford and post-Crawford scores). ``probs`` are the five cumulative cubeless
probabilities of that side, ``(win, win gammon, win backgammon, lose gammon, lose
backgammon)``; ``p`` is P(win). :mod:`agents.players.cube` turns the equities into decisions.

Method: GNU Backgammon's 0-ply match cube (``eval.c``: ``Cl2CfMatchCentered``,
``Cl2CfMatchOwned``, ``Cl2CfMatchUnavailable``; ``matchequity.c``: ``GetPoints``), read
for the method and written anew here. It is Janowski's cube-life interpolation with the
money-game lines replaced by MWCs.

* **Dead cube** at cube ``v``: ``MWC_dead(v) = sum over the six exclusive outcomes of
  P(outcome) MWC(after it, at v)`` (gammons and backgammons at 2v and 3v points).
* **Cash points with a live cube** (``CP_k(v)``: the P(win) of side ``k`` at which his
  double from ``v`` to ``v'`` (the next cube value) leaves the taker indifferent), by
  recursion down from the highest cube level that matters. With, for ``k`` doubling at
  ``v``: ``DP`` = k's MWC when the taker drops (k wins ``v``), ``DTW`` / ``DTL`` = k's
  MWC when he wins / loses at ``v'``, weighted by the win / loss gammon and backgammon
  ratios::

      doubled cube dead (either side wins the match with a win at v'):
          CP_k(v) = (DTL - DP) / (DTL - DTW)
      doubled cube live (the taker may redouble to v'' at his own cash point):
          CP_k(v) = 1 - CP_j(v') (DP - DTW) / (RDP - DTW),   RDP = k's MWC when he loses v'

  (the second: the taker ``j`` owns the cube at ``v'``, so k's live MWC runs linearly
  from ``RDP`` at ``p = 1 - CP_j(v')``, where j cashes, to ``DTW`` at ``p = 1``; the cash
  point is where that line meets ``DP``). At the dead level the taker's *free redouble*
  counts: when the doubler wins the match with a win at ``v'`` and the taker does not,
  the taker redoubles at once at no risk, so ``DTW`` and ``DTL`` are read at ``v''``
  (GNU Backgammon's "cube prime value"). A side that wins the match with a win at ``v``
  gets ``CP = 1``: he never cashes (the post-Crawford leader, for one).
* **Live cube** at cube ``v``: piecewise linear in ``p`` through ``(0, LOSE)``, the
  opponent's cash point ``(1 - CP_j(v), MWC(lose v))`` when he may double (cube centred
  or his), one's own cash point ``(CP_k(v), MWC(win v))`` when one may double (centred
  or one's own), and ``(1, WIN)``; ``WIN`` / ``LOSE`` are the gammon-weighted MWCs of a
  win / loss at ``v``. Out of order points are read as GNU Backgammon does (the opponent's
  segment first).
* **Real cube**, cube-life index ``x``: ``MWC(x) = (1 - x) MWC_dead + x MWC_live``. At
  ``x = 0`` this is the dead-cube model; the cube-life index is the same setting as in
  money play (:class:`agents.players.cube.CubeSettings`).
* **Free redouble**: an owner whose opponent wins the match with a win at ``v`` (and who
  does not) loses nothing more at ``v'``, so he redoubles at once (when that pays him) and
  the opponent takes or drops, whichever suits him; this is no matter of cube
  efficiency, so it counts at every ``x`` (GNU Backgammon's double/take equity at 2-away
  against 4-away shows the same: the trailer's MWC after taking is his P(win)).

The doubler compares ``ND = MWC(x; v, cube as it is)`` (without his own free redouble:
not doubling now is what ND prices), ``DT = MWC(x; v', taker owns)`` and ``DP``, and
doubles on a tie of DT and ND, as GNU Backgammon does; the taker takes when his
``MWC(x; v', he owns it)`` is at least his MWC after dropping. Landmarks that follow
(tests/agents/test_match_cube.py): at 2-away/2-away the doubled cube is dead and the take
point is 1 - 0.67736 = 32.3 %, live or dead; a 2-away leader facing a 4-away trailer's
double needs 19.9 %; the 4-away trailer facing the 2-away leader's double needs only
18.6 % (his free redouble: his wins win the match; owning the cube, he redoubles at once
while the leader would take); at 4-away/4-away 28.8 % dead, 19.3 % live, 21.5 % at
``x = 0.68``; post-Crawford the leader facing the trailer's double needs 50 % at an even
away (the free drop: a drop leaves 1-away/1-away) but only 2.4 % against a 3-away trailer
(a loss at 2 leaves 1-away/1-away, a drop the trailer 2-away post-Crawford, 48.8 %).

Where GNU Backgammon values a game cubeless (``fDoCubeful`` false: a single win wins either
side the match, the Crawford game, 2-away/2-away) :func:`match_cubeful_mwc` gives the dead
MWC too (:func:`cubeless_score`): at 2-away/2-away a gammonish favourite cashes rather than
plays on, as gnubg decides.

Assumptions: cube values double (the arithmetic progression is handled by
``next_cube_value`` but gnubg's method is for the geometric cube); in the cash points a
free redouble is taken (as in gnubg), in the equities the redoubled side takes or drops
as suits him; ``max_cube`` makes a cube that may not be turned dead.
"""

from __future__ import annotations

from functools import lru_cache

from bg_env.game.game import GameResult, next_cube_value
from bg_env.game.match import Match

__all__ = [
    "CENTRED", "OWNED", "OPPONENT", "exclusive", "mwc_after", "dead_mwc", "cash_points",
    "live_mwc", "match_cubeful_mwc", "match_take_point", "cubeless_score",
]

CENTRED, OWNED, OPPONENT = "centred", "owned", "opponent"
"""Who holds the cube, from the side of the player whose probabilities are used."""
_KINDS = ("single", "gammon", "backgammon")
_LEVELS = 16
"""At most this many cube levels are looked at (cube 2**16 and beyond is dead)."""


def exclusive(probs) -> list[tuple[int, int, float]]:
    """``(winner: 0 me / 1 opponent, multiple 1..3, probability)`` of the six exclusive
    outcomes (single, gammon, backgammon for each side)."""
    w, wg, wbg, lg, lbg = (float(v) for v in probs)
    wg, lg = min(wg, w), min(lg, 1.0 - w)
    wbg, lbg = min(wbg, wg), min(lbg, lg)
    return [(0, 1, w - wg), (0, 2, wg - wbg), (0, 3, wbg),
            (1, 1, 1.0 - w - lg), (1, 2, lg - lbg), (1, 3, lbg)]


def mwc_after(match, side: int, winner: int, points: int) -> float:
    """``side``'s MWC once ``winner`` has scored ``points`` more at ``match``'s score (the
    kind of win does not matter, only the points)."""
    return _mwc_after(match.length, tuple(match.score), bool(match.crawford), side, winner,
                      int(points))


@lru_cache(maxsize=1 << 16)
def _mwc_after(length: int, score: tuple[int, int], crawford: bool, side: int, winner: int,
               points: int) -> float:
    """:func:`mwc_after` by the match's length, score and Crawford flag (cached: a cube
    decision reads the table a few dozen times)."""
    match = Match(length, score=score, crawford=crawford)
    return match.equity_after(GameResult(winner, "single", 1, points), side)


def dead_mwc(match, side: int, probs, value: int) -> float:
    """``side``'s MWC when the game is played out at cube ``value`` (``probs`` his)."""
    return sum(prob * mwc_after(match, side, side if who == 0 else 1 - side, value * mult)
               for who, mult, prob in exclusive(probs) if prob > 0.0)


def _ratios(probs, winner: int) -> list[tuple[int, float]]:
    """``(multiple, share)`` of single, gammon and backgammon among ``winner``'s wins
    (0: the side whose ``probs`` they are, 1: the opponent); all single if he cannot win."""
    outcomes = [(mult, prob) for who, mult, prob in exclusive(probs) if who == winner]
    total = sum(prob for _, prob in outcomes)
    if total <= 0.0:
        return [(1, 1.0)]
    return [(mult, prob / total) for mult, prob in outcomes]


def _weighted(match, side: int, winner: int, value: int, ratios) -> float:
    """``side``'s MWC when ``winner`` wins at cube ``value``, single / gammon / backgammon
    in the proportions ``ratios``."""
    return sum(share * mwc_after(match, side, winner, value * mult) for mult, share in ratios)


def _cube_dead(match, value: int, rules) -> bool:
    """Whether a cube at ``value`` is dead: either side wins the match with a single win
    there, or ``max_cube`` forbids turning it again."""
    nxt = next_cube_value(value, rules.cube_progression)
    too_big = rules.max_cube != 0 and nxt > rules.max_cube
    return too_big or min(match.away(0), match.away(1)) <= value


def cash_points(match, side: int, probs, value: int) -> tuple[float, float]:
    """``(CP_side(v), CP_other(v))``: each side's live-cube cash point (his own P(win))
    at cube ``value``; ``probs`` are ``side``'s (see the module docstring)."""
    rules = match.rules
    ratios = {side: (_ratios(probs, 0), _ratios(probs, 1)),  # (his wins, his losses)
              1 - side: (_ratios(probs, 1), _ratios(probs, 0))}
    levels = [value]
    while not _cube_dead(match, next_cube_value(levels[-1], rules.cube_progression), rules) \
            and len(levels) < _LEVELS:
        levels.append(next_cube_value(levels[-1], rules.cube_progression))
    above: dict[int, float] | None = None  # the cash points one level up
    for level in reversed(levels):
        here = {}
        for k in (side, 1 - side):
            taker_cp = None if above is None else above[1 - k]
            here[k] = _cash_point(match, k, level, ratios[k], taker_cp)
        above = here
    return above[side], above[1 - side]


def _cash_point(match, k: int, value: int, ratios, taker_cp: float | None) -> float:
    """Side ``k``'s cash point at ``value``; ``taker_cp``: the taker's cash point one
    level up (live doubled cube), or None (the doubled cube is dead)."""
    if match.away(k) <= value:
        return 1.0  # a win already wins the match: nothing to cash
    progression = match.rules.cube_progression
    nxt = next_cube_value(value, progression)
    wins, losses = ratios
    dp = mwc_after(match, k, k, value)
    if taker_cp is None:
        played = nxt
        if match.away(k) <= nxt < match.away(1 - k):  # the taker's free redouble
            played = next_cube_value(nxt, progression)
        dtw = _weighted(match, k, k, played, wins)
        dtl = _weighted(match, k, 1 - k, played, losses)
        return _clip((dtl - dp) / (dtl - dtw))
    dtw = _weighted(match, k, k, nxt, wins)
    rdp = mwc_after(match, k, 1 - k, nxt)
    return _clip(1.0 - taker_cp * (dp - dtw) / (rdp - dtw))


def _clip(p: float) -> float:
    return min(max(float(p), 0.0), 1.0)


def _line(p: float, p0: float, e0: float, p1: float, e1: float) -> float:
    """The straight line through ``(p0, e0)`` and ``(p1, e1)`` at ``p`` (``e1`` when the
    segment has no width)."""
    if p1 - p0 <= 1e-12:
        return e1
    return e0 + (e1 - e0) * (p - p0) / (p1 - p0)


def live_mwc(match, side: int, probs, value: int, owner: str) -> float:
    """``side``'s fully live-cube MWC at cube ``value`` (see the module docstring)."""
    if owner not in (CENTRED, OWNED, OPPONENT):
        raise ValueError(f"owner={owner!r}: expected {CENTRED!r}, {OWNED!r} or {OPPONENT!r}")
    p = float(probs[0])
    cp_me, cp_opp = cash_points(match, side, probs, value)
    lose = _weighted(match, side, 1 - side, value, _ratios(probs, 1))
    win = _weighted(match, side, side, value, _ratios(probs, 0))
    cash, opp_cash = mwc_after(match, side, side, value), mwc_after(match, side, 1 - side, value)
    opp_tg = 1.0 - cp_opp if owner != OWNED else 0.0  # where the opponent cashes
    tg = cp_me if owner != OPPONENT else 1.0  # where I cash
    if owner != OWNED and p <= opp_tg:
        return _line(p, 0.0, lose, opp_tg, opp_cash)
    start, at_start = (opp_tg, opp_cash) if owner != OWNED else (0.0, lose)
    if p < tg:
        return _line(p, start, at_start, tg, cash if owner != OPPONENT else win)
    return _line(p, tg, cash, 1.0, win)


def match_cubeful_mwc(match, side: int, probs, value: int, owner: str, x: float,
                      redouble_now: bool = True) -> float:
    """``(1 - x) MWC_dead + x MWC_live``: ``side``'s MWC at cube ``value`` with cube-life
    index ``x`` (``owner`` from his side), the owner's free redouble included.

    ``redouble_now=False``: ``side``, on roll and owning the cube, does not redouble this
    turn (his "no double" equity, as GNU Backgammon's ``Cl2CfMatchOwned`` gives it): his
    own free redouble is left out, the opponent's is not."""
    dead = dead_mwc(match, side, probs, value)
    if cubeless_score(match, value):
        return dead
    kept = dead
    if x > 0.0 and 0.0 < float(probs[0]) < 1.0:
        kept = (1.0 - x) * dead + x * live_mwc(match, side, probs, value, owner)
    holder = side if owner == OWNED else 1 - side
    if owner == CENTRED or not _free_redouble(match, holder, value) \
            or (holder == side and not redouble_now):
        return kept
    nxt = next_cube_value(value, match.rules.cube_progression)
    turned = match_cubeful_mwc(match, side, probs, nxt, OPPONENT if owner == OWNED else OWNED, x)
    dropped = mwc_after(match, side, holder, value)
    if holder == side:  # the opponent answers my redouble as suits him, I redouble if it pays
        return max(kept, min(turned, dropped))
    return min(kept, max(turned, dropped))


def cubeless_score(match, value: int) -> bool:
    """Whether the cube counts for nothing more at ``match``'s score with cube ``value``,
    so the game is valued cubeless (GNU Backgammon's ``fDoCubeful`` is false): a single
    win at ``value`` wins either side the match, the Crawford game, or 2-away/2-away (the
    first double kills the cube there; gnubg values not doubling cubeless, so a gammonish
    favourite that the live model would play on with doubles and cashes instead)."""
    if match.away(0) <= value and match.away(1) <= value:
        return True
    return bool(match.crawford) or (match.away(0) == 2 and match.away(1) == 2)


def _free_redouble(match, holder: int, value: int) -> bool:
    """Whether ``holder``, owning the cube at ``value``, redoubles at no risk: a win at
    ``value`` gives his opponent the match and not him (so a loss costs him no more at
    the doubled cube), and the cube may be turned."""
    nxt = next_cube_value(value, match.rules.cube_progression)
    if match.rules.max_cube != 0 and nxt > match.rules.max_cube:
        return False
    return match.away(1 - holder) <= value < match.away(holder)


def match_take_point(match, taker: int, value: int, x: float, gammons=(0.0, 0.0)) -> float:
    """The lowest P(win) at which ``taker``, doubled from ``value``, should take (found by
    bisection; his take MWC rises with P(win)). ``gammons``: the shares of his wins and of
    his losses that are gammons (no backgammons)."""
    nxt = next_cube_value(value, match.rules.cube_progression)
    drop = mwc_after(match, taker, 1 - taker, value)

    def take(p: float) -> float:
        probs = (p, gammons[0] * p, 0.0, gammons[1] * (1.0 - p), 0.0)
        return match_cubeful_mwc(match, taker, probs, nxt, OWNED, x) - drop

    lo, hi = 1e-9, 1.0 - 1e-9
    if take(lo) >= 0.0:
        return 0.0
    for _ in range(60):
        mid = (lo + hi) / 2.0
        lo, hi = (lo, mid) if take(mid) >= 0.0 else (mid, hi)
    return hi
