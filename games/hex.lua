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
-- would cost more than the rest of the move, so the board is packed: cell values are 4-bit
-- digits, thirteen to a number (52 bits, exact in a double), and 11x11 is ten numbers.  Reading
-- a cell is one division by a power of two, which is exact on LuaJIT and Lua 5.4 alike.

local floor, max = math.floor, math.max
local PER = 13                       -- cells per number of the packed board
local SQRT3 = math.sqrt(3)
local NAMES = {"Black", "White"}
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
-- The value of player p's new stone from what it touches: VALUE[p][1 + a + 2 * b].
local VALUE = {{1, 2, 3, 4}, {5, 6, 7, 8}}

local WIN = {{winner = 1, reason = "north joined to south"},
             {winner = 2, reason = "west joined to east"}}

-- Everything that depends only on the size, built once per size and shared by every state.
--   CH[i], PL[i]: where cell i (1..n, row by row from the top) is packed: its value is
--             floor(board[CH[i]] / PL[i]) % 16;
--   NB[k][i]: the k-th neighbour of cell i (n, ne, e, s, sw, w, as OpenSpiel lists them), or
--             the dummy cell n + 1, never written and so always empty, where the board ends;
--   AT_A[p][i], AT_B[p][i]: 1 if cell i lies on player p's edge A / B;
--   MOVE[i]: the move that places a stone on cell i (shared: playouts allocate no moves).
local geometry = {}
local function geometry_of(size)
  local G = geometry[size]
  if G then return G end
  local n = size * size
  local CH, PL, NB, AT_A, AT_B, MOVE, list, links = {}, {}, {}, {{}, {}}, {{}, {}}, {}, {}, {}
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
  for i = 1, n + 1 do CH[i], PL[i] = floor((i - 1) / PER) + 1, floor(16 ^ ((i - 1) % PER)) end
  G = {size = size, n = n, chunks = CH[n + 1], CH = CH, PL = PL, NB = NB, AT_A = AT_A,
       AT_B = AT_B, MOVE = MOVE, grid = nomv.grid.cells(list, links)}
  geometry[size] = G
  return G
end

-- A copy of the packed board.  One constructor holds 11x11 (ten numbers; beyond the end it
-- reads nil, so smaller boards are copied exactly too) and a loop adds what larger ones have
-- more.  Not unpack: LuaJIT does not compile it, and leaves its fast code at every call.
local function copy(t, count)
  local c = {t[1], t[2], t[3], t[4], t[5], t[6], t[7], t[8], t[9], t[10]}
  for k = 11, count do c[k] = t[k] end
  return c
end

-- The value of cell i.
local function at(G, b, i)
  return floor(b[G.CH[i]] / G.PL[i]) % 16
end

-- Scratch space for the flood fill: a stack of cells (empty between calls; no state lives here).
local stack = {}

-- Marks with `value` every stone of value `plain` connected to cell i, in board b.
local function flood(b, G, i, plain, value)
  local NB, CH, PL = G.NB, G.CH, G.PL
  local top = 1
  stack[1] = i
  while top > 0 do
    local j = stack[top]
    top = top - 1
    for k = 1, 6 do
      local q = NB[k][j]
      if floor(b[CH[q]] / PL[q]) % 16 == plain then
        b[CH[q]] = b[CH[q]] + (value - plain) * PL[q]
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
          rules = "Place a stone on any empty cell. Black joins the top and bottom edges, White "
               .. "the left and right edges; the first to connect wins. Draws are impossible."},
  players = {min = 2, max = 2, names = NAMES, colours = FILL},
  options = {size = {default = 11, min = 5, max = 19, help = "cells along each side"}},

  -- board: the packed cells (see the top); winner: set once someone has won.
  setup = function(opts, rng)
    local board = {}
    for k = 1, geometry_of(opts.size).chunks do board[k] = 0 end
    return {size = opts.size, board = board, to_move = 1}
  end,

  moves = function(s)
    local G, b, out = geometry_of(s.size), s.board, {}
    for i = 1, G.n do
      if at(G, b, i) == EMPTY then out[#out + 1] = G.MOVE[i] end
    end
    return out
  end,

  -- Uniform over the empty cells: draw cells until one is empty (about two draws a move in a
  -- random game, and no list of empty cells to copy at every move).
  random_move = function(s, rng)
    local G, b = geometry_of(s.size), s.board
    local i = rng:int(G.n)
    if at(G, b, i) == EMPTY then return G.MOVE[i] end
    repeat i = rng:int(G.n) until at(G, b, i) == EMPTY
    return G.MOVE[i]
  end,

  play = function(s, m)
    local G, p = geometry_of(s.size), s.to_move
    local NB, onA, onB = G.NB, ON_A[p], ON_B[p]
    local b = copy(s.board, G.chunks)
    local i = cell_of(G, m)
    -- Does the new stone touch edge A, directly or through a neighbouring group?  And B?
    local v1, v2, v3 = at(G, b, NB[1][i]), at(G, b, NB[2][i]), at(G, b, NB[3][i])
    local v4, v5, v6 = at(G, b, NB[4][i]), at(G, b, NB[5][i]), at(G, b, NB[6][i])
    local a = max(G.AT_A[p][i], onA[v1], onA[v2], onA[v3], onA[v4], onA[v5], onA[v6])
    local z = max(G.AT_B[p][i], onB[v1], onB[v2], onB[v3], onB[v4], onB[v5], onB[v6])
    local v = VALUE[p][1 + a + 2 * z]
    b[G.CH[i]] = b[G.CH[i]] + v * G.PL[i]
    local new = {size = s.size, board = b, to_move = 3 - p}
    if v == JOINED[p] then
      new.winner = p
    elseif v ~= PLAIN[p] then
      flood(b, G, i, PLAIN[p], v)               -- the plain stones joined to it reach the edge too
    end
    return new
  end,

  result = function(s)
    if s.winner then return WIN[s.winner] end
    return nil
  end,

  -- OpenSpiel's notation: the column letter, then the row from the top (a1 is the north-west
  -- corner, k11 the south-east one on 11x11).
  notation = function(s, m)
    return m[1]
  end,

  scene = function(s)
    local G = geometry_of(s.size)
    local g, size = G.grid, s.size
    local items = g:scene({fill = "#e8cf9a", stroke = "#7a6040"})
    for i = 1, G.n do
      local o = OWNER[at(G, s.board, i)]
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
    if s.winner then
      items.status = NAMES[s.winner] .. " wins"
    else
      items.status = NAMES[s.to_move] .. " to move"
    end
    return items
  end,

  -- OpenSpiel's picture: row 1 first, each row one space further right; x Black, o White.
  text = function(s)
    local G, lines, size = geometry_of(s.size), {}, s.size
    for r = 1, size do
      local row = {}
      for c = 1, size do
        row[c] = ({[0] = ".", "x", "o"})[OWNER[at(G, s.board, (r - 1) * size + c)]]
      end
      lines[r] = string.rep(" ", r - 1) .. table.concat(row, " ")
    end
    return table.concat(lines, "\n")
  end,
}
