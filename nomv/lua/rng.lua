-- Portable seeded random numbers: L'Ecuyer's MRG32k3a.
--
-- Why this generator: every intermediate value is an integer below 2^53, so LuaJIT (doubles
-- only) and Lua 5.4 (64-bit integers) compute bit-for-bit the same sequence.  A game's random
-- choices therefore replay identically on either runtime.  The generator's whole position is
-- six numbers, stored in the game state as `state._rng`, so copying a state copies its future.

local floor = math.floor
local M1, M2 = 4294967087, 4294944443
local A12, A13N, A21, A23N = 1403580, 810728, 527612, 1370589
local NORM = 1 / (M1 + 1)

local Rng = {}
Rng.__index = Rng
Rng.__metatable = false

-- p mod m for |p| < 2^53, exact on both runtimes.  The quotient is estimated with a product
-- (a division takes several times longer) and may be off by one after rounding, leaving p in
-- [-m, 2m); a second step puts that right, its product taken half a unit further from the
-- whole numbers that a rounding could cross (p = m times 1/m rounds to just below 1 for M2);
-- p - q * m itself is exact.  (Checked against p % m on every multiple of M1 and M2 below 2^53,
-- one either side, and millions of drawn values.)  Steps rather than two tests: under LuaJIT a
-- test whose outcome varies from call to call is a side exit in the compiled loop of every
-- random game, and those exits cost more than the arithmetic (a draw took half the time).
local function mod(p, m, inverse)
  p = p - floor(p * inverse) * m
  return p - floor((p + 0.5) * inverse) * m
end
local INV1, INV2 = 1 / M1, 1 / M2

local function new(s)
  return setmetatable({s[1], s[2], s[3], s[4], s[5], s[6], used = false}, Rng)
end

-- The next raw value, an integer in 1..M1.
function Rng:next()
  local p1 = mod(A12 * self[2] - A13N * self[1], M1, INV1)
  self[1], self[2], self[3] = self[2], self[3], p1
  local p2 = mod(A21 * self[6] - A23N * self[4], M2, INV2)
  self[4], self[5], self[6] = self[5], self[6], p2
  self.used = true
  -- z = p1 - p2, plus M1 when that is not positive (it lies in (-M2, M1), and M2 < M1; the
  -- same arithmetic instead of a test as in mod).
  local z = p1 - p2
  return z - floor((z - 0.5) * INV1) * M1
end

-- Lua 5.4 computes with 64-bit integers, whose `%` is exact and one operation, and its
-- interpreter pays for every operation rather than for a test: there, the same numbers by the
-- plain way.  (`%` on LuaJIT's doubles divides, and a division can round across a whole number.)
if math.type then
  function Rng:next()
    local p1 = (A12 * self[2] - A13N * self[1]) % M1
    self[1], self[2], self[3] = self[2], self[3], p1
    local p2 = (A21 * self[6] - A23N * self[4]) % M2
    self[4], self[5], self[6] = self[5], self[6], p2
    self.used = true
    local z = p1 - p2
    if z <= 0 then z = z + M1 end
    return z
  end
end

--- A float in the open interval (0, 1).
function Rng:float()
  return self:next() * NORM
end

--- rng:int(n) -> 1..n;  rng:int(a, b) -> a..b (inclusive).
function Rng:int(a, b)
  if b == nil then a, b = 1, a end
  if type(a) ~= "number" or type(b) ~= "number" or a ~= floor(a) or b ~= floor(b) then
    error("rng:int needs whole numbers, got " .. tostring(a) .. ", " .. tostring(b), 2)
  end
  if b < a then error("rng:int: empty range " .. a .. ".." .. b, 2) end
  return a + floor(self:next() * NORM * (b - a + 1))
end

--- A uniformly chosen element of a non-empty list.
function Rng:pick(list)
  local n = #list
  if n == 0 then error("rng:pick: the list is empty", 2) end
  return list[1 + floor(self:next() * NORM * n)]
end

--- Shuffles a list in place (Fisher-Yates) and returns it.
function Rng:shuffle(list)
  for i = #list, 2, -1 do
    local j = 1 + floor(self:next() * NORM * i)
    list[i], list[j] = list[j], list[i]
  end
  return list
end

--- true with probability p.
function Rng:chance(p)
  return self:next() * NORM < p
end

-- Moves this generator to a position drawn from `other`: independent of it from then on.
-- (Playouts reseed one generator before each game rather than make a new one.)
function Rng:reseed(other)
  for i = 1, 3 do self[i] = other:next() % (M1 - 1) + 1 end
  for i = 4, 6 do self[i] = other:next() % (M2 - 1) + 1 end
  self.used = false
  return self
end

-- A new, independent generator seeded from this one.
function Rng:fork()
  return new({1, 1, 1, 1, 1, 1}):reseed(self)
end

-- The generator's position as a plain list of six numbers (what `state._rng` holds).
function Rng:save()
  return {self[1], self[2], self[3], self[4], self[5], self[6]}
end

-- Moves this generator to a saved position.
function Rng:load(s)
  self[1], self[2], self[3], self[4], self[5], self[6] = s[1], s[2], s[3], s[4], s[5], s[6]
  self.used = false
  return self
end

return {new = new, M1 = M1, M2 = M2}
