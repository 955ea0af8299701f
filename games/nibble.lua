-- Nibble (Jared McComb; BGA and nestorgames editions).
--
-- A board full of coloured blocks, no two of one colour side by side.  On your turn take one or
-- more blocks of one colour, each with two exposed sides meeting at a corner (three exposed
-- sides in a row on the hexagonal board), without splitting the blocks left.  Holding every
-- block of a colour, or 7 of each of three neighbouring colours on the colour line, wins at
-- once; otherwise the majority of majorities wins when the board is empty.
-- Settled rules: shared/rules.md section 5 (and section 6 for the layout option).

-- The colour line, in order: colour c is FILL[c], written CODES:sub(c, c) in layouts and text.
local FILL = {"#e6194b", "#f58231", "#ffe119", "#bfef45", "#3cb44b", "#42d4f4", "#4363d8",
              "#911eb4", "#f032e6", "#800000", "#9a6324", "#000075", "#a9a9a9"}
local INK = {"#ffffff", "#000000", "#000000", "#000000", "#000000", "#000000", "#ffffff",
             "#ffffff", "#ffffff", "#ffffff", "#ffffff", "#ffffff", "#000000"}
local CODES = "123456789abcd"

-- The state keeps the board and the collections as strings, because a playout makes a new
-- state every turn and a new string costs far less than a new table.  board: one character per
-- cell in grid order, a colour code or "." for empty.  held: each player's count of each colour
-- (player 1's C counts, then player 2's) as digits 0-9 a-d.  VALUE reads either kind of byte.
local DIGITS, EMPTY, byte = "0123456789abcd", 46, string.byte
local VALUE = {[EMPTY] = 0}
for k = 1, #DIGITS do VALUE[DIGITS:byte(k)] = k - 1 end

local function encode(t)                      -- a board as a list of colours 0..C -> string
  local chars = {}
  for i = 1, #t do chars[i] = t[i] == 0 and "." or CODES:sub(t[i], t[i]) end
  return table.concat(chars)
end

local function decode(str)                    -- and back
  local t = {}
  for i = 1, #str do t[i] = VALUE[byte(str, i)] end
  return t
end

-- Everything the rules ask about one block depends only on which cells around it are occupied:
-- its ring of 8 (square: sides and diagonals) or 6 (hex) cells in cyclic order, read as a bit
-- mask.  So both tests are worked out once per mask, when the geometry is built.
--
-- The corner rule: `need` consecutive sides exposed (empty or off the board), cyclically.
-- Taking the block alone keeps the rest connected when its neighbours lie in one arc of
-- occupied ring cells.  That is exact on a board without holes (empty cells walled in), which
-- play never creates (B3): two arcs joined by a path round the far side would wall in one of the
-- empty gaps between them.
local function tabulate(G, m, is_side)
  local corner, alone, top = {}, {}, 1
  for _ = 1, m do top = top * 2 end
  for mask = 0, top - 1 do
    local occ, exposed, x = {}, {}, mask
    for k = 1, m do
      occ[k] = x % 2 == 1
      x = math.floor(x / 2)
      if is_side[k] then exposed[#exposed + 1] = not occ[k] end
    end
    local nd, ok = #exposed, false
    for d = 1, nd do
      local k = 0
      while k < G.need and exposed[(d + k - 1) % nd + 1] do k = k + 1 end
      ok = ok or k == G.need
    end
    corner[mask] = ok
    local arcs, inside, side = 0, false, false
    for t = 1, 2 * m do                    -- twice round: count each arc where it ends in lap 2
      local k = (t - 1) % m + 1
      if occ[k] then
        if not inside then inside, side = true, false end
        side = side or is_side[k]
      elseif inside then
        inside = false
        if side and t > m then arcs = arcs + 1 end
      end
    end
    alone[mask] = arcs <= 1
  end
  G.corner, G.alone = corner, alone
end

-- One geometry per board ("square9", "square13", "hex"), built once and shared by every state.
local GEOS = {}
local function build(key)
  local G = {file = {}, rank = {}, rows = {}, pos = {}, before = {}, around = {}}
  local g, is_side = nil, {}
  if key == "hex" then
    g = nomv.grid.hexhex(8)
    G.C, G.need, G.ranks = 13, 3, 15
    for i = 1, g.n do G.file[i], G.rank[i] = g.q[i] + 8, g.r[i] + 8 end
  else
    G.C = key == "square9" and 9 or 13
    g = nomv.grid.square(G.C, G.C)
    G.need, G.ranks = 2, G.C
    for i = 1, g.n do G.file[i], G.rank[i] = g.file[i], g.rank[i] end
  end
  local m = #g.dirs                                   -- square n ne e .. nw; hex n ne se s sw nw
  for d = 1, m do is_side[d] = key == "hex" or d % 2 == 1 end
  for i = 1, g.n do                                   -- around[(i-1)*m + k]: ring cell k, or 0
    for d = 1, m do G.around[(i - 1) * m + d] = g.step[d][i] or 0 end
  end
  G.g, G.n, G.m, G.nd = g, g.n, m, key == "hex" and 6 or 4
  G.single = {}                                       -- one-block moves, made once
  for i = 1, g.n do G.single[i] = {g.ids[i], any_order = true} end
  -- A block with both its n and s neighbours is never a corner (any `need` consecutive sides
  -- include n or s): the quick test that skips most blocks in random_move.
  G.north, G.south = {}, {}
  for i = 1, g.n do G.north[i], G.south[i] = g.step[1][i] or 0, g.step[g.opposite[1]][i] or 0 end
  G.three, G.major = G.C == 9 and 7 or 10, math.floor((G.C + 1) / 2)
  tabulate(G, m, is_side)
  -- Notation order: by file, then rank (a1 a2 .. a9 b1 ..), so "a2" comes before "a10".
  G.order = {}
  for i = 1, g.n do G.order[i] = i end
  table.sort(G.order, function(a, b) return G.file[a] * 100 + G.rank[a] < G.file[b] * 100 + G.rank[b] end)
  for k, i in ipairs(G.order) do
    G.pos[i] = k
    local row = G.rows[G.rank[i]] or {}               -- layout rows: each rank, by file
    row[#row + 1] = i
    G.rows[G.rank[i]] = row
  end
  for i = 1, g.n do                                   -- neighbours filled before i (B6)
    G.before[i] = {}
    for _, j in ipairs(g.adj[i]) do if j < i then G.before[i][#G.before[i] + 1] = j end end
  end
  GEOS[key] = G
  return G
end

-- (Kept apart from build: a return next to its closures would stop LuaJIT compiling callers.)
local function geometry(key) return GEOS[key] or build(key) end

local function geo_key(board, colours)
  if board == "hex" then return "hex" end
  return colours == 9 and "square9" or "square13"
end

-- The ring mask of block i (bit k-1: ring cell k holds a block), on a board list and on a
-- board string (byte(str, 0) is nil: off the board).
local BIT = {1, 2, 4, 8, 16, 32, 64, 128}
local function ring(G, b, i)
  local m, around, mask = G.m, G.around, 0
  local base = (i - 1) * m
  for k = 1, m do
    local v = b[around[base + k]]
    if v and v ~= 0 then mask = mask + BIT[k] end
  end
  return mask
end

local function ring_of(G, str, i)
  local m, around, mask = G.m, G.around, 0
  local base = (i - 1) * m
  for k = 1, m do
    local v = byte(str, around[base + k])
    if v and v ~= EMPTY then mask = mask + BIT[k] end
  end
  return mask
end

-- Whether the `count` blocks on b form one orthogonally (hex: hex-) connected group.
local function connected(G, b, count)
  if count == 0 then return true end
  local first = 1
  while b[first] == 0 do first = first + 1 end
  local seen, queue, head, adj = {[first] = true}, {first}, 1, G.g.adj
  while head <= #queue do
    local list = adj[queue[head]]
    head = head + 1
    for k = 1, #list do
      local j = list[k]
      if not seen[j] and b[j] ~= 0 then seen[j] = true; queue[#queue + 1] = j end
    end
  end
  return #queue == count
end

-- rules.md B6: fill the cells in grid order, each with a colour that still has blocks left and
-- differs from its neighbours filled so far, drawn with weight (blocks left)^2 so that no colour
-- piles up at the end.  At a dead end, go back a cell and draw another colour not yet tried
-- there.  The rare search that wanders (about 1 hexagonal board in 300 with plain weights)
-- starts afresh.  tried[(i-1)*C + c]: colour c was tried at cell i since it was last reached.
local TRIED, WEIGHT = {}, {}
local function generate(G, rng)
  local C, n, before, tried, weight = G.C, G.n, G.before, TRIED, WEIGHT
  local board, left = {}, {}
  local i, budget, fresh = 1, 0, true
  while i <= n do
    if budget <= 0 then
      for c = 1, C do left[c] = C end
      for k = 1, n do board[k] = 0 end
      i, budget, fresh = 1, 20 * n, true
    end
    budget = budget - 1
    local base, old = (i - 1) * C, board[i]
    if old ~= 0 then left[old] = left[old] + 1; board[i] = 0 end
    local total = 0
    for c = 1, C do
      if fresh then tried[base + c] = false end
      weight[c] = (tried[base + c] or left[c] == 0) and 0 or left[c] * left[c]
    end
    local nb = before[i]
    for k = 1, #nb do weight[board[nb[k]]] = 0 end
    for c = 1, C do total = total + weight[c] end
    if total == 0 then
      i, fresh = i - 1, false
    else
      local r, c = rng:int(total), 1
      while r > weight[c] do r = r - weight[c]; c = c + 1 end
      tried[base + c], board[i], left[c] = true, c, left[c] - 1
      i, fresh = i + 1, true
    end
  end
  return board
end

-- A layout: rows from the top rank down, each from file a rightwards, "/" between rows.
-- The row count names the board.  Returns the board and its geometry key, or nil and why.
local function read_layout(text)
  local rows = nomv.split(text:lower(), "/")
  local key = ({[9] = "square9", [13] = "square13", [15] = "hex"})[#rows]
  if not key then
    return nil, ("the layout has %d rows; it needs 9 (9x9 board), 13 (13x13) or 15 (hexagonal board)"):format(#rows)
  end
  local G, board = geometry(key), {}
  for t, row in ipairs(rows) do
    local cells = G.rows[G.ranks - t + 1]
    if #row ~= #cells then
      return nil, ("layout row %d has %d cells, it needs %d"):format(t, #row, #cells)
    end
    for k, i in ipairs(cells) do
      local ch = row:sub(k, k)
      local c = ch == "." and 0 or CODES:find(ch, 1, true)
      if not c or c > G.C then
        return nil, ("layout row %d: %q is not a colour (use 1-%s, or . for empty)"):format(t, ch, CODES:sub(G.C, G.C))
      end
      board[i] = c
    end
  end
  return board, key
end

-- What is wrong with a layout's board, or nil.  Counts and equal neighbours are checked only
-- on a full board (rules.md 6); any board must hold blocks, all in one group.
local function layout_problem(G, board)
  local count, blocks = {}, 0
  for c = 1, G.C do count[c] = 0 end
  for i = 1, G.n do
    if board[i] ~= 0 then blocks = blocks + 1; count[board[i]] = count[board[i]] + 1 end
  end
  if blocks == G.n then
    for c = 1, G.C do
      if count[c] ~= G.C then
        return ("colour %s has %d blocks on the full board; each colour needs %d"):format(CODES:sub(c, c), count[c], G.C)
      end
    end
    for _, i in ipairs(G.order) do
      for _, j in ipairs(G.g.adj[i]) do
        if board[i] == board[j] then
          return ("%s and %s are both colour %s: no two blocks of one colour may touch"):format(G.g.ids[i], G.g.ids[j], CODES:sub(board[i], board[i]))
        end
      end
    end
  elseif blocks == 0 then
    return "the layout has no blocks"
  elseif not connected(G, board, blocks) then
    return "the blocks of the layout must form one connected group"
  end
end

-- "Plain" boards (no equal neighbours, no walled-in empty cell) allow the fast random_move.
local function is_plain(G, board)
  local queue = {}
  for i = 1, G.n do
    for _, j in ipairs(G.g.adj[i]) do if board[i] ~= 0 and board[i] == board[j] then return false end end
    if board[i] == 0 and #G.g.adj[i] < G.nd then queue[#queue + 1] = i end
  end
  local seen = {}
  for _, i in ipairs(queue) do seen[i] = true end
  local head = 1
  while head <= #queue do
    for _, j in ipairs(G.g.adj[queue[head]]) do
      if board[j] == 0 and not seen[j] then seen[j] = true; queue[#queue + 1] = j end
    end
    head = head + 1
  end
  for i = 1, G.n do if board[i] == 0 and not seen[i] then return false end end
  return true
end

-- random_move's scratch: the blocks free to take, and MARK[i] == stamp for blocks taken so far.
local FREE, MARK, stamp = {}, {}, 0

local function take(G, cells)
  local m = {any_order = true}
  for k, i in ipairs(cells) do m[k] = G.g.ids[i] end
  return m
end

-- rules.md B4: a set of blocks of one colour is a turn when each meets the corner rule at the
-- start of the turn and the blocks left are connected (or none remain).  Every subset of each
-- colour's corner blocks is tried, in notation order, so each turn is listed once.
local function all_moves(s)
  local G, b, out = geometry(s.geo), decode(s.board), {}
  local cand = {}
  for c = 1, G.C do cand[c] = {} end
  for _, i in ipairs(G.order) do
    if b[i] ~= 0 and G.corner[ring(G, b, i)] then cand[b[i]][#cand[b[i]] + 1] = i end
  end
  for c = 1, G.C do
    local list, chosen = cand[c], {}
    local function visit(k)
      if k > #list then
        if #chosen > 0 and connected(G, b, s.left - #chosen) then out[#out + 1] = take(G, chosen) end
        return
      end
      visit(k + 1)
      b[list[k]] = 0; chosen[#chosen + 1] = list[k]
      visit(k + 1)
      b[list[k]] = c; chosen[#chosen] = nil
    end
    visit(1)
  end
  return out
end

local function counts(s)                      -- held as {{player 1's counts}, {player 2's}}
  local C, out = #s.held / 2, {{}, {}}
  for p = 1, 2 do
    for c = 1, C do out[p][c] = VALUE[byte(s.held, (p - 1) * C + c)] end
  end
  return out
end

local function status(s)
  if s.winner then return ("Player %d wins: %s"):format(s.winner, s.reason) end
  if s.left == 0 then return "Game over" end
  return ("Player %d to move"):format(s.to_move)
end

return {
  name = "nibble",
  title = "Nibble",
  info = {
    author = "Jared McComb",
    source = "BGA and nestorgames editions; settled rules in shared/rules.md section 5",
    rules = "Take one or more blocks of one colour. A block may be taken when two of its sides "
         .. "meeting at a corner are exposed (hexagonal board: three sides in a row), and the "
         .. "blocks left must stay in one group. Win at once by holding every block of a colour, "
         .. "or 7 (13 colours: 10) of each of three neighbouring colours on the colour line. "
         .. "Otherwise, when the board is empty, whoever holds 5 (7) or more blocks in 5 (7) or "
         .. "more colours wins.",
  },
  players = {min = 2, max = 2, names = {"Player 1", "Player 2"}, colours = {"#202020", "#f4f4f4"}},
  options = {
    colours = {default = 9, choices = {9, 13}, order = 1, help = "number of colours (and blocks of each)"},
    board = {default = "square", choices = {"square", "hex"}, order = 2,
             help = "square (9x9 or 13x13) or hexagonal (side 8, 13 colours)"},
    layout = {default = "", order = 3,
              help = "the board instead of a random one: rows from the top rank down, colours 1-9 a-d, . empty"},
  },
  variants = {["13 colours"] = {colours = 13}, hexagonal = {colours = 13, board = "hex"}},

  check = function(opts, given)
    if opts.layout ~= "" then
      local board, key = read_layout(opts.layout)
      if not board then return key end
      local G = geometry(key)
      local shape = key == "hex" and "hex" or "square"
      if given.board and given.board ~= shape then
        return ("board %s disagrees with the layout, which is a %s board"):format(given.board, shape)
      end
      if given.colours and given.colours ~= G.C then
        return ("colours %d disagrees with the layout, which is for %d colours"):format(given.colours, G.C)
      end
      return layout_problem(G, board)
    end
    if opts.board == "hex" and opts.colours ~= 13 then
      return "the hexagonal board holds 13 colours (169 cells): set colours=13, or use the hexagonal variant"
    end
  end,

  setup = function(opts, rng)
    local board, key
    if opts.layout ~= "" then
      board, key = read_layout(opts.layout)
    else
      key = geo_key(opts.board, opts.colours)
      board = generate(geometry(key), rng)
    end
    local G, left = geometry(key), 0
    for i = 1, G.n do if board[i] ~= 0 then left = left + 1 end end
    return {geo = key, board = encode(board), left = left, held = string.rep("0", 2 * G.C),
            to_move = 1, plain = opts.layout == "" or is_plain(G, board)}
  end,

  moves = all_moves,

  -- Fast path for plain boards: pick one block that may be taken alone, then add each other such
  -- block of its colour with chance 1/2 when it may still be taken.  On a plain board a subset
  -- of a turn is a turn, so every turn has a positive chance (not a uniform one).
  random_move = function(s, rng)
    if not s.plain then
      local all = all_moves(s)
      return all[rng:int(#all)]
    end
    local G, b, free, nfree = geometry(s.geo), s.board, FREE, 0
    local corner, alone, north, south = G.corner, G.alone, G.north, G.south
    for _, i in ipairs(G.order) do
      if byte(b, i) ~= EMPTY then
        local x, y = byte(b, north[i]), byte(b, south[i])
        if not x or x == EMPTY or not y or y == EMPTY then
          local mask = ring_of(G, b, i)
          if corner[mask] and alone[mask] then nfree = nfree + 1; free[nfree] = i end
        end
      end
    end
    local first = free[rng:int(nfree)]
    local c, m = byte(b, first), nil
    stamp = stamp + 1
    MARK[first] = stamp
    for k = 1, nfree do
      local i = free[k]
      if i ~= first and byte(b, i) == c and rng:int(2) == 1 then
        -- Blocks taken this turn are empty now: only diagonal neighbours can share i's colour.
        local mask, base = ring_of(G, b, i), (i - 1) * G.m
        for t = 1, G.m do
          if MARK[G.around[base + t]] == stamp then mask = mask - BIT[t] end
        end
        if alone[mask] then
          MARK[i] = stamp
          m = m or {G.g.ids[first], any_order = true}
          m[#m + 1] = G.g.ids[i]
        end
      end
    end
    return m or G.single[first]
  end,

  play = function(s, m)
    local G = geometry(s.geo)
    local index, board, p, C = G.g.index, s.board, s.to_move, G.C
    local c = VALUE[byte(board, index[m[1]])]
    for k = 1, #m do
      local i = index[m[k]]
      board = board:sub(1, i - 1) .. "." .. board:sub(i + 1)
    end
    local at = (p - 1) * C + c
    local have = VALUE[byte(s.held, at)] + #m
    local held = s.held:sub(1, at - 1) .. DIGITS:sub(have + 1, have + 1) .. s.held:sub(at + 1)
    local new = {geo = s.geo, board = board, left = s.left - #m, held = held, to_move = 3 - p, plain = s.plain}
    -- Instant wins (B5): only the mover's count of colour c changed, so only it is looked at.
    if have >= C then
      new.winner, new.reason = p, ("all %d blocks of colour %s"):format(C, CODES:sub(c, c))
    end
    local base = (p - 1) * C
    for a = math.max(1, c - 2), math.min(c, C - 2) do
      if not new.winner and VALUE[byte(held, base + a)] >= G.three and VALUE[byte(held, base + a + 1)] >= G.three
         and VALUE[byte(held, base + a + 2)] >= G.three then
        new.winner = p
        new.reason = ("%d or more blocks of each of colours %s, %s, %s"):format(G.three,
          CODES:sub(a, a), CODES:sub(a + 1, a + 1), CODES:sub(a + 2, a + 2))
      end
    end
    return new
  end,

  result = function(s)
    if s.winner then return {winner = s.winner, reason = s.reason} end
    if s.left > 0 then return nil end
    local G, won = geometry(s.geo), {0, 0}
    for p = 1, 2 do
      for c = 1, G.C do
        if VALUE[byte(s.held, (p - 1) * G.C + c)] >= G.major then won[p] = won[p] + 1 end
      end
    end
    local reason = ("majority of majorities, %d colours to %d"):format(won[1], won[2])
    if (won[1] >= G.major) ~= (won[2] >= G.major) then
      return {winner = won[1] >= G.major and 1 or 2, reason = reason}
    end
    -- Only a partial layout can get here (rules.md 5.1: a full board always has one winner).
    return {draw = true, reason = reason}
  end,

  notation = function(s, m)
    local G, steps = geometry(s.geo), {}
    for k = 1, #m do steps[k] = m[k] end
    table.sort(steps, function(a, b) return G.pos[G.g.index[a]] < G.pos[G.g.index[b]] end)
    return table.concat(steps, ",")
  end,

  -- The board coloured by block, each block with its colour's number (for colour-blind
  -- players), and to the right the colour line: Player 1's count, the colour, Player 2's count.
  scene = function(s)
    local G = geometry(s.geo)
    local g, b, held = G.g, decode(s.board), counts(s)
    local items = g:scene({fill = function(i) return b[i] == 0 and "#f3eddf" or FILL[b[i]] end,
                           stroke = "#5a4a30"})
    local x1, y0, y1 = -math.huge, math.huge, -math.huge
    for i = 1, g.n do
      local p = g.poly[i]
      for k = 1, #p, 2 do
        x1, y0, y1 = math.max(x1, p[k]), math.min(y0, p[k + 1]), math.max(y1, p[k + 1])
      end
      if b[i] ~= 0 then
        items[#items + 1] = {shape = "text", x = g.x[i] + 0.55 * g.radius, y = g.y[i] + 0.55 * g.radius,
                             text = tostring(b[i]), size = 0.32 * g.radius * 2, fill = INK[b[i]], layer = 2}
      end
    end
    local step = (y1 - y0) / G.C
    local xs = {x1 + 1.2 * step, x1 + 2.4 * step, x1 + 3.6 * step}
    for p = 1, 2 do
      items[#items + 1] = {shape = "text", x = xs[2 * p - 1], y = y0 - 0.5 * step, text = "P" .. p,
                           size = 0.5 * step, fill = "#303030", bold = p == s.to_move and s.left > 0 and not s.winner}
    end
    for c = 1, G.C do
      local y = y0 + (c - 0.5) * step
      items[#items + 1] = {shape = "rect", x = xs[2], y = y, w = 0.8 * step, h = 0.8 * step, fill = FILL[c],
                           stroke = "#303030", label = tostring(c), label_colour = INK[c]}
      for p = 1, 2 do
        local n = held[p][c]
        items[#items + 1] = {shape = "text", x = xs[2 * p - 1], y = y, text = tostring(n), size = 0.5 * step,
                             fill = "#303030", bold = n >= G.major}
      end
    end
    items.status = status(s)
    return items
  end,

  -- Rows from the top rank down, like the layout option (hex: each row starts with its rank and
  -- first file, shifted so that the hexagon shows), then the colour line.
  text = function(s)
    local G, lines, b, held = geometry(s.geo), {}, decode(s.board), counts(s)
    for rank = G.ranks, 1, -1 do
      local row, cells = {}, G.rows[rank]
      for k, i in ipairs(cells) do
        local c = b[i]
        row[k] = c == 0 and "." or CODES:sub(c, c)
      end
      if s.geo == "hex" then
        local indent = 2 * (G.file[cells[1]] - 8) + rank - 8 + 14
        lines[#lines + 1] = ("%2d %s  "):format(rank, G.g.ids[cells[1]]:sub(1, 1)) .. string.rep(" ", indent) .. table.concat(row, " ")
      else
        lines[#lines + 1] = ("%2d  "):format(rank) .. table.concat(row, " ")
      end
    end
    if s.geo ~= "hex" then lines[#lines + 1] = "    " .. ("abcdefghijklm"):sub(1, G.C):gsub(".", "%0 ") end
    lines[#lines + 1] = ""
    local head = {}
    for c = 1, G.C do head[c] = ("%3s"):format(CODES:sub(c, c)) end
    lines[#lines + 1] = "colour  " .. table.concat(head)
    for p = 1, 2 do
      local row = {}
      for c = 1, G.C do row[c] = ("%3d"):format(held[p][c]) end
      local mark = (s.left > 0 and not s.winner and p == s.to_move) and "   <- to move" or ""
      lines[#lines + 1] = ("Player %d" ):format(p) .. table.concat(row) .. mark
    end
    if s.winner then lines[#lines + 1] = status(s) end
    return table.concat(lines, "\n")
  end,
}
