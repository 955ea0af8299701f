-- A result whose reason is a hundred thousand characters long.
-- expect: result: reason is 100000 characters long; at most 1000
-- hook: result
-- line: 17
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
    if s.n >= 1 then return {winner = 1, reason = string.rep("r", 1e5)} end
    if s.n >= 3 then return {winner = 1} end
  end,
  scene = function(s)
    return {{shape = "circle", x = 0, y = 0, r = 1, id = "a"},
            {shape = "circle", x = 3, y = 0, r = 1, id = "b"}}
  end,
}
