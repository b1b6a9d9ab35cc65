"""The state machine of a game of backgammon as numba kernels over arrays: one copy of the
turn, the cube, the opening and the end of a game, for many games at once (the vector
envs), one game drawing its dice from a numpy generator (:mod:`bg_env.kernels.engine`, the
PettingZoo env's fast path) and one row of a :class:`~bg_env.game.game.Game` (through
:mod:`bg_env.kernels.game_row`, the ``HOLD`` column set).

Rules source: ``docs/RULES.md`` §1-§7; the moves are the kernels of
:mod:`bg_env.kernels.masks`, tested against the reference generators of
:mod:`bg_env.rules.moves`. Every variant: the rules array carries its start layout, its
largest win and the nuclear bomb (:mod:`bg_env.kernels.batch_rules`); the variants whose
moves are not standard play their turns through the per-row kernels of
:mod:`bg_env.kernels.batch_variants` (the turn kernels' last argument ``vt``, else ``None``).

State of game ``i`` (:class:`~bg_env.kernels.games.Games` holds the arrays):

* ``me[i]``, ``opp[i]``: the board from the side on turn (``int64[26]`` each, laid out as
  :class:`~bg_env.rules.position.Position`);
* ``state[i]``: ``int64`` columns named by the constants below: the side on turn, the
  phase (``P_CUBE``, ``P_TAKE``, ``P_BEAVER_TAKE``, ``P_MOVE``, ``P_OVER``: the order of
  the observation's phase one-hot), the cube, the dice still to play, the turns played,
  once over the result; ``HOLD`` (a Game's row: stop at each complete play and each roll,
  which the Game makes from its own generator: :func:`settle_row`, :func:`rolled_row`),
  ``NEED_ROLL`` and ``TIES`` (a roll to make, the opening ties so far), ``STARTER`` (the
  side that had the first turn, -1 before it is known) and ``OPEN_BY`` (set before a new
  game: 0, the opening roll; ``1 + side``, that side rolls two dice for the first turn
  without one, as a match's next game under ``Rules.next_starter``);
* ``mask[i]``: ``bool[N_ACTIONS]``, the legal actions of the side that must decide now
  (all false when the game is over);
* ``seeds[i]``: the state of the game's own random generator (splitmix64; dice are drawn
  as unbiased integers with Lemire's method). One seed, one game.

The turn kernels take the dice source as ``seeds, i, fn, st`` (:func:`~.dice_kernels.next_die`:
game ``i``'s own generator, or the engine's numpy bit generator). Decisions with one answer
are not asked: no cube question when doubling is not allowed, no step when no die can be
played, a checker move that is the only legal one is played. Kernels trust their input:
:func:`act` checks the actions against ``mask`` (an illegal one changes nothing).

Speed: a compiled function counts references to the arrays it receives and slices
(atomic operations, about as costly as a move's rule each), which numba can rarely drop.
The kernels called from Python borrow their arrays (:mod:`bg_env.kernels.borrow`: those
counts become a null check), and the kernels a decision runs through every time (the
move, the forced moves, the mask, the next turn's roll and plan) are inlined into their
callers (``inline="always"``: no call passing a dozen arrays), at the price of a longer
first compile (``docs/speed.md``).
"""

from __future__ import annotations


from numba import njit

from ..rules.actions import BEAVER, BOMB, DOUBLE, DROP, N_ACTIONS, ROLL, TAKE
from .batch_rules import (
    R_BOMB, R_NEXT_STARTER, cap_kind, explode_side, set_start,
)
from .batch_variants import (
    NO_WINNER, clear_pins, fresh_first_roll, move_row, open_row_turn, outcome_row,
    swap_row, turn_mask,
)
from .dice import below, next_die
from .masks import row_mask_into, row_turn_plan
from .moves import apply_move_kernel, loss_kind_kernel, use_die_kernel

__all__ = ["OUTCOMES", "open_row", "step_row", "act_row", "settle_row", "resume_row"]

# columns of Games.state
TURN, PHASE, CUBE_VALUE, CUBE_OWNER, CUBE_TURNED, PENDING = 0, 1, 2, 3, 4, 5
MOVES_LEFT, LARGER_ONLY, N_DICE, DIE0 = 6, 7, 8, 9  # DIE0..DIE0+3: the dice still to play
ROLL0, ROLL1, TURNS, WINNER, OUTCOME, POINTS = 13, 14, 15, 16, 17, 18
N_PLAYED, PLAYED0 = 19, 20  # PLAYED0..PLAYED0+3: this turn's moves, action + 150 * hit
BOMB_OWNER = 24  # nuclear: -1 while nobody owns the bomb, else the side that may set it off
HOLD = 25  # 1: stop at each complete play and at each roll (Game's rows; see settle_row)
NEED_ROLL, TIES = 26, 27  # the roll the row waits for (ROLL_*; 0: none), opening ties so far
STARTER = 28  # the side that had the game's first turn (-1: not known yet)
OPEN_BY = 29  # how the next opening starts: 0 the opening roll, 1 + side: that side rolls
N_COLUMNS = 30

ROLL_OPENING, ROLL_PLAY = 1, 2
"""Values of ``NEED_ROLL``: each side's die of the opening roll, a turn's two dice."""

# phases (the order of the observation's phase one-hot)
P_CUBE, P_TAKE, P_BEAVER_TAKE, P_MOVE, P_OVER = 0, 1, 2, 3, 4

OUTCOMES = ("single", "gammon", "backgammon", "drop", "hit", "mother", "draw")
"""Names of the ``OUTCOME`` codes 0..6 (4 to 6: :data:`~.batch_variants.K_HIT`,
:data:`~.batch_variants.K_MOTHER`, :data:`~.batch_variants.K_DRAW`; a draw has ``WINNER``
-1 and no points)."""

# columns of the rules array (see Games.__init__); the variant's columns follow
# (bg_env.kernels.batch_rules: R_BOMB, R_MAX_KIND, R_START...)
R_CUBE, R_JACOBY, R_BEAVER, R_AUTO_DOUBLES, R_MAX_CUBE, R_GAMMONS, R_ARITHMETIC = range(7)

# ------------------------------------------------------------------------- rules
@njit(cache=True)
def next_cube_kernel(value, arithmetic):
    """:func:`bg_env.rules.cube.next_cube_value` in the kernels (checked against it in
    ``tests/core/test_move_kernels.py``)."""
    if arithmetic:
        return 2 if value < 2 else value + 1
    return value * 2


@njit(cache=True)
def _cube_allowed(value, rules):
    return rules[R_MAX_CUBE] == 0 or value <= rules[R_MAX_CUBE]


@njit(cache=True)
def _may_double(s, rules):
    """Whether the side on turn may double now (RULES.md §6)."""
    if rules[R_CUBE] == 0 or s[PHASE] == P_OVER:
        return False
    if s[CUBE_OWNER] != -1 and s[CUBE_OWNER] != s[TURN]:
        return False
    return _cube_allowed(next_cube_kernel(s[CUBE_VALUE], rules[R_ARITHMETIC]), rules)


@njit(cache=True)
def _may_beaver(s, rules):
    value = next_cube_kernel(s[PENDING], rules[R_ARITHMETIC])
    return rules[R_BEAVER] != 0 and _cube_allowed(value, rules)


@njit(cache=True)
def _may_bomb(s, rules):
    """Nuclear: the side on turn may set off the bomb now (nobody's, or his)."""
    return (rules[R_BOMB] != 0 and s[PHASE] != P_OVER
            and (s[BOMB_OWNER] == -1 or s[BOMB_OWNER] == s[TURN]))


@njit(cache=True)
def _set_off_bomb(s, me, opp, rules, seeds, i, fn, st):
    """Nuclear: every blot of both sides to the bar, the bomb
    to the opponent; then the side on turn doubles or rolls as usual (nuclear's moves are
    standard: no ``vt``)."""
    explode_side(me)
    explode_side(opp)
    s[BOMB_OWNER] = 1 - s[TURN]
    if not _may_double(s, rules):
        _roll(s, me, opp, rules, ROLL_PLAY, seeds, i, fn, st)


@njit(cache=True)
def actor(s):
    """The side that must decide now (the doubled side during a take decision)."""
    return 1 - s[TURN] if s[PHASE] == P_TAKE else s[TURN]


@njit(cache=True)
def _finish(s, winner, outcome, points):
    s[PHASE] = P_OVER
    s[WINNER] = winner
    s[OUTCOME] = outcome
    s[POINTS] = points
    s[MOVES_LEFT] = 0
    s[N_DICE] = 0


@njit(cache=True)
def _score(kind, s, rules):
    """:func:`bg_env.rules.outcome.score_points` for ``kind`` 0..2."""
    return _score_times(kind + 1, s, rules)


@njit(cache=True)
def _score_times(multiplier, s, rules):
    """:func:`bg_env.rules.outcome.score_points` for a win worth ``multiplier`` stakes."""
    if rules[R_GAMMONS] == 2 or (rules[R_JACOBY] != 0 and s[CUBE_TURNED] == 0):
        multiplier = 1
    elif rules[R_GAMMONS] == 1:
        multiplier = min(multiplier, 2)
    return s[CUBE_VALUE] * multiplier


@njit(cache=True)
def _all_off(side):
    for p in range(1, 26):
        if side[p] != 0:
            return False
    return True


# ---------------------------------------------------------------- turn sequence
@njit(cache=True, inline="always")
def start_play_row(s, me, opp, d1, d2, vt=None, i=0):
    """The dice are rolled: plan the play; a turn with no playable die is ended by
    :func:`settle_row`. ``vt``: the variant turns (:mod:`~.batch_variants`) of a variant
    whose moves are not standard, else ``None``."""
    s[PHASE] = P_MOVE
    s[ROLL0] = d1
    s[ROLL1] = d2
    if d1 == d2:
        s[N_DICE] = 4
        s[DIE0:DIE0 + 4] = d1
    else:
        s[N_DICE] = 2
        s[DIE0] = d1
        s[DIE0 + 1] = d2
        s[DIE0 + 2:DIE0 + 4] = 0
    s[N_PLAYED] = 0
    if vt is not None:
        s[MOVES_LEFT] = open_row_turn(vt, i, me, opp, d1, d2)
        s[LARGER_ONLY] = 0
        return
    moves, larger = row_turn_plan(me, opp, d1, d2)
    s[MOVES_LEFT] = moves
    s[LARGER_ONLY] = larger


@njit(cache=True, inline="always")
def _rolled(s, me, opp, rules, kind, d1, d2, vt, i):
    """A roll of ``kind`` is ``d1``-``d2``: a turn's roll (the play is planned), or the
    opening's (each side's die; a tie is rolled again, doubling the cube up to
    ``auto_doubles`` times within ``max_cube``; the higher die plays both numbers, or in
    Long Nardy picks the starter, who rolls two fresh dice). Returns the roll still
    needed (``ROLL_*``), 0 when none."""
    if kind == ROLL_PLAY:
        start_play_row(s, me, opp, d1, d2, vt, i)
        return 0
    if d1 == d2:
        nxt = next_cube_kernel(s[CUBE_VALUE], rules[R_ARITHMETIC])
        if s[TIES] < rules[R_AUTO_DOUBLES] and rules[R_CUBE] != 0 and _cube_allowed(nxt, rules):
            s[TIES] += 1
            s[CUBE_VALUE] = nxt
        return ROLL_OPENING
    s[TURN] = s[STARTER] = 0 if d1 > d2 else 1
    if vt is not None and fresh_first_roll(vt):
        return ROLL_PLAY
    start_play_row(s, me, opp, max(d1, d2), min(d1, d2), vt, i)
    return 0


@njit(cache=True)
def rolled_row(s, me, opp, rules, d1, d2, vt=None, i=0):
    """The roll the row waits for (``NEED_ROLL``) is ``d1``-``d2`` (:func:`_rolled`)."""
    s[NEED_ROLL] = _rolled(s, me, opp, rules, s[NEED_ROLL], d1, d2, vt, i)


@njit(cache=True)
def _roll(s, me, opp, rules, kind, seeds, i, fn, st, vt=None):
    """The row needs a roll of ``kind``: drawn from the dice source, or with ``HOLD`` set
    left for the :class:`~bg_env.game.game.Game`, which calls :func:`rolled_row`."""
    if s[HOLD] != 0:
        s[NEED_ROLL] = kind
        return
    while kind != 0:
        d1 = next_die(seeds, i, fn, st)
        kind = _rolled(s, me, opp, rules, kind, d1, next_die(seeds, i, fn, st), vt, i)


@njit(cache=True, inline="always")
def begin_turn_row(s, me, opp, rules, seeds, i, fn, st, vt=None):
    """The turn of the side on turn: the cube question (or the bomb) when allowed, else
    roll (and so always in a Long Nardy last roll: the opponent is off)."""
    if (_may_double(s, rules) or _may_bomb(s, rules)) and not _all_off(opp):
        s[PHASE] = P_CUBE
    else:
        _roll(s, me, opp, rules, ROLL_PLAY, seeds, i, fn, st, vt)


@njit(cache=True)
def _variant_ends(s, me, opp, rules, vt, i):
    """A variant's game ends after the play (``variant_outcome``: bear-off, a pinned
    mother, a hit in sudden death, a Long Nardy draw): finish it and return ``True``."""
    winner, kind, multiplier = outcome_row(vt, i, me, opp, rules, s[TURN] == s[STARTER])
    if winner < 0:
        return False
    if winner == NO_WINNER:
        _finish(s, -1, kind, 0)
    else:
        _finish(s, s[TURN] if winner == 0 else 1 - s[TURN], kind,
                _score_times(multiplier, s, rules))
    return True


@njit(cache=True)
def end_turn_row(s, me, opp, rules, seeds, i, fn, st, vt=None):
    """The play is complete: the game ends when the mover is off (or a variant's rule
    ends it), else the other side takes the turn."""
    if vt is not None:
        if _variant_ends(s, me, opp, rules, vt, i):
            return
    elif _all_off(me):
        kind = cap_kind(loss_kind_kernel(opp, True), rules)
        _finish(s, s[TURN], kind, _score(kind, s, rules))
        return
    elif _all_off(opp):  # pragma: no cover - the game would have ended before
        kind = cap_kind(loss_kind_kernel(me, True), rules)
        _finish(s, 1 - s[TURN], kind, _score(kind, s, rules))
        return
    s[TURNS] += 1
    for p in range(26):
        me[p], opp[p] = opp[p], me[p]
    if vt is not None:
        swap_row(vt, i)
    s[TURN] = 1 - s[TURN]
    s[N_DICE] = 0
    begin_turn_row(s, me, opp, rules, seeds, i, fn, st, vt)


@njit(cache=True, inline="always")
def apply_move_row(s, me, opp, action, vt=None, i=0):
    """Play one checker move (unchecked), log it and use its die."""
    if vt is not None:
        hit, s[MOVES_LEFT] = move_row(vt, i, me, opp, action)
        s[PLAYED0 + s[N_PLAYED]] = action + 150 * hit
    else:
        s[PLAYED0 + s[N_PLAYED]] = apply_move_kernel(me, opp, action)
        s[MOVES_LEFT] -= 1
    s[N_PLAYED] += 1
    s[N_DICE] = use_die_kernel(s, DIE0, s[N_DICE], action % 6 + 1)


@njit(cache=True, inline="always")
def write_mask(s, me, opp, rules, mask, vt=None, i=0):
    """The legal actions of the side that must decide now into ``mask`` (bool or int8;
    cleared first: none when the game is over, waits for a roll or has a complete play);
    returns ``(count, the only one when count is 1)`` of the checker moves (``(-1, -1)``
    outside the move phase)."""
    mask[:] = 0
    phase = s[PHASE]
    if s[NEED_ROLL] != 0 or phase == P_OVER:
        return -1, -1
    if phase == P_CUBE:
        mask[ROLL] = 1
        mask[DOUBLE] = _may_double(s, rules)
        mask[BOMB] = _may_bomb(s, rules)
        return -1, -1
    if phase == P_TAKE or phase == P_BEAVER_TAKE:
        mask[TAKE] = 1
        mask[DROP] = 1
        if phase == P_TAKE and _may_beaver(s, rules):
            mask[BEAVER] = 1
        return -1, -1
    if s[MOVES_LEFT] == 0:
        return 0, -1
    if vt is not None:
        return turn_mask(vt, i, mask)
    return row_mask_into(me, opp, s[DIE0:DIE0 + s[N_DICE]], s[N_DICE], s[MOVES_LEFT],
                         s[LARGER_ONLY], mask)


@njit(cache=True, inline="always")
def settle_row(s, me, opp, rules, mask, seeds, i, fn, st, vt=None):
    """Play forced moves and end finished turns until a real decision or the end of the
    game, then write the decider's legal actions into ``mask`` (:func:`write_mask`). With
    ``HOLD`` set it also stops at a complete play (before the turn ends: the caller ends
    it, :func:`end_turn_row`) and at a roll to make (``NEED_ROLL``)."""
    while True:
        if s[PHASE] == P_MOVE and s[MOVES_LEFT] == 0 and s[NEED_ROLL] == 0:
            if s[HOLD] != 0:
                mask[:] = 0
                return
            end_turn_row(s, me, opp, rules, seeds, i, fn, st, vt)
            continue
        count, only = write_mask(s, me, opp, rules, mask, vt, i)
        if count != 1:
            return
        mask[only] = 0
        apply_move_row(s, me, opp, only, vt, i)


@njit(cache=True)
def new_state(s):
    """A game not yet begun (``HOLD`` kept, ``OPEN_BY`` back to 0): the cube at 1 and
    centred, no bomb, no result."""
    hold = s[HOLD]
    s[:] = 0
    s[HOLD] = hold
    s[CUBE_VALUE] = 1
    s[CUBE_OWNER] = s[BOMB_OWNER] = s[WINNER] = s[OUTCOME] = s[STARTER] = -1


@njit(cache=True)
def open_row(s, me, opp, rules, mask, seeds, i, fn, st, vt=None):
    """A new game from the variant's start (the rules array's layout): :func:`open_from`."""
    set_start(me, opp, rules)
    if vt is not None:
        clear_pins(vt, i)
    open_from(s, me, opp, rules, mask, seeds, i, fn, st, vt)


@njit(cache=True)
def open_from(s, me, opp, rules, mask, seeds, i, fn, st, vt=None):
    """A new game from the board in ``me``/``opp`` (and the row's pins): a fresh state
    (:func:`new_state`), then the opening roll (:func:`rolled_row`), or with ``OPEN_BY``
    set, that side's roll for the first turn."""
    by = s[OPEN_BY]
    new_state(s)
    if by > 0:
        s[TURN] = s[STARTER] = by - 1
        _roll(s, me, opp, rules, ROLL_PLAY, seeds, i, fn, st, vt)
    else:
        _roll(s, me, opp, rules, ROLL_OPENING, seeds, i, fn, st, vt)
    settle_row(s, me, opp, rules, mask, seeds, i, fn, st, vt)


@njit(cache=True)
def resume_row(s, me, opp, rules, mask, seeds, i, fn, st, vt=None):
    """A row taken from a :class:`~bg_env.game.game.Game` stopped at a decision or at a
    roll due (``HOLD`` set, :data:`~bg_env.game.start.STOP_AT_ROLLS`) goes on by itself:
    ``HOLD`` cleared, the roll due drawn from the dice source, forced moves played."""
    s[HOLD] = 0
    kind = s[NEED_ROLL]
    if kind != 0:
        s[NEED_ROLL] = 0
        _roll(s, me, opp, rules, kind, seeds, i, fn, st, vt)
    settle_row(s, me, opp, rules, mask, seeds, i, fn, st, vt)


@njit(cache=True)
def next_starter(s, rules):
    """Who starts the game after the finished one in ``s`` (``Rules.next_starter``): the
    side that did not start it (``"black"``), its winner (``"winner"``), or -1: the
    opening roll decides (``"roll"``, or a first side not known)."""
    code = rules[R_NEXT_STARTER]
    if code == 1:
        return 1 - s[STARTER] if s[STARTER] >= 0 else -1
    return s[WINNER] if code == 2 else -1


@njit(cache=True)
def step_row(s, me, opp, rules, mask, action, seeds, i, fn, st, vt=None):
    """:meth:`Game.step` with a legal ``action`` (unchecked: see ``mask``)."""
    phase = s[PHASE]
    if phase == P_MOVE:
        apply_move_row(s, me, opp, action, vt, i)
    elif phase == P_CUBE:
        if action == DOUBLE:
            s[PENDING] = next_cube_kernel(s[CUBE_VALUE], rules[R_ARITHMETIC])
            s[PHASE] = P_TAKE
        elif action == BOMB:
            _set_off_bomb(s, me, opp, rules, seeds, i, fn, st)
        else:
            _roll(s, me, opp, rules, ROLL_PLAY, seeds, i, fn, st, vt)
    else:
        taker = 1 - s[TURN] if phase == P_TAKE else s[TURN]
        if action == DROP:
            _finish(s, 1 - taker, 3, s[CUBE_VALUE])
        elif action == BEAVER:
            s[CUBE_VALUE] = s[PENDING]
            s[PENDING] = next_cube_kernel(s[PENDING], rules[R_ARITHMETIC])
            s[PHASE] = P_BEAVER_TAKE
        else:  # TAKE
            s[CUBE_VALUE] = s[PENDING]
            s[CUBE_OWNER] = 1 - s[TURN]
            s[CUBE_TURNED] = 1
            _roll(s, me, opp, rules, ROLL_PLAY, seeds, i, fn, st, vt)
    settle_row(s, me, opp, rules, mask, seeds, i, fn, st, vt)


@njit(cache=True, inline="always")
def act_row(s, me, opp, seeds, i, rules, mask, action, vt=None):
    """:meth:`Game.step` for game ``i``; ``False`` (nothing changed) when illegal."""
    if action < 0 or action >= N_ACTIONS or not mask[action]:
        return False
    step_row(s, me, opp, rules, mask, action, seeds, i, 0, 0, vt)
    return True


@njit(cache=True, inline="always")
def random_action(seeds, i, mask):
    """A uniform choice among the legal actions (ascending order, as RandomPolicy)."""
    count = 0
    for a in range(N_ACTIONS):
        if mask[a]:
            count += 1
    k = below(seeds, i, count)
    for a in range(N_ACTIONS):
        if mask[a]:
            if k == 0:
                return a
            k -= 1
    return -1
