-- Monte Carlo tree search (UCT with random playouts), run inside the game's Lua runtime so that
-- an iteration never crosses into Python.  Trusted code: host.lua loads it and hands it the
-- kernel `K` (the game's hooks wrapped with the host's checks), never the script.
--
-- One search tree serves one computer player for a whole game:
--   * Each node keeps, for every player, the sum of the rewards of the playouts through it; a
--     node is chosen by the player to move at its parent, with that player's mean reward.
--     Rewards come from ranks, so any number of players works: beating every other player is
--     1, losing to all 0, a tie counts half (two players: win 1, draw 1/2, loss 0).
--   * Perfect information and no chance: a closed-loop tree whose nodes keep their state and
--     their move list, so an iteration replays nothing above the leaf.
--   * Hidden information (a `view` hook) or chance (play drew from its rng): an open-loop tree
--     (single-observer information-set MCTS).  Every iteration starts from a fresh
--     determinisation of what the mover knows: the game's `determinize(view, player, rng)`, or
--     the view itself, and always a new random future for the state's rng, so the search can
--     neither see hidden cards nor know the coming dice.  Children are keyed by their move's
--     steps, since the legal moves differ between determinisations, and selection uses how
--     often a child was available instead of the parent's visits.
--   * Between moves the tree is kept: the next search walks down the moves played since and
--     starts from the subtree it finds there.

local floor, sqrt, log, huge = math.floor, math.sqrt, math.log, math.huge
local format, gsub, tsort = string.format, string.gsub, table.sort
local next, type = next, type

return function(K)
  local clock, arm, contract, describe = K.clock, K.arm, K.contract, K.describe
  local do_play, play_with, list_moves, cached_moves = K.do_play, K.play_with, K.list_moves, K.cached_moves
  local random_move_of, outcome, who_moves, move_key = K.random_move_of, K.outcome, K.who_moves, K.move_key
  local checked_mover, view_of, determinize, evaluate = K.mover, K.view, K.determinize, K.evaluate
  local Rng = K.Rng
  local M1, M2 = Rng.M1, Rng.M2

  ---------------------------------------------------------------------------------------------
  -- Rewards

  -- The reward of every player for a finished game (a normalised outcome: ranks, 1 = best).
  local function rewards(o, np)
    local ranks, r = o.ranks, {}
    if np == 1 then r[1] = ranks[1] == 1 and 1 or 0; return r end
    local anyone_first = false
    for p = 1, np do if ranks[p] == 1 then anyone_first = true end end
    for p = 1, np do
      local beaten = 0
      if anyone_first then
        local rp = ranks[p]
        for q = 1, np do
          if q ~= p then
            local rq = ranks[q]
            if rq > rp then beaten = beaten + 1 elseif rq == rp then beaten = beaten + 0.5 end
          end
        end
      end
      r[p] = beaten / (np - 1)     -- nobody first: a failed puzzle, every player lost
    end
    return r
  end

  -- The rewards for what result() returned at the end of a game.  A plain winner or draw is
  -- read directly (the end of every playout), with the same values as rewards() gives;
  -- anything else goes through the host's checks.
  local function final_rewards(res, np)
    if type(res) == "table" and res.ranks == nil and res.scores == nil then
      local w = res.winner
      local r = {}
      if w ~= nil then
        if type(w) == "number" and w >= 1 and w <= np and w == floor(w) then
          local loser = np > 1 and 0.5 * (np - 2) / (np - 1) or 0   -- the losers tie
          for p = 1, np do r[p] = loser end
          r[w] = 1
          return r
        end
      elseif res.draw then
        for p = 1, np do r[p] = np == 1 and 1 or 0.5 end
        return r
      end
    end
    return rewards(outcome(res, np), np)
  end

  -- Rewards for a playout cut short: the game's evaluate(state, player) if it has one, else
  -- the value of a draw (of an unsolved puzzle, for one player).
  local function estimate(state, np)
    local r = {}
    local hinted = K.game().evaluate ~= nil
    for p = 1, np do
      if hinted then
        r[p] = evaluate(state, p)
      else
        r[p] = np == 1 and 0 or 0.5
      end
    end
    return r
  end

  -- Random moves from `state` to the end of the game, or `limit` plies: the rewards.  Chance
  -- in play draws from the tree's generator, started from the state's rng and run on through
  -- the playout (no playout state needs its own copy).
  local function rollout(T, state, rng, np)
    local result, chance, limit = K.game().result, T.chance, T.playout_plies
    chance:load(state._rng or T.seed)
    local plies = 0
    local r
    while true do
      local res = result(state)
      if res ~= nil and res ~= false then r = final_rewards(res, np); break end
      if plies >= limit then r = estimate(state, np); break end
      state = play_with(state, random_move_of(state, rng), chance)
      plies = plies + 1
    end
    if chance.used then T.saw_chance = true end
    return r
  end

  local function terminal_rewards(state, np)
    local res = K.game().result(state)
    if res ~= nil and res ~= false then return final_rewards(res, np) end
    return nil
  end

  local function zeros(np)
    local w = {}
    for p = 1, np do w[p] = 0 end
    return w
  end

  local function mover_of(state, np)
    local p = checked_mover(state, np)
    if p == nil then contract("E063", format("to_move must be a player number from 1 to %d, got nil", np)) end
    return p
  end

  local function need_moves(ms)
    if #ms == 0 then K.dead_end() end
    return ms
  end

  local function backup(path, depth, r, np)
    for d = 1, depth do
      local x = path[d]
      x.n = x.n + 1
      local w = x.w
      for p = 1, np do w[p] = w[p] + r[p] end
    end
  end

  ---------------------------------------------------------------------------------------------
  -- The closed-loop tree (perfect information, no chance).  A node:
  --   state, n (visits), w (reward sums by player), and once visited as a leaf: mover, kids
  --   (the children, in the order they were made), tried (#kids), moves (moves[i] is the move
  --   of kids[i]; once the node is listed, every untried move follows them), count (how many
  --   moves the state has: nil until listed), keys (before listing: the tried moves' keys),
  --   done (how many children are complete); or r (the rewards, for a finished game).  A node
  --   is complete when the whole game below it is in the tree (a finished game, or every child
  --   complete): once the root is, the search stops and plays by the exact values (each player
  --   choosing their best), as in an endgame.
  --
  -- Opening a node does not list its moves when the game has random_move and is wide (see
  -- LAZY_WIDTH): most nodes of a tree are visited a few times only, and on a wide game
  -- (3verse: hundreds of moves) listing them all cost more than the playout.  Each new child
  -- takes a move drawn by random_move instead, and the node lists its moves at the first draw
  -- that repeats a tried move (for n moves drawn evenly, after about sqrt(n) children) or when
  -- it becomes the root; from then on the untried moves are taken in random order, so every
  -- move is still tried before UCT chooses among the children, as when every node was listed
  -- at once.

  -- Nodes open lazily only in a wide game: while the nodes listed so far had, on average, at
  -- least this many moves.  On narrow games listing at once is as cheap as a few draws and
  -- their keys (trinim, 75 moves at its first choice, ran 10% slower lazily; 3verse, 1128
  -- moves, 75% faster).
  local LAZY_WIDTH = 64

  -- The playouts through the chosen move below which its mean reward says too little to be
  -- what the player "expects" (see S.search's result).
  local ENOUGH_VISITS = 20

  local function closed_node(state, np)
    return {state = state, n = 0, w = zeros(np)}
  end

  -- Lists the node's moves (ms, never empty): the moves not tried yet go after the tried
  -- ones.  False and the key of a tried move that the list lacks, if any (the node is then
  -- left as it was).
  local function list_node(T, node, ms)
    need_moves(ms)
    local moves, keys, tried = node.moves, node.keys, node.tried
    local count, found = tried, 0
    for i = 1, #ms do
      local mv = ms[i]
      local key = keys and move_key(mv)
      if key and keys[key] then
        keys[key] = nil                     -- (a move listed twice is tried twice, as before)
        found = found + 1
      else
        count = count + 1
        moves[count] = mv
      end
    end
    if found ~= tried then
      local missing = next(keys)
      for i = count, tried + 1, -1 do moves[i] = nil end
      for t = 1, tried do keys[move_key(moves[t])] = true end
      return false, missing
    end
    node.count, node.keys = count, nil
    T.moves_listed, T.nodes_listed = T.moves_listed + count, T.nodes_listed + 1
    return true
  end

  -- First visit of a leaf: its rewards if the game is over there, else its mover, and its
  -- moves if it is the root (whose list is the host's cached one, the list the caller plays
  -- by), the game has no random_move (whose default draws from the list anyway) or the game
  -- is narrow.
  local function open_children(T, node, np)
    local state = node.state
    local r = terminal_rewards(state, np)
    if r then node.r, node.complete = r, true; return end
    node.mover, node.kids, node.moves, node.tried, node.done = mover_of(state, np), {}, {}, 0, 0
    if node == T.root then
      list_node(T, node, cached_moves(state))
    elseif K.game().random_move == nil or T.moves_listed < LAZY_WIDTH * T.nodes_listed then
      list_node(T, node, list_moves(state))
    else
      node.keys = {}
    end
  end

  -- The move of the node's next child (stored as moves[tried + 1]), or nil when listing the
  -- node showed that every move has a child already.
  local function untried_move(T, node, rng)
    local moves, next_i = node.moves, node.tried + 1
    if node.count == nil then
      local mv = random_move_of(node.state, rng)
      local key = move_key(mv)
      if not node.keys[key] then
        node.keys[key] = true
        moves[next_i] = mv
        return mv
      end
      local listed, missing = list_node(T, node, list_moves(node.state))
      if not listed then
        contract("E070", format("random_move returned %s, which moves() does not list",
                                describe((gsub(missing, "\n", "-")))))
      end
      if node.count < next_i then return nil end
    end
    local j = next_i - 1 + rng:int(node.count - node.tried)    -- an untried move at random
    moves[next_i], moves[j] = moves[j], moves[next_i]
    return moves[next_i]
  end

  -- UCT: the child with the best mean reward for player p plus the exploration bonus; a child
  -- without visits (left by a failed iteration) first.
  local function select(kids, count, p, c, logn)
    local best, best_v = nil, -huge
    for i = 1, count do
      local k = kids[i]
      local n = k.n
      if n == 0 then return k end
      local v = k.w[p] / n + c * sqrt(logn / n)
      if v > best_v then best, best_v = k, v end
    end
    return best
  end

  -- The rewards of a complete node under best play: every player, in turn, takes the child
  -- best for them (ties: the first in the node's move order).  Kept in the node.
  local function exact(node)
    if node.r then return node.r end
    local v = node.exact
    if v then return v end
    local p, kids, best, best_v = node.mover, node.kids, nil, -huge
    for i = 1, node.count do
      local x = exact(kids[i])
      if x[p] > best_v then best, best_v = x, x[p] end
    end
    node.exact = best
    return best
  end

  -- Whether every move of a node has a child and every child is complete.
  local function all_done(node)
    local count = node.count
    return count ~= nil and node.tried == count and node.done == count
  end

  -- path[d] has just become complete: so may its parent, when that was its last incomplete
  -- child, or when it gives the parent's mover the most there is to get (a sure win: the
  -- other children do not matter), and so on up.
  local function settle(path, d)
    while d > 1 do
      local x, parent = path[d], path[d - 1]
      if parent.complete then return end
      parent.done = parent.done + 1
      local v = exact(x)
      if v[parent.mover] >= 1 then
        parent.exact = v
      elseif not all_done(parent) then
        return
      end
      parent.complete = true
      d = d - 1
    end
  end

  local function closed_iteration(T, path, rng)
    local np, c = T.np, T.c
    local node, depth = T.root, 1
    path[1] = node
    local r
    while true do
      if node.kids == nil and node.r == nil then open_children(T, node, np) end
      r = node.r
      if r then break end
      local open = node.count == nil or node.tried < node.count
      if open and (depth == 1 or T.nodes < T.max_nodes) then
        local mv = untried_move(T, node, rng)
        if mv then
          local tried = node.tried + 1
          node.tried = tried
          local child = closed_node(do_play(node.state, mv), np)
          node.kids[tried] = child
          T.nodes = T.nodes + 1
          depth = depth + 1
          path[depth] = child
          r = terminal_rewards(child.state, np)
          if r then
            child.r, child.complete = r, true
            settle(path, depth)
          else
            r = rollout(T, child.state, rng, np)
          end
          break
        end
        -- Listing found every move tried already: choose among the children below.
        -- (A node may be complete already, by a sure win among its children.)
        open = false
        if not node.complete and all_done(node) then
          node.complete = true
          settle(path, depth)
        end
      end
      if open then                          -- the tree is full: play on from here at random
        r = rollout(T, node.state, rng, np)
        break
      end
      node = select(node.kids, node.count, node.mover, c, log(node.n))
      depth = depth + 1
      path[depth] = node
    end
    backup(path, depth, r, np)
  end

  ---------------------------------------------------------------------------------------------
  -- The open-loop tree (hidden information or chance).  A node: n, w, avail (how often it
  -- was a legal choice when its parent was visited), kids[key].

  local function open_node(np)
    return {n = 0, w = zeros(np), avail = 1, kids = {}}
  end

  -- A state the mover cannot tell from the real one, with a new random future.
  local function determinise(T, info, rng)
    local G = K.game()
    local d
    if G.determinize then
      d = determinize(info, T.mover, rng)
      local p = who_moves(d)
      if p ~= T.mover then
        contract("E056", format("determinize gave a state where player %s moves, not player %d: it must "
                        .. "keep everything the player knows", describe(p), T.mover))
      end
    else
      d = {}
      for k, v in next, info do d[k] = v end
    end
    local seed = {}
    for i = 1, 3 do seed[i] = rng:next() % (M1 - 1) + 1 end
    for i = 4, 6 do seed[i] = rng:next() % (M2 - 1) + 1 end
    d._rng = seed
    return d
  end

  local function open_iteration(T, info, path, rng)
    local np, c = T.np, T.c
    local node, depth = T.root, 1
    path[1] = node
    local state = determinise(T, info, rng)
    local r
    while true do
      r = terminal_rewards(state, np)
      if r then break end
      local ms = need_moves(list_moves(state))
      local p = mover_of(state, np)
      local kids, untried, fresh = node.kids, nil, 0
      local keys = {}
      for i = 1, #ms do
        local key = move_key(ms[i])
        keys[i] = key
        if kids[key] == nil then
          fresh = fresh + 1
          untried = untried or {}
          untried[fresh] = i
        end
      end
      if fresh > 0 and (depth == 1 or T.nodes < T.max_nodes) then
        local i = untried[rng:int(fresh)]
        local child = open_node(np)
        kids[keys[i]] = child
        T.nodes = T.nodes + 1
        depth = depth + 1
        path[depth] = child
        r = rollout(T, do_play(state, ms[i]), rng, np)
        break
      end
      if fresh == #ms then r = rollout(T, state, rng, np); break end
      local best, best_i, best_v = nil, nil, -huge
      for i = 1, #ms do
        local k = kids[keys[i]]
        if k then
          k.avail = k.avail + 1
          local n = k.n
          local v = n == 0 and huge or k.w[p] / n + c * sqrt(log(k.avail) / n)
          if v > best_v then best, best_i, best_v = k, i, v end
        end
      end
      state = do_play(state, ms[best_i])
      node = best
      depth = depth + 1
      path[depth] = node
    end
    backup(path, depth, r, np)
  end

  ---------------------------------------------------------------------------------------------
  -- Trees and searches

  local S = {}

  -- A new search tree for one computer player.  config: c (exploration, default sqrt 2),
  -- playout_plies (a playout longer than this is cut and estimated), max_nodes, seed (six
  -- numbers for the search's own generator).
  function S.new_tree(config)
    local s = config.seed
    local seed = {s[1], s[2], s[3], s[4], s[5], s[6]}
    return {
      c = config.c or 1.4142135623730951,
      playout_plies = config.playout_plies or 1000,
      max_nodes = config.max_nodes or 1000000,
      rng = Rng.new(seed), chance = Rng.new(seed), seed = seed,
      open = false, saw_chance = false, busy = false, history = {}, root = nil, nodes = 0,
      moves_listed = 0, nodes_listed = 0,
    }
  end

  -- The child of `node` reached by the move with this key, or nil.
  local function child_by_key(T, node, key)
    if T.open then return node.kids[key] end
    local moves, kids = node.moves, node.kids
    if not kids then return nil end
    for i = 1, node.tried do
      if move_key(moves[i]) == key then return kids[i] end
    end
    return nil
  end

  -- How many nodes a subtree holds (the children of a closed node are an array, of an open
  -- node a table by move key: `next` walks both).
  local function size(node)
    local total = 1
    local kids = node.kids
    if kids then
      for _, kid in next, kids do total = total + size(kid) end
    end
    return total
  end

  -- Keeps what the tree learnt below the current position, if it saw this position coming:
  -- `history` lists the keys of the moves of the game so far.  Returns the visits kept.
  local function reuse(T, state, history)
    local root, old = T.root, T.history
    T.root = nil
    if root == nil or #old > #history then return 0 end
    for i = 1, #old do if old[i] ~= history[i] then return 0 end end
    local node = root
    for i = #old + 1, #history do
      node = child_by_key(T, node, history[i])
      if node == nil then return 0 end
    end
    if not T.open then
      -- The state is the caller's (equal to the tree's, as the game is deterministic).  The
      -- root's moves are the caller's list: the node is listed again from it, and its
      -- children are kept only if that list has all their moves.
      node.state = state
      if node.kids then
        local moves, keys = node.moves, {}
        for t = 1, node.tried do keys[move_key(moves[t])] = true end
        for i = node.tried + 1, #moves do moves[i] = nil end
        node.keys, node.count = keys, nil
        if not list_node(T, node, cached_moves(state)) then return 0 end
      end
    end
    T.root = node
    T.nodes = size(node)
    return node.n
  end

  -- The root's moves with their visits and mean reward for the mover, most visited first; or,
  -- when the root is complete, by their exact value for the mover.
  local function ranked_moves(T, ms)
    local out = {}
    local root, p = T.root, T.mover
    local solved = root.complete
    -- The closed tree's children by their moves' keys (the root's children are in the order
    -- they were tried, not in the list's).
    local kids = root.kids
    if not T.open and kids then
      kids = {}
      for t = 1, root.tried do kids[move_key(root.moves[t])] = root.kids[t] end
    end
    for i = 1, #ms do
      local k = kids and kids[move_key(ms[i])]
      if solved and k and k.complete then
        out[#out + 1] = {index = i, visits = k.n, value = exact(k)[p], exact = true}
      elseif k and k.n > 0 then
        out[#out + 1] = {index = i, visits = k.n, value = k.w[p] / k.n}
      else
        out[#out + 1] = {index = i, visits = 0, value = 0}
      end
    end
    tsort(out, function(a, b)
      if solved and a.exact ~= b.exact then return a.exact == true end
      if solved and a.value ~= b.value then return a.value > b.value end
      if a.visits ~= b.visits then return a.visits > b.visits end
      if a.value ~= b.value then return a.value > b.value end
      return a.index < b.index
    end)
    return out
  end

  -- What the mover may know: the root of every determinisation of this search.
  local function known(state, mover)
    local G = K.game()
    if not G.view then return state end
    return view_of(state, mover)
  end

  -- Searches from `state` (the real position: a search of hidden information only ever sees
  -- what the mover may know) for `iterations` iterations or `seconds` of CPU time, whichever
  -- comes first (nil: no bound on that one).  Returns {index = i of the chosen move in the
  -- state's list, iterations, seconds, visits, value, moves = {...}, reused, mode}.
  function S.search(T, state, np, history, iterations, seconds)
    local G = K.game()
    if iterations == nil and seconds == nil then contract(nil, "a search needs iterations or seconds") end
    if iterations ~= nil and iterations < 1 then contract(nil, "a search needs at least one iteration") end
    if T.busy then
      -- The last search failed half-way (an error in the script, a time limit): what it left
      -- is not trustworthy.
      T.root, T.history = nil, {}
    end
    T.busy = true
    local ms = need_moves(cached_moves(state))
    T.np, T.mover = np, mover_of(state, np)
    -- Hidden information, or chance seen by an earlier search of this tree: the open-loop tree.
    if G.view ~= nil or G.determinize ~= nil or T.saw_chance then T.open = true end
    local reused = reuse(T, state, history)
    T.history = history
    local info = T.open and known(state, T.mover) or nil
    local rng, path = T.rng, {}
    local start = clock()
    local deadline = seconds and start + seconds or huge
    local limit = iterations or huge
    -- Reading the clock costs a system call: look at it (and re-arm the time limit, which
    -- bounds each stretch between looks) about every 5 ms of work, not every iteration.
    local done, look, every = 0, 1, 1
    while done < limit do
      if T.root == nil then
        T.nodes = 1
        T.root = T.open and open_node(np) or closed_node(state, np)
      end
      if T.open then
        open_iteration(T, info, path, rng)
      else
        local plays = K.chance()
        closed_iteration(T, path, rng)
        if K.chance() ~= plays then T.saw_chance = true end
        if T.saw_chance then
          -- play drew from its rng: the game has chance, which a closed tree would foresee.
          -- Start again, open.
          T.open, T.root, reused, done = true, nil, 0, -1
          info = known(state, T.mover)
        end
      end
      done = done + 1
      if T.root and T.root.complete then break end   -- the whole game is in the tree
      if done >= look then
        local now = arm()
        if now >= deadline then break end
        local rate = done / (now - start + 1e-6)
        every = floor(rate * 0.005)
        if every < 1 then every = 1 elseif every > 256 then every = 256 end
        look = done + every
      end
    end
    local elapsed = clock() - start
    local ranked = ranked_moves(T, ms)
    if done > 0 and ranked[1].visits == 0 then
      contract("E056", "the search never reached a legal move of the real position: determinize gives "
               .. "states with other moves than the real one (nomv check reports this as E056)")
    end
    local top = {}
    for i = 1, #ranked do
      if i > 8 then break end
      top[i] = ranked[i]
    end
    T.busy = false
    -- What the mover expects: the chosen move's mean reward once enough playouts went through
    -- it; before that (a wide game searched briefly: Amazons has 2,176 first moves, each tried
    -- once, and a move whose one playout was won "expected" 100%) the mean over all of them.
    local best, root = ranked[1], T.root
    local value = best.value
    if not best.exact and best.visits < ENOUGH_VISITS and root.n > 0 then
      value = root.w[T.mover] / root.n
    end
    -- Every player's mean reward at the root (the lab's lead changes need the others' too).
    local values = {}
    for p = 1, np do values[p] = root.n > 0 and root.w[p] / root.n or 0 end
    return {index = best.index, iterations = done, seconds = elapsed, visits = root.n,
            value = value, values = values, moves = top, reused = reused, nodes = T.nodes,
            mode = T.open and "open" or "closed", solved = T.root.complete == true}
  end

  return S
end
