"""Search distillation of the TD network (agents/training/train_distill.py): the net2net widening
keeps the function, the labels are the lookahead's values of the network's best plays, and
tiny runs (with 1 and 2 workers) train, checkpoint, resume and refuse bad settings."""

from __future__ import annotations

import os

import numpy as np
import pytest
import torch

from agents.config import ConfigError
from agents.players.td import TDNet, load_net, numpy_equity, plays_features, save_net
from agents.players.td_features import N_FEATURES
from agents.players.td_search import search_values
from agents.training.train_distill import (
    DistillConfig,
    decision_batches,
    label_game,
    rank_loss,
    train_distill,
    widen,
)
from bg_env.game.game import Game, Rules
from bg_env.envs.play_env import board_features


def small_net(hidden: int = 8, seed: int = 0) -> TDNet:
    torch.manual_seed(seed)
    return TDNet(hidden).eval()


def test_widening_keeps_the_function_and_adds_units():
    net = small_net(8)
    wide = widen(net, 13, torch.Generator().manual_seed(1))
    x = torch.rand(64, N_FEATURES)
    with torch.inference_mode():
        assert torch.allclose(wide(x), net(x), atol=1e-6)
    assert wide.hidden == 13 and wide.body[0].weight.shape == (13, N_FEATURES)
    assert widen(net, 8, torch.Generator()).body[2].weight.equal(net.body[2].weight)


def test_widening_refuses_fewer_units_and_deeper_networks():
    with pytest.raises(ValueError, match="already has 8 units"):
        widen(small_net(8), 6, torch.Generator())
    with pytest.raises(ValueError, match="2 hidden layers"):
        widen(TDNet(8, layers=2), 10, torch.Generator())


def test_labels_are_the_lookahead_values_of_the_best_plays():
    net = small_net(8)
    x, y = label_game(net, np.random.default_rng(5), top_k=3)
    assert x.shape[1] == N_FEATURES and y.shape == (len(x), 5)
    assert ((y >= 0) & (y <= 1)).all()
    # the first decision, again by hand: the 3 plays 0-ply rates best, and their lookahead
    game = Game(Rules(cube=False))
    game.opening(np.random.default_rng(5))
    plays = game.legal_continuations()
    features = plays_features(plays)
    with torch.inference_mode():
        equity = numpy_equity(net(torch.from_numpy(features)).numpy())
    best = np.argsort(-equity, kind="stable")[:3]
    np.testing.assert_array_equal(x[:3], features[best])
    np.testing.assert_allclose(y[:3], search_values(net, [plays[i] for i in best]), atol=1e-6)


def tiny(tmp_path, name: str, init: str, **kw) -> DistillConfig:
    settings = dict(run_dir=str(tmp_path / name), init=init, hidden=10, rounds=1, games=2,
                    top_k=2, epochs=1, eval_games=2, batch_size=64, extras=False)
    settings.update(kw)
    return DistillConfig(**settings)


def test_a_tiny_run_trains_resumes_and_is_the_same_with_two_workers(tmp_path):
    init = str(tmp_path / "init.pt")
    save_net(small_net(8), init)
    one = tiny(tmp_path, "one", init)
    final = train_distill(one, progress=False)
    assert final["round"] == 1 and final["labels"] > 0 and "pubeval" in final
    model = load_net(os.path.join(one.run_dir, "model.pt"))
    assert model.hidden == 10
    start = widen(load_net(init), 10, torch.Generator().manual_seed(0))
    assert not torch.equal(model.body[0].weight, start.body[0].weight)  # it learned
    assert os.path.exists(os.path.join(one.run_dir, "report.md"))

    # --resume goes on after round 1; a shorter run is refused (no rewinding)
    longer = tiny(tmp_path, "one", init, rounds=2)
    assert train_distill(longer, resume=True, progress=False)["round"] == 2
    assert os.path.exists(os.path.join(one.run_dir, "round2.pt"))
    with pytest.raises(ConfigError, match="rounds"):
        train_distill(tiny(tmp_path, "one", init, rounds=1), resume=True, progress=False)

    # two workers label the same games with the same weights: the same network
    two = tiny(tmp_path, "two", init, workers=2)
    train_distill(two, progress=False)
    other = load_net(os.path.join(two.run_dir, "round1.pt"))
    first = load_net(os.path.join(one.run_dir, "round1.pt"))
    for a, b in zip(first.state_dict().values(), other.state_dict().values()):
        assert torch.equal(a, b)


def test_a_tiny_run_with_the_hand_made_inputs_learns_them_and_resumes(tmp_path):
    init = str(tmp_path / "init.pt")
    save_net(small_net(8), init)
    cfg = tiny(tmp_path, "extras", init, extras=True, workers=2)
    train_distill(cfg, progress=False)
    model = load_net(os.path.join(cfg.run_dir, "model.pt"))
    assert model.extras and model.hidden == 10
    assert model.body[0].weight[:, N_FEATURES:].abs().sum() > 0  # they started at zero
    # the checkpoint keeps them: --resume goes on with the same kind of network
    again = train_distill(tiny(tmp_path, "extras", init, extras=True, rounds=2), resume=True,
                          progress=False)
    assert again["round"] == 2 and load_net(os.path.join(cfg.run_dir, "model.pt")).extras
    # a network that reads them keeps them when extras is off
    kept = tiny(tmp_path, "kept", os.path.join(cfg.run_dir, "model.pt"), extras=False)
    train_distill(kept, progress=False)
    assert load_net(os.path.join(kept.run_dir, "model.pt")).extras


def test_bad_settings_are_named(tmp_path):
    init = str(tmp_path / "init.pt")
    save_net(small_net(8), init)
    with pytest.raises(ConfigError, match="hidden=6"):
        train_distill(tiny(tmp_path, "narrow", init, hidden=6), progress=False)
    with pytest.raises(FileNotFoundError, match="missing.pt"):
        train_distill(tiny(tmp_path, "gone", str(tmp_path / "missing.pt")), progress=False)
    with pytest.raises(FileNotFoundError, match="no checkpoint"):
        train_distill(tiny(tmp_path, "fresh", init), resume=True, progress=False)
    with pytest.raises(ValueError, match="top_k"):
        DistillConfig(top_k=0)
    with pytest.raises(ValueError, match="algo"):
        DistillConfig(algo="td")


def test_the_shipped_config_runs_from_the_command_line_in_any_folder(tmp_path, monkeypatch):
    from agents.cli import main

    init = str(tmp_path / "init.pt")
    save_net(small_net(8), init)
    monkeypatch.chdir(tmp_path)  # td_distill.yaml is found in the package
    assert main(["train", "td_distill", "--quiet", "--set", f"init={init}", "run_dir=run",
                 "rounds=1", "games=1", "top_k=1", "epochs=1", "eval_games=2", "hidden=9"]) == 0
    assert load_net(str(tmp_path / "run" / "model.pt")).hidden == 9


def test_decision_batches_hold_whole_decisions_and_every_row_once():
    starts = np.array([0, 3, 4, 9, 11, 12, 17])  # 7 decisions, 20 rows
    lengths = np.diff(np.r_[starts, 20])
    seen = []
    for rows, segment in decision_batches(starts, 20, 6, torch.Generator().manual_seed(1)):
        rows, segment = rows.numpy(), segment.numpy()
        assert segment[0] == 0 and (np.diff(segment) >= 0).all()
        for d in np.unique(segment):  # each of the batch's decisions is whole and in order
            mine = rows[segment == d]
            first = int(np.flatnonzero(starts == mine[0])[0])
            whole = np.arange(starts[first], starts[first] + lengths[first])
            np.testing.assert_array_equal(mine, whole)
        seen.extend(rows.tolist())
    assert sorted(seen) == list(range(20)) and seen != list(range(20))  # all, shuffled


def test_rank_loss_sees_the_order_of_a_decisions_plays_not_their_level():
    y = torch.tensor([[0.6, 0, 0, 0, 0], [0.5, 0, 0, 0, 0], [0.3, 0, 0, 0, 0]])
    segment = torch.tensor([0, 0, 1])
    level = y + torch.tensor([0.1, 0, 0, 0, 0])  # every row 0.2 equity higher
    assert float(rank_loss(level, y, segment)) == pytest.approx(0.0, abs=1e-7)
    swapped = y[[1, 0, 2]]  # the first decision's two plays swapped: gaps +-0.2 from their mean
    # equity 2 P(win) - 1: the rows' gaps to the labels are -0.2, +0.2, 0; less their
    # decision's mean (0, 0, 0): a mean square of (0.04 + 0.04 + 0) / 3
    assert float(rank_loss(swapped, y, segment)) == pytest.approx(0.08 / 3, rel=1e-5)


def test_a_fit_with_the_ranking_term_orders_the_decisions_better(tmp_path):
    from agents.training.distill_file import decision_starts, fit_file, label_file, read_labels

    torch.manual_seed(4)
    teacher = str(tmp_path / "teacher.pt")
    save_net(TDNet(8).eval(), teacher)
    labels = str(tmp_path / "labels.npz")
    label_file(teacher, labels, games=6, seed=2, top_k=5, progress=False)
    blob = read_labels(labels)
    x = torch.from_numpy(board_features(blob["boards"])[:, :N_FEATURES].copy())
    y = torch.from_numpy(blob["labels"].astype(np.float32))
    starts = decision_starts(blob["games"], blob["decisions"])
    segment = torch.from_numpy(np.repeat(np.arange(len(starts)), np.diff(np.r_[starts, len(y)])))

    def ranking(path):
        with torch.inference_mode():
            return float(rank_loss(load_net(path)(x), y, segment))

    for weight in (0.0, 5.0):
        fit_file(labels, teacher, str(tmp_path / f"w{weight}.pt"), epochs=6, lr=3e-3,
                 batch_size=64, rank_weight=weight)
    plain, ranked = ranking(str(tmp_path / "w0.0.pt")), ranking(str(tmp_path / "w5.0.pt"))
    assert ranked < 0.95 * min(plain, ranking(teacher))
    old = str(tmp_path / "old.npz")
    np.savez(old, **{k: np.load(labels)[k] for k in ("boards", "labels", "games")})
    with pytest.raises(ValueError, match="old.npz.*rank-weight needs them"):
        fit_file(old, teacher, str(tmp_path / "x.pt"), rank_weight=1.0)
