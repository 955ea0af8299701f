-- parse's reason is a table whose __tostring returns a table (LuaJIT calls it and passes the
-- table on, or refuses it): the worker printed a Python traceback; the host refuses any reason that is not text.
-- expect: parse must give its reason as text
-- expect-5.4: '__tostring' must return a string
-- check: '__tostring' must return a string
-- hook: parse
return {
  name = "hostile",
  parse = function(s, text)
    return nil, setmetatable({}, {__tostring = function() return {} end})
  end,
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
