-- Tries to break everything shared, so that the next game loaded fails.
-- expect: poisoned what it could
-- hook: load
-- line: 12
for _, lib in ipairs({string, table, math, nomv, nomv.grid, _G}) do
  for _, k in ipairs({"rep", "format", "insert", "floor", "copy", "square", "pairs", "ipairs"}) do
    pcall(function() lib[k] = function() while true do end end end)
  end
end
pcall(function() getmetatable("").__index = nil end)
pcall(setmetatable, string, nil)
error("poisoned what it could")
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
    return {{shape = "circle", x = 0, y = 0, r = 1, id = "a"},
            {shape = "circle", x = 3, y = 0, r = 1, id = "b"}}
  end,
}
