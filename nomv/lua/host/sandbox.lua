-- The sandbox: the allow-listed environment a game script runs in.  Which names are refused,
-- and with which message, comes from nomv/schema.py (P.schema, given to init), the list the
-- checker's static pass uses too.
local H, P = ...

local type, pairs, ipairs, tostring, select, error, pcall, xpcall, setmetatable, getmetatable =
      type, pairs, ipairs, tostring, select, error, pcall, xpcall, setmetatable, getmetatable
local rawget, rawset, rawequal, next, tonumber, assert = rawget, rawset, rawequal, next, tonumber, assert
local unpack = table.unpack or unpack
local min = math.min
local format, ssub = string.format, string.sub
local concat, tsort = table.concat, table.sort
local LIMIT = P.LIMIT
local past_deadline = P.past_deadline

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
function P.readonly(t, name)
  local proxy = {}
  for k, v in pairs(t) do
    if type(v) == "table" and getmetatable(v) == nil then t[k] = P.readonly(v, name .. "." .. k) end
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

-- A standard library for the script: a read-only view of a copy without the refused members
-- (`refused`: member -> message).  Read-only because strings index it (("x"):rep(3)), and the
-- host must not find a script's function behind a string method.  Lookups go proxy -> copy
-- through __index *tables*, which both runtimes follow without a function call (string methods
-- stay fast).
local function safe_library(src, name, refused, extra)
  local copy, keys = {}, {}
  for k, v in pairs(src) do
    if not refused[k] then copy[k] = v end
  end
  for k, v in pairs(extra or {}) do copy[k] = v end
  for k in pairs(copy) do keys[#keys + 1] = k end
  tsort(keys)
  setmetatable(copy, {
    __index = function(_, k)
      if refused[k] then error(refused[k], 2) end
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

-- print() is for the script's author: its lines are kept (capped) for Python to show.
local printed = {}
local function script_print(...)
  local parts = {}
  for i = 1, select("#", ...) do parts[i] = tostring((select(i, ...))) end
  if #printed < 1000 then printed[#printed + 1] = ssub(concat(parts, "\t"), 1, 2000) end
end

function H.printed()
  local out = printed
  printed = {}
  return true, P.to_json(out)
end

-- A script's pcall and xpcall cannot swallow a limit: past the deadline, any failure (even
-- LuaJIT's "error in error handling" from a handler that ran over the limit) is the limit, and
-- running out of memory stays an error (else a loop of failing allocations would end as a hang).
local function rethrow_limits(ok, ...)
  if not ok then
    local e = ...
    if rawequal(e, LIMIT) or past_deadline() then error(LIMIT, 0) end
    if e == "not enough memory" then error(e, 0) end
  end
  return ok, ...
end

-- A new environment for one script, and the function that ends its loading (after which no
-- global can be set: hidden state would make games unrepeatable).
function P.make_env(nomv)
  local forbidden, members = P.schema.forbidden, P.schema.members
  local string_safe = safe_library(string, "string", members.string or {})
  local globals = {
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
    math = safe_library(math, "math", members.math or {}),
    string = string_safe,
    table = safe_library(table, "table", members.table or {}, {unpack = unpack}),
    nomv = nomv,
  }
  -- The script's environment is an empty table that reads through to `globals`: every
  -- assignment to a global, even of a name that exists (pcall = nil), goes through __newindex,
  -- which refuses it once the script has loaded.  (A raw field of env itself could be
  -- reassigned without any metamethod.)  Reads cost one table hop, which LuaJIT compiles.
  local env = {}
  globals._G = env
  -- Strings index the safe string table, so ("x"):dump() is refused like string.dump.
  local smt = getmetatable("")
  smt.__index = string_safe
  smt.__metatable = false
  local loading = true
  local names = {}
  for k in pairs(globals) do names[#names + 1] = k end
  tsort(names)
  setmetatable(globals, {
    __index = function(_, k)
      if forbidden[k] then error(forbidden[k], 2) end
      error(format("undefined variable '%s'%s", tostring(k), suggest(tostring(k), names)), 2)
    end,
    __metatable = false,
  })
  setmetatable(env, {
    __index = globals,
    __newindex = function(_, k, v)
      if not loading then
        error(format("cannot set global '%s' after loading: keep game data in the state", tostring(k)), 2)
      end
      if forbidden[k] or k == "nomv" or k == "_G" then error(format("cannot redefine '%s'", tostring(k)), 2) end
      names[#names + 1] = k
      rawset(globals, k, v)
    end,
    __metatable = false,
  })
  return env, function() loading = false end
end
