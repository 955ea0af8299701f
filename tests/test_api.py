"""The Python API: loading scripts, options, positions, undo/redo, notation, contract errors."""
from __future__ import annotations

import pytest

import nomv
from conftest import MINIMAL


def load(script, body, lua="jit", **kw):
    return nomv.Game.load(str(script(body)), runtime=lua, **kw)


# -- loading --------------------------------------------------------------------------------------

def test_syntax_error_names_file_and_line(script, lua):
    with pytest.raises(nomv.ScriptError) as info:
        load(script, "return {\n  name = 'x',\n  setup = function( end,\n}\n", lua)
    assert info.value.kind == "syntax" and info.value.line == 3


def test_script_must_return_a_table(script, lua):
    with pytest.raises(nomv.ScriptError, match="must return a table .* returned 42"):
        load(script, "return 42", lua)


def test_missing_hook_with_did_you_mean(script, lua):
    body = MINIMAL.replace("moves = function", "move = function")
    with pytest.raises(nomv.ScriptError, match="has no 'moves' function \\(did you mean 'move'\\?\\)"):
        load(script, body, lua)


def test_unknown_fields_are_listed(script):
    game = load(script, MINIMAL.replace('name = "minimal",', 'name = "minimal", titel = "x",'))
    assert game.unknown_fields == ["titel"]


def test_name_is_required(script):
    with pytest.raises(nomv.ScriptError, match="needs a name"):
        load(script, MINIMAL.replace('name = "minimal",', ""))


@pytest.mark.parametrize("options, message", [
    ("{size = {min = 1}}", "options.size has no default"),
    ("{size = {default = 9, min = 1, max = 5}}", "options.size: the default is not allowed"),
    ("{size = {default = 'a', choices = {'b', 'c'}}}", "options.size: the default is not allowed"),
    ("{size = 5}", "options.size must be a table"),
])
def test_bad_option_tables_are_script_errors(script, options, message):
    body = MINIMAL.replace('name = "minimal",', f'name = "minimal", options = {options},')
    with pytest.raises(nomv.ScriptError, match=message):
        load(script, body)


def test_variant_naming_an_unknown_option(script):
    body = MINIMAL.replace('name = "minimal",', 'name = "minimal", variants = {big = {sise = 3}},')
    with pytest.raises(nomv.ScriptError, match="variants\\['big'\\].*unknown option 'sise'"):
        load(script, body)


def test_one_player_games_are_games(script, lua):
    body = MINIMAL.replace('name = "minimal",', 'name = "minimal", players = 1,').replace(
        "to_move = 3 - s.to_move", "to_move = 1")
    game = load(script, body, lua)
    assert game.players.min == game.players.max == 1 and "players" not in game.options.specs
    pos = game.start()
    for _ in range(3):
        pos.play(pos.legal_moves[0])
    assert pos.outcome().winner == 1


# -- options ---------------------------------------------------------------------------------------

OPTIONED = MINIMAL.replace('name = "minimal",', '''name = "minimal",
  options = {
    k = {default = 3, min = 1, max = 5, help = "legs"},
    mode = {default = "basic", choices = {"basic", "advanced"}},
    rotate = {default = true},
    ratio = {default = 0.5, min = 0, max = 1},
    layout = {default = ""},
  },
  variants = {fast = {k = 1, mode = "advanced"}},
  check = function(opts, given)
    if opts.mode == "advanced" and opts.k == 5 then return "advanced mode needs k below 5" end
  end,''')


def test_options_from_text_and_values(script):
    game = load(script, OPTIONED)
    values = game.resolve_options({"k": "4", "mode": "advanced", "rotate": "false", "ratio": "0.25"}, text=True)
    assert values == {"k": 4, "mode": "advanced", "rotate": False, "ratio": 0.25, "layout": "", "players": 2}
    assert game.resolve_options(variant="fast")["k"] == 1
    assert game.resolve_options({"k": 2}, variant="fast") == dict(values, k=2, rotate=True, ratio=0.5)


@pytest.mark.parametrize("given, message", [
    ({"kk": "3"}, "unknown option 'kk' \\(did you mean 'k'\\?\\); options: k, layout, mode, ratio, rotate"),
    ({"k": "9"}, "option 'k': 9 is out of range; allowed: a whole number from 1 to 5"),
    ({"k": "2.5"}, "option 'k': 2.5 is not a whole number"),
    ({"k": "many"}, "option 'k': 'many' is not a number; allowed: a whole number from 1 to 5"),
    ({"mode": "expert"}, "option 'mode': 'expert' is not allowed; allowed: basic, advanced"),
    ({"rotate": "maybe"}, "option 'rotate': 'maybe' is not allowed; allowed: true, false"),
    ({"ratio": "2"}, "option 'ratio': 2 is out of range; allowed: a number from 0 to 1"),
    ({"mode": "advanced", "k": "5"}, "options refused by minimal: advanced mode needs k below 5"),
])
def test_option_errors_name_the_option_and_allowed_values(script, given, message):
    game = load(script, OPTIONED)
    with pytest.raises(nomv.OptionError, match=message):
        game.start(given, text=True)


def test_unknown_variant(script):
    with pytest.raises(nomv.OptionError, match="unknown variant 'fats' \\(did you mean 'fast'\\?\\)"):
        load(script, OPTIONED).start(variant="fats")


# -- positions -------------------------------------------------------------------------------------

def test_play_undo_redo(lua):
    pos = nomv.Game.load("trinim", runtime=lua).start(options={"layout": "b/bb/bgr/grgg/rbgrr"})
    first = pos.play("C3")
    second = pos.play(["E1"])
    assert pos.ply == 2 and pos.history == [first, second] and pos.history_notation == ["C3", "E1"]
    assert pos.undo() == second and pos.undo() == first and pos.ply == 0
    assert pos.can_redo
    assert pos.redo() == first and pos.redo() == second
    with pytest.raises(nomv.IllegalMoveError, match="nothing to redo"):
        pos.redo()
    pos.undo()
    pos.play("D2")  # a different move clears the redo list
    assert not pos.can_redo
    with pytest.raises(nomv.IllegalMoveError, match="nothing to undo"):
        nomv.Game.load("trinim", runtime=lua).start().undo()


def test_moves_by_steps_in_any_order(lua):
    pos = nomv.Game.load("trinim", runtime=lua).start(options={"layout": "b/bb/bgr/grgg/rbgrr"})
    a = pos.parse("D4-D2")
    assert a == nomv.Move(("D4", "D2"), any_order=True) == nomv.Move(("D2", "D4"), any_order=True)
    assert pos.parse("d2 d4") == a and pos.parse("D2,D4") == a
    assert pos.notation(["D4", "D2"]) == pos.notation(a)


def test_illegal_moves_say_why_and_list_legal_ones(lua):
    pos = nomv.Game.load("trinim", runtime=lua).start(options={"layout": "b/bb/bgr/grgg/rbgrr"})
    with pytest.raises(nomv.IllegalMoveError, match=r"'Z9' is not a legal move here; legal moves: E1, .* and 69 more"):
        pos.play("Z9")
    with pytest.raises(nomv.IllegalMoveError, match="A5-C4 is not a legal move here"):
        pos.play(["A5", "C4"])
    assert pos.ply == 0  # nothing changed


def test_a_move_typed_part_way_says_how_it_goes_on(lua):
    # Amazons: a move is three steps (amazon, where it goes, where it shoots); its first steps
    # alone are no move, and the message says what may follow.
    pos = nomv.Game.load("amazons", runtime=lua).start()
    with pytest.raises(nomv.IllegalMoveError,
                       match=r"'d1' is not a legal move here: it is the start of 544 moves, going on with "
                             r"d2, d3, .* and 12 more \(e\.g\. d1-d2-d3\)"):
        pos.play("d1")
    with pytest.raises(nomv.IllegalMoveError, match=r"'D1 d2' is not a legal move here: it is the start of 28 moves"):
        pos.play("D1 d2")
    with pytest.raises(nomv.IllegalMoveError, match=r"'d2' is not a legal move here; legal moves: d1-d2-d3"):
        pos.play("d2")
    assert pos.ply == 0


def test_game_over(lua):
    pos = nomv.Game.load("trinim", runtime=lua).start(options={"layout": "b/../..."})
    pos.play("C1")
    assert pos.outcome() is not None and pos.legal_moves == [] and pos.to_move is None
    with pytest.raises(nomv.GameOverError, match="the game is over"):
        pos.play("C1")


def test_view_without_a_view_hook_is_the_state(lua):
    pos = nomv.Game.load("trinim", runtime=lua).start(seed=1)
    assert pos.view(1) == pos.view(2) == pos.state()
    with pytest.raises(ValueError):
        pos.view(3)


def test_seed_decides_the_set_up(lua):
    game = nomv.Game.load("trinim", runtime=lua)
    assert game.start(seed=5).state() == game.start(seed=5).state()
    assert game.start(seed=5).state() != game.start(seed=6).state()


# -- broken contracts ------------------------------------------------------------------------------

# The line named: where the hook begins, or (*) the line that added the bad move to the list (for
# a bad result, the return that gave it).
@pytest.mark.parametrize("change, message, hook", [
    (("return out\n  end,\n  play", "return 7\n  end,\n  play"), "moves must return a list, but it returned 7", "moves"),
    (("out[#out + 1] = {g.ids[i]}", "out[#out + 1] = {i}"), "step 1 is 1: steps must be non-empty strings", "moves*"),
    (("out[#out + 1] = {g.ids[i]}", "out[#out + 1] = {}"), "item 1 is an empty move", "moves*"),
    (("return {board = b, to_move = 3 - s.to_move}", "return nil"), "play must return the next state", "play"),
    (("return {winner = 1}", "return {winner = 5}"), "winner must be a player number from 1 to 2, got 5", "result*"),
    (("return {winner = 1}", "return 'won'"), "result must return nil or a table", "result*"),
    (("return {board = b, to_move = 3 - s.to_move}", "return {board = b, to_move = 9}"),
     "to_move must be a player number from 1 to 2, got 9", "to_move"),
])
def test_broken_contracts_are_reported_at_the_script_line(script, lua, change, message, hook):
    old, new = change
    assert old in MINIMAL
    text = MINIMAL.replace(old, new)
    game = load(script, text, lua)
    with pytest.raises(nomv.ScriptError) as info:
        pos = game.start()
        for _ in range(4):
            pos.play(pos.legal_moves[0])
            pos.to_move
    assert message in info.value.message and info.value.hook == hook.rstrip("*")
    if hook.endswith("*"):
        line = next(i for i, t in enumerate(text.split("\n"), 1) if new in t)
    else:
        line = game.engine.description["hook_lines"].get(hook)
    assert info.value.line == line


def test_dead_end_is_reported(script, lua):
    game = load(script, MINIMAL.replace("for i = 1, 3 do if s.board[i] == 0", "for i = 1, 2 do if s.board[i] == 0", 1), lua)
    pos = game.start()
    pos.play("a1"); pos.play("b1")
    with pytest.raises(nomv.ScriptError, match="moves returned no move, but result says the game is not over"):
        pos.legal_moves


def test_runtime_error_in_a_hook_has_its_line(script, lua):
    game = load(script, MINIMAL.replace("local b = nomv.copy(s.board)", "local b = nomv.copy(s.bord) ; b[1] = b[1] + nil"), lua)
    with pytest.raises(nomv.ScriptError) as info:
        game.start().play("a1")
    assert info.value.hook == "play" and info.value.line == 12
    # (nomv.copy(nil) is nil: the misspelt field is named, and the field that exists)
    assert info.value.message == "s.bord is nil: did you mean s.board? ('b' gets it, and this line indexes it)"


def test_state_with_a_function_is_refused_when_read(script, lua):
    game = load(script, MINIMAL.replace("return {board = {0, 0, 0}, to_move = 1}",
                                        "return {board = {0, 0, 0}, to_move = 1, f = print}"), lua)
    with pytest.raises(nomv.ScriptError, match="state.f is a function; only plain data"):
        game.start().state()


def test_playout_statistics(lua):
    stats = nomv.Game.load("trinim", runtime=lua).playout(200, seed=1)
    assert stats.games == 200 and sum(stats.wins) + stats.draws == 200
    assert 5 <= stats.shortest <= stats.average_length <= stats.longest <= 15
    assert stats.games_per_second > 0


@pytest.mark.parametrize("returned", ["{}", "'a1'", "nil"])
def test_playout_refuses_a_random_move_that_is_not_a_move(script, lua, returned):
    body = MINIMAL.replace('  moves = function(s)',
                           f'  random_move = function(s, rng) return {returned} end,\n  moves = function(s)')
    with pytest.raises(nomv.ScriptError, match="random_move must return a move"):
        load(script, body, lua).playout(3, seed=1)


def test_a_puzzle_lost_is_neither_a_win_nor_a_draw(script, lua):
    body = MINIMAL.replace('name = "minimal",', 'name = "minimal", players = 1,').replace(
        "to_move = 3 - s.to_move", "to_move = 1").replace("return {winner = 1}", "return {ranks = {2}, reason = 'stuck'}")
    game = load(script, body, lua)
    pos = game.start()
    for _ in range(3):
        pos.play(pos.legal_moves[0])
    outcome = pos.outcome()
    assert outcome.winner is None and outcome.lost and not outcome.draw
    assert outcome.describe(game.players) == "Player 1 loses: stuck"
    stats = game.playout(5, seed=1)
    assert stats.lost == 5 and stats.draws == 0 and stats.wins == [0]


GRID_GAME = """
local g = nomv.grid.square(3, 2)
return {
  name = "grid", grid = g,
  pieces = {{fill = "black"}, {fill = "white", label = "W"}},
  setup = function(opts, rng) return {board = {0, 0, 0, 0, 0, 0}, to_move = 1} end,
  moves = function(s)
    local out = {}
    for i = 1, g.n do if s.board[i] == 0 then out[#out + 1] = {g.ids[i]} end end
    return out
  end,
  play = function(s, m)
    local b = nomv.copy(s.board)
    b[g:at(m[1])] = s.to_move
    return {board = b, to_move = 3 - s.to_move}
  end,
  result = function(s) if s.board[1] ~= 0 then return {winner = 1} end end,
}
"""


def test_text_without_a_text_hook_is_a_picture_of_the_scene(script, lua):
    pos = load(script, GRID_GAME, lua).start()
    pos.play("b2")
    pos.play("c1")
    # Ranks on the rows, files under them (issue 18), not the leftmost cell's id.
    assert pos.text() == "2  . X .\n1  . . W\n   a b c\n\nX = black, W = white"
