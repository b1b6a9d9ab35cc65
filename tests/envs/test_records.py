"""Game records in the Jellyfish .mat format (bg_env.records): written from games played on
the engine, read back and replayed with every play and cube action checked; GNU
Backgammon's own export read; GNU Backgammon's import checked when the binary is there."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from bg_env.rules.actions import DOUBLE, DROP, TAKE
from bg_env.game.game import Game, Phase, Rules
from bg_env.game.match import Match
from bg_env.records import (
    Action, GameRecord, MatchRecord, RecordError, format_mat, mat_name, parse_mat, read_mat,
    replay_game, write_mat,
)

DATA = Path(__file__).resolve().parents[1] / "data"


def _decide(game: Game, rng, double=0.05, drop=0.3) -> int:
    """A random legal decision: double and drop with the given chances."""
    legal = game.legal_actions()
    if DOUBLE in legal and rng.random() < double:
        return DOUBLE
    if DROP in legal:
        return DROP if rng.random() < drop else TAKE
    legal = [a for a in legal if a != DOUBLE]
    return legal[int(rng.integers(len(legal)))]


def _random_game(seed: int, rules: Rules, **chances) -> Game:
    rng = np.random.default_rng(seed)
    game = Game(rules)
    game.events = []
    game.opening(rng)
    while game.phase != Phase.OVER:
        game.step(_decide(game, rng, **chances), rng)
    return game


def _money_games(n: int, seed0: int = 0, cube: bool = True) -> MatchRecord:
    record = MatchRecord(("td:models/my td.pt", "pubeval"))
    for seed in range(seed0, seed0 + n):
        record.add_game(_random_game(seed, Rules(cube=cube)), first_side=seed % 2)
    return record


def _match(length: int, seed: int) -> tuple[MatchRecord, int | None]:
    """A random match and the index of its Crawford game (None if it had none)."""
    rng = np.random.default_rng(seed)
    match = Match(length, Rules())
    record = MatchRecord(("alice", "bob"), length)
    crawford = None
    while not match.is_over:
        if match.crawford:
            crawford = len(record.games)
        game = match.new_game(rng)
        game.events = []
        while game.phase != Phase.OVER:
            game.step(_decide(game, rng, double=0.1), rng)
        record.add_game(game)
        match.record(game.result)
    assert record.points() == match.score
    return record, crawford


def _results(record: MatchRecord) -> list[tuple]:
    return [(g.winner, g.points, g.outcome, g.score) for g in record.games]


MONEY = _money_games(40)
TEXT = format_mat(MONEY)


# ----------------------------------------------------------------------- round trips
def test_money_games_round_trip_covers_cube_drops_gammons_dancing_bar_and_bear_off():
    back = parse_mat(TEXT)
    assert back.length == 0 and TEXT.count("0 point match") == 1
    assert '; [Jacoby "Off"]' in TEXT  # (documents the rules; GNU Backgammon 1.07 ignores it)
    assert back.players == MONEY.players
    assert [g.actions for g in back.games] == [g.actions for g in MONEY.games]
    assert _results(back) == _results(MONEY)
    assert back.points() == MONEY.points()
    # what the record covers (the seeds are fixed: these could fail only if they change)
    outcomes = {g.outcome for g in back.games}
    assert {"drop", "single", "gammon", "backgammon"} <= outcomes
    assert re.search(r"Doubles => 2\s+Takes", TEXT) and re.search(r"Doubles => \d+\s+Drops", TEXT)
    assert re.search(r"Doubles => (8|16|32|64)\b", TEXT)  # redoubles
    assert re.search(r"\b[1-6][1-6]:(\s{2,}|\n)", TEXT)  # a roll with no legal move
    assert re.search(r"\b25/\d+", TEXT)  # entering from the bar
    assert re.search(r"\b\d+/0\b", TEXT)  # bearing off
    assert re.search(r"\d+/\d+\*", TEXT)  # hits
    # left entries of 28 characters or more, still two spaces before the right column
    # (GNU Backgammon splits a line there): the import test below reads them
    long = re.findall(r"^\s*\d+\) (\d\d:(?: \S+)+?)( +)\d\d:", TEXT, re.MULTILINE)
    assert any(len(left) >= 28 for left, _ in long)
    assert all(len(gap) >= 2 for _, gap in long)


def test_cubeless_money_record_round_trip_and_every_game_ends_on_a_bear_off():
    record = _money_games(10, seed0=100, cube=False)
    text = format_mat(record)
    assert "Doubles" not in text
    back = parse_mat(text, Rules(cube=False))
    assert _results(back) == _results(record)
    assert all(g.outcome != "drop" for g in back.games)


@pytest.mark.parametrize("length, seed", [(1, 0), (3, 3), (7, 5)])
def test_match_round_trip_with_its_length_and_final_score(length, seed):
    record, _ = _match(length, seed)
    text = format_mat(record)
    assert text.count(f" {length} point match") == 1
    back = parse_mat(text)
    assert back.length == length
    assert _results(back) == _results(record)
    assert max(back.points()) >= length


def test_a_double_in_the_crawford_game_is_refused():
    record, i = _match(3, 3)
    assert i is not None, "the match has a Crawford game"
    game = record.games[i]
    opening, reply = game.actions[0], game.actions[1]
    cube = [Action(reply.player, "double", cube=2), Action(opening.player, "take")]
    bad = replace(game, actions=[opening] + cube + game.actions[1:])
    broken = replace(record, games=record.games[:i] + [bad] + record.games[i + 1:])
    with pytest.raises(RecordError, match=rf"game {i + 1}, .*double is not allowed here "
                                          r"\(the cube is not available\)"):
        parse_mat(format_mat(broken))


def test_write_and_read_a_file(tmp_path):
    path = tmp_path / "money.mat"
    write_mat(path, MONEY)
    assert read_mat(path).points() == MONEY.points()


def test_write_mat_leaves_the_old_file_whole_when_stopped(tmp_path, monkeypatch):
    path = tmp_path / "money.mat"
    write_mat(path, MONEY)
    before = path.read_text()

    def killed(src, dst):
        raise KeyboardInterrupt  # stopped before the new file replaced the old

    monkeypatch.setattr(os, "replace", killed)
    with pytest.raises(KeyboardInterrupt):
        write_mat(path, replace(MONEY, games=MONEY.games[:1]))
    assert path.read_text() == before
    assert [p.name for p in tmp_path.iterdir()] == ["money.mat"]  # no money.mat.tmp


def test_names_in_the_score_line_are_what_gnubg_reads_full_names_in_comments():
    assert mat_name("td:models/my td.pt") == "td_models/my_td.pt"
    assert len(mat_name("x" * 50)) == 31
    assert ' td_models/my_td.pt : 0 ' in TEXT
    assert '; [Player 1 "td:models/my td.pt"]' in TEXT
    without_comments = "\n".join(l for l in TEXT.splitlines() if not l.startswith(";"))
    assert parse_mat(without_comments).players == ("td_models/my_td.pt", "pubeval")


def test_events_keep_forced_and_empty_plays():
    game = _random_game(3, Rules(cube=False))
    plays = [e for e in game.events if e[0] == "play"]
    assert plays[0][4] == Game().position  # the opening play starts at the start
    for (_, side, _, _, _, result), (_, nxt, _, _, start, _) in zip(plays, plays[1:]):
        assert nxt == 1 - side and start == result.swap()  # each play follows the last
    assert any(not e[3] for e in plays)  # a roll that could not be played


# ----------------------------------------------------------------------- bad records
def _game_text(record: MatchRecord, i: int = 0) -> str:
    return format_mat(replace(record, games=[replace(record.games[i], score=(0, 0))]))


def test_an_illegal_play_names_the_game_and_move():
    game = MONEY.games[0]
    first = game.actions[0]
    src, dst, _ = first.moves[0]
    bad = replace(first, moves=((src, dst, False),))  # one die of two left unplayed
    record = replace(MONEY, games=[replace(game, actions=[bad] + game.actions[1:])])
    with pytest.raises(RecordError, match=r"game 1, move 1, player \d\): illegal play .*"
                                          r"legal plays: "):
        parse_mat(format_mat(record))


def test_a_move_from_an_empty_point_is_refused():
    game = MONEY.games[0]
    first = game.actions[0]
    (src, dst, hit), rest = first.moves[0], first.moves[1:]
    bad = replace(first, moves=((22, 22 - (src - dst), False),) + rest)  # 22: empty at the start
    record = replace(MONEY, games=[replace(game, actions=[bad] + game.actions[1:])])
    with pytest.raises(RecordError, match=r"game 1, move 1, .*no checker of the mover's on "
                                          r"the 22-point"):
        parse_mat(format_mat(record))


def test_a_malformed_line_names_the_game_and_move():
    text = _game_text(MONEY).replace("  2) ", "  2) 7x: 13/8 ", 1)
    with pytest.raises(RecordError, match=r"game 1, move 2\): cannot read '7x: 13/8"):
        parse_mat(text)


def test_a_record_that_stops_early_or_goes_on_is_refused():
    i = next(i for i, g in enumerate(MONEY.games) if g.outcome == "gammon")
    lines = _game_text(MONEY, i).splitlines()
    numbered = [n for n, line in enumerate(lines) if re.match(r"\s+\d+\)", line)]
    early = "\n".join(lines[:numbered[-1]])  # the last line and the Wins line cut
    with pytest.raises(RecordError, match=r"game 1, move \d+\): the record ends before the "
                                          "game is over"):
        parse_mat(early)
    later = lines[:numbered[-1] + 1] + [lines[numbered[-2]]] + lines[numbered[-1] + 1:]
    with pytest.raises(RecordError, match=rf"game 1, move {len(numbered) - 1}\): "):
        parse_mat("\n".join(later))
    game = MONEY.games[i]
    extra = Action(1 - game.actions[-1].player, "roll", (3, 1), (), line=99)
    with pytest.raises(RecordError, match=r"game 1, move 99: a roll after the end of the game"):
        replay_game(replace(game, actions=game.actions + [extra]))


def test_wrong_wins_points_or_score_line_are_refused():
    text = _game_text(MONEY, 1)
    points = MONEY.games[1].points
    with pytest.raises(RecordError, match=r"\(game 1\): the record says .* wins 99 point"):
        parse_mat(re.sub(rf"Wins {points} points?", "Wins 99 points", text))
    lines = TEXT.splitlines()
    score = lines.index(" Game 2") + 1
    lines[score] = re.sub(r": \d+$", ": 77", lines[score])
    with pytest.raises(RecordError, match=r"\(game 2\): the score line says \d+-77"):
        parse_mat("\n".join(lines))


def test_a_resignation_must_score_one_two_or_three_cubes():
    text = (DATA / "gnubg_3pt.mat").read_text()
    with pytest.raises(RecordError, match=r"\(game 2\): the game stops before its end with "
                                          r"'Wins 5' at cube 4"):
        parse_mat(text.replace("Wins 4 points", "Wins 5 points"))


def test_not_a_mat_file():
    with pytest.raises(RecordError, match="point match"):
        parse_mat("hello\n")
    with pytest.raises(RecordError, match="no game"):
        parse_mat(" 0 point match\n")


def test_unsupported_rules_and_unfinished_games_cannot_be_recorded():
    with pytest.raises(RecordError, match="jacoby=True"):
        MatchRecord().add_game(_random_game(0, Rules(jacoby=True)))
    with pytest.raises(RecordError, match="variant='nackgammon'"):
        parse_mat(TEXT, Rules(variant="nackgammon"))
    game = Game(Rules())
    game.events = []
    game.opening(np.random.default_rng(0))
    with pytest.raises(RecordError, match="not over"):
        GameRecord.from_game(game)


def test_replay_game_checks_whose_turn_it_is():
    game = MONEY.games[0]
    swapped = [replace(a, player=1 - a.player) for a in game.actions]
    assert replay_game(replace(game, actions=swapped)).result.winner == 1 - game.winner
    twice = [game.actions[0], replace(game.actions[1], player=game.actions[0].player)]
    with pytest.raises(RecordError, match="out of turn|player \\d roll"):
        replay_game(replace(game, actions=twice + game.actions[2:]))


# ----------------------------------------------------------------------- line numbers
def _changed_line(text: str, corrupted: str) -> tuple[int, str]:
    """The one line where ``corrupted`` differs from ``text``: its number (counted from 1, as
    an editor counts) and its text."""
    old, new = text.splitlines(), corrupted.splitlines()
    assert len(old) == len(new)
    changed = [i for i, (a, b) in enumerate(zip(old, new)) if a != b]
    assert len(changed) == 1, changed
    return changed[0] + 1, new[changed[0]]


def _game_and_move(text: str, line: int) -> tuple[int, int | None]:
    """The game whose text holds line ``line`` (from 1), and the number of that line's move
    (None for a line that is not a numbered move line)."""
    lines = text.splitlines()
    game = sum(1 for above in lines[:line - 1] if re.fullmatch(r"\s*Game \d+\s*", above))
    move = re.match(r"\s*(\d+)\)", lines[line - 1])
    return game, int(move.group(1)) if move else None


def _corrupt_line(pattern: str, old: str, new: str, after: str = " Game 2") -> str:
    """``TEXT`` with ``old`` replaced by ``new`` in its first line matching ``pattern`` after
    the line ``after`` (so that the games above it give the line a number of its own)."""
    lines = TEXT.splitlines()
    start = lines.index(after)
    k = next(k for k in range(start, len(lines)) if re.search(pattern, lines[k]))
    lines[k] = lines[k].replace(old, new, 1)
    return "\n".join(lines) + "\n"


def test_an_illegal_play_names_its_line_of_the_file():
    i = 2  # the third game: two games above it
    game = MONEY.games[i]
    k = next(k for k, a in enumerate(game.actions) if k >= 6 and len(a.moves) >= 2)
    bad = replace(game.actions[k], moves=game.actions[k].moves[:-1])  # a die left unplayed
    games = list(MONEY.games)
    games[i] = replace(game, actions=game.actions[:k] + [bad] + game.actions[k + 1:])
    text = format_mat(replace(MONEY, games=games))
    line, _ = _changed_line(TEXT, text)
    number, move = _game_and_move(text, line)
    assert number == i + 1 and move is not None
    where = rf"line {line} \(game {number}, move {move}, player {bad.player + 1}\)"
    with pytest.raises(RecordError, match=rf"^{where}: illegal play '{re.escape(bad.text())}'"):
        parse_mat(text)


def test_a_garbled_line_names_its_line_of_the_file_and_the_file(tmp_path):
    text = _corrupt_line(r"^\s+4\) ", "4) ", "4) ?? ")
    line, _ = _changed_line(TEXT, text)
    assert _game_and_move(text, line) == (2, 4)
    with pytest.raises(RecordError, match=rf"^line {line} \(game 2, move 4\): cannot read '\?\?'"):
        parse_mat(text)
    path = tmp_path / "garbled.mat"
    path.write_text(text)
    with pytest.raises(RecordError, match=rf"^{re.escape(str(path))}: line {line} \(game 2, "):
        read_mat(path)


def test_a_wrong_wins_or_score_line_names_its_line_of_the_file():
    text = _corrupt_line(r"Wins \d+ point", "Wins ", "Wins 9")  # 'Wins 1 point' -> 'Wins 91'
    line, content = _changed_line(TEXT, text)
    assert _game_and_move(text, line)[0] == 2 and "Wins 9" in content
    with pytest.raises(RecordError, match=rf"^line {line} \(game 2\): the record says .* wins 9"):
        parse_mat(text)
    text = _corrupt_line(r" : \d+$", " : ", " : 7", after=" Game 3")  # the score line
    line, _ = _changed_line(TEXT, text)
    with pytest.raises(RecordError, match=rf"^line {line} \(game 3\): the score line says "):
        parse_mat(text)


def test_a_wrong_cube_value_names_its_line_of_the_file():
    text = _corrupt_line(r"Doubles => 2\b", "Doubles => 2", "Doubles => 8")
    line, _ = _changed_line(TEXT, text)
    number, move = _game_and_move(text, line)
    assert number >= 2 and move is not None
    with pytest.raises(RecordError, match=rf"^line {line} \(game {number}, move {move}, "
                                          r"player \d\): 'Doubles => 8' but the cube goes to 2"):
        parse_mat(text)


def test_a_record_that_stops_early_names_its_last_line():
    lines = TEXT.splitlines()
    end = lines.index(" Game 3")  # game 2 cut after its second-to-last move line
    numbered = [k for k in range(lines.index(" Game 2"), end) if re.match(r"\s+\d+\)", lines[k])]
    text = "\n".join(lines[:numbered[-1]]) + "\n"
    last = numbered[-2] + 1
    number, move = _game_and_move(text, last)
    assert number == 2
    with pytest.raises(RecordError, match=rf"^line {last} \(game 2, move {move}\): the record "
                                          "ends before the game is over"):
        parse_mat(text)


def test_a_game_out_of_order_names_its_line():
    text = TEXT.replace(" Game 2\n", " Game 5\n", 1)
    line, _ = _changed_line(TEXT, text)
    with pytest.raises(RecordError, match=rf"^line {line}: 'Game 5' where game 2 was expected"):
        parse_mat(text)


# ----------------------------------------------------------------------- GNU Backgammon
def test_reads_a_match_exported_by_gnu_backgammon():
    """``gnubg_3pt.mat``: a 3-point match GNU Backgammon 1.07 played against itself and
    exported (``export match mat``); gnubg's ``show score`` after importing it: 5-0. The
    second game stops before its end: the loser resigned (at cube 4, a single game)."""
    record = read_mat(DATA / "gnubg_3pt.mat")
    assert record.players == ("gnubg", "root") and record.length == 3
    assert record.points() == (5, 0)
    assert [(g.winner, g.points, g.outcome) for g in record.games] == [
        (0, 1, "drop"), (0, 4, "resign")]


def _gnubg() -> str | None:
    return shutil.which("gnubg") or shutil.which("gnubg", path="/usr/games")


def gnubg_import(path: Path, export: Path | None = None) -> str:
    """GNU Backgammon's output for ``import mat`` then ``show score`` (money games without
    the Jacoby rule, as the records are played)."""
    commands = f"set jacoby off\nimport mat {path}\nshow score\n"
    if export is not None:
        commands += f"export match mat {export}\n"
    done = subprocess.run([_gnubg(), "-t", "-q"], input=commands, capture_output=True,
                          text=True, timeout=300, env=dict(os.environ, HOME=str(path.parent)))
    return done.stdout + done.stderr


@pytest.mark.skipif(_gnubg() is None, reason="GNU Backgammon (gnubg) is not installed")
@pytest.mark.parametrize("which", ["money", "match"])
def test_gnu_backgammon_imports_the_records(tmp_path, which):
    record = MONEY if which == "money" else _match(7, 5)[0]  # with a Crawford game
    path, back = tmp_path / "games.mat", tmp_path / "back.mat"
    write_mat(path, record)
    out = gnubg_import(path, back)
    assert "WARNING" not in out and "Unrecognised" not in out and "rror" not in out, out
    m = re.search(r"The score \(after (\d+) games?\) is: (\S+) (\d+), (\S+) (\d+)", out)
    assert m, out
    assert int(m.group(1)) == len(record.games)
    assert (m.group(2), m.group(4)) == tuple(mat_name(n) for n in record.players)
    assert (int(m.group(3)), int(m.group(5))) == record.points()
    again = read_mat(back)  # GNU Backgammon's own export of what it imported
    assert [(g.winner, g.points, g.outcome) for g in again.games] == [
        (g.winner, g.points, g.outcome) for g in record.games]
