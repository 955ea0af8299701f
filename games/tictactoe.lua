-- Tic-tac-toe, with exactly OpenSpiel's rules (open_spiel/games/tic_tac_toe): a 3x3 board,
-- X (player 1) moves first, players alternate placing their mark on an empty cell, three in a
-- row (across, down or diagonally) wins at once, and a full board without a line is a draw.
-- Perft from the start: 9, 72, 504, 3024, 15120, 54720, 148176, 200448, 127872 (depth 1..9),
-- 255168 games in all.  The first game of docs/tutorial.md, written plainly.  (nomv bench measures
-- a version tuned for speed, nomv/tuned/tictactoe.lua, against OpenSpiel.)

local g = nomv.grid.square(3, 3)                   -- cells 1..9: a1 b1 c1 / a2 b2 c2 / a3 b3 c3
local LINES = {{1, 2, 3}, {4, 5, 6}, {7, 8, 9},     -- rows
               {1, 4, 7}, {2, 5, 8}, {3, 6, 9},     -- columns
               {1, 5, 9}, {3, 5, 7}}                -- diagonals

return {
  name = "tictactoe",
  title = {en = "Tic-tac-toe", it = "Tris"},
  info = {source = "OpenSpiel tic_tac_toe",
          rules = {en = "Take turns marking empty cells; three in a row wins.",
                   it = "A turno segnate celle vuote; vince chi ne allinea tre."}},
  players = {min = 2, max = 2, names = {"X", "O"}},
  grid = g,                                        -- no scene function: the grid and pieces draw it
  pieces = {{fill = "#d04040", label = "X"}, {fill = "#3c64d4", label = "O"}},

  setup = function(opts, rng)
    return {board = {0, 0, 0, 0, 0, 0, 0, 0, 0}, to_move = 1}
  end,

  moves = function(s)
    local out = {}
    for i = 1, g.n do
      if s.board[i] == 0 then out[#out + 1] = {g.ids[i]} end
    end
    return out
  end,

  play = function(s, m)
    local board = nomv.copy(s.board)
    board[g:at(m[1])] = s.to_move
    return {board = board, to_move = 3 - s.to_move}
  end,

  result = function(s)
    local b = s.board
    for _, l in ipairs(LINES) do
      local v = b[l[1]]
      if v ~= 0 and v == b[l[2]] and v == b[l[3]] then return {winner = v} end
    end
    for i = 1, 9 do
      if b[i] == 0 then return nil end
    end
    return {draw = true}
  end,

  text = function(s)
    local rows = {}
    for r = 3, 1, -1 do
      local row = {}
      for f = 1, 3 do row[f] = ({".", "x", "o"})[s.board[(r - 1) * 3 + f] + 1] end
      rows[#rows + 1] = r .. " " .. table.concat(row, " ")
    end
    rows[#rows + 1] = "  a b c"
    return table.concat(rows, "\n")
  end,
}
