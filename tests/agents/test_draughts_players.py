"""The draughts players: alpha-beta sees a capture coming and beats random; the score of
a small match."""

from __future__ import annotations

from bg_env import draughts_v0
from bg_env.draughts import DraughtsPosition
from agents.evaluation.draughts import main, play_games
from agents.players.draughts import DraughtsAlphaBeta, DraughtsRandom, evaluate


def test_evaluate_counts_material_from_the_side_to_move():
    pos = DraughtsPosition.from_fen("W:WK46,31:B5", "international")
    assert evaluate(pos) > 3 and evaluate(DraughtsPosition(pos.variant, pos.board, -1)) < -3
    losing = DraughtsPosition.from_fen("W:WK46,31:B5", "losing")
    assert evaluate(losing) == -evaluate(pos)


def test_alpha_beta_takes_the_most_and_avoids_giving_a_piece_away():
    ab = DraughtsAlphaBeta(depth=2, seed=0)
    # white may take 29 (to 24) or step elsewhere: it takes (compulsory, and the only gain)
    pos = DraughtsPosition.from_fen("W:W33,45:B29,3", "international")
    assert ab.choose(pos).captured == (29,)
    # english: either step of the man on 22 is taken by the man on 14; 32 steps safely
    pos = DraughtsPosition.from_fen("W:W22,32:B14,1", "english")
    assert ab.choose(pos).start == 32


def test_act_plays_a_whole_capture_hop_by_hop_in_the_env():
    env = draughts_v0.raw_env()
    env.reset(options={"fen": "W:W33:B29,19,20,3"})
    ab = DraughtsAlphaBeta(depth=1, seed=0)
    while env.agent_selection == "player_0" and not env.terminations["player_0"]:
        env.step(ab.act(env))
    assert env.fen().startswith("B:W1") and env.game.plies == 1


def test_alpha_beta_beats_random():
    out = play_games(DraughtsAlphaBeta(2, seed=0), DraughtsRandom(0), 10, "english")
    assert out["score"] >= 0.8 and out["wins"] + out["draws"] + out["losses"] == 10


def test_the_command_prints_the_score(capsys):
    out = main(["--variant", "english", "--games", "2", "--depth", "1"])
    assert "alpha-beta depth 1 against random, english, 2 games: score" in capsys.readouterr().out
    assert 0 <= out["score"] <= 1
