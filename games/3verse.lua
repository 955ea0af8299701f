-- 3verse (Jean Manuel Morales, 2006), with its kverse generalisation.
--
-- Each turn you draw a rook path of k straight legs from one of your pieces (the anchor),
-- turning 90 degrees at each of your k-1 marks, and drop a new piece at its end.  Your marks stay
-- on the board as obstacles through your opponent's turn.  Whoever cannot move loses.
-- The rules in full: docs/games/3verse.md.

local EMPTY, MARK = 0, 2                    -- board values: 0, piece p, mark of p = MARK + p
local TEMP = 9                              -- a mark placed earlier in the path being built
local N, E, S, W = 1, 3, 5, 7               -- nomv.grid.square direction numbers
local HORIZONTAL, VERTICAL = {E, W}, {N, S}
local NAME = {"X", "O"}
local FILL = {"#202020", "#f4f4f4"}
local INK = {"#f4f4f4", "#202020"}
local floor = math.floor

-- The board of size n.  (nomv makes each grid once; asking again, in every hook, gets the same
-- one.)
local grid_of = nomv.grid.square

-- Listing paths.  walk() visits every path of k legs for player p in a fixed order (anchors in
-- cell order; legs e, w, n, s), counting them.  It stops at the `stop`-th path and returns it as
-- cell indices (stop = 1 asks "is there a move?"); with `out` it also keeps a copy of each.
-- The marks of the path so far hold TEMP while it grows, so that with k >= 5 a later leg is
-- blocked by an earlier mark (everything on the board blocks: docs/games/3verse.md); the board
-- is restored before returning.  No closures are made per call, so that LuaJIT compiles the loops.
local WALK = {path = {}}                    -- the walk in progress
local function leg(c, d, horizontal)
  local board, k = WALK.board, WALK.k
  for x = 1, 2 do
    local st = WALK.step[horizontal and HORIZONTAL[x] or VERTICAL[x]]
    local j = st[c]
    while j and board[j] == EMPTY do
      WALK.path[d] = j
      if d == k + 1 then
        WALK.count = WALK.count + 1
        if WALK.out then
          local found = {}
          for y = 1, d do found[y] = WALK.path[y] end
          WALK.out[WALK.count] = found
        end
        if WALK.count == WALK.stop then return true end
      else
        board[j] = TEMP
        local done = leg(j, d + 1, not horizontal)
        board[j] = EMPTY
        if done then return true end
      end
      j = st[j]
    end
  end
  return false
end

local function walk(board, g, p, k, stop, out)
  WALK.board, WALK.step, WALK.k, WALK.stop, WALK.out, WALK.count = board, g.step, k, stop, out, 0
  local path, found = WALK.path, nil
  for a = 1, g.n do
    if board[a] == p then
      path[1] = a
      if leg(a, 2, true) or leg(a, 2, false) then
        found = {}
        for y = 1, k + 1 do found[y] = path[y] end
        break
      end
    end
  end
  WALK.board, WALK.out = nil, nil
  return WALK.count, found
end

-- Counting paths fast, for k <= 4, where no leg can meet an earlier mark of its own path (only
-- k = 5 can), so the board alone decides each leg.  The state keeps each rank and each file as
-- a number: bit f-1 of rows[r] (bit r-1 of cols[f]) is set when that square is occupied.
-- Per size, up[mask * n + q] and down[...] tell how many empty squares follow position q of a
-- line upwards / downwards: a leg is then one look-up.
-- candidate for the nomv library: O(1) free-run look-ups along the ranks and files of a
-- square grid from per-line occupancy numbers (any rook-move game could use them).
local lines = {}
local function lines_of(n)
  local t = lines[n]
  if t then return t end
  local up, down, pow = {}, {}, {1}
  for q = 2, n do pow[q] = pow[q - 1] * 2 end          -- whole numbers on Lua 5.4 too
  for mask = 0, 2 * pow[n] - 1 do
    local base, free = mask * n, {}
    for q = 1, n do free[q] = floor(mask / pow[q]) % 2 == 0 end
    up[base + n], down[base + 1] = 0, 0
    for q = n - 1, 1, -1 do up[base + q] = free[q + 1] and up[base + q + 1] + 1 or 0 end
    for q = 2, n do down[base + q] = free[q - 1] and down[base + q - 1] + 1 or 0 end
  end
  local file, rank, rank_sum, file_sum = {}, {}, {}, {}
  for c = 1, n * n do
    local f, r = (c - 1) % n + 1, floor((c - 1) / n) + 1
    file[c], rank[c], rank_sum[c + r], file_sum[c + n] = f, r, f, r
  end
  for q = 1, n do rank_sum[(q - 1) * (n + 1) + 1], file_sum[q] = 0, 0 end
  t = {up = up, down = down, pow = pow, file = file, rank = rank, rank_sum = rank_sum, file_sum = file_sum}
  lines[n] = t
  return t
end

-- Counting paths.  H[L][c] (V[L][c]) is the number of ways to finish a path from square c with
-- L legs left, the first one horizontal (vertical).  A horizontal leg from c ends on a square of
-- c's free run along its rank, which then needs a vertical leg: H[L][c] sums V[L-1] over that
-- run, and H[0] = V[0] = 1.  With prefix sums along every rank and file each such sum is two
-- look-ups, so count() needs one flat pass over the board per layer L < k, and an anchor's
-- count for the whole path (L = k) is then a few look-ups (ways_at).  Flat loops over the
-- board, because LuaJIT compiles nested short loops over runs (per anchor) badly.
-- Prefix layouts, c = (r - 1) * n + f: RANK_SUM[L][c + r] is V[L] summed over files 1..f of
-- rank r, with a 0 at c + r - f; FILE_SUM[L][c + n] is H[L] summed over ranks 1..r of file f,
-- with a 0 at f.  Layer 0 (all ones) has them per size: RANK_SUM[0][c + r] = f, ...[c + n] = r.
local ONES, H, V, RANK_SUM, FILE_SUM = {}, {}, {}, {}, {}
for c = 1, 144 do ONES[c] = 1 end          -- 144 squares on the largest board
H[0], V[0] = ONES, ONES
for legs = 1, 3 do H[legs], V[legs], RANK_SUM[legs], FILE_SUM[legs] = {}, {}, {}, {} end
local counted                               -- the state whose counts H and V hold

-- The ways from square c = (f, r) with `legs` legs left (>= 1), first leg horizontal and first
-- leg vertical, once layer legs - 1 is counted.
local function ways_at(s, t, legs, c, f, r)
  local n, up, down, below = s.n, t.up, t.down, legs - 1
  local rk, fk = s.rows[r] * n + f, s.cols[f] * n + r
  local rank_sum, file_sum = RANK_SUM[below], FILE_SUM[below]
  return rank_sum[c + r + up[rk]] - rank_sum[c + r - down[rk] - 1] - V[below][c],
         file_sum[c + n + up[fk] * n] - file_sum[c - down[fk] * n] - H[below][c]
end

local function count(s)
  local n, t = s.n, lines_of(s.n)
  local up, down, rows, cols, file, rank = t.up, t.down, s.rows, s.cols, t.file, t.rank
  RANK_SUM[0], FILE_SUM[0] = t.rank_sum, t.file_sum
  for legs = 1, s.k - 1 do
    local hs, vs, rank_sum, file_sum = H[legs], V[legs], RANK_SUM[legs], FILE_SUM[legs]
    local h0, v0, rank_sum0, file_sum0 = H[legs - 1], V[legs - 1], RANK_SUM[legs - 1], FILE_SUM[legs - 1]
    for q = 1, n do rank_sum[(q - 1) * (n + 1) + 1], file_sum[q] = 0, 0 end
    for c = 1, n * n do
      local f, r = file[c], rank[c]
      local rk, fk = rows[r] * n + f, cols[f] * n + r
      local h = rank_sum0[c + r + up[rk]] - rank_sum0[c + r - down[rk] - 1] - v0[c]
      local v = file_sum0[c + n + up[fk] * n] - file_sum0[c - down[fk] * n] - h0[c]
      hs[c], vs[c] = h, v
      rank_sum[c + r], file_sum[c + n] = rank_sum[c + r - 1] + v, file_sum[c] + h
    end
  end
  counted = s
end

-- The anchor a's counts for the whole path, first leg horizontal and vertical (after count).
local function anchor_ways(s, a)
  local t = lines_of(s.n)
  return ways_at(s, t, s.k, a, t.file[a], t.rank[a])
end

-- The line numbers of a board (used by setup; play updates them).
local function line_masks(board, n)
  local rows, cols, pow = {}, {}, lines_of(n).pow
  for q = 1, n do rows[q], cols[q] = 0, 0 end
  for r = 1, n do
    for f = 1, n do
      if board[(r - 1) * n + f] ~= EMPTY then rows[r], cols[f] = rows[r] + pow[f], cols[f] + pow[r] end
    end
  end
  return rows, cols
end

-- Whether the player to move has a path.  It is asked of every state (no path loses), so it
-- counts instead of listing; for k <= 4 the count it leaves in H and V is the one
-- random_move needs next.
local function has_move(s)
  local p, k, n, board = s.to_move, s.k, s.n, s.board
  if k > 4 then return walk(board, grid_of(n), p, k, 1) > 0 end
  count(s)
  for a = 1, n * n do
    if board[a] == p then
      local h, v = anchor_ways(s, a)
      if h + v > 0 then return true end
    end
  end
  return false
end

-- The winner is settled when a state is made rather than in result(), so that the count of
-- has_move is still there when random_move is asked about the same state.
local function with_result(s)
  if not has_move(s) then s.winner = 3 - s.to_move end
  return s
end

-- The move naming cells[1..len] (all of cells by default).
local function as_move(g, cells, len)
  local m = {}
  for x = 1, len or #cells do m[x] = g.ids[cells[x]] end
  return m
end

-- Why a path of cell ids is not legal, or nil when it is (used by parse to explain a refusal;
-- the legal list stays the only authority).
local function why_not(s, g, ids)
  if #ids ~= s.k + 1 then
    return ("a %dverse move names %d squares: the anchor, %d mark%s and the new piece"):format(
      s.k, s.k + 1, s.k - 1, s.k == 2 and "" or "s")
  end
  local cells = {}
  for x, id in ipairs(ids) do
    cells[x] = g.index[id:lower()]
    if not cells[x] then return ("%s is not a square of the board"):format(id) end
  end
  if s.board[cells[1]] ~= s.to_move then
    return ("%s is not one of %s's pieces"):format(ids[1], NAME[s.to_move])
  end
  local board = nomv.copy(s.board)
  for x = 2, #cells do
    local a, b = cells[x - 1], cells[x]
    local line = a ~= b and g:line(a, b)
    if not line or (g.file[a] ~= g.file[b] and g.rank[a] ~= g.rank[b]) then
      return ("%s and %s are not on one rank or file"):format(ids[x - 1], ids[x])
    end
    if x > 2 and (g.file[b] == g.file[cells[x - 2]] or g.rank[b] == g.rank[cells[x - 2]]) then
      return ("the path must turn 90 degrees at %s"):format(ids[x - 1])
    end
    for y = 2, #line do
      if board[line[y]] ~= EMPTY then
        return ("%s is not empty (leg %s-%s)"):format(g.ids[line[y]], ids[x - 1], ids[x])
      end
    end
    board[b] = TEMP
  end
end

local PATH = {}                             -- scratch path of random_move: no table per move

-- Fills path[2..k+1] with the r-th path from the anchor path[1], first leg horizontal if h, in
-- the order of the squares along each leg: each leg skips the paths behind each square.
local function pick(s, h, r, path)
  local n, k, t, c = s.n, s.k, lines_of(s.n), path[1]
  for legs = k, 1, -1 do
    local f, rank = t.file[c], t.rank[c]
    local key = h and s.rows[rank] * n + f or s.cols[f] * n + rank
    local at, step, after = h and f or rank, h and 1 or n, h and V[legs - 1] or H[legs - 1]
    for q = at - t.down[key], at + t.up[key] do
      local c2 = c + (q - at) * step
      if q ~= at then
        if r <= after[c2] then c = c2; break end
        r = r - after[c2]
      end
    end
    path[k + 2 - legs], h = c, not h
  end
end

return {
  name = "3verse",
  title = "3verse",
  info = {
    author = "Jean Manuel Morales",
    source = "Nomignolov blog, 13 August 2006 (kverse from the same post)",
    rules = {en = "Take your marks off the board. From one of your pieces (the anchor) draw a path of "
                  .. "k straight legs (3 in 3verse) along ranks and files, turning 90 degrees at each "
                  .. "mark, over empty squares only; put your k-1 marks at the turns and a new piece at "
                  .. "the end. Pieces and all marks on the board block. Your marks stay until your next "
                  .. "turn. A player who cannot move loses.",
             it = "Togli i tuoi segni dalla scacchiera. Da uno dei tuoi pezzi (l'ancora) traccia un "
                  .. "percorso di k tratti diritti (3 in 3verse) lungo righe e colonne, girando di 90 "
                  .. "gradi a ogni segno, solo su caselle vuote; metti i tuoi k-1 segni alle svolte e un "
                  .. "nuovo pezzo alla fine. Pezzi e segni sulla scacchiera bloccano. I tuoi segni "
                  .. "restano fino al tuo turno successivo. Chi non può muovere perde."},
  },
  players = {min = 2, max = 2, names = NAME, colours = FILL},
  options = {
    k = {default = 3, min = 1, max = 5, order = 1,
         help = {en = "legs in a path (k-1 marks); k = 0 would need -1 marks",
                 it = "tratti di un percorso (k-1 segni); k = 0 vorrebbe -1 segni"}},
    size = {default = 8, min = 4, max = 12, order = 2, label = {en = "size", it = "lato"},
            help = {en = "side of the square board", it = "lato della scacchiera quadrata"}},
  },
  variants = {["2verse"] = {k = 2}, ["4verse"] = {k = 4}},

  -- X on a1 and the far corner, O on the other two corners.
  setup = function(opts)
    local n = opts.size
    local board = {}
    for i = 1, n * n do board[i] = EMPTY end
    board[1], board[n * n] = 1, 1
    board[n], board[n * n - n + 1] = 2, 2
    local rows, cols = line_masks(board, n)
    return with_result({n = n, k = opts.k, board = board, rows = rows, cols = cols, marks = {},
                        to_move = 1})
  end,

  moves = function(s)
    local g, all = grid_of(s.n), {}
    walk(s.board, g, s.to_move, s.k, -1, all)
    for x = 1, #all do all[x] = as_move(g, all[x]) end
    return all
  end,

  -- The marks on the board are the opponent's, and the opponent moves next: lifting them here
  -- is the start of the opponent's turn, so every state shows only the marks that matter.
  play = function(s, m)
    local g, t, p, n = grid_of(s.n), lines_of(s.n), s.to_move, s.n
    -- nomv.copy_list copies each list with one table constructor: a list filled slot by slot
    -- grows several times on the way (that cost random games a sixth of their speed for the
    -- two line lists of 8 alone).
    local board, rows, cols = nomv.copy_list(s.board, n * n), nomv.copy_list(s.rows, n),
                              nomv.copy_list(s.cols, n)
    local file, rank, pow, old, marks = t.file, t.rank, t.pow, s.marks, {}
    for x = 1, #old do                      -- lift the opponent's marks...
      local c = old[x]
      local f, r = file[c], rank[c]
      board[c], rows[r], cols[f] = EMPTY, rows[r] - pow[f], cols[f] - pow[r]
    end
    for x = 2, #m do                        -- ...put down ours and the new piece
      local c = g.index[m[x]]
      local f, r = file[c], rank[c]
      board[c], rows[r], cols[f] = x < #m and MARK + p or p, rows[r] + pow[f], cols[f] + pow[r]
      if x < #m then marks[x - 1] = c end
    end
    return with_result({n = n, k = s.k, board = board, rows = rows, cols = cols, marks = marks,
                        to_move = 3 - p})
  end,

  result = function(s)
    if s.winner then
      return {winner = s.winner, reason = {en = NAME[s.to_move] .. " has no path", it = NAME[s.to_move] .. " non ha percorsi"}}
    end
  end,

  notation = function(s, m)
    return table.concat(m, "-")
  end,

  parse = function(s, text)
    local ids = {}
    for _, part in ipairs(nomv.split(text, "-,/ ")) do
      if part ~= "" then ids[#ids + 1] = part:lower() end
    end
    local why = why_not(s, grid_of(s.n), ids)
    if why then return nil, why end
    return ids
  end,

  scene = function(s)
    local g, n = grid_of(s.n), s.n
    local items = g:scene({fill = function(i) return (g.file[i] + g.rank[i]) % 2 == 0 and "#b58863" or "#f0d9b5" end,
                           stroke = "#5a4a30"})
    for i = 1, g.n do
      local v = s.board[i]
      if v == 1 or v == 2 then
        items[#items + 1] = g:piece(i, FILL[v], {label = NAME[v], label_colour = INK[v]})
      elseif v > MARK then
        local p = v - MARK
        items[#items + 1] = {shape = "rect", x = g.x[i], y = g.y[i], w = 0.44, h = 0.44, fill = FILL[p],
                             stroke = "#c03030", width = 0.06, layer = 2,
                             label = NAME[p]:lower(), label_colour = INK[p]}
      end
    end
    for c = 1, n do
      items[#items + 1] = {shape = "text", x = c - 0.5, y = n + 0.35, text = string.char(96 + c),
                           size = 0.3, fill = "#303030"}
      items[#items + 1] = {shape = "text", x = -0.3, y = n - c + 0.5, text = tostring(c),
                           size = 0.3, fill = "#303030"}
    end
    items.bounds = {-0.6, 0, n, n + 0.6}
    return items
  end,

  -- Rank n at the top, as on the board; marks in lower case.
  text = function(s)
    local g, n, lines = grid_of(s.n), s.n, {}
    local SYMBOL = {[0] = ".", "X", "O", "x", "o"}
    for r = n, 1, -1 do
      local row = {}
      for f = 1, n do row[f] = SYMBOL[s.board[(r - 1) * n + f]] end
      lines[#lines + 1] = ("%2d  %s"):format(r, table.concat(row, " "))
    end
    local letters = {}
    for f = 1, n do letters[f] = string.char(96 + f) end
    lines[#lines + 1] = "    " .. table.concat(letters, " ")
    local marks = {}
    for x, c in ipairs(s.marks) do marks[x] = g.ids[c] end
    lines[#lines + 1] = ""
    lines[#lines + 1] = ("%dverse, %s to move%s"):format(s.k, NAME[s.to_move],
      #marks > 0 and ("; %s's marks on %s"):format(NAME[3 - s.to_move], table.concat(marks, ", ")) or "")
    return table.concat(lines, "\n")
  end,

  -- Exactly uniform without building the list: draw a number up to the count of paths and walk
  -- down to it.  play() counted this state's paths to see whether there is one; that count is
  -- reused (H and V still hold it unless another state was counted since).  k = 5 has no
  -- counting shortcut (a late leg can meet an early mark).
  random_move = function(s, rng)
    local g, k, p, n, board = grid_of(s.n), s.k, s.to_move, s.n, s.board
    if k > 4 then
      local _, found = walk(board, g, p, k, rng:int(walk(board, g, p, k, -1)))
      return as_move(g, found)
    end
    if counted ~= s then count(s) end
    local total = 0
    for a = 1, n * n do
      if board[a] == p then
        local h, v = anchor_ways(s, a)
        total = total + h + v
      end
    end
    local r = rng:int(total)
    for a = 1, n * n do
      if board[a] == p then
        local h, v = anchor_ways(s, a)
        if r <= h + v then
          PATH[1] = a
          if r <= h then pick(s, true, r, PATH) else pick(s, false, r - h, PATH) end
          return as_move(g, PATH, k + 1)
        end
        r = r - h - v
      end
    end
  end,
}
