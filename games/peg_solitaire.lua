-- Peg solitaire on the English board: 33 holes in a cross, a peg in every hole but the centre.
-- A move jumps a peg over an orthogonally adjacent peg into the empty hole just beyond, and
-- removes the peg jumped over.  The game ends when no jump is left: one peg left is a win
-- (the classic puzzle also asks for it to end in the centre: option `centre`), more is a loss.
-- A one-player game: `players = 1`.  The third game of docs/tutorial.md.

local g = nomv.grid.square(7, 7)                  -- a 7x7 square grid; the corners are not holes
local HOLE = {}                                   -- HOLE[i]: cell i is one of the 33 holes
for i = 1, g.n do
  local f, r = g.file[i], g.rank[i]
  HOLE[i] = (f >= 3 and f <= 5) or (r >= 3 and r <= 5)
end
local CENTRE = g:at("d4")
local CROSS = {"d3", "c4", "d4", "e4", "d5", "d6"}    -- the small puzzle of the `cross` start
local DIRS = {g.dir.n, g.dir.e, g.dir.s, g.dir.w}

local function count_pegs(board)
  local n = 0
  for i = 1, g.n do
    if board[i] == 1 then n = n + 1 end
  end
  return n
end

return {
  name = "peg_solitaire",
  title = {en = "Peg solitaire", it = "Solitario"},
  info = {source = "the English 33-hole board",
          rules = {en = "Jump a peg over a neighbour into an empty hole; the jumped peg is removed. "
                        .. "Leave one peg.",
                   it = "Salta con un piolo un vicino fino a un foro vuoto; il piolo saltato si "
                        .. "toglie. Lasciane uno solo."}},
  players = 1,
  options = {
    centre = {default = false, label = {en = "centre", it = "centro"},
              help = {en = "a win needs the last peg in the centre hole (d4)",
                      it = "per vincere l'ultimo piolo deve stare nel foro centrale (d4)"}},
    start = {default = "full", choices = {"full", "cross"}, label = {en = "start", it = "inizio"},
             help = {en = "full: every hole but the centre; cross: six pegs in a cross around the centre",
                     it = "full: ogni foro tranne il centro; cross: sei pioli a croce intorno al centro"}},
  },
  variants = {cross = {start = "cross"}},

  setup = function(opts, rng)
    local board = {}
    for i = 1, g.n do
      if not HOLE[i] then board[i] = -1 elseif i == CENTRE then board[i] = 0 else board[i] = 1 end
    end
    if opts.start == "cross" then
      for i = 1, g.n do if HOLE[i] then board[i] = 0 end end
      for _, id in ipairs(CROSS) do board[g:at(id)] = 1 end
    end
    return {board = board, centre = opts.centre, to_move = 1}
  end,

  -- A move has two steps: the peg that jumps, then the hole it lands in.
  moves = function(s)
    local b, out = s.board, {}
    for i = 1, g.n do
      if b[i] == 1 then
        for _, d in ipairs(DIRS) do
          local over = g.step[d][i]
          local to = over and g.step[d][over]
          if to and b[over] == 1 and b[to] == 0 then
            out[#out + 1] = {g.ids[i], g.ids[to], over = over}
          end
        end
      end
    end
    return out
  end,

  play = function(s, m)
    local board = nomv.copy(s.board)
    board[g:at(m[1])] = 0
    board[m.over] = 0
    board[g:at(m[2])] = 1
    return {board = board, centre = s.centre, to_move = 1}
  end,

  -- Parsing "d2-d4" (or "d2 d4") finds the move among the legal ones, with its `over` field.
  parse = function(s, text)
    local parts = {}
    for id in text:lower():gmatch("[a-g][1-7]") do parts[#parts + 1] = id end
    if #parts ~= 2 then return nil, "a jump is two holes, such as d2-d4" end
    return {parts[1], parts[2]}
  end,

  result = function(s)
    local b = s.board
    for i = 1, g.n do
      if b[i] == 1 then
        for _, d in ipairs(DIRS) do
          local over = g.step[d][i]
          local to = over and g.step[d][over]
          if to and b[over] == 1 and b[to] == 0 then return nil end
        end
      end
    end
    local left = count_pegs(b)
    if left == 1 and (not s.centre or b[CENTRE] == 1) then
      return {winner = 1, reason = {en = "one peg left", it = "un solo piolo rimasto"}}
    end
    return {ranks = {2}, reason = {en = left .. " pegs left", it = left .. " pioli rimasti"}}
  end,

  scene = function(s)
    local items = {}
    for i = 1, g.n do
      if HOLE[i] then
        items[#items + 1] = {id = g.ids[i], shape = "polygon", points = g.poly[i],
                             fill = "#e8d9b5", stroke = "#8a7350", layer = 0}
        items[#items + 1] = {shape = "circle", x = g.x[i], y = g.y[i], r = 0.12, fill = "#8a7350", layer = 0}
        if s.board[i] == 1 then items[#items + 1] = g:piece(i, "#c03030") end
      end
    end
    items.status = count_pegs(s.board) .. " pegs"
    return items
  end,
}
