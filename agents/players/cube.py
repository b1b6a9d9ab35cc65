"""Cube decisions from cubeless probabilities: money play (Janowski) and match play (MET).

An evaluator that gives the five cubeless probabilities of the player on roll,
``(win, win gammon, win backgammon, lose gammon, lose backgammon)`` (cumulative, as
TD-Gammon's and GNU Backgammon's outputs: a backgammon is also a gammon, a gammon also a
win), decides the cube through :func:`cube_action`: double or roll, take, drop or beaver.

Money play -- Janowski's cube-life interpolation
    Source: Rick Janowski, "Take-points in money games" (1993); the same model is GNU
    Backgammon's 0-ply cubeful money evaluation. Equities below are per unit of the
    current cube, for the player whose probabilities they are. With ``p`` = P(win),
    the average value of a win and of a loss::

        W = 1 + (P(wg) + P(wbg)) / p          L = 1 + (P(lg) + P(lbg)) / (1 - p)

    * dead cube (nobody will double again): the cubeless equity
      ``E_dead = p W - (1 - p) L``;
    * live cube (perfectly efficient: the owner doubles exactly at the opponent's take
      point): the equity is piecewise linear in ``p`` through the take point ``TP`` and
      the cash point ``CP``::

          TP = (L - 1/2) / (W + L + 1/2)       CP = (L + 1) / (W + L + 1/2)

      cube centred: ``(0, -L) - (TP, -1) - (CP, +1) - (1, W)``; cube owned:
      ``(0, -L) - (CP, +1) - (1, W)``; opponent owns it: ``(0, -L) - (TP, -1) - (1, W)``.
      (At ``W = L = 1``: TP = 20 %, CP = 80 %; the dead-cube take point is
      ``(L - 1/2) / (W + L)`` = 25 %.)
    * real cube, cube-life index ``x`` in [0, 1]:
      ``E(x) = (1 - x) E_dead + x E_live`` (:attr:`CubeSettings.x`, 0.68 by default, the
      value GNU Backgammon uses for contact positions; in races ``x`` follows the pip
      count of the player on roll, ``0.55 + 0.00125 pips`` within [0.6, 0.7], gnubg's
      default race efficiency, when :attr:`CubeSettings.race_x` is on).

    The player on roll compares (``r`` = next cube value / current value, 2 for the
    usual geometric cube)::

        no double    ND = E(x; cube as it is)
        double/take  DT = r E(x; opponent owns the cube)
        double/pass  DP = +1

    and doubles when ``min(DT, DP) > ND`` (on a tie ``DP = ND <= DT`` it cashes). The
    verdicts (:attr:`CubeVerdict.kind`):
    *no double* (ND >= DT, opponent takes), *double, take* (ND < DT <= DP), *double,
    pass* (ND <= DP < DT) and *too good* (DT >= DP and ND > DP: play on for the gammon).
    The doubled player takes when ``r E(x; he owns the cube) >= -1`` and beavers (when
    the rules allow it) when beavering gives him more than taking: the doubler then
    takes (``r' E(x; beaverer owns it)``, ``r'`` = the beavered cube over the current
    value) or passes (``+r``), whichever is worse for the beaverer. A cube that cannot be
    turned again (``max_cube``) is dead for its owner: ``x = 0`` there.

    Jacoby rule: while the cube has not been turned, gammons do not count. The
    no-double equity then uses the dead-cube equity without gammons (``2p - 1``) and a
    live-cube equity capped at -1 / +1 outside [TP, CP] (whoever is "too good" must turn
    the cube to win a gammon); after a double they count again. So a position that is
    "too good" without Jacoby (a closed board with gammons) is a "double, pass" with it.

Match play -- the match equity table, dead and live cube
    At a match score the unit is the match-winning chance (MWC) from the Kazaross-XG2
    table (:mod:`bg_env.game.match`). :mod:`agents.players.match_cube` gives the equities (its
    docstring has the formulas and the source, GNU Backgammon's match cube method): the
    dead-cube MWC (the six exclusive outcomes at the cube value), the live-cube MWC
    (piecewise linear through both sides' live-cube cash points, found by recursion down
    from the highest cube level that matters, with the taker's recube and free redouble)
    and, as in money play, ``MWC(x) = (1 - x) MWC_dead + x MWC_live`` with the same
    cube-life index ``x`` (:attr:`CubeSettings.live_match_cube` off: ``x = 0``, the dead
    cube). Then ``ND = MWC(x; v, cube as it is)``, ``DT = MWC(x; next v, opponent owns
    it)``, ``DP`` = the MWC after winning ``v`` points, and the same rules as above:
    double when ``min(DT, DP) > ND``, take when the taker's ``MWC(x; next v, he owns it)``
    is at least his MWC after dropping. It gives the match-play landmarks: no cube in the
    Crawford game (the game has none), no double by a side that a single win already
    gives the match, post-Crawford the trailer doubles at once (a double can only gain
    when any loss loses the match), and the leader drops when the score after the drop
    is worth more than his chances with the cube taken (the free drop at an even away).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from bg_env.actions import BEAVER, DOUBLE, DROP, ROLL, TAKE
from bg_env.game.game import Phase, next_cube_value

from .base import PlayAgent
from .match_cube import CENTRED, OPPONENT, OWNED, match_cubeful_mwc, mwc_after

__all__ = [
    "CubeSettings", "CubeVerdict", "TIE", "CENTRED", "OWNED", "OPPONENT", "flip",
    "win_loss_values", "dead_equity", "live_equity", "cubeful_equity", "money_verdict",
    "money_take_equity", "match_verdict", "match_take_mwc", "cube_action", "CubeNaive",
    "cube_naive", "probabilities_from_equity", "scored",
]

_EPS = 1e-6


@dataclass(frozen=True)
class CubeSettings:
    """How the cube is judged (money play)."""

    x: float = 0.68
    """Janowski's cube-life index: 0 = dead cube, 1 = fully live cube."""
    race_x: bool = True
    """In races, take ``x`` from the roller's pips instead (``0.55 + 0.00125 pips``,
    clamped to [0.6, 0.7]; GNU Backgammon's default race cube efficiency)."""
    live_match_cube: bool = True
    """Match play uses the cube-life index too (the live-cube match method of
    :mod:`agents.players.match_cube`); off: the dead-cube model (``x = 0``)."""

    def __post_init__(self) -> None:
        if not 0.0 <= float(self.x) <= 1.0:
            raise ValueError(f"x={self.x!r}: the cube-life index must lie in [0, 1]")

    def life(self, position) -> float:
        """The cube-life index for ``position`` (seen from the player on roll)."""
        if self.race_x and position is not None and position.is_race():
            return float(np.clip(0.55 + 0.00125 * position.pips()[0], 0.6, 0.7))
        return float(self.x)


TIE = 1e-9
"""Equities closer than this are a tie (the same value reached by two sums may differ in
the last bits)."""


@dataclass(frozen=True)
class CubeVerdict:
    """The three equities of a cube decision (the doubler's side) and what follows."""

    no_double: float
    double_take: float
    double_pass: float

    @property
    def double(self) -> bool:
        """Doubling gives at least what not doubling does (whatever the opponent
        answers; a tie, to within :data:`TIE`, doubles, as GNU Backgammon's
        ``FindBestCubeDecision`` does), or the opponent must pass and passing gives at
        least what playing on does (a cash, as gnubg calls a tie: a certain gammonless
        win is "double, pass")."""
        if not self.take:
            return self.double_pass >= self.no_double
        return self.double_take >= self.no_double - TIE

    @property
    def take(self) -> bool:
        """The opponent should take (his loss with the take is smaller than a drop's)."""
        return self.double_take <= self.double_pass

    @property
    def kind(self) -> str:
        """``"no double"``, ``"double, take"``, ``"double, pass"`` or ``"too good"``."""
        if self.double:
            return "double, take" if self.take else "double, pass"
        if not self.take and self.no_double > self.double_pass:
            return "too good"
        return "no double"


def flip(probs) -> np.ndarray:
    """The same five probabilities seen from the other player."""
    w, wg, wbg, lg, lbg = (float(v) for v in probs)
    return np.array([1.0 - w, lg, lbg, wg, wbg])


def scored(probs, gammons: str = "all") -> np.ndarray:
    """The probabilities as the scoring counts them: ``gammons="none"`` drops gammons
    and backgammons, ``"no_backgammons"`` backgammons (RULES.md §5)."""
    p = np.clip(np.asarray(probs, dtype=float), 0.0, 1.0).copy()
    if gammons == "none":
        p[1:] = 0.0
    elif gammons == "no_backgammons":
        p[[2, 4]] = 0.0
    return p


def win_loss_values(probs) -> tuple[float, float, float]:
    """``(p, W, L)``: P(win), the average points of a win and of a loss."""
    w, wg, wbg, lg, lbg = (float(v) for v in probs)
    p = min(max(w, _EPS), 1.0 - _EPS)
    return p, 1.0 + (wg + wbg) / p, 1.0 + (lg + lbg) / (1.0 - p)


def dead_equity(probs, jacoby: bool = False) -> float:
    """Cubeless equity ``p W - (1 - p) L`` (without gammons under an active Jacoby rule)."""
    w, wg, wbg, lg, lbg = (float(v) for v in probs)
    if jacoby:
        return 2.0 * w - 1.0
    return 2.0 * w - 1.0 + wg + wbg - lg - lbg


def _line(p: float, p0: float, e0: float, p1: float, e1: float) -> float:
    """The straight line through ``(p0, e0)`` and ``(p1, e1)`` at ``p``."""
    return e0 + (e1 - e0) * (p - p0) / (p1 - p0)


def live_equity(p: float, W: float, L: float, owner: str, jacoby: bool = False) -> float:
    """Janowski's fully live cube equity (see the module docstring)."""
    tp = (L - 0.5) / (W + L + 0.5)
    cp = (L + 1.0) / (W + L + 0.5)
    if owner == CENTRED:
        if p < tp:
            return -1.0 if jacoby else _line(p, 0.0, -L, tp, -1.0)
        if p < cp:
            return _line(p, tp, -1.0, cp, 1.0)
        return 1.0 if jacoby else _line(p, cp, 1.0, 1.0, W)
    if owner == OWNED:
        return _line(p, 0.0, -L, cp, 1.0) if p < cp else _line(p, cp, 1.0, 1.0, W)
    if owner == OPPONENT:
        return _line(p, 0.0, -L, tp, -1.0) if p < tp else _line(p, tp, -1.0, 1.0, W)
    raise ValueError(f"owner={owner!r}: expected {CENTRED!r}, {OWNED!r} or {OPPONENT!r}")


def cubeful_equity(probs, owner: str, x: float, jacoby: bool = False) -> float:
    """``(1 - x) E_dead + x E_live``, per unit of the current cube. ``jacoby``: the
    Jacoby rule is in force (cube centred and never turned)."""
    if not _EPS < float(probs[0]) < 1.0 - _EPS:  # the game is decided: the cube is dead
        return dead_equity(probs, jacoby)
    p, W, L = win_loss_values(probs)
    return (1.0 - x) * dead_equity(probs, jacoby) + x * live_equity(p, W, L, owner, jacoby)


def money_verdict(probs, x: float, owner: str = CENTRED, jacoby: bool = False,
                  ratio: float = 2.0, recube: bool = True) -> CubeVerdict:
    """The doubling decision of the player on roll (``owner``: :data:`CENTRED` or
    :data:`OWNED`). ``ratio``: the doubled cube over the current one; ``recube``:
    whether the taker could redouble later (``max_cube``)."""
    nd = cubeful_equity(probs, owner, x, jacoby)
    dt = ratio * cubeful_equity(probs, OPPONENT, x if recube else 0.0)
    return CubeVerdict(nd, dt, 1.0)


def money_take_equity(probs, x: float, owner_after: str = OWNED, ratio: float = 2.0,
                      recube: bool = True) -> float:
    """The doubled player's equity (his ``probs``) after taking, in units of the cube
    before the double; he drops when it is below -1."""
    return ratio * cubeful_equity(probs, owner_after, x if recube else 0.0)


def probabilities_from_equity(equity: float) -> np.ndarray:
    """Five probabilities from a cubeless equity alone (for evaluators with no
    probability outputs, such as the PPO critic): ``P(win) = (1 + E) / 2`` and no
    gammons while ``|E| <= 1``; beyond that the game counts as decided and the excess is
    gammons (then backgammons). An approximation: gammon chances, which move the take and
    cash points, are invisible in a single number."""
    e = float(np.clip(equity, -3.0, 3.0))
    if e >= 1.0:
        return np.array([1.0, min(e - 1.0, 1.0), max(e - 2.0, 0.0), 0.0, 0.0])
    if e <= -1.0:
        return np.array([0.0, 0.0, 0.0, min(-e - 1.0, 1.0), max(-e - 2.0, 0.0)])
    return np.array([(1.0 + e) / 2.0, 0.0, 0.0, 0.0, 0.0])


# ------------------------------------------------------------------ match play
def match_verdict(probs, match, side: int, value: int, progression: str = "geometric",
                  gammons: str = "all", x: float = 0.0, owner: str | None = None) -> CubeVerdict:
    """The doubling decision of ``side`` (on roll, ``probs`` his) at ``match``'s score,
    cube at ``value`` (``owner`` :data:`CENTRED` or :data:`OWNED`; by default centred at
    1, else his), in match-winning chances with cube-life index ``x`` (0: the dead-cube
    model; see :mod:`agents.players.match_cube`)."""
    probs = scored(probs, gammons)
    nxt = next_cube_value(value, progression)
    if owner is None:
        owner = CENTRED if value == 1 else OWNED
    if owner not in (CENTRED, OWNED):
        raise ValueError(f"owner={owner!r}: the doubler's cube is {CENTRED!r} or {OWNED!r}")
    return CubeVerdict(match_cubeful_mwc(match, side, probs, value, owner, x,
                                         redouble_now=False),
                       match_cubeful_mwc(match, side, probs, nxt, OPPONENT, x),
                       mwc_after(match, side, side, value))


def match_take_mwc(probs, match, side: int, value: int, progression: str = "geometric",
                   gammons: str = "all", x: float = 0.0) -> tuple[float, float]:
    """``(take, drop)``: the MWC of ``side`` (doubled from ``value``; ``probs`` his) when
    he takes (and owns the cube) and when he drops."""
    nxt = next_cube_value(value, progression)
    take = match_cubeful_mwc(match, side, scored(probs, gammons), nxt, OWNED, x)
    return take, mwc_after(match, side, 1 - side, value)


# ------------------------------------------------------------------ deciding
def _may_turn(value: int, rules) -> bool:
    """Whether a cube at ``value`` can be doubled once more under ``max_cube``."""
    nxt = next_cube_value(value, rules.cube_progression)
    return rules.max_cube == 0 or nxt <= rules.max_cube


def cube_action(env, legal: list[int], probabilities, settings: CubeSettings | None = None) -> int:
    """The cube decision for the actor of ``env.game`` (a raw env, or anything with
    ``game`` and, in match play, ``match``).

    Args:
        probabilities: ``position -> five probabilities`` of the player on roll in
            ``position`` (cumulative; see the module docstring).
        settings: the cube-life settings (money play).
    """
    game = env.game
    settings = settings or CubeSettings()
    rules, position = game.rules, game.position
    mine = np.asarray(probabilities(position), dtype=float)  # the side on turn
    if game.phase == Phase.TAKE:
        mine = flip(mine)  # the doubled side is not on roll
    match = getattr(env, "match", None)
    x = settings.life(position)
    if match is not None:
        return _match_action(game, match, legal, mine, x if settings.live_match_cube else 0.0)
    value = game.cube_value
    nxt = next_cube_value(value, rules.cube_progression)
    if game.phase == Phase.CUBE:
        if DOUBLE not in legal:
            return ROLL
        owner = CENTRED if game.cube_owner == -1 else OWNED
        verdict = money_verdict(scored(mine, rules.gammons), x, owner,
                                jacoby=rules.jacoby and not game.cube_turned,
                                ratio=nxt / value, recube=_may_turn(nxt, rules))
        return DOUBLE if verdict.double else ROLL
    probs = scored(mine, rules.gammons)
    if game.phase == Phase.TAKE:
        take = money_take_equity(probs, x, OWNED, nxt / value, _may_turn(nxt, rules))
        if BEAVER in legal:
            beavered = next_cube_value(nxt, rules.cube_progression)
            beaver = min(money_take_equity(probs, x, OWNED, beavered / value,
                                           _may_turn(beavered, rules)), nxt / value)
            if beaver > max(take, -1.0):
                return BEAVER
        return TAKE if take >= -1.0 else DROP
    if game.phase == Phase.BEAVER_TAKE:  # the beavered doubler: cube at value, to nxt
        take = money_take_equity(probs, x, OPPONENT, nxt / value, _may_turn(nxt, rules))
        return TAKE if take >= -1.0 else DROP
    return legal[0]


def _match_action(game, match, legal: list[int], mine, x: float) -> int:
    rules, side, value = game.rules, game.actor, game.cube_value
    if game.phase == Phase.CUBE:
        if DOUBLE not in legal or match.crawford or match.away(side) <= value:
            return ROLL  # no cube in the Crawford game; a single win already wins
        verdict = match_verdict(mine, match, side, value, rules.cube_progression,
                                rules.gammons, x,
                                CENTRED if game.cube_owner == -1 else OWNED)
        return DOUBLE if verdict.double else ROLL
    if game.phase in (Phase.TAKE, Phase.BEAVER_TAKE):
        take, drop = match_take_mwc(mine, match, side, value, rules.cube_progression,
                                    rules.gammons, x)
        return TAKE if take >= drop else DROP
    return legal[0]


class CubeNaive(PlayAgent):
    """An agent that judges whole plays, made cube-naive: the same checker play, the cube
    of :class:`~agents.players.base.PlayAgent` (never doubles, always takes). For measuring what
    cube decisions are worth with the checker play held equal."""

    def __init__(self, agent: PlayAgent) -> None:
        super().__init__()
        if not isinstance(agent, PlayAgent):
            raise ValueError(f"{agent!r}: only agents that judge whole plays can be made cube-naive")
        self.inner = agent
        self.name = f"{getattr(agent, 'name', type(agent).__name__)}+naive"

    def choose_play(self, plays, env=None):
        return self.inner.choose_play(plays, env)

    def __getattr__(self, name: str):
        """Anything else (``seed``, ``own_seed``, ...) is the wrapped agent's."""
        if name == "inner":  # not set yet
            raise AttributeError(name)
        return getattr(self.inner, name)


def cube_naive(agent, name: str) -> CubeNaive:
    """``agent`` made cube-naive (never doubles, always takes), named ``name`` (a spec
    with :data:`agents.NAIVE_SUFFIX`, ``td+naive``); an agent already cube-naive is
    returned as it is.

    Raises:
        ValueError: the agent does not judge whole plays (it cannot be wrapped).
    """
    if isinstance(agent, CubeNaive):
        return agent
    naive = CubeNaive(agent)
    naive.name = name
    return naive
