"""Evaluations played by worker processes (``evaluate(..., workers=N)``, ``bg-env eval
--workers N``) give the same games, statistics, records and checkpoints as one process;
agents whose games depend on their order (their own generator) are refused by name."""

from __future__ import annotations

import json
import os
import pickle
from dataclasses import asdict

import numpy as np
import pytest
import torch

from agents import FirstLegalAgent, RandomAgent, load_agent
from agents.cli import main
from agents.evaluation.eval_workers import check_workers
from agents.evaluation.evaluate import evaluate, evaluate_matches
from agents.players.td import TDAgent, TDNet, save_net
from bg_env.records import MatchRecord, format_mat


def _small_td() -> TDAgent:
    torch.manual_seed(3)
    agent = TDAgent(TDNet(8).eval())
    agent.name = "td8"
    return agent


def _money(workers: int, checkpoint=None, games: int = 6):
    record = MatchRecord(("td8", "pubeval"))
    stats = evaluate(_small_td(), load_agent("pubeval"), games=games, seed=5, cube=True,
                     record=record, checkpoint=checkpoint, workers=workers)
    return asdict(stats), format_mat(record)


def test_money_games_with_workers_are_the_games_of_one_process(tmp_path):
    one = _money(1)
    assert _money(2) == one
    assert one[0]["games"] == 6 and one[1].count("Game ") == 6
    # a checkpoint made by one process, extended by two: the same as all in one process
    path = tmp_path / "eval.json"
    _money(1, path, games=2)
    assert _money(2, path, games=6) == one
    assert json.loads(path.read_text())["pairs_done"] == 3


def test_matches_and_single_move_agents_with_workers_are_the_same():
    def matches(workers):
        records = []
        stats = evaluate_matches(_small_td(), load_agent("pubeval"), matches=2, length=3,
                                 seed=8, records=records, workers=workers)
        return asdict(stats), [format_mat(r) for r in records]

    def env_games(workers):  # a single-move agent plays through the env
        return asdict(evaluate(FirstLegalAgent(), load_agent("pubeval"), games=4, seed=2,
                               cube=True, workers=workers))

    assert matches(2) == matches(1)
    assert env_games(2) == env_games(1)


@pytest.mark.parametrize("workers, named", [
    (0, "workers=0"), (True, "workers=True"), (1.5, "workers=1.5"),
    (2, "agent 'random' draws from its own generator"),
])
def test_bad_workers_or_an_agent_with_a_generator_are_refused(workers, named):
    with pytest.raises(ValueError, match=named):
        check_workers(workers, (RandomAgent(), load_agent("pubeval")))
    assert check_workers(np.int64(1), (RandomAgent(), RandomAgent())) == 1
    assert type(check_workers(np.int64(3), (load_agent("pubeval"),) * 2)) is int
    with pytest.raises(ValueError, match=named):
        evaluate(load_agent("pubeval"), RandomAgent(), games=2, workers=workers)


def test_cli_eval_workers_match_one_process_and_refuse_random(tmp_path, capsys):
    model = tmp_path / "td8.pt"
    save_net(_small_td().net, str(model))
    outs = []
    for workers in ("1", "2"):
        out = tmp_path / f"w{workers}.json"
        assert main(["eval", f"td:{model}", "pubeval", "--games", "4", "--seed", "1",
                     "--quiet", "--workers", workers, "--json", str(out)]) == 0
        outs.append(json.loads(out.read_text()))
    assert outs[0] == outs[1]
    capsys.readouterr()
    assert main(["eval", "random", "pubeval", "--games", "2", "--workers", "2"]) == 2
    assert "agent 'random' draws from its own generator" in capsys.readouterr().err


def test_gnubg_agent_pickles_and_judges_the_same():
    pytest.importorskip("gnubg_nn")
    from bg_env.rules import Position, legal_plays

    agent = load_agent("gnubg")
    copy = pickle.loads(pickle.dumps(agent))
    start = Position.start()
    assert copy.probabilities(start).tolist() == agent.probabilities(start).tolist()
    plays = legal_plays(start, (3, 1))
    assert copy.choose_play(plays).notation == agent.choose_play(plays).notation == "8/5 6/5"


def test_ctrl_c_stops_the_workers_and_the_checkpoint_holds_the_pairs_played(tmp_path):
    """A terminal's Ctrl-C reaches the whole process group: the command ends as an
    interrupt (130, no worker's traceback), leaves no worker behind, and its checkpoint
    holds what one process playing the same pairs finds."""
    import os
    import signal
    import subprocess
    import sys
    import time

    model, checkpoint = tmp_path / "td8.pt", tmp_path / "ck.json"
    save_net(_small_td().net, str(model))
    cmd = [sys.executable, "-m", "agents.cli", "eval", f"td:{model}", "pubeval", "--games",
           "1000000", "--seed", "4", "--quiet", "--workers", "2", "--checkpoint", str(checkpoint)]
    run = subprocess.Popen(cmd, start_new_session=True, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True,
                           preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    for _ in range(600):  # the first save comes after 10 s of games
        if checkpoint.exists() or run.poll() is not None:
            break
        time.sleep(0.1)
    os.killpg(run.pid, signal.SIGINT)
    out = run.communicate(timeout=120)[0]
    assert run.returncode == 130, out
    assert "Traceback" not in out and "continues from FILE's last save" in out
    for _ in range(100):  # the workers end after their pair (zombies reaped within seconds)
        try:
            os.killpg(run.pid, 0)
        except ProcessLookupError:
            break
        time.sleep(0.2)
    else:
        pytest.fail("a process of the interrupted evaluation is left after 20 s")
    saved = json.loads(checkpoint.read_text())
    assert saved["pairs_done"] > 0
    agent = load_agent(f"td:{model}")
    agent.name = f"td:{model}"  # as bg-env eval names it
    one = evaluate(agent, load_agent("pubeval"), games=2 * saved["pairs_done"], seed=4)
    assert saved["stats"]["games"] == one.games and saved["stats"] == json.loads(
        json.dumps(asdict(one)))


class DiesInAWorker(FirstLegalAgent):
    """An agent whose process ends abruptly when it plays outside the test's process."""

    def __init__(self) -> None:
        super().__init__()
        self.home = os.getpid()

    def act(self, env):
        if os.getpid() != self.home:
            os._exit(3)
        return super().act(env)


def test_a_worker_that_dies_stops_the_evaluation_with_an_error():
    from concurrent.futures.process import BrokenProcessPool

    with pytest.raises(BrokenProcessPool):
        evaluate(DiesInAWorker(), load_agent("pubeval"), games=8, seed=1, workers=2)
