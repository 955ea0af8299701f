-- An option's choices keyed by "²", which Python's str.isdigit takes for a digit.
-- expect: options.size.choices must be a list of values, but it has the key '²'
-- hook: load
-- line: 8
return {
  name = "hostile",
  options = {
    size = {default = "a", choices = {["²"] = "a"}},
  },
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
    return {{shape = "circle", x = 0, y = 0, r = 1, id = "a"},
            {shape = "circle", x = 3, y = 0, r = 1, id = "b"}}
  end,
}
