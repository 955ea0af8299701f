-- The end of a game: checking what result() returned, and ranking the players by it.
local H, P = ...

local type, floor = type, math.floor
local format = string.format
local contract, describe = P.contract, P.describe

-- A function of its own, not a closure inside rank(): LuaJIT cannot compile the creation of a
-- closure, and rank() runs at the end of every random playout.
local function valid_player(p, what, np)
  if type(p) ~= "number" or p ~= floor(p) or p < 1 or p > np then
    contract("E053", format("result: %s must be a player number from 1 to %d, got %s", what, np, describe(p)))
  end
end

-- Checks a table from result() and fills ranks[1..np] from it; returns the winner (nil unless
-- exactly one player ranks first) and how many players rank first.  It allocates nothing, so a
-- playout can tally its games with one scratch table.
function P.rank(res, np, ranks)
  if type(res) ~= "table" then
    contract("E053", format("result must return nil or a table like {winner=1}, {draw=true} or {scores={...}}, not %s", describe(res)))
  end
  local scores, given_ranks, given_winner = res.scores, res.ranks, res.winner
  if scores ~= nil then
    if type(scores) ~= "table" or #scores ~= np then
      contract("E053", format("result: scores must be a list of %d numbers, one per player", np))
    end
    for p = 1, np do
      if type(scores[p]) ~= "number" then contract("E053", format("result: scores[%d] is %s, not a number", p, describe(scores[p]))) end
    end
  end
  if given_ranks ~= nil then
    if type(given_ranks) ~= "table" or #given_ranks ~= np then contract("E053", format("result: ranks must be a list of %d numbers", np)) end
    for p = 1, np do
      local r = given_ranks[p]
      if type(r) ~= "number" or r ~= floor(r) or r < 1 or r > 1e6 then
        contract("E053", format("result: ranks[%d] is %s; a rank is a whole number, 1 for the best", p, describe(r)))
      end
      ranks[p] = r
    end
  elseif given_winner ~= nil then
    valid_player(given_winner, "winner", np)
    for p = 1, np do ranks[p] = p == given_winner and 1 or 2 end
  elseif res.draw then
    for p = 1, np do ranks[p] = 1 end
  elseif scores ~= nil then
    for p = 1, np do
      local better = 0
      for q = 1, np do if scores[q] > scores[p] then better = better + 1 end end
      ranks[p] = better + 1
    end
  else
    contract("E053", "result returned a table without winner, draw, scores or ranks")
  end
  local winner, firsts = nil, 0
  for p = 1, np do if ranks[p] == 1 then firsts = firsts + 1; winner = p end end
  if firsts ~= 1 then winner = nil end
  if given_winner ~= nil and winner ~= given_winner then contract("E053", "result: winner and ranks disagree") end
  return winner, firsts
end
local rank = P.rank

-- Normalises what result() returned: {winner, ranks, scores, reason} or nil while running.
function P.outcome(res, np)
  if res == nil or res == false then return nil end
  local ranks = {}
  local winner, firsts = rank(res, np, ranks)
  -- shared: several players tie for first (a draw); no one first at all means everyone lost.
  P.check_text(res.reason, "result: reason", "E053")
  return {winner = winner, ranks = ranks, scores = res.scores, reason = res.reason,
          shared = firsts > 1 or nil}
end

-- Whether the game is over in `state` (result() returned an end).
function P.is_over(state)
  local res = P.need("result")(state)
  return res ~= nil and res ~= false
end
