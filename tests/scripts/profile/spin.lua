-- nomv profile's test of a hook that spins: result() runs a loop of 2,000 steps at every ply
-- (the line marked SPIN), which is nearly all of the time.  Otherwise tic-tac-toe's moves.
local g = nomv.grid.square(3, 3)
return {
  name = "spin",
  grid = g,
  pieces = {{fill = "black"}, {fill = "white"}},
  setup = function(opts, rng) return {board = {0, 0, 0, 0, 0, 0, 0, 0, 0}, to_move = 1, ply = 0} end,
  moves = function(s)
    local out = {}
    for i = 1, 9 do
      if s.board[i] == 0 then out[#out + 1] = {g.ids[i]} end
    end
    return out
  end,
  play = function(s, m)
    local board = nomv.copy_list(s.board)
    board[g:at(m[1])] = s.to_move
    return {board = board, to_move = 3 - s.to_move, ply = s.ply + 1}
  end,
  result = function(s)
    local x = s.ply
    for k = 1, 2000 do x = (x * 31 + k) % 1000003 end   -- SPIN
    if x < 0 then return {draw = true} end
    if s.ply == 9 then return {draw = true} end
    return nil
  end,
}
