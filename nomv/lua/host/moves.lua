-- Legal moves: listing them with the host's checks (each step a short non-empty string), the
-- per-state cache that lets play() receive the script's own move table, and the ways a move
-- is written (its key, its default notation, its JSON for Python).
local H, P = ...

local type, tostring, setmetatable, rawequal, error, pcall = type, tostring, setmetatable, rawequal, error, pcall
local format, sfind = string.format, string.find
local concat, tsort = table.concat, table.sort
local contract, describe = P.contract, P.describe
local MAX_MOVES, MAX_STEP = P.MAX_MOVES, P.MAX_STEP

local G
P.on_game(function(game) G = game end)

-- What listed the moves, as messages name it: moves(), or steps() for a game with only that.
local function lister()
  if G.moves == nil and P.has_steps() then return "steps()" end
  return "moves()"
end

-- What is wrong with item i of a list of moves: a message and the number of the bad step (when
-- a step is), or nil.
local function move_problem(mv, i)
  if type(mv) ~= "table" then
    local hint = type(mv) == "string" and lister() == "moves()"
                 and "; moves returns a list of moves, each a list of step ids, such as {{\"a1\"}, {\"b2\"}}" or ""
    return format("%s item %d is a %s, not a move (a list of step ids)%s", lister(), i, type(mv), hint)
  end
  local n = #mv
  if n == 0 then return format("%s item %d is an empty move: a move needs at least one step", lister(), i) end
  for k = 1, n do
    local s = mv[k]
    if type(s) ~= "string" or s == "" or sfind(s, "[%c]") then
      if lister() == "steps()" then
        return format("steps() gave %s as step %d of a move: steps must be non-empty strings "
                      .. "(the ids of what the player clicks)", describe(s), k), k
      end
      return format("moves() item %d, step %d is %s: steps must be non-empty strings "
                    .. "(the ids of what the player clicks)", i, k, describe(s)), k
    end
    if #s > MAX_STEP then
      return format("%s item %d, step %d is %d characters long; a step id may have at most %d",
                    lister(), i, k, #s, MAX_STEP), k
    end
  end
  return nil
end

-- The line of the script that made bad item i of state's moves (blame.lua), or nil: the line
-- that put it in the list moves() returned (the `return`, for a list made as it is returned),
-- or for steps() alone the line of steps() that gave its bad step k.  The second run of the
-- hook must give the same problem at the same place.
local function bad_move_line(state, mv, i, k, problem)
  if lister() == "steps()" then
    if k == nil then return nil end
    local bad = (move_problem({mv[k]}, i))
    return P.step_line(state, mv, k, function(x) return (move_problem({x}, i)) == bad end)
  end
  local list, record = P.blame_items(P.need("moves"), state)
  if type(list) ~= "table" or move_problem(list[i], i) ~= problem then return nil end
  return record.item_line(list, i)
end

local function check_move(mv, i, state)
  local problem, k = move_problem(mv, i)
  if problem then
    local ok, line = pcall(bad_move_line, state, mv, i, k, problem)
    contract("E050", problem, lister() == "steps()" and "steps" or nil, ok and line or nil)
  end
end
P.check_move = check_move   -- (the checker's fast games check the move they play, checks.lua)

-- The list moves() returns, checked only for being a list (the loops' fast path); for a game
-- that describes its moves by steps() alone, the moves derived from it (steps.lua).
local moves_from_steps, has_steps = P.moves_from_steps, P.has_steps
function P.list_moves(state)
  local moves = G.moves
  if moves == nil and has_steps() then return moves_from_steps(state) end
  local ms = P.need("moves")(state)
  if type(ms) ~= "table" then contract("E050", format("moves must return a list, but it returned %s", describe(ms))) end
  return ms
end
local list_moves = P.list_moves

-- The state whose moves a loop listed last, and its list: `nomv.legal(state)` in the script's
-- result() and the random pick that follows it in a playout share one listing (a plain game
-- ends when the player to move has no move, and asking moves() twice a ply doubled its cost).
local last_state, last_moves = nil, nil

-- The moves of a state as the script's moves() lists them (not checked), listed once for the
-- state in hand.
function P.legal(state)
  if rawequal(state, last_state) then return last_moves end
  local ms = list_moves(state)
  last_state, last_moves = state, ms
  return ms
end
local legal = P.legal

-- nomv.legal(state) for the script: its own moves(state), listed once per state.
function P.script_legal(state)
  if type(state) ~= "table" then error("nomv.legal(state): the state must be a table", 2) end
  return legal(state)
end

-- nomv.has_move(state) for the script: whether the player to move has a move.  With steps()
-- it walks to the first whole move only; else it asks nomv.legal (so the random move that
-- follows in a playout reuses the list).
local steps_have_move = P.steps_have_move
function P.script_has_move(state)
  if type(state) ~= "table" then error("nomv.has_move(state): the state must be a table", 2) end
  if has_steps() then return steps_have_move(state) end
  return #legal(state) > 0
end

-- moves() gave nothing although result() says the game goes on: a dead end.
function P.dead_end()
  if lister() == "steps()" then
    contract("E052", "steps describes no whole move, but result says the game is not over "
                      .. "(ask nomv.has_move(s) in result)")
  end
  contract("E052", "moves returned no move, but result says the game is not over")
end

-- The moves of a position whose game is not over: never empty.
function P.running_moves(state)
  local ms = legal(state)
  if #ms == 0 then P.dead_end() end
  return ms
end

local set_hook = P.set_hook
local move_cache = setmetatable({}, {__mode = "k"})
local LISTING = {}  -- in move_cache while a position's moves are being listed

-- The checked moves of a state, listed once: play(state, index) hands the script the very
-- table its moves() returned (extra fields included).
function P.cached_moves(state)
  local ms = move_cache[state]
  if ms == LISTING then
    -- The last listing failed.  Not again: a failure can be costly (a stack overflow takes
    -- Lua 5.4 a second), and the notations asked with the moves would double it.
    set_hook("moves")
    contract(nil, "moves failed on this position already (see its first error)")
  end
  if not ms then
    move_cache[state] = LISTING
    -- Errors while listing are errors of moves(), whichever request needed the list.
    local asked = set_hook("moves")
    ms = legal(state)
    if #ms > MAX_MOVES then
      contract("E050", format("moves returned %d moves; a position may have at most %d", #ms, MAX_MOVES))
    end
    for i = 1, #ms do check_move(ms[i], i, state) end
    if #ms == 0 and not P.is_over(state) then P.dead_end() end
    move_cache[state] = ms
    set_hook(asked)
  end
  return ms
end

-- A move as Python receives it: its steps, or {steps, any_order, label} when it has those.
function P.encode_move(mv)
  local steps = {}
  for k = 1, #mv do steps[k] = mv[k] end
  if mv.any_order or mv.label then
    return {steps = steps, any_order = mv.any_order and true or nil,
            label = mv.label ~= nil and tostring(mv.label) or nil}
  end
  return steps
end

-- The default notation: the steps joined by "-".
function P.default_notation(mv)
  local steps = {}
  for k = 1, #mv do steps[k] = mv[k] end
  return concat(steps, "-")
end

-- A legal move's text: the game's notation(state, move), checked, or the default.
function P.notation_of(state, mv)
  local text = G.notation and G.notation(state, mv) or P.default_notation(mv)
  if type(text) ~= "string" or text == "" then
    contract("E080", format("notation must return a non-empty string, got %s", describe(text)))
  end
  if #text > P.MAX_LABEL then
    contract("E080", format("notation returned %d characters; at most %d", #text, P.MAX_LABEL))
  end
  -- A record names each move by its notation, read back from a line of text: blanks at either
  -- end are lost there, and a control character breaks the line.
  if sfind(text, "^%s") or sfind(text, "%s$") or sfind(text, "%c") then
    contract("E080", format("notation must not begin or end with a space or hold control characters "
                            .. "(a saved game could not name the move), got %s", describe(text)))
  end
  return text
end

-- A move as a search key (nomv/ai/agents.py's move_key): its steps, sorted when their order
-- does not matter, one per line.
function P.move_key(mv)
  local n = #mv
  if not mv.any_order then
    -- The usual move, steps that are strings in a fixed order: joined as they stand, without a
    -- table of copies (the search keys every move it adds to its tree).
    local plain = true
    for k = 1, n do if type(mv[k]) ~= "string" then plain = false; break end end
    if plain then return concat(mv, "\n", 1, n) end
  end
  local steps = {}
  for k = 1, #mv do steps[k] = tostring(mv[k]) end
  if mv.any_order then tsort(steps) end
  return concat(steps, "\n")
end

-- The legal move of `state` that the steps name (in order, or in any order for a move that
-- takes its steps in any order), or nil.
function P.legal_move_named(state, steps)
  local ms = P.cached_moves(state)
  local key = P.move_key(steps)
  local sorted
  for i = 1, #ms do
    local mv = ms[i]
    local k = P.move_key(mv)
    if k == key then return mv, i end
    if mv.any_order then
      if sorted == nil then
        sorted = {}
        for s = 1, #steps do sorted[s] = tostring(steps[s]) end
        tsort(sorted)
        sorted = concat(sorted, "\n")
      end
      if sorted == k then return mv, i end
    end
  end
  return nil
end

local random_move_from_steps = P.random_move_from_steps

local function bad_random_move(mv)
  contract("E070", format("random_move must return a move (a list of steps), got %s", describe(mv)))
end

-- A random move of a running game: the game's random_move (checked), the host's draw from
-- steps(), or one drawn from its moves.
function P.random_move_of(state, rng)
  local random_move = G.random_move
  if random_move then
    local mv = random_move(state, rng)
    if type(mv) ~= "table" or #mv == 0 then bad_random_move(mv) end
    return mv
  end
  if has_steps() then
    local mv = random_move_from_steps(state, rng)
    if mv == nil then P.dead_end() end
    return mv
  end
  local ms = legal(state)
  if #ms == 0 then P.dead_end() end
  return ms[rng:int(#ms)]
end
