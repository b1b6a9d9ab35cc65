"""Head-to-head evaluation: win rate, points per game with a 95% confidence interval,
gammon and backgammon rates.

Games are played in pairs with the same dice: in the first game of pair ``i`` agent A
plays ``player_0``, in the second ``player_1``, both seeded with the same seed, so both
seatings see the same sequence of rolls (the luck of the dice cancels to a large extent).

Two loops give the same games:

* games between agents that judge whole plays (:class:`~agents.players.base.PlayAgent`) run on
  the rules core directly (fast), the cube decided through their ``cube_action``;
* everything else (single-move agents) runs through the raw two-agent env.

With the cube, :class:`MatchStats` (money games) and :class:`MatchPlayStats` (matches)
also count each side's cube actions (doubles, takes, drops, beavers) and the final cube
value of every game.

Match play (:func:`evaluate_matches`) plays matches to N points on the core
(:class:`~bg_env.game.match.Match`), cube and Crawford rule included, again in pairs: match
``i`` is played twice from the same seed, A as side 0 and then as side 1. Agents decide
through a small stand-in for the env (:class:`MatchView`: ``game``, ``match``,
``agent_selection``): a :class:`~agents.players.base.PlayAgent` is asked ``choose_play(plays,
view)`` and ``cube_action(view, legal)``; any other agent ``act(view)``, which works for
agents that read only ``env.game`` (not the observation).
"""

from __future__ import annotations

from functools import partial

import numpy as np

from bg_env import backgammon_v0
from bg_env.game.game import Game, Phase, Rules
from bg_env.game.match import MET_MAX_AWAY, Match

from ..players.base import PlayAgent
from ..config import check_whole
from .eval_checkpoint import EvalCheckpoint
from .eval_stats import CUBE_ACTIONS, CubeLog, MatchPlayStats, MatchStats
from .eval_workers import check_workers, pair_results, play_pair

__all__ = [
    "MatchStats", "MatchPlayStats", "CubeLog", "CUBE_ACTIONS", "MatchView", "evaluate",
    "evaluate_matches", "pairs_of", "play_game_core", "play_game_env", "play_match",
    "seed_agents",
]


def play_game_core(agents: tuple[PlayAgent, PlayAgent], seed: int, rules: Rules,
                   on_game=None, cube_log: "CubeLog | None" = None) -> tuple[int | None, str, int]:
    """One game on the core; returns (winning side, ``None`` for a draw; outcome,
    points). With the cube on
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
                  cube_log: "CubeLog | None" = None) -> tuple[int | None, str, int]:
    """One game through the raw env (cube included); returns (winning side, ``None`` for
    a draw, -1 when truncated; outcome, points); ``cube_log`` records the cube. ``on_game``: called with the finished
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
    if info["winner"] is None:  # a draw
        return None, info["outcome"], info["points"]
    return env.possible_agents.index(info["winner"]), info["outcome"], info["points"]


def evaluate(agent_a, agent_b, games: int = 100, seed: int = 0, cube: bool = False,
             progress: bool = False, record=None, checkpoint=None, workers: int = 1,
             **config) -> MatchStats:
    """Play ``games`` games (rounded up to pairs) of A against B, alternating seats with
    the same dice, and return A's statistics. Agents with a ``seed(n)`` method and no seed
    of their own are seeded from ``seed`` (:func:`seed_agents`). ``record``: a
    :class:`bg_env.records.MatchRecord` that every finished game is added to, A as its
    first player (the games are the same with or without it). ``checkpoint``: an
    :class:`~agents.evaluation.eval_checkpoint.EvalCheckpoint` or its path; the evaluation saves its
    progress there and, when the file is there, goes on from it (the same games as a run
    never stopped). ``workers``: processes that play the pairs (:mod:`agents.evaluation.eval_workers`;
    the same games and statistics as one).

    Raises:
        ValueError: ``games`` is not a whole number of 1 or more; ``checkpoint`` is of
            another evaluation; more than one worker for an agent with its own generator.
    """
    check_whole("games", games, 1)
    check_whole("seed", seed, 0)
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
    run = {"kind": "money", "agent_a": name_a, "agent_b": name_b, "seed": int(seed),
           "rules": config, "records": record is not None}
    workers = check_workers(workers, (agent_a, agent_b))
    stats, done, pair_done = _start(checkpoint, run, stats, (agent_a, agent_b), games,
                                    None if record is None else [record], rules)
    play = partial(_money_game, core=core, rules=rules, config=config, cube=cube,
                   keep=record is not None)
    for a_side, (winner, outcome, points, log, game) in _paired_results(
            (agent_a, agent_b), play, games, seed, progress and f"{name_a} vs {name_b}",
            done, pair_done, workers):
        if game is not None:
            record.add_game(game, first_side=a_side)
        if winner is None:  # a draw: no points
            stats.add(0, outcome)
            continue
        if winner < 0:
            continue
        stats.add(points if winner == a_side else -points, outcome)
        if cube:
            stats.add_cube(log, a_side)
    return stats


def _money_game(seats, seed: int, core: bool, rules: Rules, config: dict, cube: bool,
                keep: bool) -> tuple:
    """One money game of :func:`evaluate`: ``(winning side, outcome, points, its CubeLog or
    None, the finished Game when ``keep``, else None)``."""
    kept = []
    on_game = kept.append if keep else None
    log = CubeLog() if cube else None
    if core:
        result = play_game_core(seats, seed, rules, on_game, log)
    else:
        result = play_game_env(seats, seed, config, on_game, log)
    return (*result, log, kept[0] if kept else None)


def seed_agents(agents, seed: int) -> None:
    """Seed every agent that has a ``seed(n)`` method and no ``own_seed`` of its own
    (``load_agent("random")``, not ``"random:7"``) from the evaluation's ``seed``, each
    seat its own stream: the same evaluation seed gives the same games."""
    for i, agent in enumerate(agents):
        if callable(getattr(agent, "seed", None)) and getattr(agent, "own_seed", None) is None:
            agent.seed(int(np.random.SeedSequence([seed, 7919, i]).generate_state(1)[0]))


def pairs_of(n: int) -> int:
    """The pairs that ``n`` games or matches are played in (an odd ``n`` rounded up)."""
    return (n + 1) // 2


def _start(checkpoint, run: dict, stats, agents, n: int, records, rules):
    """The statistics to fill, the pairs already done and the callback after each pair:
    from ``checkpoint`` (an :class:`EvalCheckpoint`, a path, or None: from the start)."""
    if checkpoint is None:
        return stats, 0, None
    if not isinstance(checkpoint, EvalCheckpoint):
        checkpoint = EvalCheckpoint(checkpoint)
    stats, done = checkpoint.start(run, stats, agents, pairs_of(n), records, rules)
    return stats, done, checkpoint.pair_done


def _paired_results(agents: tuple, play, n: int, seed: int, progress: str | bool = False,
                    done: int = 0, pair_done=None, workers: int = 1):
    """``(A's side, play(seats, seed))`` for ``n`` games or matches rounded up to pairs, in
    order: each pair shares one seed (the same dice), A first as side 0, then as side 1
    (:func:`~agents.evaluation.eval_workers.play_pair`). ``progress``: a progress-bar label, or false
    for none. ``done``: pairs to skip (played before a checkpoint); ``pair_done(pairs
    done)`` is called after each pair. ``workers`` > 1: the pairs are played in that many
    processes (:func:`~agents.evaluation.eval_workers.pair_results`)."""
    pairs = pairs_of(n)
    iterator = range(done, pairs)
    if progress:
        from tqdm import tqdm

        iterator = tqdm(iterator, desc=progress, unit="pair", initial=done, total=pairs)
    seeds = np.random.SeedSequence(seed).generate_state(pairs)[done:]
    if workers > 1:
        played = pair_results(agents, play, seeds, workers)
    else:
        played = (play_pair(agents, play, int(pair_seed)) for pair_seed in seeds)
    try:
        for i, pair in zip(iterator, played):
            yield from pair
            if pair_done is not None:
                pair_done(i + 1)
    finally:
        played.close()  # the workers' pool is shut down now, not when collected


# ---------------------------------------------------------------------- match play
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
                     checkpoint=None, workers: int = 1, **config) -> MatchPlayStats:
    """Play ``matches`` matches (rounded up to pairs) to ``length`` points of A against B,
    each pair from one seed with A first as side 0 then as side 1, and return A's
    statistics. ``config``: rule options of :class:`Rules` (no Jacoby, beavers or
    automatic doubles in match play); ``cube=False`` plays cubeless matches. With the
    cube, the statistics count each side's cube actions and every game's final cube.
    ``records``: a list that gets one :class:`bg_env.records.MatchRecord` per match, A as
    its first player. ``checkpoint`` and ``workers``: as :func:`evaluate`'s."""
    check_whole("matches", matches, 1)
    check_whole("seed", seed, 0)
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
    if records is not None:
        from bg_env.records import MatchRecord, check_rules

        check_rules(rules)
    run = {"kind": "match", "agent_a": name_a, "agent_b": name_b, "seed": int(seed),
           "length": length, "rules": dict(config, cube=cube), "records": records is not None}
    workers = check_workers(workers, (agent_a, agent_b))
    stats, done, pair_done = _start(checkpoint, run, stats, (agent_a, agent_b), matches,
                                    records, rules)
    play = partial(_one_match, length=length, rules=rules, cube=cube,
                   keep=records is not None)
    for a_side, (match, logs, games) in _paired_results(
            (agent_a, agent_b), play, matches, seed,
            progress and f"{name_a} vs {name_b} ({length}-pt)", done, pair_done, workers):
        if records is not None:
            records.append(MatchRecord((name_a, name_b), length))
            for game in games:
                records[-1].add_game(game, first_side=a_side)
        stats.add(match, a_side, logs)
    return stats


def _one_match(seats, seed: int, length: int, rules: Rules, cube: bool, keep: bool) -> tuple:
    """One match of :func:`evaluate_matches`: ``(the finished Match, its games' CubeLogs
    or None, its finished Games when ``keep``, else None)``."""
    games = [] if keep else None
    logs = [] if cube else None
    match = play_match(seats, length, seed, rules, games.append if keep else None, logs)
    return match, logs, games
