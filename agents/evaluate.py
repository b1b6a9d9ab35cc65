"""Head-to-head evaluation: win rate, points per game with a 95% confidence interval,
gammon and backgammon rates.

Games are played in pairs with the same dice: in the first game of pair ``i`` agent A
plays ``player_0``, in the second ``player_1``, both seeded with the same seed, so both
seatings see the same sequence of rolls (the luck of the dice cancels to a large extent).

Two loops give the same games:

* cubeless games between agents that judge whole plays (:class:`~agents.base.PlayAgent`)
  run on the rules core directly (fast);
* everything else (the cube, single-move agents) runs through the raw two-agent env.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field

import numpy as np

from bg_env import backgammon_v0
from bg_env.core.game import Game, Phase, Rules

from .base import PlayAgent

__all__ = ["MatchStats", "evaluate", "play_game_core", "play_game_env"]


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
        d = {k: v for k, v in asdict(self).items() if k != "points"}
        d.update(win_rate=self.win_rate, ppg=self.ppg, ppg_ci95=self.ppg_ci95)
        return d

    def table(self) -> str:
        g = max(self.games, 1)
        return "\n".join([
            f"{self.agent_a} vs {self.agent_b}: {self.games} games",
            f"  win rate        {self.win_rate:7.1%}",
            f"  points/game     {self.ppg:+.3f} +- {self.ppg_ci95:.3f} (95% CI)",
            f"  gammons         won {self.gammons_won / g:6.1%}  lost {self.gammons_lost / g:6.1%}",
            f"  backgammons     won {self.backgammons_won / g:6.1%}  lost {self.backgammons_lost / g:6.1%}",
        ])


def play_game_core(agents: tuple[PlayAgent, PlayAgent], seed: int, rules: Rules) -> tuple[int, str, int]:
    """One cubeless game on the core; returns (winning side, outcome, points)."""
    rng = np.random.default_rng(seed)
    game = Game(rules)
    game.opening(rng)
    while game.phase != Phase.OVER:
        plays = game.legal_continuations()
        play = agents[game.turn].choose_play(plays, None) if len(plays) > 1 else plays[0]
        game.play(play, rng)
    r = game.result
    return r.winner, r.outcome, r.points


def play_game_env(agents, seed: int, config: dict) -> tuple[int, str, int]:
    """One game through the raw env (cube included); returns (winning side, outcome, points)."""
    env = backgammon_v0.raw_env(**config)
    env.reset(seed=seed)
    while not env.terminations["player_0"] and not env.truncations["player_0"]:
        side = env.possible_agents.index(env.agent_selection)
        env.step(agents[side].act(env))
    info = env.infos["player_0"]
    if not info:  # truncated
        return -1, "truncated", 0
    return env.possible_agents.index(info["winner"]), info["outcome"], info["points"]


def evaluate(agent_a, agent_b, games: int = 100, seed: int = 0, cube: bool = False,
             progress: bool = False, **config) -> MatchStats:
    """Play ``games`` games (rounded up to pairs) of A against B, alternating seats with
    the same dice, and return A's statistics."""
    name_a = getattr(agent_a, "name", type(agent_a).__name__)
    name_b = getattr(agent_b, "name", type(agent_b).__name__)
    stats = MatchStats(name_a, name_b)
    config = dict(config, cube=cube)
    core = not cube and isinstance(agent_a, PlayAgent) and isinstance(agent_b, PlayAgent)
    rules = Rules(**{k: v for k, v in config.items() if k in Rules.keys()})
    pairs = (games + 1) // 2
    iterator = range(pairs)
    if progress:
        from tqdm import tqdm

        iterator = tqdm(iterator, desc=f"{name_a} vs {name_b}", unit="pair")
    seeds = np.random.SeedSequence(seed).generate_state(pairs)
    for i in iterator:
        for a_side in (0, 1):
            seats = (agent_a, agent_b) if a_side == 0 else (agent_b, agent_a)
            if core:
                winner, outcome, points = play_game_core(seats, int(seeds[i]), rules)
            else:
                winner, outcome, points = play_game_env(seats, int(seeds[i]), config)
            if winner < 0:
                continue
            stats.add(points if winner == a_side else -points, outcome)
    return stats
