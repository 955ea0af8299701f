-- The scene: what to draw, from the game's scene() or, without one, from its grid and pieces;
-- checked so that the window can always turn it into pixels.
local H, P = ...

local type, rawget, ipairs = type, rawget, ipairs
local huge, abs = math.huge, math.abs
local format = string.format
local contract, describe = P.contract, P.describe
local MAX_SCENE_ITEMS, MAX_SCENE_NUMBER, MAX_LABEL = P.MAX_SCENE_ITEMS, P.MAX_SCENE_NUMBER, P.MAX_LABEL

local G
P.on_game(function(game) G = game end)

local function default_scene(state)
  local grid, pieces = G.grid, G.pieces
  if type(grid) ~= "table" or type(grid.scene) ~= "function" then
    contract("E091", "the game has no scene function and no grid to draw")
  end
  local items = grid:scene()
  local board = state.board
  if type(board) == "table" and type(pieces) == "table" then
    for i = 1, grid.n do
      local p = pieces[board[i]]
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

local function scene_text(v, i, key)
  if type(v) == "string" and #v > MAX_LABEL then
    contract("E091", format("scene item %d: %s is %d characters long; at most %d", i, key, #v, MAX_LABEL))
  end
end

local function check_scene_item(item, i)
  if type(item) ~= "table" then return end  -- the window skips it; nomv check reports it
  for _, key in ipairs(SCENE_NUMBERS) do scene_number(rawget(item, key), i, key) end
  scene_text(rawget(item, "text"), i, "text")
  scene_text(rawget(item, "label"), i, "label")
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
  if type(sc.status) == "string" and #sc.status > MAX_LABEL then
    contract("E091", format("scene status is %d characters long; at most %d", #sc.status, MAX_LABEL))
  end
  return {items = items, bounds = sc.bounds, status = sc.status}
end
