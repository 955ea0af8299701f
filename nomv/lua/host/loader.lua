-- Loading a game script: compile it as text in a fresh sandbox, run it, and describe the game
-- table it returns (its data, which fields and hooks it has, each hook's line) for Python.
local H, P = ...

local type, next, pairs, ipairs, getmetatable, pcall = type, next, pairs, ipairs, getmetatable, pcall
local format, ssub = string.format, string.sub
local tsort = table.sort
local getinfo = debug.getinfo
local load = load
local failure, guarded, strip_location, describe = P.failure, P.guarded, P.strip_location, P.describe

-- Parts that need the game table register here; load() hands it to each (they keep it as an
-- upvalue: the hot loops read it without a table lookup).
local listeners = {}
function P.on_game(f) listeners[#listeners + 1] = f end

-- The data part of a table, for describing the game to Python (functions dropped).
local function plain_copy(v, depth)
  if type(v) ~= "table" then
    if type(v) == "function" then return nil end
    return v
  end
  if depth > 20 then return nil end
  local out = {}
  for k, x in next, v do
    if type(k) == "string" or type(k) == "number" then
      local c = plain_copy(x, depth + 1)
      if c ~= nil then out[k] = c end
    end
  end
  return out
end

-- Loads a game script; returns true, description-as-JSON.
function H.load(source, path)
  P.set_script(path, source)
  local script_source = P.script_source()
  P.set_hook("load")
  if type(source) ~= "string" then return failure({kind = "error", message = "no source"}) end
  if ssub(source, 1, 1) == "\27" then
    return failure({kind = "error", message = "binary (precompiled) chunks are not accepted; give the Lua source", line = 1})
  end
  local env, done_loading = P.make_env(P.nomv_lib)
  local chunk, err = load(source, script_source, "t", env)
  if not chunk then
    local text, line = strip_location(err)
    return failure({kind = "syntax", message = text, line = line, code = "E001"})
  end
  local ok, game = guarded("load", chunk)
  done_loading()
  if not ok then return false, game end
  if type(game) ~= "table" then
    return failure({kind = "error", code = "E002",
                    message = format("the script must return a table (the game), but it returned %s", describe(game))})
  end
  if getmetatable(game) ~= nil then
    -- The host reads the game table outside the time limit (below, and to see which hooks
    -- exist): an __index or __pairs there would run the script unguarded.
    return failure({kind = "error", code = "E011", message = "the game table must be a plain table, without a metatable"})
  end
  for _, f in ipairs(listeners) do f(game) end
  local known = {}
  for _, f in ipairs(P.schema.fields) do known[f] = true end
  local fields, hooks, unknown = {}, {}, {}
  for k, v in pairs(game) do
    if type(k) == "string" then
      fields[#fields + 1] = k
      if type(v) == "function" then hooks[#hooks + 1] = k end
      if not known[k] then unknown[#unknown + 1] = k end
    end
  end
  tsort(fields); tsort(hooks); tsort(unknown)
  local lines = {}
  for _, h in ipairs(hooks) do
    local info = getinfo(game[h], "S")
    if info.source == script_source then lines[h] = info.linedefined end
  end
  local desc = {
    name = game.name, title = plain_copy(game.title, 0), info = plain_copy(game.info, 0),
    players = plain_copy(game.players, 0), options = plain_copy(game.options, 0),
    variants = plain_copy(game.variants, 0), fields = fields, hooks = hooks,
    unknown = unknown, hook_lines = lines, most_next_steps = plain_copy(game.most_next_steps, 0),
    types = {},
  }
  for _, k in ipairs(fields) do desc.types[k] = type(game[k]) end
  local okj, text = pcall(P.to_json, desc, "game")
  if not okj then return failure(text) end
  return true, text
end
