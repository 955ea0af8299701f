-- Tic-tac-toe, with exactly OpenSpiel's rules (open_spiel/games/tic_tac_toe): a 3x3 board,
-- X (player 1) moves first, players alternate placing their mark on an empty cell, three in a
-- row (across, down or diagonally) wins at once, and a full board without a line is a draw.
-- Perft from the start: 9, 72, 504, 3024, 15120, 54720, 148176, 200448, 127872 (depth 1..9),
-- 255168 games in all.
--
-- Not a bundled game: nomv bench measures this one (nomv bench --compare openspiel sets it
-- against OpenSpiel's tic_tac_toe).  games/tictactoe.lua, the first game of docs/tutorial.md,
-- keeps the board as a list of nine cells; this version plays the same game written for fast
-- random playouts.  Each player's marks are one number, a mask with bit i-1 set for a mark on
-- cell i.  A board has only 2^9 = 512 sets of filled cells, so everything about one is worked
-- out once, when the script loads: whether a mask holds a line, and the list of moves left.  A
-- move then adds one number, and play() makes one small table.

local g = nomv.grid.square(3, 3)                   -- cells 1..9: a1 b1 c1 / a2 b2 c2 / a3 b3 c3
local floor = math.floor
local NAMES = {"X", "O"}
local FILL = {"#d04040", "#3c64d4"}

local BIT = {}                                     -- BIT[i]: cell i's bit, 2^(i-1)
for i = 1, g.n do BIT[i] = floor(2 ^ (i - 1)) end

-- Whether the mask has cell i.
local function has(mask, i)
  return floor(mask / BIT[i]) % 2 == 1
end

-- MOVE[i]: the move on cell i, with its bit (moves are built once and shared).
-- LINE[mask]: whether the cells of `mask` hold three in a row.
-- OPEN[filled]: the moves on the cells not in `filled` (shared lists: never change them).
local MOVE, LINE, OPEN = {}, {}, {}
for i = 1, g.n do MOVE[i] = {g.ids[i], bit = BIT[i]} end
local lines = g:lines(3)                           -- the 3 rows, 3 columns and 2 diagonals
for mask = 0, 511 do
  LINE[mask] = false
  for _, l in ipairs(lines) do
    if has(mask, l[1]) and has(mask, l[2]) and has(mask, l[3]) then LINE[mask] = true end
  end
  local open = {}
  for i = 1, g.n do
    if not has(mask, i) then open[#open + 1] = MOVE[i] end
  end
  OPEN[mask] = open
end

local WIN = {{winner = 1, reason = "three in a row"}, {winner = 2, reason = "three in a row"}}
local DRAW = {draw = true, reason = "the board is full"}

return {
  name = "tictactoe",
  title = "Tic-tac-toe",
  info = {source = "OpenSpiel tic_tac_toe", rules = "Take turns marking empty cells; three in a row wins."},
  players = {min = 2, max = 2, names = NAMES, colours = FILL},

  -- x and o: the masks of X's and O's marks.
  setup = function(opts, rng)
    return {x = 0, o = 0, to_move = 1}
  end,

  moves = function(s)
    return OPEN[s.x + s.o]
  end,

  random_move = function(s, rng)
    return rng:pick(OPEN[s.x + s.o])
  end,

  play = function(s, m)
    if s.to_move == 1 then return {x = s.x + m.bit, o = s.o, to_move = 2} end
    return {x = s.x, o = s.o + m.bit, to_move = 1}
  end,

  result = function(s)
    if LINE[s.x] then return WIN[1] end
    if LINE[s.o] then return WIN[2] end
    if s.x + s.o == 511 then return DRAW end
    return nil
  end,

  scene = function(s)
    local items = g:scene()
    local marks = {s.x, s.o}
    for i = 1, g.n do
      for p = 1, 2 do
        if has(marks[p], i) then items[#items + 1] = g:piece(i, FILL[p], {label = NAMES[p]}) end
      end
    end
    return items
  end,

  text = function(s)
    local rows = {}
    for r = 3, 1, -1 do
      local row = {}
      for f = 1, 3 do
        local i = (r - 1) * 3 + f
        row[f] = has(s.x, i) and "x" or has(s.o, i) and "o" or "."
      end
      rows[#rows + 1] = r .. " " .. table.concat(row, " ")
    end
    rows[#rows + 1] = "  a b c"
    return table.concat(rows, "\n")
  end,
}
