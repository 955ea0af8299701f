-- Nipple (nickobento, rec.games.abstract, 21 April 2009).
--
-- A hexhex board, black and white stones and one red neutral stone, the Nipple, which starts on
-- the centre.  A turn: first move the Nipple to an empty cell where the largest black group and
-- the largest white group next to it differ in size (skip this when no cell allows it), then
-- place a stone of your colour.  When the board is full, the player whose largest group touching
-- the Nipple (a "member") is bigger wins.
-- Settled rules: shared/rules.md section 2 (ambiguities N1-N8) and section 6.

local EMPTY, BLACK, WHITE, NIPPLE = 0, 1, 2, 3
local NAME = {"Black", "White"}
local FILL = {"#202020", "#f4f4f4"}
local SYMBOL = {[0] = ".", "X", "O", "N"}

-- Grids are fixed per size, so they are built once and shared by every state.
local grids = {}
local function grid_of(s)
  local g = grids[s]
  if not g then
    g = nomv.grid.hexhex(s)
    grids[s] = g
  end
  return g
end

-- The group of the stone on cell c: its cells and size, then the cells without a stone next to
-- it (with repeats) and their number.  The lists are scratch (valid until the next call); marks
-- carry a stamp so that nothing needs clearing, and every array is filled up to the largest
-- board (side 8: 169 cells) at once, so that none grows a hash part in a playout.
local cells, mark, libs, stamp = {}, {}, {}, 0
for i = 1, 169 do cells[i], mark[i] = 0, 0 end
for i = 1, 6 * 169 do libs[i] = 0 end
-- One flat loop walks (cell, neighbour) pairs: LuaJIT gives up compiling a short inner loop
-- nested in the flood's outer loop, which made the nested version several times slower.
local function group_of(g, board, c)
  stamp = stamp + 1
  local v, adj, count, head, nl = board[c], g.adj, 1, 1, 0
  cells[1], mark[c] = c, stamp
  local a, k = adj[c], 0
  while true do
    k = k + 1
    local j = a[k]
    if j == nil then
      head = head + 1
      if head > count then break end
      a, k = adj[cells[head]], 0
    else
      local x = board[j]
      if x == v then
        if mark[j] ~= stamp then mark[j], count = stamp, count + 1; cells[count] = j end
      elseif x == EMPTY or x == NIPPLE then
        nl = nl + 1
        libs[nl] = j
      end
    end
  end
  return cells, count, libs, nl
end

-- The legal Nipple destinations in cell order and their number, then the empty cells and
-- theirs; both lists are scratch (valid until the next call).  s.near[v][i] is the largest
-- group of colour v next to cell i (0 when none), kept up to date by play for every cell
-- without a stone.  Stones do not move with the Nipple, so these are the groups of the
-- position before the move (N4).  Equal sizes forbid a cell, a missing colour counting 0 (N2),
-- unless rule both_present asks for both colours to touch.  The Nipple's own cell is not
-- empty, so it cannot stay (N3).
local dests, empties = {}, {}
for i = 1, 169 do dests[i], empties[i] = 0, 0 end
local function destinations(s, g)
  local board, black, white, both = s.board, s.near[1], s.near[2], s.rule == "both_present"
  local count, ne = 0, 0
  for i = 1, g.n do
    if board[i] == EMPTY then
      ne = ne + 1
      empties[ne] = i
      local b, w = black[i], white[i]
      if b ~= w or (both and b == 0) then count = count + 1; dests[count] = i end
    end
  end
  return dests, count, empties, ne
end

-- Whether the stone may go on cell c once the Nipple stands on d: the cell it left is empty.
local function free_for_stone(s, d, c)
  return c ~= d and (s.board[c] == EMPTY or c == s.nipple)
end

local function desc(a, b) return a > b end

-- The members around the Nipple: the sizes of each colour's groups touching it, largest first,
-- and the set of their stones (for the scene).
local function members(s, g)
  local board, lists, member = s.board, {{}, {}}, {}
  for _, j in ipairs(g.adj[s.nipple]) do
    local v = board[j]
    if (v == BLACK or v == WHITE) and not member[j] then
      local group, count = group_of(g, board, j)
      for k = 1, count do member[group[k]] = true end
      local l = lists[v]
      l[#l + 1] = count
    end
  end
  table.sort(lists[1], desc)
  table.sort(lists[2], desc)
  return lists[1], lists[2], member
end

-- candidate for the nomv library: a text picture of any hexhex grid, for text() (g:text?).
-- Flat-topped hexes: a column per letter, neighbours in a column two lines apart, so each line
-- holds every other column.  A row number stands left of the cell where its row starts; rows
-- slant down to the right.  symbol(i) gives one character per cell.  Returns the lines.
local function hexhex_picture(g, symbol)
  local n, rows = g.side, {}
  for k = 1, 4 * n - 3 do rows[k] = {} end
  local function put(row, col, text)
    for c = 1, #text do row[col + c - 1] = text:sub(c, c) end
  end
  for i = 1, g.n do
    local q, r = g.q[i], g.r[i]
    local row, col = rows[2 * (n - 1) - 2 * r - q + 1], 4 + 2 * (q + n - 1)
    put(row, col, symbol(i))
    if q == math.max(1 - n, 1 - n - r) then put(row, col - 3, ("%2d"):format(r + n)) end
  end
  local out, letters = {}, {}
  for k, row in ipairs(rows) do
    local width, chars = 0, {}
    for c in pairs(row) do width = math.max(width, c) end   -- only the largest key matters
    for c = 1, width do chars[c] = row[c] or " " end
    out[k] = table.concat(chars)
  end
  for c = 1, 2 * n - 1 do letters[c] = string.char(96 + c) end
  out[#out + 1] = "   " .. table.concat(letters, " ")
  return out
end

local function sizes_text(l) return #l == 0 and "none" or table.concat(l, ",") end

-- N7: compare the largest members; then (tiebreak lexicographic) the sorted member lists,
-- missing entries counting 0; what is still equal is a draw.  Nobody invents a winner.
local function decide(s, g)
  local b, w = members(s, g)
  local scores = {b[1] or 0, w[1] or 0}
  if scores[1] ~= scores[2] then
    return {winner = scores[1] > scores[2] and 1 or 2, scores = scores,
            reason = ("largest member %d against %d"):format(scores[1], scores[2])}
  end
  local lists = ("largest members tie at %d; members %s against %s")
                :format(scores[1], sizes_text(b), sizes_text(w))
  if s.tiebreak == "lexicographic" then
    for k = 2, math.max(#b, #w) do
      local x, y = b[k] or 0, w[k] or 0
      if x ~= y then
        return {winner = x > y and 1 or 2, scores = scores, reason = lists}
      end
    end
    return {draw = true, scores = scores, reason = lists .. ": all equal"}
  end
  return {draw = true, scores = scores, reason = lists .. " (tiebreak draw)"}
end

-- A cell id typed by a player, or nil and why not.
local function cell_of(g, s, id)
  local i = g.index[id]
  if not i then return nil, ("there is no cell %s on a side-%d board"):format(id, s.n) end
  return i
end

return {
  name = "nipple",
  title = "Nipple",
  info = {
    author = "nickobento",
    source = "rec.games.abstract, 21 April 2009; the tie found by Don Woods in the same thread",
    rules = "Each turn, first move the red Nipple to an empty cell where the largest black and the "
         .. "largest white group next to it differ in size (a colour not there counts 0); skip this "
         .. "when no cell allows it. Then place a stone of your colour on any empty cell. When the "
         .. "board is full, the larger group touching the Nipple wins; equal largest groups are "
         .. "decided by the next ones, and full equality is a draw.",
  },
  players = {min = 2, max = 2, names = NAME, colours = FILL},
  options = {
    size = {default = 5, min = 3, max = 8, order = 1, help = "side of the hexhex board"},
    nipple_rule = {default = "zero", choices = {"zero", "both_present"}, order = 2,
                   help = "zero: a colour not next to the cell counts 0; both_present: equal sizes "
                       .. "forbid a cell only when both colours touch it"},
    tiebreak = {default = "lexicographic", choices = {"lexicographic", "draw"}, order = 3,
                help = "equal largest members: compare the next members, or call it a draw"},
  },

  setup = function(opts)
    local g = grid_of(opts.size)
    local board, black, white = {}, {}, {}
    for i = 1, g.n do board[i], black[i], white[i] = EMPTY, 0, 0 end
    local centre = g.index[string.char(96 + opts.size) .. opts.size]
    board[centre] = NIPPLE
    return {n = opts.size, rule = opts.nipple_rule, tiebreak = opts.tiebreak, board = board,
            near = {black, white}, nipple = centre, empty = g.n - 1, to_move = 1}
  end,

  -- Every destination leaves the same empty cells in number, so the list is destinations x
  -- stone cells; with no destination, the stone cell alone.
  moves = function(s)
    local g = grid_of(s.n)
    local ids, out = g.ids, {}
    local list, count = destinations(s, g)
    if count == 0 then
      for c = 1, g.n do
        if s.board[c] == EMPTY then out[#out + 1] = {ids[c], stone = c} end
      end
      return out
    end
    for k = 1, count do
      local d = list[k]
      for c = 1, g.n do
        if free_for_stone(s, d, c) then out[#out + 1] = {ids[d], ids[c], nip = d, stone = c} end
      end
    end
    return out
  end,

  -- Uniform over all legal moves: each destination has exactly s.empty stone cells.
  random_move = function(s, rng)
    local g = grid_of(s.n)
    local ids, e = g.ids, s.empty
    local list, count, empty = destinations(s, g)
    if count == 0 then
      local c = empty[rng:int(e)]
      return {ids[c], stone = c}
    end
    local d = list[rng:int(count)]
    -- The stone cells are the e empty cells but d, and the cell the Nipple leaves: number
    -- them 1..e in that order and pick one.  empty[] is sorted, so skipping d is one compare.
    local k, c = rng:int(e), s.nipple
    if k < e then
      c = empty[k]
      if c >= d then c = empty[k + 1] end
    end
    return {ids[d], ids[c], nip = d, stone = c}
  end,

  -- Groups only grow, so the new stone's group is at least as big as every group it joined:
  -- the cells next to it learn the new size, and nothing else changes.  Arrays are copied with
  -- {unpack(t)} (one allocation); the other colour's array is shared, as play never changes it.
  play = function(s, m)
    local g = grid_of(s.n)
    local d, c = m.nip, m.stone
    if not c then  -- a move built from ids only
      if #m == 2 then d, c = g.index[m[1]], g.index[m[2]] else c = g.index[m[1]] end
    end
    local v, board, nipple = s.to_move, {unpack(s.board)}, s.nipple
    if d then board[nipple] = EMPTY; board[d] = NIPPLE; nipple = d end
    board[c] = v
    local near = {s.near[1], s.near[2]}
    local mine = {unpack(near[v])}
    near[v] = mine
    local _, count, around, nl = group_of(g, board, c)
    for k = 1, nl do
      local j = around[k]
      if mine[j] < count then mine[j] = count end
    end
    return {n = s.n, rule = s.rule, tiebreak = s.tiebreak, board = board, near = near,
            nipple = nipple, empty = s.empty - 1, to_move = 3 - v}
  end,

  -- The board is full when every cell holds a stone or the Nipple (N6); step 1 never changes the
  -- number of empty cells, so a stone can always be placed before that (N5).
  result = function(s)
    if s.empty > 0 then return nil end
    return decide(s, grid_of(s.n))
  end,

  notation = function(s, m)
    if #m == 1 then return "-/" .. m[1] end
    return m[1] .. "/" .. m[2]
  end,

  -- "f5/g5" or "-/g5" (also "f5 g5", "f5-g5", "g5"), with reasons when the move is illegal.
  parse = function(s, text)
    local t = text:lower():gsub("%s+", " "):gsub("^ ", ""):gsub(" $", "")
    local a, b = t:match("^([a-z]%d+)[ /,%-]+([a-z]%d+)$")
    if not a then b = t:match("^%-? ?/? ?([a-z]%d+)$") end
    if not b then return nil, "write the Nipple's cell then the stone's cell, e.g. f5/g5, or -/g5" end
    local g = grid_of(s.n)
    local list, count = destinations(s, g)
    local c, why = cell_of(g, s, b)
    if not c then return nil, why end
    if not a then
      if count > 0 then
        return nil, ("the Nipple must move first (%d cells allowed, e.g. %s/%s)"):format(count, g.ids[list[1]], b)
      end
      if s.board[c] ~= EMPTY then return nil, b .. " is not empty" end
      return {b}
    end
    local d
    d, why = cell_of(g, s, a)
    if not d then return nil, why end
    if count == 0 then return nil, ("the Nipple cannot move this turn: write -/%s"):format(b) end
    if d == s.nipple then return nil, "the Nipple must leave " .. a end
    if s.board[d] ~= EMPTY then return nil, a .. " is not empty" end
    local listed = false
    for k = 1, count do listed = listed or list[k] == d end
    if not listed then
      return nil, ("the Nipple may not go to %s: its largest black and white neighbours are equal (%d = %d)")
                  :format(a, s.near[1][d], s.near[2][d])
    end
    if not free_for_stone(s, d, c) then
      return nil, c == d and (b .. " is where the Nipple goes") or (b .. " is not empty")
    end
    return {a, b}
  end,

  scene = function(s)
    local g = grid_of(s.n)
    local b, w, member = members(s, g)
    local items = g:scene({fill = "#e8d9b5", stroke = "#5a4a30"})
    for i = 1, g.n do
      local v = s.board[i]
      if v == NIPPLE then
        items[#items + 1] = g:piece(i, "#d42a2a", {stroke = "#7a1010"})
      elseif v ~= EMPTY then
        -- Stones of a member wear a red ring, so the groups that count are visible.
        local ring = member[i] and {stroke = "#d42a2a", width = 0.12} or nil
        items[#items + 1] = g:piece(i, FILL[v], ring)
      end
    end
    -- The members, to the right of the board.
    local x0 = 1.5 * (s.n - 1) + 2
    local lists = {b, w}
    for p = 1, 2 do
      local y = -2.5 + 1.5 * p
      items[#items + 1] = {shape = "circle", x = x0 + 0.5, y = y, r = 0.4, fill = FILL[p], stroke = "#202020"}
      items[#items + 1] = {shape = "text", x = x0 + 1.3, y = y, size = 0.6, fill = "#303030", align = "left",
                           bold = p == s.to_move and s.empty > 0,
                           text = ("%s: largest member %d (members %s)"):format(NAME[p], lists[p][1] or 0, sizes_text(lists[p]))}
    end
    if s.empty > 0 then
      local skip = select(2, destinations(s, g)) == 0 and ": the Nipple cannot move, place a stone" or ""
      items.status = NAME[s.to_move] .. " to move" .. skip
    else
      local r = decide(s, g)
      items.status = (r.winner and (NAME[r.winner] .. " wins") or "Draw") .. ": " .. r.reason
    end
    return items
  end,

  text = function(s)
    local g = grid_of(s.n)
    local out = hexhex_picture(g, function(i) return SYMBOL[s.board[i]] end)
    local b, w = members(s, g)
    out[#out + 1] = ""
    out[#out + 1] = ("X = Black, O = White, N = the Nipple (on %s); letters are columns, and each"
                     .. " row\nnumber stands where its row starts: rows slant down to the right"):format(g.ids[s.nipple])
    out[#out + 1] = ("Black members: %s   White members: %s"):format(sizes_text(b), sizes_text(w))
    if s.empty > 0 and select(2, destinations(s, g)) == 0 then
      out[#out + 1] = "The Nipple cannot move this turn: the move is a stone alone, written -/cell"
    end
    return table.concat(out, "\n")
  end,
}
