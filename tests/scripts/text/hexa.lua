local g = nomv.grid.hexhex(3)
return {
  name = "hexa",
  players = {min = 3, max = 3, names = {"Red", "Green", "Blue"}, colours = {"#c03030", "#30a030", "#3050c0"}},
  setup = function(opts, rng)
    local b = {}
    for i = 1, g.n do b[i] = 0 end
    b[g:at("c3")], b[g:at("e3")], b[g:at("a5")] = 1, 2, 3
    return {board = b, to_move = 1}
  end,
  moves = function(s)
    local out = {}
    for i = 1, g.n do if s.board[i] == 0 then out[#out + 1] = {g.ids[i]} end end
    return out
  end,
  play = function(s, m)
    local b = nomv.copy(s.board)
    b[g:at(m[1])] = s.to_move
    return {board = b, to_move = s.to_move % 3 + 1}
  end,
  result = function(s)
    for i = 1, g.n do if s.board[i] == 0 then return nil end end
    return {draw = true}
  end,
  grid = g,
  pieces = {{fill = "#c03030"}, {fill = "#30a030"}, {fill = "#3050c0"}},
}
