-- A move that contains itself.
-- expect: moves() item 1, step 2 is a table
-- hook: moves
return {
  name = "hostile",
  setup = function(opts, rng)
    return {n = 0, to_move = 1}
  end,
  moves = function(s)
    local m = {"a"} m[2] = m do return {m} end
    return {{"a"}, {"b"}}
  end,
  play = function(s, m, rng)
    return {n = s.n + 1, to_move = 1}
  end,
  result = function(s)
    if s.n >= 3 then return {winner = 1} end
  end,
  scene = function(s)
    return {{shape = "circle", x = 0, y = 0, r = 1, id = "a"},
            {shape = "circle", x = 3, y = 0, r = 1, id = "b"}}
  end,
}
