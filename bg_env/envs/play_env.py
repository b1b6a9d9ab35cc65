"""A play-level Gymnasium view: one step chooses a whole play (an afterstate).

Description:
    ``gymnasium.make("bg_env/BackgammonPlays-v0", opponent="pubeval")``. One learner plays
    a cubeless money game against a fixed opponent. Each step the learner picks one of the
    legal plays of its roll, seen as the candidates' afterstates (the board after the play,
    from the learner's side), which is what TD-Gammon-style evaluators and SB3 policies
    that score candidates need. The game is driven on :class:`~bg_env.game.game.Game`
    directly (no AEC env), so a step costs about one move generation per side.

Observation:
    ``Box(float32, shape=(max_candidates * N_FEATURES,))``, a flat vector holding a
    ``(max_candidates, N_FEATURES)`` table row by row (``obs.reshape(K, N_FEATURES)``):
    row ``i`` is the features of candidate ``i`` (:func:`candidate_features`), rows past
    the number of candidates are all zeros. Layout of a row (``N_FEATURES = 201``), for
    the board after the play seen from the learner (the mover):

    =========  =====  ==========================================================
    offset     size   meaning
    =========  =====  ==========================================================
    0          196    :func:`~bg_env.envs.observation.encode_boards` (Tesauro units
                      for both sides, bar / 2, off / 15)
    196        1      mover's pip count / 167
    197        1      opponent's pip count / 167
    198        1      (opponent's pips - mover's pips) / 50
    199        1      1 when no contact is left (a race)
    200        1      1 for a real candidate (:data:`PRESENT`), 0 in padding rows
    =========  =====  ==========================================================

    The vector is flat so that SB3's checker and default policies take it as it is
    (``MlpPolicy`` works, though it cannot share weights across candidates); a policy
    that scores each row with one shared network (``agents.players.ppo``) reshapes it.
    ``info["action_mask"]`` (int8, as Gymnasium's ``Discrete.sample(mask=...)`` takes it)
    and :meth:`action_masks` (bool, the method sb3-contrib's ``MaskablePPO`` calls) mark
    the real candidates, as does column :data:`PRESENT`.

Candidates:
    All distinct legal plays of the roll (one per resulting board), ordered by the
    resulting board: ascending ``(result.me, result.opp)`` count tuples, mover's view
    (:func:`order_candidates`). The order depends only on the set of results, not on the
    move generator. When there are more than ``max_candidates`` (K) plays, almost always
    with doubles (measured over 300 games of pubeval self-play: 3.4% of decisions, 22% of
    doubles and 0.02% of other rolls at K = 64; 1.0% and 7% of doubles at K = 128; up to
    434 plays), the env keeps the K plays that leave the fewest blots of the mover's
    (points 1..24 holding one checker), ties broken by the opponent's larger pip count
    (more hit), then by the order above; the kept plays are then presented in the order
    above. ``info["n_plays"]`` gives the count before the cut
    and ``info["dropped"]`` how many were cut. The opponent always chooses among all its
    plays.

Action:
    ``Discrete(max_candidates)``: the index of a candidate row.

Rewards:
    0 until the game ends; then ``+points`` when the learner wins and ``-points`` when it
    loses, ``points`` being 1, 2 or 3 (single, gammon, backgammon) under ``gammons``
    (``reward="points"``), or +-1 (``reward="win"``).

Illegal actions:
    An index outside ``0..K-1`` or on a padding row (as ``gymnasium.utils.env_checker``
    and SB3's ``check_env`` send) ends the episode as a loss by forfeit, as in
    :mod:`~bg_env.envs.gym_env`: reward ``illegal_reward`` (-1 by default),
    ``terminated=True``, ``info["illegal_action"]`` set; the game itself is left as it
    was. With ``illegal_action="raise"`` it raises ``IllegalActionError`` instead.

Episode End:
    Terminated when either side has borne off all its checkers (a cubeless game always
    ends), or on an illegal action. Turns of the learner with one legal play (forced or no
    move) are played without asking (``skip_forced=True``). A game in which the learner
    would never get a choice is replaced by a new one at ``reset`` (vanishingly rare).

Arguments:
    The keywords of :class:`BackgammonPlaysEnv` (its docstring lists them).

``reset(options={"position_id": ID, "dice": (a, b)})`` starts with the learner on roll in
the position ``ID`` (seen from the learner; the start position without it), with the given
dice or a roll, and no opening roll. A position whose game ends before the learner has a
choice of play (the learner's turns all forced to the end) is refused with a ``ValueError``,
and the refused reset changes nothing: the generators, the game and the episode in play are
as they were.

Version History:
    * v0: initial release.
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np

from ..game.game import Game, IllegalActionError, Phase, Rules, action_index, check_dice
from ..rules.cube import check_count
from ..rules.moves import Play
from ..rules.position import render_text
from .candidates import (DEFAULT_MAX_CANDIDATES, FEATURE_HIGH, MAX_CANDIDATES, N_FEATURES,
                         PRESENT, board_features, candidate_features, order_candidates,
                         play_features)
from .opponents import (make_opponent, opponent_generator_state, opponent_play,
                        restore_opponent_generator, seed_opponent)
from .config import check_reward
from .start import check_options, step_refused

__all__ = [
    "BackgammonPlaysEnv",
    "N_FEATURES",
    "PRESENT",
    "candidate_features",
    "play_features",
    "board_features",
    "order_candidates",
    "resolve_play_opponent",
    "register",
    "ENV_ID",
]

ENV_ID = "bg_env/BackgammonPlays-v0"
_AGENTS = ("player_0", "player_1")


class _RandomOpponent:
    """Uniform over the legal plays, drawn from the env's generator."""

    name = "random"

    def choose_play(self, plays: list[Play], env: "BackgammonPlaysEnv") -> Play:
        return plays[int(env.np_random.integers(len(plays)))]


def resolve_play_opponent(opponent: Any):
    """``f(plays, env) -> Play`` from a spec string, an agent or a callable."""
    if opponent is None or opponent == "random":
        return _RandomOpponent().choose_play
    if isinstance(opponent, str):
        opponent = make_opponent(opponent)
    if hasattr(opponent, "choose_play"):
        return opponent.choose_play
    if callable(opponent):
        return opponent
    raise ValueError(
        f"opponent={opponent!r}: expected 'random', an opponent spec, an object with "
        "choose_play(plays, env) or a callable f(plays, env)"
    )


class BackgammonPlaysEnv(gym.Env):
    """One learner against a fixed opponent, one whole play a step, chosen among the
    candidates' afterstates: ``gymnasium.make("bg_env/BackgammonPlays-v0", opponent="pubeval")``.
    The observation, candidates, actions and rewards are in the module docstring
    (:mod:`bg_env.envs.play_env`).

    Args:
        opponent: ``"random"`` (uniform over the legal plays, from the env's generator), a
            spec such as ``"pubeval"`` or ``"td:PATH"`` (looked up in the opponent registry,
            :mod:`bg_env.envs.opponents`), an object with ``choose_play(plays, env) -> Play``, or a callable
            ``f(plays, env)`` returning a ``Play`` or an index into ``plays``. It can be
            swapped between episodes with :meth:`set_opponent`. An opponent with a generator
            of its own (``"random:7"``) is reseeded by ``reset(seed=...)``
            (:func:`~bg_env.envs.opponents.seed_opponent`): one seed, one game.
        max_candidates: K, the number of candidate rows (default 64).
        learner: ``None`` (colour drawn each episode), ``"player_0"`` or ``"player_1"``.
        reward: ``"points"`` or ``"win"``.
        illegal_action: ``"lose"`` (default) or ``"raise"``.
        illegal_reward: the learner's reward for an illegal action under ``"lose"``.
        skip_forced: play the learner's one-choice turns without a step.
        render_mode: ``None``, ``"ansi"``, ``"human"`` (the ``"ansi"`` board printed once a
            :meth:`reset` and a :meth:`step`) or ``"rgb_array"`` (the picture of
            :mod:`bg_env.envs.frame`, from the side to act).
        **rules: :class:`~bg_env.game.game.Rules` options (``gammons``, ...); the game is
            always cubeless, so ``cube=True`` is an error.

    Example:
        >>> import gymnasium as gym, bg_env
        >>> env = gym.make("bg_env/BackgammonPlays-v0", opponent="random")
        >>> obs, info = env.reset(seed=0)
        >>> obs.shape, info["action_mask"].dtype
        ((12864,), dtype('int8'))
    """

    metadata = {"render_modes": ["ansi", "human", "rgb_array"], "render_fps": 2}

    def __init__(self, opponent: Any = "random", max_candidates: int = DEFAULT_MAX_CANDIDATES,
                 learner: str | None = None, reward: str = "points",
                 illegal_action: str = "lose", illegal_reward: float = -1.0,
                 skip_forced: bool = True, render_mode: str | None = None, **rules):
        if learner not in (None,) + _AGENTS:
            raise ValueError(f"learner={learner!r}: expected None, 'player_0' or 'player_1'")
        if reward not in ("points", "win"):
            raise ValueError(f"reward={reward!r}: expected 'points' or 'win'")
        if illegal_action not in ("lose", "raise"):
            raise ValueError(f"illegal_action={illegal_action!r}: expected 'lose' or 'raise'")
        check_count("max_candidates", max_candidates, 1, MAX_CANDIDATES)
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ValueError(f"render_mode={render_mode!r}: expected None or one of "
                             f"{self.metadata['render_modes']}")
        if rules.get("cube", False):
            raise ValueError("cube=True: the play-level env is cubeless")
        if rules.get("variant") == "nuclear":
            raise ValueError(
                "variant='nuclear': this play-level env has no bomb decision; use "
                "bg_env.backgammon_plays_v0 (a bomb row) or backgammon_v0 (the BOMB action)")
        unknown = sorted(set(rules) - set(Rules.keys()))
        if unknown:
            raise ValueError(f"unknown rule option(s) {unknown}; allowed: {Rules.keys()}")
        self.rules = Rules(**{**rules, "cube": False})
        self.max_candidates = max_candidates
        self.learner_choice = learner
        self.reward_kind = reward
        self.illegal_action = illegal_action
        self.illegal_reward = check_reward("illegal_reward", illegal_reward)
        self.skip_forced = skip_forced
        self.render_mode = render_mode
        self.set_opponent(opponent)
        self.observation_space = gym.spaces.Box(
            -FEATURE_HIGH, FEATURE_HIGH, shape=(max_candidates * N_FEATURES,), dtype=np.float32)
        self.action_space = gym.spaces.Discrete(max_candidates)
        self.game = Game(self.rules)
        self.side = 0
        """The learner's side in :attr:`game` (0 = ``player_0``)."""
        self.candidates: list[Play] = []
        """The plays behind the observation's rows, in row order."""
        self._n_plays = 0
        self._over = True
        self._started = False  # reset() has been called

    # ------------------------------------------------------------------ set-up
    def set_opponent(self, opponent: Any) -> None:
        """Use ``opponent`` (any form the constructor takes) from now on."""
        self.opponent = resolve_play_opponent(opponent)

    @property
    def learner(self) -> str:
        """The learner's agent name this episode."""
        return _AGENTS[self.side]

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        options = check_options(options, ("position_id", "dice"))
        if "dice" in options:  # checked before anything changes
            check_dice(options["dice"], "options['dice']")
        if "position_id" in options:
            Game(self.rules).variant.position_from_id(options["position_id"])
        saved = self._reset_state()
        super().reset(seed=seed)
        if seed is not None:
            seed_opponent(self.opponent, seed)
        # an error in the opponent ends the episode that was running (as in gym_env); a
        # position refused once played changes nothing, as a position refused when read
        if not self._start(options):
            self._restore(saved)
            raise ValueError(
                f"position_id={options['position_id']!r}: the game ends before the learner "
                "has a choice of play")
        self._over = False
        self._started = True
        return self._shown(self._observe())

    def _reset_state(self) -> tuple:
        """What a :meth:`reset` changes, for :meth:`_restore` when it refuses a position:
        this env's generator (with its seed and state), the opponent's own, the game and
        the episode."""
        rng = self.np_random
        return (rng, self.np_random_seed, rng.bit_generator.state,
                opponent_generator_state(self.opponent), self.game, self.side,
                self.candidates, self._n_plays, self._over)

    def _restore(self, saved: tuple) -> None:
        """Put back what :meth:`_reset_state` saved: a refused reset changes nothing."""
        rng, seed, state, opponent_rng, *episode = saved
        rng.bit_generator.state = state
        self._np_random, self._np_random_seed = rng, seed  # gym.Env's own, inherited fields
        restore_opponent_generator(self.opponent, opponent_rng)
        self.game, self.side, self.candidates, self._n_plays, self._over = episode

    def _start(self, options: dict) -> bool:
        """Draw the learner's side and start the game (at ``options``' position, or with an
        opening roll) until the learner has a choice of play; ``False`` if the game at
        ``options``' position ends before that."""
        self._over = True  # until the learner has a choice: if the opponent fails, it stays so
        for _ in range(1000):
            if self.learner_choice is None:
                self.side = int(self.np_random.integers(2))
            else:
                self.side = _AGENTS.index(self.learner_choice)
            self.game = Game(self.rules)
            self.game.ask_forced = not self.skip_forced
            if options:
                self._start_at(options.get("position_id"), options.get("dice"))
            else:
                self.game.opening(self.np_random)
            self._advance()
            if self.game.phase != Phase.OVER:
                break
            if "position_id" in options:
                return False
        return True

    def _start_at(self, position_id: str | None, dice) -> None:
        variant = self.game.variant
        position = (variant.position_from_id(position_id) if position_id is not None
                    else variant.start_position())
        dice = None if dice is None else check_dice(dice, "options['dice']")
        self.game = Game.from_position(position, self.np_random, self.rules, turn=self.side,
                                       dice=dice, ask_forced=not self.skip_forced)

    # ------------------------------------------------------------------ play
    def _advance(self) -> float:
        """Play the opponent's turns and the learner's one-choice turns until the learner
        has a real choice or the game is over; the learner's reward if it ended."""
        game = self.game
        while game.phase != Phase.OVER:
            plays = game.legal_continuations()
            if game.turn == self.side:
                if len(plays) > 1 or not self.skip_forced:
                    self._n_plays = len(plays)
                    self.candidates, _ = order_candidates(plays, self.max_candidates)
                    return 0.0
                game.play(plays[0], self.np_random)
                continue
            choice = opponent_play(plays, self.opponent(plays, self)) if len(plays) > 1 \
                else plays[0]
            game.play(choice, self.np_random)
        self.candidates, self._n_plays = [], 0
        return self._final_reward()

    def _final_reward(self) -> float:
        r = self.game.result
        if r.winner is None:  # a draw
            return 0.0
        value = 1.0 if self.reward_kind == "win" else float(r.points)
        return value if r.winner == self.side else -value

    def action_masks(self) -> np.ndarray:
        """Boolean mask of the real candidate rows (sb3-contrib's MaskablePPO)."""
        mask = np.zeros(self.max_candidates, dtype=bool)
        if not self._over:
            mask[: len(self.candidates)] = True
        return mask

    def _observe(self, extra: dict | None = None):
        obs = np.zeros((self.max_candidates, N_FEATURES), dtype=np.float32)
        if self.candidates and not self._over:
            obs[: len(self.candidates)] = play_features(self.candidates, self.game.variant)
        obs = obs.reshape(-1)
        info = {"action_mask": self.action_masks().astype(np.int8), "n_plays": self._n_plays,
                "dropped": max(self._n_plays - len(self.candidates), 0),
                "dice": self.game.dice}
        r = self.game.result
        if r is not None:
            info.update(winner=None if r.winner is None else _AGENTS[r.winner],
                        outcome=r.outcome, points=r.points)
        info.update(extra or {})
        return obs, info

    def step(self, action):
        if self._over:
            raise step_refused(self._started)
        index = action_index(action)
        if not 0 <= index < len(self.candidates):
            if self.illegal_action == "raise":
                raise IllegalActionError(
                    f"candidate {index} is not legal; legal: 0..{len(self.candidates) - 1}")
            self._over = True
            obs, info = self._shown(self._observe({"illegal_action": index}))
            return obs, self.illegal_reward, True, False, info
        self._over = True  # until the opponent has played: if it fails, the episode is over
        self.game.play(self.candidates[index], self.np_random)
        reward = self._advance()
        self._over = self.game.phase == Phase.OVER
        obs, info = self._shown(self._observe())
        return obs, reward, self._over, False, info

    # ------------------------------------------------------------------ render
    def _shown(self, observed: tuple) -> tuple:
        """``observed``, after printing the board in ``"human"`` mode."""
        if self.render_mode == "human":
            self.render()
        return observed

    def render(self):
        """``"ansi"``: the text board; ``"rgb_array"``: the picture; ``"human"``: the text
        board printed (also by each :meth:`reset` and :meth:`step`)."""
        if self.render_mode is None:
            gym.logger.warn("render() called without a render_mode")
            return None
        if self.render_mode == "rgb_array":
            from .frame import game_frame

            return game_frame(self.game).image()
        pos = self.game.position if self.game.turn == self.side else self.game.position.swap()
        extra = [f"learner: {self.learner} (X)", f"candidates: {len(self.candidates)}"]
        text = render_text(pos, self.game.dice if self.game.turn == self.side else None, extra)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def _repr_png_(self) -> bytes:
        """The picture of the game (a notebook's display), whatever the render mode."""
        from .frame import game_frame

        return game_frame(self.game).png()


def register() -> None:
    """Register :data:`ENV_ID` with Gymnasium (idempotent)."""
    if ENV_ID not in gym.registry:
        gym.register(ENV_ID, entry_point="bg_env.envs.play_env:BackgammonPlaysEnv",
                     vector_entry_point="bg_env.envs.gym_vector:make_plays_vector_env")
