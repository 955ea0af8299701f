"""The line an error names when a hook broke its contract in what it returned (a bad move in the
list, a list of steps of the wrong kind, a step listed twice, a partial move changed): the line
of the script that did it, found by asking the hook again under a line hook
(nomv/lua/host/blame.lua), or the line where the hook begins when that cannot be told for sure
(never a wrong line).  Each script marks the line it must name with `-- <- here`.
"""
from __future__ import annotations

from pathlib import Path

import pytest

import nomv
from nomv.checker import check
from nomv.limits import Limits

RUNTIMES = ["jit", "5.4"]

HEAD = '''local g = nomv.grid.square(3, 3)
local calls = 0
return {
  name = "blamed",
  grid = g,
  setup = function(opts, rng) return {board = {0, 0, 0, 0, 0, 0, 0, 0, 0}, to_move = 1} end,
  play = function(s, m)
    local b = nomv.copy(s.board)
    b[g:at(m[1])] = s.to_move
    return {board = b, to_move = 3 - s.to_move}
  end,
  result = function(s)
    for i = 1, 9 do if s.board[i] == 0 then return nil end end
    return {draw = true}
  end,
'''

# moves(): a bad move among good ones, in the ways lists are made.
MOVES = {
    "added, then the list reordered by an insert at its front": '''
    local out = {}
    for i = 1, g.n do
      if s.board[i] == 0 and i ~= 5 then out[#out + 1] = {g.ids[i]}
      elseif s.board[i] == 0 then out[#out + 1] = {} end  -- <- here
    end
    table.insert(out, 1, {"pass"})
    return out''',
    "added, then the list sorted": '''
    local out = {}
    for i = 1, g.n do if s.board[i] == 0 then out[#out + 1] = {g.ids[i]} end end
    out[#out + 1] = {"zz", 7}  -- <- here
    table.sort(out, function(a, b) return a[1] > b[1] end)
    return out''',
    "added, then the list filtered": '''
    local out = {}
    for i = 1, g.n do out[#out + 1] = {g.ids[i]} end
    out[#out + 1] = {}  -- <- here
    for i = #out - 1, 1, -1 do if s.board[i] ~= 0 then table.remove(out, i) end end
    return out''',
    "added on the line that asks nomv.legal of another position": '''
    local out = {}
    if s.probe then return {{"a1"}} end
    for i = 1, g.n do
      if s.board[i] == 0 and #nomv.legal({board = s.board, to_move = 2, probe = 1}) > 0 then out[#out + 1] = {i} end  -- <- here
    end
    return out''',
    "added in a loop LuaJIT compiles": '''
    local out = {}
    for k = 1, 20000 do
      out[#out + 1] = {"a1", "k" .. k}
      out[#out + 1] = {"b1", k == 17777 and "" or "k" .. k}  -- <- here
    end
    return out''',
    "added on the line that returns": '''
    local out = {}
    for i = 1, g.n do if s.board[i] == 0 then out[#out + 1] = {g.ids[i]} end end
    out[#out + 1] = {"pass", 2}; return out  -- <- here''',
    "a list of moves wrapped in a list": '''
    local out = {}
    for i = 1, g.n do if s.board[i] == 0 then out[#out + 1] = {g.ids[i]} end end
    return {out}  -- <- here''',
    "made as it is returned": '''
    return {{"a1"}, {"b1"}, {}}  -- <- here''',
}

# A hook that answers differently the second time cannot be blamed: the line where it begins.
NONDETERMINISTIC = '''
    calls = calls + 1
    local out = {}
    for i = 1, g.n do if s.board[i] == 0 then out[#out + 1] = {g.ids[i]} end end
    if calls == 1 then out[#out + 1] = {} else out[#out + 1] = {"pass"} end
    return out'''


def write(tmp_path: Path, hook: str, body: str, extra: str = "") -> tuple[Path, int]:
    text = HEAD + extra + f"  {hook} = function(s, m)  -- <- begins{body}\n  end,\n}}\n"
    path = tmp_path / "blamed.lua"
    path.write_text(text, encoding="utf-8")
    lines = text.split("\n")
    marked = [i for i, t in enumerate(lines, 1) if t.rstrip().endswith("-- <- here")]
    begins = next(i for i, t in enumerate(lines, 1) if "-- <- begins" in t)
    return path, (marked[0] if marked else begins)


def api_error(path: Path, runtime: str) -> nomv.ScriptError:
    # A roomy limit: the line is found by running the hook again with a line hook (Lua 5.4 and a
    # loop of 40,000 additions: about a second on a slower machine); under the default limit a
    # run stopped by the clock names where the hook begins instead.
    with pytest.raises(nomv.ScriptError) as info:
        nomv.Game.load(str(path), runtime, limits=Limits(time=10)).start().legal_moves
    return info.value


@pytest.mark.parametrize("runtime", RUNTIMES)
@pytest.mark.parametrize("case", sorted(MOVES))
def test_a_bad_move_is_named_at_the_line_that_made_it(tmp_path, runtime, case):
    path, line = write(tmp_path, "moves", MOVES[case])
    err = api_error(path, runtime)
    assert (err.code, err.line) == ("E050", line), err


@pytest.mark.parametrize("runtime", RUNTIMES)
def test_a_hook_that_answers_otherwise_the_second_time_is_named_where_it_begins(tmp_path, runtime):
    path, begins = write(tmp_path, "moves", NONDETERMINISTIC)
    err = api_error(path, runtime)
    assert (err.code, err.line) == ("E050", begins) and "empty move" in err.message, err


# steps(): what only shows once it has returned.
STEPS = {
    "takes the last step off the partial move": ('''
    if #m == 2 then return nil end
    if #m == 1 then
      local last = table.remove(m)  -- <- here
      return {last .. "!"}
    end
    return {"a1", "b1"}''', "changed the partial move"),
    "changes the partial move's last step": ('''
    if #m == 2 then m[2] = "c3"; return nil end  -- <- here
    if #m == 1 then return {"a1"} end
    return {"b1"}''', "changed the partial move"),
    # Changed before its last step too: the partial move it was given cannot be made again (the
    # host keeps only its last step), so no line but where steps begins; still E050, not a move
    # listed twice.
    "sorts the partial move": ('''
    if #m == 2 then table.sort(m); return nil end
    if #m == 1 then return {"a1"} end
    return {"b1"}''', "changed the partial move"),
    "asks itself inside its return": ('''
    if #m == 2 then return nil end
    if #m == 1 then return {"b2"} end
    return count_of(s, {"a1", "b1"})  -- <- here''', "steps must return a list"),
    "gives a number as a step": ('''
    if #m == 1 then return nil end
    return {"a1", 2}  -- <- here''', "steps() gave 2 as step 1 of a move"),
    "shares its state argument with a helper": ('''
    if #m == 2 then return nil end
    if #m == 1 then return free_around(s, g:at(m[1])) end
    local out = {}
    for i = 1, g.n do
      if s.board[i] == 0 and #free_around(s, i) > 0 then out[#out + 1] = g.ids[i] end  -- <- here
    end
    return out''', "more than most_next_steps (3)"),
}
STEPS_EXTRA = '''  most_next_steps = CASE_MOST,
'''
HELPERS = '''local function free_around(s, i)
  local out = {}
  for _, j in ipairs(g.adj[i]) do
    if s.board[j] == 0 then out[#out + 1] = g.ids[j] end
  end
  return out
end
local STEPS
local function count_of(s, list)
  local n = 0
  for _, id in ipairs(list) do n = n + #(STEPS(s, {id}) or {}) end
  return n
end
'''


@pytest.mark.parametrize("runtime", RUNTIMES)
@pytest.mark.parametrize("case", sorted(STEPS))
def test_a_broken_steps_is_named_at_the_line_that_broke_it(tmp_path, runtime, case):
    body, words = STEPS[case]
    most = "3" if "most_next_steps" in words else "nil"
    path, line = write(tmp_path, "steps", body, STEPS_EXTRA.replace("CASE_MOST", most))
    text = path.read_text(encoding="utf-8")
    # the helpers above the game table (the line numbers grow by as many lines)
    text = text.replace("return {\n  name", HELPERS + "local G = {\n  name", 1).rstrip()
    assert text.endswith("}")
    text += "\nSTEPS = G.steps\nreturn G\n"
    path.write_text(text, encoding="utf-8")
    line += HELPERS.count("\n")
    err = api_error(path, runtime)
    assert (err.code, err.line, err.hook) == ("E050", line, "steps") and words in err.message, err


# The checker's E051: the line that added the later copy.
DUPLICATES = {
    "moves: a copy added, then the list sorted": ("moves", '''
    local out = {}
    for i = 1, g.n do if s.board[i] == 0 then out[#out + 1] = {g.ids[i]} end end
    if s.board[5] == 0 then out[#out + 1] = {"b2"} end  -- <- here
    table.sort(out, function(a, b) return a[1] < b[1] end)
    return out'''),
    "moves: the same table added twice": ("moves", '''
    local out = {}
    for i = 1, g.n do if s.board[i] == 0 then out[#out + 1] = {g.ids[i]} end end
    out[#out + 1] = out[1]  -- <- here
    return out'''),
    "steps: a step added twice, then sorted": ("steps", '''
    if #m == 1 then return nil end
    local out = {}
    for i = 1, g.n do if s.board[i] == 0 then out[#out + 1] = g.ids[i] end end
    if #out > 1 then out[#out + 1] = out[1] end  -- <- here
    table.sort(out)
    return out'''),
}


@pytest.mark.parametrize("runtime", RUNTIMES)
@pytest.mark.parametrize("case", sorted(DUPLICATES))
def test_a_move_listed_twice_is_named_at_the_line_that_added_the_copy(tmp_path, runtime, case):
    hook, body = DUPLICATES[case]
    path, line = write(tmp_path, hook, body)
    report = check(path, runtime=runtime, playouts=1, stats_games=0, seconds=0, coverage=False, extremes=False)
    assert ("E051", line) in [(d.code, d.line) for d in report.errors], report.format()
