-- Tic-tac-toe (games/tictactoe.lua) with faults for tests/test_worker.py: each variant makes one
-- hook hang, work long or fail, to test the worker process's time limit.  The fault chosen is
-- kept in the state, since hooks other than setup do not see the options.
--   moves_hang        moves() loops forever (a loop LuaJIT compiles)
--   moves_busy        moves() works about a fifth of a second, then answers
--   text_hang         text() loops forever
--   text_hang_centre  text() loops forever once the centre (b2, cell 5) is taken
--   result_hang       result() loops forever once X holds a1 and c3 and O holds b2 (not in
--                     every game, so a playout plays a few games first)
--   to_move_error     to_move() raises an error
--   parse_error       parse() raises an error (a text that is no move's notation reaches it)

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

local function hang()
  local i = 0
  while true do i = i + 1 end
end

local WIN = {{winner = 1, reason = "three in a row"}, {winner = 2, reason = "three in a row"}}
local DRAW = {draw = true, reason = "the board is full"}

return {
  name = "tictactoe_faults",
  title = "Tic-tac-toe with faults",
  players = {min = 2, max = 2, names = NAMES, colours = FILL},
  options = {
    fault = {default = "none", choices = {"none", "moves_hang", "moves_busy", "text_hang", "text_hang_centre",
                                          "result_hang", "to_move_error", "parse_error"},
             help = "which hook misbehaves"},
  },
  variants = {moves_hang = {fault = "moves_hang"}, moves_busy = {fault = "moves_busy"},
              text_hang = {fault = "text_hang"}, text_hang_centre = {fault = "text_hang_centre"},
              result_hang = {fault = "result_hang"}, to_move_error = {fault = "to_move_error"},
              parse_error = {fault = "parse_error"}},

  -- x and o: the masks of X's and O's marks.
  setup = function(opts, rng)
    return {x = 0, o = 0, to_move = 1, fault = opts.fault}
  end,

  to_move = function(s)
    if s.fault == "to_move_error" then error("no idea whose turn") end
    return s.to_move
  end,

  parse = function(s, text)
    if s.fault == "parse_error" then error("no parsing today") end
    return nil                                     -- nomv's own matching of the notations
  end,

  moves = function(s)
    if s.fault == "moves_hang" then hang() end
    if s.fault == "moves_busy" then
      local x = 0
      for i = 1, 3e7 do x = x + i % 7 end
    end
    return OPEN[s.x + s.o]
  end,

  random_move = function(s, rng)
    return rng:pick(OPEN[s.x + s.o])
  end,

  play = function(s, m)
    if s.to_move == 1 then return {x = s.x + m.bit, o = s.o, to_move = 2, fault = s.fault} end
    return {x = s.x, o = s.o + m.bit, to_move = 1, fault = s.fault}
  end,

  result = function(s)
    if s.fault == "result_hang" and has(s.x, 1) and has(s.x, 9) and has(s.o, 5) then hang() end
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
    if s.fault == "text_hang" or (s.fault == "text_hang_centre" and has(s.x + s.o, 5)) then hang() end
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
