-- 3verse (Jean Manuel Morales, 2006), with its kverse generalisation.
--
-- Each turn you draw a rook path of k straight legs from one of your pieces (the anchor),
-- turning 90 degrees at each of your k-1 marks, and drop a new piece at its end.  Your marks stay
-- on the board as obstacles through your opponent's turn.  Whoever cannot move loses.
-- Settled rules: shared/rules.md sections 1 and 6.

local EMPTY, MARK = 0, 2                    -- board values: 0, piece p, mark of p = MARK + p
local TEMP = 9                              -- a mark placed earlier in the path being built
local N, E, S, W = 1, 3, 5, 7               -- nomv.grid.square direction numbers
local HORIZONTAL, VERTICAL = {E, W}, {N, S}
local NAME = {"X", "O"}
local FILL = {"#202020", "#f4f4f4"}
local INK = {"#f4f4f4", "#202020"}
local TRIES = 3                             -- blind tries of random_move before counting

-- Grids are fixed per size, so they are built once and shared by every state.
local grids = {}
local function grid_of(n)
  local g = grids[n]
  if not g then
    g = nomv.grid.square(n, n)
    grids[n] = g
  end
  return g
end

-- Listing paths.  walk() visits every path of k legs for player p in a fixed order (anchors in
-- cell order; legs e, w, n, s), counting them.  It stops at the `stop`-th path and returns it as
-- cell indices (stop = 1 asks "is there a move?"); with `out` it also keeps a copy of each.
-- The marks of the path so far hold TEMP while it grows, so that with k >= 5 a later leg is
-- blocked by an earlier mark (V3: everything on the board blocks); the board is restored before
-- returning.  No closures are made per call, so that LuaJIT compiles the loops.
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

-- Counting paths fast, for k <= 4, where no leg can meet an earlier mark of its own path
-- (rules.md V3), so the board alone decides each leg.  The state keeps each rank and each file
-- as a number: bit f-1 of rows[r] (bit r-1 of cols[f]) is set when that square is occupied.
-- Per size, UP[mask * n + q] and DOWN[...] tell how many empty squares follow position q of a
-- line upwards / downwards: a leg is then one look-up, and the loops below are plain numeric
-- loops (nested while loops over the board made LuaJIT spin on side traces).
-- candidate for the nomv library: O(1) free-run look-ups along the ranks and files of a
-- square grid from per-line occupancy numbers (any rook-move game could use them).
local lines = {}
local function lines_of(n)
  local t = lines[n]
  if t then return t end
  local up, down, pow = {}, {}, {}
  for q = 1, n do pow[q] = 2 ^ (q - 1) end
  for mask = 0, 2 ^ n - 1 do
    local base, free = mask * n, {}
    for q = 1, n do free[q] = math.floor(mask / pow[q]) % 2 == 0 end
    up[base + n], down[base + 1] = 0, 0
    for q = n - 1, 1, -1 do up[base + q] = free[q + 1] and up[base + q + 1] + 1 or 0 end
    for q = 2, n do down[base + q] = free[q - 1] and down[base + q - 1] + 1 or 0 end
  end
  t = {up = up, down = down, pow = pow}
  lines[n] = t
  return t
end

-- ways[L](s, f, r, h): the number of ways to finish a path from square (f, r) with L legs left,
-- the next one horizontal (h) or vertical.  One function per L (no recursion), the last two
-- legs counted in one loop.
local ways = {}
ways[1] = function(s, f, r, h)
  local n, t = s.n, lines_of(s.n)
  local key = h and s.rows[r] * n + f or s.cols[f] * n + r
  return t.up[key] + t.down[key]
end
ways[2] = function(s, f, r, h)
  local n, t = s.n, lines_of(s.n)
  local up, down, total = t.up, t.down, 0
  if h then
    local key, cols = s.rows[r] * n + f, s.cols
    for f2 = f - down[key], f + up[key] do
      if f2 ~= f then
        local k2 = cols[f2] * n + r
        total = total + up[k2] + down[k2]
      end
    end
  else
    local key, rows = s.cols[f] * n + r, s.rows
    for r2 = r - down[key], r + up[key] do
      if r2 ~= r then
        local k2 = rows[r2] * n + f
        total = total + up[k2] + down[k2]
      end
    end
  end
  return total
end
for legs = 3, 4 do
  local inner = ways[legs - 1]
  ways[legs] = function(s, f, r, h)
    local n, t = s.n, lines_of(s.n)
    local total = 0
    if h then
      local key = s.rows[r] * n + f
      for f2 = f - t.down[key], f + t.up[key] do
        if f2 ~= f then total = total + inner(s, f2, r, false) end
      end
    else
      local key = s.cols[f] * n + r
      for r2 = r - t.down[key], r + t.up[key] do
        if r2 ~= r then total = total + inner(s, f, r2, true) end
      end
    end
    return total
  end
end

-- Fills path[d..] with the r-th way to finish a path from (f, rank) with L legs left.
local function pick(s, f, rank, legs, h, r, path, d)
  local n, t = s.n, lines_of(s.n)
  local key = h and s.rows[rank] * n + f or s.cols[f] * n + rank
  local at = h and f or rank
  for q = at - t.down[key], at + t.up[key] do
    if q ~= at then
      local f2, r2 = h and q or f, h and rank or q
      local w = legs == 1 and 1 or ways[legs - 1](s, f2, r2, not h)
      if r <= w then
        path[d] = (r2 - 1) * n + f2
        if legs > 1 then pick(s, f2, r2, legs - 1, not h, r, path, d + 1) end
        return
      end
      r = r - w
    end
  end
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

-- One blind try for random_move: an anchor among `anchors`, then each turning square and the
-- piece among all the squares of the line it must lie on (2(n-1) for the first, n-1 after),
-- whatever is in the way.  Every path has the same chance to be drawn; true if it is legal.
local floor = math.floor
local function try_path(s, anchors, rng, path)
  local n, t = s.n, lines_of(s.n)
  local up, down, rows, cols = t.up, t.down, s.rows, s.cols
  local span = n - 1
  local c = anchors[1 + floor(rng:float() * #anchors)]
  path[1] = c
  local f, r = (c - 1) % n + 1, floor((c - 1) / n) + 1
  local q = 1 + floor(rng:float() * 2 * span)
  local h = q <= span
  if not h then q = q - span end
  for d = 2, s.k + 1 do
    if h then
      if q >= f then q = q + 1 end
      local key = rows[r] * n + f
      if q > f and q - f > up[key] or q < f and f - q > down[key] then return false end
      f = q
    else
      if q >= r then q = q + 1 end
      local key = cols[f] * n + r
      if q > r and q - r > up[key] or q < r and r - q > down[key] then return false end
      r = q
    end
    path[d], h = (r - 1) * n + f, not h
    q = 1 + floor(rng:float() * span)
  end
  return true
end

local function has_move(s)
  local g, p, k, n = grid_of(s.n), s.to_move, s.k, s.n
  if k > 4 then return walk(s.board, g, p, k, 1) > 0 end
  -- Any anchor with a path: count the paths of one anchor at a time (most have few or none).
  local count, board = ways[k], s.board
  for a = 1, g.n do
    if board[a] == p then
      local f, r = (a - 1) % n + 1, floor((a - 1) / n) + 1
      if count(s, f, r, true) > 0 or count(s, f, r, false) > 0 then return true end
    end
  end
  return false
end

local function as_move(g, cells)
  local m = {}
  for x = 1, #cells do m[x] = g.ids[cells[x]] end
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

local function with_result(s)
  if not has_move(s) then s.winner = 3 - s.to_move end
  return s
end

return {
  name = "3verse",
  title = "3verse",
  info = {
    author = "Jean Manuel Morales",
    source = "Nomignolov blog, 13 August 2006 (kverse from the same post)",
    rules = "Take your marks off the board. From one of your pieces (the anchor) draw a path of "
         .. "k straight legs (3 in 3verse) along ranks and files, turning 90 degrees at each "
         .. "mark, over empty squares only; put your k-1 marks at the turns and a new piece at "
         .. "the end. Pieces and all marks on the board block. Your marks stay until your next "
         .. "turn. A player who cannot move loses.",
  },
  players = {min = 2, max = 2, names = NAME, colours = FILL},
  options = {
    k = {default = 3, min = 1, max = 5, order = 1,
         help = "legs in a path (k-1 marks); k = 0 would need -1 marks"},
    size = {default = 8, min = 4, max = 12, order = 2, help = "side of the square board"},
  },
  variants = {["2verse"] = {k = 2}, ["4verse"] = {k = 4}},

  -- V1: X on a1 and the far corner, O on the other two corners.
  setup = function(opts)
    local n = opts.size
    local g = grid_of(n)
    local board = {}
    for i = 1, g.n do board[i] = EMPTY end
    board[1], board[g.n] = 1, 1
    board[n], board[g.n - n + 1] = 2, 2
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
    local g, p, n = grid_of(s.n), s.to_move, s.n
    local board, rows, cols, pow = {unpack(s.board)}, {unpack(s.rows)}, {unpack(s.cols)}, lines_of(n).pow
    local file, rank, old, marks = g.file, g.rank, s.marks, {}
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

  -- Exactly uniform without building the list.  First a few blind tries (cheap, and likely to
  -- succeed while the board is open); then count the paths below each anchor, draw a number and
  -- walk down to it (cheap once few paths are left).  Either way each legal path has the same
  -- chance.  k = 5 has no counting shortcut (a late leg can meet an early mark).
  random_move = function(s, rng)
    local g, k, p, board = grid_of(s.n), s.k, s.to_move, s.board
    local anchors = {}
    for a = 1, g.n do if board[a] == p then anchors[#anchors + 1] = a end end
    if k > 4 then
      local _, found = walk(board, g, p, k, rng:int(walk(board, g, p, k, -1)))
      return as_move(g, found)
    end
    local path = {}
    for _ = 1, TRIES do
      if try_path(s, anchors, rng, path) then return as_move(g, path) end
    end
    local count, n = ways[k], s.n
    local weights, total = {}, 0
    for x, a in ipairs(anchors) do
      local f, r = (a - 1) % n + 1, math.floor((a - 1) / n) + 1
      local h, v = count(s, f, r, true), count(s, f, r, false)
      weights[x] = {h, v}
      total = total + h + v
    end
    local r = rng:int(total)
    for x, a in ipairs(anchors) do
      for o = 1, 2 do
        local w = weights[x][o]
        if r <= w then
          local path = {a}
          pick(s, (a - 1) % n + 1, math.floor((a - 1) / n) + 1, k, o == 1, r, path, 2)
          return as_move(g, path)
        end
        r = r - w
      end
    end
  end,

  result = function(s)
    if s.winner then return {winner = s.winner, reason = NAME[s.to_move] .. " has no path"} end
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
    items.status = s.winner and (NAME[s.winner] .. " wins") or (NAME[s.to_move] .. " to move")
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
}
