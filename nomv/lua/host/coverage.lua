-- For `nomv check` (nomv/checker): rule coverage.  Nothing else depends on this part.
--
-- Coverage is a line hook (meant for Lua 5.4: LuaJIT does not call hooks inside compiled
-- traces).  While it is on, one hook function serves both the line events and the time limit's
-- count events, since a runtime has only one hook.  It records the lines of the game script that
-- run, and every script function it sees running, so that the lines which *can* run are the
-- `activelines` of those functions plus every function reachable from the game table and from
-- their upvalues.  The main chunk is left out: it ran when the script was loaded.
local H, P = ...

local type, next, pairs, ipairs, getmetatable, rawequal = type, next, pairs, ipairs, getmetatable, rawequal
local tsort = table.sort
local sethook, getinfo, getupvalue = debug.sethook, debug.getinfo, debug.getupvalue
local count_hook, to_json = P.count_hook, P.to_json

local covered, cov_protos = nil, nil
local cov_cache, cov_cached = {}, 0
local script_source

-- cov_cache[f] says whether f is a script function.  Asking for "f" alone is much cheaper than
-- asking for the source ("S") on every line.  Closures are created all the time, so the cache
-- is emptied now and then (a weak table of them makes the collector crawl); one function of
-- each prototype is kept in cov_protos for its activelines.
--
-- Most lines that run ran before, and this hook runs on every line (millions in a game): a line
-- of the script already seen returns at once, without getinfo, which costs more than the rest
-- (a line of another chunk with the same number returns with it: it would not be recorded
-- anyway), and the count of lines towards the time limit is kept here (P.line_tick's, inlined).
-- (A function first seen running on lines already covered is not put in cov_protos then: a
-- closure made and dropped inside a hook, which ran only on such lines, is not counted as lines
-- that can run.)
local ticks = 0
local function coverage_hook(event, line)
  if event == "line" then
    ticks = ticks + 1
    if ticks >= 1000 then ticks = 0; count_hook() end   -- (see P.line_tick)
    if covered[line] then return end
    local f = getinfo(2, "f").func
    local mine = cov_cache[f]
    if mine == nil then
      local info = getinfo(f, "S")
      mine = info.source == script_source
      if cov_cached >= 4096 then cov_cache, cov_cached = {}, 0 end
      cov_cache[f], cov_cached = mine, cov_cached + 1
      if mine then
        local key = info.linedefined * 1048576 + info.lastlinedefined
        if cov_protos[key] == nil then cov_protos[key] = f end
      end
    end
    if mine then covered[line] = true end
  else
    count_hook()
  end
end

function H.coverage_start(keep)
  if not (keep and covered) then covered, cov_protos = {}, {} end
  cov_cache, cov_cached = {}, 0
  script_source = P.script_source()
  sethook(coverage_hook, "l", P.limit_seconds() > 0 and 10000 or 0)
  return true
end

-- Stops recording for a while (coverage_start(true) goes on).
function H.coverage_pause()
  H.set_limit(P.limit_seconds())
  return true
end

-- How many lines of the script have run since coverage_start (the checker stops tracing once
-- more games add none).
function H.coverage_lines()
  local n = 0
  for _ in pairs(covered or {}) do n = n + 1 end
  return true, n
end

-- Every script function reachable from v (tables, functions and their upvalues), into `out`.
local function script_functions(v, out, seen)
  if seen[v] then return end
  local t = type(v)
  if t == "table" then
    seen[v] = true
    local mt = getmetatable(v)
    if type(mt) == "table" then script_functions(mt, out, seen) end
    for k, x in next, v do
      script_functions(k, out, seen)
      script_functions(x, out, seen)
    end
  elseif t == "function" then
    seen[v] = true
    local info = getinfo(v, "S")
    if info.source == script_source and info.what ~= "main" then out[#out + 1] = v end
    local i = 1
    while true do
      local name, up = getupvalue(v, i)
      if name == nil then break end
      script_functions(up, out, seen)
      i = i + 1
    end
  end
end

P.script_functions = script_functions     -- (the lab's rule lines: lab.lua)

-- Stops tracing; returns JSON {ran = [lines], active = [lines that can run]}.
function H.coverage_stop()
  H.set_limit(P.limit_seconds())
  local ran, active = {}, {}
  if covered == nil then return true, to_json({ran = ran, active = active}) end
  local funcs, seen = {}, {}
  script_source = P.script_source()
  script_functions(P.game(), funcs, seen)
  for _, f in pairs(cov_protos) do
    if not seen[f] then funcs[#funcs + 1] = f; seen[f] = true end
  end
  local lines = {}
  for _, f in ipairs(funcs) do
    local info = getinfo(f, "SL")
    for l in pairs(info.activelines or {}) do
      -- The closing `end` of a function that returns explicitly never runs: not a rule.
      if l ~= info.lastlinedefined or info.lastlinedefined == info.linedefined then lines[l] = true end
    end
  end
  for l in pairs(lines) do active[#active + 1] = l end
  for l in pairs(covered) do ran[#ran + 1] = l end
  tsort(active); tsort(ran)
  covered, cov_protos, cov_cache, cov_cached = nil, nil, {}, 0
  return true, to_json({ran = ran, active = active})
end

-- For the checker's E051 (a move listed twice): the line of the script that added the later of
-- the equal moves to the list moves(state) returns (blame.lua; the `return` of a list made as it
-- is returned), or for a game of steps() alone the line that added a step twice to one of its
-- lists; nil when that cannot be told.  `index` is where the listing found the second copy.
local function added_again(state, index)
  local list, record = P.blame_items(P.need("moves"), state)
  if type(list) ~= "table" or type(list[index]) ~= "table" then return nil end
  local key, copies = P.move_key(list[index]), {}
  for j = 1, #list do
    local mv = list[j]
    if type(mv) == "table" and P.move_key(mv) == key then copies[#copies + 1] = mv end
  end
  if #copies < 2 then return nil end                          -- the second run differs
  -- The same table listed twice: where it was added again; else the copy made last.
  local latest, at = -1, nil
  for c = 1, #copies do
    local mv = copies[c]
    for d = c + 1, #copies do
      if rawequal(mv, copies[d]) then return record.second_line(list, mv) end
    end
    local o = record.order(mv)
    if o == nil then return nil end                           -- a copy not seen being added
    if o > latest then latest, at = o, mv end
  end
  for j = 1, #list do
    if rawequal(list[j], at) then return record.item_line(list, j) end
  end
  return nil
end

function H.move_added_at(state, index)
  return P.guarded("moves", function()
    if P.steps_only() then return P.step_added_at(state, P.list_moves(state)[index]) end
    return added_again(state, index)
  end)
end
