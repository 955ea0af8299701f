-- Breakthrough (Dan Troyka, 2000), with exactly OpenSpiel's rules (open_spiel/games/breakthrough,
-- 8 rows and 8 columns): each player starts with two full rows of pawns, Black (OpenSpiel's b,
-- player 1) on ranks 7-8 moving down and moving first, White (w) on ranks 1-2 moving up.  A pawn
-- moves one square forward, straight or diagonally, into an empty square, or captures an enemy
-- pawn diagonally forward (never straight ahead).  Reaching the far rank wins at once, and so
-- does capturing every enemy pawn.  Someone always has a move and there are no draws.  22 first
-- moves: the eight front pawns each go straight or to either side, less the board's two edges.
--
-- Written for speed (nomv bench compares it with OpenSpiel and Ludii).  play() must copy the
-- state, so the board is packed: each square a 2-bit digit (0 empty, 1 Black, 2 White), sixteen
-- to a number, so the board is four numbers, and with the two players' pawn counts six.  Random
-- playouts draw a (square, direction) pair until it is a legal move, which is uniform over the
-- legal moves without listing them.

local floor = math.floor
local g = nomv.grid.square(8, 8)                     -- a1..h8, rank 1 at the bottom
local NAMES = {"Black", "White"}
local FILL = {"#202020", "#f4f4f4"}
local CAPTURED = 4                                   -- board[4 + p]: player p's pawns left

-- CH[i], PL[i]: square i is digit floor(board[CH[i]] / PL[i]) % 4 of the packed board.
local CH, PL = {}, {}
for i = 1, g.n do CH[i], PL[i] = floor((i - 1) / 16) + 1, floor(4 ^ ((i - 1) % 16)) end

local function at(b, i)
  return floor(b[CH[i]] / PL[i]) % 4
end

-- The three forward directions of each player, diagonals first and last (as OpenSpiel orders
-- them): Black moves towards rank 1.
local FORWARD = {{g.dir.sw, g.dir.s, g.dir.se}, {g.dir.nw, g.dir.n, g.dir.ne}}
local FAR_RANK = {1, 8}

-- MOVE[p][d][i]: player p's move from square i in its d-th forward direction, built once and
-- shared (playouts allocate no moves), or false where it would leave the board.  DIAGONAL[d]:
-- whether direction d may capture.  WINS[p][j]: 1 if a pawn of p arriving on j wins.
local MOVE, DIAGONAL, WINS = {{}, {}}, {true, false, true}, {{}, {}}
for p = 1, 2 do
  for d = 1, 3 do
    local list = {}
    for i = 1, g.n do
      local j = g.step[FORWARD[p][d]][i]
      list[i] = j and {g.ids[i], g.ids[j], from = i, to = j} or false
    end
    MOVE[p][d] = list
  end
  for j = 1, g.n do WINS[p][j] = g.rank[j] == FAR_RANK[p] and 1 or 0 end
end

-- Whether player p may play its d-th direction from square i, on board b.
local function legal(b, p, d, i)
  local m = MOVE[p][d][i]
  if not m or at(b, i) ~= p then return false end
  local t = at(b, m.to)
  return t == 0 or (DIAGONAL[d] and t == 3 - p)
end

local WIN = {{winner = 1, reason = "reached rank 1"}, {winner = 2, reason = "reached rank 8"}}
local WIPED = {{winner = 1, reason = "captured every White pawn"},
               {winner = 2, reason = "captured every Black pawn"}}

local function locate(s, m)
  if m.from then return m.from, m.to end
  return g.index[m[1]], g.index[m[2]]
end

return {
  name = "breakthrough",
  title = "Breakthrough",
  info = {author = "Dan Troyka", source = "OpenSpiel breakthrough (8x8)",
          rules = "Move a pawn one square forward, straight or diagonally, to an empty square, or "
               .. "capture diagonally forward. Reach the far rank, or capture every enemy pawn, "
               .. "to win."},
  players = {min = 2, max = 2, names = NAMES, colours = FILL},
  grid = g,

  -- board: four packed numbers, then Black's and White's pawn counts; winner: set once won,
  -- with `how`: 1 for the far rank, 2 for the last capture.
  setup = function(opts, rng)
    local b = {0, 0, 0, 0, 16, 16}
    for i = 1, g.n do
      local r = g.rank[i]
      local v = r >= 7 and 1 or (r <= 2 and 2 or 0)
      b[CH[i]] = b[CH[i]] + v * PL[i]
    end
    return {board = b, to_move = 1}
  end,

  moves = function(s)
    local b, p, out = s.board, s.to_move, {}
    for i = 1, g.n do
      if at(b, i) == p then
        for d = 1, 3 do
          if legal(b, p, d, i) then out[#out + 1] = MOVE[p][d][i] end
        end
      end
    end
    return out
  end,

  -- Uniform over the legal moves: draw one of the 192 (square, direction) pairs until it is a
  -- legal move of the player to move.
  random_move = function(s, rng)
    local b, p = s.board, s.to_move
    while true do
      local x = rng:int(192) - 1
      local i, d = x % 64 + 1, floor(x / 64) + 1
      if legal(b, p, d, i) then return MOVE[p][d][i] end
    end
  end,

  play = function(s, m)
    local p, o = s.to_move, s.board
    local b = {o[1], o[2], o[3], o[4], o[5], o[6]}
    local i, j = locate(s, m)
    local t = at(b, j)                                  -- 0, or the enemy's pawn taken
    b[CH[i]] = b[CH[i]] - p * PL[i]
    b[CH[j]] = b[CH[j]] + (p - t) * PL[j]
    if t ~= 0 then b[CAPTURED + t] = b[CAPTURED + t] - 1 end
    local new = {board = b, to_move = 3 - p}
    if WINS[p][j] == 1 then new.winner, new.how = p, 1
    elseif b[CAPTURED + 3 - p] == 0 then new.winner, new.how = p, 2 end
    return new
  end,

  result = function(s)
    if s.winner then return (s.how == 1 and WIN or WIPED)[s.winner] end
    return nil
  end,

  -- OpenSpiel's notation: from and to squares run together, with * after a capture: a7b6*.
  notation = function(s, m)
    local i, j = locate(s, m)
    return m[1] .. m[2] .. (at(s.board, j) ~= 0 and "*" or "")
  end,

  -- Also accepted: a7-b6, a7xb6, a7 b6.
  parse = function(s, text)
    local a, z = text:lower():match("^%s*([a-h][1-8])%s*[-x:]?%s*([a-h][1-8])%*?%s*$")
    if not a then return nil, "write a move as from and to squares: a7a6, a7b6*" end
    return {a, z}
  end,

  scene = function(s)
    local function shade(i) return (g.file[i] + g.rank[i]) % 2 == 0 and "#b58863" or "#f0d9b5" end
    local items = g:scene({fill = shade, stroke = "#7a5a3a"})
    for i = 1, g.n do
      local v = at(s.board, i)
      if v ~= 0 then items[#items + 1] = g:piece(i, FILL[v], {stroke = "#303030"}) end
    end
    for f = 1, 8 do
      items[#items + 1] = {shape = "text", x = f - 0.5, y = 8.35, text = string.char(96 + f),
                           size = 0.35, fill = "#303030"}
    end
    for r = 1, 8 do
      items[#items + 1] = {shape = "text", x = -0.3, y = 8.5 - r, text = tostring(r), size = 0.35,
                           fill = "#303030"}
    end
    items.status = s.winner and (NAMES[s.winner] .. " wins") or (NAMES[s.to_move] .. " to move")
    return items
  end,

  -- OpenSpiel's picture: rank 8 first, b and w for the pawns.
  text = function(s)
    local lines = {}
    for r = 8, 1, -1 do
      local row = {tostring(r)}
      for f = 1, 8 do row[#row + 1] = ({[0] = ".", "b", "w"})[at(s.board, (r - 1) * 8 + f)] end
      lines[#lines + 1] = table.concat(row)
    end
    lines[#lines + 1] = " abcdefgh"
    return table.concat(lines, "\n")
  end,
}
