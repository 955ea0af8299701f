-- expect: E056 22
-- determinize forgets to keep the player's own secret: the player would notice
return {
  name = "bad",
  players = 2,
  setup = function(opts, rng) return {secret = {rng:int(3), rng:int(3)}, guesses = 0, to_move = 1} end,
  moves = function(s) return {{"1"}, {"2"}, {"3"}} end,
  play = function(s, m)
    return {secret = s.secret, guesses = s.guesses + 1, last = tonumber(m[1]), to_move = 3 - s.to_move}
  end,
  result = function(s)
    if s.last and s.last == s.secret[3 - s.to_move] then return {winner = 3 - s.to_move} end
    if s.guesses >= 6 then return {draw = true} end
  end,
  -- each player knows only their own secret
  view = function(s, p)
    local v = nomv.shallow(s)
    v.secret = {0, 0}
    v.secret[p] = s.secret[p]
    return v
  end,
  determinize = function(v, p, rng)  -- <- E056
    local d = nomv.shallow(v)
    d.secret = {rng:int(3), rng:int(3)}
    return d
  end,
  text = function(s) return "guesses: " .. s.guesses end,
  scene = function(s)
    return {{id = "1", shape = "circle", x = 0, y = 0, r = 0.4}, {id = "2", shape = "circle", x = 1, y = 0, r = 0.4},
            {id = "3", shape = "circle", x = 2, y = 0, r = 0.4}}
  end,
}
