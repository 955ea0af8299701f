-- Moves described step by step: the game's steps(state, partial) gives the steps that may follow
-- the partial move `partial` (a list of the steps chosen so far, {} at first), or nil when
-- `partial` is a whole move.  From it the host derives the legal moves (so such a game needs no
-- moves()), whether the player to move has a move (walking to the first whole move only), and a
-- random move drawn uniformly over the whole moves without building them (one walk over the
-- partial moves, extending and shortening one list: a ply allocates little beyond the script's
-- own lists of next steps).
local H, P = ...

local type, floor, format = type, math.floor, string.format
local contract, describe, set_hook = P.contract, P.describe, P.set_hook

-- A move longer than this is a steps() that never says a move is whole (it would recurse until
-- the stack ran out): named as such rather than as a stack overflow.
local MAX_DEPTH = 200
P.MAX_STEPS_DEPTH = MAX_DEPTH

local G, steps
P.on_game(function(game)
  G = game
  steps = type(game.steps) == "function" and game.steps or nil
end)

local function bad_list(got, depth)
  contract("E050", format("steps must return a list of the next steps, or nil when the move is whole; "
                          .. "after %d step%s it returned %s", depth, depth == 1 and "" or "s", describe(got)), "steps")
end

local function too_deep()
  contract("E050", format("steps went on for more than %d steps without a whole move "
                          .. "(steps(state, partial) must return nil once `partial` is a whole move)", MAX_DEPTH), "steps")
end

-- The script's next steps after partial[1..depth], checked for being a list or nil.  The script
-- must not keep or change `partial`: the host extends and shortens that one list as it walks.
local function next_steps(state, partial, depth)
  local nexts = steps(state, partial)
  if nexts ~= nil and type(nexts) ~= "table" then bad_list(nexts, depth) end
  if #partial ~= depth then
    contract("E050", "steps changed the partial move it was given (read it; build your own list to return)", "steps")
  end
  return nexts
end

-- Every whole move that begins with partial[1..depth], each a new list, appended to `out`.
local function collect(state, partial, depth, out)
  local nexts = next_steps(state, partial, depth)
  if nexts == nil then
    if depth > 0 then
      local mv = {}
      for k = 1, depth do mv[k] = partial[k] end
      out[#out + 1] = mv
    end
    return
  end
  if depth >= MAX_DEPTH then too_deep() end
  local d1 = depth + 1
  for i = 1, #nexts do
    partial[d1] = nexts[i]
    collect(state, partial, d1, out)
  end
  partial[d1] = nil
end

-- Whether some whole move begins with partial[1..depth]: stops at the first.
local function exists(state, partial, depth)
  local nexts = next_steps(state, partial, depth)
  if nexts == nil then return depth > 0 end
  if depth >= MAX_DEPTH then too_deep() end
  local d1 = depth + 1
  for i = 1, #nexts do
    partial[d1] = nexts[i]
    if exists(state, partial, d1) then partial[d1] = nil; return true end
  end
  partial[d1] = nil
  return false
end

function P.has_steps() return steps ~= nil end

-- The legal moves as steps() describes them: the list moves() would return.
function P.moves_from_steps(state)
  local out = {}
  local asked = set_hook("steps")
  collect(state, {}, 0, out)
  set_hook(asked)
  return out
end

-- Whether the player to move has a move, from steps().
function P.steps_have_move(state)
  return exists(state, {}, 0)
end

-- A whole move drawn uniformly, or nil when there is none: one walk over the tree of partial
-- moves that keeps the k-th whole move it meets with probability 1/k (a reservoir of one), so
-- that each of the N is kept with probability 1/N.  Rather than a draw at every whole move, the
-- number of the next one to keep is drawn ahead: after keeping the k-th, the next kept is past
-- the m-th with probability k/m, so it is floor(k/u) + 1 for u uniform in (0, 1): about ln N
-- draws a walk.  A loop with its own stack rather than a recursion: LuaJIT compiles the loop
-- (and the script's steps() into it), where it leaves a recursion to the interpreter.
-- lists[k] is the list partial[k] was taken from, at[k] its place there.
local lists, at = {}, {}
function P.random_move_from_steps(state, rng)
  local partial, chosen = {}, nil
  local seen, keep = 0, 1
  local depth = 0
  local nexts = next_steps(state, partial, 0)
  while true do
    if nexts ~= nil and #nexts > 0 then      -- down to the first next step
      if depth >= MAX_DEPTH then too_deep() end
      depth = depth + 1
      lists[depth], at[depth], partial[depth] = nexts, 1, nexts[1]
    else
      if nexts == nil and depth > 0 then     -- a whole move
        seen = seen + 1
        if seen == keep then
          chosen = {}
          for k = 1, depth do chosen[k] = partial[k] end
          keep = floor(seen / rng:float()) + 1
        end
      end
      while true do                          -- on to the next sibling, up as far as needed
        if depth == 0 then return chosen end
        local i, l = at[depth] + 1, lists[depth]
        if i <= #l then at[depth], partial[depth] = i, l[i]; break end
        lists[depth], partial[depth] = nil, nil
        depth = depth - 1
      end
    end
    nexts = next_steps(state, partial, depth)
  end
end
