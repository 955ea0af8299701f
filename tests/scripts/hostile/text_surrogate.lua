-- text() returns an encoded surrogate (CESU-8 bytes, not UTF-8), which the host hands on as
-- it is: the worker printed a Python traceback.  (In JSON replies such bytes become '?'.)
-- expect: text returned text that is not valid UTF-8
-- hook: text
return {
  name = "hostile",
  text = function(s) return "board \237\160\128" end,
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
