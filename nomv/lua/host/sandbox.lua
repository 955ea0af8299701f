-- The sandbox: the allow-listed environment a game script runs in.  Which names are refused,
-- and with which message, comes from nomv/schema.py (P.schema, given to init), the list the
-- checker's static pass uses too.
local H, P = ...

local type, pairs, ipairs, tostring, select, error, pcall, xpcall, setmetatable, getmetatable =
      type, pairs, ipairs, tostring, select, error, pcall, xpcall, setmetatable, getmetatable
local rawget, rawset, rawequal, next, tonumber, assert = rawget, rawset, rawequal, next, tonumber, assert
local getlocal, getupvalue, getinfo = debug.getlocal, debug.getupvalue, debug.getinfo
local unpack = table.unpack or unpack
local min = math.min
local format, ssub = string.format, string.sub
local concat, tsort = table.concat, table.sort
local LIMIT = P.LIMIT
local past_deadline = P.past_deadline

-- The edit distance of two names, a swap of two neighbouring letters counting as one edit
-- (borad -> board).
local function distance(a, b)
  if #a > 40 or #b > 40 then return 99 end
  local rows = {}
  for i = 0, #a do rows[i] = {[0] = i} end
  for j = 0, #b do rows[0][j] = j end
  for i = 1, #a do
    local cur, prev, ca = rows[i], rows[i - 1], ssub(a, i, i)
    for j = 1, #b do
      local cb = ssub(b, j, j)
      local d = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca == cb and 0 or 1))
      if i > 1 and j > 1 and ca == ssub(b, j - 1, j - 1) and ssub(a, i - 1, i - 1) == cb then
        d = min(d, rows[i - 2][j - 2] + 1)
      end
      cur[j] = d
    end
  end
  return rows[#a][#b]
end

-- The closest candidate, if it is close enough to be a likely typo: one edit for a name of up
-- to four letters, two for a longer one, and never the whole name (a stray O is not _G).
-- Among equally close ones the first wins: callers list the most likely first.
local function closest(name, candidates)
  local best, bestd = nil, (#name <= 4 and 1 or 2) + 1
  for _, c in ipairs(candidates) do
    local d = distance(name, c)
    if d < bestd and d < #name and c ~= name then best, bestd = c, d end
  end
  return best
end
P.closest = closest   -- (errors.lua offers a field for a misspelt one the same way)

local function suggest(name, candidates)
  local best = closest(name, candidates)
  return best and format(" (did you mean '%s'?)", best) or ""
end

-- The names a function running at `level` can see besides the globals: its locals in scope at
-- the current line, then its upvalues (the locals of the enclosing code it uses).  Lua's own
-- temporaries ("(for state)") and _ENV are left out.
local function visible_names(level)
  local out, seen = {}, {}
  local function add(n)
    if type(n) == "string" and not seen[n] and n ~= "_ENV" and ssub(n, 1, 1) ~= "(" then
      seen[n] = true
      out[#out + 1] = n
    end
  end
  local info = getinfo(level + 1, "f")
  if not info then return out, seen end
  for i = 1, 250 do
    local n = getlocal(level + 1, i)
    if n == nil then break end
    add(n)
  end
  if info.func then
    for i = 1, 250 do
      local n = getupvalue(info.func, i)
      if n == nil then break end
      add(n)
    end
  end
  return out, seen
end

-- A read-only view of a table (and of the plain tables in it): reads pass through, writes and
-- metatable changes fail.  Like safe_library below, the lookups go proxy -> copy through an
-- __index *table*, which both runtimes follow without a function call: scripts read
-- `nomv.grid.square` or `nomv.copy_list` in their hot hooks (an __index function here cost
-- every such read a call).
function P.readonly(t, name)
  local copy, keys = {}, {}
  for k, v in pairs(t) do
    if type(v) == "table" and getmetatable(v) == nil then v = P.readonly(v, name .. "." .. k) end
    copy[k] = v
    if type(k) == "string" then keys[#keys + 1] = k end
  end
  tsort(keys)
  setmetatable(copy, {
    __index = function(_, k)
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
      -- Level 2 is the script's function that read the name (env's __index is the globals
      -- table, so no other call stands between): its locals and upvalues come first.
      local candidates, seen = visible_names(2)
      for _, n in ipairs(names) do
        if not seen[n] then candidates[#candidates + 1] = n end
      end
      error(format("undefined variable '%s'%s", tostring(k), suggest(tostring(k), candidates)), 2)
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
