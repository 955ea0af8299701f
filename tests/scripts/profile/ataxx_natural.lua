-- Ataxx on 7x7, as a new author first wrote it from docs/tutorial.md and docs/script-api.md,
-- the natural way (nomv profile's test fixture: tests/test_profile.py checks what it advises).
--
-- Red (player 1) starts on a1 and g7, Blue on a7 and g1; Red moves first.  A move either clones
-- a piece onto an empty cell next to it (in any of the eight directions: a new piece; one step,
-- the cell) or makes one jump to an empty cell two cells away (the piece moves; two steps, from
-- and to).  Then every piece of the opponent next to the cell moved to becomes the mover's.  A
-- player who cannot move passes.  The game ends when the board is full, when a player has no
-- pieces, when neither player can move, or after 300 plies; most pieces wins, equal is a draw.

local g = nomv.grid.square(7, 7, {adjacency = 8})
local EMPTY, RED, BLUE = 0, 1, 2

-- The cells two steps away from cell i (in any direction, knight's moves included).
local function jumps(i)
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
  return out
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
          out[#out + 1] = {g.ids[j]}
        end
      end
      for _, j in ipairs(jumps(i)) do
        if board[j] == EMPTY then out[#out + 1] = {g.ids[i], g.ids[j]} end
      end
    end
  end
  return out
end

local function count(board, p)
  local n = 0
  for i = 1, g.n do if board[i] == p then n = n + 1 end end
  return n
end

return {
  name = "ataxx_natural",
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
    if #out == 0 then out = {{"pass"}} end
    return out
  end,

  play = function(s, m)
    local board = nomv.copy(s.board)
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
    if not over and #moves_of(s.board, RED) == 0 and #moves_of(s.board, BLUE) == 0 then over = true end
    if not over then return nil end
    if red == blue then return {draw = true, scores = {red, blue}} end
    return {winner = red > blue and RED or BLUE, scores = {red, blue}}
  end,
}
