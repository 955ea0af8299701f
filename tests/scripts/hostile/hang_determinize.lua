-- The computer player's guess at hidden information never comes back.
-- expect: took longer than
-- hook: search
-- kind: time
-- check: took longer than
return {
  name = "hostile",
  setup = function(opts, rng)
    return {n = 0, secret = rng:int(3), to_move = 1}
  end,
  moves = function(s)
    return {{"a"}, {"b"}}
  end,
  play = function(s, m, rng)
    return {n = s.n + 1, secret = s.secret, to_move = 1}
  end,
  result = function(s)
    if s.n >= 3 then return {winner = 1} end
  end,
  view = function(s, p)
    return {n = s.n, secret = 0, to_move = s.to_move}
  end,
  determinize = function(v, p, rng)
    while true do end
  end,
  scene = function(s)
    return {{shape = "circle", x = 0, y = 0, r = 1, id = "a"},
            {shape = "circle", x = 3, y = 0, r = 1, id = "b"}}
  end,
}
