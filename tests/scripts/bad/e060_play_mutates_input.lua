-- expect: E060 15
-- play writes into the old state, through a local that is the old state's own board
-- says: this line changes state.board[2] through 'b', which is state.board itself since line 14 (local b = s.board)
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
    local b = s.board
    b[g:at(m[1])] = s.to_move  -- <- E060: the line that changed it
    return {board = b, to_move = 3 - s.to_move}
  end,
  result = function(s)
    for i = 1, 3 do if s.board[i] == 0 then return nil end end
    return {winner = 1}
  end,
  grid = g,
  pieces = {{fill = "black"}, {fill = "white"}},
}
