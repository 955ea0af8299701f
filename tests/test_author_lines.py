"""Errors named at the author's own line, with words that say what to fix, under LuaJIT and Lua
5.4 alike, for every front end (the Python API here; the checker, the window and the server in
their own tests): a nil from a misspelt field at the line it came from, with the field that
exists ("s.borad is nil: did you mean s.board?", nomv/lua/host/explain.lua); a bad result at
the `return` that gave it; the line that changed a state play was given, and the line that made
its local the state's own table; a missing `end` named by the block it left open
(nomv/blocks.py)."""
from __future__ import annotations

from pathlib import Path

import pytest

import nomv
from nomv.checker import check
from conftest import MINIMAL

RUNTIMES = ["jit", "5.4"]
BAD = Path(__file__).parent / "scripts" / "bad"


def line_of(source: str, text: str, nth: int = 1) -> int:
    found = [i for i, line in enumerate(source.split("\n"), 1) if text in line]
    return found[nth - 1]


def play_error(source: str, runtime: str, moves: int = 1) -> nomv.ScriptError:
    """The error of playing the first legal move `moves` times (in this process: quick)."""
    game = nomv.Game(source, "game.lua", runtime, isolate=False)
    pos = game.start(seed=1)
    with pytest.raises(nomv.ScriptError) as info:
        for _ in range(moves):
            pos.play(pos.legal_moves[0])
        pos.outcome()
    return info.value


# -- a nil that came from a misspelt field ---------------------------------------------------------

OTHELLO = (Path(__file__).parent.parent / "games" / "othello.lua").read_text(encoding="utf-8")


@pytest.mark.parametrize("runtime", RUNTIMES)
def test_a_misspelt_field_passed_to_a_helper_is_named_at_the_call(runtime):
    # The issue's case: flips(s.borad, i, p) in play; Lua says "attempt to index a nil value
    # (local 'board')" inside flips, with no word of the call or of s.borad.
    source = OTHELLO.replace("ipairs(flips(s.board, i, s.to_move))", "ipairs(flips(s.borad, i, s.to_move))")
    err = play_error(source, runtime)
    assert err.line == line_of(source, "flips(s.borad")
    used = line_of(source, "while ray[n + 1] and board[ray[n + 1]] == 3 - me do")
    assert err.message == ("s.borad is nil: did you mean s.board? "
                           f"(flips gets it as 'board' and indexes it on line {used})")
    assert err.hook == "play"


PLAY_HEAD = MINIMAL.replace('''  play = function(s, m)
    local b = nomv.copy(s.board)''', '''  play = function(s, m)
BODY
    local b = nomv.copy(s.board)''').replace("local g = nomv.grid.square(3, 1)\n", '''local g = nomv.grid.square(3, 1)
local function first(board) return board[1] end
local function twice(b) return first(b) * 2 end
''')

NILS = {
    # body of play: (the line named, the message)
    "read on the same line": ("    local x = s.borad[1]", "local x", "s.borad is nil: did you mean s.board?"),
    "in arithmetic": ("    local x = s.to_mvoe + 1", "local x",
                      "s.to_mvoe is nil: did you mean s.to_move? (this line does arithmetic with it)"),
    "through two helpers": ("    local x = twice(s.borad)", "local x",
                            "s.borad is nil: did you mean s.board? (first gets it as 'board' and indexes it on line 3)"),
    "kept in a local first": ("    local board = nomv.copy(s.borad)\n    board[1] = 1", "local board",
                              "s.borad is nil: did you mean s.board? ('board' gets it here, and line USED indexes it)"),
    "given to ipairs": ("    for _, v in ipairs(s.borad) do end", "ipairs",
                        "s.borad is nil: did you mean s.board? (LUA)"),
    "no field near it": ("    local x = first(s.zzzzz)", "local x",
                         "s.zzzzz is nil (first gets it as 'board' and indexes it on line 3)"),
}
IPAIRS = {"jit": "bad argument #1 to 'ipairs' (table expected, got nil)", "5.4": "attempt to index a nil value"}


@pytest.mark.parametrize("runtime", RUNTIMES)
@pytest.mark.parametrize("case", sorted(NILS))
def test_a_nil_is_named_where_it_came_from(runtime, case):
    body, marker, message = NILS[case]
    source = PLAY_HEAD.replace("BODY", body)
    err = play_error(source, runtime)
    used = line_of(source, "board[1] = 1") if "USED" in message else 0
    assert (err.line, err.message) == (line_of(source, marker),
                                       message.replace("USED", str(used)).replace("LUA", IPAIRS[runtime])), err


@pytest.mark.parametrize("runtime", RUNTIMES)
def test_a_nil_that_cannot_be_followed_keeps_luas_own_message(runtime):
    # A helper's parameter given nil by a call that spans lines: nothing is guessed.
    source = PLAY_HEAD.replace("BODY", "    local x = first(\n      s.borad)")
    err = play_error(source, runtime)
    assert err.line == line_of(source, "local function first")
    assert "board" in err.message and "did you mean" not in err.message, err


# -- a bad result, at the return that gave it ------------------------------------------------------

@pytest.mark.parametrize("runtime", RUNTIMES)
def test_a_bad_winner_is_named_at_its_return(runtime):
    source = MINIMAL.replace("    return {winner = 1}\n", "    if s.board[2] == 2 then return {winner = 0} end\n"
                                                             "    return {winner = 1}\n")
    err = play_error(source, runtime, moves=3)
    assert (err.code, err.line, err.hook) == ("E053", line_of(source, "{winner = 0}"), "result")
    assert err.message == "result: winner must be a player number from 1 to 2, got 0"
    # A reason that is no text: the same.
    source = MINIMAL.replace("return {winner = 1}", "return {winner = 1, reason = {1, 2}}")
    err = play_error(source, runtime, moves=3)
    assert (err.code, err.line) == ("E053", line_of(source, "reason = {1, 2}")), err


@pytest.mark.parametrize("runtime", RUNTIMES)
def test_a_result_that_answers_otherwise_the_second_time_is_named_where_result_begins(runtime):
    source = MINIMAL.replace("local g = nomv.grid.square(3, 1)\n", "local g = nomv.grid.square(3, 1)\nlocal n = 0\n").replace(
        "    return {winner = 1}\n", "    n = n + 1\n    if n == 1 then return {winner = 5} end\n    return {winner = 6}\n")
    game = nomv.Game(source, "game.lua", runtime, isolate=False)
    pos = game.start(seed=1)
    with pytest.raises(nomv.ScriptError) as info:
        for _ in range(3):
            pos.play(pos.legal_moves[0])
            pos.outcome()
    assert (info.value.code, info.value.line) == ("E053", line_of(source, "result = function(s)")), info.value


# -- the line that changed the state play was given --------------------------------------------------

MUTATIONS = {
    "through a local that is the state's board": ('''    local b = s.board
    b[g:at(m[1])] = s.to_move  -- <- here
    return {board = b, to_move = 3 - s.to_move}''', "state.board", "[KEY]", ("b", "local b = s.board")),
    "in a helper given the board": ('''    local b = s.board
    mark(b, g:at(m[1]), s.to_move)
    return {board = b, to_move = 3 - s.to_move}''', "state.board", "[KEY]", ("board", "mark(b, g:at(m[1]), s.to_move)")),
    "a field of the state itself": ('''    s.to_move = 3 - s.to_move  -- <- here
    local b = nomv.copy(s.board)
    b[g:at(m[1])] = 3 - s.to_move
    return {board = b, to_move = s.to_move}''', "state", ".to_move", None),
}
HELPER = "local function mark(board, i, p)\n  board[i] = p  -- <- in mark\nend\n"


@pytest.mark.parametrize("runtime", RUNTIMES)
@pytest.mark.parametrize("case", sorted(MUTATIONS))
def test_the_line_that_changed_the_state_is_found(runtime, case):
    body, path, key, via = MUTATIONS[case]
    source = MINIMAL.replace('''    local b = nomv.copy(s.board)
    b[g:at(m[1])] = s.to_move
    return {board = b, to_move = 3 - s.to_move}''', body).replace(
        "local g = nomv.grid.square(3, 1)\n", "local g = nomv.grid.square(3, 1)\n" + HELPER)
    game = nomv.Game(source, "game.lua", runtime, isolate=False)
    engine = game.engine
    state = engine.setup(game.resolve_options(None, None), nomv.game.seed_words(1))
    found = engine.play_changed_at(state, 1)        # the second move: b1, cell 2
    want = {"line": line_of(source, "-- <- here" if "<- here" in body else "-- <- in mark"), "path": path,
            "key": key.replace("KEY", "2")}
    if via:
        want["via"] = {"name": via[0], "line": line_of(source, via[1])}
    assert found == want
    assert engine.dump(state)["board"] == [0, 0, 0], "the state asked about is left as it was"


def test_the_checker_names_the_line_that_changed_the_state(tmp_path):
    body, *_ = MUTATIONS["in a helper given the board"]
    source = MINIMAL.replace('''    local b = nomv.copy(s.board)
    b[g:at(m[1])] = s.to_move
    return {board = b, to_move = 3 - s.to_move}''', body).replace(
        "local g = nomv.grid.square(3, 1)\n", "local g = nomv.grid.square(3, 1)\n" + HELPER).replace(
        '  name = "minimal",', '  name = "minimal",\n  grid = g,')
    path = tmp_path / "game.lua"
    path.write_text(source, encoding="utf-8")
    report = check(path, playouts=1, seconds=0, stats_games=0, coverage=False, extremes=False)
    [e060] = [d for d in report.diagnostics if d.code == "E060"]
    call = line_of(source, "mark(b, g:at(m[1]), s.to_move)")
    assert e060.line == line_of(source, "-- <- in mark")
    assert e060.message == (
        f"play changed the state it was given: this line changes state.board[2] through 'board', which is "
        f"state.board itself since line {call} (mark(b, g:at(m[1]), s.to_move)) (playing b1, defaults, seed 0, "
        "ply 0); copy what you change: nomv.copy(s.board), nomv.shallow(s)"), e060.message


# -- a missing end -------------------------------------------------------------------------------------

MISSING_END = {
    # name: (source, the line Lua names, the message)
    "an if inside a hook of the game table": ('''return {
  name = "x",
  moves = function(s)
    local out = {}
    for i = 1, 9 do
      if s.board[i] == 0 then
        out[#out + 1] = {i}
    end
    return out
  end,
}''', 10, "unexpected symbol near ',': the 'if' on line 6 seems to have no 'end' (the 'end' on line 8 lines up "
          "with the 'for' on line 5)"),
    "a for inside a local function, at the end of the file": ('''local function count(b)
  local n = 0
  for i = 1, 9 do
    if b[i] == 1 then n = n + 1 end
  return n
end
return {name = "x"}''', 7, "'end' expected (to close 'function' at line 1) near EOF: the 'for' on line 3 seems "
                          "to have no 'end' (the 'end' on line 6 lines up with the 'function' on line 1)"),
    "a function unclosed in a table, with nothing to add": ('''return {
  moves = function(s)
    return {}
  play = function(s, m) return s end,
}''', 4, "'end' expected (to close 'function' at line 2) near 'play'"),
    "no indentation to go by": ('''return {
moves = function(s)
local out = {}
for i = 1, 9 do
if s.board[i] == 0 then
out[#out + 1] = {i}
end
return out
end,
}''', 9, "unexpected symbol near ',': the 'function' on line 2 is still open here: is its 'end' missing?"),
}
EOF = {"jit": "'<eof>'", "5.4": "<eof>"}


@pytest.mark.parametrize("runtime", RUNTIMES)
@pytest.mark.parametrize("case", sorted(MISSING_END))
def test_a_missing_end_names_the_block_it_left_open(runtime, case):
    source, line, message = MISSING_END[case]
    with pytest.raises(nomv.ScriptError) as info:
        nomv.Game(source, "game.lua", runtime, isolate=False)
    assert (info.value.kind, info.value.line) == ("syntax", line)
    assert info.value.message == message.replace("EOF", EOF[runtime])


def test_the_checker_names_the_block_a_missing_end_left_open():
    report = check(BAD / "e001_missing_end.lua", playouts=1, seconds=0, stats_games=0)
    [e001] = report.diagnostics
    assert (e001.code, e001.line) == ("E001", 35)
    assert e001.message == ("unexpected symbol near ',': the 'if' on line 31 seems to have no 'end' "
                            "(the 'end' on line 33 lines up with the 'for' on line 30)")


# -- the same words from every front end that loads a script ------------------------------------------

TICTACTOE = (Path(__file__).parent.parent / "games" / "tictactoe.lua").read_text(encoding="utf-8")
#: A misspelt field met while the script loads (its top level runs): SIZE.row for SIZE.rows.
LOAD_NIL = TICTACTOE.replace("local g = nomv.grid.square(3, 3)", """local SIZE = {rows = 3, cols = 3}
local function cells(n)
  local out = {}
  for i = 1, n * n do out[i] = 0 end
  return out
end
local EMPTY = cells(SIZE.row)
local g = nomv.grid.square(3, 3)""", 1)
#: (file, source, the line, the words): what `nomv check`, `nomv play` and the window's "New
#: game" dialog (tests/test_gui.py) all say of a script that does not load.
BROKEN_AT_LOAD = [
    ("missing_end.lua", (BAD / "e001_missing_end.lua").read_text(encoding="utf-8"), 35,
     "unexpected symbol near ',': the 'if' on line 31 seems to have no 'end' "
     "(the 'end' on line 33 lines up with the 'for' on line 30)"),
    ("load_nil.lua", LOAD_NIL, line_of(LOAD_NIL, "local EMPTY = cells(SIZE.row)"),
     f"SIZE.row is nil: did you mean SIZE.rows? (cells gets it as 'n' and does arithmetic with it on line "
     f"{line_of(LOAD_NIL, 'for i = 1, n * n do')})"),
]


def test_check_and_play_give_the_same_words_for_a_script_that_does_not_load(tmp_path, capsys):
    from nomv.cli import main
    for name, source, line, words in BROKEN_AT_LOAD:
        path = tmp_path / name
        path.write_text(source, encoding="utf-8")
        [found] = check(path, playouts=1, seconds=0, stats_games=0, coverage=False).errors
        assert (found.code, found.line) == ("E001" if "missing" in name else "E100", line), found
        assert found.message.endswith(words), found.message
        capsys.readouterr()
        assert main(["play", str(path)]) == 1     # fails while loading: no window, no prompt
        assert capsys.readouterr().err == f"nomv: error: {path}:{line}: {words}\n"
