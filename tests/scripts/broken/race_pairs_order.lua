-- expect: E061 27
-- the runners looked up by id, then walked with pairs(): another order on each runtime
-- Race: each player has a row of runners on a 5x5 board and moves one a cell forward, or
-- diagonally forward to take an enemy runner.  Reach the far side to win.  The state keeps a
-- list of each player's runners, so that moves need not scan the board.
local g = nomv.grid.square(5, 5)
local AHEAD = {g.dir.n, g.dir.s}
local SIDES = {{g.dir.ne, g.dir.nw}, {g.dir.se, g.dir.sw}}

return {
  name = "race",
  title = "Race",
  players = {min = 2, max = 2, names = {"White", "Black"}},
  grid = g,
  pieces = {{fill = "white"}, {fill = "black"}},

  setup = function(opts, rng)
    local board, runners = {}, {{}, {}}
    for i = 1, g.n do
      local p = g.rank[i] == 1 and 1 or g.rank[i] == 5 and 2 or 0
      board[i] = p
      if p > 0 then runners[p][#runners[p] + 1] = i end
    end
    return {board = board, runners = runners, to_move = 1}
  end,

  moves = function(s)
    local p, out = s.to_move, {}
    local mine = {}
    for _, i in ipairs(s.runners[p]) do mine[g.ids[i]] = i end
    for _, i in pairs(mine) do
      local j = g.step[AHEAD[p]][i]
      if j and s.board[j] == 0 then out[#out + 1] = {g.ids[i], g.ids[j]} end
      for _, d in ipairs(SIDES[p]) do
        local k = g.step[d][i]
        if k and s.board[k] ~= p then out[#out + 1] = {g.ids[i], g.ids[k]} end
      end
    end
    return out
  end,

  play = function(s, m)
    local p, from, to = s.to_move, g:at(m[1]), g:at(m[2])
    local board = nomv.copy(s.board)
    local runners = nomv.copy(s.runners)
    if board[to] == 3 - p then
      local theirs = runners[3 - p]
      for k = #theirs, 1, -1 do if theirs[k] == to then table.remove(theirs, k) end end
    end
    local mine = runners[p]
    for k = 1, #mine do if mine[k] == from then mine[k] = to end end
    board[to], board[from] = p, 0
    return {board = board, runners = runners, to_move = 3 - p}
  end,

  result = function(s)
    for i = 1, g.n do
      if s.board[i] == 1 and g.rank[i] == 5 then return {winner = 1} end
      if s.board[i] == 2 and g.rank[i] == 1 then return {winner = 2} end
    end
    if #s.runners[s.to_move] == 0 then return {winner = 3 - s.to_move, reason = "no runner left"} end
    if #nomv.legal(s) == 0 then return {winner = 3 - s.to_move, reason = "no move left"} end
    return nil
  end,
}
