-- Small helpers for game scripts: copying, sorting-independent iteration, bit operations.

local floor, type, next, pairs = math.floor, type, next, pairs
local M = {}

--- nomv.copy(t) -> a deep copy of plain data (tables are copied, everything else is shared).
local function copy(v)
  if type(v) ~= "table" then return v end
  local out = {}
  for k, x in next, v do
    if type(x) == "table" then out[k] = copy(x) else out[k] = x end
  end
  return out
end
M.copy = copy

--- nomv.shallow(t) -> a copy of t whose values are shared with t.  The usual start of `play`:
--- copy the top level, then copy only the parts the move changes.
function M.shallow(t)
  local out = {}
  for k, x in next, t do out[k] = x end
  return out
end

--- nomv.sorted_keys(t) -> t's keys in sorted order.  pairs() visits keys in an order that
--- differs between LuaJIT and Lua 5.4: sort before making any choice that depends on it.
function M.sorted_keys(t)
  local keys = {}
  for k in pairs(t) do keys[#keys + 1] = k end
  table.sort(keys, function(a, b)
    if type(a) == type(b) then return a < b end
    return type(a) == "number"
  end)
  return keys
end

--- nomv.count(list, value) -> how many times value occurs in list.
function M.count(list, value)
  local n = 0
  for i = 1, #list do if list[i] == value then n = n + 1 end end
  return n
end

--- nomv.contains(list, value) -> true when value occurs in list.
function M.contains(list, value)
  for i = 1, #list do if list[i] == value then return true end end
  return false
end

--- nomv.split(text, sep) -> the pieces of text between the separator characters (a plain
--- character set such as "/" or ",;").  Empty pieces are kept.
function M.split(text, sep)
  local out, start = {}, 1
  for i = 1, #text do
    if sep:find(text:sub(i, i), 1, true) then
      out[#out + 1] = text:sub(start, i - 1)
      start = i + 1
    end
  end
  out[#out + 1] = text:sub(start)
  return out
end

-- Bit operations on whole numbers 0 .. 2^32-1, the same on both runtimes (LuaJIT's `bit`
-- library answers in signed 32 bits; Lua 5.4 has operators that LuaJIT cannot parse).
local bits = {}
local function check(x)
  if type(x) ~= "number" or x ~= floor(x) or x < 0 or x >= 4294967296 then
    error("bit operations take whole numbers from 0 to 2^32-1, got " .. tostring(x), 3)
  end
end
local function op(f)
  return function(a, b) check(a); check(b); return f(a, b) end
end
--- nomv.bit.band(a, b), bor, bxor, lshift(a, n), rshift(a, n), test(a, k) (bit k set?).
bits.band = op(function(a, b)
  local r, p = 0, 1
  while a > 0 and b > 0 do
    if a % 2 == 1 and b % 2 == 1 then r = r + p end
    a, b, p = floor(a / 2), floor(b / 2), p * 2
  end
  return r
end)
bits.bor = op(function(a, b)
  local r, p = 0, 1
  while a > 0 or b > 0 do
    if a % 2 == 1 or b % 2 == 1 then r = r + p end
    a, b, p = floor(a / 2), floor(b / 2), p * 2
  end
  return r
end)
bits.bxor = op(function(a, b)
  local r, p = 0, 1
  while a > 0 or b > 0 do
    if a % 2 ~= b % 2 then r = r + p end
    a, b, p = floor(a / 2), floor(b / 2), p * 2
  end
  return r
end)
function bits.lshift(a, n) check(a); return floor((a * 2 ^ n) % 4294967296) end
function bits.rshift(a, n) check(a); return floor(a / 2 ^ n) end
function bits.test(a, k) check(a); return floor(a / 2 ^ k) % 2 == 1 end
M.bit = bits

return M
