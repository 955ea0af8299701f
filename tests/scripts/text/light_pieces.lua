-- Mini Kalah drawn with white pieces on dark cells: the cell ids (--coordinates) must show on them
-- Mini Kalah: three pits a side and a store each; sow to the right, into your own store but
-- not your opponent's; a last seed in your own store plays again.
local g = nomv.grid.cells({
  {id = "p1", x = 1, y = 1, r = 0.45}, {id = "p2", x = 2, y = 1, r = 0.45},
  {id = "p3", x = 3, y = 1, r = 0.45}, {id = "s1", x = 4, y = 0.5, r = 0.45},
  {id = "q1", x = 3, y = 0, r = 0.45}, {id = "q2", x = 2, y = 0, r = 0.45},
  {id = "q3", x = 1, y = 0, r = 0.45}, {id = "s2", x = 0, y = 0.5, r = 0.45},
}, {})
local PITS = {{1, 2, 3}, {5, 6, 7}}          -- each player's pits, by cell index
local STORE, OTHER_STORE = {4, 8}, {8, 4}

local function side_empty(s, p)
  for _, i in ipairs(PITS[p]) do if s.board[i] > 0 then return false end end
  return true
end

return {
  name = "minikalah",
  setup = function(opts, rng)
    return {board = {3, 3, 3, 0, 3, 3, 3, 0}, to_move = 1}
  end,
  moves = function(s)
    local out = {}
    for _, i in ipairs(PITS[s.to_move]) do
      if s.board[i] > 0 then out[#out + 1] = {g.ids[i]} end
    end
    return out
  end,
  play = function(s, m)
    local b, p = nomv.copy(s.board), s.to_move
    local i = g:at(m[1])
    local seeds = b[i]
    b[i] = 0
    while seeds > 0 do
      i = i % 8 + 1
      if i ~= OTHER_STORE[p] then
        b[i] = b[i] + 1
        seeds = seeds - 1
      end
    end
    return {board = b, to_move = i == STORE[p] and p or 3 - p}
  end,
  result = function(s)
    if not (side_empty(s, 1) or side_empty(s, 2)) then return nil end
    local total = {0, 0}
    for p = 1, 2 do
      total[p] = s.board[STORE[p]]
      for _, i in ipairs(PITS[p]) do total[p] = total[p] + s.board[i] end
    end
    if total[1] == total[2] then return {draw = true} end
    return {winner = total[1] > total[2] and 1 or 2}
  end,
  grid = g,
  scene = function(s)
    local items = g:scene({fill = "#303030"})
    for i = 1, g.n do
      if s.board[i] > 0 then items[#items + 1] = g:piece(i, "#f4f4f4", {label = s.board[i]}) end
    end
    return items
  end,
  -- any count of seeds is one round piece showing the count
  pieces = function(seeds)
    if seeds > 0 then return {fill = "#f4f4f4", label = seeds} end
  end,
  -- and each store says whose it is
  labels = function(s) return {s1 = "S", s2 = "N"} end,
}
