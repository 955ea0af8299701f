-- A race of two players along a track of 30 (the server's tests: a game of chance without a
-- view hook). Each turn: walk one step, or roll a die and go that far. The first to 30 wins.
local g = nomv.grid.square(2, 1)
return {
  name = "dicerace",
  title = "Dice race",
  setup = function(opts, rng) return {at = {0, 0}, to_move = 1} end,
  moves = function(s) return {{"walk"}, {"roll"}} end,
  play = function(s, m, rng)
    local at = {s.at[1], s.at[2]}
    at[s.to_move] = at[s.to_move] + (m[1] == "roll" and rng:int(6) or 1)
    return {at = at, to_move = 3 - s.to_move}
  end,
  result = function(s)
    if s.at[1] >= 30 then return {winner = 1} end
    if s.at[2] >= 30 then return {winner = 2} end
  end,
  scene = function(s)
    local items = g:scene()
    for p = 1, 2 do items[#items + 1] = g:piece(p, p == 1 and "black" or "white", {label = tostring(s.at[p])}) end
    items.status = ("%d to %d"):format(s.at[1], s.at[2])
    return items
  end,
}
