-- Breakthrough (Dan Troyka, 2000), with exactly OpenSpiel's rules (open_spiel/games/breakthrough,
-- 8 rows and 8 columns): each player starts with two full rows of pawns, Black (OpenSpiel's b,
-- player 1) on ranks 7-8 moving down and moving first, White (w) on ranks 1-2 moving up.  A pawn
-- moves one square forward, straight or diagonally, into an empty square, or captures an enemy
-- pawn diagonally forward (never straight ahead).  Reaching the far rank wins at once, and so
-- does capturing every enemy pawn.  Someone always has a move and there are no draws.  22 first
-- moves: the eight front pawns each go straight or to either side, less the board's two edges.
--
-- Written for speed (nomv bench compares it with OpenSpiel and Ludii).  play() must copy the
-- state, so the state is one list of twelve numbers, one small table a move: whose turn it is,
-- the winner and how they won, each player's pawns left, the board packed by nomv.packed (each
-- square a 2-bit digit: 0 empty, 1 Black, 2 White, 26 to a number), and each player's list of
-- pawn squares, kept up to date by play (6-bit digits, 8 to a number).  A random move draws one
-- of the player's pawns and a direction until that is a legal move: uniform over the legal
-- moves, without listing them, in about two draws.

local floor = math.floor
local g = nomv.grid.square(8, 8)                     -- a1..h8, rank 1 at the bottom
local NAMES = {{en = "Black", it = "Nero"}, {en = "White", it = "Bianco"}}
local FILL = {"#202020", "#f4f4f4"}

-- The state's slots: whose turn it is; the winner (0 while the game runs) and how (1 the far
-- rank, 2 the last capture); LEFT + p: player p's pawns left; the board from slot BOARD on
-- (layout L); after it the pawn lists (layout PAWNS): cells 16(p-1) + 1 .. 16(p-1) + s[LEFT + p]
-- hold player p's pawn squares, each as its index minus one (0..63 fits six bits).
local TO_MOVE, WINNER, HOW, LEFT, BOARD = 1, 2, 3, 3, 6
local L = nomv.packed(g.n, 2, BOARD)
local PAWNS = nomv.packed(32, 6, L.last + 1)

-- The three forward directions of each player, diagonals first and last (as OpenSpiel orders
-- them): Black moves towards rank 1.
local FORWARD = {{g.dir.sw, g.dir.s, g.dir.se}, {g.dir.nw, g.dir.n, g.dir.ne}}
local FAR_RANK = {1, 8}

-- MOVE[p][(d - 1) * 64 + i]: player p's move from square i in its d-th forward direction, built
-- once and shared (playouts allocate no moves), or false where it would leave the board; its
-- `captures` says whether it may take a pawn (diagonal moves only).  WINS[p][j]: 1 if a pawn
-- of p arriving on j wins.
local MOVE, WINS = {{}, {}}, {{}, {}}
for p = 1, 2 do
  for d = 1, 3 do
    for i = 1, g.n do
      local j = g.step[FORWARD[p][d]][i]
      MOVE[p][(d - 1) * 64 + i] = j and {g.ids[i], g.ids[j], from = i, to = j, captures = d ~= 2}
                                  or false
    end
  end
  for j = 1, g.n do WINS[p][j] = g.rank[j] == FAR_RANK[p] and 1 or 0 end
end

-- Whether m (an entry of MOVE[p]) is a legal move of player p in state s.
local function legal(s, p, m)
  if not m or L:get(s, m.from) ~= p then return false end
  local t = L:get(s, m.to)
  return t == 0 or (m.captures and t == 3 - p)
end

-- Where the pawn on square i stands in player p's list, for play(s, m).  random_move has just
-- found it when it drew m for s (as in a random game), and leaves a hint; otherwise, a search.
-- The hint names the state and the move it is for, so the answer is the same either way.
local hint_state, hint_move, hint_entry
local function entry_of(s, m, p, i)
  if s == hint_state and m == hint_move then return hint_entry end
  local first = 16 * (p - 1) + 1
  for k = first, first + s[LEFT + p] - 1 do
    if PAWNS:get(s, k) == i - 1 then return k end
  end
end

local WIN = {{winner = 1, reason = {en = "reached rank 1", it = "ha raggiunto la riga 1"}},
             {winner = 2, reason = {en = "reached rank 8", it = "ha raggiunto la riga 8"}}}
local WIPED = {{winner = 1, reason = {en = "captured every White pawn", it = "ha catturato tutti i pedoni bianchi"}},
               {winner = 2, reason = {en = "captured every Black pawn", it = "ha catturato tutti i pedoni neri"}}}

local function locate(s, m)
  if m.from then return m.from, m.to end
  return g.index[m[1]], g.index[m[2]]
end

return {
  name = "breakthrough",
  title = "Breakthrough",
  info = {author = "Dan Troyka", source = "OpenSpiel breakthrough (8x8)",
          rules = {en = "Move a pawn one square forward, straight or diagonally, to an empty square, "
                        .. "or capture diagonally forward. Reach the far rank, or capture every enemy "
                        .. "pawn, to win.",
                   it = "Muovi un pedone di una casella in avanti, dritto o in diagonale, su una "
                        .. "casella vuota, oppure cattura in diagonale in avanti. Vince chi raggiunge "
                        .. "l'ultima riga, o cattura tutti i pedoni avversari."}},
  players = {min = 2, max = 2, names = NAMES, colours = FILL},
  grid = g,

  setup = function(opts, rng)
    local s = PAWNS:clear(L:clear({[TO_MOVE] = 1, [WINNER] = 0, [HOW] = 0, [LEFT + 1] = 16,
                                   [LEFT + 2] = 16}))
    local listed = {0, 0}
    for i = 1, g.n do
      local r = g.rank[i]
      local p = r >= 7 and 1 or (r <= 2 and 2 or 0)
      L:set(s, i, p)
      if p > 0 then
        listed[p] = listed[p] + 1
        PAWNS:set(s, 16 * (p - 1) + listed[p], i - 1)
      end
    end
    return s
  end,

  to_move = function(s)
    return s[TO_MOVE]
  end,

  moves = function(s)
    local p, out = s[TO_MOVE], {}
    for i = 1, g.n do
      if L:get(s, i) == p then
        for d = 1, 3 do
          local m = MOVE[p][(d - 1) * 64 + i]
          if legal(s, p, m) then out[#out + 1] = m end
        end
      end
    end
    return out
  end,

  -- Uniform over the legal moves: draw one of the player's pawns and one of its three
  -- directions (3 x pawns equally likely pairs) until that is a legal move.
  -- The first two draws are written out rather than looped: LuaJIT compiles each as a branch
  -- of the ply's own code, where a loop that runs a different number of times at every ply is a
  -- trace of its own to enter and leave (the same draws either way).
  random_move = function(s, rng)
    local p = s[TO_MOVE]
    local moves, first, choices = MOVE[p], 16 * (p - 1) + 1, 3 * s[LEFT + p]
    local x = rng:int(choices) - 1
    local k = floor(x / 3)                            -- the pawn's place in the list
    local m = moves[(x - 3 * k) * 64 + PAWNS:get(s, first + k) + 1]
    if legal(s, p, m) then
      hint_state, hint_move, hint_entry = s, m, first + k
      return m
    end
    x = rng:int(choices) - 1
    k = floor(x / 3)
    m = moves[(x - 3 * k) * 64 + PAWNS:get(s, first + k) + 1]
    if legal(s, p, m) then
      hint_state, hint_move, hint_entry = s, m, first + k
      return m
    end
    while true do
      x = rng:int(choices) - 1
      k = floor(x / 3)
      m = moves[(x - 3 * k) * 64 + PAWNS:get(s, first + k) + 1]
      if legal(s, p, m) then
        hint_state, hint_move, hint_entry = s, m, first + k
        return m
      end
    end
  end,

  play = function(s, m)
    local p = s[TO_MOVE]
    local new = PAWNS:copy(s)                           -- every slot, the lists the last
    new[TO_MOVE] = 3 - p
    local i, j = locate(s, m)
    local t = L:get(s, j)                               -- 0, or the enemy's pawn taken
    L:set(new, i, 0)
    L:set(new, j, p)
    -- The pawn's entry in its list now says j; a pawn taken leaves its list, whose last entry
    -- fills the gap.
    PAWNS:set(new, entry_of(s, m, p, i), j - 1)
    if t ~= 0 then
      local left = s[LEFT + t]
      local first = 16 * (t - 1) + 1
      for k = first, first + left - 1 do
        if PAWNS:get(s, k) == j - 1 then PAWNS:set(new, k, PAWNS:get(s, first + left - 1)); break end
      end
      new[LEFT + t] = left - 1
    end
    if WINS[p][j] == 1 then new[WINNER], new[HOW] = p, 1
    elseif new[LEFT + 3 - p] == 0 then new[WINNER], new[HOW] = p, 2 end
    return new
  end,

  result = function(s)
    local p = s[WINNER]
    if p ~= 0 then return (s[HOW] == 1 and WIN or WIPED)[p] end
    return nil
  end,

  -- OpenSpiel's notation: from and to squares run together, with * after a capture: a7b6*.
  notation = function(s, m)
    local i, j = locate(s, m)
    return m[1] .. m[2] .. (L:get(s, j) ~= 0 and "*" or "")
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
      local v = L:get(s, i)
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
    return items
  end,

  -- OpenSpiel's picture: rank 8 first, b and w for the pawns.
  text = function(s)
    local lines = {}
    for r = 8, 1, -1 do
      local row = {tostring(r)}
      for f = 1, 8 do row[#row + 1] = ({[0] = ".", "b", "w"})[L:get(s, (r - 1) * 8 + f)] end
      lines[#lines + 1] = table.concat(row)
    end
    lines[#lines + 1] = " abcdefgh"
    return table.concat(lines, "\n")
  end,
}
