-- Ataxx on 7x7: ataxx_natural.lua after its author applied what `nomv profile` advised, and
-- nothing else (tests/test_profile.py; the figures are in docs/script-api.md): result() asks
-- nomv.legal(s) and stops at the first move of the other player instead of listing both
-- players' moves to count them; the cells two steps away are listed once, when the script
-- loads, instead of being found by building their ids as text; the moves are made once, at
-- load, and shared.
--
-- Red (player 1) starts on a1 and g7, Blue on a7 and g1; Red moves first.  A move either clones
-- a piece onto an empty cell next to it (in any of the eight directions: a new piece; one step,
-- the cell) or makes one jump to an empty cell two cells away (the piece moves; two steps, from
-- and to).  Then every piece of the opponent next to the cell moved to becomes the mover's.  A
-- player who cannot move passes.  The game ends when the board is full, when a player has no
-- pieces, when neither player can move, or after 300 plies; most pieces wins, equal is a draw.

local g = nomv.grid.square(7, 7, {adjacency = 8})
local EMPTY, RED, BLUE = 0, 1, 2

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
  CLONE[i] = {g.ids[i]}
  JUMP[i] = {}
  for _, j in ipairs(JUMPS[i]) do JUMP[i][j] = {g.ids[i], g.ids[j]} end
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

local function count(board, p)
  local n = 0
  for i = 1, g.n do if board[i] == p then n = n + 1 end end
  return n
end

return {
  name = "ataxx_profiled",
  title = "Ataxx",
  players = {min = 2, max = 2, names = {"Red", "Blue"}, colours = {"#d43c3c", "#3c64d4"}},
  grid = g,
  pieces = {{fill = "#d43c3c"}, {fill = "#3c64d4"}},

  setup = function(opts, rng)
    local board = {}
    for i = 1, g.n do board[i] = EMPTY end
    board[g:at("a1")], board[g:at("g7")] = RED, RED
    board[g:at("a7")], board[g:at("g1")] = BLUE, BLUE
    return {board = board, to_move = RED, ply = 0}
  end,

  moves = function(s)
    local out = moves_of(s.board, s.to_move)
    if #out == 0 then return PASS end
    return out
  end,

  -- Draws candidates until one is legal (each legal move equally likely); after many misses
  -- (a nearly full board), draws from the list instead.
  random_move = function(s, rng)
    local board, p = s.board, s.to_move
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
    local board = nomv.copy_list(s.board)
    local p = s.to_move
    if m[1] ~= "pass" then
      local to
      if #m == 1 then
        to = g:at(m[1])
      else
        to = g:at(m[2])
        board[g:at(m[1])] = EMPTY
      end
      board[to] = p
      for _, j in ipairs(g:neighbours(to)) do
        if board[j] == 3 - p then board[j] = p end
      end
    end
    return {board = board, to_move = 3 - p, ply = s.ply + 1}
  end,

  result = function(s)
    local red, blue = count(s.board, RED), count(s.board, BLUE)
    local over = red + blue == g.n or red == 0 or blue == 0 or s.ply >= 300
    if not over and not can_move(s.board, s.to_move) and not can_move(s.board, 3 - s.to_move) then over = true end
    if not over then return nil end
    if red == blue then return {draw = true, scores = {red, blue}} end
    return {winner = red > blue and RED or BLUE, scores = {red, blue}}
  end,
}
