-- A game that hangs in one game of about nine: playing "c" twice in a row loops forever.
return {
  name = "hangs",
  players = {min = 2, max = 2},
  setup = function(opts, rng) return {to_move = 1, n = 0, last = ""} end,
  moves = function(s) return {{"a"}, {"b"}, {"c"}} end,
  play = function(s, m)
    if s.n == 1 and m[1] == "c" and s.last == "c" then
      local x = 0
      while true do x = x + 1 end
    end
    return {to_move = 3 - s.to_move, n = s.n + 1, last = m[1]}
  end,
  result = function(s)
    if s.n >= 2 then return {winner = 2} end
  end,
}
