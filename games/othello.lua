-- Othello (Reversi) on 8x8, written plainly, as docs/tutorial.md and docs/script-api.md teach:
-- a board as a list of 64 numbers, and nothing tuned for speed.  With `nomv bench --compare
-- openspiel` it is the yardstick of how fast a plain script plays (against OpenSpiel's othello).
--
-- Rules (OpenSpiel's othello): Black (player 1) moves first, from d4 white, e4 black, d5 black,
-- e5 white.  A player places a disc on an empty cell so that, in at least one of the eight
-- directions, a line of the opponent's discs runs from it to one of the player's own: every
-- such line is flipped.  A player who cannot place passes (the move "pass"); a player who can
-- place may not pass.  The game ends when neither player can place; more discs wins, equal is a
-- draw.  Perft from the start: 4, 12, 56, 244, 1396, 8200, 55092, 390216.

local g = nomv.grid.square(8, 8, {adjacency = 8})   -- ids a1..h8, eight directions
local EMPTY, BLACK, WHITE = 0, 1, 2

-- The cells that a disc of `me` placed on empty cell i flips, in a new list.
local function flips(board, i, me)
  local out = {}
  for d = 1, #g.dirs do
    local ray = g.rays[d][i]                         -- the cells from i to the edge
    local n = 0
    while ray[n + 1] and board[ray[n + 1]] == 3 - me do n = n + 1 end
    if n > 0 and ray[n + 1] and board[ray[n + 1]] == me then
      for k = 1, n do out[#out + 1] = ray[k] end
    end
  end
  return out
end

-- Whether a disc of `me` on empty cell i flips anything (counting, not collecting: it stops at
-- the first line found).
local function flips_any(board, i, me)
  for d = 1, #g.dirs do
    local ray = g.rays[d][i]
    local n = 0
    while ray[n + 1] and board[ray[n + 1]] == 3 - me do n = n + 1 end
    if n > 0 and ray[n + 1] and board[ray[n + 1]] == me then return true end
  end
  return false
end

local function can_place(board, me)
  for i = 1, g.n do
    if board[i] == EMPTY and flips_any(board, i, me) then return true end
  end
  return false
end

local function count(board, who)
  local n = 0
  for i = 1, g.n do if board[i] == who then n = n + 1 end end
  return n
end

local NAMES = {{en = "Black", it = "Nero"}, {en = "White", it = "Bianco"}}

return {
  name = "othello",
  title = "Othello",
  info = {source = "OpenSpiel othello",
          rules = {en = "Place a disc so that it closes lines of the other colour between it and one "
                        .. "of yours: they turn to your colour. Pass only when you cannot place. Most "
                        .. "discs wins.",
                   it = "Metti un disco in modo che chiuda linee dell'altro colore tra esso e uno dei "
                        .. "tuoi: diventano del tuo colore. Passa solo quando non puoi mettere. Vince "
                        .. "chi ha più dischi."}},
  players = {min = 2, max = 2, names = NAMES, colours = {"#202020", "#f4f4f4"}},

  setup = function(opts, rng)
    local board = {}
    for i = 1, g.n do board[i] = EMPTY end
    board[g:at("d4")], board[g:at("e5")] = WHITE, WHITE
    board[g:at("e4")], board[g:at("d5")] = BLACK, BLACK
    return {board = board, to_move = BLACK}
  end,

  moves = function(s)
    local out = {}
    for i = 1, g.n do
      if s.board[i] == EMPTY and flips_any(s.board, i, s.to_move) then out[#out + 1] = {g.ids[i]} end
    end
    if #out == 0 then out[1] = {"pass", label = "Pass"} end
    return out
  end,

  play = function(s, m)
    if m[1] == "pass" then return {board = s.board, to_move = 3 - s.to_move} end
    local board = nomv.copy(s.board)
    local i = g:at(m[1])
    board[i] = s.to_move
    for _, j in ipairs(flips(s.board, i, s.to_move)) do board[j] = s.to_move end
    return {board = board, to_move = 3 - s.to_move}
  end,

  -- The game goes on while the player to move can place (nomv.legal: the moves listed once),
  -- or, when they must pass, while the other player can.
  result = function(s)
    if nomv.legal(s)[1][1] ~= "pass" then return nil end
    if can_place(s.board, 3 - s.to_move) then return nil end
    local black, white = count(s.board, BLACK), count(s.board, WHITE)
    if black == white then return {draw = true, scores = {black, white}} end
    return {winner = black > white and BLACK or WHITE, scores = {black, white}}
  end,

  scene = function(s)
    local items = g:scene({fill = "#2e8b57", stroke = "#1b5e3a"})
    for i = 1, g.n do
      if s.board[i] ~= EMPTY then
        items[#items + 1] = g:piece(i, s.board[i] == BLACK and "#202020" or "#f4f4f4")
      end
    end
    local black, white = count(s.board, BLACK), count(s.board, WHITE)
    items.status = {en = string.format("Black %d, White %d", black, white),
                    it = string.format("Nero %d, Bianco %d", black, white)}
    return items
  end,
}
