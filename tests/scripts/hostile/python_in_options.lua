-- Looks for Python objects in what the host passes in.
-- expect: options and rng are plain Lua values
-- hook: setup
-- line: 12
return {
  name = "hostile",
  setup = function(opts, rng)
    for k, v in pairs(opts) do
      if type(v) ~= "number" and type(v) ~= "string" and type(v) ~= "boolean" then error("found " .. type(v)) end
    end
    if type(rng) ~= "table" or getmetatable(rng) ~= false then error("the rng is not a sealed table") end
    error("options and rng are plain Lua values")
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
