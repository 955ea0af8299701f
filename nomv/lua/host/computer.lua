-- Computer players: Monte Carlo tree search (nomv/lua/search.lua), compiled at the first
-- search and given the host's checked ways of calling the game (the kernel K).
local H, P = ...

local error, load = error, load
local clock = os.clock
local guarded, to_json = P.guarded, P.to_json

local Search

local function kernel()
  return {
    game = P.game, clock = clock, arm = P.arm, contract = P.contract, describe = P.describe,
    do_play = P.do_play, play_with = P.play_with, list_moves = P.legal,
    running_moves = P.running_moves, cached_moves = P.cached_moves,
    random_move_of = P.random_move_of, outcome = P.outcome, who_moves = P.who_moves,
    move_key = P.move_key, Rng = P.Rng, mover = P.checked_mover, view = P.checked_view,
    determinize = P.checked_determinize, evaluate = P.checked_evaluate, chance = P.chance_plays,
    dead_end = P.dead_end,
  }
end

-- The search module, compiled at its first use (the lab's games search too: lab.lua).
function P.search_module()
  if Search == nil then
    local f, err = load(P.search_source, "@nomv/search.lua", "t")
    if not f then error(err) end
    Search = f()(kernel())
  end
  return Search
end

function H.search_tree(config)
  return guarded("search", function()
    return P.search_module().new_tree(config)
  end)
end

-- One search from `state` by the tree's player; returns the result as JSON.
function H.search(tree, state, np, history, iterations, seconds)
  return guarded("search", function()
    return to_json(Search.search(tree, state, np, history, iterations, seconds), "search")
  end)
end
