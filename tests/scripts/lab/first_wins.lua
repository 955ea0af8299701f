-- The first player always wins: two ways to move, either wins at once.  A rule that can never
-- fire sits in play (its line must show as never run).
return {
  name = "first_wins",
  players = {min = 2, max = 2},
  setup = function(opts, rng) return {to_move = 1, over = false} end,
  moves = function(s) return {{"left"}, {"right"}} end,
  play = function(s, m)
    if s.to_move == 2 then
      error("never: the first move ends the game")
    end
    return {to_move = 2, over = true}
  end,
  result = function(s)
    if s.over then return {winner = 1} end
  end,
}
