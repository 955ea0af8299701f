-- players.names is a number, not a list: a bare TypeError at load, and `nomv list` broke.
-- expect: players.names must be a list such as {"Red", "Blue"}, not 5
-- hook: load
-- line: 7
return {
  name = "hostile",
  players = {names = 5},
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
