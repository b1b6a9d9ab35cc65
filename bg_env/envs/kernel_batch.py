"""Many single-agent games against a built-in opponent (random or pubeval), stepped by one
kernel call.

The engine room of the batched vector envs: Stable-Baselines3's
(:class:`bg_env.envs.vector.BackgammonVecEnv`) and Gymnasium's
(:class:`bg_env.envs.gym_vector.BackgammonVectorEnv`) are thin adapters over
:class:`KernelBatch`, which needs neither library. All games live in the numpy arrays of
:class:`bg_env.kernels.games.Games`; one call to the kernels steps them all (the learner's
action, then the random opponent's decisions until the learner must act again). A game
that ends is started again at once, in the same step (its last observation and result are
reported in that step's info). Standard games, with or without the cube and the context
block, money games or matches (:mod:`bg_env.kernels.match`: with ``match_length=N`` the
episode is a match, as in the single env), in every variant (those whose moves are not
standard through their turns, :class:`~bg_env.kernels.batch_variants.VariantRows`, and
observed as the single env observes them, :mod:`bg_env.envs.vector_obs`);
:func:`kernels_play` says which opponents.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from ..kernels import batch, match as batch_match, opponents as batch_opponents
from ..kernels.batch_rules import R_BOMB
from ..kernels.games import Games
from ..rules.variants import get_variant
from ..rules.actions import N_ACTIONS
from ..game.game import Game, IllegalActionError
from ..game.start import STOP_AT_ROLLS
from ..game.match import MET_MAX_AWAY, match_equity
from .config import EnvConfig, check_reward
from .context import CONTEXT_SIZE, MATCH_SLOTS, context_space, encode_contexts
from .engine_obs import games_bombs
from .observation import games_kernel, observation_space
from .start import check_options, start_game, step_refused
from .vector_obs import VariantObserver, encode_board_rows, match_slots

__all__ = ["KernelBatch", "AGENTS", "KERNEL_OPPONENTS", "met_tables", "kernels_play",
           "pubeval_judges"]

AGENTS = ("player_0", "player_1")

RUNNING, TERMINATED, TRUNCATED, ILLEGAL = 0, 1, 2, 3
"""The kernels' status codes of a game after a step."""

KERNEL_OPPONENTS = tuple(batch_opponents.OPPONENTS)
"""The opponents the kernels play themselves (:mod:`bg_env.kernels.batch`,
:mod:`bg_env.kernels.opponents`)."""


def kernels_play(opponent, config: EnvConfig) -> bool:
    """Whether :class:`KernelBatch` plays ``config``'s games against ``opponent``: a
    kernel opponent (the kernels play every variant, money games or matches, with or
    without the cube and the context block); pubeval only where it judges the boards
    (:func:`pubeval_judges`)."""
    if not (isinstance(opponent, str) and opponent in KERNEL_OPPONENTS):
        return False
    return opponent != "pubeval" or pubeval_judges(config.game_rules.variant)


def pubeval_judges(variant) -> bool:
    """Whether pubeval, an evaluator of standard backgammon boards, judges ``variant``'s
    plays (:attr:`~bg_env.rules.variants.Variant.backgammon_boards`)."""
    return get_variant(variant).backgammon_boards


class KernelBatch:
    """``num_envs`` games of one learner against a built-in opponent.

    Args:
        num_envs: how many games.
        learner: ``None`` (the learner's colour drawn per game), ``"player_0"`` or
            ``"player_1"``.
        illegal_action: ``"lose"`` (the game ends, reward ``illegal_reward``) or
            ``"raise"`` (:class:`~bg_env.game.game.IllegalActionError`, nothing stepped).
        illegal_reward: the reward for an illegal action under ``"lose"``.
        opponent: ``"random"`` (uniform over the legal actions) or ``"pubeval"``
            (Tesauro's pubeval, cubeless, as ``agents.players.pubeval.PubevalAgent``).
        **config: :class:`~bg_env.envs.backgammon.EnvConfig` keys (no ``render_mode``).

    Raises:
        ValueError: a bad argument, or a configuration the kernels cannot play.
    """

    def __init__(self, num_envs: int, learner: str | None = None, illegal_action: str = "lose",
                 illegal_reward: float = -1.0, opponent: str = "random", **config):
        if opponent not in KERNEL_OPPONENTS:
            raise ValueError(f"opponent={opponent!r}: the kernels play {list(KERNEL_OPPONENTS)}")
        if (not isinstance(num_envs, (int, np.integer)) or isinstance(num_envs, bool)
                or num_envs < 1):
            raise ValueError(f"num_envs={num_envs!r}: expected a positive integer")
        if learner not in (None,) + AGENTS:
            raise ValueError(f"learner={learner!r}: expected None, 'player_0' or 'player_1'")
        if illegal_action not in ("lose", "raise"):
            raise ValueError(f"illegal_action={illegal_action!r}: expected 'lose' or 'raise'")
        self.config = EnvConfig.from_kwargs(**config)
        if not kernels_play(opponent, self.config):
            raise ValueError(
                f"variant={self.config.game_rules.variant!r}: the batched kernels do not play "
                f"it against {opponent!r} (they play every variant against 'random', and "
                "against 'pubeval' the backgammon family: not plakoto or long_nardy, whose "
                "boards pubeval does not judge); use make_vec_env")
        if self.config.render_mode is not None:
            raise ValueError("render_mode: the batched kernels do not render; use GymVecEnv")
        self.num_envs = int(num_envs)
        self.opponent = opponent
        self.games = Games(self.num_envs, self.config.rules())
        self.learner = -1 if learner is None else AGENTS.index(learner)
        self.illegal_action = illegal_action
        self.illegal_reward = check_reward("illegal_reward", illegal_reward)
        self.max_turns = self.config.max_turns or 0
        self.observation_space = observation_space(self.config.observation)
        self._board_size = self.observation_space.shape[0]
        if self.config.uses_context:
            self.observation_space = context_space(self.observation_space)
        self.match_length = self.config.match_length
        """0: money games; N: each episode is a match to N points."""
        if self.match_length:
            self.match = np.zeros((self.num_envs, batch_match.M_COLUMNS), dtype=np.int64)
            """The matches' state (:mod:`bg_env.kernels.match` columns)."""
            self._crawford_rules = self.games.rules.copy()
            self._crawford_rules[batch.R_CUBE] = 0  # no cube in the Crawford game
            self._equity = int(self.config.match_reward == "equity")
            self._met = met_tables()
        self._reward = np.zeros(self.num_envs, dtype=np.float64)
        self.sides = np.zeros(self.num_envs, dtype=np.int64)
        """The learner's side (0 = ``player_0``) in each game."""
        self.status = np.zeros(self.num_envs, dtype=np.int64)
        """Each game's status after the last step: 0 running, 1 over, 2 truncated at
        ``max_turns``, 3 ended by an illegal action."""
        self._obs = np.zeros((self.num_envs,) + self.observation_space.shape,
                             dtype=self.observation_space.dtype)
        self._variant_obs = (VariantObserver(self.config, self.games)
                             if self.games.variant_rows is not None else None)
        """The observations of the variants whose moves are not standard (pins, Long
        Nardy's view: :mod:`bg_env.envs.vector_obs`)."""
        self._money_block = np.zeros((1, CONTEXT_SIZE), dtype=self._obs.dtype)
        """The context block of a money game of this variant without a bomb (made once)."""
        encode_contexts(self._money_block, self.config.game_rules.variant_spec,
                        integer=self.config.observation == "compact")
        self._actions = np.zeros(self.num_envs, dtype=np.int64)
        """The actions of the last step, as given (an illegal one is reported as it came)."""
        self._kernel_actions = np.zeros(self.num_envs, dtype=np.int64)
        """What the kernels play: ``_actions``, a negative one made out of range (illegal),
        and :data:`~bg_env.kernels.opponents.SKIP` in the rows :meth:`step` skips."""
        self._started = False
        self.reset_infos: list[dict] = [{} for _ in range(self.num_envs)]
        """What the last :meth:`reset` says of each game started by options."""
        self._code = batch_opponents.OPPONENTS[opponent]
        cap = batch_opponents.PLAYS_CAP if opponent == "pubeval" else 1
        self._work = batch_opponents.new_work(cap)
        """The opponents' work arrays (:func:`bg_env.kernels.opponents.new_work`), made
        once: their decisions allocate nothing (the random opponent reads none)."""
        self._context = self.config.uses_context
        self._board_kernel = games_kernel(self.config.observation)
        """The encoder's kernel (:func:`~bg_env.envs.observation.games_kernel`), found once."""

    def seed(self, seed) -> None:
        """Seed the games' generators (:meth:`bg_env.kernels.games.Games.seed`: an int seeds
        game ``i`` with ``seed + i``; a list gives one seed per game)."""
        self.games.seed(seed)

    def reset(self, options: list | None = None, seed=None) -> np.ndarray:
        """New games everywhere; the learners' observations. ``seed``: as :meth:`seed`,
        applied once ``options`` are checked (``None``: the generators go on).

        ``options``: ``None``, or one reset-options dict (or ``None``) per game, the keys of
        the single env's (:mod:`bg_env.envs.start`: ``position_id``, ``match_id``,
        ``xgid``, ``dice``, ``agent``): that game starts there, its dice to come drawn from
        its own generator, instead of at the opening roll. The opponent plays until the
        learner must decide; :attr:`reset_infos` holds each such game's
        ``opening_reward`` (what that paid the learner), and, when the game (or the
        match) ended before the learner's first decision, its result as a finished
        step's info has it (``terminal_observation`` and the rest); that game then starts
        again from the opening.

        Raises:
            ValueError: ``options`` is not one entry per game, or an entry is bad (named,
                with the game's index); nothing is changed then.
        """
        starts = self._option_games(options)  # (every entry checked before any change)
        if seed is not None:
            self.seed(seed)
        fresh = np.ones(self.num_envs, dtype=bool)
        fresh[list(starts)] = False
        self._start(fresh)
        self.reset_infos = [{} for _ in range(self.num_envs)]
        if starts:
            self._continue(starts)
        self.status[:] = RUNNING
        self._started = True
        return self.observe()

    def _option_games(self, options) -> dict:
        """``{i: (Game, Match or None)}``: the games that ``options`` start, stopped at
        their first roll due (:data:`~bg_env.game.start.STOP_AT_ROLLS`)."""
        if options is None:
            return {}
        if isinstance(options, Mapping) or len(options) != self.num_envs:
            raise ValueError(f"options: expected a list of {self.num_envs} dicts (or None), "
                             f"one per game; got {options!r}")
        starts, made = {}, {}  # (equal options make equal games: each made once)
        for i, entry in enumerate(options):
            try:
                entry = check_options(entry)
                if entry:
                    key = repr(sorted(entry.items()))
                    if key not in made:
                        made[key] = start_game(entry, self.config, STOP_AT_ROLLS, list(AGENTS))
                    starts[i] = made[key]
            except ValueError as exc:
                raise ValueError(f"options of game {i}: {exc}") from None
        return starts

    def _continue(self, starts: dict) -> None:
        """The games of :meth:`_option_games` put in their rows, played on until each
        learner must decide (those that end first reported and started again)."""
        g = self.games
        which = np.zeros(self.num_envs, dtype=bool)
        for i, (game, match) in starts.items():
            g.put(i, game.games)
            if match is not None:
                self.match[i] = match_columns(match)
            which[i] = True
        learner = self.learner  # (0 or 1, or -1: drawn for each game)
        if self.match_length:
            batch_match.continue_matches(self._code, g.state, g.me, g.opp, g.seeds, g.rules,
                                         self._crawford_rules, g.mask, self.match, which,
                                         self.sides, learner, self.max_turns, self._equity,
                                         *self._met, self._reward, self.status, self._work,
                                         *g.kernel_variant_args)
        else:
            batch_opponents.continue_episodes(self._code, g.state, g.me, g.opp, g.seeds,
                                              g.rules, g.mask, which, self.sides, learner,
                                              self.max_turns, self.status, self._work,
                                              *g.kernel_variant_args)
        self._fit_work()
        ended = which & (self.status != RUNNING)
        infos = self.reset_infos
        if ended.any():
            rewards = self._reward.astype(np.float32)
            self._encode(np.flatnonzero(ended))
            self._finish_episodes(ended, rewards, infos)
            self._reward[np.flatnonzero(ended)] = rewards[ended]
        for i in np.flatnonzero(which).tolist():
            infos[i]["opening_reward"] = float(self._reward[i])
        self._reward[:] = 0.0

    def step(self, actions, skip: np.ndarray | None = None
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[dict]]:
        """Play one learner decision in every game (but those where ``skip``, a bool
        array, is set: they stay as they are), then the opponent's until each learner
        must act again. Returns ``(observations, rewards, dones, infos)``; a finished
        game's info holds ``terminal_observation``, ``TimeLimit.truncated`` and its result
        (``outcome``, ``points``, ``cube_value``, ``winner``) or ``illegal_action``, and
        the game has started again.

        Raises:
            RuntimeError: before the first :meth:`reset`.
            ValueError: ``actions`` is not ``(num_envs,)``; IllegalActionError (a
                ValueError) when they are not integers, as the single envs say it.
        """
        g = self.games
        self._actions[:] = self._checked_actions(actions)
        actions = self._kernel_actions
        actions[:] = self._actions
        if actions.min() < 0:
            actions[actions < 0] = N_ACTIONS  # illegal, and not SKIP
        if skip is not None:
            actions[skip] = batch_opponents.SKIP
        if self.illegal_action == "raise":
            legal = (actions >= 0) & (actions < N_ACTIONS)
            legal[legal] = g.mask[np.flatnonzero(legal), actions[legal]]
            legal |= actions == batch_opponents.SKIP
            if not legal.all():
                i = int(np.flatnonzero(~legal)[0])
                raise IllegalActionError(
                    f"env {i}: action {self._actions[i]} is not legal; legal: "
                    f"{np.flatnonzero(g.mask[i]).tolist()}"
                )
        if self.match_length:
            batch_match.step_matches(self._code, g.state, g.me, g.opp, g.seeds, g.rules,
                                     self._crawford_rules, g.mask, self.match, self.sides, actions,
                                     self.max_turns, self._equity, *self._met, self._reward,
                                     self.status, self._work, *g.kernel_variant_args)
        else:
            batch_opponents.step_against(self._code, g.state, g.me, g.opp, g.seeds, g.rules,
                                         g.mask, self.sides, actions, self.max_turns,
                                         self.status, self._work, *g.kernel_variant_args)
        self._fit_work()
        rewards = self._reward.astype(np.float32)
        self._reward[:] = 0.0
        dones = self.status != RUNNING
        infos: list[dict] = [{} for _ in range(self.num_envs)]
        self._encode()  # the games going on, and the last observation of those that ended
        if dones.any():
            self._finish_episodes(dones, rewards, infos)
        return self._obs.copy(), rewards, dones, infos

    def _checked_actions(self, actions) -> np.ndarray:
        """``actions`` as ``(num_envs,)`` integers, or the error that names them."""
        if not self._started:
            raise step_refused(False)
        given = np.asarray(actions)
        if given.shape != (self.num_envs,) and not (given.ndim == 0 and self.num_envs == 1):
            raise ValueError(f"actions of shape {given.shape}: expected one action for each "
                             f"of the {self.num_envs} games, shape ({self.num_envs},)")
        if given.dtype.kind not in "iu":  # (not bool, float, str, object): as the single envs
            raise IllegalActionError(f"actions of dtype {given.dtype}: expected integers "
                                     f"(action numbers 0..{N_ACTIONS - 1})")
        return given.reshape(self.num_envs)

    def _finish_episodes(self, dones: np.ndarray, rewards: np.ndarray, infos: list[dict]) -> None:
        """Rewards and infos of the finished games (or matches) (their last observation
        is in ``self._obs``), then new ones in their place, observed."""
        finished = np.flatnonzero(dones)
        for i in finished.tolist():
            status = self.status[i]
            info = infos[i]
            info["terminal_observation"] = self._obs[i].copy()
            info["TimeLimit.truncated"] = bool(status == TRUNCATED)
            if status == TERMINATED:
                if self.match_length:
                    info.update(self._match_info(i))
                else:
                    rewards[i] = self._money_reward(i)
                    info.update(self._game_info(i))
            elif status == ILLEGAL:
                rewards[i] = self.illegal_reward
                info["illegal_action"] = int(self._actions[i])
        self._start(dones)
        self._encode(finished)

    def _game_info(self, i: int) -> dict:
        """The result of game ``i`` (over): as :func:`bg_env.envs.config.game_info`."""
        s = self.games.state[i]
        winner = AGENTS[s[batch.WINNER]] if s[batch.WINNER] >= 0 else None  # None: a draw
        return {"outcome": batch.OUTCOMES[s[batch.OUTCOME]], "points": int(s[batch.POINTS]),
                "cube_value": int(s[batch.CUBE_VALUE]), "winner": winner}

    def _money_reward(self, i: int) -> float:
        """The learner's reward for money game ``i`` (over): 0 for a draw."""
        s = self.games.state[i]
        if s[batch.WINNER] < 0:
            return 0
        value = int(s[batch.POINTS]) if self.config.reward == "points" else 1
        return value if s[batch.WINNER] == self.sides[i] else -value

    def _match_info(self, i: int) -> dict:
        """The end of match ``i``: its last game, the score, the winner, the games and
        Crawford games played (the single env's infos)."""
        m = self.match[i]
        score = (int(m[batch_match.M_SCORE0]), int(m[batch_match.M_SCORE0 + 1]))
        return {"game": self._game_info(i), "score": score,
                "winner": AGENTS[m[batch_match.M_WINNER]], "games": int(m[batch_match.M_GAMES]),
                "crawford_games": int(m[batch_match.M_CRAWFORD_GAMES])}

    def _start(self, which: np.ndarray) -> None:
        """New games (matches) from the opening where ``which``, played until each learner
        must decide."""
        g = self.games
        if self.match_length:
            batch_match.start_matches(self._code, g.state, g.me, g.opp, g.seeds, g.rules,
                                      self._crawford_rules, g.mask, self.match,
                                      self.match_length, which, self.sides, self.learner,
                                      self.max_turns, self._equity, *self._met, self._reward,
                                      self._work, *g.kernel_variant_args)
        else:
            batch_opponents.start_episodes(self._code, g.state, g.me, g.opp, g.seeds, g.rules,
                                           g.mask, which, self.sides, self.learner,
                                           self.max_turns, self._work, *g.kernel_variant_args)
        self._fit_work()

    def _fit_work(self) -> None:
        """Pubeval's work arrays grown when a roll needed more room than they hold."""
        self._work = batch_opponents.fitted_work(self._work)

    def observe(self) -> np.ndarray:
        """The learners' observations, ``(num_envs,) + observation shape`` (a copy)."""
        self._encode()
        return self._obs.copy()

    def _encode(self, rows: np.ndarray | None = None) -> None:
        """The learners' observations of the games ``rows`` (all when ``None``) into
        ``self._obs``: the board and the context block's variant, bomb and pins parts (in
        a variant whose moves are not standard the variants' kernel,
        :class:`~bg_env.envs.vector_obs.VariantObserver`; otherwise the encoder's kernel
        and the money game's block), then in match play the match slots
        (:func:`~bg_env.envs.vector_obs.match_slots`)."""
        g, board, encoder = self.games, self._board_size, self.config.observation
        if self._variant_obs is not None:
            self._variant_obs.encode(self.sides, self._obs, rows)
        elif rows is None:
            self._board_kernel(g.state, g.me, g.opp, self.sides, self._obs[:, :board])
        else:
            encode_board_rows(encoder, g.state, g.me, g.opp, self.sides, self._obs[:, :board],
                              rows)
        if not self._context:
            return
        sel = slice(None) if rows is None else rows
        block = self._obs[:, board:]
        if self._variant_obs is None:
            block[sel] = self._money_block
            if g.rules[R_BOMB]:  # (every row: the others' are unchanged)
                games_bombs(g.state, g.rules, self.sides, block, 0)
        if self.match_length:
            block[sel, MATCH_SLOTS] = match_slots(self.match[sel], self.sides[sel], *self._met,
                                                  block.dtype)

    def action_masks(self) -> np.ndarray:
        """``(num_envs, N_ACTIONS)`` bool: the legal actions of each game's learner."""
        return self.games.mask.copy()

    def game(self, i: int) -> Game:
        """Game ``i`` as a :class:`~bg_env.game.game.Game` (a copy, to look at: playing it
        changes nothing here)."""
        if not 0 <= i < self.num_envs:
            raise IndexError(f"game {i}: expected 0..{self.num_envs - 1}")
        return Game.from_games(self.games, i)

    def png(self, i: int = 0) -> bytes:
        """The picture of game ``i`` (a notebook's display of a vector env: its first game)."""
        from .frame import game_frame

        return game_frame(self.game(i)).png()


def match_columns(match) -> np.ndarray:
    """A :class:`~bg_env.game.match.Match` going on as a row of the match kernels
    (:mod:`bg_env.kernels.match` columns)."""
    row = np.zeros(batch_match.M_COLUMNS, dtype=np.int64)
    row[batch_match.M_LENGTH] = match.length
    row[batch_match.M_SCORE0:batch_match.M_SCORE0 + 2] = match.score
    row[batch_match.M_CRAWFORD] = match.crawford
    row[batch_match.M_GAMES] = match.games
    row[batch_match.M_CRAWFORD_GAMES] = match.crawford_games_played
    row[batch_match.M_WINNER] = -1
    return row


def met_tables() -> tuple[np.ndarray, np.ndarray]:
    """The match equity table as the match kernels read it (:mod:`bg_env.kernels.match`):
    ``pre[a - 1, b - 1]``, ``a``-away against ``b``-away before the Crawford game, and
    ``post[a - 1]``, ``a``-away against 1-away post-Crawford
    (:func:`bg_env.game.match.match_equity`)."""
    n = MET_MAX_AWAY
    pre = np.array([[match_equity(a, b) for b in range(1, n + 1)] for a in range(1, n + 1)])
    post = np.array([match_equity(a, 1, post_crawford=True) for a in range(1, n + 1)])
    return pre, post
