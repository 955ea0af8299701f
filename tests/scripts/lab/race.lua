-- A race of three: in turn each player rolls a die and adds it to their score, three rounds;
-- the highest score ranks first (ties share a rank).  Results by scores, with the reason given
-- in two languages: what the lab's lines must carry as they are.
return {
  name = "race",
  players = {min = 3, max = 3},
  setup = function(opts, rng) return {to_move = 1, scores = {0, 0, 0}, turn = 0} end,
  moves = function(s) return {{"roll"}} end,
  play = function(s, m, rng)
    local scores = nomv.copy(s.scores)
    scores[s.to_move] = scores[s.to_move] + rng:int(6)
    return {to_move = s.to_move % 3 + 1, scores = scores, turn = s.turn + 1}
  end,
  result = function(s)
    if s.turn == 9 then return {scores = s.scores, reason = {en = "the highest score", it = "il punteggio più alto"}} end
  end,
}
