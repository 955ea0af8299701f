-- expect: E101 17
-- says: random_move took longer than
-- random_move loops forever once the board has two stones: the limit names the hook and line
local g = nomv.grid.square(3, 1)
return {
  name = "bad",
  setup = function(opts, rng) return {board = {0, 0, 0}, to_move = 1} end,
  moves = function(s)
    local out = {}
    for i = 1, 3 do if s.board[i] == 0 then out[#out + 1] = {g.ids[i]} end end
    return out
  end,
  random_move = function(s, rng)
    local free = {}
    for i = 1, 3 do if s.board[i] == 0 then free[#free + 1] = g.ids[i] end end
    local tries = 0
    while #free < 3 do tries = tries + 1 end  -- <- E101
    return {rng:pick(free)}
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
