-- The computer player's estimate of a position never comes back (playouts cut at depth 2).
-- expect: took longer than
-- hook: search
-- kind: time
-- check: took longer than
return {
  name = "hostile",
  setup = function(opts, rng)
    return {n = 0, to_move = 1}
  end,
  moves = function(s)
    return {{"a"}, {"b"}}
  end,
  play = function(s, m, rng)
    return {n = s.n + 1, to_move = 1}
  end,
  result = function(s)
    if s.n >= 6 then return {winner = 1} end
  end,
  evaluate = function(s, p)
    local x = 0
    while true do x = x + 1 end
  end,
  scene = function(s)
    return {{shape = "circle", x = 0, y = 0, r = 1, id = "a"},
            {shape = "circle", x = 3, y = 0, r = 1, id = "b"}}
  end,
}
