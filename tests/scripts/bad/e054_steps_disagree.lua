-- expect: E054 16
-- says: moves lists
local g = nomv.grid.square(3, 1)
return {
  name = "bad",
  setup = function(opts, rng) return {board = {0, 0, 0}, to_move = 1} end,
  moves = function(s)
    local out = {}
    for i = 1, 3 do if s.board[i] == 0 then out[#out + 1] = {g.ids[i]} end end
    return out
  end,
  -- A move is one empty cell, as moves lists; but steps forgets the last cell (its loop
  -- stops at 2), and a game that has both must describe the same moves with each.
  --
  --
  steps = function(s, m)  -- <- E054
    if #m == 1 then return nil end
    local out = {}
    for i = 1, 2 do if s.board[i] == 0 then out[#out + 1] = g.ids[i] end end
    return out
  end,
  play = function(s, m)
    local b = nomv.copy_list(s.board)
    b[g:at(m[1])] = s.to_move
    return {board = b, to_move = 3 - s.to_move}
  end,
  result = function(s)
    for i = 1, 3 do if s.board[i] == 0 then return nil end end
    return {draw = true}
  end,
  grid = g,
  pieces = {{fill = "black"}, {fill = "white"}},
}
