-- Never ends: a switch turned on or off, forever.  Its positions (the switch, the player to
-- move) are four, so nearly every position repeats an earlier one.
return {
  name = "endless",
  players = {min = 2, max = 2},
  setup = function(opts, rng) return {to_move = 1, on = false} end,
  moves = function(s) return {{"on"}, {"off"}} end,
  play = function(s, m) return {to_move = 3 - s.to_move, on = m[1] == "on"} end,
  result = function(s) return nil end,
}
