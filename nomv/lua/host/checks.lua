-- For `nomv check` (nomv/checker): its fast tier, random games played inside Lua with the cheap
-- checks at every ply, and the line behind a state that play() changed (E060).  Nothing else
-- depends on this part, and the random playouts of loops.lua do not go through it.
--
-- The checker spends its time budget in two tiers.  A game checked ply by ply from Python
-- (states dumped and compared, every move listed, notations, scenes, ...) costs some 70 random
-- games, so the rest of the budget goes to these: per ply the result's shape, the player to
-- move, a move while the game runs (no dead end), a random move that is legal and well-formed,
-- and an end within the ply limit.  A mistake they find is then replayed ply by ply from the
-- game's seed and moves (check_trail), so that it is reported as the full checks word it.
local H, P = ...

local type, rawequal, pcall = type, rawequal, pcall
local format = string.format
local guarded, to_json, contract, describe = P.guarded, P.to_json, P.contract, P.describe
local set_hook, need, setup_with, play_with = P.set_hook, P.need, P.setup_with, P.play_with
local checked_mover, rank_of = P.checked_mover, P.rank_of
local legal, check_move, move_key, encode_move = P.legal, P.check_move, P.move_key, P.encode_move
local has_steps, steps_have_move, random_move_from_steps = P.has_steps, P.steps_have_move, P.random_move_from_steps
local start_periods, new_period, dead_end = P.start_periods, P.new_period, P.dead_end
local huge = math.huge
local clock = os.clock

local G
P.on_game(function(game) G = game end)

-- The game being played and its moves so far (the last may be the move whose play failed): what
-- check_trail gives back after an error.
local trail, trail_n, trail_game, trail_ply = {}, 0, 0, 0
local trail_seed = {0, 0, 0, 0, 0, 0}

-- Whether the whole move mv is one that steps() describes (a step at a time, then nil).
local function steps_allow(state, mv)
  if mv.any_order then return true end       -- (its steps may come in any order: not walked)
  local steps, partial = G.steps, {}
  for k = 1, #mv do
    local nexts = steps(state, partial)
    if type(nexts) ~= "table" then return false end
    local found = false
    for j = 1, #nexts do if nexts[j] == mv[k] then found = true; break end end
    if not found then return false end
    partial[k] = mv[k]
  end
  return steps(state, partial) == nil
end

local function legal_in(ms, mv)
  for i = 1, #ms do if rawequal(ms[i], mv) then return true end end
  local key = move_key(mv)
  for i = 1, #ms do if move_key(ms[i]) == key then return true end end
  return false
end

local function shown(mv)
  local ok, text = pcall(P.default_notation, mv)
  return ok and describe(text) or "a move"
end

-- The random move of a running game, checked: the game's own random_move (after making sure a
-- move exists: a dead end is reported as one, not as random_move failing), legal and
-- well-formed; else a move drawn from steps() or from the list moves() gives.
local function checked_random_move(state, rng)
  local own = G.random_move
  if own then
    local ms = nil
    if G.moves ~= nil or not has_steps() then
      set_hook("moves")
      ms = legal(state)
      if #ms == 0 then dead_end() end
    else
      set_hook("steps")
      if not steps_have_move(state) then dead_end() end
    end
    set_hook("random_move")
    local mv = own(state, rng)
    if type(mv) ~= "table" or #mv == 0 then
      contract("E070", format("random_move must return a move (a list of steps), got %s", describe(mv)))
    end
    local ok
    if ms then ok = legal_in(ms, mv) else set_hook("steps"); ok = steps_allow(state, mv) end
    if not ok then
      contract("E070", format("random_move returned %s, which is not a legal move", shown(mv)), "random_move")
    end
    return mv
  end
  if has_steps() then
    set_hook("steps")
    local mv = random_move_from_steps(state, rng)
    if mv == nil then dead_end() end
    return mv
  end
  set_hook("moves")
  local ms = legal(state)
  local n = #ms
  if n == 0 then dead_end() end
  local i = rng:int(n)
  local mv = ms[i]
  check_move(mv, i, state)
  return mv
end

-- n random games of the options; their figures, like a playout's.  Game k's setup and chance
-- draw from one generator reseeded from `master` (its six numbers are kept: the game's seed),
-- its moves from `master` itself, as in loops.lua's random games.
local function checked_games(opts, seed, n, np, max_plies)
  local Rng = P.Rng
  local master, chance = Rng.new(seed), Rng.new(seed)
  local wins, draws, lost, total, longest, shortest = {}, 0, 0, 0, 0, huge
  for p = 1, np do wins[p] = 0 end
  local result = need("result")
  need("setup"); need("play")
  local ranks = {}
  local began = clock()
  start_periods()
  for game = 1, n do
    new_period()
    chance:reseed(master)
    for i = 1, 6 do trail_seed[i] = chance[i] end
    trail_game, trail_n, trail_ply = game, 0, 0
    set_hook("setup")
    local state = setup_with(opts, chance)
    local plies, winner, firsts = 0, nil, 0
    while true do
      -- Each ply gets the time limit afresh, as a request would: a game traced for coverage
      -- runs several times slower, and its whole may take longer than one call may.
      new_period()
      set_hook("result")
      local res = result(state)
      if res ~= nil and res ~= false then
        winner, firsts = rank_of(state, res, np, ranks)     -- (and its reason)
        break
      end
      if plies >= max_plies then
        contract("E062", format("a random game did not end within %d plies; result never returned a result",
                                max_plies), "result")
      end
      set_hook("to_move")
      if checked_mover(state, np) == nil then
        contract("E063", G.to_move and "to_move returned nil while the game runs (result returned no result)"
          or "the player to move is nil while the game runs (state.to_move is not set, and there is no to_move function)")
      end
      local mv = checked_random_move(state, master)
      trail_n = plies + 1
      trail[trail_n] = mv
      set_hook("play")
      state = play_with(state, mv, chance)
      plies = plies + 1
      trail_ply = plies
    end
    total = total + plies
    if plies > longest then longest = plies end
    if plies < shortest then shortest = plies end
    if winner then wins[winner] = wins[winner] + 1
    elseif firsts > 1 then draws = draws + 1
    else lost = lost + 1 end
  end
  for i = trail_n + 1, #trail do trail[i] = nil end
  return {games = n, plies = total, longest = longest, shortest = n > 0 and shortest or 0,
          wins = wins, draws = draws, lost = lost, unfinished = 0, seconds = clock() - began}
end

-- n fast checked random games; their figures as JSON, or the first mistake's error (then
-- check_trail says which game and ply).
function H.check_games(opts, seed, n, np, max_plies)
  return guarded("check_games", function()
    return to_json(checked_games(opts, seed, n, np, max_plies))
  end)
end

-- The game the last check_games was playing: {game, ply, seed, moves}: its number in the batch,
-- the plies it had played, the seed of its setup and chance, and its moves as H.moves gives
-- them (one more than `ply` when the error came while playing the last).
function H.check_trail()
  return guarded("check_games", function()
    local moves = {}
    for i = 1, trail_n do
      local ok, m = pcall(encode_move, trail[i])
      if not ok or type(m) ~= "table" then break end
      moves[i] = m
    end
    return to_json({game = trail_game, ply = trail_ply, moves = moves,
                    seed = {trail_seed[1], trail_seed[2], trail_seed[3], trail_seed[4], trail_seed[5], trail_seed[6]}})
  end)
end

-- E060: the line behind a change that play(state, move number index) makes to its state (see
-- blame.lua's blame_mutation), as JSON, or nil.  It plays the move again on this state, with a
-- generator at the state's own position.
function H.play_changed_at(state, index)
  return guarded("play", function()
    local mv = P.cached_moves(state)[index]
    if mv == nil then return nil end
    local rng = P.Rng.new(type(state._rng) == "table" and state._rng or {1, 1, 1, 1, 1, 1})
    local found = P.blame_mutation(G.play, state, "state", state, mv, rng)
    return found and to_json(found, "blame") or nil
  end)
end
