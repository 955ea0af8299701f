-- For `nomv profile` (nomv/profile.py): where a script's random games spend their time, and
-- what they allocate.  Nothing else depends on this part, and none of it runs unless the
-- profile request is made: the loops and the hooks are the same with it or without it.
--
-- Three passes over random games of the given options:
--   timing    the real playout loop (loops.lua) at full speed while the stack is sampled: by
--             LuaJIT's own sampling profiler (jit.profile: a timer, and compiled code stays
--             compiled), else (Lua 5.4) by a count hook that takes a sample once a millisecond
--             of CPU time has passed, weighted by the time since the last one;
--   counting  the interpreter (LuaJIT's compiler off) under a call and a line hook: how often
--             each line of the script runs, what it allocates (collectgarbage("count") between
--             line events, the collector stopped), which function calls which, from where;
--   survey    the positions themselves: moves a ply, and for steps() the longest list of next
--             steps and the lengths of whole moves.
-- Python turns the figures into shares, lines and advice.  The sampler is trusted host code: it
-- is captured here, before any script runs, and a script never sees `jit`.
local H, P = ...

local type, pairs, next, rawget, tostring, pcall = type, pairs, next, rawget, tostring, pcall
local floor, huge = math.floor, math.huge
local clock = os.clock
local format, ssub = string.format, string.sub
local concat = table.concat
local sethook, getinfo, getupvalue = debug.sethook, debug.getinfo, debug.getupvalue
local gc = collectgarbage
local guarded, to_json, need = P.guarded, P.to_json, P.need
local count_hook, line_tick, new_period = P.count_hook, P.line_tick, P.new_period
local setup_with, play_with, random_move_of = P.setup_with, P.play_with, P.random_move_of

local JIT = rawget(_G, "jit")
local JIT_HOOKS = type(JIT) == "table"   -- (LuaJIT's line events after a return: see counting)
local jprofile = nil
if type(JIT) == "table" then
  local ok, mod = pcall(require, "jit.profile")
  if ok then jprofile = mod end
end

-- The chunk name of a frame as the stacks show it ("games/x.lua", "nomv/host/loops.lua").
local function chunk(source)
  if type(source) ~= "string" then return "?" end
  if ssub(source, 1, 1) == "@" or ssub(source, 1, 1) == "=" then return ssub(source, 2) end
  return "[string]"
end

-- Plays random games (the playout loop itself) until `seconds` of CPU time have passed, in
-- batches that grow while the end is far; returns the games, plies and CPU seconds.
local function play_for(opts, master, seconds, np, max_plies)
  local games, plies, n = 0, 0, 1
  local t0 = clock()
  while true do
    local stats = P.random_games(opts, master:fork():save(), n, np, max_plies, random_move_of)
    games, plies = games + stats.games, plies + stats.plies
    local spent = clock() - t0
    if spent >= seconds then return games, plies, spent end
    if spent * 4 < seconds then n = n * 2 end
  end
end

-- The timing pass: stacks (outermost frame first, "chunk:line" and a newline each) and their weights, by the
-- state of the virtual machine in front ("N" compiled, "I" interpreted, "C" in C, "G" collecting
-- garbage, "J" compiling; the hook sampler knows none of these: "?").
local function timing(opts, master, seconds, np, max_plies)
  local samples = {}
  local sampler
  if jprofile then
    sampler = "jit.profile"
    local dumpstack = jprofile.dumpstack
    jprofile.start("li1", function(thread, n, vm)
      local key = vm .. "\t" .. dumpstack(thread, "pl\n", -1000)
      samples[key] = (samples[key] or 0) + n
    end)
    play_for(opts, master, seconds / 10, np, max_plies)     -- the compiler at work: not counted
    samples = {}
    local ok, games, plies, spent = pcall(play_for, opts, master, seconds, np, max_plies)
    jprofile.stop()
    if not ok then error(games, 0) end
    return sampler, samples, games, plies, spent
  end
  -- A count hook, which compiled code never calls: a LuaJIT without its profiler interprets.
  sampler = "hook"
  local jit_was_on = type(JIT) == "table" and JIT.status()
  if jit_was_on then JIT.off(); JIT.flush() end
  local last, frames = clock(), {}
  local function take()
    count_hook()                                            -- the time limit, as always
    local now = clock()
    local weight = now - last
    if weight < 0.001 then return end
    last = now
    local level, depth = 2, 0
    while true do
      local info = getinfo(level, "Sl")
      if not info then break end
      depth = depth + 1
      frames[depth] = chunk(info.source) .. ":" .. (info.currentline or -1) .. "\n"
      level = level + 1
    end
    -- outermost first, as jit.profile's dumpstack(thread, fmt, -depth) gives them
    local parts = {}
    for k = depth, 1, -1 do parts[#parts + 1] = frames[k] end
    local key = "?\t" .. concat(parts)
    samples[key] = (samples[key] or 0) + weight * 1000       -- in milliseconds
  end
  play_for(opts, master, seconds / 20, np, max_plies)
  sethook(take, "", 1000)
  last = clock()
  local ok, games, plies, spent = pcall(play_for, opts, master, seconds, np, max_plies)
  H.set_limit(P.limit_seconds())                           -- the usual hook again
  if jit_was_on then JIT.on() end
  if not ok then error(games, 0) end
  return sampler, samples, games, plies, spent
end

-- Random plies, one at a time, until `seconds` of CPU time have passed; each ply gets the time
-- limit afresh (a ply under the counting hooks can be fifty times slower than at full speed).
-- `each(state)` is called before each move is chosen.  At least one ply is played, however
-- short `seconds` (on a busy machine, the counting hooks' setup and first ply of a big game can
-- take longer than a short profile's counting pass).  Returns the games begun and the plies.
local function plies_for(opts, master, seconds, np, max_plies, each)
  local result = need("result")
  local Rng = P.Rng
  local chance = Rng.new({1, 1, 1, 1, 1, 1})
  local t0 = clock()
  local games, plies = 0, 0
  P.start_periods()
  while clock() - t0 < seconds or (plies == 0 and games < 100) do
    new_period()
    chance:reseed(master)
    local state = setup_with(opts, chance)
    games = games + 1
    local ply = 0
    while (clock() - t0 < seconds or plies == 0) and ply < max_plies do
      new_period()
      local res = result(state)
      if res ~= nil and res ~= false then break end
      if each then each(state) end
      state = play_with(state, random_move_of(state, master), chance)
      ply, plies = ply + 1, plies + 1
    end
  end
  return games, plies
end

-- The counting pass.  Who owns the memory allocated between two line events: the script line
-- that ran last (a call into the library, nomv.copy, is its line's), or nomv (the host).
local function counting(opts, master, seconds, np, max_plies)
  local script = P.script_source()
  local kinds = {}          -- function -> "script", "library", "host" or "C"
  local function kind_of(f, info)
    local k = kinds[f]
    if k == nil then
      info = info or getinfo(f, "S")
      local src = info.source
      if info.what == "C" then k = "C"
      elseif src == script then k = "script"
      elseif type(src) == "string" and ssub(src, 1, 11) == "@nomv/host/" or src == "@nomv/host.lua" then k = "host"
      else k = "library" end
      kinds[f] = k
    end
    return k
  end
  local hits, bytes, allocs = {}, {}, {}
  local calls, callers, library, tails = {}, {}, {}, {}
  local funcs = {}
  local owner = "host"
  local returned_to = nil   -- LuaJIT: the caller's line a call just returned to
  local kb, stopped_at = 0, 0
  local MAX_KB = 32 * 1024          -- a full collection each time this much more is in use

  -- The hook frame of the script code running at `level`: the outermost script function in
  -- the chain of script, library and C frames above the host (its linedefined).
  local function hook_of(level)
    local found = nil
    while true do
      local info = getinfo(level, "fS")
      if not info then return found end
      local k = kind_of(info.func, info)
      if k == "host" then return found end
      if k == "script" then found = info.linedefined end
      level = level + 1
    end
  end

  local function bump(t, key, sub)
    local row = t[key]
    if row == nil then row = {}; t[key] = row end
    row[sub] = (row[sub] or 0) + 1
  end

  -- The hook's own tables (getinfo makes one a call) are not the script's: the memory in use
  -- is read as the hook begins, and again as it ends.
  local function on_event(event, line)
    local now = gc("count")
    local delta = now - kb
    if delta > 0 then
      bytes[owner] = (bytes[owner] or 0) + delta * 1024
      allocs[owner] = (allocs[owner] or 0) + 1
    end
    if now - stopped_at > MAX_KB then
      gc("restart"); gc("collect"); gc("stop")
      stopped_at = gc("count")
    end
    if event == "line" then
      if line_tick() then count_hook() end                 -- (see P.line_tick)
      local k = kind_of(getinfo(2, "f").func)
      if k == "script" then
        owner = line
        -- LuaJIT calls the line hook again when a call returns to the middle of a line: not a
        -- second run of it.
        if line ~= returned_to then hits[line] = (hits[line] or 0) + 1 end
      elseif k == "host" then
        owner = "host"
      end
      returned_to = nil
    elseif event == "return" then
      -- Back in the caller: what is allocated next (the rest of its line) is its line's.
      local from = getinfo(3, "fSl")
      local k = from and kind_of(from.func, from) or "host"
      if k == "script" then
        owner = from.currentline
        if JIT_HOOKS then returned_to = from.currentline end
      elseif k == "host" then
        owner = "host"
      end
    elseif event == "call" or event == "tail call" then
      returned_to = nil
      local info = getinfo(2, "fS")
      local k = kind_of(info.func, info)
      if k == "script" or k == "library" then
        local from = getinfo(3, "fSl")
        local from_kind = from and kind_of(from.func, from) or "host"
        if k == "script" then
          funcs[info.linedefined] = info.lastlinedefined
          if from_kind == "host" then
            bump(calls, info.linedefined, "host")
            -- A tail call leaves no frame of the caller: the line that ran last, of the
            -- script, made it (a hook nomv calls comes after a line of nomv's).
            if type(owner) == "number" then bump(tails, info.linedefined, owner) end
          else
            bump(calls, info.linedefined, hook_of(3) or "host")
            if from_kind == "script" then bump(callers, info.linedefined, from.currentline) end
          end
        elseif from_kind == "script" then
          bump(library, chunk(info.source) .. ":" .. info.linedefined, from.currentline)
        end
      end
    end
    kb = gc("count")
  end

  local jit_was_on = false
  if type(JIT) == "table" then
    jit_was_on = JIT.status()
    JIT.off(); JIT.flush()
  end
  gc("collect"); gc("stop")
  kb = gc("count"); stopped_at = kb
  sethook(on_event, "crl")
  local ok, games, plies = pcall(plies_for, opts, master, seconds, np, max_plies, nil)
  H.set_limit(P.limit_seconds())
  gc("restart")
  if type(JIT) == "table" and jit_was_on then JIT.on(); JIT.flush() end
  if not ok then error(games, 0) end
  return {games = games, plies = plies, hits = hits, bytes = bytes, allocs = allocs,
          calls = calls, callers = callers, library = library, tails = tails, funcs = funcs}
end

-- The survey: moves a ply; for steps(), the longest list of next steps and the lengths of the
-- whole moves met while walking every partial move.
local function survey(opts, master, seconds, np, max_plies)
  local steps = P.game().steps
  local out = {plies = 0, moves = 0, longest_list = 0, lengths = {}, walked = 0}
  local function walk(state, partial, depth)
    local nexts = steps(state, partial)
    if nexts == nil then
      if depth > 0 then out.lengths[depth] = (out.lengths[depth] or 0) + 1 end
      return
    end
    if type(nexts) ~= "table" or depth >= (P.MAX_STEPS_DEPTH or 200) then return end
    if #nexts > out.longest_list then out.longest_list = #nexts end
    for i = 1, #nexts do
      partial[depth + 1] = nexts[i]
      walk(state, partial, depth + 1)
    end
    partial[depth + 1] = nil
  end
  local function each(state)
    out.plies = out.plies + 1
    out.moves = out.moves + #P.list_moves(state)
    if type(steps) == "function" then out.walked = out.walked + 1; walk(state, {}, 0) end
  end
  plies_for(opts, master, seconds, np, max_plies, each)
  local lengths = {}
  for k, n in pairs(out.lengths) do lengths[#lengths + 1] = {k, n} end
  out.lengths = lengths
  return out
end

-- Every function of the script reachable from the game table (and their upvalues): the line
-- ranges that tell which function a line of a sample belongs to.
local function script_functions()
  local script, out, seen = P.script_source(), {}, {}
  local function visit(v)
    if seen[v] then return end
    local t = type(v)
    if t == "table" then
      seen[v] = true
      for k, x in next, v do visit(k); visit(x) end
    elseif t == "function" then
      seen[v] = true
      local info = getinfo(v, "S")
      if info.source == script and info.what ~= "main" then out[info.linedefined] = info.lastlinedefined end
      local i = 1
      while true do
        local name, up = getupvalue(v, i)
        if name == nil then break end
        visit(up)
        i = i + 1
      end
    end
  end
  visit(P.game())
  return out
end

-- Pairs {key, value} of a table keyed by numbers or strings (JSON objects have text keys).
local function pairs_of(t)
  local out = {}
  for k, v in pairs(t) do out[#out + 1] = {k, v} end
  return out
end

-- profile(opts, seed, seconds, np, max_plies, full): the timing pass, and with `full` the
-- counting pass and the survey; JSON for nomv/profile.py.
function H.profile(opts, seed, seconds, np, max_plies, full)
  return guarded("playout", function()
    local master = P.Rng.new(seed)
    need("setup"); need("play"); need("result")
    local sampler, samples, games, plies, spent = timing(opts, master, seconds, np, max_plies)
    local out = {sampler = sampler, samples = pairs_of(samples), games = games, plies = plies,
                 seconds = spent}
    local funcs = script_functions()
    if full then
      local counted = counting(opts, master, math.min(1.0, seconds / 3), np, max_plies)
      for first, last in pairs(counted.funcs) do funcs[first] = last end
      out.survey = survey(opts, master, math.min(0.5, seconds / 6), np, max_plies)
      local calls, callers, library, tails = {}, {}, {}, {}
      for f, by in pairs(counted.tails) do tails[#tails + 1] = {f, pairs_of(by)} end
      for f, by in pairs(counted.calls) do calls[#calls + 1] = {f, pairs_of(by)} end
      for f, by in pairs(counted.callers) do callers[#callers + 1] = {f, pairs_of(by)} end
      for f, by in pairs(counted.library) do library[#library + 1] = {f, pairs_of(by)} end
      out.counted = {games = counted.games, plies = counted.plies, hits = pairs_of(counted.hits),
                     bytes = pairs_of(counted.bytes), allocs = pairs_of(counted.allocs),
                     calls = calls, callers = callers, library = library, tails = tails}
    end
    out.functions = pairs_of(funcs)
    return to_json(out, "profile")
  end)
end
