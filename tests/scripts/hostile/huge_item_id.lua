-- A scene item's id of 2,000,000 characters: the first hover cost seconds, and the
-- coordinates key showed an error that blocked clicks.
-- expect: id must be a string of at most 1000 characters
-- hook: scene
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
    return {{shape = "circle", x = 0, y = 0, r = 1, id = string.rep("a", 2000000)},
            {shape = "circle", x = 3, y = 0, r = 1, id = "b"}}
  end,
}
