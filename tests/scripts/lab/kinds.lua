-- Kinds of moves: three cells in a row, and moves of every sort a script writes (one place, two,
-- a place then a named item, a named step, a label, places then a button), all legal until six
-- moves are made.  The lab must name each kind the same way whatever the cells.
local g = nomv.grid.square(3, 1)
local MOVES = {
  {"a1"}, {"b1"}, {"a1", "b1"}, {"b1", "c1"}, {"a1", "rotate:1"}, {"c1", "rotate:3"}, {"pass"},
  {"c1", label = "drop"}, {"a1", "c1", "done"},
}
return {
  name = "kinds",
  players = {min = 2, max = 2},
  grid = g,
  setup = function(opts, rng) return {to_move = 1, board = {0, 0, 0}, made = 0} end,
  moves = function(s) return MOVES end,
  play = function(s, m) return {to_move = 3 - s.to_move, board = s.board, made = s.made + 1} end,
  result = function(s)
    if s.made == 6 then return {draw = true} end
  end,
}
