-- nomv profile's test of a line that allocates: play() makes ten tables at the line marked
-- ALLOC and keeps them in the state (so that no compiler can leave them out): twelve tables
-- a ply in all, with the board and the state.
local g = nomv.grid.square(3, 3)
return {
  name = "alloc",
  grid = g,
  pieces = {{fill = "black"}, {fill = "white"}},
  setup = function(opts, rng) return {board = {0, 0, 0, 0, 0, 0, 0, 0, 0}, to_move = 1} end,
  moves = function(s)
    local out = {}
    for i = 1, 9 do
      if s.board[i] == 0 then out[#out + 1] = {g.ids[i]} end
    end
    return out
  end,
  play = function(s, m)
    local board = {}
    for i = 1, 9 do board[i] = s.board[i] end
    board[g:at(m[1])] = s.to_move
    local new = {board = board, to_move = 3 - s.to_move}
    for k = 1, 10 do new[k] = {k, s.to_move} end   -- ALLOC
    return new
  end,
  result = function(s)
    for i = 1, 9 do if s.board[i] == 0 then return nil end end
    return {draw = true}
  end,
}
