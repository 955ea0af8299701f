-- The end of a game: checking what result() returned, and ranking the players by it.
local H, P = ...

local type, floor, rawequal, pcall, error = type, math.floor, rawequal, pcall, error
local format = string.format
local contract, describe = P.contract, P.describe

local G
P.on_game(function(game) G = game end)

-- The state whose result() gave the table being checked, when a request asks for the result of
-- one position (H.result, the checker's games): a broken result then names the `return` that
-- gave it (blame.lua asks result() again under a line hook), not the line where result()
-- begins.  Random playouts do not say (nothing is kept for them on their hot path).
local asked_state, asked_res, asked_np = nil, nil, nil

-- The line of the `return` that gave res, when result(asked_state) gives a table that breaks
-- the contract the same way (`msg`) a second time; else nil.
local function return_line(res, msg)
  if asked_res == nil or not rawequal(res, asked_res) then return nil end
  local state, np = asked_state, asked_np
  asked_state, asked_res = nil, nil
  local line, again = P.blame_return(G.result, state)
  if line == nil then return nil end
  local ok, e = pcall(P.outcome, again, np)
  if ok or type(e) ~= "table" or e.plain ~= msg then return nil end
  return line
end

local function bad(res, msg)
  local line = return_line(res, msg)
  contract("E053", msg, line and "result" or nil, line)
end

-- A function of its own, not a closure inside rank(): LuaJIT cannot compile the creation of a
-- closure, and rank() runs at the end of every random playout.
local function valid_player(p, what, np, res)
  if type(p) ~= "number" or p ~= floor(p) or p < 1 or p > np then
    bad(res, format("result: %s must be a player number from 1 to %d, got %s", what, np, describe(p)))
  end
end

-- Checks a table from result() and fills ranks[1..np] from it; returns the winner (nil unless
-- exactly one player ranks first) and how many players rank first.  It allocates nothing, so a
-- playout can tally its games with one scratch table.
function P.rank(res, np, ranks)
  if type(res) ~= "table" then
    bad(res, format("result must return nil or a table like {winner=1}, {draw=true} or {scores={...}}, not %s", describe(res)))
  end
  local scores, given_ranks, given_winner = res.scores, res.ranks, res.winner
  if scores ~= nil then
    if type(scores) ~= "table" or #scores ~= np then
      bad(res, format("result: scores must be a list of %d numbers, one per player", np))
    end
    for p = 1, np do
      if type(scores[p]) ~= "number" then bad(res, format("result: scores[%d] is %s, not a number", p, describe(scores[p]))) end
    end
  end
  if given_ranks ~= nil then
    if type(given_ranks) ~= "table" or #given_ranks ~= np then bad(res, format("result: ranks must be a list of %d numbers", np)) end
    for p = 1, np do
      local r = given_ranks[p]
      if type(r) ~= "number" or r ~= floor(r) or r < 1 or r > 1e6 then
        bad(res, format("result: ranks[%d] is %s; a rank is a whole number, 1 for the best", p, describe(r)))
      end
      ranks[p] = r
    end
  elseif given_winner ~= nil then
    valid_player(given_winner, "winner", np, res)
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
    bad(res, "result returned a table without winner, draw, scores or ranks")
  end
  local winner, firsts = nil, 0
  for p = 1, np do if ranks[p] == 1 then firsts = firsts + 1; winner = p end end
  if firsts ~= 1 then winner = nil end
  if given_winner ~= nil and winner ~= given_winner then bad(res, "result: winner and ranks disagree") end
  return winner, firsts
end
local rank = P.rank

-- The reason of a result: a text (P.check_text), named at the `return` when a request asked.
local function check_reason(res)
  if asked_res ~= nil and rawequal(res, asked_res) then
    local ok, e = pcall(P.check_text, res.reason, "result: reason", "E053")
    if not ok then
      if type(e) == "table" and e.code == "E053" then bad(res, e.plain) end
      error(e, 0)
    end
  else
    P.check_text(res.reason, "result: reason", "E053")
  end
end

-- Normalises what result() returned: {winner, ranks, scores, reason} or nil while running.
function P.outcome(res, np)
  if res == nil or res == false then return nil end
  local ranks = {}
  local winner, firsts = rank(res, np, ranks)
  -- shared: several players tie for first (a draw); no one first at all means everyone lost.
  check_reason(res)
  return {winner = winner, ranks = ranks, scores = res.scores, reason = res.reason,
          shared = firsts > 1 or nil}
end

-- The outcome of one position, asked by a request: result(state), checked (a broken result names
-- its `return`, see above).
function P.result_of(state, np)
  local res = P.need("result")(state)
  asked_state, asked_res, asked_np = state, res, np
  local o = P.outcome(res, np)
  asked_state, asked_res = nil, nil
  return o
end

-- rank() of what result(state) returned, for a loop that keeps its states (the checker's fast
-- games): a broken result names its `return` there too.
function P.rank_of(state, res, np, ranks)
  asked_state, asked_res, asked_np = state, res, np
  local winner, firsts = rank(res, np, ranks)
  check_reason(res)
  asked_state, asked_res = nil, nil
  return winner, firsts
end

-- Whether the game is over in `state` (result() returned an end).
function P.is_over(state)
  local res = P.need("result")(state)
  return res ~= nil and res ~= false
end
