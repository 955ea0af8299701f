-- expect: E062 16
-- the game never ends
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
    local b = {0, 0, 0}
    return {board = b, to_move = 3 - s.to_move}
  end,
  result = function(s)  -- <- E062
    return nil
  end,
  grid = g,
  pieces = {{fill = "black"}, {fill = "white"}},
}
