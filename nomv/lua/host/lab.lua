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

local type, next, tostring, rawget, ipairs, pairs, floor, select = type, next, tostring, rawget, ipairs, pairs, math.floor, select
local format, sfind, ssub, sbyte = string.format, string.find, string.sub, string.byte
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
-- A kind of move, for a designer to see which kinds get played: its label, else what its steps
-- are, in order, a run of the same kind counted.  A step is a named item by the part of its id
-- before a colon ("rotate:1" is "rotate", "slot:3,-1" is "slot"); else a place (a place of the
-- start's scene, or an id with a digit, "c3", that names a place drawn later); else the step
-- itself ("pass", "done").  So Trinim's moves are "1 place" or "2 places" (a line), Nibble's
-- "1 place" to "6 places" (the blocks taken), Nonads' "slot + rot" or "tile + slot + rot".

local function label_text(label)
  if type(label) == "table" then return tostring(label.en or select(2, next(label)) or "?") end
  return tostring(label)
end

local function step_class(s, places)
  if type(s) ~= "string" then return "?" end
  local colon = sfind(s, ":", 1, true)
  if colon and colon > 1 then return ssub(s, 1, colon - 1) end
  if places[s] or sfind(s, "%d") then return "place" end
  return s
end

local function kind_text(classes)
  local runs, counts = {}, {}
  for k = 1, #classes do
    local c = classes[k]
    if runs[#runs] == c then counts[#runs] = counts[#runs] + 1
    else runs[#runs + 1], counts[#runs + 1] = c, 1 end
  end
  local parts = {}
  for r = 1, #runs do
    local c, k = runs[r], counts[r]
    if c == "place" then parts[r] = k == 1 and "1 place" or format("%d places", k)
    elseif k == 1 then parts[r] = c
    else parts[r] = format("%d × %s", k, c) end
  end
  return concat(parts, " + ")
end

-- The kinds already named, as a tree walked by the steps' classes (class_of[s] caches a step's
-- class): naming a move's kind is then a few table reads.  Both are made afresh for each request
-- (another request may give other places), and start again when they grow large.
local class_of, kind_tree, named = {}, {}, 0
local function move_kind(mv, places)
  local label = mv.label
  if label ~= nil then return label_text(label) end
  local node = kind_tree
  for k = 1, #mv do
    local s = mv[k]
    local c = class_of[s]
    if c == nil then
      c = step_class(s, places)
      if type(s) == "string" then class_of[s], named = c, named + 1 end
    end
    local next_node = node[c]
    if next_node == nil then
      next_node = {}
      node[c] = next_node
    end
    node = next_node
  end
  local kind = node[0]
  if kind == nil then
    local classes = {}
    for k = 1, #mv do classes[k] = class_of[mv[k]] or step_class(mv[k], places) end
    kind = kind_text(classes)
    node[0] = kind
  end
  if named > 65536 then class_of, kind_tree, named = {}, {}, 0 end
  return kind
end

---------------------------------------------------------------------------------------------
-- The strings of a batch's reply (first moves, reasons, ranks), each written once as JSON
-- and named by its number: a game's line is then a handful of numbers.

-- interned[kind][key]: the number of a first move's notation, a reason (a string, or a table
-- of languages by its JSON) or ranks (by a number, or a string for large ranks).
local strings, interned
local function intern(kind, key, json)
  local known = interned[kind]
  local k = known[key]
  if k == nil then
    k = #strings + 1
    strings[k] = json or to_json(key, "text")
    known[key] = k
  end
  return k
end

-- The checks of a notation or a reason (nomv/lua/host/moves.lua, results.lua), once for each
-- distinct text: their patterns would stop LuaJIT compiling the loop around them.
local good_notation, good_reason, good = {}, {}, 0
local function first_notation(state, mv)
  local notation = P.game().notation
  local text = notation and notation(state, mv)
  if type(text) == "string" and good_notation[text] then return text end
  text = P.notation_of(state, mv)
  if good >= 65536 then good_notation, good_reason, good = {}, {}, 0 end
  good_notation[text], good = true, good + 1
  return text
end

local function reason_key(reason)
  if reason == nil then return 0 end
  if type(reason) == "string" and good_reason[reason] then return intern("reason", reason) end
  P.check_text(reason, "result: reason", "E053")
  if type(reason) == "string" then
    if good >= 65536 then good_notation, good_reason, good = {}, {}, 0 end
    good_reason[reason], good = true, good + 1
    return intern("reason", reason)
  end
  local json = to_json(reason, "reason")
  return intern("languages", json, json)
end

local function ranks_key(ranks, np)
  local key, small = 0, np <= 15
  for p = 1, np do
    local r = ranks[p]
    if r > 9 then small = false; break end
    key = key * 10 + r
  end
  if not small then key = concat(ranks, ",", 1, np) end
  local k = interned.ranks[key]
  if k then return k end
  local parts = {}
  for p = 1, np do parts[p] = format("%d", ranks[p]) end
  return intern("ranks", key, "[" .. concat(parts, ",") .. "]")
end

---------------------------------------------------------------------------------------------
-- One game.

-- Where the game in hand has got to, for the line of a game that failed half-way.
local progress = {plies = 0}

local ENDS = {won = 1, drawn = 2, lost = 3, cut = 4}

-- A game of random players described at detail 0 (nine games in ten): the loop of a playout
-- (nomv/lua/host/loops.lua) with the turns counted and the first move's notation written down,
-- and its line a list of numbers: [end, plies, turns, winner or 0, ranks, first move, reason]
-- (the last three numbered in the batch's strings, 0 for none).  Two generators serve every
-- game of a batch, loaded with each game's seeds: the same numbers as new ones would give.
local quick_chance, quick_mover, quick_ranks
local function quick_game(opts, setup, mover, np, max_plies)
  local result, setup_with, play_with = P.need("result"), P.setup_with, P.play_with
  local random_move_of, checked_mover = P.random_move_of, P.checked_mover
  local chance, rng, ranks = quick_chance:load(setup), quick_mover:load(mover), quick_ranks
  local state = setup_with(opts, chance)
  local plies, turns, last_mover, first = 0, 0, nil, 0
  progress.plies = 0
  while true do
    local res = result(state)
    if res ~= nil and res ~= false then
      local winner, firsts = P.rank(res, np, ranks)
      local e = winner and 1 or firsts > 1 and 2 or 3
      return "[" .. e .. "," .. plies .. "," .. turns .. "," .. (winner and floor(winner) or 0) .. ","
             .. ranks_key(ranks, np) .. "," .. first .. "," .. reason_key(res.reason) .. "]"
    end
    if plies >= max_plies then
      return "[4," .. plies .. "," .. turns .. ",0,0," .. first .. ",0]"
    end
    local p = checked_mover(state, np)
    if p == nil then
      P.contract("E063", "the player to move is nil while the game runs (result returned no result)")
    end
    if p ~= last_mover then turns, last_mover = turns + 1, p end
    local mv = random_move_of(state, rng)
    if plies == 0 then first = intern("first", first_notation(state, mv)) end
    state = play_with(state, mv, chance)
    plies = plies + 1
    progress.plies = plies
  end
end

-- agents[i]: {kind = "random"} or {kind = "mcts", iterations = n, c = x, depth = n}; `setup`
-- and `mover` seed the state's chance and the players' choices; seats[p] is the agent of seat p;
-- detail 0 describes the game's end, length and first move, 1 also its positions (repeats),
-- steps and kinds of moves, 2 also the legal moves counted at every ply (a game with an MCTS
-- seat is described at 2: its search lists them anyway).  places: the set of the start scene's
-- places (kinds of moves).
local function play_game(opts, setup, mover, seats, detail, np, max_plies, agents, notations, places)
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
      local kind = move_kind(mv, places)
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
  return to_json(line, "line")
end

-- Plays games with the agents; returns {"strings": [...], "games": [...]} as JSON, a line a
-- game in order (an object, or the list of numbers of quick_game), and how many games they
-- are: fewer than asked when the reply grew large, or after a game that failed (its line is
-- {"error": ..., "plies": ...}: the error as the host describes any, with its message, the
-- script's line, the hook and the checker's code).  The caller asks again for the rest: a
-- failure costs one more request, and a good game no protected call of its own.
-- batch: {seeds = {twelve numbers a game: its setup seed, then its players'}, detail = {a
-- level a game}, seats = {the agent of each seat}, places = {the start scene's places}}.
function H.lab_games(opts, batch, np, max_plies, agents, notations)
  local out, done = {}, 0
  strings, interned = {}, {first = {}, reason = {}, languages = {}, ranks = {}}
  class_of, kind_tree, named = {}, {}, 0
  local ok, err = guarded("playout", function()
    local seeds, detail, seats = batch.seeds, batch.detail, batch.seats
    local places = {}
    for _, id in ipairs(batch.places or {}) do places[id] = true end
    local quick = not notations
    for p = 1, np do if agents[seats[p]].kind ~= "random" then quick = false end end
    if quick and not quick_chance then
      quick_chance, quick_mover, quick_ranks = P.Rng.new({1, 1, 1, 1, 1, 1}), P.Rng.new({1, 1, 1, 1, 1, 1}), {}
    end
    local size = 0
    local setup, mover = {}, {}
    P.start_periods()
    for i = 1, #detail do
      P.new_period()                         -- (each game gets the time limit afresh)
      local base = (i - 1) * 12
      for k = 1, 6 do setup[k], mover[k] = seeds[base + k], seeds[base + 6 + k] end
      local text
      if quick and detail[i] == 0 then
        text = quick_game(opts, setup, mover, np, max_plies)
      else
        text = play_game(opts, setup, mover, seats, detail[i], np, max_plies, agents, notations, places)
      end
      out[i], size, done = text, size + #text, i
      if size > MAX_REPLY then break end
    end
  end)
  if not ok then
    done = done + 1
    out[done] = format('{"error":%s,"plies":%d}', err, progress.plies)
  end
  local reply = '{"strings":[' .. concat(strings, ",") .. '],"games":[' .. concat(out, ",") .. "]}"
  strings, interned = nil, nil
  return true, reply, done
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
