-- Hex, with exactly OpenSpiel's rules (open_spiel/games/hex), its default board_size 11 and no
-- swap rule: a rhombus of hexagons; Black (OpenSpiel's x, player 1) moves first; players take
-- turns placing a stone on any empty cell.  Black wins by joining the north edge (row 1) to the
-- south edge, White (o) by joining the west edge (column a) to the east edge.  A full board
-- always holds one of the two connections, so there are no draws.  121 first moves on 11x11.
--
-- Written for speed (nomv bench compares it with OpenSpiel and Ludii), in OpenSpiel's way: a
-- stone records whether its group touches one of its player's two edges, so a new stone wins
-- when its neighbours (or the edges it stands on) reach both, which is found without searching.
-- When a stone joins a group to an edge, a flood fill marks that group, so each stone is marked
-- at most once a game.  play() must not change its input, and copying 121 cells at every move
-- would cost more than the rest of the move, so the board is packed (nomv.packed): cell values
-- are 4-bit digits, thirteen to a number, and 11x11 is ten numbers.  The state is one list of
-- numbers, whose first slots hold whose turn it is, the winner and the size: one table a move
-- (a table with named fields costs a second allocation for its hash part).

local max = math.max
local SQRT3 = math.sqrt(3)
local NAMES = {{en = "Black", it = "Nero"}, {en = "White", it = "Bianco"}}
local FILL = {"#202020", "#f4f4f4"}

-- Cell values.  A stone's value says which of its player's edges its group touches: A is
-- north for Black and west for White, B south or east.
local EMPTY = 0
local PLAIN, EDGE_A, EDGE_B, JOINED = {1, 5}, {2, 6}, {3, 7}, {4, 8}
-- Indexed by a cell value 0..8 (dense tables: LuaJIT compiles look-ups in them without
-- branching): whether it is player p's stone on edge A, on edge B, and whose stone it is.
local ON_A = {{[0] = 0, 0, 1, 0, 1, 0, 0, 0, 0}, {[0] = 0, 0, 0, 0, 0, 0, 1, 0, 1}}
local ON_B = {{[0] = 0, 0, 0, 1, 1, 0, 0, 0, 0}, {[0] = 0, 0, 0, 0, 0, 0, 0, 1, 1}}
local OWNER = {[0] = 0, 1, 1, 1, 1, 2, 2, 2, 2}
-- IS_PLAIN[p][v] = 1 if v is player p's stone whose group touches neither edge.
local IS_PLAIN = {{[0] = 0, 1, 0, 0, 0, 0, 0, 0, 0}, {[0] = 0, 0, 0, 0, 0, 1, 0, 0, 0}}
-- The value of player p's new stone from what it touches: VALUE[p][1 + a + 2 * b].
local VALUE = {{1, 2, 3, 4}, {5, 6, 7, 8}}

-- The state's slots: whose turn it is, the winner (0 while the game runs), the size, then the
-- packed board from slot BOARD on.
local TO_MOVE, WINNER, SIZE, BOARD = 1, 2, 3, 4

local WIN = {{winner = 1, reason = {en = "north joined to south", it = "nord unito a sud"}},
             {winner = 2, reason = {en = "west joined to east", it = "ovest unito a est"}}}

-- Everything that depends only on the size, built once per size and shared by every state.
--   L:        the packed layout of the board's cells 1..n (row by row from the top), plus a
--             dummy cell n + 1, never written and so always empty, where the board ends;
--   NB[k][i]: the k-th neighbour of cell i (n, ne, e, s, sw, w, as OpenSpiel lists them), or n + 1;
--   AT_A[p][i], AT_B[p][i]: 1 if cell i lies on player p's edge A / B;
--   MOVE[i]: the move that places a stone on cell i (shared: playouts allocate no moves).
-- geometry[size] is filled with false up to the largest size, so that it is a plain array
-- (LuaJIT reads those quicker than a table keyed by scattered numbers).
local geometry = {}
for size = 1, 19 do geometry[size] = false end
local function geometry_of(size)
  local G = geometry[size]
  if G then return G end
  local n = size * size
  local NB, AT_A, AT_B, MOVE, list, links = {}, {{}, {}}, {{}, {}}, {}, {}, {}
  local DR = {-1, -1, 0, 1, 1, 0}
  local DC = {0, 1, 1, 0, -1, -1}
  for k = 1, 6 do NB[k] = {} end
  for r = 1, size do
    for c = 1, size do
      local i = (r - 1) * size + c
      local id = string.char(96 + c) .. r
      for k = 1, 6 do
        local r2, c2 = r + DR[k], c + DC[k]
        local inside = r2 >= 1 and r2 <= size and c2 >= 1 and c2 <= size
        NB[k][i] = inside and (r2 - 1) * size + c2 or n + 1
        if inside and k <= 3 then links[#links + 1] = {id, string.char(96 + c2) .. r2} end
      end
      AT_A[1][i], AT_B[1][i] = r == 1 and 1 or 0, r == size and 1 or 0
      AT_A[2][i], AT_B[2][i] = c == 1 and 1 or 0, c == size and 1 or 0
      MOVE[i] = {id, cell = i}
      -- Pointy-topped hexagons, each row half a cell to the right of the one above (as
      -- OpenSpiel prints the board), row 1 at the top.
      local x, y = SQRT3 * ((c - 1) + (r - 1) / 2), 1.5 * (r - 1)
      local poly = {}
      for k = 0, 5 do
        local a = (30 + 60 * k) * math.pi / 180
        poly[#poly + 1], poly[#poly + 2] = x + math.cos(a), y + math.sin(a)
      end
      list[i] = {id = id, x = x, y = y, poly = poly}
    end
  end
  G = {size = size, n = n, L = nomv.packed(n + 1, 4, BOARD), NB = NB, AT_A = AT_A, AT_B = AT_B,
       MOVE = MOVE, grid = nomv.grid.cells(list, links)}
  geometry[size] = G
  return G
end

-- Scratch space for the flood fill: a stack of cells (empty between calls; no state lives here).
local stack = {}

-- Marks with `value` every stone of value `plain` connected to cell i, in board b.
local function flood(b, G, i, plain, value)
  local NB, L = G.NB, G.L
  local top = 1
  stack[1] = i
  while top > 0 do
    local j = stack[top]
    top = top - 1
    for k = 1, 6 do
      local q = NB[k][j]
      if L:get(b, q) == plain then
        L:set(b, q, value)
        top = top + 1
        stack[top] = q
      end
    end
  end
end

local function cell_of(G, m)
  return m.cell or G.grid.index[m[1]]
end

return {
  name = "hex",
  title = "Hex",
  info = {source = "OpenSpiel hex (board_size 11, no swap rule)",
          rules = {en = "Place a stone on any empty cell. Black joins the top and bottom edges, White "
                        .. "the left and right edges; the first to connect wins. Draws are impossible.",
                   it = "Metti una pietra su una cella vuota qualsiasi. Il Nero collega il bordo "
                        .. "superiore a quello inferiore, il Bianco il sinistro al destro; vince chi li "
                        .. "collega per primo. La patta è impossibile."}},
  players = {min = 2, max = 2, names = NAMES, colours = FILL},
  options = {size = {default = 11, min = 5, max = 19, label = {en = "size", it = "lato"},
                     help = {en = "cells along each side", it = "celle per lato"}}},

  setup = function(opts, rng)
    return geometry_of(opts.size).L:clear({[TO_MOVE] = 1, [WINNER] = 0, [SIZE] = opts.size})
  end,

  to_move = function(s)
    return s[TO_MOVE]
  end,

  moves = function(s)
    local G, out = geometry_of(s[SIZE]), {}
    for i = 1, G.n do
      if G.L:get(s, i) == EMPTY then out[#out + 1] = G.MOVE[i] end
    end
    return out
  end,

  -- Uniform over the empty cells: draw cells until one is empty (about two draws a move in a
  -- random game, and no list of empty cells to copy at every move).
  random_move = function(s, rng)
    local G = geometry_of(s[SIZE])
    local L, n = G.L, G.n
    -- The first three draws are written out rather than looped: LuaJIT compiles each as a
    -- branch of the ply's own code, where a loop that runs a different number of times at
    -- every ply is a trace of its own to enter and leave (the same draws either way).
    local i = rng:int(n)
    if L:get(s, i) == EMPTY then return G.MOVE[i] end
    i = rng:int(n)
    if L:get(s, i) == EMPTY then return G.MOVE[i] end
    i = rng:int(n)
    if L:get(s, i) == EMPTY then return G.MOVE[i] end
    repeat i = rng:int(n) until L:get(s, i) == EMPTY
    return G.MOVE[i]
  end,

  play = function(s, m)
    local G, p = geometry_of(s[SIZE]), s[TO_MOVE]
    local NB, L, onA, onB = G.NB, G.L, ON_A[p], ON_B[p]
    local b = L:copy(s)
    b[TO_MOVE] = 3 - p
    local i = cell_of(G, m)
    -- Does the new stone touch edge A, directly or through a neighbouring group?  And B?
    local v1, v2, v3 = L:get(b, NB[1][i]), L:get(b, NB[2][i]), L:get(b, NB[3][i])
    local v4, v5, v6 = L:get(b, NB[4][i]), L:get(b, NB[5][i]), L:get(b, NB[6][i])
    local a = max(G.AT_A[p][i], onA[v1], onA[v2], onA[v3], onA[v4], onA[v5], onA[v6])
    local z = max(G.AT_B[p][i], onB[v1], onB[v2], onB[v3], onB[v4], onB[v5], onB[v6])
    local v = VALUE[p][1 + a + 2 * z]
    L:set(b, i, v)
    if v == JOINED[p] then
      b[WINNER] = p
    elseif v ~= PLAIN[p] then
      -- The plain stones joined to it reach the edge too.  Most new stones have no plain
      -- neighbour of their own colour, and the six values are at hand: only then is the flood
      -- fill entered (entering its loop costs more than the cells it looks at).
      local plain = IS_PLAIN[p]
      if plain[v1] + plain[v2] + plain[v3] + plain[v4] + plain[v5] + plain[v6] > 0 then
        flood(b, G, i, PLAIN[p], v)
      end
    end
    return b
  end,

  result = function(s)
    if s[WINNER] ~= 0 then return WIN[s[WINNER]] end
    return nil
  end,

  -- OpenSpiel's notation: the column letter, then the row from the top (a1 is the north-west
  -- corner, k11 the south-east one on 11x11).
  notation = function(s, m)
    return m[1]
  end,

  scene = function(s)
    local G = geometry_of(s[SIZE])
    local g, size = G.grid, s[SIZE]
    local items = g:scene({fill = "#e8cf9a", stroke = "#7a6040"})
    for i = 1, G.n do
      local o = OWNER[G.L:get(s, i)]
      if o > 0 then items[#items + 1] = g:piece(i, FILL[o], {r = 0.68, stroke = "#303030"}) end
    end
    -- Each player's two edges, drawn just outside the board in the player's colour, and the
    -- coordinates: letters along the north edge, numbers along the west edge.
    local function edge(i1, i2, dx, dy, colour)
      items[#items + 1] = {shape = "line", layer = 0, width = 0.3, stroke = colour,
                           points = {g.x[i1] + dx, g.y[i1] + dy, g.x[i2] + dx, g.y[i2] + dy}}
    end
    local last = (size - 1) * size
    edge(1, size, 0, -1.2, FILL[1])                         -- north
    edge(last + 1, G.n, 0, 1.2, FILL[1])                    -- south
    edge(1, last + 1, -1.3, 0, "#c8c8c8")                   -- west
    edge(size, G.n, 1.3, 0, "#c8c8c8")                      -- east
    for c = 1, size do
      items[#items + 1] = {shape = "text", x = g.x[c], y = g.y[c] - 1.75, size = 0.6,
                           text = string.char(96 + c), fill = "#303030"}
    end
    for r = 1, size do
      local i = (r - 1) * size + 1
      items[#items + 1] = {shape = "text", x = g.x[i] - 2.1, y = g.y[i], text = tostring(r),
                           size = 0.6, fill = "#303030"}
    end
    return items
  end,

  -- OpenSpiel's picture: row 1 first, each row one space further right; x Black, o White.
  text = function(s)
    local G, lines, size = geometry_of(s[SIZE]), {}, s[SIZE]
    for r = 1, size do
      local row = {}
      for c = 1, size do
        row[c] = ({[0] = ".", "x", "o"})[OWNER[G.L:get(s, (r - 1) * size + c)]]
      end
      lines[r] = string.rep(" ", r - 1) .. table.concat(row, " ")
    end
    return table.concat(lines, "\n")
  end,
}
