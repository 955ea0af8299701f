-- expect: E100 11
-- says: undefined variable 'EMPTTY' (did you mean 'EMPTY'?)
-- a misspelled local of the main chunk, which the function never captured (so it is not in
-- scope when the error happens): the suggestion comes from the names the script declares
local g = nomv.grid.square(3, 1)
local EMPTY = 0
return {
  name = "bad",
  setup = function(opts, rng) return {board = {0, 0, 0}, to_move = 1} end,
  moves = function(s)
    local out = {} for i = 1, 3 do if s.board[i] == EMPTTY then out[#out + 1] = {g.ids[i]} end end  -- <- E100
    return out
  end,
  play = function(s, m)
    local b = nomv.copy(s.board)
    b[g:at(m[1])] = s.to_move
    return {board = b, to_move = 3 - s.to_move}
  end,
  result = function(s)
    for i = 1, 3 do if s.board[i] == 0 then return nil end end
    return {winner = 1}
  end,
}
