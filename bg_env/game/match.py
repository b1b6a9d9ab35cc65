"""Match play: a match to N points as a sequence of games, and the match equity table.

Rules source: ``docs/RULES.md`` §9 (match play), §5 (points) and §6 (the cube). A match
to ``length`` points is played as games of :class:`~bg_env.game.game.Game`; each game's
points (cube value x 1, 2 or 3; a drop scores the cube value before the double) go to its
winner, and the first side to reach ``length`` points wins the match. In match play:

* gammons and backgammons count in full: no Jacoby rule (and, as in GNU Backgammon, no
  beavers and no automatic doubles, which are money-game options);
* the **Crawford rule**: the first game after a side comes to ``length - 1`` points
  (1-away) is the *Crawford game*, played without the cube; later games are
  *post-Crawford*, with the cube again. A side that goes from below ``length - 1``
  straight to ``length`` or more wins the match and there is no Crawford game;
* the score is the real one (a gammon at 6-0 in a 7-point match makes it 8-0); the
  Match ID holds it capped at ``length`` (the format refuses scores above it);
* the cube has no limit beyond the rules' ``max_cube``; doubling past what the match
  needs is allowed (and pointless).

A 1-point match starts with both sides 1-away: there is no Crawford game (as in gnubg,
which calls such a game post-Crawford); the cube is allowed and changes nothing.

**Match equity table** (:func:`match_equity`): the Kazaross-XG2 table, 25 points, as
GNU Backgammon ships it: ``met/Kazaross-XG2.xml`` in the gnubg source tree (copy read
from the GitHub mirror ``bgnori/gnubg``, file ``met/Kazaross-XG2.xml``, revision
``$Id: Kazaross-XG2.xml,v 1.1 2011/08/25 05:13:42 mdpetch Exp $``; "Generated using XG
rollouts to 9pts, GNUBG Supremo full rollouts to 15 points. Extended to 25pts by
projecting take points", Neil Kazaross 2011). Only the numbers are copied:

* ``_PRE_CRAWFORD[i][j]``: the match-winning chance (MWC) of a side ``i + 1`` away
  against an opponent ``j + 1`` away, before the Crawford game has been played. A row
  or column for 1-away is the Crawford game itself (the only game played at such a
  score before post-Crawford play).
* ``_POST_CRAWFORD[i]``: the MWC of the trailer ``i + 1`` away when the leader is
  1-away after the Crawford game (post-Crawford).

These are gnubg's conventions (``matchequity.c``, ``getME``): the score after a game
that leaves a side 1-away is read from the pre-Crawford table when that game was played
before the Crawford game, else (the Crawford game or a post-Crawford game) from the
post-Crawford table.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field, replace

from .game import Game, GameResult, Phase, Rules
from ..rules.match_id import GNUBG_MATCH_JACOBY_FLAG, MatchState

__all__ = ["Match", "match_equity", "MET_MAX_AWAY", "MET_NAME"]

MET_NAME = "Kazaross-XG2"
"""The match equity table in use (gnubg ``met/Kazaross-XG2.xml``)."""

# Kazaross-XG2, pre-Crawford table: row = my away - 1, column = opponent's away - 1,
# entry = my match-winning chance. Numbers copied verbatim from gnubg met/Kazaross-XG2.xml.
_PRE_CRAWFORD_TEXT = """
0.50000 0.67736 0.75076 0.81436 0.84179 0.88731 0.90724 0.93250 0.94402 0.959275 0.966442 0.975534 0.979845 0.985273 0.987893 0.99114 0.99273 0.99467 0.99563 0.99679 0.99737 0.99807 0.99842 0.99884 0.99905
0.32264 0.50000 0.59947 0.66870 0.74359 0.79940 0.84225 0.87539 0.90197 0.923034 0.939311 0.952470 0.962495 0.970701 0.976887 0.98196 0.98580 0.98893 0.99129 0.99322 0.99466 0.99585 0.99675 0.99746 0.99802
0.24924 0.40053 0.50000 0.57150 0.64795 0.71123 0.76209 0.80468 0.84017 0.870638 0.894417 0.914831 0.930702 0.944426 0.954931 0.96399 0.97093 0.97687 0.98139 0.98522 0.98814 0.99062 0.99248 0.99407 0.99527
0.18564 0.33130 0.42850 0.50000 0.57732 0.64285 0.69924 0.74577 0.78799 0.824059 0.853955 0.879141 0.900233 0.918040 0.932657 0.94495 0.95499 0.96341 0.97021 0.97589 0.98044 0.98422 0.98726 0.98975 0.99174
0.15821 0.25641 0.35205 0.42268 0.50000 0.56635 0.62638 0.67786 0.72540 0.767055 0.802732 0.833654 0.859934 0.882866 0.902013 0.91847 0.93223 0.94397 0.95367 0.96189 0.96864 0.97432 0.97896 0.98283 0.98600
0.11269 0.20060 0.28877 0.35715 0.43365 0.50000 0.56261 0.61636 0.66787 0.713057 0.753427 0.788634 0.819569 0.846648 0.869999 0.89021 0.90756 0.92246 0.93508 0.94583 0.95488 0.96254 0.96894 0.97432 0.97879
0.09276 0.15775 0.23791 0.30076 0.37362 0.43739 0.50000 0.55480 0.60854 0.656283 0.700209 0.739054 0.774121 0.805203 0.832566 0.85659 0.87761 0.89591 0.91171 0.92535 0.93702 0.94703 0.95553 0.96276 0.96887
0.06750 0.12461 0.19532 0.25423 0.32214 0.38364 0.44520 0.50000 0.55442 0.603718 0.649899 0.691356 0.729447 0.763593 0.794397 0.82158 0.84578 0.86714 0.88589 0.90230 0.91658 0.92898 0.93968 0.94891 0.95682
0.05598 0.09803 0.15983 0.21201 0.27460 0.33213 0.39146 0.44558 0.50000 0.550196 0.597926 0.641481 0.682119 0.718927 0.752814 0.78301 0.81037 0.83483 0.85662 0.87591 0.89294 0.90791 0.92098 0.93240 0.94230
0.040725 0.076966 0.129362 0.175941 0.232945 0.286943 0.343717 0.396282 0.449804 0.500000 0.548547 0.593459 0.635880 0.674830 0.711113 0.74371 0.77375 0.80093 0.82543 0.84741 0.86703 0.88448 0.89991 0.91353 0.92550
0.033558 0.060689 0.105583 0.146045 0.197268 0.246573 0.299791 0.350101 0.402074 0.451453 0.500000 0.545552 0.589242 0.629736 0.667927 0.70303 0.73530 0.76494 0.79198 0.81648 0.83862 0.85849 0.87629 0.89214 0.90622
0.024466 0.047530 0.085169 0.120859 0.166346 0.211366 0.260946 0.308644 0.358519 0.406541 0.454448 0.500000 0.544068 0.585701 0.625259 0.66178 0.69610 0.72778 0.75703 0.78381 0.80826 0.83044 0.85051 0.86856 0.88476
0.020155 0.037505 0.069298 0.099767 0.140066 0.180431 0.225879 0.270553 0.317881 0.364120 0.410758 0.455932 0.500000 0.541943 0.582545 0.62036 0.65619 0.68966 0.72081 0.74963 0.77619 0.80054 0.82276 0.84295 0.86123
0.014727 0.029299 0.055574 0.081960 0.117134 0.153352 0.194797 0.236407 0.281073 0.325170 0.370264 0.414299 0.458057 0.500000 0.540750 0.57942 0.61634 0.65117 0.68391 0.71448 0.74290 0.76917 0.79339 0.81559 0.83586
0.012107 0.023113 0.045069 0.067343 0.097987 0.130001 0.167434 0.205603 0.247186 0.288887 0.332073 0.374741 0.417455 0.459250 0.500000 0.53916 0.57679 0.61261 0.64659 0.67859 0.70862 0.73664 0.76265 0.78669 0.80883
0.00886 0.01804 0.03601 0.05505 0.08153 0.10979 0.14341 0.17842 0.21699 0.25629 0.29697 0.33822 0.37964 0.42058 0.46084 0.50000 0.53796 0.57441 0.60929 0.64241 0.67376 0.70323 0.73084 0.75657 0.78046
0.00727 0.01420 0.02907 0.04501 0.06777 0.09244 0.12239 0.15422 0.18963 0.22625 0.26470 0.30390 0.34381 0.38366 0.42321 0.46204 0.50000 0.53676 0.57222 0.60618 0.63856 0.66925 0.69822 0.72542 0.75087
0.00533 0.01107 0.02313 0.03659 0.05603 0.07754 0.10409 0.13286 0.16517 0.19907 0.23506 0.27222 0.31034 0.34883 0.38739 0.42559 0.46324 0.50000 0.53574 0.57023 0.60336 0.63501 0.66510 0.69356 0.72038
0.00437 0.00871 0.01861 0.02979 0.04633 0.06492 0.08829 0.11411 0.14338 0.17457 0.20802 0.24297 0.27919 0.31609 0.35341 0.39071 0.42778 0.46426 0.50000 0.53475 0.56838 0.60073 0.63171 0.66122 0.68921
0.00321 0.00678 0.01478 0.02411 0.03811 0.05417 0.07465 0.09770 0.12409 0.15259 0.18352 0.21619 0.25037 0.28552 0.32141 0.35759 0.39382 0.42977 0.46525 0.50000 0.53387 0.56667 0.59830 0.62864 0.65760
0.00263 0.00534 0.01186 0.01956 0.03136 0.04512 0.06298 0.08342 0.10706 0.13297 0.16138 0.19174 0.22381 0.25710 0.29138 0.32624 0.36144 0.39664 0.43162 0.46613 0.50000 0.53303 0.56508 0.59603 0.62576
0.00193 0.00415 0.00938 0.01578 0.02568 0.03746 0.05297 0.07102 0.09209 0.11552 0.14151 0.16956 0.19946 0.23083 0.26336 0.29677 0.33075 0.36499 0.39927 0.43333 0.46697 0.50000 0.53226 0.56360 0.59391
0.00158 0.00325 0.00752 0.01274 0.02104 0.03106 0.04447 0.06032 0.07902 0.10009 0.12371 0.14949 0.17724 0.20661 0.23735 0.26916 0.30178 0.33490 0.36829 0.40170 0.43492 0.46774 0.50000 0.53153 0.56221
0.00116 0.00254 0.00593 0.01025 0.01717 0.02568 0.03724 0.05109 0.06760 0.08647 0.10786 0.13144 0.15705 0.18441 0.21331 0.24343 0.27458 0.30644 0.33878 0.37136 0.40397 0.43640 0.46847 0.50000 0.53086
0.00095 0.00198 0.00473 0.00826 0.01400 0.02121 0.03113 0.04318 0.05770 0.07450 0.09378 0.11524 0.13877 0.16414 0.19117 0.21954 0.24913 0.27962 0.31079 0.34240 0.37424 0.40609 0.43779 0.46914 0.50000
"""

# Kazaross-XG2, post-Crawford table: entry i = the trailer's MWC when he is i + 1 away
# and the leader is 1-away, post-Crawford (gnubg met/Kazaross-XG2.xml).
_POST_CRAWFORD_TEXT = """
0.500000 0.48803 0.32264 0.31002 0.19012 0.18072 0.11559 0.10906 0.06953 0.065161 0.042069
0.039060 0.025371 0.023428 0.015304 0.014050 0.009240 0.008420 0.005560 0.005050 0.003360
0.003030 0.002030 0.001820 0.001230
"""

_PRE_CRAWFORD: tuple[tuple[float, ...], ...] = tuple(
    tuple(float(x) for x in line.split()) for line in _PRE_CRAWFORD_TEXT.strip().splitlines()
)
_POST_CRAWFORD: tuple[float, ...] = tuple(float(x) for x in _POST_CRAWFORD_TEXT.split())

MET_MAX_AWAY = len(_POST_CRAWFORD)
"""The longest match (the largest away) the table covers: 25."""


def match_equity(away_me: int, away_opp: int, post_crawford: bool = False) -> float:
    """My match-winning chance (0..1) at a score, from the Kazaross-XG2 table.

    Args:
        away_me: points I still need (0 or less: I have won the match).
        away_opp: points the opponent still needs (0 or less: he has won).
        post_crawford: the Crawford game has been played. Only meaningful when one side
            is 1-away: then the next game is post-Crawford (cube in play) rather than the
            Crawford game. At 1-away against 1-away the chance is 0.5 either way.

    Raises:
        ValueError: an away above :data:`MET_MAX_AWAY`, both sides at 0, or
            ``post_crawford`` at a score where neither side is 1-away.

    >>> match_equity(1, 2)  # the Crawford game, leader 1-away, trailer 2-away
    0.67736
    >>> match_equity(2, 1, post_crawford=True)  # post-Crawford trailer 2-away
    0.48803
    >>> match_equity(0, 3), match_equity(3, 0)
    (1.0, 0.0)
    """
    away_me, away_opp = int(away_me), int(away_opp)
    if away_me <= 0 and away_opp <= 0:
        raise ValueError(f"away ({away_me}, {away_opp}): both sides cannot have won the match")
    if away_me <= 0:
        return 1.0
    if away_opp <= 0:
        return 0.0
    if max(away_me, away_opp) > MET_MAX_AWAY:
        raise ValueError(
            f"away ({away_me}, {away_opp}): the {MET_NAME} table covers 1..{MET_MAX_AWAY} away"
        )
    if post_crawford:
        if min(away_me, away_opp) != 1:
            raise ValueError(
                f"away ({away_me}, {away_opp}) with post_crawford=True: post-Crawford play "
                "needs a side 1-away"
            )
        if away_opp == 1:
            return _POST_CRAWFORD[away_me - 1]
        return 1.0 - _POST_CRAWFORD[away_opp - 1]
    return _PRE_CRAWFORD[away_me - 1][away_opp - 1]


@dataclass
class Match:
    """A match to ``length`` points between side 0 and side 1, played game by game.

    Drive it with :meth:`new_game` (a started :class:`Game` under this game's rules: no
    cube in the Crawford game), play the game out, then :meth:`record` its result.

    >>> import numpy as np
    >>> m = Match(3)
    >>> m.record(GameResult(winner=1, outcome="gammon", cube_value=1, points=2))
    >>> m.score, m.away(1), m.crawford, m.new_game(np.random.default_rng(0)).may_double()
    ((0, 2), 1, True, False)
    """

    length: int
    """Points needed to win the match (1 or more)."""
    rules: Rules = field(default_factory=Rules)
    """The rule options of every game; the cube is switched off in the Crawford game."""
    score: tuple[int, int] = (0, 0)
    """Points won by side 0 and side 1 (the real score: it may pass ``length``)."""
    crawford: bool = False
    """The current (next) game is the Crawford game: no doubling."""
    games: int = 0
    """Games recorded so far."""
    crawford_games_played: int = 0
    """Crawford games recorded so far (0 or 1 in a match played through this object)."""
    results: list[GameResult] = field(default_factory=list)
    """Every recorded game's result, in order."""
    game: Game | None = field(default=None, compare=False, repr=False)
    """The game :meth:`new_game` made last."""

    def __post_init__(self) -> None:
        if not isinstance(self.length, int) or isinstance(self.length, bool) or self.length < 1:
            raise ValueError(f"length={self.length!r}: expected a match length of 1 or more points")
        if self.length > 2**15 - 1:
            raise ValueError(f"length={self.length}: a Match ID holds lengths up to 32767")
        for name, bad in (("jacoby", self.rules.jacoby), ("beaver", self.rules.beaver),
                          ("auto_doubles", self.rules.auto_doubles)):
            if bad:
                raise ValueError(
                    f"{name}={bad!r}: a money-game option; match play has no Jacoby rule, "
                    "beavers or automatic doubles"
                )
        self.score = tuple(int(s) for s in self.score)
        if len(self.score) != 2 or min(self.score) < 0:
            raise ValueError(f"score={self.score!r}: expected two points totals >= 0")
        low, high = sorted((self.away(0), self.away(1)))
        if self.crawford and not (low == 1 and high > 1):
            raise ValueError(
                f"crawford=True at score {self.score} in a {self.length}-point match: the "
                "Crawford game needs exactly one side 1-away"
            )

    # ------------------------------------------------------------------ state
    def away(self, side: int) -> int:
        """Points ``side`` still needs (0 once it has won)."""
        return max(self.length - self.score[side], 0)

    @property
    def is_over(self) -> bool:
        """A side has reached ``length`` points."""
        return max(self.score) >= self.length

    @property
    def winner(self) -> int | None:
        """The side that won the match, or ``None`` while it goes on."""
        if not self.is_over:
            return None
        return 0 if self.score[0] >= self.length else 1

    @property
    def post_crawford(self) -> bool:
        """The current (next) game is after the Crawford game: a side is 1-away and this
        is not the Crawford game (also a 1-point match, as gnubg has it)."""
        return not self.is_over and not self.crawford and min(self.away(0), self.away(1)) == 1

    def game_rules(self) -> Rules:
        """The rules of the current game: :attr:`rules`, without the cube in the Crawford
        game."""
        return replace(self.rules, cube=False) if self.crawford else self.rules

    # ------------------------------------------------------------------ play
    def new_game(self, rng, start=None) -> Game:
        """Start the current game of the match: a :class:`Game` under :meth:`game_rules`,
        opening roll made and forced moves played (``start``: an optional starting
        :class:`Position`).

        Raises:
            ValueError: the match is over.
        """
        if self.is_over:
            raise ValueError(f"the match is over ({self.score[0]}-{self.score[1]}); no new game")
        game = Game(self.game_rules())
        game.opening(rng, start, self.next_starter())
        self.game = game
        return game

    def next_starter(self) -> int | None:
        """Who starts the next game without an opening roll (``Rules.next_starter``, Long
        Nardy): the side that did not start the last game (``"black"``) or its winner
        (``"winner"``); ``None``: the opening roll decides (``"roll"``, the first game,
        or a last game whose first side is not known, as in a match restored from its
        ID)."""
        if self.rules.next_starter == "roll" or not self.results:
            return None
        last = self.results[-1]
        if self.rules.next_starter == "winner":
            return last.winner
        return None if last.starter is None else 1 - last.starter

    def record(self, result: GameResult) -> None:
        """Add a finished game: its points go to its winner (a draw gives none), and the
        Crawford state moves on (the Crawford game follows the game that first leaves a
        side 1-away; the games after it are post-Crawford).

        Raises:
            ValueError: the match is already over, ``result`` has no winner 0 or 1 (or
                ``None`` with outcome ``"draw"`` and no points) or negative points, or a
                Crawford game result shows a turned cube.
        """
        if self.is_over:
            raise ValueError(f"the match is over ({self.score[0]}-{self.score[1]}); "
                             f"cannot record {result!r}")
        draw = result is not None and result.winner is None and result.outcome == "draw"
        if result is None or not (draw and result.points == 0 or result.winner in (0, 1)) \
                or result.points < 0:
            raise ValueError(f"result={result!r}: expected a finished game's GameResult")
        if self.crawford and result.cube_value != 1:
            raise ValueError(f"result={result!r}: the Crawford game is played without the cube")
        was_crawford, was_post = self.crawford, self.post_crawford
        score = list(self.score)
        if not draw:
            score[result.winner] += int(result.points)
        self.score = (score[0], score[1])
        self.games += 1
        self.crawford_games_played += was_crawford
        self.results.append(result)
        self.crawford = (not self.is_over and not (was_crawford or was_post)
                         and min(self.away(0), self.away(1)) == 1)

    # ------------------------------------------------------------- equities
    def equity(self, side: int) -> float:
        """``side``'s match-winning chance at the current score, from the match equity
        table (:func:`match_equity`): 1.0 or 0.0 once the match is over."""
        if self.is_over:
            return 1.0 if self.winner == side else 0.0
        return match_equity(self.away(side), self.away(1 - side), self.post_crawford)

    def equity_after(self, result: GameResult, side: int) -> float:
        """``side``'s match-winning chance once ``result`` is recorded (this match is not
        changed)."""
        after = copy.copy(self)
        after.results = []
        after.record(result)
        return after.equity(side)

    def equity_change(self, result: GameResult, side: int) -> float:
        """How much ``result`` changes ``side``'s match-winning chance: the per-game match
        reward (the two sides' changes sum to zero).

        >>> round(Match(7).equity_change(GameResult(0, "single", 1, 1), side=0), 5)  # 6-away v 7
        0.06261
        """
        return self.equity_after(result, side) - self.equity(side)

    # ------------------------------------------------------------- IDs
    def state(self, side_on_roll: int = 0, game: Game | None = None) -> MatchState:
        """The match state for a GNU Backgammon Match ID: length, score (capped at
        ``length``, as the format requires) and the Crawford flag; with ``game``, also its
        cube, dice, player on roll and decision (``side_on_roll`` is then ``game.turn``).

        Raises:
            ValueError: the game's cube value is not a power of two (arithmetic cube
                progression) or a beaver is pending: a Match ID cannot hold them.
        """
        score = (min(self.score[0], self.length), min(self.score[1], self.length))
        base = MatchState(match_length=self.length, score=score, crawford=self.crawford,
                          player_on_roll=side_on_roll, turn=side_on_roll,
                          game_state=2 if self.is_over else 1, jacoby=GNUBG_MATCH_JACOBY_FLAG)
        if game is None:
            return base
        if game.phase == Phase.BEAVER_TAKE:
            raise ValueError("a Match ID cannot hold a pending beaver")
        over = game.phase == Phase.OVER
        return replace(
            base, cube_value=game.cube_value, cube_owner=game.cube_owner,
            player_on_roll=game.turn, turn=game.actor,
            game_state=(4 if game.result.outcome == "drop" else 2) if over else 1,
            double_offered=game.phase == Phase.TAKE,
            dice=tuple(game.dice) if game.dice and game.phase == Phase.MOVE else (0, 0),
        )

    def match_id(self, side_on_roll: int = 0, game: Game | None = None) -> str:
        """GNU Backgammon's Match ID of :meth:`state`."""
        return self.state(side_on_roll, game).match_id()

    @classmethod
    def from_state(cls, state: MatchState, rules: Rules | None = None) -> "Match":
        """The match at a Match ID's length, score and Crawford flag. As in gnubg, a score
        with a side 1-away and no Crawford flag is post-Crawford.

        Raises:
            ValueError: a money game (length 0), or a Crawford flag at a score where it
                cannot be.
        """
        if not state.match_length:
            raise ValueError(f"{state!r}: a money game (match length 0), not a match")
        return cls(state.match_length, rules or Rules(), score=state.score,
                   crawford=state.crawford)
