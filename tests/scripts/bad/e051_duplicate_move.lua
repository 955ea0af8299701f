-- expect: E051 14
-- every move twice: reported once (not also as two moves with one notation), at the line that
-- added the second copy
local g = nomv.grid.square(3, 1)
return {
  name = "bad",
  setup = function(opts, rng) return {board = {0, 0, 0}, to_move = 1} end,
  moves = function(s)
    local out = {}
    for i = 1, 3 do
      if s.board[i] == 0 then out[#out + 1] = {g.ids[i]} end
    end
    for i = 1, 3 do
      if s.board[i] == 0 then table.insert(out, {g.ids[i]}) end  -- <- E051
    end
    return out
  end,
  play = function(s, m)
    local b = nomv.copy(s.board)
    b[g:at(m[1])] = s.to_move
    return {board = b, to_move = 3 - s.to_move}
  end,
  result = function(s)
    for i = 1, 3 do if s.board[i] == 0 then return nil end end
    return {winner = 1}
  end,
  grid = g,
  pieces = {{fill = "black"}, {fill = "white"}},
}
