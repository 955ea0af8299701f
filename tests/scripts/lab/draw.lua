-- Always drawn: each player places twice (any of three marks), then the game is a draw.
return {
  name = "draw",
  players = {min = 2, max = 2},
  setup = function(opts, rng) return {to_move = 1, n = 0} end,
  moves = function(s) return {{"a"}, {"b"}, {"c"}} end,
  play = function(s, m) return {to_move = 3 - s.to_move, n = s.n + 1} end,
  result = function(s)
    if s.n >= 4 then return {draw = true, reason = "four marks"} end
  end,
}
