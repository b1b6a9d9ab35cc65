"""TD-Gammon: a neural afterstate evaluator trained by TD(lambda) self-play.

The classic reference (Tesauro 1992-1995): a small network judges the position after a
play, seen from the player who just moved, and the agent picks the play with the best
judged equity (0-ply). It learns from self-play by temporal differences.

Network:
    inputs -- :func:`features`: the 196 Tesauro board units of
    :func:`bg_env.envs.observation.encode_boards` plus 4 race features (pip counts / 167,
    pip difference / 50, a no-contact flag), 200 in all; a network with ``extras`` (the
    shipped one) adds the 8 hand-made inputs of :mod:`agents.players.td_inputs`, computed from
    those 200. Hidden layer(s) of sigmoid units.
    Five sigmoid outputs, as GNU Backgammon uses: P(win), P(win gammon), P(win
    backgammon), P(lose gammon), P(lose backgammon) for the player who just moved.
    Cubeless money equity = 2 P(win) - 1 + P(wg) + P(wbg) - P(lg) - P(lbg).

Learning (forward-view TD(lambda), one update per batch of games):
    for the afterstates ``s_0 .. s_T`` of a game, alternately of each side, the target of
    ``s_t`` is the lambda-return built backwards from the final result,
    ``G_t = (1 - lambda) flip(V(s_{t+1})) + lambda flip(G_{t+1})``, where ``flip`` swaps
    the win/lose outputs (the next afterstate is seen from the other side). The network is
    fitted to these targets by Adam on mean squared error.
"""

from __future__ import annotations

import numpy as np
import torch
from torch import nn

from bg_env.rules.moves import Play
from bg_env.rules.position import Position

from .base import PlayAgent
from .cube import CubeSettings, cube_action
from .model_files import ModelFileError, check_weights_fit, load_torch_file, save_torch_file
from .td_features import (  # noqa: F401 (re-exported: agents.players.td.features etc.)
    N_FEATURES,
    features,
    features_reference,
    flip_outputs,
    numpy_equity,
    plays_features,
    position_features,
    terminal_target,
)
from .td_inputs import N_EXTRA, extra_inputs
from .td_search import check_prune, lookahead_values, search_choice

__all__ = ["TDNet", "TDAgent", "features", "numpy_equity", "flip_outputs", "N_FEATURES",
           "save_net", "load_net", "load_cube_net", "net_header", "net_from_header"]

class TDNet(nn.Module):
    """Afterstate evaluator: ``features -> 5 probabilities``.

    With ``extras`` the network also reads the 8 hand-made inputs of
    :mod:`agents.players.td_inputs` (shots, pips lost to a hit, primes, entering), which it
    computes itself from the 200 features it is given: every caller feeds it the same
    rows either way.
    """

    def __init__(self, hidden: int = 80, layers: int = 1, extras: bool = False) -> None:
        super().__init__()
        dims = [N_FEATURES + (N_EXTRA if extras else 0)] + [hidden] * layers
        mods: list[nn.Module] = []
        for a, b in zip(dims, dims[1:]):
            mods += [nn.Linear(a, b), nn.Sigmoid()]
        mods += [nn.Linear(dims[-1], 5), nn.Sigmoid()]
        self.body = nn.Sequential(*mods)
        self.hidden, self.layers, self.extras = hidden, layers, bool(extras)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if self.extras:
            more = extra_inputs(x.detach().cpu().numpy().reshape(-1, N_FEATURES))
            x = torch.cat([x, torch.from_numpy(more).to(x.device).reshape(*x.shape[:-1], -1)],
                          dim=-1)
        return self.body(x)

    def layer_inputs(self, x: np.ndarray) -> np.ndarray:
        """The rows ``body`` reads for feature rows ``x``: ``x`` itself, or with
        ``extras`` ``x`` and its hand-made inputs side by side. ``body(layer_inputs(x))``
        is ``self(x)``; a fit computes them once instead of at every batch."""
        if not self.extras:
            return x
        return np.concatenate([x, extra_inputs(x)], axis=1)

    def evaluate(self, positions: list[Position]) -> np.ndarray:
        """Equity of each afterstate, from the mover's side."""
        with torch.inference_mode():
            v = self(torch.from_numpy(position_features(positions))).numpy()
        return numpy_equity(v)


class TDAgent(PlayAgent):
    """Plays the legal play whose afterstate the network rates best (0-ply); decides the
    cube from the same network's five probabilities (:mod:`agents.players.cube`: Janowski in
    money play, the match equity table at a match score).

    With ``plies=1`` it looks one roll ahead (:mod:`agents.players.td_search`, the ``td:2ply``
    spec): the ``prune`` plays that 0-ply rates best are rated by the average over the
    opponent's 21 rolls of the position after his 0-ply best reply. Its cube decisions
    are those of :meth:`probabilities`: the network's own (0-ply) with ``cube_plies=0``,
    else the position judged ``cube_plies`` rolls ahead (``td:cube1``, ``td:cube2``: the
    average over the roller's 21 rolls of his 0-ply best play's value, at 2 over the
    opponent's replies too), which agree with GNU Backgammon's cube verdicts far more
    often (docs/cube.md). In a variant whose
    checkers do not move as in backgammon it plays 0-ply; where the boards are not
    backgammon boards (Plakoto, Long Nardy) it warns (:class:`~agents.players.base.VariantWarning`).

    A model file may carry a second network for the cube decisions alone (``cube_net``,
    made by ``bg-env train td_cube``: :mod:`agents.training.train_cube`): the checker
    network fine-tuned on the positions before the roll of its own self-play games, with
    their results as targets. :meth:`probabilities` (and so every cube decision) then
    reads it; the checker play is the first network's whatever the file holds.

    Args:
        net: the evaluator.
        cube_settings: the cube-life settings (:class:`~agents.players.cube.CubeSettings`).
        plies: 0 (the network's own choice) or 1 (one roll of lookahead).
        prune: how many plays the search looks at (``None``: all); unused at 0 plies.
        cube_plies: the rolls of lookahead of the cube decisions' probabilities (0, 1
            or 2).
        cube_net: the network of the cube decisions (``None``: ``net``).

    Raises:
        ValueError: ``plies`` not 0 or 1, ``prune`` not a positive integer or ``None``,
            ``cube_plies`` not 0, 1 or 2.
    """

    name = "td"
    reads_backgammon_boards = True

    def __init__(self, net: TDNet, cube_settings: CubeSettings | None = None,
                 plies: int = 0, prune: int | None = 8, cube_plies: int = 0,
                 cube_net: TDNet | None = None) -> None:
        super().__init__()
        if plies not in (0, 1) or isinstance(plies, bool):
            raise ValueError(f"plies={plies!r}: expected 0 (no lookahead) or 1 (one roll "
                             f"ahead, 'td:2ply')")
        if cube_plies not in CUBE_PLIES or isinstance(cube_plies, bool):
            raise ValueError(f"cube_plies={cube_plies!r}: expected one of {CUBE_PLIES} (rolls "
                             f"of lookahead of the cube decisions, 'td:cube1', 'td:cube2')")
        self.net = net.eval()
        self.cube_settings = cube_settings or CubeSettings()
        self.plies = plies
        self.prune = check_prune(prune)
        self.cube_plies = cube_plies
        self.cube_net = None if cube_net is None else cube_net.eval()
        self._judged: tuple[Position | None, np.ndarray | None] = (None, None)
        """The last position :meth:`probabilities` judged, and its probabilities (a double
        and its answer judge the same position)."""
        self.name = "td" + (":2ply" if plies else "") + (f":cube{cube_plies}" if cube_plies
                                                         else "")

    def probabilities(self, position: Position) -> np.ndarray:
        """The five cubeless probabilities of the player on roll in ``position`` (before
        his roll): the network's view of the same board as the opponent's afterstate,
        flipped, looked at ``cube_plies`` rolls ahead
        (:func:`~agents.players.td_search.lookahead_values` of that afterstate); the
        network is :attr:`cube_net` where there is one."""
        if self._judged[0] == position:
            return self._judged[1].copy()
        before = position.swap()  # the opponent's afterstate: he has moved, we roll
        me = np.asarray(before.me, dtype=np.int8).reshape(1, 26)
        opp = np.asarray(before.opp, dtype=np.int8).reshape(1, 26)
        net = self.net if self.cube_net is None else self.cube_net
        v = torch.from_numpy(lookahead_values(net, me, opp, self.cube_plies)[0])
        probs = flip_outputs(v).numpy().astype(float)
        self._judged = (position, probs)
        return probs.copy()

    def cube_action(self, env, legal: list[int]) -> int:
        return cube_action(env, legal, self.probabilities, self.cube_settings)

    def choose_play(self, plays: list[Play], env=None) -> Play:
        self.warn_if_variant_unread(env)
        if len(plays) == 1:
            return plays[0]
        variant = getattr(getattr(env, "game", None), "variant", None)
        if self.plies and (variant is None or variant.standard_moves):
            return plays[search_choice(self.net, plays, self.prune)[0]]
        return plays[int(np.argmax(self.play_equities(plays)))]

    def play_equities(self, plays: list[Play]) -> np.ndarray:
        """The network's cubeless equity of each play's afterstate, from the mover's side
        (0-ply, whatever ``plies``): the numbers a 0-ply choice maximises."""
        with torch.inference_mode():
            v = self.net(torch.from_numpy(plays_features(plays))).numpy()
        return numpy_equity(v)

    @classmethod
    def load(cls, path: str, plies: int = 0, prune: int | None = 8,
             cube_plies: int = 0) -> "TDAgent":
        blob = load_torch_file(path, "TD model")
        return cls(_net_of(blob, f"TD model file {path!r}"), plies=plies, prune=prune,
                   cube_plies=cube_plies, cube_net=_cube_net_of(blob, path))


CUBE_PLIES = (0, 1, 2)
"""The rolls of lookahead :class:`TDAgent`'s cube decisions may take."""


def net_header(net: TDNet) -> dict:
    """The shape of ``net`` as a model file records it (``extras`` only when set, so
    files of plain networks stay as before)."""
    return {"hidden": net.hidden, "layers": net.layers, **({"extras": True} if net.extras else {})}


def net_from_header(blob: dict) -> TDNet:
    """An untrained network of the shape a model file or checkpoint records."""
    return TDNet(blob["hidden"], blob["layers"], bool(blob.get("extras", False)))


def save_net(net: TDNet, path: str, extra: dict | None = None,
             cube_net: TDNet | None = None) -> None:
    """Write the network atomically (:func:`~agents.players.model_files.save_torch_file`),
    with ``cube_net`` (the cube decisions' network, :class:`TDAgent`) under the key
    ``"cube_net"`` when given."""
    cube = {} if cube_net is None else {
        "cube_net": {**net_header(cube_net), "state_dict": cube_net.state_dict()}}
    save_torch_file({**net_header(net), "state_dict": net.state_dict(), **cube, **(extra or {})},
                    path)


def load_net(path: str) -> TDNet:
    """Read a network written by :func:`save_net` (or a training checkpoint), without
    running code that may be inside the file (``torch.load(weights_only=True)``).

    Raises:
        FileNotFoundError: no file at ``path``, with the path in the message.
        ModelFileError: the file is refused as unsafe, truncated, not a torch file or not
            a TD network (the message names it).
    """
    return _net_of(load_torch_file(path, "TD model"), f"TD model file {path!r}")


def load_cube_net(path: str) -> TDNet | None:
    """The cube decisions' network a TD model file carries (:func:`save_net`'s
    ``cube_net``), or ``None`` when it has none; read as :func:`load_net` reads.

    Raises:
        FileNotFoundError: no file at ``path``.
        ModelFileError: the file, or its ``"cube_net"`` entry, is not a TD network.
    """
    return _cube_net_of(load_torch_file(path, "TD model"), path)


def _cube_net_of(blob, path: str) -> TDNet | None:
    if not isinstance(blob, dict) or "cube_net" not in blob:
        return None
    return _net_of(blob["cube_net"], f"the cube network of TD model file {path!r}")


def _net_of(blob, what: str) -> TDNet:
    """The network of a model file's entry (checked before anything is loaded)."""
    if not isinstance(blob, dict) or not {"hidden", "layers", "state_dict"} <= set(blob):
        raise ModelFileError(f"{what} is not a TD network (expected a dict "
                             f"with 'hidden', 'layers' and 'state_dict')")
    check_weights_fit(lambda: net_from_header(blob), blob["state_dict"],
                      f"{what} does not fit a TD network")
    net = net_from_header(blob)
    net.load_state_dict(blob["state_dict"])  # the names and shapes are checked above
    return net
