"""What an evaluation reports: :class:`MatchStats` (money games) and :class:`MatchPlayStats`
(matches), from agent A's side, each with the cube actions of both sides when the cube is
on (:class:`CubeLog` counts them game by game). :mod:`agents.evaluation.evaluate` plays the games and
re-exports every name.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field

import numpy as np

from bg_env.actions import BEAVER, DOUBLE, DROP, TAKE
from bg_env.game.game import Game, Phase
from bg_env.game.match import Match

__all__ = ["CUBE_ACTIONS", "CubeLog", "MatchStats", "MatchPlayStats", "wilson_interval"]


CUBE_ACTIONS = ("doubles", "takes", "drops", "beavers")
"""The cube actions counted per side in cubeful evaluation."""
_CUBE_KEY = {DOUBLE: "doubles", TAKE: "takes", DROP: "drops", BEAVER: "beavers"}


@dataclass
class CubeLog:
    """One game's cube actions per side (``counts[side]``) and its final cube value."""

    counts: tuple[dict, dict] = field(
        default_factory=lambda: (dict.fromkeys(CUBE_ACTIONS, 0), dict.fromkeys(CUBE_ACTIONS, 0)))
    final_cube: int = 1

    def count(self, game: Game, action: int) -> None:
        """Count ``action`` of ``game``'s actor if it is a cube action."""
        key = _CUBE_KEY.get(int(action)) if game.phase != Phase.MOVE else None
        if key is not None:
            self.counts[game.actor][key] += 1

    def add_to(self, cube_a: dict, cube_b: dict, a_side: int) -> None:
        """Add this game's counts to A's and B's totals (A played ``a_side``)."""
        for totals, side in ((cube_a, a_side), (cube_b, 1 - a_side)):
            for key, n in self.counts[side].items():
                totals[key] += n


def _cube_lines(name_a: str, name_b: str, cube_a: dict, cube_b: dict, final_cubes) -> list[str]:
    """The cube lines of a results table: each side's cube actions and the average final
    cube (none when no cubeful game was recorded)."""
    if not final_cubes:
        return []
    lines = [f"  cube actions    {'':14s}" + "".join(f"{k:>9s}" for k in CUBE_ACTIONS)]
    for name, counts in ((name_a, cube_a), (name_b, cube_b)):
        lines.append(f"    {name[:26]:26s}" + "".join(f"{counts[k]:9d}" for k in CUBE_ACTIONS))
    lines.append(f"  average cube    {np.mean(final_cubes):.2f} (final cube value per game)")
    return lines


@dataclass
class MatchStats:
    """Results of agent A against agent B, from A's side."""

    agent_a: str
    agent_b: str
    games: int = 0
    wins: int = 0
    points: list[int] = field(default_factory=list)
    gammons_won: int = 0
    backgammons_won: int = 0
    gammons_lost: int = 0
    backgammons_lost: int = 0
    drops: int = 0
    cube_a: dict = field(default_factory=lambda: dict.fromkeys(CUBE_ACTIONS, 0))
    """A's cube actions over all games (cubeful evaluation): doubles (redoubles
    included), takes, drops, beavers."""
    cube_b: dict = field(default_factory=lambda: dict.fromkeys(CUBE_ACTIONS, 0))
    """B's cube actions, the same."""
    final_cubes: list[int] = field(default_factory=list)
    """The cube value at the end of each game (before the refused double for a drop)."""

    @classmethod
    def from_dict(cls, data: dict) -> "MatchStats":
        """The statistics back from ``dataclasses.asdict`` (as an evaluation checkpoint
        keeps them, through JSON)."""
        return cls(**data)

    def add_cube(self, log: "CubeLog", a_side: int) -> None:
        """Add one game's cube actions and final cube value."""
        log.add_to(self.cube_a, self.cube_b, a_side)
        self.final_cubes.append(int(log.final_cube))

    @property
    def average_cube(self) -> float:
        """The average final cube value (0 when no cubeful game was recorded)."""
        return float(np.mean(self.final_cubes)) if self.final_cubes else 0.0

    def add(self, points: int, outcome: str) -> None:
        self.games += 1
        self.points.append(points)
        won = points > 0
        self.wins += won
        if outcome in ("gammon", "backgammon"):
            if won:
                self.gammons_won += 1
            else:
                self.gammons_lost += 1
        if outcome == "backgammon":
            if won:
                self.backgammons_won += 1
            else:
                self.backgammons_lost += 1
        self.drops += outcome == "drop"

    def contradictions(self) -> list[str]:
        """What in these statistics cannot be true of games played (a checkpoint's saved
        statistics are checked with it): counts that disagree with each other."""
        wins_seen = sum(p > 0 for p in self.points)
        checks = [
            (len(self.points) == self.games, f"{len(self.points)} points for {self.games} games"),
            (self.wins == wins_seen, f"{self.wins} wins where the points show {wins_seen}"),
            (0 <= self.backgammons_won <= self.gammons_won <= self.wins,
             f"{self.gammons_won} gammons and {self.backgammons_won} backgammons won in "
             f"{self.wins} wins"),
            (0 <= self.backgammons_lost <= self.gammons_lost <= self.games - self.wins,
             f"{self.gammons_lost} gammons and {self.backgammons_lost} backgammons lost in "
             f"{self.games - self.wins} losses"),
            (0 <= self.drops <= self.games, f"{self.drops} drops in {self.games} games"),
            (len(self.final_cubes) in (0, self.games) and all(c >= 1 for c in self.final_cubes),
             f"{len(self.final_cubes)} final cubes for {self.games} games"),
            (all(v >= 0 for d in (self.cube_a, self.cube_b) for v in d.values()),
             "a negative count of cube actions"),
        ]
        return [message for ok, message in checks if not ok]

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def ppg(self) -> float:
        return float(np.mean(self.points)) if self.points else 0.0

    @property
    def ppg_ci95(self) -> float:
        """Half-width of the 95% confidence interval of the points per game."""
        if self.games < 2:
            return float("inf")
        return 1.96 * float(np.std(self.points, ddof=1)) / math.sqrt(self.games)

    def summary(self) -> dict:
        d = {k: v for k, v in asdict(self).items() if k not in ("points", "final_cubes")}
        d.update(win_rate=self.win_rate, ppg=self.ppg, ppg_ci95=self.ppg_ci95)
        if not self.final_cubes:  # cubeless: no cube figures
            del d["cube_a"], d["cube_b"]
        else:
            d["average_cube"] = self.average_cube
        return d

    def table(self) -> str:
        g = max(self.games, 1)
        return "\n".join([
            f"{self.agent_a} vs {self.agent_b}: {self.games} games",
            f"  win rate        {self.win_rate:7.1%}",
            f"  points/game     {self.ppg:+.3f} +- {self.ppg_ci95:.3f} (95% CI)",
            f"  gammons         won {self.gammons_won / g:6.1%}  lost {self.gammons_lost / g:6.1%}",
            f"  backgammons     won {self.backgammons_won / g:6.1%}  "
            f"lost {self.backgammons_lost / g:6.1%}",
        ] + _cube_lines(self.agent_a, self.agent_b, self.cube_a, self.cube_b, self.final_cubes))


# ---------------------------------------------------------------------- match play
def wilson_interval(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score interval of a win rate (95% for ``z = 1.96``)."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass
class MatchPlayStats:
    """Results of matches of agent A against agent B, from A's side."""

    agent_a: str
    agent_b: str
    length: int
    matches: int = 0
    wins: int = 0
    """Matches A won."""
    games: list[int] = field(default_factory=list)
    """Games played in each match."""
    crawford_games: list[int] = field(default_factory=list)
    """Crawford games played in each match (0 or 1)."""
    scores: list[tuple[int, int]] = field(default_factory=list)
    """Each match's final score, (A, B)."""
    cube_a: dict = field(default_factory=lambda: dict.fromkeys(CUBE_ACTIONS, 0))
    """A's cube actions over all games of all matches (matches with the cube)."""
    cube_b: dict = field(default_factory=lambda: dict.fromkeys(CUBE_ACTIONS, 0))
    """B's cube actions, the same."""
    final_cubes: list[int] = field(default_factory=list)
    """The cube value at the end of each game (before the refused double for a drop)."""

    @classmethod
    def from_dict(cls, data: dict) -> "MatchPlayStats":
        """The statistics back from ``dataclasses.asdict`` (as an evaluation checkpoint
        keeps them, through JSON: the scores as pairs again)."""
        return cls(**dict(data, scores=[tuple(score) for score in data["scores"]]))

    def add(self, match: Match, a_side: int, cube_logs: list | None = None) -> None:
        """Add a finished match (A played ``a_side``); ``cube_logs``: one
        :class:`CubeLog` per game, with the cube."""
        self.matches += 1
        self.wins += match.winner == a_side
        self.games.append(match.games)
        self.crawford_games.append(match.crawford_games_played)
        self.scores.append((match.score[a_side], match.score[1 - a_side]))
        for log in cube_logs or ():
            log.add_to(self.cube_a, self.cube_b, a_side)
            self.final_cubes.append(int(log.final_cube))

    @property
    def average_cube(self) -> float:
        """The average final cube value per game (0 when no game had the cube)."""
        return float(np.mean(self.final_cubes)) if self.final_cubes else 0.0

    def contradictions(self) -> list[str]:
        """What in these statistics cannot be true of matches played (see
        :meth:`MatchStats.contradictions`)."""
        n = self.matches
        checks = [
            (0 <= self.wins <= n, f"{self.wins} match wins in {n} matches"),
            (len(self.games) == len(self.crawford_games) == len(self.scores) == n,
             f"{len(self.games)} game counts, {len(self.crawford_games)} Crawford counts and "
             f"{len(self.scores)} scores for {n} matches"),
            (all(0 <= c <= g and g >= 1 for g, c in zip(self.games, self.crawford_games)),
             "a match with more Crawford games than games, or none played"),
            (sum(max(s) >= self.length > min(s) for s in self.scores) == n
             and sum(s[0] > s[1] for s in self.scores) == self.wins,
             f"final scores that do not end {n} matches to {self.length} with {self.wins} "
             "won"),
            (len(self.final_cubes) <= sum(self.games), "more final cubes than games"),
        ]
        return [message for ok, message in checks if not ok]

    @property
    def losses(self) -> int:
        """Matches B won."""
        return self.matches - self.wins

    @property
    def win_rate(self) -> float:
        return self.wins / self.matches if self.matches else 0.0

    @property
    def win_rate_ci95(self) -> tuple[float, float]:
        """95% confidence interval (Wilson) of A's match win rate."""
        return wilson_interval(self.wins, self.matches)

    @property
    def games_per_match(self) -> float:
        return float(np.mean(self.games)) if self.games else 0.0

    @property
    def total_crawford_games(self) -> int:
        return int(sum(self.crawford_games))

    def summary(self) -> dict:
        lo, hi = self.win_rate_ci95
        d = {
            "agent_a": self.agent_a, "agent_b": self.agent_b, "match_length": self.length,
            "matches": self.matches, "wins_a": self.wins, "wins_b": self.losses,
            "win_rate": self.win_rate, "win_rate_ci95": [lo, hi],
            "games_per_match": self.games_per_match,
            "crawford_games": self.total_crawford_games,
            "max_crawford_games_per_match": max(self.crawford_games, default=0),
        }
        if self.final_cubes:  # matches with the cube
            d.update(cube_a=dict(self.cube_a), cube_b=dict(self.cube_b),
                     average_cube=self.average_cube)
        return d

    def table(self) -> str:
        lo, hi = self.win_rate_ci95
        n = max(self.matches, 1)
        return "\n".join([
            f"{self.agent_a} vs {self.agent_b}: {self.matches} matches to {self.length} points",
            f"  match wins      {self.agent_a} {self.wins}  {self.agent_b} {self.losses}",
            f"  win rate        {self.win_rate:7.1%}  (95% CI {lo:.1%} .. {hi:.1%})",
            f"  games/match     {self.games_per_match:.2f}",
            f"  Crawford games  {self.total_crawford_games} in {self.matches} matches "
            f"({self.total_crawford_games / n:.2f} per match, at most "
            f"{max(self.crawford_games, default=0)} in one)",
        ] + _cube_lines(self.agent_a, self.agent_b, self.cube_a, self.cube_b, self.final_cubes))
