local g = nomv.grid.square(3, 2)
return {
  name = "passer",
  setup = function(opts, rng) return {board = {1, 0, 0, 0, 0, 2}, to_move = 1, passes = 0} end,
  moves = function(s)
    local out = {}
    for i = 1, g.n do if s.board[i] == 0 then out[#out + 1] = {g.ids[i]} end end
    out[#out + 1] = {"pass"}
    return out
  end,
  play = function(s, m)
    local b = nomv.copy(s.board)
    if m[1] == "pass" then return {board = b, to_move = 3 - s.to_move, passes = s.passes + 1} end
    b[g:at(m[1])] = s.to_move
    return {board = b, to_move = 3 - s.to_move, passes = 0}
  end,
  result = function(s)
    if s.passes >= 2 then return {draw = true} end
    for i = 1, g.n do if s.board[i] == 0 then return nil end end
    return {draw = true}
  end,
  scene = function(s)
    local items = g:scene()
    for i = 1, g.n do
      if s.board[i] ~= 0 then items[#items + 1] = g:piece(i, s.board[i] == 1 and "black" or "white") end
    end
    items[#items + 1] = {id = "pass", shape = "rect", x = 1, y = 2.2, w = 2, h = 0.6, label = "pass"}
    items.status = "Black to move"
    return items
  end,
}
