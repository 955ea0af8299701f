-- expect: E050 9
-- says: steps must return a list of the next steps
local g = nomv.grid.square(3, 1)
return {
  name = "bad",
  setup = function(opts, rng) return {board = {0, 0, 0}, to_move = 1} end,
  steps = function(s, m)
    if #m == 1 then return nil end
    for i = 1, 3 do if s.board[i] == 0 then return g.ids[i] end end  -- <- E050: the cell's id alone, not a list
    return {}
  end,
  play = function(s, m)
    local b = nomv.copy_list(s.board)
    b[g:at(m[1])] = s.to_move
    return {board = b, to_move = 3 - s.to_move}
  end,
  result = function(s)
    if not nomv.has_move(s) then return {winner = 3 - s.to_move} end
    return nil
  end,
  grid = g,
  pieces = {{fill = "black"}, {fill = "white"}},
}
