"""`nomv match`: games between computer players, seats taking turns, several at once, with a
summary a user can trust and records that replay."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import nomv
from nomv.ai import make_agent, match
from nomv.cli import main

GAMES = Path(__file__).parent.parent / "games"


def test_a_match_is_repeatable_and_the_same_with_several_processes():
    game = nomv.Game.load("tictactoe")
    specs = ["mcts:300it", "random"]
    alone = match.run(game, specs, 6, seed=4, jobs=1)
    together = match.run(game, specs, 6, seed=4, jobs=2)
    assert [r.record for r in alone] == [r.record for r in together]
    assert [r.seats for r in alone] == [(0, 1), (1, 0)] * 3
    table = match.standings(specs, alone)
    assert table[0].wins + table[0].draws + table[0].losses == 6
    assert table[0].wins == table[1].losses and table[0].draws == table[1].draws


DICE_RACE = """
-- Each turn: stop, or roll a die (a 1 loses everything); first to 12 wins.
return {
  name = "dice_race", players = 2,
  setup = function(opts, rng) return {score = {0, 0}, turn = 0, to_move = 1} end,
  moves = function(s) return {{"roll"}, {"stop"}} end,
  play = function(s, m, rng)
    local score = {s.score[1], s.score[2]}
    local p = s.to_move
    if m[1] == "roll" then
      local d = rng:int(6)
      score[p] = d == 1 and 0 or score[p] + d
    end
    return {score = score, turn = s.turn + 1, to_move = 3 - p}
  end,
  result = function(s)
    for p = 1, 2 do if s.score[p] >= 12 then return {winner = p} end end
    if s.turn >= 40 then return {draw = true} end
  end,
}
"""


def test_a_match_with_chance_is_repeatable_too(tmp_path):
    path = tmp_path / "dice_race.lua"
    path.write_text(DICE_RACE, encoding="utf-8")
    game = nomv.Game.load(str(path))
    specs = ["mcts:200it", "mcts:100it"]
    alone = match.run(game, specs, 6, seed=1, jobs=1)
    together = match.run(game, specs, 6, seed=1, jobs=3)
    assert [r.record for r in alone] == [r.record for r in together]


def test_a_search_does_not_depend_on_what_its_process_did_before(tmp_path):
    # Whether a search treats the game as one of chance must not depend on which games the
    # same runtime played first (with jobs, a process plays some of a match's games).
    path = tmp_path / "dice_race.lua"
    path.write_text(DICE_RACE, encoding="utf-8")
    fresh, used = nomv.Game.load(str(path)), nomv.Game.load(str(path))
    earlier = used.start(seed=9)
    for _ in range(2):
        earlier.play("roll")                    # chance in the used runtime
    figures = []
    for game in (fresh, used):
        agent = make_agent("mcts:300it:seed=4")
        agent.choose(game.start(seed=2))
        figures.append({**agent.last, "seconds": 0})
    assert figures[0] == figures[1] and figures[0]["mode"] == "open"


def test_each_game_counts_for_the_player_in_the_winning_seat():
    specs = ["a", "b"]
    results = [match.GameResult(1, 0, (0, 1), (1, 2), 1, 5, {}),     # a (seat 1) wins
               match.GameResult(2, 0, (1, 0), (1, 2), 1, 5, {}),     # b (seat 1) wins
               match.GameResult(3, 1, (0, 1), (1, 1), None, 9, {}),  # draw
               match.GameResult(4, 1, (1, 0), None, None, 99, {})]   # unfinished
    a, b = match.standings(specs, results)
    assert (a.wins, a.draws, a.losses, a.unfinished) == (1, 1, 1, 1)
    assert (b.wins, b.draws, b.losses, b.unfinished) == (1, 1, 1, 1)
    assert a.score == b.score == 0.5


def test_three_players_two_agents():
    # Two seats for the first agent in odd games: it wins when either of them does.
    results = [match.GameResult(1, 0, (0, 1, 0), (2, 3, 1), 3, 7, {})]
    a, b = match.standings(["a", "b"], results)
    assert (a.wins, b.losses) == (1, 1)


def test_the_command_prints_a_summary_and_keeps_records(tmp_path, capsys):
    out = tmp_path / "games.jsonl"
    assert main(["match", "trinim", "--players", "mcts:500it,random", "-n", "4", "--swap",
                 "--seed", "2", "--jobs", "2", "--out", str(out)]) == 0
    text = capsys.readouterr().out
    assert "Trinim: 4 games (each deal played in every turn of the seats, seed 2, 2 jobs)" in text
    assert "mcts:500it" in text and "95% interval" in text and "average length" in text
    lines = out.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 4
    records = [nomv.Record.from_text(line) for line in lines]
    assert sorted(r.seed for r in records) == [2, 2, 3, 3]
    for record in records:
        assert record.script == "trinim"        # by name, as nomv play saves it: any machine opens it
        pos = record.replay()
        assert pos.outcome() is not None and record.players in (["mcts:500it", "random"], ["random", "mcts:500it"])
    # one game of the file opens as FILE#N; the whole file says how
    assert nomv.Record.load(f"{out}#3") == records[2]
    with pytest.raises(nomv.RecordError, match=r"holds 4 game records, one per line .* open one as .*#N, N from 1 to 4"):
        nomv.Record.load(out)
    with pytest.raises(nomv.RecordError, match="holds 4 game records, so there is no record #5"):
        nomv.Record.load(f"{out}#5")
    assert main(["show", "trinim", "--moves", *records[0].moves[:1]]) == 0
    capsys.readouterr()
    assert main(["play", "--open", f"{out}#2", "--text", "--players", "human,human"]) == 0
    assert "Game over" in capsys.readouterr().out
    # a damaged line spoils only its own game
    lines[2] = lines[2][:40]
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert nomv.Record.load(f"{out}#4") == records[3]
    with pytest.raises(nomv.RecordError, match=r"games.jsonl#3(:1)?: not a nomv game record"):
        nomv.Record.load(f"{out}#3")


def test_a_record_saved_with_a_path_from_another_machine_opens_by_the_games_name(tmp_path):
    pos = nomv.Game.load("trinim").start(seed=3)
    pos.play(pos.legal_moves[0])
    record = nomv.Record.from_position(pos)
    record.script = "/home/alice/.venv/lib/python3.12/site-packages/nomv/games/trinim.lua"
    assert record.replay().history == pos.history


def test_json_output_and_min_score(capsys):
    assert main(["match", "tictactoe", "--players", "random,mcts:2000it", "-n", "2", "--seed", "1",
                 "--jobs", "1", "--json", "--min-score", "0.9"]) == 1
    captured = capsys.readouterr()
    data = json.loads(captured.out)
    assert data["games"] == 2 and [p["player"] for p in data["players"]] == ["random", "mcts:2000it"]
    assert 0 < data["players"][1]["iterations_per_move"] <= 2000   # fewer once a game is solved
    assert "random scored" in captured.err and "below --min-score 0.9" in captured.err


@pytest.mark.parametrize("argv, message", [
    (["--players", "mcts,humna"], "unknown player 'humna' (did you mean 'human'?)"),
    (["--players", "human,mcts"], "a match is played by computer players"),
    (["--players", "mcts,random,random"], "3 players given, but Tic-tac-toe is played by 2 here"),
    (["-n", "0"], "-n must be at least 1"),
    (["--players", "random"], "a match needs two players or more"),
])
def test_bad_arguments_say_what_is_wrong(argv, message, capsys):
    assert main(["match", "tictactoe", *argv]) in (1, 2)
    assert message in capsys.readouterr().err


def test_a_game_for_two_or_three_that_defaults_to_three_fills_three_seats(tmp_path, capsys):
    # The list repeats to fill the game's default number of seats; it never lowers the count.
    source = (GAMES / "trinim.lua").read_text(encoding="utf-8")
    assert "players = {min = 2, max = 3, default = 2," in source
    path = tmp_path / "trinim3.lua"
    path.write_text(source.replace("players = {min = 2, max = 3, default = 2,",
                                   "players = {min = 2, max = 3, default = 3,"), encoding="utf-8")
    out = tmp_path / "games.jsonl"
    assert main(["match", str(path), "--players", "mcts:50it,random", "-n", "2", "--seed", "1",
                 "--jobs", "1", "--out", str(out)]) == 0
    text = capsys.readouterr().out
    assert "3 seats; game 1: Player 1: mcts:50it, Player 2: random, Player 3: mcts:50it" in text
    records = [nomv.Record.from_text(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [r.players for r in records] == [["mcts:50it", "random", "mcts:50it"],
                                            ["random", "mcts:50it", "random"]]
    # -o players=2 still chooses two seats, and three players named in a game for two to three
    # that defaults to two get a seat each.
    assert main(["match", str(path), "--players", "random,random", "-n", "1", "--seed", "1",
                 "-o", "players=2", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["seats"] == 2 and data["first_game_seats"] == ["random #1", "random #2"]
    assert main(["match", "trinim", "--players", "random,random,random", "-n", "1", "--seed", "1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["seats"] == 3


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_script_error_in_a_game_is_named_with_its_game(tmp_path, capsys, jobs):
    # The script's own error reaches the user, with the game it happened in (it was once hidden
    # behind an internal error about the match's bookkeeping).
    source = (GAMES / "tictactoe.lua").read_text(encoding="utf-8")
    assert "  play = function(s, m)\n" in source
    path = tmp_path / "boom.lua"
    path.write_text(source.replace("  play = function(s, m)\n",
                                   "  play = function(s, m)\n    if #nomv.legal(s) < 7 then error(\"boom\") end\n"),
                    encoding="utf-8")
    assert main(["match", str(path), "--players", "random,random", "-n", "2", "--seed", "1",
                 "--jobs", jobs]) == 1
    err = capsys.readouterr().err
    assert "internal error" not in err
    line = source[:source.index("  play = function(s, m)\n")].count("\n") + 2    # (the line added)
    assert re.search(rf"game [12] \(seed \d+, seats random, random\) failed: .*boom\.lua:{line}: boom \(in play\)",
                     err), err
