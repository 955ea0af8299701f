-- Connect Four, with exactly OpenSpiel's rules (open_spiel/games/connect_four): 7 columns of 6
-- rows; Red (OpenSpiel's x, player 1) moves first; a move drops a disc into a column that is not
-- full, where it falls to the lowest empty row; four in a row across, up or diagonally wins at
-- once; a full board without a line is a draw.  Perft from the start: 7, 49, 343, 2401.
--
-- Written for speed (nomv bench compares it with OpenSpiel and Ludii).  play() must copy the
-- state, so the state is six numbers in one list, which is one small table a move.  For each
-- player three numbers hold their discs in three orders, so that every line through a disc is
-- a run of seven bits in one of them: by rows (bit 7r + c - 1: a disc in row r of column c,
-- rows counting from 0 at the bottom) and along the two kinds of long diagonal.  Above those 42
-- bits, the spare bits of three of the numbers keep each column's height and the discs played,
-- and a flag says the last move won.  A bit is read by multiplying by a power of two, which is
-- exact on LuaJIT and Lua 5.4 alike (every number stays below 2^53).  Under LuaJIT, playouts
-- run as one long compiled trace in which every data-dependent branch costs a side exit, so the
-- four-in-a-row test is arithmetic and table look-ups, with no branches: the row and the two
-- diagonals through the new disc are read as 7-bit numbers, one multiplication each, and a
-- table says whether one holds four consecutive bits; the column needs only the three discs
-- under the new one.
--
-- Why six numbers: under LuaJIT a table of up to six slots is one allocation of at most 120
-- bytes, which the C allocator recycles on its fast path; the ten numbers the state had before
-- (four orders a player, then the discs played and the winner) took 152 bytes, and allocating
-- and freeing those cost more than the packing's arithmetic: a random game took about 34k
-- instructions with ten numbers, 29k with six (LuaJIT, valgrind).  (Reading each line cell by
-- cell from one number a player, seven multiplications a line, was slower than either.)

local W, H = 7, 6
local floor = math.floor
local LETTERS = {"a", "b", "c", "d", "e", "f", "g"}
local COLUMN = {a = 1, b = 2, c = 3, d = 4, e = 5, f = 6, g = 7}
local NAMES = {{en = "Red", it = "Rosso"}, {en = "Yellow", it = "Giallo"}}
local FILL = {"#d43c3c", "#f2c81e"}

-- The state's slots: slot ROWS + p, RISING + p and FALLING + p hold player p's discs in the
-- three orders (below).  Above bit 41: columns 1-3's heights in slot 1, columns 4-6's in slot
-- 2, and column 7's in slot 3, three bits each (HEIGHT_SLOT, HEIGHT_SCALE); then in slot 3 the
-- discs played (bits 45-50) and the flag WON (bit 51), set when the last move made four.
local ROWS, RISING, FALLING = 0, 2, 4
-- BIT[k] = 2^k and UNBIT[k] = 2^-k, for bits 0..41; UNBIT[OFF] reads every number as 0.
local OFF = 60
local BIT, UNBIT = {}, {}
for k = 0, OFF do BIT[k], UNBIT[k] = floor(2 ^ k), 2 ^ -k end

-- Bit k of x, 0 or 1.
local function bit(x, k)
  return floor(x * UNBIT[k]) % 2
end

-- FOUR[x] = 1 if the 7-bit number x has four consecutive bits set, else 0.
local FOUR = {}
for x = 0, 127 do
  local run, best = 0, 0
  for k = 0, 6 do
    if bit(x, k) == 1 then run = run + 1 else run = 0 end
    if run > best then best = run end
  end
  FOUR[x] = best >= 4 and 1 or 0
end

local HEIGHT_SLOT, HEIGHT_SCALE, HEIGHT_ONE = {}, {}, {}
for c = 1, W do
  local k = 42 + 3 * ((c - 1) % 3)
  HEIGHT_SLOT[c], HEIGHT_SCALE[c], HEIGHT_ONE[c] = floor((c - 1) / 3) + 1, UNBIT[k], BIT[k]
end
local PLY_SCALE, PLY_ONE, WON = UNBIT[45], BIT[45], BIT[51]
local FULL = W * H

-- For the disc in row r of column c, i = 6(c - 1) + r + 1: ROW_BIT[i], its bit in the rows'
-- number.  The diagonals that can hold four (rising: c - 1 - r from -2 to 3; falling: c - 1 + r
-- from 3 to 8) have seven bits each in theirs, one per column: RISING_BIT and FALLING_BIT, 0 for
-- a disc on a shorter diagonal.  ROW_SCALE[i], RISING_SCALE[i] and FALLING_SCALE[i] bring the
-- seven bits of the disc's line to the bottom (UNBIT[OFF] off the long diagonals, which reads
-- 0); BELOW[k][i] brings the disc k rows under it to the bottom of the rows' number (UNBIT[OFF]
-- under the bottom row).
local ROW_BIT, RISING_BIT, FALLING_BIT = {}, {}, {}
local ROW_SCALE, RISING_SCALE, FALLING_SCALE = {}, {}, {}
local BELOW = {{}, {}, {}}
for c = 1, W do
  for r = 0, H - 1 do
    local i = H * (c - 1) + r + 1
    ROW_BIT[i], ROW_SCALE[i] = BIT[7 * r + c - 1], UNBIT[7 * r]
    for k = 1, 3 do BELOW[k][i] = UNBIT[r >= k and 7 * (r - k) + c - 1 or OFF] end
    local rising, falling = c - 1 - r, c - 1 + r
    if rising >= -2 and rising <= 3 then
      RISING_BIT[i], RISING_SCALE[i] = BIT[7 * (rising + 2) + c - 1], UNBIT[7 * (rising + 2)]
    else
      RISING_BIT[i], RISING_SCALE[i] = 0, UNBIT[OFF]
    end
    if falling >= 3 and falling <= 8 then
      FALLING_BIT[i], FALLING_SCALE[i] = BIT[7 * (falling - 3) + c - 1], UNBIT[7 * (falling - 3)]
    else
      FALLING_BIT[i], FALLING_SCALE[i] = 0, UNBIT[OFF]
    end
  end
end
local BELOW1, BELOW2, BELOW3 = BELOW[1], BELOW[2], BELOW[3]

-- THREE[n] = 1 when all three discs under the new one are the mover's (n of them are).
local THREE = {[0] = 0, 0, 0, 1}

-- Moves never change, so each column's move is built once and shared: random playouts then
-- allocate nothing to choose a move.
local MOVE = {}
for c = 1, W do MOVE[c] = {LETTERS[c], col = c} end   -- col: play() need not look it up

-- Results are shared the same way (the host only reads them).
local IN_A_ROW = {en = "four in a row", it = "quattro in fila"}
local WIN = {{winner = 1, reason = IN_A_ROW}, {winner = 2, reason = IN_A_ROW}}
local DRAW = {draw = true, reason = {en = "the board is full", it = "la scacchiera è piena"}}

local function height(s, c)
  return floor(s[HEIGHT_SLOT[c]] * HEIGHT_SCALE[c]) % 8
end

-- The discs played, 0..42.
local function played(s)
  return floor(s[3] * PLY_SCALE) % 64
end

-- The disc at column c (1..7), row r (0-based): 0, 1 or 2.
local function cell(s, c, r)
  local k = 7 * r + c - 1
  return bit(s[ROWS + 1], k) + 2 * bit(s[ROWS + 2], k)
end

local function column_of(m)
  return m.col or COLUMN[m[1]]
end

return {
  name = "connect4",
  title = {en = "Connect Four", it = "Forza quattro"},
  info = {source = "OpenSpiel connect_four",
          rules = {en = "Drop a disc into a column; it falls to the lowest empty row. Four in a row "
                        .. "across, up or diagonally wins; a full board is a draw.",
                   it = "Lascia cadere un disco in una colonna: scende fino alla riga vuota più "
                        .. "bassa. Vince chi allinea quattro dischi in orizzontale, in verticale o in "
                        .. "diagonale; a scacchiera piena è patta."}},
  players = {min = 2, max = 2, names = NAMES, colours = FILL},

  setup = function(opts, rng)
    return {0, 0, 0, 0, 0, 0}                         -- no discs, none played, no winner
  end,

  to_move = function(s)
    return played(s) % 2 + 1
  end,

  moves = function(s)
    local out = {}
    for c = 1, W do
      if height(s, c) < H then out[#out + 1] = MOVE[c] end
    end
    return out
  end,

  -- Uniform over the open columns: draw a column; if it is full (rare), draw among the open
  -- ones.  Each open column then has probability 1/7 + (7 - k)/7 * 1/k = 1/k, k of them open.
  random_move = function(s, rng)
    local c = rng:int(W)
    if height(s, c) < H then return MOVE[c] end
    local open = {}
    for d = 1, W do
      if height(s, d) < H then open[#open + 1] = d end
    end
    return MOVE[open[rng:int(#open)]]
  end,

  play = function(s, m)
    local c = column_of(m)
    local p = floor(s[3] * PLY_SCALE) % 2 + 1      -- (no flag yet: the game goes on)
    local slot = HEIGHT_SLOT[c]
    local i = H * (c - 1) + floor(s[slot] * HEIGHT_SCALE[c]) % 8 + 1   -- the new disc
    local new = {s[1], s[2], s[3] + PLY_ONE, s[4], s[5], s[6]}
    new[slot] = new[slot] + HEIGHT_ONE[c]
    local row = new[ROWS + p] + ROW_BIT[i]
    local rising, falling = new[RISING + p] + RISING_BIT[i], new[FALLING + p] + FALLING_BIT[i]
    new[ROWS + p], new[RISING + p], new[FALLING + p] = row, rising, falling
    -- Only lines through the new disc can be new: its column, its row and its two diagonals.
    if THREE[floor(row * BELOW1[i]) % 2 + floor(row * BELOW2[i]) % 2 + floor(row * BELOW3[i]) % 2]
       + FOUR[floor(row * ROW_SCALE[i]) % 128] + FOUR[floor(rising * RISING_SCALE[i]) % 128]
       + FOUR[floor(falling * FALLING_SCALE[i]) % 128] > 0 then
      new[3] = new[3] + WON
    end
    return new
  end,

  result = function(s)
    local top = floor(s[3] * PLY_SCALE)            -- the discs played, + 64 once a move won
    if top >= 64 then return WIN[2 - top % 2] end  -- the last mover: player 1 after an odd ply
    if top == FULL then return DRAW end
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
    if height(s, c) == H then return nil, "column " .. LETTERS[c] .. " is full" end
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
        local v = cell(s, c, r)
        items[#items + 1] = {shape = "circle", x = x, y = H - r - 0.5, r = 0.4, layer = 1,
                             fill = v == 0 and "#f4f4f4" or FILL[v], stroke = "#1d3d78"}
      end
      items[#items + 1] = {shape = "text", x = x, y = H + 0.45, text = LETTERS[c], size = 0.45,
                           fill = "#303030"}
    end
    items.bounds = {-0.2, -0.2, W + 0.2, H + 0.8}
    return items
  end,

  -- OpenSpiel's picture: the top row first, x and o for the players' discs.
  text = function(s)
    local lines = {}
    for r = H - 1, 0, -1 do
      local row = {}
      for c = 1, W do row[c] = ({".", "x", "o"})[cell(s, c, r) + 1] end
      lines[#lines + 1] = table.concat(row)
    end
    lines[#lines + 1] = table.concat(LETTERS)
    return table.concat(lines, "\n")
  end,
}
