"""Head-to-head evaluation: win rate, points per game with a 95% confidence interval,
gammon and backgammon rates.

Games are played in pairs with the same dice: in the first game of pair ``i`` agent A
plays ``player_0``, in the second ``player_1``, both seeded with the same seed, so both
seatings see the same sequence of rolls (the luck of the dice cancels to a large extent).

Two loops give the same games:

* games between agents that judge whole plays (:class:`~agents.base.PlayAgent`) run on
  the rules core directly (fast), the cube decided through their ``cube_action``;
* everything else (single-move agents) runs through the raw two-agent env.

With the cube, :class:`MatchStats` (money games) and :class:`MatchPlayStats` (matches)
also count each side's cube actions (doubles, takes, drops, beavers) and the final cube
value of every game.

Match play (:func:`evaluate_matches`) plays matches to N points on the core
(:class:`~bg_env.core.match.Match`), cube and Crawford rule included, again in pairs: match
``i`` is played twice from the same seed, A as side 0 and then as side 1. Agents decide
through a small stand-in for the env (:class:`MatchView`: ``game``, ``match``,
``agent_selection``): a :class:`~agents.base.PlayAgent` is asked ``choose_play(plays,
view)`` and ``cube_action(view, legal)``; any other agent ``act(view)``, which works for
agents that read only ``env.game`` (not the observation).
"""

from __future__ import annotations

import math
from functools import partial
from dataclasses import asdict, dataclass, field

import numpy as np

from bg_env import backgammon_v0
from bg_env.actions import BEAVER, DOUBLE, DROP, TAKE
from bg_env.core.game import Game, Phase, Rules
from bg_env.core.match import MET_MAX_AWAY, Match

from .base import PlayAgent

__all__ = [
    "MatchStats", "MatchPlayStats", "CubeLog", "CUBE_ACTIONS", "MatchView", "evaluate",
    "evaluate_matches", "play_game_core", "play_game_env", "play_match", "seed_agents",
]


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
            f"  backgammons     won {self.backgammons_won / g:6.1%}  lost {self.backgammons_lost / g:6.1%}",
        ] + _cube_lines(self.agent_a, self.agent_b, self.cube_a, self.cube_b, self.final_cubes))


def play_game_core(agents: tuple[PlayAgent, PlayAgent], seed: int, rules: Rules,
                   on_game=None, cube_log: "CubeLog | None" = None) -> tuple[int, str, int]:
    """One game on the core; returns (winning side, outcome, points). With the cube on
    (``rules.cube``), agents decide it through ``cube_action(view, legal)`` with a
    :class:`MatchView` of no match (a money game); ``cube_log`` records the cube.
    ``on_game``: called with the finished :class:`Game`, its ``events`` kept (for records)."""
    rng = np.random.default_rng(seed)
    game = Game(rules)
    if on_game is not None:
        game.events = []
    game.opening(rng)
    view = MatchView(None)
    view.game = game
    while game.phase != Phase.OVER:
        if game.phase != Phase.MOVE:  # a cube decision
            action = agents[game.actor].cube_action(view, game.legal_actions())
            if cube_log is not None:
                cube_log.count(game, action)
            game.step(action, rng)
            continue
        plays = game.legal_continuations()
        play = agents[game.turn].choose_play(plays, view) if len(plays) > 1 else plays[0]
        game.play(play, rng)
    if on_game is not None:
        on_game(game)
    r = game.result
    if cube_log is not None:
        cube_log.final_cube = r.cube_value
    return r.winner, r.outcome, r.points


def play_game_env(agents, seed: int, config: dict, on_game=None,
                  cube_log: "CubeLog | None" = None) -> tuple[int, str, int]:
    """One game through the raw env (cube included); returns (winning side, outcome,
    points); ``cube_log`` records the cube. ``on_game``: called with the finished
    :class:`Game` (not a truncated one), its ``events`` kept (for records; the env then
    plays on the Game, with the same dice)."""
    env = backgammon_v0.raw_env(**config)
    env.reset(seed=seed)
    if on_game is not None:
        env.game.events = []
    while not env.terminations["player_0"] and not env.truncations["player_0"]:
        side = env.possible_agents.index(env.agent_selection)
        action = agents[side].act(env)
        if cube_log is not None:
            cube_log.count(env.game, action)
        env.step(action)
    info = env.infos["player_0"]
    if not info:  # truncated
        return -1, "truncated", 0
    if on_game is not None:
        on_game(env.game)
    if cube_log is not None:
        cube_log.final_cube = int(info["cube_value"])
    return env.possible_agents.index(info["winner"]), info["outcome"], info["points"]


def evaluate(agent_a, agent_b, games: int = 100, seed: int = 0, cube: bool = False,
             progress: bool = False, record=None, **config) -> MatchStats:
    """Play ``games`` games (rounded up to pairs) of A against B, alternating seats with
    the same dice, and return A's statistics. Agents with a ``seed(n)`` method and no seed
    of their own are seeded from ``seed`` (:func:`seed_agents`). ``record``: a
    :class:`bg_env.records.MatchRecord` that every finished game is added to, A as its
    first player (the games are the same with or without it).

    Raises:
        ValueError: ``games`` is not a whole number of 1 or more.
    """
    _check_count("games", games)
    _check_seed(seed)
    seed_agents((agent_a, agent_b), seed)
    name_a = getattr(agent_a, "name", type(agent_a).__name__)
    name_b = getattr(agent_b, "name", type(agent_b).__name__)
    stats = MatchStats(name_a, name_b)
    config = dict(config, cube=cube)
    core = isinstance(agent_a, PlayAgent) and isinstance(agent_b, PlayAgent)
    rules = Rules(**{k: v for k, v in config.items() if k in Rules.keys()})
    if record is not None:
        from bg_env.records import check_rules

        check_rules(rules)  # before playing: a game the record cannot hold
    for game_seed, a_side, seats in _paired_seats(agent_a, agent_b, games, seed,
                                                  progress and f"{name_a} vs {name_b}"):
        on_game = None if record is None else partial(record.add_game, first_side=a_side)
        log = CubeLog() if cube else None
        if core:
            winner, outcome, points = play_game_core(seats, game_seed, rules, on_game, log)
        else:
            winner, outcome, points = play_game_env(seats, game_seed, config, on_game, log)
        if winner < 0:
            continue
        stats.add(points if winner == a_side else -points, outcome)
        if cube:
            stats.add_cube(log, a_side)
    return stats


def seed_agents(agents, seed: int) -> None:
    """Seed every agent that has a ``seed(n)`` method and no ``own_seed`` of its own
    (``load_agent("random")``, not ``"random:7"``) from the evaluation's ``seed``, each
    seat its own stream: the same evaluation seed gives the same games."""
    for i, agent in enumerate(agents):
        if callable(getattr(agent, "seed", None)) and getattr(agent, "own_seed", None) is None:
            agent.seed(int(np.random.SeedSequence([seed, 7919, i]).generate_state(1)[0]))


def _check_count(name: str, n) -> None:
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
        raise ValueError(f"{name}={n!r}: expected a whole number of 1 or more")


def _check_seed(seed) -> None:
    """An evaluation's seed is a whole number of 0 or more (numpy's generators take no
    other)."""
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise ValueError(f"seed={seed!r}: expected a whole number of 0 or more")


def _paired_seats(agent_a, agent_b, n: int, seed: int, progress: str | bool = False):
    """``(seed, A's side, seats)`` for ``n`` games or matches rounded up to pairs: each pair
    shares one seed (the same dice), A first as side 0, then as side 1. ``progress``: a
    progress-bar label, or false for none."""
    pairs = (n + 1) // 2
    iterator = range(pairs)
    if progress:
        from tqdm import tqdm

        iterator = tqdm(iterator, desc=progress, unit="pair")
    seeds = np.random.SeedSequence(seed).generate_state(pairs)
    for i in iterator:
        for a_side in (0, 1):
            yield int(seeds[i]), a_side, ((agent_a, agent_b) if a_side == 0 else (agent_b, agent_a))


# ---------------------------------------------------------------------- match play
def _wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
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
        return _wilson(self.wins, self.matches)

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


class MatchView:
    """What an agent sees of a match played on the core: a stand-in for the raw env with
    ``game`` (the current :class:`Game`), ``match``, ``possible_agents`` and
    ``agent_selection``."""

    possible_agents = ["player_0", "player_1"]

    def __init__(self, match: Match) -> None:
        self.match = match
        self.game: Game | None = None

    @property
    def agent_selection(self) -> str:
        return self.possible_agents[self.game.actor]

    def legal_actions(self) -> list[int]:
        return self.game.legal_actions()


def _decide(agent, game: Game, view: MatchView, rng, cube_log: CubeLog | None = None) -> None:
    """Let ``agent`` (the actor) make the next decision of ``game``; ``cube_log`` counts
    a cube action."""
    if game.phase == Phase.MOVE and isinstance(agent, PlayAgent):
        plays = game.legal_continuations()
        game.play(agent.choose_play(plays, view) if len(plays) > 1 else plays[0], rng)
        return
    if isinstance(agent, PlayAgent):
        action = agent.cube_action(view, game.legal_actions())
    else:
        action = agent.act(view)
    if cube_log is not None:
        cube_log.count(game, action)
    game.step(action, rng)


def play_match(agents, length: int, seed: int, rules: Rules | None = None,
               on_game=None, cube_logs: list | None = None) -> Match:
    """One match to ``length`` points between ``agents[0]`` (side 0) and ``agents[1]``,
    every game's dice drawn from one generator seeded with ``seed``; returns the finished
    :class:`Match`. ``on_game``: called with each finished :class:`Game`, its ``events``
    kept (for records). ``cube_logs``: a list that gets one :class:`CubeLog` per game
    (the games are the same with or without it)."""
    rng = np.random.default_rng(seed)
    match = Match(length, rules or Rules())
    view = MatchView(match)
    while not match.is_over:
        game = view.game = match.new_game(rng)
        log = None if cube_logs is None else CubeLog()
        if on_game is not None:
            game.events = []  # (the opening roll is made; its play is still to come)
        while game.phase != Phase.OVER:
            _decide(agents[game.actor], game, view, rng, log)
        if on_game is not None:
            on_game(game)
        match.record(game.result)
        if log is not None:
            log.final_cube = game.result.cube_value
            cube_logs.append(log)
    return match


def evaluate_matches(agent_a, agent_b, matches: int = 100, length: int = 7, seed: int = 0,
                     cube: bool = True, progress: bool = False, records: list | None = None,
                     **config) -> MatchPlayStats:
    """Play ``matches`` matches (rounded up to pairs) to ``length`` points of A against B,
    each pair from one seed with A first as side 0 then as side 1, and return A's
    statistics. ``config``: rule options of :class:`Rules` (no Jacoby, beavers or
    automatic doubles in match play); ``cube=False`` plays cubeless matches. With the
    cube, the statistics count each side's cube actions and every game's final cube.
    ``records``: a list that gets one :class:`bg_env.records.MatchRecord` per match, A as
    its first player."""
    _check_count("matches", matches)
    _check_seed(seed)
    if isinstance(length, bool) or not isinstance(length, int) or not 1 <= length <= MET_MAX_AWAY:
        raise ValueError(f"match length={length!r}: expected 1..{MET_MAX_AWAY} (the range of "
                         f"the match equity table, as the environments')")
    name_a = getattr(agent_a, "name", type(agent_a).__name__)
    name_b = getattr(agent_b, "name", type(agent_b).__name__)
    unknown = sorted(set(config) - set(Rules.keys()))
    if unknown:
        raise ValueError(f"unknown rule option(s) {unknown}; allowed: {Rules.keys()}")
    rules = Rules(**dict(config, cube=cube))
    seed_agents((agent_a, agent_b), seed)
    stats = MatchPlayStats(name_a, name_b, length)
    on_game = None
    if records is not None:
        from bg_env.records import MatchRecord, check_rules

        check_rules(rules)
    for match_seed, a_side, seats in _paired_seats(
            agent_a, agent_b, matches, seed, progress and f"{name_a} vs {name_b} ({length}-pt)"):
        if records is not None:
            records.append(MatchRecord((name_a, name_b), length))
            on_game = partial(records[-1].add_game, first_side=a_side)
        logs = [] if cube else None
        stats.add(play_match(seats, length, match_seed, rules, on_game, logs), a_side, logs)
    return stats
