-- players.colours keyed by names, not a list: a bare ValueError at load.
-- expect: players.colours must be a list such as {"#c03030", "blue"}, but it has the key 'x'
-- hook: load
-- line: 8
return {
  name = "hostile",
  players = {min = 2, max = 2,
    colours = {x = "red"}},
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
