-- Loops that stay inside Lua: random playouts (nomv playout, nomv bench, the checker's
-- figures) and perft.  Python crosses into Lua once for a whole loop.
local H, P = ...

local huge = math.huge
local guarded, to_json = P.guarded, P.to_json
local need, setup_with, play_with, rank = P.need, P.setup_with, P.play_with, P.rank
local running_moves, random_move_of, do_play = P.running_moves, P.random_move_of, P.do_play
local arm, start_periods, new_period = P.arm, P.start_periods, P.new_period

-- n random games from the options, each move chosen by choose(state, rng); returns their
-- statistics (a table).
--
-- Game k's setup and chance draw from one generator reseeded from `master` before the game, and
-- its moves from `master` itself.  The loop's states never leave it, so the chance generator
-- simply runs on from ply to ply instead of being saved into each state's `_rng` and loaded
-- back (the same numbers either way: a game replays from its seed and moves).
local function random_games(opts, seed, n, np, max_plies, choose)
  local Rng = P.Rng
  local master, chance = Rng.new(seed), Rng.new(seed)
  local wins, draws, lost, unfinished, total, longest, shortest = {}, 0, 0, 0, 0, 0, huge
  for p = 1, np do wins[p] = 0 end
  local result = need("result")
  need("setup"); need("play")
  local ranks = {}                    -- scratch for rank()
  start_periods()
  for _ = 1, n do
    new_period()
    chance:reseed(master)
    local state = setup_with(opts, chance)
    local plies, over, winner, firsts = 0, false, nil, 0
    while true do
      local res = result(state)
      if res ~= nil and res ~= false then
        over = true
        winner, firsts = rank(res, np, ranks)
        break
      end
      if plies >= max_plies then break end
      state = play_with(state, choose(state, master), chance)
      plies = plies + 1
    end
    total = total + plies
    if plies > longest then longest = plies end
    if plies < shortest then shortest = plies end
    if not over then unfinished = unfinished + 1
    elseif winner then wins[winner] = wins[winner] + 1
    elseif firsts > 1 then draws = draws + 1
    else lost = lost + 1 end          -- nobody ranked first: every player lost (a failed puzzle)
  end
  return {games = n, plies = total, longest = longest, shortest = n > 0 and shortest or 0,
          wins = wins, draws = draws, lost = lost, unfinished = unfinished}
end
P.random_games = random_games      -- (profile.lua times this very loop)

-- n random games (random_move, or a move drawn from moves()); statistics as JSON.
function H.playout(opts, seed, n, np, max_plies)
  return guarded("playout", function()
    return to_json(random_games(opts, seed, n, np, max_plies, random_move_of))
  end)
end

-- Random games whose every move is drawn from the full list that moves() returns, counting the
-- moves listed: what `nomv bench` reports as moves generated per second.
local listed = 0
local function from_the_list(state, rng)
  local ms = running_moves(state)
  local count = #ms
  listed = listed + count
  return ms[rng:int(count)]
end

function H.move_generation(opts, seed, n, np, max_plies)
  return guarded("playout", function()
    listed = 0
    local stats = random_games(opts, seed, n, np, max_plies, from_the_list)
    stats.moves = listed
    return to_json(stats)
  end)
end

function H.perft(state, depth)
  return guarded("perft", function()
    local result = need("result")
    local function count(s, d)
      if d == 0 then return 1 end
      local res = result(s)
      if res ~= nil and res ~= false then return 1 end
      arm()
      local ms = running_moves(s)
      if d == 1 then return #ms end
      local total = 0
      for i = 1, #ms do total = total + count(do_play(s, ms[i]), d - 1) end
      return total
    end
    return count(state, depth)
  end)
end
