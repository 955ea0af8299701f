-- play fails at ply 5, where nomv check only counts the moves (it lists them at plies 0-3 and
-- every 10th): the check named the move from an older ply's shorter list, and died (IndexError).
-- expect: play breaks at ply 5
-- hook: search
-- line: 18
-- check: playing move
return {
  name = "hostile",
  setup = function(opts, rng)
    return {n = 0, to_move = 1}
  end,
  moves = function(s)
    local out = {}
    for i = 1, s.n + 1 do out[i] = {"a" .. i} end
    return out
  end,
  play = function(s, m, rng)
    if s.n == 5 then error("play breaks at ply 5") end
    return {n = s.n + 1, to_move = 1}
  end,
  result = function(s)
    if s.n >= 30 then return {winner = 1} end
  end,
  scene = function(s)
    return {{shape = "circle", x = 0, y = 0, r = 1, id = "a"},
            {shape = "circle", x = 3, y = 0, r = 1, id = "b"}}
  end,
}
