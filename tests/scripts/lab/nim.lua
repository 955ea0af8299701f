-- Nim: take one or more from one heap; who takes the last wins.  From heaps 1, 3, 5, 7 the
-- second player wins with perfect play; weaker players err.
local function parse(text)
  local heaps = {}
  for n in string.gmatch(text, "%d+") do heaps[#heaps + 1] = tonumber(n) end
  return heaps
end
return {
  name = "nim",
  players = {min = 2, max = 2},
  options = {heaps = {default = "1 3 5 7", help = "the heaps' sizes"}},
  setup = function(opts, rng) return {to_move = 1, heaps = parse(opts.heaps)} end,
  moves = function(s)
    local out = {}
    for h, n in ipairs(s.heaps) do
      for k = 1, n do out[#out + 1] = {"h" .. h, "t" .. k} end
    end
    return out
  end,
  play = function(s, m)
    local heaps = nomv.copy(s.heaps)
    local h, k = tonumber(m[1]:sub(2)), tonumber(m[2]:sub(2))
    heaps[h] = heaps[h] - k
    return {to_move = 3 - s.to_move, heaps = heaps, last = s.to_move}
  end,
  result = function(s)
    for _, n in ipairs(s.heaps) do if n > 0 then return nil end end
    return {winner = s.last}
  end,
}
