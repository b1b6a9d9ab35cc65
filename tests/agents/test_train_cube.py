"""td's cube network (agents/training/train_cube.py, agents/players/td.py's ``cube_net``):
the positions before each roll of a self-play game with its result from the side that
moved, the lambda-returns, the fit that keeps its best epoch, a tiny run that writes a
model whose checker play is the init network's and whose cube decisions read the fitted
one, its resume, and the settings it refuses."""

from __future__ import annotations

import os

import numpy as np
import pytest
import torch

from agents import load_agent
from agents.config import ConfigError
from agents.players.model_files import ModelFileError, load_torch_file, save_torch_file
from agents.players.td import TDAgent, TDNet, load_cube_net, load_net, save_net
from agents.players.td_features import flip_outputs, position_features
from agents.training import train_cube as tc
from agents.training.train_cube import (
    CubeNetConfig,
    fit_cube_net,
    game_positions,
    lambda_returns,
    layer_inputs,
    result_targets,
    train_cube,
)
from bg_env.game.game import Game, Phase, Rules
from bg_env.rules.position import Position


def small_net(hidden: int = 8, seed: int = 0) -> TDNet:
    torch.manual_seed(seed)
    return TDNet(hidden).eval()


def test_a_game_gives_every_position_before_a_roll_with_its_result_from_the_mover():
    net = small_net()
    x, result = game_positions(net, np.random.default_rng(3))
    # the same game again, its plays' starting boards by the game's own record
    starts = _starts(net, 3)
    assert len(x) == len(starts) == len(result) > 10
    after = [start.swap() for _, start in starts]  # the side that just moved is "me"
    assert np.array_equal(x, np.array([list(p.me) + list(p.opp) for p in after]))
    assert np.array_equal(layer_inputs(net, x), position_features(after))
    extras = TDNet(8, extras=True)  # (the shipped network reads the hand-made inputs too)
    assert np.array_equal(layer_inputs(extras, x), extras.layer_inputs(position_features(after)))
    sides = [side for side, _ in starts]
    assert all(a != b for a, b in zip(sides, sides[1:]))  # forced turns and dances too
    assert set(np.abs(result)) <= {1, 2, 3} and len(set(np.abs(result))) == 1
    assert all(a == -b for a, b in zip(result, result[1:]))
    assert result[-1] < 0  # the last roll is the winner's: the side that moved before lost


def _starts(net: TDNet, seed: int) -> list:
    """(side, board before the roll) of each turn but the opening of the game
    ``game_positions`` plays at ``seed``, from the game's record."""
    rng = np.random.default_rng(seed)
    game = Game(Rules(cube=False))
    game.events = []
    game.opening(rng)
    agent = TDAgent(net)
    while game.phase != Phase.OVER:
        plays = game.legal_continuations()
        game.play(agent.choose_play(plays), rng)
    return [(e[1], e[4]) for e in game.events if e[0] == "play"][1:]


def test_result_targets_are_the_five_outputs_of_each_result():
    got = result_targets(np.array([1, 2, 3, -1, -2, -3]))
    assert got.tolist() == [[1, 0, 0, 0, 0], [1, 1, 0, 0, 0], [1, 1, 1, 0, 0],
                            [0, 0, 0, 0, 0], [0, 0, 0, 1, 0], [0, 0, 0, 1, 1]]


def test_lambda_returns_run_back_from_each_games_result():
    values = np.random.default_rng(0).random((5, 5)).astype(np.float32)
    result = np.array([1, -1, 1, -2, 2])
    game = np.array([0, 0, 0, 1, 1])
    z = result_targets(result)
    assert np.array_equal(lambda_returns(values, result, game, 1.0), z)
    flip = lambda v: flip_outputs(torch.from_numpy(np.asarray(v, np.float32))).numpy()  # noqa: E731
    td0 = lambda_returns(values, result, game, 0.0)
    assert np.allclose(td0[[2, 4]], z[[2, 4]])  # each game's last row: its result
    assert np.allclose(td0[0], flip(values[1])) and np.allclose(td0[3], flip(values[4]))
    half = lambda_returns(values, result, game, 0.5)
    assert np.allclose(half[1], flip(0.5 * values[2] + 0.5 * z[2]))
    assert np.allclose(half[0], flip(0.5 * values[1] + 0.5 * half[1]))


def test_the_fit_keeps_the_epoch_best_on_the_held_out_games():
    net = small_net()
    rng = np.random.default_rng(1)
    x = rng.random((400, net.body[0].in_features)).astype(np.float32)
    z = result_targets(rng.choice([1, -1, 2, -2], 400))
    held = np.arange(400) % 4 == 0
    cfg = CubeNetConfig(games=10, epochs=3, lr=1e-2, holdout=2)
    fitted, errors = fit_cube_net(net, x, z, held, z[held], cfg)
    assert len(errors) == 4
    with torch.no_grad():
        err = float(((fitted.body(torch.from_numpy(x[held])) - torch.from_numpy(z[held])) ** 2)
                    .mean())
    assert err == pytest.approx(min(errors), abs=1e-6)
    assert min(errors) < errors[0]  # a learning rate this high fits this much noise at once
    # a fit that only gets worse keeps the network as it was
    worse, errors = fit_cube_net(net, x, 1 - z, held, z[held], cfg)
    assert errors[0] == min(errors)
    assert all(a.equal(b) for a, b in zip(worse.parameters(), net.parameters()))
    assert all(a is not b for a, b in zip(worse.parameters(), net.parameters()))


def test_a_tiny_run_writes_the_init_checker_net_and_a_fitted_cube_net(tmp_path):
    init = tmp_path / "init.pt"
    save_net(small_net(8), str(init))
    cfg = CubeNetConfig(run_dir=str(tmp_path / "run"), init=str(init), games=6, holdout=3,
                        epochs=2, lr=1e-2)
    out = train_cube(cfg, progress=False)
    assert len(out["held_out_error"]) == 3
    model = os.path.join(cfg.run_dir, "model.pt")
    agent = load_agent(f"td:{model}")
    assert all(a.equal(b) for a, b in zip(agent.net.parameters(),
                                            load_net(str(init)).parameters()))
    assert agent.cube_net is not None and agent.cube_net.hidden == 8
    for name in ("positions.npz", "report.md", "summary.json", "config.json"):
        assert os.path.exists(os.path.join(cfg.run_dir, name)), name
    report = open(os.path.join(cfg.run_dir, "report.md")).read()
    assert "Held-out error" in report and f"td:{model}" in report


def test_resume_plays_on_from_the_checkpoint_and_refuses_to_rewind(tmp_path, monkeypatch):
    init = tmp_path / "init.pt"
    save_net(small_net(8), str(init))
    settings = dict(init=str(init), holdout=2, epochs=1, checkpoint_every=2)
    whole = CubeNetConfig(run_dir=str(tmp_path / "whole"), games=6, **settings)
    train_cube(whole, progress=False)
    # a run stopped after 4 games (its checkpoint), resumed to 6: only games 4 and 5 are
    # played, and the positions are those of the run that was not stopped
    part = CubeNetConfig(run_dir=str(tmp_path / "part"), games=4, **settings)
    train_cube(part, progress=False)
    played = []
    real = tc.play_games

    def spy(net, cfg, bar=None, first=0, last=None):
        played.append((first, last))
        return real(net, cfg, bar, first, last)

    monkeypatch.setattr(tc, "play_games", spy)
    again = CubeNetConfig(run_dir=part.run_dir, games=6, **settings)
    assert train_cube(again, resume=True, progress=False) == \
        train_cube(whole, resume=True, progress=False)
    assert played == [(4, 6)]  # the whole run's resume played nothing
    with np.load(os.path.join(part.run_dir, "positions.npz")) as a, \
            np.load(os.path.join(whole.run_dir, "positions.npz")) as b:
        assert all(np.array_equal(a[k], b[k]) for k in ("boards", "result", "game"))
    with pytest.raises(ConfigError, match="6 games done, more than games=5"):
        train_cube(CubeNetConfig(run_dir=part.run_dir, games=5, **settings), resume=True,
                   progress=False)
    with pytest.raises(ConfigError, match="positions.npz.*'seed': 0"):
        train_cube(CubeNetConfig(run_dir=part.run_dir, games=6, seed=1, **settings),
                   resume=True, progress=False)


@pytest.mark.parametrize("setting, match", [
    ({"lam": 1.5}, "lam=1.5"), ({"lr": 0}, "lr=0"), ({"games": 4, "holdout": 5}, "holdout=5"),
    ({"epochs": 0}, "epochs"), ({"algo": "td"}, "td_cube"), ({"holdout": 1}, "holdout"),
    ({"checkpoint_every": 0}, "checkpoint_every")])
def test_bad_settings_are_refused_by_name(setting, match):
    with pytest.raises(ValueError, match=match):
        CubeNetConfig(**setting)


def test_the_cube_decisions_read_the_cube_net_and_the_checkers_the_other(tmp_path):
    checkers, cube = small_net(8, seed=1), small_net(8, seed=2)
    agent = TDAgent(checkers, cube_net=cube)
    pos = Position.from_position_id("4HPwATDgc/ABMA")
    assert np.allclose(agent.probabilities(pos), TDAgent(cube).probabilities(pos))
    assert not np.allclose(agent.probabilities(pos), TDAgent(checkers).probabilities(pos))
    game = Game(Rules(cube=False))
    game.opening(np.random.default_rng(0))
    plays = game.legal_continuations()
    assert np.array_equal(agent.play_equities(plays), TDAgent(checkers).play_equities(plays))
    # saved and read back, through the agent spec too
    path = str(tmp_path / "both.pt")
    save_net(checkers, path, cube_net=cube)
    back = load_agent(f"td:{path}")
    assert np.allclose(back.probabilities(pos), agent.probabilities(pos))
    assert load_cube_net(str(tmp_path / "both.pt")) is not None
    save_net(checkers, str(tmp_path / "plain.pt"))
    assert load_cube_net(str(tmp_path / "plain.pt")) is None
    assert load_agent(f"td:{tmp_path / 'plain.pt'}").cube_net is None


def test_a_cube_net_entry_that_is_not_a_network_is_refused_by_name(tmp_path):
    path = str(tmp_path / "bad.pt")
    save_net(small_net(8), path)
    blob = load_torch_file(path, "TD model")
    blob["cube_net"] = {"hidden": 8, "layers": 1, "state_dict": {"nonsense": torch.zeros(2)}}
    save_torch_file(blob, path)
    with pytest.raises(ModelFileError, match="cube network of TD model file"):
        load_agent(f"td:{path}")


def test_the_games_are_the_same_for_any_number_of_workers():
    net = small_net(8)
    one = tc.play_games(net, CubeNetConfig(games=4, holdout=2, seed=5))
    two = tc.play_games(net, CubeNetConfig(games=4, holdout=2, seed=5, workers=2))
    assert set(one) == set(two) == {"boards", "result", "game"}
    assert all(np.array_equal(one[k], two[k]) for k in one)
    assert sorted(set(one["game"].tolist())) == [0, 1, 2, 3]
