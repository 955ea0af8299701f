-- No state.to_move and no to_move function: text play crashed on the nil player.
-- expect: the player to move is nil while the game runs
-- hook: to_move
return {
  name = "hostile",
  setup = function(opts, rng)
    return {n = 0}
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
