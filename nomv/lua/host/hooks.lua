-- Calling the game's hooks with the host's checks of what they return.  Each check lives here
-- once and serves every request, the checker's requests and the search (nomv/lua/search.lua).
-- A broken contract is raised with its checker code (docs/checker.md).
local H, P = ...

local type, floor = type, math.floor
local format = string.format
local contract, describe = P.contract, P.describe

local G  -- the game table
P.on_game(function(game) G = game end)
function P.game() return G end

local function need(name)
  local f = G[name]
  if type(f) ~= "function" then contract("E010", format("the game has no %s function", name)) end
  return f
end
P.need = need

-- setup() and play() with a generator for their chance, checking what they return.
function P.setup_with(opts, rng)
  local state = need("setup")(opts, rng)
  if type(state) ~= "table" then
    contract("E040", format("setup must return a table (the state), but it returned %s", describe(state)))
  end
  return state
end

function P.play_with(state, mv, rng)
  local new = G.play(state, mv, rng)
  if type(new) ~= "table" then
    contract("E041", format("play must return the next state (a table), but it returned %s", describe(new)))
  end
  return new
end
local play_with = P.play_with

function P.new_state(opts, rng)
  local state = P.setup_with(opts, rng)
  state._rng = rng:save()
  return state
end

-- How many plays drew from their rng: a search must not foresee chance (nomv/lua/search.lua).
local chance_plays = 0
function P.chance_plays() return chance_plays end

-- play() outside a loop: its chance comes from the state's own generator position (_rng), which
-- the new state carries on.
local game_rng   -- one reusable generator for chance inside play(), from init
function P.do_play(state, mv)
  game_rng = game_rng or P.game_rng
  game_rng:load(state._rng)
  local new = play_with(state, mv, game_rng)
  if game_rng.used then new._rng = game_rng:save(); chance_plays = chance_plays + 1
  elseif new._rng == nil then new._rng = state._rng end
  return new
end

function P.who_moves(state)
  if G.to_move then return G.to_move(state) end
  return state.to_move
end
local who_moves = P.who_moves

-- The player to move, or nil (the game is over).
function P.checked_mover(state, np)
  local p = who_moves(state)
  if p ~= nil and (type(p) ~= "number" or p ~= floor(p) or p < 1 or p > np) then
    contract("E063", format("to_move must be a player number from 1 to %d, got %s", np, describe(p)))
  end
  return p
end

function P.checked_view(state, player)
  local v = G.view(state, player)
  if type(v) ~= "table" then contract("E055", format("view must return a state (a table), got %s", describe(v))) end
  return v
end

function P.checked_determinize(view, player, rng)
  local d = G.determinize(view, player, rng)
  if type(d) ~= "table" then contract("E056", format("determinize must return a state (a table), got %s", describe(d))) end
  return d
end

function P.checked_evaluate(state, player)
  local v = G.evaluate(state, player)
  if type(v) ~= "number" or v ~= v or v < 0 or v > 1 then
    contract("E058", format("evaluate must return a number from 0 (lost) to 1 (won) for player %d, got %s", player, describe(v)))
  end
  return v
end
