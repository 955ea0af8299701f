-- expect: E101 16
-- says: random_move took longer than
-- random_move hangs at ply 11, which only the fast playouts (LuaJIT, whose hook cannot stop a
-- compiled loop: its worker is stopped) reach: the checker finds the line on Lua 5.4
local g = nomv.grid.square(10, 1)
return {
  name = "bad",
  setup = function(opts, rng) return {ply = 0, to_move = 1} end,
  moves = function(s)
    local out = {}
    for i = 1, 10 do out[i] = {g.ids[i]} end
    return out
  end,
  random_move = function(s, rng)
    local n = 0
    while s.ply == 11 do n = n + 1 end  -- <- E101
    return {g.ids[rng:int(10)]}
  end,
  play = function(s, m) return {ply = s.ply + 1, to_move = 3 - s.to_move} end,
  result = function(s) if s.ply == 30 then return {winner = 1} end end,
  grid = g,
  pieces = {{fill = "black"}, {fill = "white"}},
}
