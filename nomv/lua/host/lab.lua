-- The designer's lab (nomv analyze, nomv/lab/): whole games played inside Lua, each described
-- by one line of JSON.  Nothing else depends on this part, and it leaves the other loops as
-- they are: its extra work (a mover per ply, a hash of every position, the legal moves counted)
-- is paid only here.
--
-- A game starts like a Position (the state's chance generator seeded from the game's seed, so
-- the same seed and moves replay it anywhere) and its players draw from a generator of their
-- own.  A game that fails (an error in the script, its time limit) becomes a line naming the
-- error, and the next game goes on.
local H, P = ...

local type, next, tostring, rawget, ipairs, pairs, floor = type, next, tostring, rawget, ipairs, pairs, math.floor
local format, gsub, sbyte = string.format, string.gsub, string.byte
local concat = table.concat
local guarded, to_json, arm = P.guarded, P.to_json, P.arm


-- At most this many bytes of lines in one reply: the caller asks again for the games left.
local MAX_REPLY = 4 * 1024 * 1024

---------------------------------------------------------------------------------------------
-- Positions' hashes, for repetition: two independent sums over a table's entries (so the order
-- in which `next` visits them does not matter), each below 2^26, so that every product stays
-- exact below 2^53 in LuaJIT's doubles as in Lua 5.4's integers.  Two equal states hash alike;
-- two different ones collide with a chance of about 2^-52.

local MA, MB = 67108859, 67108837          -- primes below 2^26
local str_a, str_b, cached = {}, {}, 0

local function hash_string(s)
  local a = str_a[s]
  if a then return a, str_b[s] end
  local b
  a, b = 7, 11
  for i = 1, #s do
    local c = sbyte(s, i)
    a = (a * 131 + c) % MA
    b = (b * 137 + c) % MB
  end
  if cached >= 65536 then str_a, str_b, cached = {}, {}, 0 end
  str_a[s], str_b[s], cached = a, b, cached + 1
  return a, b
end

local hash_value
local function hash_table(t, depth)
  if depth > 40 then return 13, 17 end     -- (a cycle, or absurd nesting: still a number)
  local sa, sb = 19, 23
  for k, v in next, t do
    if depth > 0 or k ~= "_rng" then       -- the generator's position is not the position
      local ka, kb = hash_value(k, depth + 1)
      local va, vb = hash_value(v, depth + 1)
      local pa = (ka * 48271 + va) % MA
      local pb = (vb * 69621 + kb * 3 + 1) % MB
      sa = (sa + pa * pa % MA + ka) % MA
      sb = (sb + pb * (pb + 7) % MB + va) % MB
    end
  end
  return sa, sb
end

function hash_value(v, depth)
  local t = type(v)
  if t == "number" then
    if v == floor(v) and v > -2^50 and v < 2^50 then return v % MA, (v * 3 + 5) % MB end
    return hash_string(format("%.17g", v))
  elseif t == "string" then
    local a, b = hash_string(v)
    return (a + 29) % MA, (b + 31) % MB
  elseif t == "boolean" then
    return v and 3 or 5, v and 37 or 41
  elseif t == "table" then
    return hash_table(v, depth)
  end
  return 43, 47
end

-- One number for a position, exact on both runtimes (below 2^52).
local function position_hash(state)
  local a, b = hash_table(state, 0)
  return a * 67108864 + b
end
P.position_hash = position_hash

---------------------------------------------------------------------------------------------
-- A kind of move: its label, else the shape of its steps (a run of letters as "a", a number as
-- "0": "c3" and "a10" alike, "pass" apart), so that a designer sees which kinds get played.

local shapes, shaped = {}, 0
local function step_shape(s)
  if type(s) ~= "string" then return "?" end
  local shape = shapes[s]
  if shape then return shape end
  shape = gsub(gsub(s, "%-?%d+", "0"), "%a+", "a")
  if shaped >= 65536 then shapes, shaped = {}, 0 end
  shapes[s], shaped = shape, shaped + 1
  return shape
end

local function move_kind(mv)
  local label = mv.label
  if label ~= nil then return tostring(label) end
  local n = #mv
  if n == 1 then return step_shape(mv[1]) end
  local parts = {}
  for k = 1, n do parts[k] = step_shape(mv[k]) end
  return concat(parts, " ")
end

---------------------------------------------------------------------------------------------
-- One game.

-- Where the game in hand has got to, for the line of a game that failed half-way.
local progress = {plies = 0}

-- agents[i]: {kind = "random"} or {kind = "mcts", iterations = n, c = x, depth = n}; `setup`
-- and `mover` seed the state's chance and the players' choices; seats[p] is the agent of seat p;
-- detail 0 describes the game's end, length and first move, 1 also its positions (repeats),
-- steps and kinds of moves, 2 also the legal moves counted at every ply (a game with an MCTS
-- seat is described at 2: its search lists them anyway).
local function play_game(opts, setup, mover, seats, detail, np, max_plies, agents, notations)
  local Rng = P.Rng
  local result, play_with, do_play = P.need("result"), P.play_with, P.do_play
  local mover_rng = Rng.new(mover)
  -- Each MCTS seat its own tree, seeded from the players' generator.
  local trees, searching = nil, false
  for p = 1, np do
    local a = agents[seats[p]]
    if a.kind == "mcts" then
      trees = trees or {}
      trees[p] = P.search_module().new_tree({seed = mover_rng:fork():save(), c = a.c,
                                             playout_plies = a.depth})
      searching = true
    end
  end
  -- Chance: a search needs each state's own generator position (_rng, as a Position keeps
  -- it); random players' games run one generator on from the setup instead, as playouts do
  -- (writing _rng into every new state cost Hex half its speed).  The numbers are the same.
  local chance = Rng.new(setup)
  local state
  if searching then
    detail = 2
    state = P.new_state(opts, chance)
  else
    state = P.setup_with(opts, chance)
  end
  local line = {}
  local plies, turns, last_mover = 0, 0, nil
  local branching, seen, repeats, cells, kinds
  if detail >= 1 then
    seen, repeats, cells, kinds = {}, 0, {}, {}
    seen[position_hash(state)] = true
  end
  if detail >= 2 then branching = {} end
  local values = searching and {} or nil
  local history = searching and {} or nil
  local moves_played = notations and {} or nil
  local first
  progress.plies = 0
  while true do
    local res = result(state)
    if res ~= nil and res ~= false then
      local o = P.outcome(res, np)
      line.ranks, line.winner, line.reason = o.ranks, o.winner, o.reason
      if o.winner then line["end"] = "won"
      elseif o.shared then line["end"] = "drawn"
      else line["end"] = "lost" end
      break
    end
    if plies >= max_plies then line["end"] = "cut"; break end
    local p = P.checked_mover(state, np)
    if p == nil then
      P.contract("E063", "the player to move is nil while the game runs (result returned no result)")
    end
    if p ~= last_mover then turns, last_mover = turns + 1, p end
    local tree, mv = trees and trees[p], nil
    if tree then
      arm()                                  -- (each search gets the time limit afresh)
      local ms = P.cached_moves(state)
      if #ms == 0 then P.dead_end() end
      branching[plies + 1] = #ms
      if #ms == 1 then
        mv = ms[1]
        values[plies + 1] = false
      else
        local a = agents[seats[p]]
        local found = P.search_module().search(tree, state, np, history, a.iterations, nil)
        mv = ms[found.index]
        values[plies + 1] = found.values
      end
    else
      if branching then
        -- The legal moves counted (a game whose random_move spares the listing pays it here,
        -- which is why only some games are described at 2); the move drawn does not depend on it.
        branching[plies + 1] = #P.running_moves(state)
      end
      mv = P.random_move_of(state, mover_rng)
    end
    if plies == 0 then first = P.notation_of(state, mv) end
    if moves_played then
      local steps = {}
      for k = 1, #mv do steps[k] = mv[k] end
      moves_played[plies + 1] = {notation = P.notation_of(state, mv), steps = steps}
    end
    if cells then
      for k = 1, #mv do
        local s = mv[k]
        if type(s) == "string" then cells[s] = (cells[s] or 0) + 1 end
      end
      local kind = move_kind(mv)
      kinds[kind] = (kinds[kind] or 0) + 1
    end
    if history then history[plies + 1] = P.move_key(mv) end
    if searching then state = do_play(state, mv) else state = play_with(state, mv, chance) end
    plies = plies + 1
    progress.plies = plies
    if seen then
      local h = position_hash(state)
      if seen[h] then repeats = repeats + 1 else seen[h] = true end
    end
  end
  line.plies, line.turns, line.first = plies, turns, first
  line.repeats, line.cells, line.kinds, line.branching = repeats, cells, kinds, branching
  if values then
    for i = 1, plies do if values[i] == nil then values[i] = false end end
    line.values = values
  end
  line.moves = moves_played
  return line
end

-- A game's line of JSON.  The usual line (an end, two counts, the ranks, a first move) is
-- written directly: to_json's sorted keys cost as much as a short random game.
local function line_json(line)
  if line.cells or line.values or line.moves or type(line.reason) == "table" then
    return to_json(line, "line")
  end
  local ranks = line.ranks
  local out = {'{"end":"', line["end"], '","plies":', format("%d", line.plies), ',"turns":', format("%d", line.turns)}
  if ranks then
    local r = {}
    for i = 1, #ranks do r[i] = format("%d", ranks[i]) end
    out[#out + 1] = ',"ranks":[' .. concat(r, ",") .. "]"
  end
  if line.winner then out[#out + 1] = format(',"winner":%d', line.winner) end
  if line.first then out[#out + 1] = ',"first":' .. to_json(line.first, "first") end
  if line.reason then out[#out + 1] = ',"reason":' .. to_json(line.reason, "reason") end
  out[#out + 1] = "}"
  return concat(out)
end

-- Plays games with the agents; returns their lines of JSON, one per game in order, and how
-- many games they are: fewer than asked when the reply grew large, or after a game that failed
-- (its line is {"error": ..., "plies": ...}: the error as the host describes any, with its
-- message, the script's line, the hook and the checker's code).  The caller asks again for the
-- rest: a failure costs one more request, and a good game no protected call of its own.
-- batch: {seeds = {twelve numbers a game: its setup seed, then its players'}, detail = {a
-- level a game}, seats = {the agent of each seat}}.
function H.lab_games(opts, batch, np, max_plies, agents, notations)
  local out, done = {}, 0
  local ok, err = guarded("playout", function()
    local seeds, detail, seats = batch.seeds, batch.detail, batch.seats
    local size = 0
    local setup, mover = {}, {}
    P.start_periods()
    for i = 1, #detail do
      P.new_period()                         -- (each game gets the time limit afresh)
      local base = (i - 1) * 12
      for k = 1, 6 do setup[k], mover[k] = seeds[base + k], seeds[base + 6 + k] end
      local text = line_json(play_game(opts, setup, mover, seats, detail[i], np, max_plies, agents, notations))
      out[i], size, done = text, size + #text, i
      if size > MAX_REPLY then break end
    end
  end)
  if not ok then
    done = done + 1
    out[done] = format('{"error":%s,"plies":%d}', err, progress.plies)
  end
  return true, concat(out, "\n"), done
end

-- The lines of the script that the rules can run: the functions reachable from the hooks a game
-- is played by (not from the scene, the text or the options' check, which no game runs), with
-- their upvalues.  Rule coverage (nomv/lab/play.py) reports the ones the traced games never ran.
local RULES = {"setup", "moves", "steps", "play", "result", "to_move", "random_move", "view", "determinize",
               "evaluate"}
function H.lab_rule_lines()
  return guarded("load", function()
    local G, funcs, seen, lines = P.game(), {}, {}, {}
    for _, name in ipairs(RULES) do
      local f = rawget(G, name)
      if type(f) == "function" then P.script_functions(f, funcs, seen) end
    end
    for _, f in ipairs(funcs) do
      for l in pairs(debug.getinfo(f, "L").activelines or {}) do lines[#lines + 1] = l end
    end
    table.sort(lines)
    return to_json(lines, "lines")
  end)
end
