-- to_move returns 1.5: no player.  (1.0, a whole number as a float under Lua 5.4, is player 1.)
-- expect: to_move must be a player number from 1 to 2, got 1.5
-- hook: to_move
return {
  name = "hostile",
  to_move = function(s) return 1.5 end,
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
