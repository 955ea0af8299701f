-- A circle with a radius of 1e300.
-- expect: scene item 1: r is 1e+300; scene numbers must be within -1000000..1000000
-- hook: scene
-- line: 19
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
    if s.n >= 3 then return {winner = 1} end
  end,
  scene = function(s)
    do return {{shape = "circle", x = 0, y = 0, r = 1e300, id = "a"}, {shape = "circle", x = 3, y = 0, r = 1, id = "b"}} end
    return {{shape = "circle", x = 0, y = 0, r = 1, id = "a"},
            {shape = "circle", x = 3, y = 0, r = 1, id = "b"}}
  end,
}
