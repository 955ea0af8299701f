-- Nipple (nickobento, rec.games.abstract, 21 April 2009).
--
-- A hexhex board, black and white stones and one red neutral stone, the Nipple, which starts on
-- the centre.  A turn: first move the Nipple to an empty cell where the largest black group and
-- the largest white group next to it differ in size (skip this when no cell allows it), then
-- place a stone of your colour.  When the board is full, the player whose largest group touching
-- the Nipple (a "member") is bigger wins.
-- The rules in full: docs/games/nipple.md.  The marks N2-N7 below flag the points the original
-- posts left open, each settled there as this script plays it.

local EMPTY, BLACK, WHITE, NIPPLE = 0, 1, 2, 3
local TRIES = 8                   -- random cells random_move draws before it scans the board
local NAME = {"Black", "White"}
local NOME = {"Nero", "Bianco"}   -- the names in Italian
local FILL = {"#202020", "#f4f4f4"}
local SYMBOL = {[0] = ".", "X", "O", "N"}

-- The board of side `size`.  (nomv makes each grid once; asking again, in every hook, gets the
-- same one.)
local grid_of = nomv.grid.hexhex

-- Groups, as a union-find forest over the stones of one position (the state `known`): parent
-- leads from a stone to its group's root, and size[root] is the group's size.  States never
-- change, so the forest is built anew only when asked about another state; play carries it
-- over to the state it returns by adding one stone, so a random game never floods a group.
-- The arrays are filled up to the largest board (side 8: 169 cells), so that none grows in a
-- playout.  A speed trick, kept because it measurably pays: the plain way, the groups kept in
-- the state as a nomv.unionfind list that play copies and extends (script-api.md), plays the
-- same games 9-11% slower (7,300 against 8,013 and 7,052 against 7,891 random games/s, side
-- by side, median of 9-11 runs); nomv's rule for its games is to lose at most 5%.  It is a
-- cache, not hidden state: what the hooks answer depends on the state they are given alone.
local parent, size, known = {}, {}, nil
for i = 1, 169 do parent[i], size[i] = i, 1 end

local function root(i)
  local p = parent[i]
  while p ~= i do               -- path halving: point i at its grandparent on the way up
    local up = parent[p]
    parent[i] = up
    i, p = up, parent[up]
  end
  return i
end

-- A stone of colour v on c joins the groups of its neighbours of that colour on cells before
-- `limit` (when building anew, the cells added so far); the smaller group goes under the larger.
local function add_stone(adj, board, c, v, limit)
  parent[c], size[c] = c, 1
  local a = adj[c]
  for k = 1, #a do
    local j = a[k]
    if j < limit and board[j] == v then
      local x, y = root(c), root(j)
      if size[x] < size[y] then x, y = y, x end
      if x ~= y then parent[y], size[x] = x, size[x] + size[y] end
    end
  end
end

local function forest(s, adj)
  if known == s then return end
  known = s
  local board = s.board
  for c = 1, #board do
    if board[c] == BLACK or board[c] == WHITE then add_stone(adj, board, c, board[c], c) end
  end
end

-- The largest black and white groups next to cell i, 0 for a colour that is not there (N2).
local function largest_next_to(s, adj, i)
  forest(s, adj)
  local board, a, b, w = s.board, adj[i], 0, 0
  for k = 1, #a do
    local j = a[k]
    local x = board[j]
    if x == BLACK or x == WHITE then
      local z = size[root(j)]
      if x == BLACK then
        if z > b then b = z end
      elseif z > w then w = z end
    end
  end
  return b, w
end

-- Whether the Nipple may go to cell i: an empty cell (so not its own, N3) where the largest
-- groups next to it differ; with rule both_present, a cell touching no stone is allowed too.
-- Stones do not move with the Nipple, so the groups are those before the move (N4).
local function allowed(s, adj, i)
  if s.board[i] ~= EMPTY then return false end
  local b, w = largest_next_to(s, adj, i)
  return b ~= w or (b == 0 and s.rule == "both_present")
end

-- The legal Nipple destinations in cell order, and how many.  The list is scratch, valid until
-- the next call, so that a random playout makes no table for it.
local dests = {}
for i = 1, 169 do dests[i] = 0 end
local function destinations(s, g)
  local board, count = s.board, 0
  for i = 1, g.n do
    if board[i] == EMPTY and allowed(s, g.adj, i) then count = count + 1; dests[count] = i end
  end
  return dests, count
end

-- Whether the stone may go on cell c once the Nipple stands on d (nil: it cannot move): an
-- empty cell, or the cell the Nipple left.  Either way there are s.empty such cells.
local function free_for_stone(s, d, c)
  return c ~= d and (s.board[c] == EMPTY or (d ~= nil and c == s.nipple))
end

-- One comparison function for every sort, not a new closure per call.
local function desc(a, b) return a > b end

-- The members around the Nipple: the sizes of each colour's groups touching it, largest first,
-- and the set of their stones (for the scene).
local function members(s, g)
  forest(s, g.adj)
  local board, lists, roots, member = s.board, {{}, {}}, {}, {}
  for _, j in ipairs(g.adj[s.nipple]) do
    local v = board[j]
    if (v == BLACK or v == WHITE) and not roots[root(j)] then
      roots[root(j)] = true
      table.insert(lists[v], size[root(j)])
    end
  end
  for i = 1, g.n do
    member[i] = (board[i] == BLACK or board[i] == WHITE) and roots[root(i)]
  end
  table.sort(lists[1], desc)
  table.sort(lists[2], desc)
  return lists[1], lists[2], member
end

local function sizes_text(l) return #l == 0 and "none" or table.concat(l, ",") end

-- N7: compare the largest members; then (tiebreak lexicographic) the sorted member lists,
-- missing entries counting 0; what is still equal is a draw.  Nobody invents a winner.
local function decide(s, g)
  local b, w = members(s, g)
  local scores = {b[1] or 0, w[1] or 0}
  if scores[1] ~= scores[2] then
    return {winner = scores[1] > scores[2] and 1 or 2, scores = scores,
            reason = {en = ("largest member %d against %d"):format(scores[1], scores[2]),
                      it = ("membro più grande %d contro %d"):format(scores[1], scores[2])}}
  end
  local lists = ("largest members tie at %d; members %s against %s")
                :format(scores[1], sizes_text(b), sizes_text(w))
  local liste = ("membri più grandi pari a %d; membri %s contro %s")
                :format(scores[1], (sizes_text(b):gsub("none", "nessuno")), (sizes_text(w):gsub("none", "nessuno")))
  if s.tiebreak == "lexicographic" then
    for k = 2, math.max(#b, #w) do
      local x, y = b[k] or 0, w[k] or 0
      if x ~= y then
        return {winner = x > y and 1 or 2, scores = scores, reason = {en = lists, it = liste}}
      end
    end
    return {draw = true, scores = scores, reason = {en = lists .. ": all equal", it = liste .. ": tutti uguali"}}
  end
  return {draw = true, scores = scores, reason = {en = lists .. " (tiebreak draw)", it = liste .. " (spareggio: patta)"}}
end

-- A cell id typed by a player, or nil and why not (parse explains refusals; it never guesses).
local function cell_of(g, s, id)
  local i = g.index[id]
  if not i then return nil, ("there is no cell %s on a side-%d board"):format(id, s.n) end
  return i
end

-- candidate for the nomv library: a text picture of any hexhex grid, for text() (g:text?).
-- Flat-topped hexes as on the board: a column per letter, the cells of a column two lines apart,
-- neighbouring columns half a cell apart.  A row runs up to the right, so a line of text holds
-- cells of several rows; the first cell of every row is the first cell of its line, and the
-- row's number stands in the margin there.  symbol(i) gives one character per cell.
local function hexhex_picture(g, symbol)
  local n, numbers, lines, letters = g.side, {}, {}, {}
  for l = 1, 4 * n - 3 do
    numbers[l], lines[l] = "  ", {}
    for x = 1, 4 * n - 3 do lines[l][x] = " " end
  end
  for i = 1, g.n do
    local q, r = g.q[i], g.r[i]
    local l = 2 * (n - 1) - 2 * r - q + 1
    lines[l][1 + 2 * (q + n - 1)] = symbol(i)
    if q == math.max(1 - n, 1 - n - r) then numbers[l] = ("%2d"):format(r + n) end
  end
  for l = 1, #lines do lines[l] = (numbers[l] .. " " .. table.concat(lines[l])):gsub(" +$", "") end
  for k = 1, 2 * n - 1 do letters[k] = string.char(96 + k) end
  lines[#lines + 1] = "   " .. table.concat(letters, " ")
  return lines
end

return {
  name = "nipple",
  title = "Nipple",
  info = {
    author = "nickobento",
    source = "rec.games.abstract, 21 April 2009; the tie found by Don Woods in the same thread",
    rules = {en = "Each turn, first move the red Nipple to an empty cell where the largest black and "
                  .. "the largest white group next to it differ in size (a colour not there counts 0); "
                  .. "skip this when no cell allows it. Then place a stone of your colour on any empty "
                  .. "cell. When the board is full, the larger group touching the Nipple wins; equal "
                  .. "largest groups are decided by the next ones, and full equality is a draw.",
             it = "A ogni turno, prima sposta il Nipple rosso su una cella vuota dove il più grande "
                  .. "gruppo nero e il più grande gruppo bianco vicini hanno grandezze diverse (un "
                  .. "colore assente conta 0); salta questo passo se nessuna cella lo permette. Poi "
                  .. "metti una pietra del tuo colore su una cella vuota qualsiasi. A scacchiera piena "
                  .. "vince il gruppo più grande che tocca il Nipple; gruppi più grandi uguali si "
                  .. "decidono con i successivi, e la piena uguaglianza è patta."},
  },
  players = {min = 2, max = 2, names = {{en = NAME[1], it = NOME[1]}, {en = NAME[2], it = NOME[2]}},
             colours = FILL},
  options = {
    size = {default = 5, min = 3, max = 8, order = 1, label = {en = "size", it = "lato"},
            help = {en = "side of the hexhex board", it = "lato della scacchiera esagonale"}},
    nipple_rule = {default = "zero", choices = {"zero", "both_present"}, order = 2,
                   label = {en = "Nipple rule", it = "regola del Nipple"},
                   help = {en = "zero: a colour not next to the cell counts 0; both_present: equal sizes "
                             .. "forbid a cell only when both colours touch it",
                           it = "zero: un colore non vicino alla cella conta 0; both_present: grandezze uguali "
                             .. "vietano una cella solo quando la toccano entrambi i colori"}},
    tiebreak = {default = "lexicographic", choices = {"lexicographic", "draw"}, order = 3,
                label = {en = "tiebreak", it = "spareggio"},
                help = {en = "equal largest members: compare the next members, or call it a draw",
                        it = "gruppi più grandi uguali: confronta i successivi, o è patta"}},
  },

  -- Cells are numbered column by column, so the centre is the middle one.  Seven fields: the
  -- _rng field nomv adds still fits the table's hash part of eight, while a ninth field would
  -- make every move resize the table.
  setup = function(opts)
    local g = grid_of(opts.size)
    local board, centre = {}, math.floor((g.n + 1) / 2)
    for i = 1, g.n do board[i] = EMPTY end
    board[centre] = NIPPLE
    return {n = opts.size, rule = opts.nipple_rule, tiebreak = opts.tiebreak, board = board,
            nipple = centre, empty = g.n - 1, to_move = 1}
  end,

  -- Each destination with each cell free for the stone; with no destination, the stone alone.
  moves = function(s)
    local g = grid_of(s.n)
    local ids, out = g.ids, {}
    local list, count = destinations(s, g)
    for k = 1, math.max(count, 1) do
      local d = list[k]
      if count == 0 then d = nil end
      for c = 1, g.n do
        if free_for_stone(s, d, c) then out[#out + 1] = d and {ids[d], ids[c]} or {ids[c]} end
      end
    end
    return out
  end,

  -- A move is its steps only, the same whether drawn, listed or typed.  The stone's neighbours
  -- are the same on both boards, so its group can join first.
  play = function(s, m)
    local g = grid_of(s.n)
    local v, c, nipple = s.to_move, g.index[m[#m]], s.nipple
    if m[2] then nipple = g.index[m[1]] end
    local after = {n = s.n, rule = s.rule, tiebreak = s.tiebreak, nipple = nipple,
                   empty = s.empty - 1, to_move = 3 - v}
    if known == s then add_stone(g.adj, s.board, c, v, math.huge); known = after end
    local board = nomv.copy_list(s.board, g.n)
    board[s.nipple] = EMPTY
    board[nipple] = NIPPLE
    board[c] = v
    after.board = board
    return after
  end,

  -- The board is full when every cell holds a stone or the Nipple (N6); step 1 never changes the
  -- number of empty cells, so a stone can always be placed before that (N5).
  result = function(s)
    if s.empty > 0 then return nil end
    return decide(s, grid_of(s.n))
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
                           text = {en = ("%s: largest member %d (members %s)"):format(NAME[p], lists[p][1] or 0, sizes_text(lists[p])),
                                   it = ("%s: membro più grande %d (membri %s)"):format(NOME[p], lists[p][1] or 0,
                                                                                     (sizes_text(lists[p]):gsub("none", "nessuno")))}}
    end
    if s.empty > 0 then
      local stuck = select(2, destinations(s, g)) == 0
      if stuck then
        items.status = {en = "The Nipple cannot move: place a stone", it = "Il Nipple non può muoversi: metti una pietra"}
      end
    end
    return items
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
    if not allowed(s, g.adj, d) then
      return nil, ("the Nipple may not go to %s: its largest black and white neighbours are equal (%d = %d)")
                  :format(a, largest_next_to(s, g.adj, d))
    end
    if not free_for_stone(s, d, c) then
      return nil, c == d and (b .. " is where the Nipple goes") or (b .. " is not empty")
    end
    return {a, b}
  end,

  text = function(s)
    local g = grid_of(s.n)
    local out = hexhex_picture(g, function(i) return SYMBOL[s.board[i]] end)
    local b, w = members(s, g)
    out[#out + 1] = ""
    out[#out + 1] = ("X = Black, O = White, N = the Nipple (on %s).  A row runs up to the right from"
                     .. " its number;\nin a column the numbers grow upwards."):format(g.ids[s.nipple])
    out[#out + 1] = ("Black members: %s   White members: %s"):format(sizes_text(b), sizes_text(w))
    if s.empty > 0 and select(2, destinations(s, g)) == 0 then
      out[#out + 1] = "The Nipple cannot move this turn: the move is a stone alone, written -/cell"
    end
    return table.concat(out, "\n")
  end,

  -- Uniform over all legal moves, and mostly without looking at the whole board: a cell drawn
  -- at random and kept only if it qualifies is a uniform choice among the cells that do, and
  -- so is the scan that takes over after `tries` misses (whether they all miss does not depend
  -- on which cell qualifies).  Once few cells are empty, draws mostly miss: scan at once.  The
  -- Nipple's cell first, then the stone's: every destination has the same number of stone
  -- cells, so the move is uniform.
  random_move = function(s, rng)
    local g = grid_of(s.n)
    local n, d, c = g.n, nil, nil
    local tries = s.empty * 4 > n and TRIES or 0
    for _ = 1, tries do
      local i = rng:int(n)
      if allowed(s, g.adj, i) then d = i; break end
    end
    if not d then
      local list, count = destinations(s, g)
      if count > 0 then d = list[rng:int(count)] end
    end
    for _ = 1, tries do
      local i = rng:int(n)
      if free_for_stone(s, d, i) then c = i; break end
    end
    if not c then
      local k = rng:int(s.empty)
      c = 0
      repeat
        c = c + 1
        if free_for_stone(s, d, c) then k = k - 1 end
      until k == 0
    end
    return d and {g.ids[d], g.ids[c]} or {g.ids[c]}
  end,
}
