-- expect: W064 9
-- says: steps must return nil, not {}
local g = nomv.grid.square(3, 1)
return {
  name = "bad",
  setup = function(opts, rng) return {board = {0, 0, 0}, to_move = 1} end,
  -- A move is one empty cell.  But a whole move must be nil, and {} says "a dead end": every
  -- move is dropped, the player to move has none, and every game is over before it starts.
  steps = function(s, m)  -- <- W064
    if #m == 1 then return {} end
    local out = {}
    for i = 1, 3 do if s.board[i] == 0 then out[#out + 1] = g.ids[i] end end
    return out
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
