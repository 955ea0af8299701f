-- expect: E056 59
-- determinize deals the player's own hand again
-- High card: each player holds three cards from 1 to 9, dealt at random, and plays one a turn,
-- face up; the higher card takes the trick.  Most tricks wins.  Each player sees only their own
-- hand: view hides the other's, determinize deals it again for the computer player.
local CARDS = 9

local function deal(rng)
  local deck = {}
  for c = 1, CARDS do deck[c] = c end
  rng:shuffle(deck)
  return {{deck[1], deck[2], deck[3]}, {deck[4], deck[5], deck[6]}}
end

return {
  name = "highcard",
  title = "High card",
  players = {min = 2, max = 2},

  setup = function(opts, rng)
    return {hands = deal(rng), table = {}, tricks = {0, 0}, to_move = 1}
  end,

  moves = function(s)
    local out = {}
    for _, c in ipairs(s.hands[s.to_move]) do out[#out + 1] = {"card" .. c} end
    return out
  end,

  play = function(s, m)
    local p = s.to_move
    local c = tonumber(m[1]:sub(5))
    local hands = nomv.copy(s.hands)
    for k = #hands[p], 1, -1 do if hands[p][k] == c then table.remove(hands[p], k) end end
    local played = nomv.copy(s.table)
    played[p] = c
    local tricks = nomv.copy(s.tricks)
    if played[1] and played[2] then
      local w = played[1] > played[2] and 1 or 2
      tricks[w] = tricks[w] + 1
      played = {}
    end
    return {hands = hands, table = played, tricks = tricks, to_move = 3 - p}
  end,

  result = function(s)
    if #s.hands[1] > 0 or #s.hands[2] > 0 then return nil end
    if s.tricks[1] == s.tricks[2] then return {draw = true} end
    return {winner = s.tricks[1] > s.tricks[2] and 1 or 2}
  end,

  view = function(s, p)
    local v = nomv.copy(s)
    local other = v.hands[3 - p]
    for k = 1, #other do other[k] = 0 end
    return v
  end,

  determinize = function(v, p, rng)
    local d = nomv.copy(v)
    local seen = {}
    for _, c in ipairs(v.hands[3 - p]) do seen[c] = true end
    for _, c in pairs(v.table) do seen[c] = true end
    local rest = {}
    for c = 1, CARDS do if not seen[c] then rest[#rest + 1] = c end end
    rng:shuffle(rest)
    for k = 1, #d.hands[p] do d.hands[p][k] = rest[k] end
    return d
  end,

  scene = function(s)
    local items = {}
    for p = 1, 2 do
      for k, c in ipairs(s.hands[p]) do
        if c > 0 then   -- (0: a card of the other hand, hidden)
          items[#items + 1] = {id = "card" .. c, shape = "rect", x = k, y = p, w = 0.8, h = 0.8, fill = "white",
                               label = tostring(c)}
        else
          items[#items + 1] = {shape = "rect", x = k, y = p, w = 0.8, h = 0.8, fill = "grey"}
        end
      end
    end
    return items
  end,
}
