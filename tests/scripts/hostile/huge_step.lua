-- A step id of five thousand characters.
-- expect: step 1 is 5000 characters long; a step id may have at most 1000
-- hook: moves
-- line: 11
return {
  name = "hostile",
  setup = function(opts, rng)
    return {n = 0, to_move = 1}
  end,
  moves = function(s)
    do return {{string.rep("a", 5000)}} end
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
