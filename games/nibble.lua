-- Nibble (Jared McComb; BGA and nestorgames editions).
--
-- A board full of coloured blocks, no two of one colour side by side.  On your turn take one or
-- more blocks of one colour, each with two exposed sides meeting at a corner (three exposed
-- sides in a row on the hexagonal board), without splitting the blocks left.  Holding every
-- block of a colour, or 7 of each of three neighbouring colours on the colour line, wins at
-- once; otherwise the majority of majorities wins when the board is empty.
-- The rules in full: docs/games/nibble.md.

-- The colour line, in order: colour c is FILL[c], written CODES:sub(c, c) in layouts and text.
local FILL = {"#e6194b", "#f58231", "#ffe119", "#bfef45", "#3cb44b", "#42d4f4", "#4363d8",
              "#911eb4", "#f032e6", "#800000", "#9a6324", "#000075", "#a9a9a9"}
local INK = {"#ffffff", "#000000", "#000000", "#000000", "#000000", "#000000", "#ffffff",
             "#ffffff", "#ffffff", "#ffffff", "#ffffff", "#ffffff", "#000000"}
local CODES = "123456789abcd"

-- Everything the rules ask about one block depends only on which cells around it hold blocks:
-- its ring of 8 (square: sides and diagonals) or 6 (hex) cells in cyclic order, read as a bit
-- mask.  So both tests are worked out once per mask, when the geometry is built.
--
-- corner[mask]: `need` consecutive sides are exposed (empty or off the board), cyclically.
-- alone[mask]: taking the block alone keeps the rest connected, because its neighbours lie in
-- one arc of occupied ring cells.  That is exact on a board without holes (empty cells walled
-- in), which play never creates (a block taken has an exposed side, so its cell joins the open
-- space around it): two arcs joined by a path round the far side would wall in one of the empty
-- gaps between them.
local function tabulate(G, is_side)
  G.corner, G.alone = {}, {}
  for mask = 0, 2 ^ G.m - 1 do
    local occ, exposed = {}, {}
    for k = 1, G.m do
      occ[k] = math.floor(mask / 2 ^ (k - 1)) % 2 == 1
      if is_side[k] then exposed[#exposed + 1] = not occ[k] end
    end
    local corner = false
    for d = 1, #exposed do
      local run = 0
      while run < G.need and exposed[(d + run - 1) % #exposed + 1] do run = run + 1 end
      corner = corner or run == G.need
    end
    local arcs, inside, side = 0, false, false   -- arcs touching a side (a diagonal alone is no link)
    for t = 1, 2 * G.m do                        -- twice round: count each arc where it ends in lap 2
      local k = (t - 1) % G.m + 1
      if occ[k] then
        if not inside then inside, side = true, false end
        side = side or is_side[k]
      elseif inside then
        inside = false
        if side and t > G.m then arcs = arcs + 1 end
      end
    end
    G.corner[mask], G.alone[mask] = corner, arcs <= 1
  end
end

-- One geometry per board ("square9", "square13", "hex"), built once and shared by every state.
local GEOS = {}
local function build(key)
  local G, g = {file = {}, rank = {}, rows = {}, pos = {}, before = {}, around = {}, near = {}, single = {}}, nil
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
  G.g, G.n, G.m, G.nd = g, g.n, #g.dirs, key == "hex" and 6 or 4   -- ring cells, sides
  G.three, G.major = G.C == 9 and 7 or 10, math.floor((G.C + 1) / 2)
  local is_side = {}                                  -- square n ne e .. nw; hex n ne se s sw nw
  for d = 1, G.m do is_side[d] = key == "hex" or d % 2 == 1 end
  tabulate(G, is_side)
  for i = 1, g.n do
    G.near[i] = {}                                    -- ring cells on the board
    for d = 1, G.m do
      G.around[(i - 1) * G.m + d] = g.step[d][i] or g.n + 1   -- ring cell d (n+1: off board)
      if g.step[d][i] then G.near[i][#G.near[i] + 1] = g.step[d][i] end
    end
    G.single[i] = {g.ids[i], any_order = true}        -- the one-block moves, made once
    G.before[i] = {}                                  -- neighbours filled before i (generate)
    for _, j in ipairs(g.adj[i]) do if j < i then G.before[i][#G.before[i] + 1] = j end end
  end
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
  GEOS[key] = G
  return G
end

-- (Kept apart from build: a return next to its closures would stop LuaJIT compiling callers.)
local function geometry(key) return GEOS[key] or build(key) end

-- The state keeps the board as a string, one character per cell in grid order: the colour's
-- code as in layouts, or "." for empty.  A playout makes a new state every turn, and a new
-- string costs far less than a new table of 81 or 169 cells.  One more "." at the end stands
-- for every cell off the board.  colour(board, i) reads cell i (0 for empty).  Setting up and
-- listing every move work on a plain list of colours instead.
local byte, EMPTY = string.byte, 46
local COLOUR = {[EMPTY] = 0}
for c = 1, #CODES do COLOUR[CODES:byte(c)] = c end
local function colour(board, i) return COLOUR[byte(board, i)] end

local function encode(list)
  local chars = {}
  for i = 1, #list do chars[i] = list[i] == 0 and "." or CODES:sub(list[i], list[i]) end
  return table.concat(chars) .. "."
end

local function decode(board)
  local list = {}
  for i = 1, #board - 1 do list[i] = colour(board, i) end
  return list
end

-- The ring mask of block i on a board string: bit k-1 is set when ring cell k holds a block.
-- (No `if` in the loop: LuaJIT compiles a short loop of branches into many side traces.)
local BIT = {1, 2, 4, 8, 16, 32, 64, 128}
local HOLDS = {}
for b = 0, 255 do HOLDS[b] = 1 end
HOLDS[EMPTY] = 0
local function ring(G, board, i)
  local around, m, mask = G.around, G.m, 0
  local base = (i - 1) * m
  for k = 1, m do mask = mask + HOLDS[byte(board, around[base + k])] * BIT[k] end
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

-- A random board (docs/games/nibble.md, Board): fill the cells in grid order, each with a
-- colour that still has blocks left and differs from its neighbours filled so far, drawn with
-- weight (blocks left)^2 so that no colour piles up at the end.  At a dead end, go back a cell
-- and draw another colour not yet tried there.  The rare search that wanders (about 1 hexagonal
-- board in 300 with plain weights) starts afresh.  tried[(i-1)*C + c]: colour c was tried at
-- cell i since it was last reached.
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
-- on a full board (docs/games/nibble.md, Layout); any board must hold blocks, all in one group.
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

-- A "plain" board has no equal neighbours and no walled-in empty cell.  Play keeps it plain,
-- and on it the ring mask alone decides which blocks may be taken by themselves.
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

-- The state of a plain board keeps `free`, the blocks that may be taken alone, so that a random
-- move needs no scan of the board.  A block's status depends only on its ring, so after a turn
-- only the ring cells of the blocks taken can change: they are looked at again, and the rest of
-- the list is kept.  MARK[i] == stamp marks cells in the current pass (here and in random_move).
local MARK, stamp = {}, 0

local function is_free(G, board, i)
  local mask = ring(G, board, i)
  return G.corner[mask] and G.alone[mask]
end

local function free_blocks(G, board)
  local free = {}
  for i = 1, G.n do if byte(board, i) ~= EMPTY and is_free(G, board, i) then free[#free + 1] = i end end
  return free
end

local function refresh(G, old, board, m)
  -- The list is made with room for 16 blocks (rarely exceeded) in one allocation, instead of
  -- growing 1, 2, 4, 8, 16; the slots left over are cleared at the end.
  local index, near, n = G.g.index, G.near, 0
  local free = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}
  stamp = stamp + 1
  for k = 1, #m do
    local cells = near[index[m[k]]]
    for t = 1, #cells do MARK[cells[t]] = stamp end
  end
  for k = 1, #old do
    local i = old[k]
    if MARK[i] ~= stamp and byte(board, i) ~= EMPTY then n = n + 1; free[n] = i end
  end
  for k = 1, #m do
    local cells = near[index[m[k]]]
    for t = 1, #cells do
      local j = cells[t]
      if MARK[j] == stamp then                        -- each ring cell once
        MARK[j] = 0
        if byte(board, j) ~= EMPTY and is_free(G, board, j) then n = n + 1; free[n] = j end
      end
    end
  end
  for k = n + 1, 16 do free[k] = nil end
  return free
end

-- A turn (docs/games/nibble.md): a set of blocks of one colour is a turn when each meets the
-- corner rule at the start of the turn and the blocks left are connected (or none remain).
-- Every subset of each colour's corner blocks is tried, in notation order, so each turn is
-- listed once.
local function all_moves(s)
  local G, b, out, cand = geometry(s.geo), decode(s.board), {}, {}
  for c = 1, G.C do cand[c] = {} end
  for _, i in ipairs(G.order) do
    if b[i] ~= 0 and G.corner[ring(G, s.board, i)] then cand[b[i]][#cand[b[i]] + 1] = i end
  end
  for c = 1, G.C do
    local list, chosen = cand[c], {}
    local function visit(k)
      if k > #list then
        if #chosen > 0 and connected(G, b, s.left - #chosen) then
          local m = {any_order = true}
          for t, i in ipairs(chosen) do m[t] = G.g.ids[i] end
          out[#out + 1] = m
        end
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
    source = "BGA and nestorgames editions; rules in docs/games/nibble.md",
    rules = {en = "Take one or more blocks of one colour. A block may be taken when two of its sides "
                  .. "meeting at a corner are exposed (hexagonal board: three sides in a row), and the "
                  .. "blocks left must stay in one group. Win at once by holding every block of a "
                  .. "colour, or 7 (13 colours: 10) of each of three neighbouring colours on the colour "
                  .. "line. Otherwise, when the board is empty, whoever holds 5 (7) or more blocks in 5 "
                  .. "(7) or more colours wins.",
             it = "Prendi uno o più blocchi di un colore. Un blocco si può prendere quando due suoi "
                  .. "lati che si incontrano in un angolo sono scoperti (scacchiera esagonale: tre lati "
                  .. "di fila), e i blocchi rimasti devono restare in un solo gruppo. Vinci subito se "
                  .. "hai tutti i blocchi di un colore, o 7 (13 colori: 10) di ciascuno di tre colori "
                  .. "vicini sulla linea dei colori. Altrimenti, quando la scacchiera è vuota, vince chi "
                  .. "ha 5 (7) o più blocchi in 5 (7) o più colori."},
  },
  players = {min = 2, max = 2, names = {{en = "Player 1", it = "Giocatore 1"}, {en = "Player 2", it = "Giocatore 2"}},
             colours = {"#202020", "#f4f4f4"}},
  options = {
    colours = {default = 9, choices = {9, 13}, order = 1, label = {en = "colours", it = "colori"},
               help = {en = "number of colours (and blocks of each)", it = "numero di colori (e di blocchi per colore)"}},
    board = {default = "square", choices = {"square", "hex"}, order = 2, label = {en = "board", it = "scacchiera"},
             help = {en = "square (9x9 or 13x13) or hexagonal (side 8, 13 colours)",
                     it = "quadrata (9x9 o 13x13) o esagonale (lato 8, 13 colori)"}},
    layout = {default = "", order = 3, label = {en = "layout", it = "disposizione"},
              help = {en = "the board instead of a random one: rows from the top rank down, colours 1-9 a-d, . empty",
                      it = "la scacchiera invece di una a caso: righe dall'alto in basso, colori 1-9 a-d, . vuota"}},
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

  -- board: the string above; held[p][c]: how many blocks of colour c player p holds.
  setup = function(opts, rng)
    local board, key
    if opts.layout ~= "" then
      board, key = read_layout(opts.layout)
    else
      key = opts.board == "hex" and "hex" or opts.colours == 9 and "square9" or "square13"
      board = generate(geometry(key), rng)
    end
    local G, left, held = geometry(key), 0, {{}, {}}
    for i = 1, G.n do if board[i] ~= 0 then left = left + 1 end end
    for c = 1, G.C do held[1][c], held[2][c] = 0, 0 end
    local plain = opts.layout == "" or is_plain(G, board)
    board = encode(board)
    return {geo = key, board = board, left = left, held = held, to_move = 1, plain = plain,
            free = plain and free_blocks(G, board) or nil}
  end,

  moves = all_moves,

  play = function(s, m)
    local G = geometry(s.geo)
    local index, p, C, n = G.g.index, s.to_move, G.C, #m
    local board, c = s.board, colour(s.board, index[m[1]])
    for k = 1, n do
      local i = index[m[k]]
      board = board:sub(1, i - 1) .. "." .. board:sub(i + 1)
    end
    -- The mover's counts are copied by one constructor (a single allocation, unlike a loop
    -- or unpack); with 9 colours the last four slots stay empty.
    local h = s.held[p]
    local mine = {h[1], h[2], h[3], h[4], h[5], h[6], h[7], h[8], h[9], h[10], h[11], h[12], h[13]}
    local held = {s.held[1], s.held[2]}
    held[p], mine[c] = mine, mine[c] + n
    local new = {geo = s.geo, board = board, left = s.left - n, held = held, to_move = 3 - p,
                 plain = s.plain, free = s.free and refresh(G, s.free, board, m)}
    -- Instant wins: only the mover's count of colour c changed, so only it is looked at.
    if mine[c] >= C then
      new.winner, new.reason = p, ("all %d blocks of colour %s"):format(C, CODES:sub(c, c))
      new.reason_it = ("tutti i %d blocchi del colore %s"):format(C, CODES:sub(c, c))
    end
    for a = math.max(1, c - 2), math.min(c, C - 2) do
      if not new.winner and mine[a] >= G.three and mine[a + 1] >= G.three and mine[a + 2] >= G.three then
        new.winner = p
        new.reason = ("%d or more blocks of each of colours %s, %s, %s"):format(G.three,
          CODES:sub(a, a), CODES:sub(a + 1, a + 1), CODES:sub(a + 2, a + 2))
        new.reason_it = ("%d o più blocchi di ciascuno dei colori %s, %s, %s"):format(G.three,
          CODES:sub(a, a), CODES:sub(a + 1, a + 1), CODES:sub(a + 2, a + 2))
      end
    end
    return new
  end,

  result = function(s)
    if s.winner then return {winner = s.winner, reason = {en = s.reason, it = s.reason_it}} end
    if s.left > 0 then return nil end
    local G, won = geometry(s.geo), {0, 0}
    for p = 1, 2 do
      for c = 1, G.C do
        if s.held[p][c] >= G.major then won[p] = won[p] + 1 end
      end
    end
    local reason = {en = ("majority of majorities, %d colours to %d"):format(won[1], won[2]),
                    it = ("maggioranza delle maggioranze, %d colori a %d"):format(won[1], won[2])}
    if (won[1] >= G.major) ~= (won[2] >= G.major) then
      return {winner = won[1] >= G.major and 1 or 2, reason = reason}
    end
    -- Only a partial layout can get here: every colour has an odd number of blocks, so on a full
    -- board one player holds the majority of each colour, and of the colours.
    return {draw = true, reason = reason}
  end,

  -- The board coloured by block, each block with its colour's number (for colour-blind
  -- players), and to the right the colour line: Player 1's count, the colour, Player 2's count.
  scene = function(s)
    local G, b = geometry(s.geo), decode(s.board)
    local g = G.g
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
        local n = s.held[p][c]
        items[#items + 1] = {shape = "text", x = xs[2 * p - 1], y = y, text = tostring(n), size = 0.5 * step,
                             fill = "#303030", bold = n >= G.major}
      end
    end
    return items
  end,

  notation = function(s, m)
    local G, steps = geometry(s.geo), {}
    for k = 1, #m do steps[k] = m[k] end
    table.sort(steps, function(a, b) return G.pos[G.g.index[a]] < G.pos[G.g.index[b]] end)
    return table.concat(steps, ",")
  end,

  -- Rows from the top rank down, like the layout option (hex: each row starts with its rank and
  -- first file, shifted so that the hexagon shows), then the colour line.
  text = function(s)
    local G, lines = geometry(s.geo), {}
    for rank = G.ranks, 1, -1 do
      local row, cells = {}, G.rows[rank]
      for k, i in ipairs(cells) do
        local c = colour(s.board, i)
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
      for c = 1, G.C do row[c] = ("%3d"):format(s.held[p][c]) end
      local mark = (s.left > 0 and not s.winner and p == s.to_move) and "   <- to move" or ""
      lines[#lines + 1] = ("Player %d" ):format(p) .. table.concat(row) .. mark
    end
    if s.winner then lines[#lines + 1] = status(s) end
    return table.concat(lines, "\n")
  end,

  -- Fast path for plain boards: pick one free block, then add each other free block of its
  -- colour with chance 1/2 when it may still be taken.  On a plain board every block of a turn
  -- is free and a subset of a turn is a turn, so every turn has a positive chance (not a
  -- uniform one).  Blocks taken this turn (MARK) are empty now: only diagonal neighbours can
  -- share a block's colour, so only connectivity (alone) can change, never the corner rule.
  random_move = function(s, rng)
    if not s.plain then
      local all = all_moves(s)
      return all[rng:int(#all)]
    end
    local G, board, free = geometry(s.geo), s.board, s.free
    local around, alone, size = G.around, G.alone, G.m
    local first = free[rng:int(#free)]
    local c, m = byte(board, first), nil
    stamp = stamp + 1
    MARK[first] = stamp
    for k = 1, #free do
      local i = free[k]
      if byte(board, i) == c and i ~= first and rng:int(2) == 1 then
        local mask, base = ring(G, board, i), (i - 1) * size
        for t = 1, size do
          if MARK[around[base + t]] == stamp then mask = mask - BIT[t] end
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
}
