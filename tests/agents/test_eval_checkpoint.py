"""Evaluation checkpoints (``bg-env eval --checkpoint FILE``): an interrupted evaluation
resumed from its checkpoint ends with the same statistics and records as one never stopped,
having played only the pairs that were left."""

from __future__ import annotations

import json
from dataclasses import asdict

import pytest

from agents import FirstLegalAgent, RandomAgent, load_agent
from agents.cli import main
from agents.evaluation.eval_checkpoint import FORMAT, EvalCheckpoint
from agents.evaluation.evaluate import evaluate, evaluate_matches
from bg_env.records import MatchRecord, format_mat


class Counting(RandomAgent):
    """A random agent (seeded by the evaluation) that counts its plays and can be made to
    raise KeyboardInterrupt at its ``stop_at``-th play, as a Ctrl-C mid-game would."""

    def __init__(self, stop_at: int | None = None) -> None:
        super().__init__()
        self.plays, self.stop_at = 0, stop_at

    def choose_play(self, plays, env):
        self.plays += 1
        if self.plays == self.stop_at:
            raise KeyboardInterrupt
        return super().choose_play(plays, env)


def _money(opponent):
    """A cubeful money evaluation of a counting random agent against ``opponent`` (a
    PlayAgent runs on the core, a single-move agent through the env), with a record."""
    def run(agent, n, checkpoint=None):
        record = MatchRecord(("random", "other"))
        stats = evaluate(agent, opponent(), games=n, seed=11, cube=True, record=record,
                         checkpoint=checkpoint)
        return asdict(stats), [format_mat(record)]
    return run


def _matches(agent, n, checkpoint=None):
    records = []
    stats = evaluate_matches(agent, load_agent("pubeval"), matches=n, length=3, seed=11,
                             records=records, checkpoint=checkpoint)
    return asdict(stats), [format_mat(r) for r in records]


RUNS = {
    "money on the core": _money(lambda: load_agent("pubeval")),
    "money through the env": _money(FirstLegalAgent),
    "matches": _matches,
}


@pytest.mark.parametrize("kind", sorted(RUNS))
def test_an_interrupted_evaluation_resumes_to_the_same_games(kind, tmp_path):
    run = RUNS[kind]
    whole_agent = Counting()
    whole = run(whole_agent, 12)
    path = tmp_path / "eval.json"
    stop_at = whole_agent.plays * 2 // 3  # in the middle of a later pair
    with pytest.raises(KeyboardInterrupt):
        run(Counting(stop_at), 12, EvalCheckpoint(path, every=0))
    saved = json.loads(path.read_text())
    assert saved["format"] == FORMAT and 0 < saved["pairs_done"] < 6
    resumed_agent = Counting()
    assert run(resumed_agent, 12, EvalCheckpoint(path, every=0)) == whole
    assert 0 < resumed_agent.plays < whole_agent.plays  # only the pairs left were played


def test_more_games_extend_a_finished_checkpoint_and_a_finished_one_plays_nothing(tmp_path):
    path = tmp_path / "eval.json"
    run = RUNS["money on the core"]
    first = run(Counting(), 6, path)
    again = Counting()
    assert run(again, 6, path) == first and again.plays == 0
    assert json.loads(path.read_text())["pairs_done"] == 3
    assert run(Counting(), 10, path) == run(Counting(), 10)  # 4 more games, the same ones


@pytest.mark.parametrize("change, named", [
    ({"seed": 12}, "seed was 11, now 12"),
    ({"cube": False}, "rule 'cube' was True, now False"),
    ({"variant": "nackgammon"}, "rule 'variant' was None, now 'nackgammon'"),
    ({"games": 2}, "4 games done, more than the 2 asked for"),
    ({"agent": "first"}, "agent_a was 'random', now 'first'"),
])
def test_a_checkpoint_of_another_evaluation_is_refused_and_kept(change, named, tmp_path):
    path = tmp_path / "eval.json"
    evaluate(RandomAgent(), load_agent("pubeval"), games=4, seed=11, cube=True,
             checkpoint=path)
    before = path.read_bytes()
    agent = FirstLegalAgent() if change.pop("agent", None) else RandomAgent()
    args = dict(dict(games=4, seed=11, cube=True), **change)
    with pytest.raises(ValueError, match="eval.json") as err:
        evaluate(agent, load_agent("pubeval"), checkpoint=path, **args)
    assert named in str(err.value)
    assert path.read_bytes() == before


def test_a_money_checkpoint_does_not_resume_matches_nor_records(tmp_path):
    path = tmp_path / "eval.json"
    evaluate(RandomAgent(), RandomAgent(), games=2, seed=1, checkpoint=path)
    with pytest.raises(ValueError, match="kind was 'money', now 'match'"):
        evaluate_matches(RandomAgent(), RandomAgent(), matches=2, seed=1, cube=False,
                         checkpoint=path)
    with pytest.raises(ValueError, match="records was False, now True"):
        evaluate(RandomAgent(), RandomAgent(), games=2, seed=1, checkpoint=path,
                 record=MatchRecord())


@pytest.mark.parametrize("text, named", [
    ("{not json", "is not JSON"),
    ('{"format": "something else"}', "is not a bg-env evaluation checkpoint"),
    (json.dumps({"format": FORMAT, "run": {}}), "lacks ['pairs_done', 'stats', 'generators']"),
])
def test_a_file_that_is_not_a_checkpoint_is_refused_by_name(text, named, tmp_path):
    path = tmp_path / "results.json"
    path.write_text(text)
    with pytest.raises(ValueError, match="results.json") as err:
        evaluate(RandomAgent(), RandomAgent(), games=2, checkpoint=path)
    assert named in str(err.value)
    assert path.read_text() == text


def test_cli_eval_checkpoint_continues_and_names_a_changed_setting(tmp_path, capsys):
    path, mat = tmp_path / "eval.json", tmp_path / "games.mat"
    args = ["eval", "random", "pubeval", "--games", "4", "--cube", "--quiet",
            "--checkpoint", str(path), "--save-mat", str(mat)]
    assert main(args) == 0
    first, record = capsys.readouterr().out, mat.read_text()
    mat.unlink()
    assert main(args) == 0  # finished: the same table and record, no game played
    assert capsys.readouterr().out == first and mat.read_text() == record
    assert main(args[:-2] + ["--seed", "2"]) == 2
    err = capsys.readouterr().err
    assert "seed was 0, now 2" in err and "records was True, now False" in err
    missing = tmp_path / "no-such-folder" / "eval.json"
    assert main(["eval", "random", "random", "--checkpoint", str(missing)]) == 2
    assert "--checkpoint" in capsys.readouterr().err and not missing.parent.exists()


def test_cli_interrupted_eval_says_how_to_continue(monkeypatch, capsys):
    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr("agents.evaluation.evaluate.evaluate", interrupted)
    assert main(["eval", "random", "random", "--quiet"]) == 130
    assert "--checkpoint FILE" in capsys.readouterr().err


def test_saves_are_spaced_by_the_interval_or_twenty_times_a_slow_save(monkeypatch, tmp_path):
    clock, writes = [0.0], []

    def slow_write(path, data):  # a save that takes 1 s (a large record)
        clock[0] += 1.0
        writes.append(clock[0])

    monkeypatch.setattr("agents.evaluation.eval_checkpoint.time.monotonic", lambda: clock[0])
    monkeypatch.setattr("agents.evaluation.eval_checkpoint.write_atomically", slow_write)
    checkpoint = EvalCheckpoint(tmp_path / "eval.json", every=10)
    checkpoint.start({}, evaluate(RandomAgent(1), RandomAgent(2), games=2),
                     (RandomAgent(1), RandomAgent(2)), pairs=100)
    for seconds, saved in ((9, 0), (10, 1), (29, 1), (31, 2), (52, 3), (70, 3)):
        clock[0] = seconds
        checkpoint.pair_done(1)
        assert len(writes) == saved, seconds
    checkpoint.pair_done(100)  # the last pair: always
    assert len(writes) == 4


@pytest.mark.parametrize("damage, named", [
    (lambda c: c["stats"].update(bogus=1), "unexpected keyword argument 'bogus'"),
    (lambda c: c["generators"][1].update(state="garbage"), "TypeError"),
    (lambda c: c["generators"].pop(), "1 generator states for 2 agents"),
    (lambda c: c.update(records=["not a record"]), "RecordError"),
    (lambda c: c.update(pairs_done=-1), "pairs_done -1"),
    (lambda c: c["stats"].update(games="x"), "the statistics' games is 'x'"),
    (lambda c: c["stats"]["points"].append(0.5), "the statistics' points is"),
    (lambda c: c.update(pairs_done=1), "4 games for 1 pairs"),
    (lambda c: c.update(generators=[None, None]), "a generator state for an agent without"),
    (lambda c: c.update(run=[]), "run is not a dict"),
    (lambda c: c["run"].update(rules=3), "its rules are not a dict"),
    (lambda c: c["records"].append(c["records"][0]), "2 records, 1 expected"),
    (lambda c: c["stats"].update(games=2), "4 points for 2 games"),
    (lambda c: c["stats"].update(gammons_won=19), "19 gammons and"),
    (lambda c: c["stats"].update(wins=c["stats"]["wins"] + 1), "wins where the points show"),
    (lambda c: c["stats"].update(drops=-1), "-1 drops in 4 games"),
], ids=["stats", "a generator", "generators", "records", "pairs done", "a count",
        "a point", "games for pairs", "no generators", "run", "rules", "two records",
        "games below the points", "more gammons than wins", "wins", "negative drops"])
def test_a_damaged_checkpoint_is_refused_leaving_agents_and_record_untouched(
        damage, named, tmp_path):
    from agents.evaluation.evaluate import seed_agents

    path = tmp_path / "eval.json"
    evaluate(RandomAgent(), RandomAgent(), games=4, seed=3, record=MatchRecord(),
             checkpoint=path)
    saved = json.loads(path.read_text())
    damage(saved)
    path.write_text(json.dumps(saved))
    agents, twins = (RandomAgent(), RandomAgent()), (RandomAgent(), RandomAgent())
    seed_agents(twins, 3)  # as the evaluation seeds them before reading the checkpoint
    record = MatchRecord()
    with pytest.raises(ValueError, match="eval.json") as err:
        evaluate(*agents, games=4, seed=3, record=record, checkpoint=path)
    assert named in str(err.value)
    assert record.games == []
    for agent, twin in zip(agents, twins):
        assert agent.rng.bit_generator.state == twin.rng.bit_generator.state


def test_numpy_numbers_in_the_settings_are_kept_as_plain_numbers(tmp_path):
    import numpy as np

    path = tmp_path / "eval.json"
    first = evaluate(RandomAgent(), RandomAgent(), games=2, seed=np.int64(4),
                     max_turns=np.int64(500), checkpoint=path)
    again = evaluate(RandomAgent(), RandomAgent(), games=2, seed=4, max_turns=500,
                     checkpoint=path)
    assert asdict(again) == asdict(first)
    with pytest.raises(ValueError, match="cannot be kept in a checkpoint"):
        evaluate(RandomAgent(), RandomAgent(), games=2, max_turns=object(),
                 checkpoint=tmp_path / "other.json")


def test_cli_match_checkpoint_keeps_the_match_cube_model(tmp_path, capsys):
    path = tmp_path / "eval.json"
    args = ["eval", "random", "pubeval", "--match", "3", "--games", "2", "--quiet",
            "--checkpoint", str(path)]
    assert main(args) == 0
    first = capsys.readouterr().out
    assert main(args + ["--match-cube", "live"]) == 0 and capsys.readouterr().out == first
    assert main(args + ["--match-cube", "dead"]) == 2
    assert "match_cube was 'live', now 'dead'" in capsys.readouterr().err


@pytest.mark.parametrize("extra, option", [
    (["--json", "{ck}"], "--json"),
    (["--save-mat", "{ck}"], "--save-mat"),
    (["--match", "3", "--save-mat", "{folder}/eval.json"], "--save-mat"),  # eval-2.json
])
def test_cli_checkpoint_must_not_be_a_file_another_option_writes(extra, option, tmp_path,
                                                                  capsys):
    checkpoint = tmp_path / ("eval-2.json" if "--match" in extra else "eval.json")
    extra = [e.format(ck=checkpoint, folder=tmp_path) for e in extra]
    assert main(["eval", "random", "random", "--games", "2", "--quiet",
                 "--checkpoint", str(checkpoint)] + extra) == 2
    err = capsys.readouterr().err
    assert f"{option} " in err and "--checkpoint " in err and "are one file" in err
    assert list(tmp_path.iterdir()) == []  # refused before any game


def test_cli_checkpoint_of_a_model_file_since_rewritten_is_refused(tmp_path, capsys):
    torch = pytest.importorskip("torch")
    from agents.players.td import TDNet, save_net

    model, path = tmp_path / "net.pt", tmp_path / "eval.json"
    torch.manual_seed(0)
    save_net(TDNet(8).eval(), str(model))
    args = ["eval", f"td:{model}", "random", "--games", "2", "--quiet", "--checkpoint", str(path)]
    assert main(args) == 0
    first = capsys.readouterr().out
    assert main(args) == 0 and capsys.readouterr().out == first  # the same file goes on
    torch.manual_seed(1)
    save_net(TDNet(8).eval(), str(model))  # the same name, other weights
    saved = path.read_text()
    assert main(args) == 2
    assert f"sha256 of td:{model}'s model was '" in capsys.readouterr().err
    assert path.read_text() == saved


def test_a_binary_file_given_as_a_checkpoint_is_named(tmp_path):
    path = tmp_path / "model.pt"
    path.write_bytes(bytes(range(256)) * 4)
    with pytest.raises(ValueError, match="model.pt.* is not a bg-env evaluation checkpoint"):
        evaluate(RandomAgent(), RandomAgent(), games=2, seed=3, checkpoint=path)
    assert path.read_bytes() == bytes(range(256)) * 4


def test_contradictions_are_found_in_match_statistics_too():
    from agents.evaluation.eval_stats import MatchPlayStats

    stats = MatchPlayStats("a", "b", 3, matches=2, wins=1, games=[3, 4], crawford_games=[1, 1],
                           scores=[(4, 1), (2, 3)])
    assert stats.contradictions() == []
    stats.crawford_games = [5, 1]
    assert any("more Crawford games" in p for p in stats.contradictions())
    stats.crawford_games, stats.wins = [1, 1], 2
    assert any("with 2 won" in p for p in stats.contradictions())
