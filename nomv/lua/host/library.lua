-- The `nomv` library a script sees (nomv/lua/rng.lua, util.lua, grid.lua), read-only, and the
-- schema of the game table (nomv/schema.py).  Both arrive with the init request.
local H, P = ...

local pairs, error, load = pairs, error, load
local IS_JIT = type(jit) == "table"

-- libs: {name = source} for rng, util, grid and search; schema: nomv/schema.py's for_lua().
function H.init(libs, schema)
  P.schema = schema
  P.search_source = libs.search
  local function lib(name)
    local f, err = load(libs[name], "@nomv/" .. name .. ".lua", "t")
    if not f then error(err) end
    return f()
  end
  local Rng = lib("rng")
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
  P.Rng = Rng
  P.game_rng = Rng.new({1, 1, 1, 1, 1, 1})   -- one reusable generator for chance inside play()
  local lib_table = {grid = grid, legal = P.script_legal, has_move = P.script_has_move}
  for k, v in pairs(util) do lib_table[k] = v end
  P.nomv_lib = P.readonly(lib_table, "nomv")
  return true
end
