"""The command line: each command's happy path and its bad input (one line, non-zero exit)."""
from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

from nomv.cli import main

LAYOUT = "b/bb/bgr/grgg/rbgrr"


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_list(capsys):
    code, out, err = run(capsys, "list")
    assert code == 0 and re.search(r"^trinim +Trinim, 2-3 players \(bundled", out, re.M)
    # the titles line up, whatever the length of the names (peg_solitaire is the longest)
    starts = {line.index(line.split()[1]) for line in out.splitlines() if not line.startswith(" ")}
    assert len(starts) == 1, out
    assert "-o size=5  (3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18, 20)" in out
    code, out, err = run(capsys, "list", "--json")
    rows = {r["name"]: r for r in json.loads(out)}
    assert rows["trinim"]["players"] == [2, 3] and rows["trinim"]["options"]["size"]["default"] == 5


def test_list_shows_user_games_and_their_origin(capsys, tmp_path, monkeypatch):
    from conftest import MINIMAL
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "minimal.lua").write_text(MINIMAL)
    (folder / "broken.lua").write_text("return {")
    monkeypatch.setenv("NOMV_PATH", str(folder))
    code, out, err = run(capsys, "list")
    assert code == 0
    assert re.search(r"^minimal +minimal, 2 players \(path:", out, re.M)
    assert re.search(r"^broken +\(path\) cannot be loaded:", out, re.M)


def test_perft_prints_the_count_last(capsys, lua):
    code, out, err = run(capsys, "perft", "trinim", "--depth", "2", "-o", f"layout={LAYOUT}", "--lua", lua)
    assert code == 0 and out.splitlines()[-1] == "3864"


def test_perft_divide(capsys):
    code, out, err = run(capsys, "perft", "trinim", "--depth", "2", "-o", f"layout={LAYOUT}", "--divide")
    lines = out.splitlines()
    assert code == 0 and lines[-1] == "3864" and len(lines) == 76
    assert sum(int(l.split(": ")[1]) for l in lines[:-1]) == 3864


def test_playout(capsys):
    code, out, err = run(capsys, "playout", "trinim", "-n", "300", "--seed", "2")
    assert code == 0 and "300 random games in" in out and "games/s" in out
    assert "Player 1 wins" in out and "draws 0" in out
    code, out, err = run(capsys, "playout", "trinim", "-n", "300", "--seed", "2", "--json", "-o", "players=3")
    data = json.loads(out)
    assert data["games"] == 300 and len(data["wins"]) == 3 and sum(data["wins"]) + data["draws"] == 300
    assert data["games_per_second"] > 0 and data["unfinished"] == 0


def test_show(capsys):
    code, out, err = run(capsys, "show", "trinim", "-o", f"layout={LAYOUT}", "--moves", "D4-D2", "C3")
    assert code == 0
    assert "  4-  g r . g" in out and "Player 1 to move; legal moves:" in out
    code, out, err = run(capsys, "show", "trinim", "-o", "layout=b/../...", "--moves", "C1", "--json")
    data = json.loads(out)
    assert data["result"].startswith("Player 2 wins") and data["legal_moves"] == []


def test_moves_that_start_with_a_dash(capsys):
    code, out, err = run(capsys, "show", "nipple", "--moves", "-/g5", "--json")
    assert code == 0, err
    assert json.loads(out)["moves"] == ["-/g5"]
    code, out, err = run(capsys, "show", "nonads", "--seed", "3", "--moves", "0,0/0", "-1,0/0", "--json")
    assert code == 0, err
    assert json.loads(out)["moves"] == ["0,0/0", "-1,0/0"]
    code, out, err = run(capsys, "playout", "trinim", "-n", "5", "--seed", "-5", "--json")
    assert code == 0 and json.loads(out)["seed"] == -5


@pytest.mark.parametrize("argv, message, code", [
    (["perft", "trinim", "--depth", "2", "-o", "layot=x"], "unknown option 'layot' (did you mean 'layout'?)", 1),
    (["perft", "trinim", "--depth", "2", "-o", "size"], "-o takes key=value, got 'size'", 2),
    (["perft", "trinim"], "the following arguments are required: --depth", 2),
    (["perft", "trinim", "--depth", "-1"], "--depth must be 0 or more", 2),
    (["show", "trinim", "-o", "size=4"], "option 'size': 4 is not allowed; allowed: 3, 5, 6", 1),
    (["show", "trinim", "--moves", "Z9"], "'Z9' is not a legal move here", 1),
    (["show", "trinim", "--variant", "big"], "unknown variant 'big'; variants: none", 1),
    (["show", "nope"], "no game named 'nope'", 1),
    (["show", "missing/file.lua"], "no such script file: missing/file.lua", 1),
    (["playout", "trinim", "-n", "0"], "-n must be at least 1", 2),
    (["playout", "trinim", "-n", "many"], "argument -n: invalid int value: 'many'", 2),
    (["playout", "trinim", "--lua", "5.3"], "argument --lua: invalid choice: '5.3'", 2),
    (["frobnicate"], "invalid choice: 'frobnicate'", 2),
    (["play", "--open", "/no/such/file.json"], "cannot read", 1),
])
def test_bad_input_is_one_line_without_traceback(capsys, argv, message, code):
    got, out, err = run(capsys, *argv)
    assert got == code
    assert message in err and err.count("\n") == 1 and "Traceback" not in err


def test_script_errors_show_file_and_line(capsys, tmp_path):
    path = tmp_path / "broken.lua"
    path.write_text("return {\n  name = 'b',\n  setup = function( end,\n}\n")
    code, out, err = run(capsys, "show", str(path))
    assert code == 1 and f"{path}:3:" in err and err.count("\n") == 1


def test_play_in_the_terminal_with_save_and_open(tmp_path, monkeypatch, capsys):
    save = tmp_path / "g.json"
    answers = iter(["help", "Z9", "C3", "undo", "C3", f"save {save}", "quit"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    code = main(["play", "trinim", "-o", f"layout={LAYOUT}", "--seed", "1"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "Type a move" in out and "'Z9' is not a legal move here" in out
    assert f"saved to {save}" in out
    record = json.loads(save.read_text())
    assert record["moves"][0] == "C3" and len(record["moves"]) == 2
    assert record["players"] == ["human", "mcts:1s"]  # the default computer
    code = main(["play", "--open", str(save), "--players", "random,random"])
    out = capsys.readouterr().out
    assert code == 0 and "Game over:" in out


def test_entry_points():
    for argv in ([sys.executable, "-m", "nomv", "--help"], [sys.executable, "-m", "nomv", "perft", "--help"]):
        done = subprocess.run(argv, capture_output=True, text=True, timeout=60)
        assert done.returncode == 0 and "usage: nomv" in done.stdout
    done = subprocess.run([sys.executable, "-m", "nomv", "show", "nope"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and done.stderr.startswith("nomv: error: no game named 'nope'")


def test_bench_prints_figures(capsys):
    code, out, err = run(capsys, "bench", "--game", "trinim", "--seconds", "0.1", "--no-gui", "--json")
    assert code == 0, err
    data = json.loads(out)
    (row,) = data["playouts"]
    assert row["game"] == "trinim" and row["jit"] > 0 and row["5.4"] > 0 and 5 <= row["length"] <= 15
    # moves generated: every move drawn from the full list; Trinim-5 lists about 20 a position
    assert row["jit_moves"] > 0 and row["5.4_moves"] > 0 and 10 < row["branching"] < 40
    assert {r["count"] for r in data["perft"] if r["game"] == "trinim"} == {136788}
    (target, search) = [a for a in data["aims"] if a["aim"].startswith("trinim")]
    assert target["target"] == 5000 and target["met"] == (row["jit"] >= 5000)
    (mcts,) = data["mcts"]
    assert mcts["game"] == "trinim" and mcts["jit"] > 0 and mcts["5.4"] > 0 and mcts["mode"] == "closed"
    assert search["target"] == 20000 and search["met"] == (mcts["jit"] >= 20000)
    # Nonads opens with a lone move (the first tile): the search is measured at the first choice
    code, out, err = run(capsys, "bench", "--game", "nonads", "--seconds", "0.05", "--no-gui", "--json")
    assert code == 0, err
    (mcts,) = json.loads(out)["mcts"]
    assert mcts["mode"] == "open" and mcts["jit"] > 0
    code, out, err = run(capsys, "bench", "--game", "tictactoe", "--seconds", "0.05", "--no-gui")
    assert code == 0 and "LuaJIT moves/s" in out and "Speed aims" in out
    assert "tictactoe: 2x Ludii's random playouts/s (LuaJIT)" in out
    code, out, err = run(capsys, "bench", "--seconds", "0")
    assert code == 2 and "--seconds must be more than 0" in err


def test_bench_compare_openspiel_without_it_says_how_to_install(capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "pyspiel", None)        # import pyspiel now fails
    code, out, err = run(capsys, "bench", "--compare", "openspiel", "--no-gui")
    assert code == 1 and out == ""
    assert err.strip() == ("nomv: error: OpenSpiel is not installed; to compare with it: "
                           "pip install 'nomv[openspiel]' (or: pip install open_spiel)")


def test_bench_compare_openspiel(capsys):
    pytest.importorskip("pyspiel")
    code, out, err = run(capsys, "bench", "--compare", "openspiel", "--game", "connect4",
                         "--seconds", "0.2", "--no-gui", "--json")
    assert code == 0, err
    data = json.loads(out)
    (row,) = data["openspiel"]
    assert row["game"] == "connect4" and row["openspiel_game"] == "connect_four"
    assert row["nomv"] > 0 and row["openspiel"] > 0 and row["nomv_games"] > 0 and row["openspiel_games"] > 0
    assert row["ratio"] == pytest.approx(row["nomv"] / row["openspiel"], rel=0.01)
    assert 19 < row["nomv_length"] < 24 and 19 < row["openspiel_length"] < 24   # 21.3 plies
    from nomv.bench import format_table
    text = format_table(data)
    assert "nomv against OpenSpiel" in text and "connect_four" in text
    assert "connect4 (tuned): 5x OpenSpiel's in the same run" in text


def test_script_print_output_is_shown_on_stderr(capsys, tmp_path):
    path = tmp_path / "pr.lua"
    path.write_text('local g = nomv.grid.square(2, 1)\n'
                    'return {name = "pr", grid = g, pieces = {{fill = "black"}},\n'
                    '  setup = function(o, r) print("setting up", 2) return {board = {0, 0}, to_move = 1} end,\n'
                    '  moves = function(s) return {{"a1"}} end,\n'
                    '  play = function(s, m) return {board = {1, 0}, to_move = 1} end,\n'
                    '  result = function(s) if s.board[1] == 1 then return {winner = 1} end end}\n')
    code, out, err = run(capsys, "show", str(path))
    assert code == 0 and "pr printed: setting up\t2" in err


def test_text_play_redo_brings_back_the_computer_reply_too():
    import io

    import nomv
    from nomv.textplay import play_text
    pos = nomv.Game.load("trinim").start(options={"layout": LAYOUT}, seed=1)
    answers = iter(["E1", "undo", "redo", "quit"])
    seen = {}

    def read(prompt):
        text = next(answers)
        seen.setdefault(text, list(pos.history_notation))
        return text

    assert play_text(pos, ["human", "random"], read=read, out=io.StringIO()) == 0
    before_undo = seen["undo"]
    assert len(before_undo) == 2 and pos.history_notation == before_undo


def test_terminal_play_shows_only_what_the_person_may_see(monkeypatch, capsys):
    # Knownads: the computer's target stays hidden while the game runs.
    answers = iter(["moves", "quit"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    options = ["-o", "mode=knownads", "-o", "targets=5,12", "-o", "hands=1,2", "-o",
               "deck=" + ",".join(str(t) for t in range(3, 35) if t not in (5, 12))]
    assert main(["play", "nonads", *options, "--players", "human,mcts:50it", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "Player 1: target #5" in out and "Player 2: target hidden" in out and "#12" not in out


def test_terminal_play_goes_on_when_the_computer_fails(tmp_path, monkeypatch, capsys):
    script = tmp_path / "g.lua"
    script.write_text("""
return {
  name = "g", players = 2,
  setup = function(opts, rng) return {n = 0, to_move = 1} end,
  moves = function(s) return {{"a"}, {"b"}} end,
  play = function(s, m) return {n = s.n + 1, to_move = 3 - s.to_move} end,
  result = function(s) if s.n >= 4 then return {winner = 1} end end,
  evaluate = function(s, p) return 7 end,
}
""", encoding="utf-8")
    answers = iter(["a", "b", "a", "b", "quit"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    assert main(["play", str(script), "--players", "human,mcts:30it:depth=1", "--text"]) == 0
    out = capsys.readouterr().out
    assert "The computer player (mcts:30it:depth=1) failed" in out and "evaluate must return" in out
    assert "Game over: You win (Player 1)" in out       # the person played the computer's moves
