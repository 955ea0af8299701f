-- The trusted side of one Lua runtime.  It runs with the full standard library, builds the
-- allow-listed environment for one game script, loads the script, and answers the Python host's
-- requests.  Every request returns `true, value` or `false, error-as-JSON`, so that Python never
-- sees a Lua error object and every value crossing over is plain data (the same protocol works
-- across a process boundary).
--
-- Everything the script could tamper with (string methods, the `nomv` library) is captured as a
-- local here before the script runs.

local type, pairs, next, ipairs, tostring, tonumber, select = type, pairs, next, ipairs, tostring, tonumber, select
local error, pcall, xpcall, setmetatable, getmetatable = error, pcall, xpcall, setmetatable, getmetatable
local rawget, rawset, rawequal, unpack = rawget, rawset, rawequal, table.unpack or unpack
local floor, huge, min, abs = math.floor, math.huge, math.min, math.abs
local format, sfind, ssub, sbyte, gsub, srep = string.format, string.find, string.sub, string.byte, string.gsub, string.rep
local smatch = string.match
local concat, tsort = table.concat, table.sort
local clock = os.clock
local sethook, getinfo, traceback = debug.sethook, debug.getinfo, debug.traceback
local load = load
local IS_JIT = type(jit) == "table"

local H = {}

---------------------------------------------------------------------------------------------
-- Limits.  A count hook checks a deadline; errors raised for a limit are this unique table, so
-- that a script's own pcall cannot swallow them.  (In LuaJIT the hook does not fire inside
-- compiled traces; the Python side documents that and can run scripts in a killable worker.)

local LIMIT = setmetatable({}, {__tostring = function() return "time limit" end, __metatable = false})

-- Caps on what a script can hand to Python, so that a hostile script cannot exhaust the host
-- process (or the window drawing its scene) with a reply that fits in the script's own memory.
local MAX_JSON = 8 * 1024 * 1024    -- bytes of one reply (moves, scene, state, ...)
local MAX_MOVES = 100000            -- legal moves in one position
local MAX_STEP = 1000               -- characters of one step id
local MAX_SCENE_ITEMS = 20000       -- items in one scene
local MAX_SCENE_NUMBER = 1e6        -- |coordinate|, size, width of a scene item (board units)
local MAX_TEXT = 1024 * 1024        -- characters of text() and other strings returned as such
local MAX_MESSAGE = 2000            -- characters of an error message
local MAX_LABEL = 1000              -- characters of a notation, scene text or label, status, reason
                                    -- (the window measures and wraps them every frame)
local deadline, limit_seconds = huge, 5
-- Loops of many short periods (a playout's games) count them in `period` instead of calling
-- arm() for each: reading the CPU clock is a system call of about half a microsecond, more than
-- a whole random game of tic-tac-toe.  The hook starts a period's deadline when it first fires
-- in it, so each period still gets the whole limit (plus at most the hook's 10000 instructions).
local period, armed_period = 0, 0
local function hook()
  if period ~= armed_period then
    armed_period = period
    if deadline < huge then deadline = clock() + limit_seconds end
  elseif clock() > deadline then error(LIMIT, 0) end
end
-- In a worker process (nomv/worker.py) the parent also watches the time, and kills the worker
-- when the hook cannot fire (LuaJIT's compiled loops).  `beat` tells the parent that a new
-- period began (a new playout game, a new perft node), at most every 50 ms of CPU time since
-- crossing into Python costs more than the rest of arm().
local beat, last_beat = nil, -huge
local function arm()
  local now = clock()
  deadline = limit_seconds > 0 and now + limit_seconds or huge
  armed_period = period
  if beat ~= nil and now - last_beat >= 0.05 then last_beat = now; beat() end
  return now
end
local function disarm() deadline = huge end

-- Starts the next short period without reading the clock.  Only a watching parent needs the
-- clock (for beats): it is read every `stride` periods, a stride that adapts so that happens
-- about every millisecond.  start_periods() begins a loop of them.
local stride, countdown, stride_start = 1, 1, 0
local function start_periods()
  stride, countdown, stride_start = 1, 1, clock()
end
local function new_period()
  period = period + 1
  if beat == nil then return end
  countdown = countdown - 1
  if countdown > 0 then return end
  local now = clock()
  local took = now - stride_start
  if took < 0.001 then stride = min(stride * 2, 4096)
  elseif took > 0.004 and stride > 1 then stride = floor(stride / 2) end
  countdown, stride_start = stride, now
  if now - last_beat >= 0.05 then last_beat = now; beat() end
end

function H.set_beat(f)
  beat = f
  return true
end

function H.set_limit(seconds)
  limit_seconds = seconds
  if seconds > 0 then sethook(hook, "", 10000) else sethook() end
  return true
end

---------------------------------------------------------------------------------------------
-- JSON out.  Tables whose keys are exactly 1..n become arrays, others objects with sorted keys
-- (so two equal states give equal text on either runtime).  Functions, cycles, NaN and infinities
-- are refused with the path where they sit.

local function utf8_clean(s)
  if not sfind(s, "[\128-\255]") then return s end
  local out, i, n = {}, 1, #s
  while i <= n do
    local c = sbyte(s, i)
    local len = c < 0x80 and 1 or (c >= 0xC2 and c <= 0xDF) and 2 or (c >= 0xE0 and c <= 0xEF) and 3
                or (c >= 0xF0 and c <= 0xF4) and 4 or 0
    local ok = len > 0 and i + len - 1 <= n
    for k = i + 1, i + len - 1 do
      if ok then local b = sbyte(s, k); ok = b >= 0x80 and b <= 0xBF end
    end
    if ok then out[#out + 1] = ssub(s, i, i + len - 1); i = i + len
    else out[#out + 1] = "?"; i = i + 1 end
  end
  return concat(out)
end

local ESC = {['"'] = '\\"', ['\\'] = '\\\\', ['\n'] = '\\n', ['\r'] = '\\r', ['\t'] = '\\t'}
local function jstring(s, path)
  if #s > MAX_JSON then
    error({plain = format("%s is a string of %d characters, too large to hand over (at most %d)", path, #s, MAX_JSON)}, 0)
  end
  s = utf8_clean(s)
  return '"' .. gsub(s, '[%c"\\]', function(c)
    return ESC[c] or format("\\u%04x", sbyte(c))
  end) .. '"'
end

local function jnumber(x, path)
  -- (NaN prints as "nan" or "-nan" depending on the runtime and platform: name it ourselves.)
  if x ~= x then error({plain = format("%s is NaN, not a finite number", path)}, 0) end
  if x == huge or x == -huge then
    error({plain = format("%s is %sinfinity, not a finite number", path, x < 0 and "-" or "")}, 0)
  end
  if x == floor(x) and abs(x) < 2 ^ 53 then return format("%d", x) end
  return format("%.17g", x)
end

local function keyless(a, b)
  local ta, tb = type(a), type(b)
  if ta ~= tb then return ta == "number" end
  return a < b
end

local encode
function encode(v, buf, path, onpath, depth)
  local t = type(v)
  if t == "string" then buf[#buf + 1] = jstring(v, path)
  elseif t == "number" then buf[#buf + 1] = jnumber(v, path)
  elseif t == "boolean" then buf[#buf + 1] = v and "true" or "false"
  elseif t == "nil" then buf[#buf + 1] = "null"
  elseif t == "table" then
    if onpath[v] then error({plain = path .. " contains itself (a cycle)"}, 0) end
    if depth > 100 then error({plain = path .. " is nested more than 100 levels deep"}, 0) end
    onpath[v] = true
    -- Raw access only (next, rawget, no #): a script's __len or __index metamethods must not
    -- run here, and both runtimes must see the same table.
    local count, n = 0, 0
    for k in next, v do count = count + 1 end
    while n < count and rawget(v, n + 1) ~= nil do n = n + 1 end
    if count == n then
      buf[#buf + 1] = "["
      for i = 1, n do
        if i > 1 then buf[#buf + 1] = "," end
        encode(rawget(v, i), buf, path .. "[" .. i .. "]", onpath, depth + 1)
      end
      buf[#buf + 1] = "]"
    else
      local keys = {}
      for k in next, v do
        local tk = type(k)
        if tk ~= "string" and tk ~= "number" then
          error({plain = format("%s has a %s as a key", path, tk)}, 0)
        end
        keys[#keys + 1] = k
      end
      tsort(keys, keyless)
      buf[#buf + 1] = "{"
      for i, k in ipairs(keys) do
        if i > 1 then buf[#buf + 1] = "," end
        local ks = type(k) == "number" and jnumber(k, path) or k
        buf[#buf + 1] = jstring(ks, path)
        buf[#buf + 1] = ":"
        encode(rawget(v, k), buf, type(k) == "number" and (path .. "[" .. ks .. "]") or (path .. "." .. k), onpath, depth + 1)
      end
      buf[#buf + 1] = "}"
    end
    onpath[v] = nil
  else
    error({plain = format("%s is a %s; only plain data (tables, strings, numbers, booleans) can leave a script", path, t)}, 0)
  end
end

local function to_json(v, path)
  local buf = {}
  encode(v, buf, path or "value", {}, 0)
  local text = concat(buf)
  if #text > MAX_JSON then
    error({plain = format("%s is too large to hand over (%d bytes; at most %d)", path or "value", #text, MAX_JSON)}, 0)
  end
  return text
end
H.to_json = to_json

---------------------------------------------------------------------------------------------
-- Errors.  A message handler turns any error into {message, line, kind} where line is the
-- innermost line of the game script on the stack, so errors inside the library still point at
-- the author's own code.

local script_source, script_path = nil, nil
local hook_name = nil

local function script_line(level)
  while true do
    local info = getinfo(level, "Sl")
    if not info then return nil end
    if info.source == script_source and info.currentline and info.currentline > 0 then
      return info.currentline
    end
    level = level + 1
  end
end

local function strip_location(msg)
  -- "path:12: text" -> "text", 12.  Lua shortens long chunk names to "...end/of/path".
  -- (smatch, not msg:match: string methods are the script's to look up, see make_env)
  local src, line, rest = smatch(msg, "^(.-):(%d+): (.*)$")
  if not src then return msg end
  if script_path and (src == script_path or
      (ssub(src, 1, 3) == "..." and ssub(script_path, -(#src - 3)) == ssub(src, 4))) then
    return rest, tonumber(line)
  end
  if smatch(src, "nomv/[%w_]+%.lua$") then return rest end
  return msg
end

-- A message of reasonable length: a script could raise an error of a hundred megabytes.
local function short_message(m)
  if type(m) ~= "string" or #m <= MAX_MESSAGE + 100 then return m end  -- (+100: once cut, stays)
  return ssub(m, 1, MAX_MESSAGE) .. format("... (cut: the message has %d characters)", #m)
end

local function handler(e)
  if rawequal(e, LIMIT) then
    return {kind = "time", message = format("took longer than %g seconds (the time limit)", limit_seconds),
            line = script_line(3), hook = hook_name}
  end
  if type(e) == "table" and type(rawget(e, "plain")) == "string" then
    return {kind = "error", message = e.plain, line = script_line(3), hook = hook_name}
  end
  local msg = type(e) == "string" and e or ("error object " .. tostring(type(e) == "table" and "(a table)" or e))
  if msg == "not enough memory" then
    return {kind = "memory", message = "used more memory than the limit allows", hook = hook_name}
  end
  local text, line = strip_location(msg)
  return {kind = "error", message = short_message(text), line = line or script_line(3), hook = hook_name,
          traceback = traceback("", 2)}
end

local function failure(err)
  if type(err) == "table" and err.kind == nil then
    err = {kind = "error", message = tostring(rawget(err, "plain")), hook = hook_name}
  elseif type(err) == "string" then  -- the handler did not run (memory errors skip it)
    if err == "not enough memory" then
      err = {kind = "memory", message = "used more memory than the limit allows", hook = hook_name}
    else
      local text, line = strip_location(err)
      err = {kind = "error", message = text, line = line, hook = hook_name}
    end
  end
  err.traceback = nil
  err.message = short_message(err.message)
  if err.hook == nil then err.hook = hook_name end
  local ok, text = pcall(to_json, err)
  if not ok then text = '{"kind":"error","message":"an error that could not be described"}' end
  return false, text
end

local function pack(...) return {n = select("#", ...), ...} end

-- Runs f(...) as request `name` under the limits; returns true, results... or false, json.
local function guarded(name, f, ...)
  hook_name = name
  arm()
  local r = pack(xpcall(f, handler, ...))
  disarm()
  if r[1] then return unpack(r, 1, r.n) end
  return failure(r[2])
end

-- An error that the host reports as a broken contract (not an error raised in the script).
local function contract(msg) error({plain = msg}, 0) end

---------------------------------------------------------------------------------------------
-- The sandbox.

local FORBIDDEN = {
  io = "io (files) is not available to game scripts",
  os = "os (system access, time) is not available to game scripts",
  require = "require is not available: a game is one script; use the `nomv` library",
  package = "package is not available to game scripts",
  dofile = "dofile is not available to game scripts",
  loadfile = "loadfile is not available to game scripts",
  load = "load is not available to game scripts",
  loadstring = "loadstring is not available to game scripts",
  debug = "debug is not available to game scripts",
  ffi = "ffi is not available to game scripts",
  jit = "jit is not available to game scripts",
  python = "python is not available to game scripts",
  collectgarbage = "collectgarbage is not available to game scripts",
  getfenv = "getfenv is not available to game scripts",
  setfenv = "setfenv is not available to game scripts",
  rawset = "rawset is not available to game scripts",
  newproxy = "newproxy is not available to game scripts",
  module = "module is not available to game scripts",
  coroutine = "coroutine is not available to game scripts",
  utf8 = "utf8 is not available to game scripts (it differs between runtimes)",
  bit = "use nomv.bit: it works the same on every runtime",
  bit32 = "use nomv.bit: it works the same on every runtime",
}

local function distance(a, b)
  if #a > 40 or #b > 40 then return 99 end
  local prev = {}
  for j = 0, #b do prev[j] = j end
  for i = 1, #a do
    local cur = {[0] = i}
    for j = 1, #b do
      local cost = ssub(a, i, i) == ssub(b, j, j) and 0 or 1
      cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
    end
    prev = cur
  end
  return prev[#b]
end

local function suggest(name, candidates)
  local best, bestd = nil, 3
  for _, c in ipairs(candidates) do
    local d = distance(name, c)
    if d < bestd then best, bestd = c, d end
  end
  return best and format(" (did you mean '%s'?)", best) or ""
end

-- A read-only view of a table: reads pass through, writes and metatable changes fail.
local function readonly(t, name)
  local proxy = {}
  for k, v in pairs(t) do
    if type(v) == "table" and getmetatable(v) == nil then t[k] = readonly(v, name .. "." .. k) end
  end
  local keys = {}
  for k in pairs(t) do if type(k) == "string" then keys[#keys + 1] = k end end
  tsort(keys)
  return setmetatable(proxy, {
    __index = function(_, k)
      local v = t[k]
      if v == nil then
        error(format("%s.%s does not exist%s", name, tostring(k), suggest(tostring(k), keys)), 2)
      end
      return v
    end,
    __newindex = function(_, k) error(format("%s is read-only (tried to set %s)", name, tostring(k)), 2) end,
    __metatable = false,
  })
end

-- A standard library for the script: a read-only view of a copy without the removed members.
-- Read-only because strings index it (("x"):rep(3)), and the host must not find a script's
-- function behind a string method.  Lookups go proxy -> copy through __index *tables*, which
-- both runtimes follow without a function call (string methods stay fast).
local function safe_library(src, name, remove, extra)
  local copy, keys = {}, {}
  for k, v in pairs(src) do
    if not remove[k] then copy[k] = v end
  end
  for k, v in pairs(extra or {}) do copy[k] = v end
  for k in pairs(copy) do keys[#keys + 1] = k end
  tsort(keys)
  setmetatable(copy, {
    __index = function(_, k)
      if remove[k] then error(format("%s.%s %s", name, tostring(k), remove[k]), 2) end
      error(format("%s.%s does not exist%s", name, tostring(k), suggest(tostring(k), keys)), 2)
    end,
    __metatable = false,
  })
  return setmetatable({}, {
    __index = copy,
    __newindex = function(_, k) error(format("%s is read-only (tried to set %s)", name, tostring(k)), 2) end,
    __metatable = false,
  })
end

local printed = {}
local function script_print(...)
  local parts = {}
  for i = 1, select("#", ...) do parts[i] = tostring((select(i, ...))) end
  if #printed < 1000 then printed[#printed + 1] = ssub(concat(parts, "\t"), 1, 2000) end
end

function H.printed()
  local out = printed
  printed = {}
  return true, to_json(out)
end

-- A script's pcall and xpcall cannot swallow a limit: past the deadline, any failure (even
-- LuaJIT's "error in error handling" from a handler that ran over the limit) is the limit, and
-- running out of memory stays an error (else a loop of failing allocations would end as a hang).
local function rethrow_limits(ok, ...)
  if not ok then
    local e = ...
    if rawequal(e, LIMIT) or clock() > deadline then error(LIMIT, 0) end
    if e == "not enough memory" then error(e, 0) end
  end
  return ok, ...
end

local function make_env(nomv)
  local string_safe = safe_library(string, "string", {dump = "is not available to game scripts"})
  local env = {
    assert = assert, error = error, ipairs = ipairs, next = next, pairs = pairs,
    select = select, tonumber = tonumber, tostring = tostring, type = type,
    unpack = unpack, rawequal = rawequal, rawget = rawget, print = script_print,
    pcall = function(f, ...) return rethrow_limits(pcall(f, ...)) end,
    xpcall = function(f, h, ...)
      return rethrow_limits(xpcall(f, function(e)
        if rawequal(e, LIMIT) then return e end
        return h(e)
      end, ...))
    end,
    getmetatable = function(v)
      if type(v) ~= "table" then return nil end
      return getmetatable(v)
    end,
    setmetatable = function(t, mt)
      if type(t) ~= "table" then error("setmetatable: the first argument must be a table", 2) end
      if type(mt) == "table" and rawget(mt, "__gc") ~= nil then
        error("setmetatable: __gc finalizers are not allowed in game scripts", 2)
      end
      return setmetatable(t, mt)
    end,
    math = safe_library(math, "math", {
      random = "is not available: use the rng passed to setup, play and random_move, so games replay",
      randomseed = "is not available: the runtime seeds the rng it passes to setup and play",
    }),
    string = string_safe,
    table = safe_library(table, "table", {}, {unpack = unpack}),
    nomv = nomv,
  }
  env._G = env
  -- Strings index the safe string table, so ("x"):dump() is refused like string.dump.
  local smt = getmetatable("")
  smt.__index = string_safe
  smt.__metatable = false
  local loading = true
  local names = {}
  for k in pairs(env) do names[#names + 1] = k end
  tsort(names)
  setmetatable(env, {
    __index = function(_, k)
      if FORBIDDEN[k] then error(FORBIDDEN[k], 2) end
      error(format("undefined variable '%s'%s", tostring(k), suggest(tostring(k), names)), 2)
    end,
    __newindex = function(t, k, v)
      if not loading then
        error(format("cannot set global '%s' after loading: keep game data in the state", tostring(k)), 2)
      end
      if FORBIDDEN[k] or k == "nomv" then error(format("cannot redefine '%s'", tostring(k)), 2) end
      names[#names + 1] = k
      rawset(t, k, v)
    end,
    __metatable = false,
  })
  return env, function() loading = false end
end

---------------------------------------------------------------------------------------------
-- The library and the game.

local Rng            -- the rng module
local game_rng       -- one reusable generator for chance inside play()
local nomv_lib       -- the read-only `nomv` table the script sees
local G              -- the loaded game table
local search_source  -- nomv/lua/search.lua, compiled at the first search
local Search
local FIELDS = {"name", "title", "info", "players", "options", "variants", "check", "setup",
                "moves", "play", "result", "to_move", "scene", "notation", "parse",
                "random_move", "view", "determinize", "text", "grid", "pieces", "evaluate"}
local HOOKS = {check = true, setup = true, moves = true, play = true, result = true,
               to_move = true, scene = true, notation = true, parse = true, random_move = true,
               view = true, determinize = true, text = true, evaluate = true}

-- libs: {name = source} for rng, util, grid.
function H.init(libs)
  search_source = libs.search
  local function lib(name)
    local f, err = load(libs[name], "@nomv/" .. name .. ".lua", "t")
    if not f then error(err) end
    return f()
  end
  Rng = lib("rng")
  local util = lib("util")
  local grid = lib("grid")
  if IS_JIT then
    -- LuaJIT's bit library answers in signed 32 bits; shift the results into 0..2^32-1.
    local bitlib = bit
    local function u(x) if x < 0 then return x + 4294967296 end return x end
    local slow = util.bit
    util.bit = {
      band = function(a, b) return u(bitlib.band(a, b)) end,
      bor = function(a, b) return u(bitlib.bor(a, b)) end,
      bxor = function(a, b) return u(bitlib.bxor(a, b)) end,
      lshift = slow.lshift, rshift = slow.rshift, test = slow.test,
    }
  else
    local ops = load("return function(a, b) return a & b end, function(a, b) return a | b end, "
                  .. "function(a, b) return a ~ b end", "=bitops", "t")
    local band, bor, bxor = ops()
    util.bit.band, util.bit.bor, util.bit.bxor = band, bor, bxor
  end
  game_rng = Rng.new({1, 1, 1, 1, 1, 1})
  local lib_table = {grid = grid}
  for k, v in pairs(util) do lib_table[k] = v end
  nomv_lib = readonly(lib_table, "nomv")
  return true
end

local function describe(v)
  if type(v) == "string" then
    if #v > 60 then return format("%q... (%d characters)", ssub(v, 1, 60), #v) end
    return format("%q", v)
  end
  return tostring(v)
end

local function plain_copy(v, path, depth)
  -- Copies the data part of a table for describing the game to Python (functions dropped).
  if type(v) ~= "table" then
    if type(v) == "function" then return nil end
    return v
  end
  if depth > 20 then return nil end
  local out = {}
  for k, x in next, v do
    if type(k) == "string" or type(k) == "number" then
      local c = plain_copy(x, path, depth + 1)
      if c ~= nil then out[k] = c end
    end
  end
  return out
end

-- Loads a game script; returns true, description-as-JSON.
function H.load(source, path)
  script_path = path
  script_source = "@" .. path
  hook_name = "load"
  if type(source) ~= "string" then return failure({kind = "error", message = "no source"}) end
  if ssub(source, 1, 1) == "\27" then
    return failure({kind = "error", message = "binary (precompiled) chunks are not accepted; give the Lua source", line = 1})
  end
  local env, done_loading = make_env(nomv_lib)
  local chunk, err = load(source, script_source, "t", env)
  if not chunk then
    local text, line = strip_location(err)
    return failure({kind = "syntax", message = text, line = line})
  end
  local ok, game = guarded("load", chunk)
  done_loading()
  if not ok then return false, game end
  if type(game) ~= "table" then
    return failure({kind = "error", message = format("the script must return a table (the game), but it returned %s", describe(game))})
  end
  if getmetatable(game) ~= nil then
    -- The host reads the game table outside the time limit (below, and to see which hooks
    -- exist): an __index or __pairs there would run the script unguarded.
    return failure({kind = "error", message = "the game table must be a plain table, without a metatable"})
  end
  G = game
  local fields, hooks, unknown = {}, {}, {}
  local known = {}
  for _, f in ipairs(FIELDS) do known[f] = true end
  for k, v in pairs(game) do
    if type(k) == "string" then
      fields[#fields + 1] = k
      if type(v) == "function" then hooks[#hooks + 1] = k end
      if not known[k] then unknown[#unknown + 1] = k end
    end
  end
  tsort(fields); tsort(hooks); tsort(unknown)
  local lines = {}
  for _, h in ipairs(hooks) do
    local info = getinfo(game[h], "S")
    if info.source == script_source then lines[h] = info.linedefined end
  end
  local desc = {
    name = game.name, title = game.title, info = plain_copy(game.info, "info", 0),
    players = plain_copy(game.players, "players", 0), options = plain_copy(game.options, "options", 0),
    variants = plain_copy(game.variants, "variants", 0), fields = fields, hooks = hooks,
    unknown = unknown, hook_lines = lines,
    types = {},
  }
  for _, k in ipairs(fields) do desc.types[k] = type(game[k]) end
  local okj, text = pcall(to_json, desc, "game")
  if not okj then return failure(text) end
  return true, text
end

---------------------------------------------------------------------------------------------
-- Calling the game's hooks.


local function need(name)
  local f = G[name]
  if type(f) ~= "function" then contract(format("the game has no %s function", name)) end
  return f
end

-- setup() and play() with a generator for their chance, checking what they return.
local function setup_with(opts, rng)
  local state = need("setup")(opts, rng)
  if type(state) ~= "table" then
    contract(format("setup must return a table (the state), but it returned %s", describe(state)))
  end
  return state
end

local function play_with(state, mv, rng)
  local new = G.play(state, mv, rng)
  if type(new) ~= "table" then
    contract(format("play must return the next state (a table), but it returned %s", describe(new)))
  end
  return new
end

local function new_state(opts, rng)
  local state = setup_with(opts, rng)
  state._rng = rng:save()
  return state
end

local function check_move(mv, i)
  if type(mv) ~= "table" then
    contract(format("moves() item %d is a %s, not a move (a list of step ids)", i, type(mv)))
  end
  local n = #mv
  if n == 0 then contract(format("moves() item %d is an empty move: a move needs at least one step", i)) end
  for k = 1, n do
    local s = mv[k]
    if type(s) ~= "string" or s == "" or sfind(s, "[%c]") then
      contract(format("moves() item %d, step %d is %s: steps must be non-empty strings (the ids of what the player clicks)", i, k, describe(s)))
    end
    if #s > MAX_STEP then
      contract(format("moves() item %d, step %d is %d characters long; a step id may have at most %d", i, k, #s, MAX_STEP))
    end
  end
end

local function list_moves(state)
  local ms = need("moves")(state)
  if type(ms) ~= "table" then contract(format("moves must return a list, but it returned %s", describe(ms))) end
  return ms
end

-- How many plays drew from their rng: a search must not foresee chance (nomv/lua/search.lua).
local chance_plays = 0

local function do_play(state, mv)
  game_rng:load(state._rng)
  local new = play_with(state, mv, game_rng)
  if game_rng.used then new._rng = game_rng:save(); chance_plays = chance_plays + 1
  elseif new._rng == nil then new._rng = state._rng end
  return new
end

local function who_moves(state)
  if G.to_move then return G.to_move(state) end
  return state.to_move
end

-- Hooks whose answers are checked the same way wherever nomv asks them: in a request, for the
-- checker, in a search (nomv/lua/search.lua).

-- The player to move, or nil (the game is over).
local function checked_mover(state, np)
  local p = who_moves(state)
  if p ~= nil and (type(p) ~= "number" or p ~= floor(p) or p < 1 or p > np) then
    contract(format("to_move must be a player number from 1 to %d, got %s", np, describe(p)))
  end
  return p
end

local function checked_view(state, player)
  local v = G.view(state, player)
  if type(v) ~= "table" then contract(format("view must return a state (a table), got %s", describe(v))) end
  return v
end

local function checked_determinize(view, player, rng)
  local d = G.determinize(view, player, rng)
  if type(d) ~= "table" then contract(format("determinize must return a state (a table), got %s", describe(d))) end
  return d
end

local function checked_evaluate(state, player)
  local v = G.evaluate(state, player)
  if type(v) ~= "number" or v ~= v or v < 0 or v > 1 then
    contract(format("evaluate must return a number from 0 (lost) to 1 (won) for player %d, got %s", player, describe(v)))
  end
  return v
end

-- A function of its own, not a closure inside rank(): LuaJIT cannot compile the creation of a
-- closure, and rank() runs at the end of every random playout.
local function valid_player(p, what, np)
  if type(p) ~= "number" or p ~= floor(p) or p < 1 or p > np then
    contract(format("result: %s must be a player number from 1 to %d, got %s", what, np, describe(p)))
  end
end

-- Checks a table from result() and fills ranks[1..np] from it; returns the winner (nil unless
-- exactly one player ranks first) and how many players rank first.  It allocates nothing, so a
-- playout can tally its games with one scratch table.
local function rank(res, np, ranks)
  if type(res) ~= "table" then
    contract(format("result must return nil or a table like {winner=1}, {draw=true} or {scores={...}}, not %s", describe(res)))
  end
  local scores, given_ranks, given_winner = res.scores, res.ranks, res.winner
  if scores ~= nil then
    if type(scores) ~= "table" or #scores ~= np then
      contract(format("result: scores must be a list of %d numbers, one per player", np))
    end
    for p = 1, np do
      if type(scores[p]) ~= "number" then contract(format("result: scores[%d] is %s, not a number", p, describe(scores[p]))) end
    end
  end
  if given_ranks ~= nil then
    if type(given_ranks) ~= "table" or #given_ranks ~= np then contract(format("result: ranks must be a list of %d numbers", np)) end
    for p = 1, np do
      local r = given_ranks[p]
      if type(r) ~= "number" or r ~= floor(r) or r < 1 or r > 1e6 then
        contract(format("result: ranks[%d] is %s; a rank is a whole number, 1 for the best", p, describe(r)))
      end
      ranks[p] = r
    end
  elseif given_winner ~= nil then
    valid_player(given_winner, "winner", np)
    for p = 1, np do ranks[p] = p == given_winner and 1 or 2 end
  elseif res.draw then
    for p = 1, np do ranks[p] = 1 end
  elseif scores ~= nil then
    for p = 1, np do
      local better = 0
      for q = 1, np do if scores[q] > scores[p] then better = better + 1 end end
      ranks[p] = better + 1
    end
  else
    contract("result returned a table without winner, draw, scores or ranks")
  end
  local winner, firsts = nil, 0
  for p = 1, np do if ranks[p] == 1 then firsts = firsts + 1; winner = p end end
  if firsts ~= 1 then winner = nil end
  if given_winner ~= nil and winner ~= given_winner then contract("result: winner and ranks disagree") end
  return winner, firsts
end

-- Normalises what result() returned: {winner, ranks, scores, reason} or nil while running.
local function outcome(res, np)
  if res == nil or res == false then return nil end
  local ranks = {}
  local winner, firsts = rank(res, np, ranks)
  -- shared: several players tie for first (a draw); no one first at all means everyone lost.
  if type(res.reason) == "string" and #res.reason > MAX_LABEL then
    contract(format("result: reason is %d characters long; at most %d", #res.reason, MAX_LABEL))
  end
  return {winner = winner, ranks = ranks, scores = res.scores, reason = res.reason,
          shared = firsts > 1 or nil}
end

local move_cache = setmetatable({}, {__mode = "k"})
local LISTING = {}  -- in move_cache while a position's moves are being listed

local function cached_moves(state)
  local ms = move_cache[state]
  if ms == LISTING then
    -- The last listing failed.  Not again: a failure can be costly (a stack overflow takes
    -- Lua 5.4 a second), and the notations asked with the moves would double it.
    hook_name = "moves"
    contract("moves failed on this position already (see its first error)")
  end
  if not ms then
    move_cache[state] = LISTING
    -- Errors while listing are errors of moves(), whichever request needed the list.
    local asked = hook_name
    hook_name = "moves"
    ms = list_moves(state)
    if #ms > MAX_MOVES then
      contract(format("moves returned %d moves; a position may have at most %d", #ms, MAX_MOVES))
    end
    for i = 1, #ms do check_move(ms[i], i) end
    move_cache[state] = ms
    hook_name = asked
  end
  return ms
end

function H.setup(opts, seed)
  return guarded("setup", function()
    return new_state(opts, Rng.new(seed))
  end)
end

function H.check(opts, given)
  if type(G.check) ~= "function" then return true, nil end
  return guarded("check", function()
    local msg = G.check(opts, given)
    if msg ~= nil and type(msg) ~= "string" then contract("check must return nil or an error message (a string)") end
    return short_message(msg)
  end)
end

local function encode_move(mv)
  local steps = {}
  for k = 1, #mv do steps[k] = mv[k] end
  if mv.any_order or mv.label then
    return {steps = steps, any_order = mv.any_order and true or nil,
            label = mv.label ~= nil and tostring(mv.label) or nil}
  end
  return steps
end

function H.moves(state)
  return guarded("moves", function()
    local ms = cached_moves(state)
    local out = {}
    for i = 1, #ms do out[i] = encode_move(ms[i]) end
    return to_json(out, "moves")
  end)
end

function H.play(state, index)
  return guarded("play", function()
    local mv = cached_moves(state)[index]
    if not mv then contract("no legal move number " .. tostring(index)) end
    return do_play(state, mv)
  end)
end

function H.result(state, np)
  return guarded("result", function()
    local o = outcome(need("result")(state), np)
    if o == nil then return nil end
    return to_json(o, "result")
  end)
end

function H.to_move(state, np)
  return guarded("to_move", function() return checked_mover(state, np) end)
end

-- The default notation: the steps joined by "-".
local function default_notation(mv)
  local steps = {}
  for k = 1, #mv do steps[k] = mv[k] end
  return concat(steps, "-")
end

function H.notations(state)
  return guarded("notation", function()
    local ms = cached_moves(state)
    local out = {}
    for i = 1, #ms do
      local text = G.notation and G.notation(state, ms[i]) or default_notation(ms[i])
      if type(text) ~= "string" or text == "" then
        contract(format("notation must return a non-empty string, got %s", describe(text)))
      end
      if #text > MAX_LABEL then
        contract(format("notation returned %d characters; at most %d", #text, MAX_LABEL))
      end
      out[i] = text
    end
    return to_json(out, "notation")
  end)
end

local function move_key(mv)
  local steps = {}
  for k = 1, #mv do steps[k] = tostring(mv[k]) end
  if mv.any_order then tsort(steps) end
  return concat(steps, "\n")
end

-- Uses the game's parse(): returns the index of the legal move it names, or nil and why not.
function H.parse(state, text)
  if type(G.parse) ~= "function" then return true, nil end
  return guarded("parse", function()
    local mv, why = G.parse(state, text)
    if mv == nil then return nil, why and short_message(tostring(why)) or nil end
    if type(mv) ~= "table" then contract(format("parse must return a move (a list of steps) or nil, got %s", describe(mv))) end
    local ms = cached_moves(state)
    local key = move_key(mv)
    for i = 1, #ms do
      local k = move_key(ms[i])
      if k == key then return i end
      if ms[i].any_order then
        local sorted = {}
        for s = 1, #mv do sorted[s] = tostring(mv[s]) end
        tsort(sorted)
        if concat(sorted, "\n") == k then return i end
      end
    end
    return nil   -- the game read the text, but the move is not legal: the host says which are
  end)
end

local function default_scene(state)
  local grid, pieces = G.grid, G.pieces
  if type(grid) ~= "table" or type(grid.scene) ~= "function" then
    contract("the game has no scene function and no grid to draw")
  end
  local items = grid:scene()
  local board = state.board
  if type(board) == "table" and type(pieces) == "table" then
    for i = 1, grid.n do
      local p = pieces[board[i]]
      if p then
        items[#items + 1] = grid:piece(i, p.fill or "black", {label = p.label, stroke = p.stroke})
      end
    end
  end
  return items
end

-- Scene numbers the window can turn into pixels: finite (the JSON encoder says so for NaN and
-- infinities) and not absurd, so that one stray item cannot shrink the board to a dot.
local SCENE_NUMBERS = {"x", "y", "r", "w", "h", "size", "width", "layer"}
local function scene_number(v, i, key)
  if type(v) == "number" and v == v and v ~= huge and v ~= -huge and abs(v) > MAX_SCENE_NUMBER then
    contract(format("scene item %d: %s is %s; scene numbers must be within -%d..%d",
                    i, key, format("%.6g", v), MAX_SCENE_NUMBER, MAX_SCENE_NUMBER))
  end
end

local function scene_text(v, i, key)
  if type(v) == "string" and #v > MAX_LABEL then
    contract(format("scene item %d: %s is %d characters long; at most %d", i, key, #v, MAX_LABEL))
  end
end

local function check_scene_item(item, i)
  if type(item) ~= "table" then return end  -- the window skips it; nomv check reports it
  for _, key in ipairs(SCENE_NUMBERS) do scene_number(rawget(item, key), i, key) end
  scene_text(rawget(item, "text"), i, "text")
  scene_text(rawget(item, "label"), i, "label")
  local pts = rawget(item, "points")
  if type(pts) == "table" then
    for k = 1, #pts do scene_number(rawget(pts, k), i, "points[" .. k .. "]") end
  end
end

function H.scene(state)
  return guarded("scene", function()
    local sc = G.scene and G.scene(state) or default_scene(state)
    if type(sc) ~= "table" then contract(format("scene must return a list of items, got %s", describe(sc))) end
    if #sc > MAX_SCENE_ITEMS then
      contract(format("scene returned %d items; a scene may have at most %d", #sc, MAX_SCENE_ITEMS))
    end
    local items = {}
    for i = 1, #sc do items[i] = sc[i]; check_scene_item(sc[i], i) end
    if type(sc.status) == "string" and #sc.status > MAX_LABEL then
      contract(format("scene status is %d characters long; at most %d", #sc.status, MAX_LABEL))
    end
    return to_json({items = items, bounds = sc.bounds, status = sc.status}, "scene")
  end)
end

function H.text(state)
  if type(G.text) ~= "function" then return true, nil end
  return guarded("text", function()
    local t = G.text(state)
    if type(t) ~= "string" then contract(format("text must return a string, got %s", describe(t))) end
    if #t > MAX_TEXT then contract(format("text returned %d characters; at most %d", #t, MAX_TEXT)) end
    return t
  end)
end

-- The state as `player` may know it (hidden information removed).  Without a view hook every
-- player sees the whole state.
function H.view(state, player)
  if type(G.view) ~= "function" then return true, state end
  return guarded("view", function()
    local v = checked_view(state, player)
    if v._rng == nil then v._rng = state._rng end
    return v
  end)
end

-- For the checker: the game's determinize(view, player, rng), or nil without one.
function H.determinize(view, player, seed)
  if type(G.determinize) ~= "function" then return true, nil end
  return guarded("determinize", function()
    local d = checked_determinize(view, player, Rng.new(seed))
    if d._rng == nil then d._rng = view._rng end
    return d
  end)
end

-- For the checker: the game's evaluate(state, player), or nil without one.
function H.evaluate(state, player)
  if type(G.evaluate) ~= "function" then return true, nil end
  return guarded("evaluate", function() return checked_evaluate(state, player) end)
end

function H.dump(state)
  return guarded("dump", function() return to_json(state, "state") end)
end

---------------------------------------------------------------------------------------------
-- Loops that stay inside Lua: random playouts and perft.

local function random_move_of(state, rng)
  if G.random_move then
    local mv = G.random_move(state, rng)
    if type(mv) ~= "table" or #mv == 0 then
      contract(format("random_move must return a move (a list of steps), got %s", describe(mv)))
    end
    return mv
  end
  local ms = list_moves(state)
  if #ms == 0 then contract("moves returned no move, but result says the game is not over") end
  return ms[rng:int(#ms)]
end

-- n random games from the options, each move chosen by choose(state, rng); returns their
-- statistics (a table).
--
-- Game k's setup and chance draw from one generator reseeded from `master` before the game, and
-- its moves from `master` itself.  The loop's states never leave it, so the chance generator
-- simply runs on from ply to ply instead of being saved into each state's `_rng` and loaded
-- back (the same numbers either way: a game replays from its seed and moves).
local function random_games(opts, seed, n, np, max_plies, choose)
  local master, chance = Rng.new(seed), Rng.new(seed)
  local wins, draws, lost, unfinished, total, longest, shortest = {}, 0, 0, 0, 0, 0, huge
  for p = 1, np do wins[p] = 0 end
  local result = need("result")
  need("setup"); need("play")
  local ranks = {}                    -- scratch for rank()
  start_periods()
  for _ = 1, n do
    new_period()
    chance:reseed(master)
    local state = setup_with(opts, chance)
    local plies, over, winner, firsts = 0, false, nil, 0
    while true do
      local res = result(state)
      if res ~= nil and res ~= false then
        over = true
        winner, firsts = rank(res, np, ranks)
        break
      end
      if plies >= max_plies then break end
      state = play_with(state, choose(state, master), chance)
      plies = plies + 1
    end
    total = total + plies
    if plies > longest then longest = plies end
    if plies < shortest then shortest = plies end
    if not over then unfinished = unfinished + 1
    elseif winner then wins[winner] = wins[winner] + 1
    elseif firsts > 1 then draws = draws + 1
    else lost = lost + 1 end          -- nobody ranked first: every player lost (a failed puzzle)
  end
  return {games = n, plies = total, longest = longest, shortest = n > 0 and shortest or 0,
          wins = wins, draws = draws, lost = lost, unfinished = unfinished}
end

-- n random games (random_move, or a move drawn from moves()); statistics as JSON.
function H.playout(opts, seed, n, np, max_plies)
  return guarded("playout", function()
    return to_json(random_games(opts, seed, n, np, max_plies, random_move_of))
  end)
end

-- Random games whose every move is drawn from the full list that moves() returns, counting the
-- moves listed: what `nomv bench` reports as moves generated per second.
local listed = 0
local function from_the_list(state, rng)
  local ms = list_moves(state)
  local count = #ms
  if count == 0 then contract("moves returned no move, but result says the game is not over") end
  listed = listed + count
  return ms[rng:int(count)]
end

function H.move_generation(opts, seed, n, np, max_plies)
  return guarded("playout", function()
    listed = 0
    local stats = random_games(opts, seed, n, np, max_plies, from_the_list)
    stats.moves = listed
    return to_json(stats)
  end)
end

function H.perft(state, depth)
  return guarded("perft", function()
    local result = need("result")
    local function count(s, d)
      if d == 0 then return 1 end
      local res = result(s)
      if res ~= nil and res ~= false then return 1 end
      arm()
      local ms = list_moves(s)
      if #ms == 0 then contract("moves returned no move, but result says the game is not over") end
      if d == 1 then return #ms end
      local total = 0
      for i = 1, #ms do total = total + count(do_play(s, ms[i]), d - 1) end
      return total
    end
    return count(state, depth)
  end)
end

---------------------------------------------------------------------------------------------
-- Computer players: Monte Carlo tree search (nomv/lua/search.lua), given the host's checked
-- ways of calling the game.

function H.search_tree(config)
  return guarded("search", function()
    if Search == nil then
      local f, err = load(search_source, "@nomv/search.lua", "t")
      if not f then error(err) end
      Search = f()({
        game = function() return G end, clock = clock, arm = arm, contract = contract,
        describe = describe, do_play = do_play, play_with = play_with, list_moves = list_moves,
        cached_moves = cached_moves, random_move_of = random_move_of, outcome = outcome,
        who_moves = who_moves, move_key = move_key, Rng = Rng, mover = checked_mover,
        view = checked_view, determinize = checked_determinize, evaluate = checked_evaluate,
        chance = function() return chance_plays end,
      })
    end
    return Search.new_tree(config)
  end)
end

-- One search from `state` by the tree's player; returns the result as JSON.
function H.search(tree, state, np, history, iterations, seconds)
  return guarded("search", function()
    return to_json(Search.search(tree, state, np, history, iterations, seconds), "search")
  end)
end

---------------------------------------------------------------------------------------------
-- For `nomv check` (nomv/checker): rule coverage and random_move sampling.  Nothing above
-- depends on this section.
--
-- Coverage is a line hook (meant for Lua 5.4: LuaJIT does not call hooks inside compiled
-- traces).  While it is on, one hook function serves both the line events and the time limit's
-- count events, since a runtime has only one hook.  It records the lines of the game script that
-- run, and every script function it sees running, so that the lines which *can* run are the
-- `activelines` of those functions plus every function reachable from the game table and from
-- their upvalues.  The main chunk is left out: it ran when the script was loaded.

local covered, cov_protos = nil, nil
local cov_cache, cov_cached = {}, 0

-- cov_cache[f] says whether f is a script function.  Asking for "f" alone is much cheaper than
-- asking for the source ("S") on every line.  Closures are created all the time, so the cache
-- is emptied now and then (a weak table of them makes the collector crawl); one function of
-- each prototype is kept in cov_protos for its activelines.
local function coverage_hook(event, line)
  if event == "line" then
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
    hook()
  end
end

function H.coverage_start(keep)
  if not (keep and covered) then covered, cov_protos = {}, {} end
  cov_cache, cov_cached = {}, 0
  sethook(coverage_hook, "l", limit_seconds > 0 and 10000 or 0)
  return true
end

-- Stops recording for a while (coverage_start(true) goes on).
function H.coverage_pause()
  H.set_limit(limit_seconds)
  return true
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
      local name, up = debug.getupvalue(v, i)
      if name == nil then break end
      script_functions(up, out, seen)
      i = i + 1
    end
  end
end

-- Stops tracing; returns JSON {ran = [lines], active = [lines that can run]}.
function H.coverage_stop()
  H.set_limit(limit_seconds)
  local ran, active = {}, {}
  if covered == nil then return true, to_json({ran = ran, active = active}) end
  local funcs, seen = {}, {}
  script_functions(G, funcs, seen)
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

-- The number of legal moves (checked like H.moves, without building their JSON).
function H.move_count(state)
  return guarded("moves", function() return #cached_moves(state) end)
end

-- n calls of the game's random_move(state, rng) from a generator seeded with `seed`; returns
-- the moves as JSON (like H.moves), or nil when the game has no random_move.
function H.random_moves(state, seed, n)
  if type(G.random_move) ~= "function" then return true, nil end
  return guarded("random_move", function()
    local rng = Rng.new(seed)
    local out = {}
    for i = 1, n do
      local mv = G.random_move(state, rng)
      if type(mv) ~= "table" then
        contract(format("random_move must return a move (a list of steps), got %s", describe(mv)))
      end
      out[i] = encode_move(mv)
    end
    return to_json(out, "random_move")
  end)
end

return H
