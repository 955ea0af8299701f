-- expect: E053 19
-- winner is not a player number
local g = nomv.grid.square(3, 1)
return {
  name = "bad",
  setup = function(opts, rng) return {board = {0, 0, 0}, to_move = 1} end,
  moves = function(s)
    local out = {}
    for i = 1, 3 do if s.board[i] == 0 then out[#out + 1] = {g.ids[i]} end end
    return out
  end,
  play = function(s, m)
    local b = nomv.copy(s.board)
    b[g:at(m[1])] = s.to_move
    return {board = b, to_move = 3 - s.to_move}
  end,
  result = function(s)
    for i = 1, 3 do if s.board[i] == 0 then return nil end end
    return {winner = 3}  -- <- E053: the return that gave it
  end,
  grid = g,
  pieces = {{fill = "black"}, {fill = "white"}},
}
