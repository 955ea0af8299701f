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
local blame_return, blame_growth, blame_change, blame_items = P.blame_return, P.blame_growth, P.blame_change, P.blame_items

-- A move longer than this is a steps() that never says a move is whole (it would recurse until
-- the stack ran out): named as such rather than as a stack overflow.
local MAX_DEPTH = 200
P.MAX_STEPS_DEPTH = MAX_DEPTH

local steps, most
-- With most_next_steps: the number of steps of every whole move, once one was seen.
local whole_k = nil
P.on_game(function(game)
  steps = type(game.steps) == "function" and game.steps or nil
  -- most_next_steps (checked in Python, game.py): the most next steps steps() ever returns, and
  -- a promise that every whole move has the same number of steps (see bounded_draw below).
  local m = game.most_next_steps
  most = type(m) == "number" and m >= 1 and m == floor(m) and m or nil
  whole_k = nil
end)

-- The broken promises below are found once steps() has returned: each names the line of the
-- script that broke it (blame.lua asks steps() again, on a copy of the partial move it had).
local function lent(partial, depth)
  local c = {}
  for k = 1, depth do c[k] = partial[k] end
  return c
end

-- The line of the `return` of steps(state, partial[1..depth]), when the second run returns
-- what broke the contract again (same(value)), else nil.
local function returned_at(state, partial, depth, same)
  local line, value = blame_return(steps, state, lent(partial, depth))
  if line ~= nil and same(value) then return line end
  return nil
end

local function not_a_list(v) return v ~= nil and type(v) ~= "table" end
local function a_list(v) return type(v) == "table" end
local function nothing(v) return v == nil end

local function bad_list(got, state, partial, depth)
  contract("E050", format("steps must return a list of the next steps, or nil when the move is whole; "
                          .. "after %d step%s it returned %s", depth, depth == 1 and "" or "s", describe(got)),
           "steps", returned_at(state, partial, depth, not_a_list))
end

local function too_deep(state, partial, depth)
  contract("E050", format("steps went on for more than %d steps without a whole move "
                          .. "(steps(state, partial) must return nil once `partial` is a whole move)", MAX_DEPTH),
           "steps", returned_at(state, partial, depth, a_list))
end

-- (`top`: what partial[depth] held before steps() ran, so that a step it took off can be put
-- back for the second run; a partial move that lost more cannot be given again.)
local function changed(state, partial, depth, top)
  local copy = lent(partial, depth)
  if depth > 0 then copy[depth] = top end
  local line = nil
  if #copy == depth then line = blame_change(steps, copy, depth, state, copy) end
  contract("E050", "steps changed the partial move it was given (read it; build your own list to return)",
           "steps", line)
end

-- The script's next steps after partial[1..depth], checked for being a list or nil.  The script
-- must not keep or change `partial`: the host extends and shortens that one list as it walks.
local function next_steps(state, partial, depth)
  local top = partial[depth]
  local nexts = steps(state, partial)
  if nexts ~= nil and type(nexts) ~= "table" then bad_list(nexts, state, partial, depth) end
  if #partial ~= depth or partial[depth] ~= top then changed(state, partial, depth, top) end
  return nexts
end

-- (`ended`: steps() returned nil after depth steps, a whole move shorter than the others; else
-- it returned a list where the others were whole.)
local function uneven(state, partial, depth, ended)
  contract("E050", format("with most_next_steps, every whole move must have the same number of steps (%d), "
                          .. "but steps() %s after %d step%s", whole_k or depth,
                          ended and "said a move was whole" or "gave more steps", depth, depth == 1 and "" or "s"),
           "steps", returned_at(state, partial, depth, ended and nothing or a_list))
end

-- (The line that added the list's item most + 1, else its return.)
local function too_many(n, state, partial, depth)
  local longer = function(v) return type(v) == "table" and #v > most end
  local line, list = blame_growth(steps, most + 1, state, lent(partial, depth))
  if not (line and longer(list)) then line = returned_at(state, partial, depth, longer) end
  contract("E050", format("steps() returned %d next steps, more than most_next_steps (%d)", n, most), "steps", line)
end

-- Every whole move that begins with partial[1..depth], each a new list, appended to `out`.
local function collect(state, partial, depth, out)
  local nexts = next_steps(state, partial, depth)
  if most then
    -- The promise of most_next_steps, checked wherever the moves are listed (nomv check lists
    -- them at every ply): no longer list, and every whole move as long as the first one seen.
    if nexts == nil and depth > 0 then
      if whole_k and depth < whole_k then uneven(state, partial, depth, true) end
      if whole_k and depth > whole_k then uneven(state, partial, whole_k, false) end
      whole_k = depth
    elseif nexts ~= nil and #nexts > most then
      too_many(#nexts, state, partial, depth)
    end
  end
  if nexts == nil then
    if depth > 0 then
      local mv = {}
      for k = 1, depth do mv[k] = partial[k] end
      out[#out + 1] = mv
    end
    return
  end
  if depth >= MAX_DEPTH then too_deep(state, partial, depth) end
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
  if depth >= MAX_DEPTH then too_deep(state, partial, depth) end
  local d1 = depth + 1
  for i = 1, #nexts do
    partial[d1] = nexts[i]
    if exists(state, partial, d1) then partial[d1] = nil; return true end
  end
  partial[d1] = nil
  return false
end

function P.has_steps() return steps ~= nil end
local only = false
P.on_game(function(game) only = steps ~= nil and game.moves == nil end)
-- Whether steps() alone gives the moves (a game may have both, and then moves() lists them).
function P.steps_only() return only end

-- The line of steps() that gave step k of the whole move mv, a bad step (same(x): x is bad the
-- same way), or nil: the line that put it in the list of next steps, else the `return` of a list
-- made as it is returned.  The second run must give such a step again.
function P.step_line(state, mv, k, same)
  if type(mv) ~= "table" then return nil end
  local nexts, record = blame_items(steps, state, lent(mv, k - 1))
  if type(nexts) ~= "table" then return nil end
  for j = 1, #nexts do
    if same(nexts[j]) then
      return record.item_line(nexts, j)
    end
  end
  return nil
end

-- For the checker's E051: a whole move listed twice comes from a list of next steps that holds
-- a step twice; the line of steps() that added it the second time (or the `return` of a list
-- made as it is returned), or nil.
function P.step_added_at(state, mv)
  if type(mv) ~= "table" then return nil end
  local function twice(list, x)
    local n = 0
    for i = 1, #list do if list[i] == x then n = n + 1 end end
    return n > 1
  end
  for k = 1, #mv do
    local nexts = steps(state, lent(mv, k - 1))
    if type(nexts) ~= "table" then return nil end
    if twice(nexts, mv[k]) then
      local again, record = blame_items(steps, state, lent(mv, k - 1))
      if type(again) ~= "table" or not twice(again, mv[k]) then return nil end
      return record.second_line(again, mv[k])
    end
  end
  return nil
end

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
local function exact_draw(state, rng)
  local partial, chosen = {}, nil
  local seen, keep = 0, 1
  local depth = 0
  local nexts = next_steps(state, partial, 0)
  while true do
    if nexts ~= nil and #nexts > 0 then      -- down to the first next step
      if depth >= MAX_DEPTH then too_deep(state, partial, depth) end
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

-- With most_next_steps, a draw that does not visit every whole move.  Every whole move has K
-- steps; the partial moves of K-1 steps are gathered (the levels above the last: few lists),
-- then one of them is drawn evenly and its list of last steps asked for: it is kept with
-- probability (its length) / most, a last step drawn evenly from it, else drawn again.  Each
-- whole move is then kept with the same probability, 1 / (count * most), so the draw stays
-- uniform over whole moves, while it asks for about most / (average length) lists instead of
-- all of them (Amazons: 2-3 lists of arrows instead of 60).  When few partial moves are left
-- (the end of a game), or the draws keep failing, every list is asked for and the move drawn
-- from their lengths: uniform too, so either way of drawing gives a uniform move.
local flat, probe = {}, {}

-- The number of steps of the first whole move down the first steps, or nil (a dead end or a
-- move of no steps on the way: then the exact draw decides).
local function whole_length(state)
  local depth = 0
  while true do
    local nexts = next_steps(state, probe, depth)
    if nexts == nil or #nexts == 0 then
      for k = depth, 1, -1 do probe[k] = nil end
      return nexts == nil and depth > 0 and depth or nil
    end
    if depth >= MAX_DEPTH then too_deep(state, probe, depth) end
    depth = depth + 1
    probe[depth] = nexts[1]
  end
end

-- The partial moves of k1 steps that begin with partial[1..depth], appended to `flat` (k1
-- steps each, end to end) after the first `count`; returns the new count.
local function gather(state, partial, depth, k1, count)
  if depth == k1 then
    local base = count * k1
    for j = 1, k1 do flat[base + j] = partial[j] end
    return count + 1
  end
  local nexts = next_steps(state, partial, depth)
  if nexts == nil then uneven(state, partial, depth, true) end
  local d1 = depth + 1
  for i = 1, #nexts do
    partial[d1] = nexts[i]
    count = gather(state, partial, d1, k1, count)
  end
  partial[d1] = nil
  return count
end

-- Gathered partial move t, into `partial`.
local function take(partial, t, k1)
  local base = (t - 1) * k1
  for j = 1, k1 do partial[j] = flat[base + j] end
end

-- The last steps after gathered partial move t (now in `partial`), checked.
local function last_steps(state, partial, t, k1)
  take(partial, t, k1)
  local nexts = next_steps(state, partial, k1)
  if nexts == nil then uneven(state, partial, k1, true) end
  local n = #nexts
  if n > most then too_many(n, state, partial, k1) end
  return nexts, n
end

-- The whole move partial[1..k1] + last, checked for being whole, as a new list.
local function whole(state, partial, k1, last)
  partial[k1 + 1] = last
  if next_steps(state, partial, k1 + 1) ~= nil then uneven(state, partial, k1 + 1, false) end
  local mv = {}
  for j = 1, k1 + 1 do mv[j] = partial[j] end
  for j = k1 + 1, 1, -1 do partial[j] = nil end
  return mv
end

local function bounded_draw(state, rng)
  local k = whole_k or whole_length(state)
  if k == nil then return exact_draw(state, rng) end
  whole_k = k
  local k1 = k - 1
  local partial = {}
  local count = gather(state, partial, 0, k1, 0)
  if count == 0 then return nil end
  -- Drawing costs about most / n lists (n: the length of a list of last steps), asking each
  -- of them `count`.  Draw while there are many partial moves (taking n as a quarter of most:
  -- the rule depends on the position alone, so that a seed always gives the same games), up to
  -- `count` tries; either way gives a uniform move.
  if count * 4 > most then
    for _ = 1, count do
      local list, n = last_steps(state, partial, rng:int(count), k1)
      if n > 0 and rng:float() * most < n then return whole(state, partial, k1, list[rng:int(n)]) end
    end
  end
  -- Every list: partial move t kept with probability n_t / (the lengths so far), a reservoir of
  -- one weighted by the lengths.
  local total, kept, kept_list = 0, nil, nil
  for t = 1, count do
    local list, n = last_steps(state, partial, t, k1)
    if n > 0 then
      total = total + n
      if rng:float() * total < n then kept, kept_list = t, list end
    end
  end
  if kept == nil then return nil end
  take(partial, kept, k1)
  return whole(state, partial, k1, kept_list[rng:int(#kept_list)])
end

function P.random_move_from_steps(state, rng)
  if most then return bounded_draw(state, rng) end
  return exact_draw(state, rng)
end
