-- Nonads (Cameron Browne, 2011).
--
-- 34 square tiles, each a 3x3 grid of cells with 4 black and 5 white cells: every such pattern
-- once, rotations counting as the same tile.  Each player has a target tile, shown to all, and a
-- hand tile.  On your turn place your hand tile edge to edge with the layout, then draw.  You win
-- when your placement creates a 3x3 window of cells, anywhere on the cell grid, that shows your
-- target in some rotation.  When the deck is out, a player without a hand tile slides a placed
-- tile to a new place instead.  Advanced: making another player's target loses.  Knownads:
-- hidden targets, every tile is placed, one point per window showing your target.
-- The rules in full: docs/games/nonads.md (T1..T11 below are the choices it lists).

local floor, concat, sort, unpack = math.floor, table.concat, table.sort, unpack

---------------------------------------------------------------------------------------------
-- The tiles.  A pattern is a 9-bit mask, bit 3*row+col (row 0 = top, col 0 = left, # = black).
-- A tile is numbered by its canonical form (the smallest mask among its rotations), 1..34 in
-- increasing order (docs/games/nonads.md, The tiles).  Everything is computed here rather than
-- typed in, and the tests check the result against the table.

local POW2 = {}
for k = 0, 12 do POW2[k] = 2 ^ k end

local function has(mask, k) return floor(mask / POW2[k]) % 2 == 1 end

-- One clockwise quarter turn: the new cell (r, c) shows the old cell (2 - c, r).
local function turn(mask)
  local out = 0
  for r = 0, 2 do
    for c = 0, 2 do
      if has(mask, 3 * (2 - c) + r) then out = out + POW2[3 * r + c] end
    end
  end
  return out
end

local NTILES = 34
local CANON = {}          -- CANON[t]: the canonical mask of tile t
local PAT = {}            -- PAT[code]: the mask of tile t turned r times, code = 4t + r
local DISTINCT = {}       -- DISTINCT[t]: the rotations giving different patterns, lowest r first
local TILE_OF = {}        -- TILE_OF[mask]: the tile showing that pattern in some rotation, or 0
local ROW0, ROW1, ROW2 = {}, {}, {}   -- the three rows (3 bits each) of PAT[code]

do
  local canon = {}
  for m = 0, 511 do
    TILE_OF[m] = 0
    local black = 0
    for k = 0, 8 do if has(m, k) then black = black + 1 end end
    if black == 4 then
      local best, x = m, m
      for _ = 1, 3 do x = turn(x); if x < best then best = x end end
      if best == m then canon[#canon + 1] = m end
    end
  end
  sort(canon)
  assert(#canon == NTILES, "there must be 34 tiles")
  for t, m in ipairs(canon) do
    CANON[t] = m
    local seen, list, x = {}, {}, m
    for r = 0, 3 do
      local code = 4 * t + r
      PAT[code] = x
      ROW0[code], ROW1[code], ROW2[code] = x % 8, floor(x / 8) % 8, floor(x / 64)
      TILE_OF[x] = t
      if not seen[x] then seen[x] = true; list[#list + 1] = r end
      x = turn(x)
    end
    DISTINCT[t] = list
  end
end

local ONLY_ZERO = {0}
local function rotations(s, t)
  if s.rotation then return DISTINCT[t] end
  return ONLY_ZERO
end

-- The lowest rotation of tile t that gives the same pattern as rotation r.
local function lowest_rotation(t, r)
  local p = PAT[4 * t + r]
  for q = 0, r do if PAT[4 * t + q] == p then return q end end
end

-- "###/#../..." for tile t turned r times.
local function picture(t, r)
  local m, rows = PAT[4 * t + (r or 0)], {}
  for row = 0, 2 do
    local chars = {}
    for col = 0, 2 do chars[col + 1] = has(m, 3 * row + col) and "#" or "." end
    rows[row + 1] = concat(chars)
  end
  return concat(rows, "/")
end

---------------------------------------------------------------------------------------------
-- The layout: an open grid of tile slots (nomv.grid.open).  A slot (x, y) is one number, its
-- key; the first tile sits at (0, 0).  The layout's box grows by at most one slot per move, and
-- a game has at most 40 placements (34 tiles, plus tiles returned by Advanced departures) and
-- 200 tiebreaker moves, so every slot stays within 250 of the origin.  The state holds two
-- parallel lists: state.slots[i] is a filled key and state.codes[i] = 4 * tile + rotation of
-- the tile there.  Lists, because copying a list is cheap and its order is the same on every
-- runtime; the key -> code lookup is a scratch table kept for the state last asked about
-- (board_of), which play() moves along with the game, so random playouts never rebuild it.

local MAX_TIEBREAK = 200
local L = nomv.grid.open({reach = 250, dense = true})
local W, ORIGIN, DIRS = L.W, L.origin, L.dirs          -- DIRS: n, e, s, w

local function key_of(x, y) return L:key(x, y) end
local function xy_of(key) return L:xy(key) end
local function coord(key) return L:coord(key) end
local function slot_id(key) return L:id("slot", key) end
local function tile_id(key) return L:id("tile", key) end
local ROT_ID = {[0] = "rot:0", "rot:1", "rot:2", "rot:3"}

-- The key -> code table of one state (false = empty).  States never change, so the identity
-- of the state is enough to know that the table is current.  B is filled for every key at load
-- time, so that it is a plain array: looking up a slot is then several times faster than in a
-- hash table, which matters for random playouts.
local B, indexed = {}, nil
for i = 1, W * W do B[i] = false end
local function board_of(s)
  if indexed ~= s then
    if indexed then
      local old = indexed.slots
      for i = 1, #old do B[old[i]] = false end
    end
    local slots, codes = s.slots, s.codes
    for i = 1, #slots do B[slots[i]] = codes[i] end
    indexed = s
  end
  return B
end

-- The empty slots sharing an edge with a placed tile (T2); touching(j) then tells how many
-- placed tiles share an edge with slot j.
local function frontier(board, slots, out) return L:frontier(board, slots, out) end
local function touching(j) return L:touching(j) end
local function bounds(slots) return L:bounds(slots) end

-- T7: a placed tile can be slid out when a side is open; with clear_line, when a straight line
-- of empty slots leads from it out of the layout.
local function movable(s, key, box)
  local board = board_of(s)
  if not s.clear_line then
    return not board[key - W] or not board[key + 1] or not board[key + W] or not board[key - 1]
  end
  local x, y = xy_of(key)
  local x0, y0, x1, y1 = box[1], box[2], box[3], box[4]
  local steps = {y - y0, x1 - x, y1 - y, x - x0}        -- slots to the edge, n e s w
  for d = 1, 4 do
    local clear, j = true, key
    for _ = 1, steps[d] do
      j = j + DIRS[d]
      if board[j] then clear = false; break end
    end
    if clear then return true end
  end
  return false
end

-- The tiles the mover may pick up in the tiebreaker (T7, T8), in key order unless `out` (a
-- scratch list, for random playouts) is given.
local function movable_tiles(s, out)
  local slots, box = s.slots, nil
  if s.clear_line then box = {bounds(slots)} end
  local n = 0
  local sorted = out == nil
  out = out or {}
  for i = 1, #slots do
    local k = slots[i]
    if k ~= s.last and movable(s, k, box) then n = n + 1; out[n] = k end
  end
  for i = n + 1, #out do out[i] = nil end
  if sorted then sort(out) end
  return out
end

---------------------------------------------------------------------------------------------
-- Windows (kept here: they depend on Nonads' 3x3 tiles of 3x3 cells).  A window is 3x3 cells.
-- A window is created by a move when it overlaps the tile just placed and all 9 of its cells
-- lie on tiles (T3, T4); before the move its cells could not all be covered.  Look at the 3x3
-- block of slots around the new tile: 9 cell rows of 9 cells, each row a 9-bit number.  The
-- windows overlapping the centre tile start at local cell rows and columns 1..5; the window at
-- (3, 3) is the tile itself, which never shows an active target (targets are not in play, and
-- all 34 tiles differ up to rotation), so it is skipped.

-- WINDOWS_FOR[present] lists the windows {top, left, divisor} whose cells are all covered
-- when the 8 neighbours of the new tile that hold tiles are the bits of `present` (bit 0 =
-- the block's slot 1, the top-left, ..., skipping the centre).
local NEIGHBOUR_BIT = {1, 2, 4, 8, 0, 16, 32, 64, 128}     -- block slot 1..9 -> bit
local WINDOWS_FOR = {}
do
  local windows = {}
  for top = 1, 5 do
    for left = 1, 5 do
      if not (top == 3 and left == 3) then
        local need = 0
        for sr = floor(top / 3), floor((top + 2) / 3) do
          for sc = floor(left / 3), floor((left + 2) / 3) do need = need + NEIGHBOUR_BIT[sr * 3 + sc + 1] end
        end
        windows[#windows + 1] = {top, left, POW2[left], need}
      end
    end
  end
  for present = 0, 255 do
    local list = {}
    for _, w in ipairs(windows) do
      local need, ok = w[4], true
      for b = 0, 7 do
        if has(need, b) and not has(present, b) then ok = false end
      end
      if ok then list[#list + 1] = w end
    end
    WINDOWS_FOR[present] = list
  end
end

local block, rows = {}, {}
local BLOCK_OFFSET = {}
for j = 0, 2 do for i = 0, 2 do BLOCK_OFFSET[j * 3 + i + 1] = (j - 1) * W + (i - 1) end end
local found_tile, found_x, found_y = {}, {}, {}

-- Fills found_tile[1..n] with the tile that each created window shows (and found_x/y with the
-- window's top-left cell); returns n.
local function created_windows(board, key)
  local present = 0
  for q = 1, 9 do
    local c = board[key + BLOCK_OFFSET[q]]
    block[q] = c
    if c then present = present + NEIGHBOUR_BIT[q] end
  end
  local windows = WINDOWS_FOR[present]
  if #windows == 0 then return 0 end
  for j = 0, 2 do
    local a, b, c = block[j * 3 + 1], block[j * 3 + 2], block[j * 3 + 3]
    local base = j * 3 + 1
    rows[base] = (a and ROW0[a] or 0) + 8 * (b and ROW0[b] or 0) + 64 * (c and ROW0[c] or 0)
    rows[base + 1] = (a and ROW1[a] or 0) + 8 * (b and ROW1[b] or 0) + 64 * (c and ROW1[c] or 0)
    rows[base + 2] = (a and ROW2[a] or 0) + 8 * (b and ROW2[b] or 0) + 64 * (c and ROW2[c] or 0)
  end
  local n = 0
  local kx, ky = xy_of(key)
  for w = 1, #windows do
    local win = windows[w]
    local top, div = win[1], win[3]
    local mask = floor(rows[top + 1] / div) % 8 + 8 * (floor(rows[top + 2] / div) % 8)
               + 64 * (floor(rows[top + 3] / div) % 8)
    local t = TILE_OF[mask]
    if t ~= 0 then
      n = n + 1
      found_tile[n] = t
      found_x[n], found_y[n] = 3 * (kx - 1) + win[2], 3 * (ky - 1) + top
    end
  end
  return n
end

-- How many windows show tile t over a whole Knownads layout, counted as play counts them: the
-- windows each placement created, oldest tile first (slots lists the newest first).
local function windows_showing(slots, codes, t)
  local board, count = {}, 0
  for i = #slots, 1, -1 do
    local key = slots[i]
    board[key] = codes[i]
    for w = 1, created_windows(board, key) do
      if found_tile[w] == t then count = count + 1 end
    end
  end
  return count
end

---------------------------------------------------------------------------------------------
-- Explicit set-ups (docs/games/nonads.md, Options): targets, hands, deck as comma-separated tile
-- numbers.

local function read_tiles(name, text)
  local out = {}
  if text == "" then return out end
  for _, part in ipairs(nomv.split(text, ",")) do
    local p = part:match("^%s*(.-)%s*$")
    local t = tonumber(p)
    if not t or t ~= floor(t) or t < 1 or t > NTILES or not p:match("^%d+$") then
      return nil, ("%s: %q is not a tile number (1-34)"):format(name, p)
    end
    out[#out + 1] = t
  end
  return out
end

local SETUP_NAMES = {"targets", "hands", "deck"}

local function read_setup(opts)
  local lists, where = {}, {}
  for _, name in ipairs(SETUP_NAMES) do
    local list, err = read_tiles(name, opts[name])
    if not list then return nil, err end
    lists[name] = list
    for _, t in ipairs(list) do
      if where[t] then
        return nil, ("tile %d is listed twice (in %s and %s); all tiles must be distinct"):format(t, where[t], name)
      end
      where[t] = name
    end
  end
  for _, name in ipairs({"targets", "hands"}) do
    if #lists[name] ~= opts.players then
      return nil, ("%s lists %d tile%s but there %s %d players: give one per player"):format(
        name, #lists[name], #lists[name] == 1 and "" or "s", "are", opts.players)
    end
  end
  return lists
end

---------------------------------------------------------------------------------------------
-- Turns.

local function next_active(s, active, p)
  local np = s.players
  for k = 1, np do
    local q = (p + k - 1) % np + 1
    if active[q] then return q end
  end
  return p
end

-- The position as text, for the repetition rule (T9): every tile's slot and rotation, listed
-- by tile number (so no sorting is needed), with the player to move, the banned tile and the
-- tiles in hand and deck.
local where, PIECE = {}, {}
local function position_key(slots, codes, to_move, last, hands, deck)
  for t = 1, NTILES do where[t] = "0" end
  for i = 1, #slots do
    local code = codes[i]
    local v = slots[i] * 4 + code % 4
    local piece = PIECE[v]
    if not piece then piece = tostring(v); PIECE[v] = piece end
    where[floor(code / 4)] = piece
  end
  return concat(where, ",") .. "|" .. to_move .. "|" .. last .. "|" .. concat(hands, ",") .. "|" .. concat(deck, ",")
end

local function placement(key, r)
  return {slot_id(key), ROT_ID[r], key = key, r = r}
end

local function slide(from, key, r)
  return {tile_id(from), slot_id(key), ROT_ID[r], from = from, key = key, r = r}
end

local function all_moves(s)
  local out = {}
  local p = s.to_move
  local hand = s.hands[p]
  if #s.slots == 0 then
    out[1] = placement(ORIGIN, 0)                      -- T11: the first tile at (0, 0), r = 0
    return out
  end
  if hand ~= 0 then
    local slots = {}
    local _, n = frontier(board_of(s), s.slots, slots)
    sort(slots)
    local rots = rotations(s, hand)
    for i = 1, n do
      for _, r in ipairs(rots) do out[#out + 1] = placement(slots[i], r) end
    end
    return out
  end
  -- Tiebreaker: pick up a tile, put it in another slot touching the rest of the layout.
  local slots = {}
  local board = board_of(s)
  local _, n = frontier(board, s.slots, slots)
  sort(slots)
  for _, from in ipairs(movable_tiles(s)) do
    local rots = rotations(s, floor(board[from] / 4))
    for i = 1, n do
      local j = slots[i]
      -- j stays a legal slot without the moved tile unless that tile was its only neighbour.
      local alone = touching(j) == 1 and (j == from - W or j == from + 1 or j == from + W or j == from - 1)
      if not alone then
        for _, r in ipairs(rots) do out[#out + 1] = slide(from, j, r) end
      end
    end
  end
  return out
end

-- Reads the move's fields, or works them out from its steps (a move built by hand).
local function key_in(id)
  local x, y = id:match(":(-?%d+),(-?%d+)$")
  return key_of(tonumber(x), tonumber(y))
end

local function decode(m)
  if m.key then return m.key, m.r, m.from end
  local k = key_in
  if #m == 2 then return k(m[1]), tonumber(m[2]:match("%d+$")), nil end
  return k(m[2]), tonumber(m[3]:match("%d+$")), k(m[1])
end

local function play(s, m, rng)
  local key, r, from = decode(m)
  local p, np = s.to_move, s.players
  local board = board_of(s)
  local old_slots, old_codes = s.slots, s.codes
  local slots, codes, code
  local hands = {}
  for q = 1, np do hands[q] = s.hands[q] end
  local tiebreak = from ~= nil
  if tiebreak then
    -- Copy the layout, leaving out the moved tile, and put it back in its new slot.
    code = 4 * floor(board[from] / 4) + r
    slots, codes = {key}, {code}
    for i = 1, #old_slots do
      local k = old_slots[i]
      if k ~= from then slots[#slots + 1] = k; codes[#codes + 1] = old_codes[i] end
    end
  else
    code = 4 * hands[p] + r
    hands[p] = 0
    -- The newest tile comes first: one exact-size copy.
    slots, codes = {key, unpack(old_slots)}, {code, unpack(old_codes)}
  end

  -- Draw after the move (a player without a hand tile draws whenever the deck has tiles).
  local deck = s.deck
  if hands[p] == 0 and #deck > 0 then
    hands[p] = deck[1]
    deck = {unpack(deck, 2)}
  end

  local ns = {
    players = np, mode = s.mode, rotation = s.rotation, clear_line = s.clear_line,
    max_tiebreak_turns = s.max_tiebreak_turns,
    targets = s.targets, hands = hands, deck = deck, slots = slots, codes = codes,
    last = key, active = s.active, tiebreak_turns = s.tiebreak_turns + (tiebreak and 1 or 0),
    turn = s.turn + 1, reps = s.reps, scores = s.scores,
  }

  -- Move the lookup table along to the new state.
  if from then board[from] = false end
  board[key] = code
  indexed = ns

  -- What the move made (T3, T4, T10).
  local n = created_windows(board, key)
  local mode, targets = s.mode, s.targets
  if mode == "knownads" then
    if n > 0 then
      local scores = {}
      for q = 1, np do scores[q] = s.scores[q] end
      for i = 1, n do
        for q = 1, np do if targets[q] == found_tile[i] then scores[q] = scores[q] + 1 end end
      end
      ns.scores = scores
    end
  else
    local own, other = nil, nil
    for i = 1, n do
      local t = found_tile[i]
      if t == targets[p] then own = own or i end
      if mode == "advanced" then
        for q = 1, np do
          if q ~= p and s.active[q] and targets[q] == t then other = other or i; ns.made_for = ns.made_for or q end
        end
      end
    end
    if other then
      ns.window = {found_x[other], found_y[other]}
      local active = {}
      for q = 1, np do active[q] = s.active[q] end
      active[p] = false
      ns.active = active
      -- The loser leaves; their hand and target go back into the deck, shuffled.
      local back = {}
      for i = 1, #deck do back[i] = deck[i] end
      if hands[p] ~= 0 then back[#back + 1] = hands[p] end
      back[#back + 1] = targets[p]
      rng:shuffle(back)
      ns.deck = back
      hands[p] = 0
      local tg = {}
      for q = 1, np do tg[q] = targets[q] end
      tg[p] = 0
      ns.targets = tg
      ns.left = p
      local remaining, last_one = 0, nil
      for q = 1, np do if active[q] then remaining = remaining + 1; last_one = q end end
      if remaining == 1 then
        ns.winner = last_one
        ns.reason = ("Player %d made Player %d's target"):format(p, ns.made_for)
        ns.reason_it = ("il giocatore %d ha formato l'obiettivo del giocatore %d"):format(p, ns.made_for)
        ns.to_move = last_one
        return ns
      end
    elseif own then
      ns.window = {found_x[own], found_y[own]}
      ns.winner = p
      ns.reason = ("Player %d made their target"):format(p)
      ns.reason_it = ("il giocatore %d ha formato il suo obiettivo"):format(p)
      ns.to_move = p
      return ns
    end
  end

  local nxt = next_active(ns, ns.active, p)
  ns.to_move = nxt
  if hands[nxt] == 0 and #ns.deck > 0 then
    -- Only after a departure refilled an empty deck: the next player draws before moving.
    hands[nxt] = ns.deck[1]
    ns.deck = {unpack(ns.deck, 2)}
  end

  if mode == "knownads" then
    local done = #ns.deck == 0
    for q = 1, np do if hands[q] ~= 0 then done = false end end
    if done then ns.finished = true end
    return ns
  end

  if hands[nxt] == 0 then
    -- A tiebreaker position: the safeguards of T9.
    if ns.tiebreak_turns >= s.max_tiebreak_turns then
      ns.draw = true
      ns.reason = ("no winner after %d tiebreaker moves"):format(s.max_tiebreak_turns)
      ns.reason_it = ("nessun vincitore dopo %d mosse di spareggio"):format(s.max_tiebreak_turns)
      return ns
    end
    local pk = position_key(slots, codes, nxt, key, hands, ns.deck)
    local reps, seen = {}, 1
    for i = 1, #s.reps do
      local v = s.reps[i]
      reps[i] = v
      if v == pk then seen = seen + 1 end
    end
    reps[#reps + 1] = pk
    ns.reps = reps
    if seen >= 3 then
      ns.draw = true
      ns.reason = "the same position occurred three times"
      ns.reason_it = "la stessa posizione si è ripetuta tre volte"
    end
  end
  return ns
end

---------------------------------------------------------------------------------------------
-- Drawing.

local BLACK, WHITE, EDGE = "#1e1e1e", "#f7f5ef", "#7a7060"

-- The 9 cells of a pattern in a square of side `size` with top-left (x, y).
local function draw_tile(items, mask, x, y, size, layer)
  local c = size / 3
  for row = 0, 2 do
    for col = 0, 2 do
      items[#items + 1] = {shape = "rect", x = x + (col + 0.5) * c, y = y + (row + 0.5) * c, w = c, h = c,
                           fill = has(mask, 3 * row + col) and BLACK or WHITE, stroke = "#bbbbbb",
                           width = 0.02, layer = layer or 1}
    end
  end
  items[#items + 1] = {shape = "rect", x = x + size / 2, y = y + size / 2, w = size, h = size,
                       stroke = EDGE, width = 0.06, layer = layer or 1}
end

local function status(s)
  if s.winner then
    return {en = "Player " .. s.winner .. " wins: " .. s.reason, it = "Vince il giocatore " .. s.winner .. ": " .. s.reason_it}
  end
  if s.draw then return {en = "Draw: " .. s.reason, it = "Patta: " .. s.reason_it} end
  if s.finished then return {en = "All tiles placed", it = "Tutte le tessere sono posate"} end
  local p = s.to_move
  if s.hands[p] == 0 and s.mode ~= "knownads" then
    return {en = "Player " .. p .. " to move: slide a tile to a new place (tiebreaker)",
            it = "Tocca al giocatore " .. p .. ": sposta una tessera in un posto nuovo (spareggio)"}
  end
  return {en = "Player " .. p .. " to move: place the hand tile",
          it = "Tocca al giocatore " .. p .. ": posa la tessera che hai in mano"}
end

local function knownads_scores(s) return s.scores end

local function game_over(s)
  return s.winner or s.draw or s.finished
end

local function scene(s)
  local items = {}
  local legal = game_over(s) and {} or all_moves(s)
  local slot_ids, tile_ids, rot_ids = {}, {}, {}
  for _, m in ipairs(legal) do
    slot_ids[m.key] = true
    if m.from then tile_ids[m.from] = true end
    rot_ids[m.r] = true
  end
  -- The layout: every placed tile cell by cell, then the legal slots around it.
  local box = {0, 0, 0, 0}
  if #s.slots > 0 then box = {bounds(s.slots)} end
  for _, k in ipairs(legal) do
    local x, y = xy_of(k.key)
    if x < box[1] then box[1] = x end
    if y < box[2] then box[2] = y end
    if x > box[3] then box[3] = x end
    if y > box[4] then box[4] = y end
  end
  local board = board_of(s)
  for i = 1, #s.slots do
    local k = s.slots[i]
    local x, y = xy_of(k)
    draw_tile(items, PAT[s.codes[i]], 3 * x, 3 * y, 3, 1)
    if tile_ids[k] then
      items[#items + 1] = {shape = "rect", id = tile_id(k), x = 3 * x + 1.5, y = 3 * y + 1.5, w = 3, h = 3,
                           fill = "#00000000", stroke = "#3c78d8", width = 0.12, layer = 3}
    end
  end
  if s.last and s.last ~= 0 and #s.slots > 0 and board[s.last] then
    local x, y = xy_of(s.last)
    items[#items + 1] = {shape = "rect", x = 3 * x + 1.5, y = 3 * y + 1.5, w = 2.9, h = 2.9,
                         stroke = "#e0a020", width = 0.1, layer = 2, last_move = true}
  end
  local keys = nomv.sorted_keys(slot_ids)
  for _, k in ipairs(keys) do
    local x, y = xy_of(k)
    items[#items + 1] = {shape = "rect", id = slot_id(k), x = 3 * x + 1.5, y = 3 * y + 1.5, w = 2.8, h = 2.8,
                         fill = "#3c78d822", stroke = "#3c78d8", width = 0.05, layer = 0,
                         label = coord(k), label_colour = "#3c78d8"}
  end
  if s.window then
    items[#items + 1] = {shape = "rect", x = s.window[1] + 1.5, y = s.window[2] + 1.5, w = 3, h = 3,
                         stroke = "#d02020", width = 0.15, layer = 4}
  end

  -- The panel to the right: each player's target and hand tile, the deck, the rotations.
  local px = 3 * (box[3] + 1) + 2
  local py = 3 * box[2]
  local np = s.players
  local scores = s.mode == "knownads" and knownads_scores(s) or nil
  for p = 1, np do
    local y = py + (p - 1) * 3.2
    local name, nome = "Player " .. p, "Giocatore " .. p
    if s.active and not s.active[p] then name, nome = name .. " (out)", nome .. " (fuori)" end
    if scores then
      local n = scores[p]
      name = name .. ": " .. (n < 0 and "?" or n) .. (n == 1 and " point" or " points")
      nome = nome .. ": " .. (n < 0 and "?" or n) .. (n == 1 and " punto" or " punti")
    end
    name = {en = name, it = nome}
    items[#items + 1] = {shape = "text", x = px, y = y + 0.3, text = name, size = 0.6, align = "left",
                         bold = (not game_over(s)) and p == s.to_move, fill = "#303030"}
    local t = s.targets[p]
    items[#items + 1] = {shape = "text", x = px, y = y + 1.3, text = {en = "target", it = "scopo"}, size = 0.45, align = "left", fill = "#606060"}
    if t and t > 0 then
      draw_tile(items, CANON[t], px + 1.5, y + 0.7, 1.8, 1)
      items[#items + 1] = {shape = "text", x = px + 2.4, y = y + 2.8, text = "#" .. t, size = 0.4, fill = "#606060"}
    else
      items[#items + 1] = {shape = "rect", x = px + 2.4, y = y + 1.6, w = 1.8, h = 1.8, fill = "#c8c8c8",
                           stroke = EDGE, width = 0.06, label = "?", label_colour = "#404040", layer = 1}
    end
    local h = s.hands[p]
    items[#items + 1] = {shape = "text", x = px + 3.7, y = y + 1.3, text = {en = "hand", it = "mano"}, size = 0.45, align = "left", fill = "#606060"}
    if h ~= 0 then
      draw_tile(items, CANON[h], px + 5, y + 0.7, 1.8, 1)
      items[#items + 1] = {shape = "text", x = px + 5.9, y = y + 2.8, text = "#" .. h, size = 0.4, fill = "#606060"}
    else
      items[#items + 1] = {shape = "text", x = px + 5.9, y = y + 1.6, text = {en = "none", it = "nessuna"}, size = 0.4, fill = "#606060"}
    end
  end
  local y = py + np * 3.2
  items[#items + 1] = {shape = "text", x = px, y = y + 0.3, size = 0.5, align = "left", fill = "#303030",
                       text = {en = "deck: " .. #s.deck .. (#s.deck == 1 and " tile" or " tiles"),
                               it = "mazzo: " .. #s.deck .. (#s.deck == 1 and " tessera" or " tessere")}}
  -- Rotation buttons: the hand tile turned each distinct way, or plain turns in the tiebreaker.
  local rkeys = nomv.sorted_keys(rot_ids)
  if #rkeys > 0 then
    y = y + 1
    items[#items + 1] = {shape = "text", x = px, y = y + 0.3, text = {en = "rotation (clockwise turns)", it = "rotazione (giri in senso orario)"}, size = 0.45,
                         align = "left", fill = "#606060"}
    local hand = s.hands[s.to_move]
    for i, r in ipairs(rkeys) do
      local bx = px + (i - 1) * 2.3
      if hand ~= 0 then
        draw_tile(items, PAT[4 * hand + r], bx, y + 0.8, 1.8, 1)
        items[#items + 1] = {shape = "rect", id = ROT_ID[r], x = bx + 0.9, y = y + 1.7, w = 2, h = 2,
                             fill = "#00000000", stroke = "#3c78d8", width = 0.05, layer = 3}
      else
        items[#items + 1] = {shape = "rect", id = ROT_ID[r], x = bx + 0.9, y = y + 1.7, w = 1.8, h = 1.8,
                             fill = "#e8eef8", stroke = "#3c78d8", width = 0.05, layer = 3,
                             label = tostring(90 * r), label_colour = "#303030"}
      end
    end
  end
  items.status = status(s)
  return items
end

---------------------------------------------------------------------------------------------
-- Random moves, for playouts.  The scratch lists are reused so that a random move makes no
-- table for the frontier or the movable tiles.

local out_scratch, tiles_scratch, weights_scratch = {}, {}, {}

-- Uniform over all legal moves without listing them.
local function fast_random_move(s, rng)
  local p = s.to_move
  local hand = s.hands[p]
  if #s.slots == 0 then return placement(ORIGIN, 0) end
  local board = board_of(s)
  local slots, n = frontier(board, s.slots, out_scratch)
  if hand ~= 0 then
    local rots = rotations(s, hand)
    local pick = rng:int(n * #rots) - 1
    return placement(slots[floor(pick / #rots) + 1], rots[pick % #rots + 1])
  end
  local tiles = movable_tiles(s, tiles_scratch)
  local weights, total = weights_scratch, 0
  for i, from in ipairs(tiles) do
    local lost = 0
    for d = 1, 4 do
      local j = from + DIRS[d]
      if not board[j] and touching(j) == 1 then lost = lost + 1 end
    end
    local wgt = (n - lost) * #rotations(s, floor(board[from] / 4))
    weights[i] = wgt
    total = total + wgt
  end
  local pick = rng:int(total)
  for i, from in ipairs(tiles) do
    if pick <= weights[i] then
      local rots = rotations(s, floor(board[from] / 4))
      local slot_pick = floor((pick - 1) / #rots)          -- 0-based among the allowed slots
      local r = rots[(pick - 1) % #rots + 1]
      for k = 1, n do
        local j = slots[k]
        local alone = touching(j) == 1 and (j == from - W or j == from + 1 or j == from + W or j == from - 1)
        if not alone then
          if slot_pick == 0 then return slide(from, j, r) end
          slot_pick = slot_pick - 1
        end
      end
    end
    pick = pick - weights[i]
  end
end

---------------------------------------------------------------------------------------------

return {
  name = "nonads",
  title = "Nonads",
  info = {
    author = "Cameron Browne",
    source = "Cameron Browne's Nonads page (c) 2011; the rules as nomv plays them in docs/games/nonads.md",
    rules = {en = "Place your hand tile edge to edge with the tiles already played (any rotation), "
                  .. "then draw. You win when your placement makes a 3x3 block of cells, anywhere across "
                  .. "the tiles, that shows your target tile in some rotation. When the deck is out, a "
                  .. "player without a tile slides a placed tile (not the one just played) to a new "
                  .. "place. Advanced: making another player's target loses. Knownads: targets are "
                  .. "secret, all tiles are placed, and each 3x3 block showing your target scores a "
                  .. "point.",
             it = "Metti la tessera che hai in mano lato a lato con quelle già giocate (in qualsiasi "
                  .. "rotazione), poi pesca. Vinci quando la tua mossa forma un blocco 3x3 di celle, "
                  .. "ovunque sulle tessere, che mostra la tua tessera obiettivo in qualche rotazione. "
                  .. "Finito il mazzo, chi non ha tessere fa scivolare una tessera posata (non l'ultima "
                  .. "giocata) in un nuovo posto. Avanzato: formare l'obiettivo di un altro fa perdere. "
                  .. "Knownads: gli obiettivi sono segreti, si posano tutte le tessere, e ogni blocco "
                  .. "3x3 che mostra il tuo obiettivo vale un punto."},
  },
  players = {min = 2, max = 4, default = 2,
             names = {{en = "Player 1", it = "Giocatore 1"}, {en = "Player 2", it = "Giocatore 2"},
                      {en = "Player 3", it = "Giocatore 3"}, {en = "Player 4", it = "Giocatore 4"}},
             colours = {"#d04040", "#3c78d8", "#40a050", "#c08020"}},
  options = {
    mode = {default = "basic", choices = {"basic", "advanced", "knownads"}, order = 1,
            label = {en = "mode", it = "modo"},
            help = {en = "advanced: making another's target loses; knownads: hidden targets, score points",
                    it = "advanced: formare l'obiettivo di un altro fa perdere; knownads: obiettivi nascosti, punti"}},
    rotation = {default = true, order = 2, label = {en = "rotation", it = "rotazione"},
                help = {en = "tiles may be turned when placed (T1)", it = "le tessere si possono girare quando si posano (T1)"}},
    slide_rule = {default = "open_side", choices = {"open_side", "clear_line"}, order = 3,
                  label = {en = "slide rule", it = "regola dello scivolamento"},
                  help = {en = "which tiles can be slid out in the tiebreaker (T7)",
                          it = "quali tessere si possono far scivolare fuori nello spareggio (T7)"}},
    max_tiebreak_turns = {default = 60, min = 1, max = MAX_TIEBREAK, order = 4,
                          label = {en = "tiebreaker moves", it = "mosse di spareggio"},
                          help = {en = "the game is a draw after this many tiebreaker moves (T9)",
                                  it = "la partita è patta dopo tante mosse di spareggio (T9)"}},
    targets = {default = "", order = 5, label = {en = "targets", it = "obiettivi"},
               help = {en = "explicit set-up: the targets' tile numbers in player order, e.g. 12,30",
                       it = "disposizione esplicita: i numeri delle tessere obiettivo nell'ordine dei giocatori, es. 12,30"}},
    hands = {default = "", order = 6, label = {en = "hands", it = "mani"},
             help = {en = "explicit set-up: the hand tiles in player order",
                     it = "disposizione esplicita: le tessere in mano nell'ordine dei giocatori"}},
    deck = {default = "", order = 7, label = {en = "deck", it = "mazzo"},
            help = {en = "explicit set-up: the deck from the top down (may be short or empty)",
                    it = "disposizione esplicita: il mazzo dall'alto in basso (può essere corto o vuoto)"}},
  },
  variants = {advanced = {mode = "advanced"}, knownads = {mode = "knownads"}},

  check = function(opts, given)
    local any, missing = false, {}
    for _, name in ipairs(SETUP_NAMES) do
      if given[name] ~= nil and given[name] ~= "" then any = true end
    end
    if any then
      for _, name in ipairs(SETUP_NAMES) do
        if given[name] == nil or (name ~= "deck" and given[name] == "") then missing[#missing + 1] = name end
      end
      if #missing > 0 then
        return ("targets, hands and deck go together: give %s too (deck may be empty)"):format(concat(missing, " and "))
      end
      local lists, err = read_setup(opts)
      if not lists then return err end
    end
  end,

  setup = function(opts, rng)
    local np = opts.players
    local targets, hands, deck = {}, {}, {}
    if opts.targets ~= "" then
      local lists = assert(read_setup(opts))
      targets, hands, deck = lists.targets, lists.hands, lists.deck
    else
      local all = {}
      for t = 1, NTILES do all[t] = t end
      rng:shuffle(all)
      -- Every player draws a target, then every player draws a hand tile (docs/games/nonads.md,
      -- Set-up).
      for p = 1, np do targets[p] = all[p]; hands[p] = all[np + p] end
      for i = 2 * np + 1, NTILES do deck[#deck + 1] = all[i] end
    end
    local active, scores = {}, {}
    for p = 1, np do active[p] = true; scores[p] = 0 end
    return {
      players = np, mode = opts.mode, rotation = opts.rotation, clear_line = opts.slide_rule == "clear_line",
      max_tiebreak_turns = opts.max_tiebreak_turns,
      targets = targets, hands = hands, deck = deck, slots = {}, codes = {}, last = 0,
      active = active, tiebreak_turns = 0, turn = 1, reps = {}, scores = scores, to_move = 1,
    }
  end,

  -- A named local, because scene lists the legal moves too (to draw the slots and buttons).
  moves = all_moves,

  play = play,

  result = function(s)
    if s.winner then return {winner = s.winner, reason = {en = s.reason, it = s.reason_it}} end
    if s.draw then return {draw = true, reason = {en = s.reason, it = s.reason_it}} end
    if s.finished then
      return {scores = s.scores, reason = {en = "windows showing each player's target",
                                           it = "finestre che mostrano l'obiettivo di ogni giocatore"}}
    end
    return nil
  end,

  scene = scene,

  notation = function(s, m)
    if m.from then return coord(m.from) .. ">" .. coord(m.key) .. "/" .. m.r end
    return coord(m.key) .. "/" .. m.r
  end,

  -- "x,y/r", "x1,y1>x2,y2/r", or a log's "#17@x,y/r".  A rotation that repeats a lower one's
  -- pattern (a symmetric tile) names the move with the lowest.
  parse = function(s, text)
    local t = text:gsub("%s", "")
    local tile, rest = t:match("^#(%d+)@(.*)$")
    if tile then t = rest end
    local x1, y1, x2, y2, r = t:match("^(-?%d+),(-?%d+)>(-?%d+),(-?%d+)/(%d+)$")
    local p = s.to_move
    if x1 then
      if s.hands[p] ~= 0 then return nil, "you hold a tile: place it, as x,y/r" end
      local from = key_of(tonumber(x1), tonumber(y1))
      local code = board_of(s)[from]
      if not code then return nil, "no tile at " .. x1 .. "," .. y1 end
      tile = tile and tonumber(tile)
      if tile and tile ~= floor(code / 4) then return nil, ("the tile at %s,%s is #%d"):format(x1, y1, floor(code / 4)) end
      r = tonumber(r)
      if r > 3 then return nil, "the rotation is 0, 1, 2 or 3" end
      local key = key_of(tonumber(x2), tonumber(y2))
      return {tile_id(from), slot_id(key), ROT_ID[lowest_rotation(floor(code / 4), r)]}
    end
    local x, y
    x, y, r = t:match("^(-?%d+),(-?%d+)/(%d+)$")
    if not x then
      x, y = t:match("^(-?%d+),(-?%d+)$")
      if not x then return nil, "write a placement as x,y/r and a tiebreaker move as x1,y1>x2,y2/r" end
      r = "0"
      if s.hands[p] ~= 0 and #rotations(s, s.hands[p]) > 1 and #s.slots > 0 then
        return nil, "give the rotation: x,y/r with r = 0..3 clockwise quarter turns"
      end
    end
    if s.hands[p] == 0 then return nil, "you hold no tile: move a placed tile, as x1,y1>x2,y2/r" end
    if tile and tonumber(tile) ~= s.hands[p] then return nil, ("your hand tile is #%d"):format(s.hands[p]) end
    r = tonumber(r)
    if r > 3 then return nil, "the rotation is 0, 1, 2 or 3" end
    local key = key_of(tonumber(x), tonumber(y))
    return {slot_id(key), ROT_ID[lowest_rotation(s.hands[p], r)]}
  end,

  text = function(s)
    local lines = {}
    local mode = s.mode == "basic" and "" or (" (" .. s.mode .. ")")
    lines[1] = ("Nonads%s, turn %d"):format(mode, s.turn)
    if #s.slots > 0 then
      local x0, y0, x1, y1 = bounds(s.slots)
      local head = {"      "}
      for x = x0, x1 do head[#head + 1] = ("%-4s"):format(tostring(x)) end
      lines[#lines + 1] = concat(head)
      for y = y0, y1 do
        for row = 0, 2 do
          local parts = {row == 0 and ("%5s "):format("y=" .. y) or "      "}
          for x = x0, x1 do
            local code = board_of(s)[key_of(x, y)]
            if code then
              local m, chars = PAT[code], {}
              for col = 0, 2 do chars[col + 1] = has(m, 3 * row + col) and "#" or "." end
              parts[#parts + 1] = concat(chars) .. " "
            else
              parts[#parts + 1] = "    "
            end
          end
          lines[#lines + 1] = (concat(parts):gsub("%s+$", ""))
        end
      end
    else
      lines[#lines + 1] = "(no tile placed yet)"
    end
    lines[#lines + 1] = ""
    for p = 1, s.players do
      local t, h = s.targets[p], s.hands[p]
      local tt = (t and t > 0) and ("#%d %s"):format(t, picture(t, 0)) or "hidden"
      local hh = h ~= 0 and ("#%d %s"):format(h, picture(h, 0)) or "none"
      local extra = ""
      if s.mode == "knownads" then
        extra = ", " .. (s.scores[p] < 0 and "?" or s.scores[p]) .. " points"
      end
      if not s.active[p] then extra = extra .. ", out" end
      if not game_over(s) and p == s.to_move then extra = extra .. "  <- to move" end
      lines[#lines + 1] = ("Player %d: target %s, hand %s%s"):format(p, tt, hh, extra)
    end
    lines[#lines + 1] = ("Deck: %d tiles%s"):format(#s.deck,
      s.tiebreak_turns > 0 and (", %d tiebreaker moves played"):format(s.tiebreak_turns) or "")
    return concat(lines, "\n")
  end,
  -- Knownads hides the other players' targets, and so their scores so far (-1: unknown); no
  -- mode shows the order of the deck, and Knownads not even its contents (they would give the
  -- hidden targets away by elimination).
  view = function(s, player)
    local v = nomv.shallow(s)
    local deck = {}
    for i = 1, #s.deck do deck[i] = s.deck[i] end
    if s.mode == "knownads" then
      for i = 1, #deck do deck[i] = 0 end
      local targets, scores = {}, {}
      for p = 1, s.players do
        targets[p] = p == player and s.targets[p] or 0
        scores[p] = p == player and s.scores[p] or -1
      end
      v.targets, v.scores = targets, scores
    else
      sort(deck)
    end
    v.deck = deck
    return v
  end,

  -- For the computer player: a whole state that `player` cannot tell from the real one, the
  -- unknown filled in at random from `player`'s view: the deck's order, and in Knownads which
  -- unseen tiles are the other players' targets and which are in the deck.
  determinize = function(v, player, rng)
    local d = nomv.shallow(v)
    local unknown = {}
    if v.mode ~= "knownads" then
      for i = 1, #v.deck do unknown[i] = v.deck[i] end
      d.deck = rng:shuffle(unknown)
      return d
    end
    local seen = {[v.targets[player]] = true}
    for q = 1, v.players do seen[v.hands[q]] = true end
    for i = 1, #v.codes do seen[floor(v.codes[i] / 4)] = true end
    for t = 1, NTILES do if not seen[t] then unknown[#unknown + 1] = t end end
    rng:shuffle(unknown)
    local targets, k = {}, 0
    for q = 1, v.players do
      if q == player then targets[q] = v.targets[q] else k = k + 1; targets[q] = unknown[k] end
    end
    local deck, scores = {}, {}
    for i = 1, #v.deck do deck[i] = unknown[k + i] end
    -- The scores so far follow from the layout and the targets.
    for q = 1, v.players do scores[q] = windows_showing(v.slots, v.codes, targets[q]) end
    d.targets, d.deck, d.scores = targets, deck, scores
    return d
  end,

  random_move = fast_random_move,
}
