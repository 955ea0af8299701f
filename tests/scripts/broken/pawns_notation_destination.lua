-- expect: E080 42
-- the notation names only where the pawn goes
-- Pawns: a small Breakthrough.  Move a pawn one cell forward, straight onto an empty cell or
-- diagonally onto an empty cell or an enemy pawn (taking it).  Reach the far rank, or leave
-- the opponent without a move, to win.
local g = nomv.grid.square(5, 5)
local FORWARD = {g.dir.n, g.dir.s}                 -- player 1 moves up (north), player 2 down
local DIAGONAL = {{g.dir.ne, g.dir.nw}, {g.dir.se, g.dir.sw}}

-- Every legal move of player p, as {from, to} steps.
local function moves_of(board, p)
  local out = {}
  for i = 1, g.n do
    if board[i] == p then
      local j = g.step[FORWARD[p]][i]
      if j and board[j] == 0 then out[#out + 1] = {g.ids[i], g.ids[j]} end
      for _, d in ipairs(DIAGONAL[p]) do
        local k = g.step[d][i]
        if k and board[k] ~= p then out[#out + 1] = {g.ids[i], g.ids[k]} end
      end
    end
  end
  return out
end

return {
  name = "pawns",
  title = "Pawns",
  players = {min = 2, max = 2, names = {"White", "Black"}},
  grid = g,
  pieces = {{fill = "white"}, {fill = "black"}},

  setup = function(opts, rng)
    local board = {}
    for i = 1, g.n do
      board[i] = g.rank[i] == 1 and 1 or g.rank[i] == 5 and 2 or 0
    end
    return {board = board, to_move = 1}
  end,

  moves = function(s) return moves_of(s.board, s.to_move) end,
  notation = function(s, m) return m[2] end,

  play = function(s, m)
    local board = nomv.copy(s.board)
    board[g:at(m[2])] = board[g:at(m[1])]
    board[g:at(m[1])] = 0
    return {board = board, to_move = 3 - s.to_move}
  end,

  result = function(s)
    for i = 1, g.n do
      if s.board[i] == 1 and g.rank[i] == 5 then return {winner = 1} end
      if s.board[i] == 2 and g.rank[i] == 1 then return {winner = 2} end
    end
    if #moves_of(s.board, s.to_move) == 0 then
      return {winner = 3 - s.to_move, reason = "no move left"}
    end
    return nil
  end,
}
