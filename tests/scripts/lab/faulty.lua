-- A game with a mistake: three moves a ply for four plies, and playing "c" at the third ply
-- raises an error (about one game in three).
return {
  name = "faulty",
  players = {min = 2, max = 2},
  setup = function(opts, rng) return {to_move = 1, n = 0} end,
  moves = function(s) return {{"a"}, {"b"}, {"c"}} end,
  play = function(s, m)
    if s.n == 2 and m[1] == "c" then
      local missing = nil
      return missing.field
    end
    return {to_move = 3 - s.to_move, n = s.n + 1}
  end,
  result = function(s)
    if s.n >= 4 then return {winner = 1} end
  end,
}
