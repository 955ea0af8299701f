-- Searches everything reachable for a Python object (userdata).
-- expect: no Python object is reachable
-- hook: load
-- line: 16
local seen, found = {}, nil
local function walk(v, depth)
  if found or depth > 8 then return end
  if type(v) == "userdata" then found = v return end
  if type(v) == "table" and not seen[v] then
    seen[v] = true
    for k, x in pairs(v) do walk(k, depth + 1) walk(x, depth + 1) end
  end
end
walk(_G, 0) walk(string, 0) walk(nomv, 0) walk(nomv.grid.square(2, 2), 0)
if found then error("found a Python object") end
error("no Python object is reachable")
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
