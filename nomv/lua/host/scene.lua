-- The scene: what to draw, from the game's scene() or, without one, from its grid and pieces;
-- checked so that the window can always turn it into pixels.
local H, P = ...

local type, rawget, ipairs, next, getmetatable = type, rawget, ipairs, next, getmetatable
local huge, abs = math.huge, math.abs
local format = string.format
local contract, describe, check_text = P.contract, P.describe, P.check_text
local MAX_SCENE_ITEMS, MAX_SCENE_NUMBER, MAX_STEP = P.MAX_SCENE_ITEMS, P.MAX_SCENE_NUMBER, P.MAX_STEP

local G
P.on_game(function(game) G = game end)

-- The default scene: the grid's cells, each with the text labels(state) gives it, and on cell i
-- the piece for state.board[i]: pieces[v] from a table, or pieces(v, i) from a function (which
-- can give any number a piece, {label = v}: a pit's seed count).
local function default_scene(state)
  local grid, pieces, labels = G.grid, G.pieces, G.labels
  if type(grid) ~= "table" or type(grid.scene) ~= "function" then
    contract("E091", "the game has no scene function and no grid to draw")
  end
  local items = grid:scene()
  if labels then
    local texts = labels(state)
    if type(texts) ~= "table" then
      contract("E091", format("labels must return a table of texts by cell (index or id), got %s", describe(texts)))
    end
    for _, item in ipairs(items) do
      local id = type(item) == "table" and rawget(item, "id")
      if id ~= nil then
        local text = texts[id]
        if text == nil then text = texts[grid.index[id]] end
        if text ~= nil then item.label = text end
      end
    end
  end
  local board = state.board
  local by_value = type(pieces) == "function"
  if type(board) == "table" and (by_value or type(pieces) == "table") then
    for i = 1, grid.n do
      local v = board[i]
      local p
      if by_value then
        if v ~= nil then p = pieces(v, i) end
      else
        p = pieces[v]
      end
      if p ~= nil and type(p) ~= "table" then
        contract("E091", format("pieces(%s, %d) must return a piece {fill=, label=} or nil, got %s",
                                describe(v), i, describe(p)))
      end
      if p then
        items[#items + 1] = grid:piece(i, p.fill or "black", {label = p.label, stroke = p.stroke})
      end
    end
  end
  return items
end

-- Scene numbers the window can turn into pixels: finite (the JSON encoder says so for NaN and
-- infinities) and not absurd, so that one stray item cannot shrink the board to a dot.
local SCENE_NUMBERS = {"x", "y", "r", "w", "h", "size", "width", "layer"}
local function scene_number(v, i, key)
  if type(v) == "number" and v == v and v ~= huge and v ~= -huge and abs(v) > MAX_SCENE_NUMBER then
    contract("E091", format("scene item %d: %s is %s; scene numbers must be within -%d..%d",
                            i, key, format("%.6g", v), MAX_SCENE_NUMBER, MAX_SCENE_NUMBER))
  end
end

local function check_scene_item(item, i)
  if type(item) ~= "table" then return end  -- the window skips it; nomv check reports it
  for _, key in ipairs(SCENE_NUMBERS) do scene_number(rawget(item, key), i, key) end
  check_text(rawget(item, "text"), format("scene item %d: text", i), "E091", true)
  check_text(rawget(item, "label"), format("scene item %d: label", i), "E091", true)
  local id = rawget(item, "id")
  if id ~= nil and (type(id) ~= "string" or #id > MAX_STEP) then
    contract("E091", format("scene item %d: id must be a string of at most %d characters (a step's id), got %s",
                            i, MAX_STEP, describe(id)))
  end
  local pts = rawget(item, "points")
  if type(pts) == "table" then
    for k = 1, #pts do scene_number(rawget(pts, k), i, "points[" .. k .. "]") end
  end
end

-- The checked scene of a state: {items, bounds, status}.
function P.checked_scene(state)
  local sc = G.scene and G.scene(state) or default_scene(state)
  if type(sc) ~= "table" then contract("E091", format("scene must return a list of items, got %s", describe(sc))) end
  if #sc > MAX_SCENE_ITEMS then
    contract("E091", format("scene returned %d items; a scene may have at most %d", #sc, MAX_SCENE_ITEMS))
  end
  local items = {}
  for i = 1, #sc do items[i] = sc[i]; check_scene_item(sc[i], i) end
  local status, bounds = rawget(sc, "status"), rawget(sc, "bounds")
  check_text(status, "the scene's status", "E091")
  if bounds ~= nil then
    -- four finite numbers, and nothing else: the window keeps and scales them every frame
    local ok = type(bounds) == "table" and getmetatable(bounds) == nil and #bounds == 4
    if ok then
      local n = 0
      for _ in next, bounds do n = n + 1 end
      ok = n == 4
      for k = 1, 4 do
        local v = rawget(bounds, k)
        ok = ok and type(v) == "number" and v == v and abs(v) <= MAX_SCENE_NUMBER
      end
      ok = ok and bounds[1] < bounds[3] and bounds[2] < bounds[4]
    end
    if not ok then
      contract("E091", format("the scene's bounds must be {x0, y0, x1, y1}: four numbers within -%d..%d, "
                              .. "x0 < x1 and y0 < y1, got %s", MAX_SCENE_NUMBER, MAX_SCENE_NUMBER,
                              type(bounds) == "table" and "a table of something else" or describe(bounds)))
    end
    bounds = {bounds[1], bounds[2], bounds[3], bounds[4]}
  end
  return {items = items, bounds = bounds, status = status}
end
