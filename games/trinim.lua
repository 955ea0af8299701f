-- Trinim (Joan Josep, 2004; pbmserv by Cameron Browne, 2005).
--
-- A triangle of hexagonal cells holds equal numbers of red, green and blue pieces.  On your
-- turn grab one piece, or a contiguous straight line of pieces.  When the board is empty, each
-- player scores one point for every colour of which they hold an even number (0 is even).
-- The rules in full: docs/games/trinim.md.

local SIZES = {3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18, 20}
local LETTER = {"r", "g", "b"}                       -- colour codes in layouts and text
local CODE = {r = 1, g = 2, b = 3}
local FILL = {"#d43c3c", "#3c9a46", "#3c64d4"}
local NAME = {"red", "green", "blue"}
local FORWARD = {1, 5, 6}                            -- e, sw, se: each line is listed once

-- The board of size n: a triangle of hexagons with upper-case letters.  nomv makes each grid
-- once, and asking it again gets the same one; the hooks of a random game ask for it every ply,
-- so it is also kept here, where finding it is one table read.
local UPPER = {upper = true}                       -- (made once: a table in every call cost 6%)
local grids = {}
local function grid_of(n)
  local g = grids[n]
  if not g then
    g = nomv.grid.triangle(n, UPPER)
    grids[n] = g
  end
  return g
end

-- A layout such as "b/bb/bgr/grgg/rbgrr": rows from the apex, each from its lowest letter.
-- Returns the board (cell index -> 0..3) and the size, or nil and what is wrong.
local function read_layout(text)
  local rows = nomv.split(text, "/")
  local n = #rows
  if not nomv.contains(SIZES, n) then
    return nil, ("the layout has %d rows; the size must be one of 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18, 20"):format(n)
  end
  local g, board = grid_of(n), {}
  for r, row in ipairs(rows) do
    if #row ~= r then return nil, ("layout row %d has %d cells, it needs %d"):format(r, #row, r) end
    for k = 1, r do
      local ch = row:sub(k, k)
      local colour = CODE[ch]
      if not colour and ch ~= "." then
        return nil, ("layout row %d: %q is not a colour (use r, g, b, or . for empty)"):format(r, ch)
      end
      -- Row r holds letters n-r+1 .. n; the k-th character is letter n-r+k.
      local id = string.char(64 + n - r + k) .. r
      board[g.index[id]] = colour or 0
    end
  end
  return board, n
end

-- held[p][c]: how many pieces of colour c player p has grabbed.  Only their parity scores, but
-- the counts are kept whole because the displays show them.
local function new_counts(players)
  local held = {}
  for p = 1, players do held[p] = {0, 0, 0} end
  return held
end

-- How many consecutive occupied cells follow cell i in direction d.
local function run(step, board, i)
  local k, j = 0, step[i]
  while j and board[j] ~= 0 do k = k + 1; j = step[j] end
  return k
end

-- For random_move: ahead_of(g)[d][i], the cell after i in direction d, 0 off the board (each
-- later in the grid's order than i: rows run from the apex, each from its lowest letter); and
-- scratch lists rewritten by every call, index 0 standing for "off the board".
local aheads = {}
local function ahead_of(g)
  local a = aheads[g.size]
  if not a then
    a = {}
    for _, d in ipairs(FORWARD) do
      local step, list = g.step[d], {}
      for i = 1, g.n do
        list[i] = step[i] or 0
        assert(list[i] == 0 or list[i] > i, "trinim: a line runs back in the grid's order")
      end
      a[d] = list
    end
    aheads[g.size] = a
  end
  return a
end
local OCCUPIED = {[0] = 0, 1, 1, 1}                  -- a cell's content -> 1 if it holds a piece
local HAS, COUNT, RUNS = {[0] = 0}, {}, {[1] = {[0] = 0}, [5] = {[0] = 0}, [6] = {[0] = 0}}

-- A move records where it starts, its direction and how many cells follow the first, so that
-- play() need not search for the line.  Moves built elsewhere (by parse) carry only the ids.
-- A board's moves never change, so each is made once and shared (nomv only reads a move):
-- moves() and random_move() allocate none.  made[n].single[i], made[n].line[d][i][len].
local made = {}
local function made_of(g)
  local m = made[g.size]
  if not m then
    m = {single = {}, line = {}}
    for _, d in ipairs(FORWARD) do m.line[d] = {} end
    made[g.size] = m
  end
  return m
end

local function single(g, i)
  local singles = made_of(g).single
  local mv = singles[i]
  if not mv then
    mv = {g.ids[i], i = i, len = 0}
    singles[i] = mv
  end
  return mv
end

local function line_move(g, i, d, len)
  local from = made_of(g).line[d]
  local lines = from[i]
  if not lines then lines = {}; from[i] = lines end
  local mv = lines[len]
  if not mv then
    local j = i
    for _ = 1, len do j = g.step[d][j] end
    mv = {g.ids[i], g.ids[j], any_order = true, i = i, d = d, len = len}
    lines[len] = mv
  end
  return mv
end

local function locate(g, m)
  local i = g.index[m[1]]
  if #m == 1 then return i, 1, 0 end
  local cells, d = g:line(i, g.index[m[2]])
  return i, d, #cells - 1
end

-- Points are worked out when asked rather than kept in the state: only result and the displays
-- need them, and play stays a plain copy.
local function scores(s)
  local out = {}
  for p = 1, #s.held do
    local score = 0
    for c = 1, 3 do if s.held[p][c] % 2 == 0 then score = score + 1 end end
    out[p] = score
  end
  return out
end

local EVEN_COLOURS = {en = "points for colours held in even numbers",     -- (result's reason)
                      it = "punti per i colori tenuti in numero pari"}

-- The board of n cells dealt before the shuffle: the colours in turn.  setup copies it (one
-- table of the right size, not one grown cell by cell).
local dealt = {}
local function dealt_of(cells)
  local board = dealt[cells]
  if not board then
    board = {}
    for i = 1, cells do board[i] = (i - 1) % 3 + 1 end
    dealt[cells] = board
  end
  return board
end

return {
  name = "trinim",
  title = "Trinim",
  info = {
    author = "Joan Josep",
    source = "pbmserv (Cameron Browne, 2005); the designer's proposal of March 2004",
    rules = {en = "Grab one piece, or a straight unbroken line of pieces of any colours, along any of "
                  .. "the three directions. When the board is empty, score a point for each colour of "
                  .. "which you hold an even number (none counts as even). Most points wins; a shared "
                  .. "best score is a draw.",
             it = "Prendi un pezzo, o una linea dritta e continua di pezzi di qualsiasi colore, in "
                  .. "una delle tre direzioni. Quando la scacchiera è vuota, segna un punto per ogni "
                  .. "colore di cui hai un numero pari di pezzi (nessuno conta come pari). Vince chi ha "
                  .. "più punti; un miglior punteggio pari è patta."},
  },
  players = {min = 2, max = 3, default = 2,
             names = {{en = "Player 1", it = "Giocatore 1"}, {en = "Player 2", it = "Giocatore 2"},
                      {en = "Player 3", it = "Giocatore 3"}},
             colours = {"#202020", "#f4f4f4", "#a05ad0"}},
  options = {
    size = {default = 5, choices = SIZES, order = 1, label = {en = "size", it = "lato"},
            help = {en = "side of the triangle (its cell count must divide by 3)",
                    it = "lato del triangolo (il numero delle sue celle deve dividersi per 3)"}},
    layout = {default = "", order = 2, label = {en = "layout", it = "disposizione"},
              help = {en = "the board instead of a random fill, rows from the apex: b/bb/bgr/grgg/rbgrr",
                      it = "la scacchiera invece di una a caso, righe dal vertice: b/bb/bgr/grgg/rbgrr"}},
  },

  -- check runs before setup, so a layout that cannot be read is refused with its reason.
  check = function(opts, given)
    if opts.layout ~= "" then
      local board, n = read_layout(opts.layout)
      if not board then return n end
      if given.size and given.size ~= n then
        return ("size %d disagrees with the layout, which has %d rows"):format(given.size, n)
      end
    end
  end,

  setup = function(opts, rng)
    local board, n
    if opts.layout ~= "" then
      board, n = read_layout(opts.layout)
    else
      n = opts.size
      local cells = math.floor(n * (n + 1) / 2)
      -- Deal the colours in turn, then shuffle: every allowed size has a cell count divisible
      -- by 3, so the three colours come out equal.
      board = nomv.copy_list(dealt_of(cells))
      rng:shuffle(board)
    end
    -- left: the pieces still on the board, so that result need not scan it.
    local left = 0
    for i = 1, #board do if board[i] ~= 0 then left = left + 1 end end
    return {n = n, board = board, left = left, to_move = 1, held = new_counts(opts.players)}
  end,

  -- A single cell is its own move and each line is listed from one end only (FORWARD), so no
  -- grab appears twice.
  moves = function(s)
    local g, board, out = grid_of(s.n), s.board, {}
    for i = 1, g.n do
      if board[i] ~= 0 then
        out[#out + 1] = single(g, i)
        for _, d in ipairs(FORWARD) do
          for len = 1, run(g.step[d], board, i) do out[#out + 1] = line_move(g, i, d, len) end
        end
      end
    end
    return out
  end,

  play = function(s, m)
    local g = grid_of(s.n)
    -- Copy what the move changes: the board, and the mover's colour counts.
    local board, held = nomv.copy_list(s.board), nomv.copy_list(s.held)
    local mine = nomv.copy_list(held[s.to_move])
    held[s.to_move] = mine
    local c, d, len = m.i, m.d, m.len
    if not c then c, d, len = locate(g, m) end
    local step = g.step[d]
    for k = 0, len do
      if k > 0 then c = step[c] end
      mine[board[c]] = mine[board[c]] + 1
      board[c] = 0
    end
    return {n = s.n, board = board, left = s.left - len - 1, held = held,
            to_move = s.to_move % #held + 1}
  end,

  result = function(s)
    if s.left > 0 then return nil end
    return {scores = scores(s), reason = EVEN_COLOURS}
  end,

  scene = function(s)
    local g = grid_of(s.n)
    local items = g:scene({fill = "#efe4c8", stroke = "#8a7350"})
    for i = 1, g.n do
      local c = s.board[i]
      if c ~= 0 then
        items[#items + 1] = g:piece(i, FILL[c], {label = LETTER[c]:upper(), label_colour = "#ffffff"})
      end
    end
    -- The score table, to the right of the triangle (room for "Giocatore 1" before the columns).
    local x0, y0 = g.x[g.index[string.char(64 + s.n) .. s.n]] + 2.5, 0
    local COL = 2.8
    local sc = scores(s)
    for c = 1, 3 do
      items[#items + 1] = {shape = "circle", x = x0 + COL + 1.6 * c, y = y0, r = 0.45, fill = FILL[c],
                           label = LETTER[c]:upper(), label_colour = "#ffffff"}
    end
    items[#items + 1] = {shape = "text", x = x0 + COL + 7, y = y0, text = {en = "points", it = "punti"}, size = 0.6,
                         fill = "#303030"}
    for p = 1, #s.held do
      local y = y0 + 1.3 * p
      items[#items + 1] = {shape = "text", x = x0, y = y, text = {en = "Player " .. p, it = "Giocatore " .. p}, size = 0.6,
                           fill = "#303030", align = "left", bold = p == s.to_move and s.left > 0}
      for c = 1, 3 do
        items[#items + 1] = {shape = "text", x = x0 + COL + 1.6 * c, y = y, text = tostring(s.held[p][c]),
                             size = 0.6, fill = "#303030"}
      end
      items[#items + 1] = {shape = "text", x = x0 + COL + 7, y = y, text = tostring(sc[p]), size = 0.6, fill = "#303030"}
    end
    return items
  end,

  notation = function(s, m)
    if #m == 1 then return m[1] end
    return m[1] .. "-" .. m[2]
  end,

  -- The pbmserv picture: rows from the apex, the letters under the "\" diagonals.
  text = function(s)
    local g, n, lines = grid_of(s.n), s.n, {}
    for r = 1, n do
      local row = {}
      for c = n - r + 1, n do
        local v = s.board[g.index[string.char(64 + c) .. r]]
        row[#row + 1] = v == 0 and "." or LETTER[v]
      end
      lines[#lines + 1] = string.rep(" ", n - r) .. ("%2d-  "):format(r) .. table.concat(row, " ")
    end
    local letters = {}
    for c = 1, n do letters[c] = string.char(64 + c) end
    lines[#lines + 1] = "      " .. string.rep("\\ ", n)
    lines[#lines + 1] = "       " .. table.concat(letters, " ")
    lines[#lines + 1] = ""
    lines[#lines + 1] = "            R   G   B   Score"
    local sc = scores(s)
    for p = 1, #s.held do
      local h = s.held[p]
      local mark = (s.left > 0 and p == s.to_move) and " <- to move" or ""
      lines[#lines + 1] = ("Player %d  %3d %3d %3d   %5d%s"):format(p, h[1], h[2], h[3], sc[p], mark)
    end
    return table.concat(lines, "\n")
  end,

  -- Uniform over all legal moves without building the list: count, pick, then find.  One pass
  -- from the last cell back counts the moves of every cell (RUNS[d][i]: the pieces that follow
  -- cell i in direction d, from those of the cell after it), without a branch on the board, so
  -- LuaJIT keeps it one straight loop; the second pass finds the pick.  The moves come in the
  -- order moves() lists them, so a seed plays the same games as drawing from that list.
  random_move = function(s, rng)
    local g, board = grid_of(s.n), s.board
    local ahead = ahead_of(g)
    local e, sw, se = ahead[1], ahead[5], ahead[6]
    local re, rsw, rse = RUNS[1], RUNS[5], RUNS[6]
    local total = 0
    for i = g.n, 1, -1 do
      local here = OCCUPIED[board[i]]
      local je, jsw, jse = e[i], sw[i], se[i]
      local a, b, c = HAS[je] * (re[je] + 1), HAS[jsw] * (rsw[jsw] + 1), HAS[jse] * (rse[jse] + 1)
      HAS[i], re[i], rsw[i], rse[i] = here, a, b, c
      local count = here * (1 + a + b + c)
      COUNT[i] = count
      total = total + count
    end
    local pick = rng:int(total)
    for i = 1, g.n do
      local count = COUNT[i]
      if pick <= count then
        if pick == 1 then return single(g, i) end
        pick = pick - 1
        if pick <= re[i] then return line_move(g, i, 1, pick) end
        pick = pick - re[i]
        if pick <= rsw[i] then return line_move(g, i, 5, pick) end
        return line_move(g, i, 6, pick - rsw[i])
      end
      pick = pick - count
    end
  end,
}
