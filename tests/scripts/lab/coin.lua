-- A coin: the first player tosses (the only move), heads (chance `bias`) wins for them, tails for
-- the other.  Pure chance: no move ever matters.
return {
  name = "coin",
  players = {min = 2, max = 2},
  options = {bias = {default = 50, min = 0, max = 100, help = "percent of heads"}},
  setup = function(opts, rng) return {to_move = 1, bias = opts.bias} end,
  moves = function(s) return {{"toss"}} end,
  play = function(s, m, rng)
    return {to_move = 2, winner = rng:chance(s.bias / 100) and 1 or 2, bias = s.bias}
  end,
  result = function(s)
    if s.winner then return {winner = s.winner} end
  end,
}
