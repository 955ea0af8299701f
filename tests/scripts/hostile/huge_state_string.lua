-- Keeps a nine-megabyte string in its state.
-- expect: state.big is a string of 9000000 characters, too large to hand over
-- hook: dump
return {
  name = "hostile",
  setup = function(opts, rng)
    do return {n = 0, to_move = 1, big = string.rep("x", 9e6)} end
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
    return {{shape = "circle", x = 0, y = 0, r = 1, id = "a"},
            {shape = "circle", x = 3, y = 0, r = 1, id = "b"}}
  end,
}
