"""Properties of the environments checked over seeded random positions and games.

* Masks against the rules: from random positions of every phase and each of the 21
  rolls, the plays that can be built by following the action mask are exactly the legal
  plays of :meth:`Position.legal_plays` (both directions).
* Invariants on every state of thousands of random games with random cube decisions:
  15 checkers per side, no shared point, the actor always has a legal action and the
  other agent none, rewards zero until the end and zero-sum, and the final reward is the
  cube value times the multiplier the final board shows (recomputed here), or the cube
  value before the double for a drop.

Every random choice comes from a seeded ``random.Random``; a failure prints the Position
ID, the dice and the rendered board so it can be replayed.
"""

from __future__ import annotations

import copy
import random
import time

import numpy as np
import pytest

from bg_env.actions import BEAVER, DOUBLE, DROP, N_ACTIONS, ROLL, TAKE
from bg_env.rules import Position, legal_plays
from bg_env.game.game import Game, Phase
from bg_env.rules.position import BAR, InvalidPositionError
from bg_env.envs import backgammon as bg_module
from bg_env.envs import start as start_module
from bg_env.envs.backgammon import raw_env

ALL_ROLLS = [(a, b) for a in range(1, 7) for b in range(a, 7)]
assert len(ALL_ROLLS) == 21


# --------------------------------------------------------------------------------
# A seeded generator of random legal positions, from the side of the player on roll.
# Layouts are built in x's numbering (x = player on roll, 25 = bar for either side);
# o's checker on x's point p stands on o's own point 25 - p.
# --------------------------------------------------------------------------------
PHASES = ("contact", "bar", "closed", "bearoff", "bearoff_contact", "race", "playout")


def _build(x: dict[int, int], o: dict[int, int]) -> Position:
    opp = {(BAR if p == BAR else 25 - p): n for p, n in o.items() if n}
    return Position.from_layout({p: n for p, n in x.items() if n}, opp)


def _scatter(rng: random.Random, n: int, points: list[int], avoid: dict[int, int],
             into: dict[int, int]) -> None:
    """Drop ``n`` checkers on ``points`` not held by ``avoid``; later checkers tend to
    join points already used (so points get made)."""
    allowed = [p for p in points if not avoid.get(p)]
    if not allowed:
        return
    for _ in range(n):
        used = [p for p in into if p in allowed]
        p = rng.choice(used) if used and rng.random() < 0.45 else rng.choice(allowed)
        into[p] = into.get(p, 0) + 1


def _contact(rng):
    x: dict[int, int] = {}
    o: dict[int, int] = {}
    _scatter(rng, 15 - rng.choice([0, 0, 1, 4]), list(range(1, 25)), o, x)
    _scatter(rng, 15 - rng.choice([0, 0, 2]), list(range(1, 25)), x, o)
    for side in (x, o):
        if rng.random() < 0.25:
            side_points = [p for p, n in side.items() if n and p != BAR]
            k = min(rng.randint(1, 2), len(side_points))
            for p in rng.sample(side_points, k):
                side[p] -= 1
                side[BAR] = side.get(BAR, 0) + 1
    return x, o


def _bar(rng, made=None):
    """x has several checkers on the bar; o has ``made`` points in x's entry board
    (x's points 19..24), maybe blots there too."""
    made = rng.randint(1, 4) if made is None else made
    o: dict[int, int] = {}
    for p in rng.sample(range(19, 25), made):
        o[p] = rng.randint(2, 3)
    free = [p for p in range(19, 25) if p not in o]
    for p in rng.sample(free, min(len(free), rng.randint(0, 2))):
        o[p] = 1
    _scatter(rng, max(0, 15 - sum(o.values()) - rng.randint(0, 2)), list(range(7, 19)), {}, o)
    x: dict[int, int] = {BAR: rng.randint(2, 4) if made < 6 else rng.randint(1, 3)}
    _scatter(rng, 15 - x[BAR] - rng.randint(0, 2), list(range(1, 25)), o, x)
    return x, o


def _closed(rng):
    return _bar(rng, made=rng.choice([5, 6]))


def _bearoff(rng, contact=False):
    x: dict[int, int] = {}
    _scatter(rng, rng.randint(1, 15), list(range(1, 7)), {}, x)
    o: dict[int, int] = {}
    if contact:
        # o's blots and points inside x's home board, maybe o on the bar, maybe x hit
        for p in [q for q in range(1, 7) if q not in x][: rng.randint(1, 3)]:
            o[p] = rng.choice([1, 1, 2])
        if rng.random() < 0.3:
            o[BAR] = 1
        if rng.random() < 0.4 and sum(x.values()) < 15:
            x[BAR] = 1
            for p in rng.sample(range(19, 25), rng.randint(0, 4)):
                o[p] = 2
    _scatter(rng, max(0, 15 - sum(o.values()) - rng.randint(0, 3)), list(range(7, 25)), x, o)
    return x, o


def _race(rng):
    split = rng.randint(4, 21)  # x on 1..split-1, o on split..24: no contact
    x: dict[int, int] = {}
    o: dict[int, int] = {}
    _scatter(rng, rng.randint(1, 15), list(range(1, split)), {}, x)
    _scatter(rng, rng.randint(1, 15), list(range(split, 25)), {}, o)
    return x, o


def _playout(rng):
    """A position reached by random legal plays from the start (returns a Position)."""
    position = Position.start()
    for _ in range(rng.randint(1, 60)):
        play = rng.choice(legal_plays(position, (rng.randint(1, 6), rng.randint(1, 6))))
        if play.result.outcome() is not None:
            break
        position = play.result.swap()
    return position


_MAKERS = {
    "contact": _contact,
    "bar": _bar,
    "closed": _closed,
    "bearoff": _bearoff,
    "bearoff_contact": lambda rng: _bearoff(rng, contact=True),
    "race": _race,
    "playout": _playout,
}


def random_position(rng: random.Random, phase: str) -> Position:
    """A random legal position of ``phase`` (no shared point, game not over)."""
    while True:
        made = _MAKERS[phase](rng)
        if isinstance(made, Position):
            position = made
        else:
            try:
                position = _build(*made)
            except InvalidPositionError:
                continue
        if sum(position.me) == sum(position.opp) == 15 and position.outcome() is None:
            if phase in ("contact", "race", "playout") and rng.random() < 0.3:
                position = position.swap()
            return position


def test_generator_covers_every_phase():
    """The generator is deterministic and its phases give what they promise."""
    a = [random_position(random.Random(7), ph).position_id() for ph in PHASES]
    b = [random_position(random.Random(7), ph).position_id() for ph in PHASES]
    assert a == b
    rng = random.Random(1)
    for _ in range(30):
        p = random_position(rng, "bar")
        assert p.me[BAR] >= 2 or sum(1 for q in range(1, 7) if p.opp[q] >= 2) == 6
        p = random_position(rng, "bearoff")
        assert not any(p.me[7:26]) and p.me[0] < 15
        p = random_position(rng, "closed")
        assert p.me[BAR] >= 1 and sum(1 for q in range(1, 7) if p.opp[q] >= 2) >= 5


# --------------------------------------------------------------------------------
# Masks against the rules
# --------------------------------------------------------------------------------
class _PlayRecorder(Game):
    """A Game that, instead of ending the turn when the play is complete, records the
    position at that moment (still from the mover's side) and stops there."""

    completed: Position | None = None

    def _go_on(self, rng) -> None:  # the Game's flow after each kernel call
        if self.phase == Phase.MOVE and self.moves_left == 0:  # a complete play: stop here
            self.completed = self.position
            return
        super()._go_on(rng)


def _fork(game: Game) -> Game:
    """A copy of ``game`` that can be stepped without touching the original."""
    return copy.deepcopy(game)


def _mask_results(e: raw_env) -> tuple[set[str], list[str]]:
    """Follow every mask path from the env's state (DFS: each branch steps the env on a
    copy of its ``game``, merging identical partial plays); return the Position IDs
    of the completed plays and a list of problems met on the way (dead ends, masks given
    to the wrong agent). The env's game is restored at the end."""
    results: set[str] = set()
    problems: list[str] = []
    seen: set[tuple] = set()

    def visit(path: tuple[int, ...]) -> None:
        g = e.game
        if g.completed is not None:
            results.add(g.completed.position_id())
            return
        key = (g.position, tuple(sorted(g.remaining)), g.moves_left)
        if key in seen:
            return
        seen.add(key)
        agent = e.agent_selection
        mask = e.observe(agent)["action_mask"]
        if not path:
            other = [a for a in e.possible_agents if a != agent][0]
            if e.observe(other)["action_mask"].any():
                problems.append("the agent not acting has a non-zero mask")
        actions = np.flatnonzero(mask).tolist()
        if not actions:
            problems.append(f"path {path}: empty mask before the play is complete")
            return
        if any(a >= 150 for a in actions):
            problems.append(f"path {path}: cube actions {actions} in checker play")
            return
        for a in actions:
            e.game = _fork(g)
            e.step(a)
            if e.agent_selection != agent and e.game.completed is None:
                problems.append(f"path {path + (a,)}: {agent} lost the turn mid-play")
            visit(path + (a,))
            e.game, e.agent_selection = g, agent

    root = e.game
    visit(())
    e.game = root
    return results, problems


@pytest.fixture
def recording_env(monkeypatch):
    """A raw env whose games stop (and record the board) when a play is complete."""
    monkeypatch.setattr(bg_module, "Game", _PlayRecorder)
    monkeypatch.setattr(start_module, "Game", _PlayRecorder)  # (reset with options)
    return raw_env()


def _check_masks(env: raw_env, position: Position, dice: tuple[int, int]) -> None:
    pid = position.position_id()
    env.reset(seed=0, options={"position_id": pid, "dice": dice})
    assert isinstance(env.game, _PlayRecorder)
    expected = {p.result.position_id() for p in position.legal_plays(dice)}
    got, problems = _mask_results(env)
    where = f"\nposition {pid} dice {dice}\n{position}"
    assert not problems, "\n".join(problems[:5]) + where
    extra = got - expected
    missing = expected - got
    assert not extra, f"mask paths that are not legal plays -> {sorted(extra)}{where}"
    assert not missing, f"legal plays no mask path reaches -> {sorted(missing)}{where}"


@pytest.mark.parametrize("phase", PHASES)
def test_mask_paths_are_exactly_the_legal_plays(recording_env, phase):
    """Every play built by following masks is legal and every legal play can be built,
    for random positions of ``phase`` and all 21 rolls."""
    rng = random.Random(f"masks-{phase}")
    for _ in range(5):
        position = random_position(rng, phase)
        for dice in ALL_ROLLS:
            _check_masks(recording_env, position, dice)


@pytest.mark.parametrize(
    "pid, dice",
    [
        ("4HPwATDgc/ABMA", (3, 1)),  # the opening 3-1
        ("4HPwATDgc/ABMA", (6, 6)),
        ("4HPwATDgc/ABMA", (5, 5)),
    ],
)
def test_mask_paths_from_the_start(recording_env, pid, dice):
    _check_masks(recording_env, Position.from_position_id(pid), dice)


def test_recorder_sees_the_opening_3_1(recording_env):
    """The DFS itself works: 8/5 6/5 is among the results of the opening 3-1."""
    recording_env.reset(options={"position_id": "4HPwATDgc/ABMA", "dice": (3, 1)})
    got, problems = _mask_results(recording_env)
    assert not problems
    assert "4HPwATCwZ/ABMA" in got
    assert len(got) == len(Position.start().legal_plays((3, 1)))


# --------------------------------------------------------------------------------
# Invariants over random games with random cube decisions
# --------------------------------------------------------------------------------
def _next_cube(value: int, progression: str) -> int:
    return (2 if value < 2 else value + 1) if progression == "arithmetic" else value * 2


def _board_multiplier(position: Position) -> tuple[int, str]:
    """Which side (0 = ``me``, 1 = ``opp``) has borne off all its checkers, and what the
    loser's checkers say: gammon if he has none off; backgammon if besides he has one on
    the bar or in the winner's home board (the loser's own points 19..24)."""
    me_done = not any(position.me[1:26])
    opp_done = not any(position.opp[1:26])
    assert me_done != opp_done, f"final board is not a finished game\n{position}"
    loser = position.opp if me_done else position.me
    if loser[0] > 0:
        kind = "single"
    elif any(loser[19:26]):
        kind = "backgammon"
    else:
        kind = "gammon"
    return (0 if me_done else 1), kind


def _expected_points(kind: str, cube: int, cfg: dict, turned: bool) -> int:
    mult = {"single": 1, "gammon": 2, "backgammon": 3}[kind]
    gammons = cfg.get("gammons", "all")
    if gammons == "none" or (cfg.get("jacoby") and not turned):
        mult = 1
    elif gammons == "no_backgammons":
        mult = min(mult, 2)
    return cube * mult


CONFIGS = [
    {"cube": True},
    {"cube": True, "beaver": True},
    {"cube": True, "jacoby": True},
    {"cube": True, "gammons": "no_backgammons", "beaver": True},
    {"cube": True, "gammons": "none"},
    {"cube": True, "max_cube": 4},
    {"cube": True, "cube_progression": "arithmetic", "max_cube": 0},
    {"cube": True, "auto_doubles": 2},
    {},  # the default: no cube
    {"cube": True, "reward": "win"},
]


def _play_random_game(env: raw_env, rng: random.Random, cfg: dict, options: dict | None) -> dict:
    """Play one game with random actions (random cube decisions too), checking the
    invariants on every state. Returns counters for the coverage check."""
    env.reset(seed=rng.randrange(2**31), options=options)
    g = env.game
    progression = cfg.get("cube_progression", "geometric")
    stake = g.cube_value  # our own model of the cube
    offered = None
    turned = False
    expect_drop = None
    stats = {"steps": 0, "outcome": None}
    p_double = rng.choice([0.05, 0.3, 0.7])
    while True:
        pos = g.position
        assert sum(pos.me) == 15 and sum(pos.opp) == 15, f"checkers not conserved: {pos!r}"
        pos.validate()  # no point holds checkers of both sides
        if env.terminations[env.agent_selection] or env.truncations[env.agent_selection]:
            break
        assert all(v == 0 for v in env.rewards.values()), f"reward before the end: {env.rewards}"
        agent = env.agent_selection
        other = [a for a in env.possible_agents if a != agent][0]
        mask = env.observe(agent)["action_mask"]
        assert mask.dtype == np.int8 and mask.shape == (N_ACTIONS,)
        legal = np.flatnonzero(mask).tolist()
        assert legal, f"{agent} must act but has no legal action in phase {g.phase}: {pos!r}"
        if stats["steps"] % 8 == 0:  # (on every step these would double the cost)
            assert not env.observe(other)["action_mask"].any(), "the waiting agent has a mask"
            assert legal == sorted(env.legal_actions())
        if g.phase == Phase.CUBE:
            assert legal == [ROLL, DOUBLE]
            action = DOUBLE if rng.random() < p_double else ROLL
        elif g.phase == Phase.TAKE:
            max_cube = cfg.get("max_cube", 64)
            may_beaver = bool(cfg.get("beaver")) and (
                max_cube == 0 or _next_cube(offered, progression) <= max_cube)
            assert legal[:2] == [TAKE, DROP] and (BEAVER in legal) == may_beaver
            action = rng.choice(legal)
        elif g.phase == Phase.BEAVER_TAKE:
            assert legal == [TAKE, DROP]
            action = rng.choice(legal)
        else:
            assert g.phase == Phase.MOVE and max(legal) < 150
            action = rng.choice(legal)
        # our cube model
        if action == DOUBLE:
            offered = _next_cube(stake, progression)
            if cfg.get("max_cube", 64):
                assert offered <= cfg.get("max_cube", 64), "a double beyond max_cube was offered"
            assert g.cube_owner in (-1, env.possible_agents.index(agent)), "non-owner doubles"
        elif action == BEAVER:
            stake, offered = offered, _next_cube(offered, progression)
        elif action == DROP:
            expect_drop = stake
        elif action == TAKE:
            stake, turned = offered, True
        env.step(action)
        stats["steps"] += 1
        if g.phase != Phase.OVER:
            assert g.cube_value == stake, f"cube {g.cube_value}, expected {stake}"
    rewards = dict(env.rewards)
    assert sum(rewards.values()) == 0, f"rewards not zero-sum: {rewards}"
    if env.truncations[env.agent_selection]:
        assert all(v == 0 for v in rewards.values())
        stats["outcome"] = "truncated"
        return stats
    r = g.result
    winner = env.possible_agents[r.winner]
    info = env.infos[winner]
    assert info["winner"] == winner and info["outcome"] == r.outcome
    if expect_drop is not None:
        assert r.outcome == "drop"
        assert r.cube_value == expect_drop and r.points == expect_drop, (r, expect_drop)
        points = expect_drop
    else:
        side, kind = _board_multiplier(g.position)
        # the final board is seen from the side that made the last play: the winner
        assert side == 0 and g.turn == r.winner
        assert r.outcome == kind, (r.outcome, kind, g.position)
        assert r.cube_value == stake
        points = _expected_points(kind, stake, cfg, turned)
        assert r.points == points, (r, kind, stake, cfg, turned)
    value = 1 if cfg.get("reward") == "win" else points
    assert rewards[winner] == value and rewards[[a for a in rewards if a != winner][0]] == -value
    stats["outcome"] = r.outcome
    return stats


N_GAMES = 1500


def test_invariants_over_random_games():
    """Thousands of random games (from the start and from random positions of every
    phase, under every rule option), every visited state checked."""
    rng = random.Random(20240611)
    outcomes: dict[str, int] = {}
    games = steps = 0
    t0 = time.process_time()  # CPU time: stable on a busy machine
    envs = {i: raw_env(**cfg) for i, cfg in enumerate(CONFIGS)}
    while games < N_GAMES:
        i = games % len(CONFIGS)
        cfg = CONFIGS[i]
        if games % 8 == 0:
            options = None  # a whole game from the opening roll
        else:
            phase = rng.choice(("bearoff", "bearoff", "bearoff_contact", "bearoff_contact",
                                "race", "bar", "closed", "contact"))
            options = {"position_id": random_position(rng, phase).position_id(),
                       "agent": rng.choice(["player_0", "player_1"])}
        stats = _play_random_game(envs[i], rng, cfg, options)
        outcomes[stats["outcome"]] = outcomes.get(stats["outcome"], 0) + 1
        steps += stats["steps"]
        games += 1
    elapsed = time.process_time() - t0
    # the sweep must actually have met every way a game ends
    for kind in ("single", "gammon", "backgammon", "drop"):
        assert outcomes.get(kind, 0) >= 20, outcomes
    assert steps > 30_000, steps
    # about 30 s of CPU; a generous bound catches a runaway slowdown of the env
    assert elapsed < 120, f"{games} games took {elapsed:.1f}s of CPU time"


def test_truncation_keeps_rewards_zero():
    env = raw_env(max_turns=3)
    env.reset(seed=3)
    n = 0
    while not (env.terminations[env.agent_selection] or env.truncations[env.agent_selection]):
        env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
        n += 1
        assert n < 500
    assert all(env.truncations.values()) and not any(env.terminations.values())
    assert env.game.turns == 3
    assert all(v == 0 for v in env.rewards.values())
