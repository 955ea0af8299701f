-- Board geometry for game scripts: every grid gives each cell an index 1..g.n, an id (what
-- the player clicks and what notation shows), a centre, a polygon, and its neighbour in each
-- named direction.  Scene coordinates are in board units with y growing downwards, so rank 1 of
-- a square board is drawn at the bottom.
--
-- Hot loops use the plain arrays (g.step[d][i], g.adj[i]); the methods are for clarity.

local floor, sqrt, cos, sin, pi = math.floor, math.sqrt, math.cos, math.sin, math.pi
local format, char, byte = string.format, string.char, string.byte
local SQRT3 = sqrt(3)
local huge_pos = math.huge

local Grid = {}
Grid.__index = Grid
Grid.__metatable = false

local function letter(k, upper)
  if k < 1 or k > 26 then error("grid too large: column " .. k .. " has no letter", 3) end
  return char((upper and 64 or 96) + k)
end

local function whole(v, name, lo, hi)
  if type(v) ~= "number" or v ~= floor(v) or v < lo or v > hi then
    error(format("%s must be a whole number from %d to %d, got %s", name, lo, hi, tostring(v)), 3)
  end
end

-- Builds a grid from cells {id, x, y, poly, ...} and directions {name, delta-function}.
-- `nbr(c, d)` returns the cell index reached from cell c in direction d, or nil.
local function build(kind, cells, dirs, nbr, adjacency, radius)
  local g = setmetatable({kind = kind, n = #cells, ids = {}, index = {}, x = {}, y = {},
                          poly = {}, dirs = dirs, dir = {}, step = {}, opposite = {},
                          adj = {}, radius = radius}, {__index = Grid})   -- (share() gives the final one)
  for i, c in ipairs(cells) do
    if g.index[c.id] then error("duplicate cell id " .. tostring(c.id), 3) end
    g.ids[i], g.index[c.id], g.x[i], g.y[i], g.poly[i] = c.id, i, c.x, c.y, c.poly
  end
  for d, name in ipairs(dirs) do
    g.dir[name] = d
    local step = {}
    for i = 1, g.n do step[i] = nbr(i, d) end
    g.step[d] = step
  end
  local nd = #dirs
  for d = 1, nd do
    -- Directions are listed in cyclic order, so the opposite one is half a turn away.
    g.opposite[d] = (d - 1 + nd / 2) % nd + 1
  end
  -- g.rays[d][i]: the cells from i (excluded) in direction d to the edge, made once, so that a
  -- plain walk along a line (Othello's flips, a queen's moves) allocates nothing.  Shared by
  -- every caller: read them, never change them.
  g.rays = {}
  for d = 1, nd do
    local step, rays = g.step[d], {}
    for i = 1, g.n do
      local ray, j = {}, step[i]
      while j do ray[#ray + 1] = j; j = step[j] end
      rays[i] = ray
    end
    g.rays[d] = rays
  end
  for i = 1, g.n do
    local a = {}
    for _, d in ipairs(adjacency) do
      local j = g.step[d][i]
      if j then a[#a + 1] = j end
    end
    g.adj[i] = a
  end
  return g
end

-- Made grids, by kind and arguments.  A grid depends only on its arguments, so a script that
-- asks for the same grid again (in setup, in moves, for every state) gets the one already made,
-- and needs no cache of its own.  Shared that way, a grid must not change: setting a new field
-- is an error, and its arrays (g.adj, g.step, g.rays ...) stay plain tables, for speed: read
-- them, never change them.
-- The memo is a tree of plain tables indexed by the arguments themselves (made.square[flags]
-- [w][h], ...), read by a small front door per kind, so that asking again costs a few table
-- reads that LuaJIT compiles into the caller's loop: scripts ask for their grid in every hook.
-- (A key string built per call cost about 10 microseconds; a lookup inside the large
-- constructor was not compiled and cost 60 ns; the front door about 1 ns.)  An argument of the
-- wrong type or range finds nothing and reaches the constructor's own check.
local made = {}

local function memo_put(g, kind, a, b, c)
  local t = made[kind] or {}; made[kind] = t
  local u = t[a] or {}; t[a] = u
  if c == nil then u[b] = g; return end
  local v = u[b] or {}; u[b] = v
  v[c] = g
end

local SharedGrid = {
  __index = Grid,
  __newindex = function(_, k)
    error(format("a grid is shared by every caller: it cannot take a new field (tried to set %s)", tostring(k)), 2)
  end,
  __metatable = false,
}

local function share(g, kind, a, b, c)
  -- The grid itself, not a view of it: its fields are read at full speed in the hot loops (a
  -- proxy's __index cost Trinim and 3verse 10-25% of their playouts).  A new field is refused;
  -- the fields it has are the script's to read, never to change.
  setmetatable(g, SharedGrid)
  memo_put(g, kind, a, b, c)
  return g
end

local function corners(x, y, r, start, count)
  local p = {}
  for k = 0, count - 1 do
    local a = (start + k * 360 / count) * pi / 180
    p[#p + 1] = x + r * cos(a)
    p[#p + 1] = y + r * sin(a)
  end
  return p
end

--- nomv.grid.square(w, h [, {adjacency=4|8, upper=false}]): files a.. left to right, ranks
--- 1.. bottom to top; ids "a1".."h8".  Directions n ne e se s sw w nw.  g.file[i], g.rank[i].
local function make_square(w, h, flags, opts)
  whole(w, "width", 1, 26); whole(h, "height", 1, 99)
  local cells, at = {}, {}
  local file, rank = {}, {}
  for r = 1, h do
    for f = 1, w do
      local x, y = f - 0.5, h - r + 0.5
      cells[#cells + 1] = {id = letter(f, opts.upper) .. r, x = x, y = y,
                           poly = {x - .5, y - .5, x + .5, y - .5, x + .5, y + .5, x - .5, y + .5}}
      at[r * 100 + f] = #cells
      file[#cells], rank[#cells] = f, r
    end
  end
  local DF = {0, 1, 1, 1, 0, -1, -1, -1}
  local DR = {1, 1, 0, -1, -1, -1, 0, 1}
  local adjacency = opts.adjacency == 8 and {1, 2, 3, 4, 5, 6, 7, 8} or {1, 3, 5, 7}
  local g = build("square", cells, {"n", "ne", "e", "se", "s", "sw", "w", "nw"},
    function(i, d)
      local f, r = file[i] + DF[d], rank[i] + DR[d]
      if f >= 1 and f <= w and r >= 1 and r <= h then return at[r * 100 + f] end
    end, adjacency, 0.5)
  g.w, g.h, g.file, g.rank = w, h, file, rank
  g.orthogonal, g.diagonal = {1, 3, 5, 7}, {2, 4, 6, 8}
  return share(g, "square", flags, w, h)
end

local function square(w, h, opts)
  h = h or w
  local flags = opts and (opts.adjacency == 8 and 2 or 0) + (opts.upper and 1 or 0) or 0
  local t = made.square
  t = t and t[flags]; t = t and t[w]; t = t and t[h]
  if t then return t end
  return make_square(w, h, flags, opts or {})     -- a tail call: its errors name the caller's line
end

--- nomv.grid.hexhex(side [, {upper=false}]): a hexagon of flat-topped hexagons.  Axial
--- coordinates g.q[i], g.r[i] with |q|, |r|, |q+r| <= side-1; id = letter a+(q+side-1) followed
--- by r+side (side 5: centre "e5", corners a5 a9 e1 e9 i1 i5).  Letters grow to the right,
--- numbers upwards.  Directions n ne se s sw nw.
local function make_hexhex(s, upper, opts)
  whole(s, "side", 1, 13)
  local cells, at, Q, R = {}, {}, {}, {}
  for q = -(s - 1), s - 1 do
    for r = math.max(-(s - 1), -q - (s - 1)), math.min(s - 1, -q + (s - 1)) do
      local x, y = 1.5 * q, -SQRT3 * (r + q / 2)
      cells[#cells + 1] = {id = letter(q + s, opts.upper) .. (r + s), x = x, y = y,
                           poly = corners(x, y, 1, 0, 6)}
      at[(q + 50) * 1000 + (r + 50)] = #cells
      Q[#cells], R[#cells] = q, r
    end
  end
  local DQ = {0, 1, 1, 0, -1, -1}
  local DR = {1, 0, -1, -1, 0, 1}
  local g = build("hexhex", cells, {"n", "ne", "se", "s", "sw", "nw"},
    function(i, d) return at[(Q[i] + DQ[d] + 50) * 1000 + (R[i] + DR[d] + 50)] end,
    {1, 2, 3, 4, 5, 6}, SQRT3 / 2)
  g.side, g.q, g.r = s, Q, R
  return share(g, "hexhex", upper, s)
end

local function hexhex(s, opts)
  local upper = opts and opts.upper and true or false
  local t = made.hexhex
  t = t and t[upper]; t = t and t[s]
  if t then return t end
  return make_hexhex(s, upper, opts or {})
end

--- nomv.grid.triangle(n [, {cell="hex"|"triangle", upper=false}]).
--- cell="hex" (default): a triangle of pointy-topped hexagons, apex at the top.  Row r (1..n,
--- from the apex) holds the letters n-r+1..n; a letter names a "\" diagonal (Trinim, Zertz).
--- Directions e ne nw w sw se; g.col[i], g.row[i].
--- cell="triangle": n rows of triangles, row r holding 2r-1 of them, ids letter(k)..r.
--- Directions n e s w (an up-pointing triangle has no n, a down-pointing one no s).
local function make_triangle(n, shape, upper, opts)
  whole(n, "size", 1, 26)
  local cells, at, C, Rw = {}, {}, {}, {}
  if opts.cell == nil or opts.cell == "hex" then
    for r = 1, n do
      for c = n - r + 1, n do
        local x, y = SQRT3 * ((c - 1) - (n - r) / 2), 1.5 * (r - 1)
        cells[#cells + 1] = {id = letter(c, opts.upper) .. r, x = x, y = y,
                             poly = corners(x, y, 1, 30, 6)}
        at[r * 100 + c] = #cells
        C[#cells], Rw[#cells] = c, r
      end
    end
    local DC = {1, 1, 0, -1, -1, 0}
    local DR = {0, -1, -1, 0, 1, 1}
    local g = build("triangle", cells, {"e", "ne", "nw", "w", "sw", "se"},
      function(i, d)
        local c, r = C[i] + DC[d], Rw[i] + DR[d]
        if r >= 1 and r <= n and c <= n and c + r > n then return at[r * 100 + c] end
      end, {1, 2, 3, 4, 5, 6}, SQRT3 / 2)
    g.size, g.col, g.row = n, C, Rw
    return share(g, "triangle", shape, upper, n)
  elseif opts.cell == "triangle" then
    local H = SQRT3 / 2
    for r = 1, n do
      for k = 1, 2 * r - 1 do
        local x0 = (n - r) / 2 + floor((k - 1) / 2)
        local poly
        if k % 2 == 1 then
          poly = {x0 + .5, (r - 1) * H, x0 + 1, r * H, x0, r * H}
        else
          poly = {x0 + .5, (r - 1) * H, x0 + 1.5, (r - 1) * H, x0 + 1, r * H}
        end
        local x, y = (poly[1] + poly[3] + poly[5]) / 3, (poly[2] + poly[4] + poly[6]) / 3
        cells[#cells + 1] = {id = letter(k, opts.upper) .. r, x = x, y = y, poly = poly}
        at[r * 100 + k] = #cells
        C[#cells], Rw[#cells] = k, r
      end
    end
    local g = build("triangles", cells, {"n", "e", "s", "w"},
      function(i, d)
        local k, r = C[i], Rw[i]
        local up = k % 2 == 1
        if d == 2 and k < 2 * r - 1 then return at[r * 100 + k + 1] end
        if d == 4 and k > 1 then return at[r * 100 + k - 1] end
        if d == 1 and not up then return at[(r - 1) * 100 + k - 1] end
        if d == 3 and up and r < n then return at[(r + 1) * 100 + k + 1] end
      end, {1, 2, 3, 4}, SQRT3 / 6)
    g.size, g.col, g.row = n, C, Rw
    return share(g, "triangle", shape, upper, n)
  end
  error("triangle: cell must be \"hex\" or \"triangle\", got " .. tostring(opts.cell), 2)
end

local function triangle(n, opts)
  local shape, upper = opts and opts.cell or "hex", opts and opts.upper and true or false
  local t = made.triangle
  t = t and t[shape]; t = t and t[upper]; t = t and t[n]
  if t then return t end
  return make_triangle(n, shape, upper, opts or {})
end

--- nomv.grid.cells(list [, links]): free cells for any other layout (open tile layouts,
--- irregular boards).  Each entry {id=, x=, y=, poly={x1,y1,...} or r=radius}.  Neighbours come
--- from `links` ({{"a","b"}, ...}) or, when links is nil, from polygons sharing an edge.
--- There are no named directions.
local function free(list, links)
  local cells = {}
  for i, c in ipairs(list) do
    if type(c.id) ~= "string" then error("cell " .. i .. " needs a string id", 2) end
    local poly = c.poly or corners(c.x, c.y, c.r or 0.5, 0, 16)
    cells[i] = {id = c.id, x = c.x, y = c.y, poly = poly}
  end
  local g = build("cells", cells, {}, function() end, {}, 0.5)
  local function link(a, b)
    local la, lb = g.adj[a], g.adj[b]
    for _, v in ipairs(la) do if v == b then return end end
    la[#la + 1], lb[#lb + 1] = b, a
  end
  if links then
    for _, l in ipairs(links) do
      local a, b = g.index[l[1]], g.index[l[2]]
      if not a or not b then error("link names an unknown cell: " .. tostring(l[1]) .. "-" .. tostring(l[2]), 2) end
      link(a, b)
    end
  else
    -- Two polygons are neighbours when they share two vertices (an edge).
    local function key(x, y) return format("%.3f,%.3f", x, y) end
    local seen = {}
    for i = 1, g.n do
      local p = g.poly[i]
      for k = 1, #p, 2 do
        local kk = key(p[k], p[k + 1])
        seen[kk] = seen[kk] or {}
        local s = seen[kk]
        s[#s + 1] = i
      end
    end
    local shared = {}
    for _, s in pairs(seen) do
      for a = 1, #s do
        for b = a + 1, #s do
          local i, j = s[a], s[b]
          if i ~= j then
            local k = math.min(i, j) * 100000 + math.max(i, j)
            shared[k] = (shared[k] or 0) + 1
            if shared[k] == 2 then link(i, j) end
          end
        end
      end
    end
    -- Keep the neighbour lists in a fixed order, whatever order pairs() visited.
    for i = 1, g.n do table.sort(g.adj[i]) end
  end
  return setmetatable(g, Grid)   -- its own, not shared: plain Grid (protected, like every grid)
end

--- nomv.grid.open([{reach = 250, dense = false}]): an unbounded square grid of slots, for open tile layouts
--- (Nonads, domino or Carcassonne-like games) whose extent grows during play.  A slot (x, y) is
--- one whole number, its key, so that a layout is a plain list of keys in the state and lookups
--- are array reads: the neighbours of a key are key - L.W, key + 1, key + L.W, key - 1 (n e s w,
--- also in L.dirs), and sorting keys sorts slots by row, then column.  x and y must stay within
--- `reach` of the origin; `dense` trades memory (8 bytes a slot) for speed in playouts.  Methods: L:key(x, y), L:xy(key), L:coord(key) -> "x,y",
--- L:id(prefix, key) -> prefix .. ":x,y", L:parse(text) -> the key of "x,y" or "...:x,y",
--- L:frontier(filled, keys [, out]), L:touching(key), L:bounds(keys).
local Open = {}
Open.__index = Open
Open.__metatable = false

local function open(opts)
  local reach = (opts and opts.reach) or 250
  whole(reach, "reach", 1, 2000)
  local W = 2 * reach + 2
  local L = setmetatable({W = W, reach = reach, dirs = {-W, 1, W, -1}, _coord = {}, _ids = {},
                          _mark = {}, _base = 0}, Open)
  L.origin = L:key(0, 0)
  if opts and opts.dense then
    -- An array of every slot makes frontier() several times faster than a sparse table.
    local mark = L._mark
    for i = 1, W * W + W do mark[i] = 0 end
  end
  return L
end

function Open:key(x, y)
  local r = self.reach
  if x < -r or x > r or y < -r or y > r then
    error(format("slot %s,%s is farther than %d from the origin", tostring(x), tostring(y), r), 2)
  end
  return (y + r + 1) * self.W + (x + r + 1)
end

function Open:xy(key)
  local W, r = self.W, self.reach
  return key % W - r - 1, floor(key / W) - r - 1
end

function Open:coord(key)
  local c = self._coord[key]
  if not c then
    local x, y = self:xy(key)
    c = x .. "," .. y
    self._coord[key] = c
  end
  return c
end

-- Ids are made once per slot and kept: step ids are asked for on every move.
function Open:id(prefix, key)
  local ids = self._ids[prefix]
  if not ids then ids = {}; self._ids[prefix] = ids end
  local id = ids[key]
  if not id then id = prefix .. ":" .. self:coord(key); ids[key] = id end
  return id
end

function Open:parse(text)
  local x, y = string.match(text, "(-?%d+),(-?%d+)$")
  if not x then return nil end
  x, y = tonumber(x), tonumber(y)
  if math.abs(x) > self.reach or math.abs(y) > self.reach then return nil end
  return self:key(x, y)
end

--- L:frontier(filled, keys [, out]) -> out, n: the empty slots sharing an edge with a filled
--- slot, in the order met walking `keys` (the filled slots).  filled[key] is truthy for a filled
--- slot.  Afterwards L:touching(j) tells how many filled slots share an edge with slot j.
--- `out` may be a scratch list to reuse (playouts); its extra entries are cleared.
function Open:frontier(filled, keys, out)
  out = out or {}
  local mark, dirs = self._mark, self.dirs
  local b = self._base + 8
  self._base = b
  local n = 0
  for i = 1, #keys do
    local k = keys[i]
    for d = 1, 4 do
      local j = k + dirs[d]
      if not filled[j] then
        local v = mark[j] or 0
        if v < b then mark[j] = b + 1; n = n + 1; out[n] = j
        else mark[j] = v + 1 end
      end
    end
  end
  for i = n + 1, #out do out[i] = nil end
  return out, n
end

function Open:touching(j)
  return (self._mark[j] or 0) - self._base
end

--- L:bounds(keys) -> x0, y0, x1, y1, the bounding box of the slots (nil for no slots).
function Open:bounds(keys)
  if #keys == 0 then return nil end
  local x0, y0, x1, y1 = huge_pos, huge_pos, -huge_pos, -huge_pos
  for i = 1, #keys do
    local x, y = self:xy(keys[i])
    if x < x0 then x0 = x end
    if x > x1 then x1 = x end
    if y < y0 then y0 = y end
    if y > y1 then y1 = y end
  end
  return x0, y0, x1, y1
end

---------------------------------------------------------------------------------------------
-- Methods

--- g:id(i) -> the id of cell i.
function Grid:id(i) return self.ids[i] end

--- g:at(id) -> the index of the cell with this id, or nil.
function Grid:at(id) return self.index[id] end

-- Methods take a cell as its index or its id.
local function cell(g, c)
  if type(c) == "string" then
    local i = g.index[c]
    if not i then error("no cell with id " .. string.format("%q", c), 3) end
    return i
  end
  if not g.ids[c] then error("no cell number " .. tostring(c), 3) end
  return c
end

local function dirindex(g, d)
  local k = type(d) == "string" and g.dir[d] or d
  if not g.step[k] then error("unknown direction " .. tostring(d), 3) end
  return k
end

--- g:ray(i, d) -> the cells from i (excluded) in direction d (a name or index) to the edge.
function Grid:ray(i, d)
  i = cell(self, i)
  local step = self.step[dirindex(self, d)]
  local out, j = {}, step[i]
  while j do out[#out + 1] = j; j = step[j] end
  return out
end

--- g:line(a, b) -> the cells from a to b inclusive and the direction index, when a and b lie on
--- one straight line of cells; nil otherwise.  g:line(a, a) -> {a}.
function Grid:line(a, b)
  a, b = cell(self, a), cell(self, b)
  if a == b then return {a} end
  for d = 1, #self.dirs do
    local step, j = self.step[d], self.step[d][a]
    while j and j ~= b do j = step[j] end
    if j then
      local out, k = {a}, a
      repeat k = step[k]; out[#out + 1] = k until k == b
      return out, d
    end
  end
  return nil
end

--- g:lines(k) -> every straight line of k cells along the grid's directions, each once (a list
--- of cell lists), and through[i]: the lines that pass through cell i.  For games won by k in a
--- row: after a move only the lines through the new stone can have changed.
function Grid:lines(k)
  whole(k, "the length of a line", 1, 1000)
  local lines, through = {}, {}
  for i = 1, self.n do through[i] = {} end
  local function add(line)
    lines[#lines + 1] = line
    for _, c in ipairs(line) do local t = through[c]; t[#t + 1] = line end
  end
  if k == 1 then
    for i = 1, self.n do add({i}) end
    return lines, through
  end
  for d = 1, #self.dirs do
    if d < self.opposite[d] then          -- one of each pair of opposite directions
      local step = self.step[d]
      for i = 1, self.n do
        local line, j = {i}, i
        while #line < k do
          j = step[j]
          if not j then break end
          line[#line + 1] = j
        end
        if #line == k then add(line) end
      end
    end
  end
  return lines, through
end

--- g:neighbours(i) -> the adjacent cells of i (a list shared with the grid: do not change it).
function Grid:neighbours(i) return self.adj[cell(self, i)] end

--- g:flood(start, ok) -> the cells connected to start through cells where ok(j) is true
--- (start itself is always included).
function Grid:flood(start, ok)
  start = cell(self, start)
  local seen, out, head = {[start] = true}, {start}, 1
  local adj = self.adj
  while head <= #out do
    local c = out[head]; head = head + 1
    for _, j in ipairs(adj[c]) do
      if not seen[j] and ok(j) then seen[j] = true; out[#out + 1] = j end
    end
  end
  return out
end

--- g:groups(key) -> a list of groups (lists of cells); key(i) gives each cell's group value, or
--- nil for cells in no group.  Adjacent cells with equal values join one group.
function Grid:groups(key)
  local val, done, groups = {}, {}, {}
  for i = 1, self.n do val[i] = key(i) end
  for i = 1, self.n do
    if val[i] ~= nil and not done[i] then
      local v = val[i]
      local gr = self:flood(i, function(j) return val[j] == v end)
      for _, c in ipairs(gr) do done[c] = true end
      groups[#groups + 1] = gr
    end
  end
  return groups
end

--- g:connected(present) -> true when the cells with present(i) true form at most one group.
function Grid:connected(present)
  local first, count = nil, 0
  for i = 1, self.n do
    if present(i) then count = count + 1; first = first or i end
  end
  if count == 0 then return true end
  return #self:flood(first, present) == count
end

--- g:scene([style]) -> scene items for the cells: polygons with the cells' ids, so that the
--- GUI can click them.  style.fill / style.stroke: a colour, or a function(i) giving one.
function Grid:scene(style)
  style = style or {}
  local items = {}
  for i = 1, self.n do
    local fill, stroke = style.fill or "#e8d9b5", style.stroke or "#5a4a30"
    if type(fill) == "function" then fill = fill(i) end
    if type(stroke) == "function" then stroke = stroke(i) end
    items[i] = {id = self.ids[i], shape = "polygon", points = self.poly[i], fill = fill,
                stroke = stroke, layer = style.layer or 0}
  end
  return items
end

--- g:piece(i, fill [, extra]) -> a round piece item centred on cell i.
function Grid:piece(i, fill, extra)
  local item = {shape = "circle", x = self.x[i], y = self.y[i], r = self.radius * 0.78,
                fill = fill, stroke = "#202020", layer = 1}
  if extra then for k, v in pairs(extra) do item[k] = v end end
  return item
end

return {square = square, hexhex = hexhex, triangle = triangle, cells = free, open = open}
