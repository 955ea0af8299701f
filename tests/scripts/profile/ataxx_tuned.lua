-- Ataxx on 7x7: the same author's tuned version, written with everything docs/script-api.md's
-- "Fast random playouts" teaches, to measure how far ataxx_profiled.lua (only what `nomv
-- profile` advised) is from it: besides the profiled version's changes, the state is one list
-- of numbers (the board's 49 cells, then whose move it is, the ply and each player's count of
-- pieces), so that play() makes one table a move and result() reads the counts instead of
-- counting; the shared moves carry their cells (m.from, m.to) for play().  Rules as in
-- ataxx_natural.lua.

local g = nomv.grid.square(7, 7, {adjacency = 8})
local EMPTY, RED, BLUE = 0, 1, 2
local N = g.n
local TO_MOVE, PLY, COUNT = N + 1, N + 2, N + 2   -- COUNT + p: player p's pieces
local LAST = N + 4

-- The cells two steps away from cell i (in any direction, knight's moves included), listed once.
local JUMPS = {}
for i = 1, g.n do
  local out = {}
  local f, r = g.file[i], g.rank[i]
  for df = -2, 2 do
    for dr = -2, 2 do
      if math.max(math.abs(df), math.abs(dr)) == 2 then
        local j = g:at(string.char(96 + f + df) .. (r + dr))
        if j then out[#out + 1] = j end
      end
    end
  end
  JUMPS[i] = out
end

-- The moves, made once and shared (nomv never changes them): a clone onto j, a jump from i to j.
local CLONE, JUMP = {}, {}
for i = 1, g.n do
  CLONE[i] = {g.ids[i], to = i}
  JUMP[i] = {}
  for _, j in ipairs(JUMPS[i]) do JUMP[i][j] = {g.ids[i], g.ids[j], from = i, to = j} end
end
local PASS = {{"pass"}}

-- The candidates of a random move, all equally likely: a clone onto each cell, then each jump.
local CANDIDATES = {}
for i = 1, g.n do CANDIDATES[#CANDIDATES + 1] = {0, i} end
for i = 1, g.n do
  for _, j in ipairs(JUMPS[i]) do CANDIDATES[#CANDIDATES + 1] = {i, j} end
end

-- Every move of player p: a clone names the empty cell (once, whichever piece makes it), a jump
-- its two cells.
local function moves_of(board, p)
  local out, cloned = {}, {}
  for i = 1, g.n do
    if board[i] == p then
      for _, j in ipairs(g:neighbours(i)) do
        if board[j] == EMPTY and not cloned[j] then
          cloned[j] = true
          out[#out + 1] = CLONE[j]
        end
      end
      for _, j in ipairs(JUMPS[i]) do
        if board[j] == EMPTY then out[#out + 1] = JUMP[i][j] end
      end
    end
  end
  return out
end

-- Whether player p has a move: stops at the first.  (A piece that can jump can also clone,
-- or has every cell next to it full; so: an empty cell one or two steps from one of p's.)
local function can_move(board, p)
  for i = 1, g.n do
    if board[i] == p then
      for _, j in ipairs(g:neighbours(i)) do if board[j] == EMPTY then return true end end
      for _, j in ipairs(JUMPS[i]) do if board[j] == EMPTY then return true end end
    end
  end
  return false
end

return {
  name = "ataxx_tuned",
  title = "Ataxx",
  players = {min = 2, max = 2, names = {"Red", "Blue"}, colours = {"#d43c3c", "#3c64d4"}},

  setup = function(opts, rng)
    local s = {}
    for i = 1, N do s[i] = EMPTY end
    s[g:at("a1")], s[g:at("g7")] = RED, RED
    s[g:at("a7")], s[g:at("g1")] = BLUE, BLUE
    s[TO_MOVE], s[PLY], s[COUNT + RED], s[COUNT + BLUE] = RED, 0, 2, 2
    return s
  end,

  to_move = function(s) return s[TO_MOVE] end,

  moves = function(s)
    local out = moves_of(s, s[TO_MOVE])
    if #out == 0 then return PASS end
    return out
  end,

  -- Draws candidates until one is legal (each legal move equally likely); after many misses
  -- (a nearly full board), draws from the list instead.
  random_move = function(s, rng)
    local board, p = s, s[TO_MOVE]
    for _ = 1, 100 do
      local c = CANDIDATES[rng:int(#CANDIDATES)]
      local i, j = c[1], c[2]
      if board[j] == EMPTY then
        if i == 0 then
          for _, k in ipairs(g:neighbours(j)) do
            if board[k] == p then return CLONE[j] end
          end
        elseif board[i] == p then
          return JUMP[i][j]
        end
      end
    end
    local ms = nomv.legal(s)
    return ms[rng:int(#ms)]
  end,

  play = function(s, m)
    local new = nomv.copy_list(s, LAST)
    local p = s[TO_MOVE]
    if m[1] ~= "pass" then
      local to = m.to
      if m.from then new[m.from] = EMPTY else new[COUNT + p] = new[COUNT + p] + 1 end
      new[to] = p
      local taken = 0
      for _, j in ipairs(g.adj[to]) do
        if new[j] == 3 - p then new[j] = p; taken = taken + 1 end
      end
      new[COUNT + p] = new[COUNT + p] + taken
      new[COUNT + 3 - p] = new[COUNT + 3 - p] - taken
    end
    new[TO_MOVE], new[PLY] = 3 - p, s[PLY] + 1
    return new
  end,

  result = function(s)
    local red, blue, p = s[COUNT + RED], s[COUNT + BLUE], s[TO_MOVE]
    local over = red + blue == N or red == 0 or blue == 0 or s[PLY] >= 300
    if not over and not can_move(s, p) and not can_move(s, 3 - p) then over = true end
    if not over then return nil end
    if red == blue then return {draw = true, scores = {red, blue}} end
    return {winner = red > blue and RED or BLUE, scores = {red, blue}}
  end,

  scene = function(s)
    local items = g:scene()
    for i = 1, N do
      if s[i] ~= EMPTY then items[#items + 1] = g:piece(i, s[i] == RED and "#d43c3c" or "#3c64d4") end
    end
    return items
  end,
}
