-- The Game of the Amazons on 10x10, written plainly, as docs/tutorial.md and docs/script-api.md
-- teach: a board as a list of 100 numbers, and nothing tuned for speed.  With `nomv bench
-- --compare openspiel` it is the yardstick of how fast a plain script with long moves plays
-- (against OpenSpiel's amazons).
--
-- Rules (OpenSpiel's amazons): White (player 1: a4 d1 g1 j4) moves first, then Black (a7 d10
-- g10 j7).  A move has three steps, entered by three clicks: one of your amazons, the empty cell
-- it moves to like a chess queen (any distance along a line, over empty cells only), and the
-- empty cell it then shoots an arrow to, again like a queen, from where it landed (the cell it
-- left is empty now).  The arrow stays for good.  A player who cannot move loses.
-- Perft from the start: 2176, 4307152.

local g = nomv.grid.square(10, 10, {adjacency = 8})   -- ids a1..j10, eight directions
local EMPTY, WHITE, BLACK, ARROW = 0, 1, 2, 3

-- The ids of the cells a queen on i reaches, in a new list; `left` (the cell the amazon came
-- from, or nil) counts as empty.
local function reach(board, i, left)
  local out = {}
  for d = 1, #g.dirs do
    for _, j in ipairs(g.rays[d][i]) do
      if board[j] ~= EMPTY and j ~= left then break end
      out[#out + 1] = g.ids[j]
    end
  end
  return out
end

local NAMES = {{en = "White", it = "Bianco"}, {en = "Black", it = "Nero"}}

return {
  name = "amazons",
  title = {en = "Amazons", it = "Amazzoni"},
  info = {source = "OpenSpiel amazons",
          rules = {en = "Move one of your amazons like a queen, then shoot an arrow like a queen from "
                        .. "where it landed: three clicks. Arrows block for good. Who cannot move loses.",
                   it = "Muovi una delle tue amazzoni come una regina, poi tira una freccia come una "
                        .. "regina da dove è arrivata: tre clic. Le frecce bloccano per sempre. Chi non "
                        .. "può muovere perde."}},
  players = {min = 2, max = 2, names = NAMES, colours = {"#f4f4f4", "#202020"}},

  setup = function(opts, rng)
    local board = {}
    for i = 1, g.n do board[i] = EMPTY end
    for _, id in ipairs({"a4", "d1", "g1", "j4"}) do board[g:at(id)] = WHITE end
    for _, id in ipairs({"a7", "d10", "g10", "j7"}) do board[g:at(id)] = BLACK end
    return {board = board, to_move = WHITE}
  end,

  -- A move step by step: one of your amazons, then where it goes, then where its arrow lands;
  -- nil once the three are chosen.  nomv lists the moves, draws random ones and takes clicks
  -- from this alone.
  -- A queen reaches at most 35 cells of a 10x10 board (from a centre cell), and every move has
  -- three steps: with this promise a random game draws its move from a few lists of arrows
  -- instead of every one (script-api.md, "Moves step by step").
  most_next_steps = 35,

  steps = function(s, m)
    if #m == 0 then
      local mine = {}
      for i = 1, g.n do
        if s.board[i] == s.to_move then mine[#mine + 1] = g.ids[i] end
      end
      return mine
    elseif #m == 1 then
      return reach(s.board, g:at(m[1]))
    elseif #m == 2 then
      return reach(s.board, g:at(m[2]), g:at(m[1]))
    end
    return nil
  end,

  play = function(s, m)
    local board = nomv.copy_list(s.board)
    board[g:at(m[1])] = EMPTY
    board[g:at(m[2])] = s.to_move
    board[g:at(m[3])] = ARROW
    return {board = board, to_move = 3 - s.to_move}
  end,

  -- nomv.has_move(s): whether the player to move has a move (nomv stops at the first it finds).
  result = function(s)
    if not nomv.has_move(s) then return {winner = 3 - s.to_move} end
    return nil
  end,

  grid = g,
  pieces = {{fill = "#f4f4f4"}, {fill = "#202020"},
            {fill = "#b5651d", stroke = "#6b3a10"}},
}
