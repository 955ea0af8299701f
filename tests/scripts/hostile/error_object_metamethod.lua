-- Raises an error object whose __tostring hangs, for the host to describe.
-- expect: error object (a table)
-- hook: moves
-- line: 11
return {
  name = "hostile",
  setup = function(opts, rng)
    return {n = 0, to_move = 1}
  end,
  moves = function(s)
    error(setmetatable({}, {__tostring = function() while true do end end}))
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
