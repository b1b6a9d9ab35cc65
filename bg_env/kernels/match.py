"""Many matches at once: match play (RULES.md §9) over the batched games of
:mod:`bg_env.kernels.batch`, against a built-in opponent of :mod:`bg_env.kernels.opponents`
(the fast path of ``make_vec_env(n, match_length=N)``).

The rules are those of :class:`bg_env.game.match.Match` (the truth; the vector env is
tested against the single env, which plays :class:`~bg_env.game.match.Match`, in lockstep):

* each game's points (cube value x 1, 2 or 3 under the ``gammons`` option; gammons count in
  full: match play has no Jacoby rule, beavers or automatic doubles) go to its winner; the
  score is the real one (it may pass the length); the first side to reach ``length`` wins;
* the **Crawford game**, the first game after a side comes to 1-away, is played without
  the cube (the rules row ``crawford_rules``, the cube switched off); the games after it
  are post-Crawford, with the cube again; a side that jumps past 1-away to the end wins
  and there is no Crawford game; a 1-point match is post-Crawford from the start;
* the cube has no limit beyond ``max_cube`` (doubling past what the match needs is
  allowed, as in :class:`~bg_env.game.match.Match`).

State of match ``i``: ``match[i]``, ``int64`` columns named by the constants below (the
length, the score, the Crawford flag, games played, Crawford games played, and the
winner, -1 while the match goes on). The game being played is row ``i`` of the
:class:`~bg_env.kernels.games.Games` arrays, under ``rules`` or, in the Crawford game,
``crawford_rules``.

Rewards (``reward[i]``, added to, from the learner's side): ``+-1`` when the match ends
(``equity=0``), or after every game twice its change in the learner's match-winning chance
(``equity=1``; the chances are read from the tables ``pre`` and ``post`` that the caller
builds from :func:`bg_env.game.match.match_equity`: ``pre[a - 1, b - 1]`` the chance
``a``-away against ``b``-away before the Crawford game has been played, ``post[a - 1]``
the chance ``a``-away against 1-away post-Crawford).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .batch import OPEN_BY, POINTS, WINNER, act_row, next_starter, open_row, resume_row
from .opponents import SKIP, borrowed_work, opponents_turns
from .dice import below
from .borrow import borrowed

__all__ = ["M_COLUMNS", "M_LENGTH", "M_SCORE0", "M_CRAWFORD", "M_GAMES", "M_CRAWFORD_GAMES",
           "M_WINNER", "new_match", "record_game", "match_equity_kernel", "post_crawford",
           "start_matches", "continue_matches", "step_matches", "equities", "post_crawfords"]

# columns of the match array
M_LENGTH, M_SCORE0, M_SCORE1, M_CRAWFORD, M_GAMES, M_CRAWFORD_GAMES, M_WINNER = range(7)
M_COLUMNS = 7


# ------------------------------------------------------------------ the match rules
@njit(cache=True)
def new_match(m, length):
    """A match to ``length`` points at 0-0."""
    m[:] = 0
    m[M_LENGTH] = length
    m[M_WINNER] = -1


@njit(cache=True)
def _away(m, side):
    """Points ``side`` still needs (0 once it has won)."""
    return max(m[M_LENGTH] - m[M_SCORE0 + side], 0)


@njit(cache=True)
def post_crawford(m):
    """:attr:`Match.post_crawford <bg_env.game.match.Match.post_crawford>`: a side is
    1-away, the match goes on and this is not the Crawford game."""
    return m[M_WINNER] < 0 and m[M_CRAWFORD] == 0 and min(_away(m, 0), _away(m, 1)) == 1


@njit(cache=True)
def game_rules(m, rules, crawford_rules):
    """The rules row of the match's current game: no cube in the Crawford game."""
    return crawford_rules if m[M_CRAWFORD] != 0 else rules


@njit(cache=True)
def match_equity_kernel(m, side, pre, post):
    """:meth:`Match.equity <bg_env.game.match.Match.equity>`: ``side``'s match-winning
    chance at the match's score (1 or 0 once it is over)."""
    if m[M_WINNER] >= 0:
        return 1.0 if m[M_WINNER] == side else 0.0
    me, them = _away(m, side), _away(m, 1 - side)
    if post_crawford(m):
        if them == 1:
            return post[me - 1]
        return 1.0 - post[them - 1]
    return pre[me - 1, them - 1]


@njit(cache=True)
def record_game(m, s):
    """:meth:`Match.record <bg_env.game.match.Match.record>`: the finished game of state
    row ``s`` gives its points to its winner (a draw gives none); the Crawford game follows
    the game that first leaves a side 1-away."""
    was_crawford, was_post = m[M_CRAWFORD], post_crawford(m)
    winner = s[WINNER]  # -1: a draw, no points
    if winner >= 0:
        m[M_SCORE0 + winner] += s[POINTS]
    m[M_GAMES] += 1
    m[M_CRAWFORD_GAMES] += was_crawford
    over = winner >= 0 and m[M_SCORE0 + winner] >= m[M_LENGTH]
    if over:
        m[M_WINNER] = winner
    m[M_CRAWFORD] = (not over and was_crawford == 0 and not was_post
                     and min(_away(m, 0), _away(m, 1)) == 1)


@njit(cache=True)
def _game_reward(m, s, side, equity, pre, post):
    """Record the finished game; ``side``'s reward for it (see the module docstring)."""
    before = match_equity_kernel(m, side, pre, post) if equity else 0.0
    record_game(m, s)
    if equity:
        return 2 * (match_equity_kernel(m, side, pre, post) - before)
    if m[M_WINNER] < 0:
        return 0.0
    return 1.0 if m[M_WINNER] == side else -1.0


# ------------------------------------------------------------------ the episode loop
@njit(cache=True)
def _match_turns(opponent, s, me, opp, seeds, i, rules, crawford_rules, mask, m, side,
                 max_turns, equity, pre, post, reward, work, vt=None):
    """The opponent decides until ``side`` must act, finished games recorded (their
    rewards added to ``reward[i]``) and the next game of the match started; returns 0
    then, 1 when the match is over, 2 when a game was truncated at ``max_turns``.
    ``vt``: the variant turns (:mod:`~.batch_variants`), if any; ``work``: the opponents'
    arrays (:func:`~bg_env.kernels.opponents.new_work`)."""
    while True:
        status = opponents_turns(opponent, s, me, opp, seeds, i,
                                 game_rules(m, rules, crawford_rules), mask, side, max_turns,
                                 work, vt)
        if status != 1:
            return status
        reward[i] += _game_reward(m, s, side, equity, pre, post)
        if m[M_WINNER] >= 0:
            return 1
        s[OPEN_BY] = 1 + next_starter(s, rules)  # 0: the opening roll
        open_row(s, me, opp, game_rules(m, rules, crawford_rules), mask, seeds, i, 0, 0, vt)


@njit(cache=True)
def start_matches(opponent, state, me, opp, seeds, rules, crawford_rules, mask, match, length,
                  which, sides, learner, max_turns, equity, pre, post, reward, work, vt=None):
    """New matches to ``length`` against ``opponent`` where ``which[i]``: the learner's side
    is ``learner`` (0 or 1), or drawn from the game's generator when ``learner < 0``; the
    opponent plays until the learner must decide (a match that ends or is truncated first
    is replayed, its rewards dropped). ``work``: pubeval's arrays
    (:func:`~bg_env.kernels.opponents.new_work`)."""
    state, me, opp, seeds = borrowed(state), borrowed(me), borrowed(opp), borrowed(seeds)
    rules, crawford_rules = borrowed(rules), borrowed(crawford_rules)
    mask, match, work = borrowed(mask), borrowed(match), borrowed_work(work)
    for i in range(state.shape[0]):
        if not which[i]:
            continue
        while True:
            sides[i] = learner if learner >= 0 else below(seeds, i, 2)
            new_match(match[i], length)
            reward[i] = 0.0
            open_row(state[i], me[i], opp[i], game_rules(match[i], rules, crawford_rules),
                     mask[i], seeds, i, 0, 0, vt)
            if _match_turns(opponent, state[i], me[i], opp[i], seeds, i, rules, crawford_rules,
                            mask[i], match[i], sides[i], max_turns, equity, pre, post,
                            reward, work, vt) == 0:
                break


@njit(cache=True)
def continue_matches(opponent, state, me, opp, seeds, rules, crawford_rules, mask, match, which,
                     sides, learner, max_turns, equity, pre, post, reward, status, work,
                     vt=None):
    """Matches set in ``match[i]`` and their games put in the rows where ``which[i]`` (a
    :class:`~bg_env.game.game.Game`'s row) go on against ``opponent``, as
    :func:`~bg_env.kernels.opponents.continue_episodes` (the learner's side, the row going
    on by itself), the next games of the match started as games end. ``status[i]``: 0
    the learner must decide, 1 the match ended first, 2 a game was truncated first; the
    rewards of games that ended on the way are in ``reward[i]``."""
    state, me, opp, seeds = borrowed(state), borrowed(me), borrowed(opp), borrowed(seeds)
    rules, crawford_rules = borrowed(rules), borrowed(crawford_rules)
    mask, match, work = borrowed(mask), borrowed(match), borrowed_work(work)
    for i in range(state.shape[0]):
        if not which[i]:
            continue
        sides[i] = learner if learner >= 0 else below(seeds, i, 2)
        reward[i] = 0.0
        resume_row(state[i], me[i], opp[i], game_rules(match[i], rules, crawford_rules),
                   mask[i], seeds, i, 0, 0, vt)
        status[i] = _match_turns(opponent, state[i], me[i], opp[i], seeds, i, rules,
                                 crawford_rules, mask[i], match[i], sides[i], max_turns, equity,
                                 pre, post, reward, work, vt)


@njit(cache=True)
def step_matches(opponent, state, me, opp, seeds, rules, crawford_rules, mask, match, sides,
                 actions, max_turns, equity, pre, post, reward, status, work, vt=None):
    """The learner of match ``i`` plays ``actions[i]``, then ``opponent`` until the learner
    must decide again (the match's next games started as games end). ``status[i]``: 0 the
    match goes on, 1 it is over, 2 a game was truncated, 3 the action was illegal (nothing
    changed); an action of :data:`~bg_env.kernels.opponents.SKIP` leaves match ``i``
    as it is. Rewards are added to ``reward``; ``work`` as for :func:`start_matches`."""
    state, me, opp, seeds = borrowed(state), borrowed(me), borrowed(opp), borrowed(seeds)
    rules, crawford_rules = borrowed(rules), borrowed(crawford_rules)
    mask, match, work = borrowed(mask), borrowed(match), borrowed_work(work)
    for i in range(state.shape[0]):
        if actions[i] == SKIP:
            status[i] = 0
            continue
        if not act_row(state[i], me[i], opp[i], seeds, i,
                       game_rules(match[i], rules, crawford_rules), mask[i], actions[i], vt):
            status[i] = 3
            continue
        status[i] = _match_turns(opponent, state[i], me[i], opp[i], seeds, i, rules,
                                 crawford_rules, mask[i], match[i], sides[i], max_turns, equity,
                                 pre, post, reward, work, vt)


@njit(cache=True)
def equities(match, sides, pre, post, out):
    """``out[i]``: the match-winning chance of ``sides[i]`` in match ``i``."""
    for i in range(match.shape[0]):
        out[i] = match_equity_kernel(match[i], sides[i], pre, post)



@njit(cache=True)
def post_crawfords(match):
    """Whether each match is post-Crawford (:func:`post_crawford`), as a bool array."""
    out = np.zeros(match.shape[0], np.bool_)
    for i in range(match.shape[0]):
        out[i] = post_crawford(match[i])
    return out
