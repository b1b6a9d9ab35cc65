"""The batched games of :mod:`bg_env.kernels.batch` against a built-in opponent, played in
the kernels (the fast path of ``make_vec_env(n, opponent=...)``): :data:`RANDOM` (uniform
over the legal actions, ``batch``'s opponent) or :data:`PUBEVAL` (Tesauro's pubeval).
One episode loop and one loop of the opponent's turns serve both; only the choice
of the opponent's action differs (:func:`~.batch.random_action` or
:func:`_pubeval_action`). Every variant: those whose
moves are not standard pass their turns ``vt`` (:mod:`~.batch_variants`) to every kernel.

The pubeval opponent
plays as ``agents.players.pubeval.PubevalAgent`` does in the single envs: cubeless
(never doubles, always takes), and on its move it makes the legal play whose result
pubeval scores highest (:func:`bg_env.kernels.pubeval.pubeval_best`), with the race
flag read from the position when it first decides (after any forced moves the game played
for it, as ``Game.legal_continuations`` hands them to the agent).

Forced moves are played by the state machine before the opponent decides; the standard
plays are enumerated from the turn's start (the forced moves undone) with the turn's roll,
whose results are the same as the continuations' (a forced move begins every legal play).
A variant's plays are its turn's own continuations from the moves made so far
(:func:`~.batch_variants.row_plays`: a sudden-death play stops at the hit, a Caucasian
hitter stays in its home board), the same plays ``agents.players.pubeval.PubevalAgent`` chooses
among. Pubeval judges boards of the backgammon family; the vector env does not ask it to
play Plakoto or Long Nardy (:func:`bg_env.envs.kernel_batch.kernels_play`).

Pubeval's buffers (the turn's starting board, a variant's plays) are made once per batch
(:func:`new_work`) and passed to the kernels as ``work``; every decision overwrites what
it reads, in money games and matches (:mod:`~.batch_match`) alike (the random opponent
is given small ones it never reads).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..rules.actions import ROLL, TAKE
from .batch import (N_PLAYED, P_CUBE, P_MOVE, P_OVER, PHASE, PLAYED0, ROLL0, ROLL1,
                    TURNS, act_row, random_action, actor, open_row, resume_row)
from .batch_variants import row_plays
from .borrow import borrowed
from .dice import below
from .pubeval import best_result, is_race, pubeval_best
from .variant_moves import BOARD
from .variant_search import HIT_CODE

__all__ = ["RANDOM", "PUBEVAL", "OPPONENTS", "SKIP", "start_episodes", "continue_episodes",
           "step_against", "turn_start", "variant_plays", "PLAYS_CAP", "new_work", "fitted_work",
           "borrowed_work", "PUBEVAL_KEY", "pubeval_turn_action"]

RANDOM, PUBEVAL = 0, 1
OPPONENTS = {"random": RANDOM, "pubeval": PUBEVAL}
"""The built-in opponents by name, as the kernels number them."""

SKIP = -1
"""The action that leaves a game as it is (status 0, nothing drawn from its generator):
:func:`step_against` and the match kernels pass such a row by (a vector env's next-step
autoreset, where the action of a game that has just ended is ignored)."""


@njit(cache=True)
def turn_start(s, me, opp, start_me, start_opp):
    """The board at the start of the current play: ``me``/``opp`` with the moves played
    this turn (``PLAYED0..``, ``action + 150 * hit``) taken back."""
    for p in range(26):
        start_me[p] = me[p]
        start_opp[p] = opp[p]
    for k in range(s[N_PLAYED] - 1, -1, -1):
        code = s[PLAYED0 + k]
        action = code % 150
        source = action // 6 + 1
        dest = max(source - (action % 6 + 1), 0)
        start_me[dest] -= 1
        start_me[source] += 1
        if code >= 150:
            start_opp[25] -= 1
            start_opp[25 - dest] += 1


PLAYS_CAP = 128
"""How many plays the buffers of a variant's plays hold at first (four times more, and
again, when a roll has more)."""


@njit(cache=True)
def new_work(cap=PLAYS_CAP):
    """The opponents' work arrays for one batch, made once and handed to the kernels
    below (``work``), so that their decisions allocate nothing: ``(start, boards, moves,
    lengths, table, plan, need)``: the board at the turn's start (``int64[2, 26]``),
    room for ``cap`` of a variant's plays (:func:`variant_plays`), pubeval's play for
    the turn (``plan``, :func:`opponents_turns`) and ``need[0]``, the most plays a roll
    has needed room for (:func:`fitted_work`). Every decision overwrites what it reads:
    nothing passes from one row or decision to the next."""
    start = np.zeros((2, 26), np.int64)
    boards = np.zeros((cap, BOARD), np.int64)
    moves = np.zeros((cap, 4), np.int64)
    lengths = np.zeros(cap, np.int64)
    table = np.zeros(4 * cap, np.int64)
    plan = np.zeros(5, np.int64)
    need = np.zeros(1, np.int64)
    return start, boards, moves, lengths, table, plan, need


def fitted_work(work):
    """``work`` (:func:`new_work`), or larger work arrays when a roll needed more room
    than they hold (the kernels then made room for that decision alone)."""
    need, cap = int(work[-1][0]), work[1].shape[0]
    return work if need <= cap else new_work(need)


@njit(cache=True)
def borrowed_work(work):
    """``work`` (:func:`new_work`) as borrowed views (:func:`~.borrow.borrowed`), for a
    kernel called with it from Python."""
    return (borrowed(work[0]), borrowed(work[1]), borrowed(work[2]), borrowed(work[3]),
            borrowed(work[4]), borrowed(work[5]), borrowed(work[6]))


@njit(cache=True)
def variant_plays(vt, i, work):
    """Row ``i``'s ways to finish its play (:func:`~.batch_variants.row_plays`) in the
    buffers of ``work`` (:func:`new_work`), or in larger ones made for this decision when
    they are full (four times more, and again; ``work``'s ``need[0]`` records the room
    used): ``(boards, moves, lengths, n)``."""
    _, boards, moves, lengths, table, _, need = work
    cap = boards.shape[0]
    while True:
        n = -1
        try:
            n = row_plays(vt, i, boards, moves, lengths, table)
        except Exception:  # full: more room
            cap *= 4
            boards = np.empty((cap, BOARD), np.int64)
            moves = np.empty((cap, 4), np.int64)
            lengths = np.empty(cap, np.int64)
            table = np.empty(4 * cap, np.int64)
        if n >= 0:
            need[0] = max(need[0], cap)
            return boards, moves, lengths, n


@njit(cache=True)
def _plan_variant_play(s, me, opp, plan, vt, i, work):
    """Pubeval's choice among the variant's ways to finish row ``i``'s play from the moves
    made so far (``Game.legal_continuations``, as the agent is handed them), its moves into
    ``plan`` from the turn's move ``N_PLAYED`` on."""
    boards, moves, lengths, n = variant_plays(vt, i, work)
    best = best_result(boards[:, :26], boards[:, 26:52], n, is_race(me, opp))
    base = s[N_PLAYED]
    for j in range(lengths[best]):
        plan[base + j] = moves[best, j] % HIT_CODE


@njit(cache=True)
def _plan_play(s, me, opp, plan, vt, i, work):
    """Pubeval's play for the current turn into ``plan`` (its actions in playable order,
    -1 padded; ``vt``: the variant turns of a variant whose moves are not standard, for
    row ``i``; ``work``: :func:`new_work`'s arrays)."""
    if vt is not None:
        _plan_variant_play(s, me, opp, plan, vt, i, work)
        return
    start = work[0]
    turn_start(s, me, opp, start[0], start[1])
    _, _, actions, best = pubeval_best(start[0], start[1], s[ROLL0], s[ROLL1],
                                       is_race(me, opp))
    for j in range(4):
        plan[j] = actions[best, j]


@njit(cache=True)
def _pubeval_action(s, me, opp, i, plan, vt, work):
    """Pubeval's next action: the next move of its play for this turn, in ``plan[1:5]``,
    made when ``plan[0]`` is not this turn's ``TURNS``; the roll on its cube turn, the
    take."""
    if s[PHASE] == P_MOVE:
        if plan[0] != s[TURNS]:
            _plan_play(s, me, opp, plan[1:], vt, i, work)
            plan[0] = s[TURNS]
        return plan[1 + s[N_PLAYED]]
    if s[PHASE] == P_CUBE:
        return ROLL
    return TAKE


PUBEVAL_KEY = 2 + 2 * 26
"""The length of :func:`pubeval_turn_action`'s ``key``: the roll and the board at the
turn's start."""


@njit(cache=True)
def pubeval_turn_action(s, me, opp, key, work):
    """Pubeval's next action in the game of row ``s``/``me``/``opp`` (standard moves),
    for an opponent that is called once a decision from outside the kernels (a single
    env's): its play is planned at its first decision of a turn (:func:`_pubeval_action`,
    the race flag read there) and kept in ``work``'s ``plan`` (with the turn count) while
    ``key`` (int64[:data:`PUBEVAL_KEY`], its own) holds the same roll and turn-start
    board; another game or turn plans again. The same turn of another game is planned
    alike (pubeval's play depends on nothing else), so no reset is needed between games."""
    plan = work[5]
    if s[PHASE] == P_MOVE:
        start = work[0]
        turn_start(s, me, opp, start[0], start[1])
        fresh = key[0] != s[ROLL0] or key[1] != s[ROLL1]
        for p in range(26):
            if key[2 + p] != start[0, p] or key[28 + p] != start[1, p]:
                fresh = True
        if fresh:
            key[0], key[1] = s[ROLL0], s[ROLL1]
            for p in range(26):
                key[2 + p] = start[0, p]
                key[28 + p] = start[1, p]
            plan[0] = -1
    return _pubeval_action(s, me, opp, 0, plan, None, work)


@njit(cache=True, inline="always")
def opponents_turns(opponent, s, me, opp, seeds, i, rules, mask, side, max_turns, work,
                    vt=None):
    """The opponent decides until ``side`` must act; returns 0 then, 1 when the game is
    over, 2 when truncated (``max_turns > 0`` turns reached first; the environments check
    it after every decision). ``vt``: the variant turns (:mod:`~.batch_variants`) of a
    variant whose moves are not standard; ``work``: the opponents' work arrays
    (:func:`new_work`; pubeval's play for the turn goes in its ``plan``)."""
    plan = work[5]
    plan[0] = -1  # no play planned for this game yet
    while True:
        if s[PHASE] == P_OVER:
            return 1
        if max_turns > 0 and s[TURNS] >= max_turns:
            return 2
        if actor(s) == side:
            return 0
        if opponent == RANDOM:  # (inlined: no call carrying pubeval's work arrays)
            action = random_action(seeds, i, mask)
        else:
            action = _pubeval_action(s, me, opp, i, plan, vt, work)
        if not act_row(s, me, opp, seeds, i, rules, mask, action, vt):
            raise RuntimeError("the opponent's action is not legal")


@njit(cache=True)
def start_episodes(opponent, state, me, opp, seeds, rules, mask, which, sides, learner,
                   max_turns, work, vt=None):
    """New games against ``opponent`` where ``which[i]``: the learner's side is ``learner``
    (0 or 1), or drawn from the game's generator when ``learner < 0``; the opponent plays
    until the learner must decide (a game that ends first is replayed). ``work``:
    pubeval's arrays (:func:`new_work`)."""
    state, me, opp, seeds, rules, mask = (borrowed(state), borrowed(me), borrowed(opp),
                                          borrowed(seeds), borrowed(rules), borrowed(mask))
    work = borrowed_work(work)
    for i in range(state.shape[0]):
        if not which[i]:
            continue
        while True:
            sides[i] = learner if learner >= 0 else below(seeds, i, 2)
            open_row(state[i], me[i], opp[i], rules, mask[i], seeds, i, 0, 0, vt)
            if opponents_turns(opponent, state[i], me[i], opp[i], seeds, i, rules, mask[i],
                                sides[i], max_turns, work, vt) == 0:
                break


@njit(cache=True)
def continue_episodes(opponent, state, me, opp, seeds, rules, mask, which, sides, learner,
                      max_turns, status, work, vt=None):
    """Games put in the rows where ``which[i]`` (a :class:`~bg_env.game.game.Game`'s row,
    :meth:`~bg_env.kernels.games.Games.put`) go on against ``opponent``: the learner's side
    is ``learner`` (0 or 1), or drawn from the game's generator when ``learner < 0``; the
    row goes on by itself (:func:`~bg_env.kernels.batch.resume_row`) and the opponent
    plays until the learner must decide. ``status[i]``: 0 then, 1 or 2 (over, truncated)
    when the game ended before the learner's first decision."""
    state, me, opp, seeds, rules, mask = (borrowed(state), borrowed(me), borrowed(opp),
                                          borrowed(seeds), borrowed(rules), borrowed(mask))
    work = borrowed_work(work)
    for i in range(state.shape[0]):
        if not which[i]:
            continue
        sides[i] = learner if learner >= 0 else below(seeds, i, 2)
        resume_row(state[i], me[i], opp[i], rules, mask[i], seeds, i, 0, 0, vt)
        status[i] = opponents_turns(opponent, state[i], me[i], opp[i], seeds, i, rules,
                                    mask[i], sides[i], max_turns, work, vt)


@njit(cache=True)
def step_against(opponent, state, me, opp, seeds, rules, mask, sides, actions, max_turns,
                 status, work, vt=None):
    """The learner of game ``i`` plays ``actions[i]``, then ``opponent`` until the learner
    must decide again. ``status[i]``: 0 the game goes on, 1 it is over, 2 it was
    truncated, 3 the action was illegal (nothing changed); an action of :data:`SKIP`
    leaves game ``i`` as it is. ``work``: pubeval's arrays (:func:`new_work`)."""
    state, me, opp, seeds, rules, mask = (borrowed(state), borrowed(me), borrowed(opp),
                                          borrowed(seeds), borrowed(rules), borrowed(mask))
    work = borrowed_work(work)
    for i in range(state.shape[0]):
        if actions[i] == SKIP:
            status[i] = 0
            continue
        if not act_row(state[i], me[i], opp[i], seeds, i, rules, mask[i], actions[i], vt):
            status[i] = 3
            continue
        status[i] = opponents_turns(opponent, state[i], me[i], opp[i], seeds, i, rules,
                                     mask[i], sides[i], max_turns, work, vt)
