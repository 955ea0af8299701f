-- Connect Four, with exactly OpenSpiel's rules (open_spiel/games/connect_four): 7 columns of 6
-- rows; Red (OpenSpiel's x, player 1) moves first; a move drops a disc into a column that is not
-- full, where it falls to the lowest empty row; four in a row across, up or diagonally wins at
-- once; a full board without a line is a draw.  Perft from the start: 7, 49, 343, 2401.
--
-- Written for speed (nomv bench compares it with OpenSpiel and Ludii).  play() must copy the
-- state, so the board is small: fourteen numbers, bits[1..7] the columns of player 1 and
-- bits[8..14] those of player 2, each a 6-bit number (bit r set: the player's disc in row r,
-- counting from 0 at the bottom).  Under LuaJIT, playouts run as one long compiled trace in
-- which every data-dependent branch of a game costs a side exit, so the four-in-a-row test is
-- arithmetic and table look-ups, with no branches: the lines through the new disc are read as
-- 7-bit numbers and a table says whether one holds four consecutive bits.

local W, H = 7, 6
local floor = math.floor
local LETTERS = {"a", "b", "c", "d", "e", "f", "g"}
local COLUMN = {a = 1, b = 2, c = 3, d = 4, e = 5, f = 6, g = 7}
local NAMES = {"Red", "Yellow"}
local FILL = {"#d43c3c", "#f2c81e"}

-- P[k] = 2^k.  LuaJIT compiles look-ups in dense tables only, so the rows a diagonal passes
-- below the board read from S[k + 8] = 2^k, which is also defined for k from -7: such a row
-- reads as empty, since floor(x / 2^-k) = x * 2^k is even.  Above the board floor(x / 2^k) = 0.
local P, S = {}, {}
for k = 0, W + H do P[k] = floor(2 ^ k) end           -- whole numbers on Lua 5.4
for k = 1, 8 + W + H do S[k] = k < 8 and 2 ^ (k - 8) or P[k - 8] end

-- FOUR[x] = 1 if the 7-bit number x has four consecutive bits set, else 0.
local FOUR = {}
for x = 0, 127 do
  local run, best = 0, 0
  for k = 0, 6 do
    if floor(x / P[k]) % 2 == 1 then run = run + 1 else run = 0 end
    if run > best then best = run end
  end
  FOUR[x] = best >= 4 and 1 or 0
end

-- HEIGHT[x]: the number of discs in a column whose two players' bits add up to x (2^h - 1).
local HEIGHT = {}
for x = 0, P[H] - 1 do HEIGHT[x] = -1 end            -- never read: keeps the table dense
for h = 0, H do HEIGHT[P[h] - 1] = h end

-- Moves never change, so each column's move is built once and shared: random playouts then
-- allocate nothing to choose a move.
local MOVE = {}
for c = 1, W do MOVE[c] = {LETTERS[c], col = c} end   -- col: play() need not look it up

-- Results are shared the same way (the host only reads them).
local WIN = {{winner = 1, reason = "four in a row"}, {winner = 2, reason = "four in a row"}}
local DRAW = {draw = true, reason = "the board is full"}

local function height(bits, c)
  return HEIGHT[bits[c] + bits[W + c]]
end

-- The disc at column c (1..7), row r (0-based): 0, 1 or 2.
local function cell(bits, c, r)
  return floor(bits[c] / P[r]) % 2 + 2 * (floor(bits[W + c] / P[r]) % 2)
end

-- Player p's discs on the line through row r of column c that climbs `slope` rows per column
-- (0: the row, 1 and -1: the diagonals), as a 7-bit number, bit d-1 for column d.
local function line(bits, p, c, r, slope)
  local o, r1 = (p - 1) * W, r - slope * c + 8        -- column d: row r1 + slope * d - 8
  return floor(bits[o + 1] / S[r1 + slope]) % 2
       + floor(bits[o + 2] / S[r1 + 2 * slope]) % 2 * 2
       + floor(bits[o + 3] / S[r1 + 3 * slope]) % 2 * 4
       + floor(bits[o + 4] / S[r1 + 4 * slope]) % 2 * 8
       + floor(bits[o + 5] / S[r1 + 5 * slope]) % 2 * 16
       + floor(bits[o + 6] / S[r1 + 6 * slope]) % 2 * 32
       + floor(bits[o + 7] / S[r1 + 7 * slope]) % 2 * 64
end

-- Whether player p's disc just dropped at (c, r) makes four in a row: only lines through it can.
local function wins(bits, p, c, r)
  return FOUR[bits[(p - 1) * W + c]] + FOUR[line(bits, p, c, r, 0)]
       + FOUR[line(bits, p, c, r, 1)] + FOUR[line(bits, p, c, r, -1)] > 0
end

local function column_of(m)
  return m.col or COLUMN[m[1]]
end

return {
  name = "connect4",
  title = "Connect Four",
  info = {source = "OpenSpiel connect_four",
          rules = "Drop a disc into a column; it falls to the lowest empty row. Four in a row "
               .. "across, up or diagonally wins; a full board is a draw."},
  players = {min = 2, max = 2, names = NAMES, colours = FILL},

  -- bits: the board (see the top); ply: discs on the board; winner: set once someone has won.
  setup = function(opts, rng)
    return {bits = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, to_move = 1, ply = 0}
  end,

  moves = function(s)
    local out, bits = {}, s.bits
    for c = 1, W do
      if height(bits, c) < H then out[#out + 1] = MOVE[c] end
    end
    return out
  end,

  -- Uniform over the open columns: draw a column; if it is full (rare), draw among the open
  -- ones.  Each open column then has probability 1/7 + (7 - k)/7 * 1/k = 1/k, k of them open.
  random_move = function(s, rng)
    local bits = s.bits
    local c = rng:int(W)
    if height(bits, c) < H then return MOVE[c] end
    local open = {}
    for d = 1, W do
      if height(bits, d) < H then open[#open + 1] = d end
    end
    return MOVE[open[rng:int(#open)]]
  end,

  play = function(s, m)
    local c, p, old = column_of(m), s.to_move, s.bits
    local bits = {old[1], old[2], old[3], old[4], old[5], old[6], old[7],
                  old[8], old[9], old[10], old[11], old[12], old[13], old[14]}
    local r, i = height(old, c), (p - 1) * W + c
    bits[i] = bits[i] + P[r]
    -- Three fields, so that with the host's _rng the new table's hash part is just full.
    local new = {bits = bits, to_move = 3 - p, ply = s.ply + 1}
    if wins(bits, p, c, r) then new.winner = p end
    return new
  end,

  result = function(s)
    if s.winner then return WIN[s.winner] end
    if s.ply == W * H then return DRAW end
    return nil
  end,

  -- A column letter, as on the board; digits 1-7 are accepted too (OpenSpiel numbers the
  -- columns 0-6, so its action 3 is column d, 4 here).
  notation = function(s, m)
    return m[1]
  end,

  parse = function(s, text)
    text = text:lower():gsub("%s", "")
    local c = COLUMN[text] or tonumber(text:match("^[1-7]$") or "")
    if not c then return nil, "name a column: a to g, or 1 to 7" end
    if height(s.bits, c) == H then return nil, "column " .. LETTERS[c] .. " is full" end
    return MOVE[c]
  end,

  -- Each column is one clickable rectangle; the discs and holes on it have no id, so a click
  -- anywhere in a column drops a disc there.
  scene = function(s)
    local items = {}
    for c = 1, W do
      local x = c - 0.5
      items[#items + 1] = {shape = "rect", id = LETTERS[c], x = x, y = H / 2, w = 1, h = H,
                           fill = "#2f5fb3", stroke = "#1d3d78", layer = 0}
      for r = 0, H - 1 do
        local v = cell(s.bits, c, r)
        items[#items + 1] = {shape = "circle", x = x, y = H - r - 0.5, r = 0.4, layer = 1,
                             fill = v == 0 and "#f4f4f4" or FILL[v], stroke = "#1d3d78"}
      end
      items[#items + 1] = {shape = "text", x = x, y = H + 0.45, text = LETTERS[c], size = 0.45,
                           fill = "#303030"}
    end
    if s.winner then
      items.status = NAMES[s.winner] .. " wins"
    elseif s.ply == W * H then
      items.status = "Draw"
    else
      items.status = NAMES[s.to_move] .. " to move"
    end
    items.bounds = {-0.2, -0.2, W + 0.2, H + 0.8}
    return items
  end,

  -- OpenSpiel's picture: the top row first, x and o for the players' discs.
  text = function(s)
    local lines = {}
    for r = H - 1, 0, -1 do
      local row = {}
      for c = 1, W do row[c] = ({".", "x", "o"})[cell(s.bits, c, r) + 1] end
      lines[#lines + 1] = table.concat(row)
    end
    lines[#lines + 1] = table.concat(LETTERS)
    return table.concat(lines, "\n")
  end,
}
