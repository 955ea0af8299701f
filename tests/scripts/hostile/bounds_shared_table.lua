-- bounds of 700,000 references to one table: 48 MB a ply in the window, which kept them all.
-- expect: the scene's bounds must be {x0, y0, x1, y1}: four numbers
-- hook: scene
return {
  name = "hostile",
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
    local t, b = {}, {}
    for i = 1, 700000 do b[i] = t end
    return {bounds = b, {shape = "circle", x = 0, y = 0, r = 1, id = "a"},
            {shape = "circle", x = 3, y = 0, r = 1, id = "b"}}
  end,
}
