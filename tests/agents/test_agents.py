"""Agents play only legal actions, load by spec, and evaluate reproducibly."""

from __future__ import annotations

import json
import os

import numpy as np
import pytest
import torch

from agents import FirstLegalAgent, RandomAgent, load_agent
from agents.players.base import PlayAgent
from agents.cli import main
from agents.config import ConfigError, find_config, load_config
from agents.evaluation.evaluate import evaluate, play_game_core, play_game_env
from agents.play.human import play_human
from agents.players.td import TDAgent, TDNet, save_net
from agents.training.train_td import TDConfig, lambda_targets, train_td
from bg_env import backgammon_v0
from bg_env.game.game import Phase, Rules


class Recorder(PlayAgent):
    """Wraps a PlayAgent and records (turn start, chosen result) to check legality."""

    def __init__(self, inner: PlayAgent):
        super().__init__()
        self.inner, self.name, self.chosen = inner, inner.name, []

    def choose_play(self, plays, env):
        play = self.inner.choose_play(plays, env)
        self.chosen.append((env.game.turn_start, env.game.dice, plays, play))
        return play

    def cube_action(self, env, legal):
        return self.inner.cube_action(env, legal)


def _tiny_td() -> TDAgent:
    torch.manual_seed(0)
    return TDAgent(TDNet(hidden=8))


@pytest.mark.parametrize("make", [lambda: RandomAgent(1), lambda: load_agent("pubeval"), _tiny_td],
                         ids=["random", "pubeval", "td"])
def test_play_agents_choose_legal_plays_in_full_games_with_the_cube(make):
    agent = Recorder(make())
    other = RandomAgent(2)
    env = backgammon_v0.raw_env(cube=True)
    for seed in range(6):
        env.reset(seed=seed)
        while not env.terminations["player_0"]:
            actor = agent if env.agent_selection == "player_0" else other
            env.step(actor.act(env))  # the raw env raises on any illegal action
        assert env.infos["player_0"]["outcome"] in ("single", "gammon", "backgammon", "drop")
    assert agent.chosen
    for start, dice, plays, play in agent.chosen:
        legal = {p.result for p in start.legal_plays(dice)}
        assert play in plays
        # a play chosen mid-turn (after a forced move) still ends in a legal result
        assert play.result in legal


def test_first_legal_agent_is_deterministic():
    env = backgammon_v0.raw_env(cube=True)
    results = []
    for _ in range(2):
        env.reset(seed=3)
        agent = FirstLegalAgent()
        while not env.terminations["player_0"]:
            env.step(agent.act(env))
        results.append(env.infos["player_0"])
    assert results[0] == results[1]


def test_load_agent_errors_name_the_problem(tmp_path):
    with pytest.raises(ValueError, match="unknown agent spec 'nonsense'.*known"):
        load_agent("nonsense")
    missing = str(tmp_path / "nope.pt")
    with pytest.raises(FileNotFoundError, match="nope.pt"):
        load_agent(f"td:{missing}")


def test_td_model_round_trips_through_a_file(tmp_path):
    agent = _tiny_td()
    path = str(tmp_path / "m.pt")
    save_net(agent.net, path)
    loaded = load_agent(f"td:{path}")
    from bg_env import Position

    results = [p.result for p in Position.start().legal_plays((6, 5))]
    assert np.allclose(agent.net.evaluate(results), loaded.net.evaluate(results))


def test_core_and_env_loops_play_the_same_game():
    a, b = load_agent("pubeval"), _tiny_td()
    for seed in (5, 6, 7):
        assert play_game_core((a, b), seed, Rules(cube=False)) == play_game_env((a, b), seed, {"cube": False})


def test_evaluation_of_an_agent_against_itself_is_exactly_even():
    # each pair of games uses the same dice with the seats swapped, so a deterministic
    # agent against itself plays the same game twice from both sides
    stats = evaluate(load_agent("pubeval"), load_agent("pubeval"), games=10, seed=3)
    assert stats.games == 10
    assert stats.ppg == 0.0 and stats.win_rate == 0.5


def test_evaluation_statistics_on_a_seeded_toy_match():
    s1 = evaluate(load_agent("pubeval"), RandomAgent(0), games=20, seed=11)
    s2 = evaluate(load_agent("pubeval"), RandomAgent(0), games=20, seed=11)
    assert s1.points == s2.points  # same seed, same match
    assert s1.games == 20 and s1.wins >= 17
    assert s1.ppg == pytest.approx(np.mean(s1.points))
    assert s1.ppg_ci95 == pytest.approx(1.96 * np.std(s1.points, ddof=1) / np.sqrt(20))
    assert s1.gammons_won >= s1.backgammons_won
    assert set(s1.summary()) >= {"win_rate", "ppg", "ppg_ci95", "gammons_won", "backgammons_won"}


def test_lambda_targets_flip_sides_and_end_in_the_result():
    v = torch.tensor([[0.5, 0.1, 0.0, 0.2, 0.0], [0.4, 0.0, 0.0, 0.3, 0.1], [0.9, 0.5, 0.1, 0.0, 0.0]])
    t = lambda_targets(v, "gammon", lam=0.0)
    assert t[2].tolist() == [1.0, 1.0, 0.0, 0.0, 0.0]
    # lambda 0: the target is the next afterstate seen from the other side
    assert t[1].tolist() == pytest.approx([0.1, 0.0, 0.0, 0.5, 0.1])
    assert t[0].tolist() == pytest.approx([0.6, 0.3, 0.1, 0.0, 0.0])
    # a side that passes leaves two afterstates of the same side in a row: no flip there
    t = lambda_targets(v, "gammon", lam=0.0, sides=[1, 0, 0])
    assert t[1].tolist() == pytest.approx([0.9, 0.5, 0.1, 0.0, 0.0])
    assert t[0].tolist() == pytest.approx([0.6, 0.3, 0.1, 0.0, 0.0])


def test_self_play_records_who_moved():
    from agents.training.train_td import self_play_game

    torch.manual_seed(1)
    x, v, sides, result = self_play_game(TDNet(hidden=8), np.random.default_rng(3))
    assert len(x) == len(v) == len(sides)
    assert sides[-1] == result.winner


def test_tiny_td_run_saves_loads_and_resumes(tmp_path):
    run = str(tmp_path / "run")
    cfg = TDConfig(run_dir=run, games=4, hidden=8, eval_every=2, eval_games=2,
                   checkpoint_every=2, eval_opponents=["random"])
    train_td(cfg, progress=False)
    for name in ("model.pt", "checkpoint.pt", "report.md", "history.json", "config.json"):
        assert os.path.exists(os.path.join(run, name)), name
    agent = load_agent(f"td:{run}/model.pt")
    assert isinstance(agent, TDAgent)
    cfg.games = 6
    train_td(cfg, resume=True, progress=False)
    history = json.load(open(os.path.join(run, "history.json")))
    assert [h["games"] for h in history] == [2, 4, 6]
    report = open(os.path.join(run, "report.md")).read()
    assert "| 6 |" in report
    cfg.games, cfg.lr = 8, 1e-4  # a resumed run trains at the config's rate
    train_td(cfg, resume=True, progress=False)
    blob = torch.load(os.path.join(run, "checkpoint.pt"), weights_only=False)
    assert blob["games"] == 8 and blob["optimizer"]["param_groups"][0]["lr"] == 1e-4


def test_resume_without_a_checkpoint_names_the_path(tmp_path):
    cfg = TDConfig(run_dir=str(tmp_path / "empty"), games=2)
    with pytest.raises(FileNotFoundError, match="checkpoint"):
        train_td(cfg, resume=True, progress=False)


def test_config_validation_names_keys_and_files(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("algo: td\ngamez: 10\n")
    with pytest.raises(ConfigError, match=r"bad.yaml: unknown key\(s\) \['gamez'\]"):
        load_config(TDConfig, str(bad))
    with pytest.raises(ConfigError, match="lr="):
        load_config(TDConfig, None, {"lr": "fast"})
    with pytest.raises(ConfigError, match="overrides: unknown key"):
        load_config(TDConfig, None, {"bogus": 1})
    with pytest.raises(FileNotFoundError, match="missing.yaml"):
        load_config(TDConfig, str(tmp_path / "missing.yaml"))
    cfg = load_config(TDConfig, find_config("td"), {"games": 7})
    assert cfg.games == 7 and cfg.algo == "td"


def test_cli_eval_writes_json_and_reports_bad_specs(tmp_path, capsys):
    out = tmp_path / "r.json"
    assert main(["eval", "pubeval", "random:1", "--games", "4", "--quiet", "--json", str(out)]) == 0
    data = json.loads(out.read_text())
    assert data["games"] == 4 and data["agent_a"] == "pubeval"
    assert main(["eval", "pubeval", "bogus"]) == 2
    assert "unknown agent spec 'bogus'" in capsys.readouterr().err
    assert main(["train", str(tmp_path / "none.yaml")]) == 2


def test_human_bad_entry_lists_legal_plays_then_a_good_one_is_played():
    said = []
    answers = iter(["24/1", "quit"])

    def ask(prompt):
        said.append(prompt)
        return next(answers)

    play_human("random:0", seed=1, ask=ask, say=said.append)
    text = "\n".join(str(s) for s in said)
    assert "is not legal" in text and "legal plays:" in text
    assert "Game abandoned." in text


@pytest.mark.parametrize("opponent, seed, answer", [("td", 1, "td takes."),
                                                     ("random:0", 1, "random:0 drops (passes).")])
def test_human_play_says_the_opponents_cube_answers(opponent, seed, answer):
    said = []

    def ask(prompt):  # the human doubles at the first chance, then leaves
        said.append(prompt)
        return "double" if "Before rolling" in prompt else "quit"

    play_human(opponent, seed=seed, ask=ask, say=said.append, cube=True)
    assert answer in said
    assert not any(isinstance(s, str) and s.endswith("played: no move") for s in said)


def test_human_plays_a_legal_play_typed_in_notation():
    from bg_env.game.game import Game

    env = backgammon_v0.raw_env(cube=False)
    env.reset(options={"position_id": "4HPwATDgc/ABMA", "dice": (3, 1)})
    from agents.play.human import HumanAgent

    human = HumanAgent(ask=lambda prompt: "8/5 6/5", say=lambda s: None)
    while env.agent_selection == "player_0" and env.game.phase == Phase.MOVE:
        env.step(human.act(env))
    assert env.game.last_play and sorted(str(m) for m in env.game.last_play) == ["6/5", "8/5"]
    assert isinstance(env.game, Game)


def test_compiled_td_features_match_the_numpy_definition():
    from agents.players.td import features, features_reference
    from helpers import random_cases

    cases = random_cases(300, seed=4)
    cases = list(cases)
    me = np.array([p.me for _, p, _ in cases], dtype=np.int8)
    opp = np.array([p.opp for _, p, _ in cases], dtype=np.int8)
    assert np.allclose(features(me, opp), features_reference(me, opp))


def test_model_file_names_the_file_load_agent_reads():
    from agents import MODELS_DIR, model_file

    shipped = os.path.join(MODELS_DIR, "td.pt")
    assert model_file("td") == model_file("td:2ply:all+naive") == shipped
    assert model_file("td:runs/x.pt:2ply:4") == model_file("td:runs/x.pt+naive") == "runs/x.pt"
    assert model_file("ppo") == os.path.join(MODELS_DIR, "ppo.zip")
    assert model_file("ppo:m.zip") == "m.zip"
    assert model_file("pubeval") is model_file("random:3") is model_file("gnubg:1") is None
    with pytest.raises(ValueError, match="3ply"):
        model_file("td:3ply")
