-- Small helpers for game scripts: copying, sorting-independent iteration, bit operations.

local floor, type, next, pairs, ipairs = math.floor, type, next, pairs, ipairs
local M = {}


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

-- Packed boards.  play() must return a new state and leave the old one alone, so it copies
-- what it changes: a board of 121 cells costs 121 stores a move, a packed one ten.  A cell is a
-- digit of `bits` binary places in one of a few numbers, read by one multiplication by a power
-- of two (exact, and much quicker than a division) and written by one addition.  Every value
-- stays a whole number below 2^52, so LuaJIT and Lua 5.4 agree.
local Packed = {}
Packed.__index = Packed
Packed.__metatable = false

-- copiers[n]: a function that returns a copy of the slots 1..n of a list, made by one table
-- constructor {t[1], t[2], ..., t[n]} that is generated the first time a length is asked for.
-- A loop that appends slot by slot grows the new table several times, and unpack() is not
-- compiled by LuaJIT; the constructor is both sized at once and compiled.  (The library is
-- trusted code: it may generate code; scripts cannot.)  Lists longer than LONG share one
-- copier that copies the rest in a loop, so there are at most LONG + 1 of them.
local LONG = 1000
local copiers = {}
local function copier(n)
  if type(n) ~= "number" or n ~= floor(n) or n < 0 or n > 16777216 then
    error("nomv.copy_list: the length must be a whole number from 0 to 2^24, got " .. tostring(n), 3)
  end
  local key = n <= LONG and n or LONG + 1
  local f = copiers[key]
  if f then return f end
  local items = {}
  for k = 1, key <= LONG and key or LONG do items[k] = "t[" .. k .. "]" end
  local body = "local t, n = ... local c = {" .. table.concat(items, ", ") .. "}\n"
  if key > LONG then body = body .. "for k = " .. (LONG + 1) .. ", n do c[k] = t[k] end\n" end
  f = assert(load("return function(...) " .. body .. " return c end", "=copy_list", "t", {}))()
  copiers[key] = f
  return f
end

--- nomv.copy_list(t [, n]) -> a copy of the list t (its slots 1..n, n = #t by default); the
--- values are shared.  The quick way to copy a board kept as a list of cells in play().
function M.copy_list(t, n)
  n = n or #t
  return (copiers[n] or copier(n))(t, n)     -- copiers[n] is nil beyond LONG: copier(n) then
end

--- nomv.copy(t) -> a deep copy of plain data (tables are copied, everything else is shared).
-- The list part (up to LONG slots) is first copied by copy_list's sized constructor: a copy
-- that appends slot by slot grows the new table several times, which made copying a board of
-- 64 numbers two to four times slower under LuaJIT (0.6-1.1 against 0.3 microseconds).  Then
-- every key is visited from the start, tables replaced by their copies: the slots 1..#t may sit
-- in the hash part, in any order among the other keys, so no shorter walk finds them all (one
-- that began after key #t lost keys of some tables built in an unusual order).
local function copy(v)
  if type(v) ~= "table" then return v end
  local n = #v
  local out = n > 0 and n <= LONG and (copiers[n] or copier(n))(v, n) or {}
  for k, x in next, v do
    if type(x) == "table" then out[k] = copy(x) else out[k] = x end
  end
  return out
end
M.copy = copy

--- nomv.packed(n, bits [, first]) -> a layout of n cells, each a whole number from 0 to
--- 2^bits - 1, packed floor(52 / bits) to a number in the slots first .. L.last of a list
--- (first defaults to 1: slots before it can hold the state's other fields).
---   L:get(t, i) -> the value of cell i;  L:set(t, i, v) changes t (call it on a copy);
---   L:copy(t) -> a new list with t's slots 1 .. L.last;  L:clear(t) sets every cell of t to 0.
function M.packed(n, bits, first)
  first = first or 1
  for _, v in ipairs({{n, "n", 1, 1e6}, {bits, "bits", 1, 26}, {first, "first", 1, 1e6}}) do
    local x = v[1]
    if type(x) ~= "number" or x ~= floor(x) or x < v[3] or x > v[4] then
      error(string.format("nomv.packed: %s must be a whole number from %d to %d, got %s",
                          v[2], v[3], v[4], tostring(x)), 2)
    end
  end
  local per = floor(52 / bits)
  local base = floor(2 ^ bits)           -- floor: whole numbers on Lua 5.4 too
  local slot, place, scale, shift = {}, {}, {}, {}
  for i = 1, n do
    local k = (i - 1) % per
    slot[i] = first + floor((i - 1) / per)
    shift[i] = bits * k                  -- the cell's lowest bit in its number
    place[i] = floor(2 ^ shift[i])       -- the cell's weight in its number
    scale[i] = 2 ^ -shift[i]             -- its inverse: exact, since both are powers of two
  end
  local last = first + floor((n - 1) / per)
  return setmetatable({n = n, bits = bits, first = first, last = last, per = per,
                       base = base, inverse = 1 / base, mask = base - 1, slot = slot,
                       place = place, scale = scale, shift = shift, copy_slots = copier(last)},
                      Packed)
end

function Packed:get(t, i)
  local x = floor(t[self.slot[i]] * self.scale[i])
  return x - floor(x * self.inverse) * self.base
end

function Packed:set(t, i, v)
  local s, w = self.slot[i], self.place[i]
  local x = floor(t[s] * self.scale[i])
  t[s] = t[s] + (v - (x - floor(x * self.inverse) * self.base)) * w
end

-- Lua 5.4 has integer shifts and masks, far quicker there than two calls of math.floor; LuaJIT
-- cannot parse them, so that version is compiled from text on 5.4 only.  Same values.
if math.type then
  Packed.get, Packed.set = assert(load([=[
    local function get(self, t, i)
      return (t[self.slot[i]] >> self.shift[i]) & self.mask
    end
    local function set(self, t, i, v)
      local s, k = self.slot[i], self.shift[i]
      t[s] = t[s] + ((v - ((t[s] >> k) & self.mask)) << k)
    end
    return get, set]=], "=nomv.packed", "t"))()
end

function Packed:copy(t)
  return self.copy_slots(t, self.last)
end

function Packed:clear(t)
  t = t or {}
  for k = self.first, self.last do t[k] = 0 end
  return t
end

--- nomv.unionfind: disjoint sets of 1..n kept in a plain list, so that they can live in a game
--- state (the groups of stones in a connection game).  t = nomv.unionfind.new(n): each element
--- alone.  union(t, a, b) joins the sets of a and b in t (returns the joined set's root),
--- find(t, i) is the root of i's set, same(t, a, b) whether a and b share a set, size(t, i)
--- how many elements i's set holds.  In the list, t[i] is i's parent, or minus its set's size
--- when i is a root.  find never changes t (a state must not change once made); union puts the
--- smaller set under the larger, so a path to a root has at most log2(n) steps all the same.
local unionfind = {}

function unionfind.new(n)
  if type(n) ~= "number" or n ~= floor(n) or n < 0 then
    error("unionfind.new: n must be a whole number, got " .. tostring(n), 2)
  end
  local t = {}
  for i = 1, n do t[i] = -1 end
  return t
end

local function find(t, i)
  local p = t[i]
  while p > 0 do i, p = p, t[p] end
  return i
end
unionfind.find = find

function unionfind.union(t, a, b)
  local x, y = find(t, a), find(t, b)
  if x == y then return x end
  if t[x] > t[y] then x, y = y, x end   -- t[x] is minus the size: x's set is the larger
  t[x], t[y] = t[x] + t[y], x
  return x
end

function unionfind.same(t, a, b) return find(t, a) == find(t, b) end

function unionfind.size(t, i) return -t[find(t, i)] end

M.unionfind = unionfind

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
