-- The requests about one position, as nomv/engine.py sends them.  Each runs guarded (errors
-- come back as JSON), checks what the game's hook returned (hooks.lua, moves.lua, results.lua,
-- scene.lua), and returns plain data: JSON text, a number, a string, or a state handle.
local H, P = ...

local type, tostring = type, tostring
local format = string.format
local concat = table.concat
local guarded, contract, describe, short_message = P.guarded, P.contract, P.describe, P.short_message
local to_json, cached_moves, encode_move = P.to_json, P.cached_moves, P.encode_move
local MAX_TEXT = P.MAX_TEXT

local G
P.on_game(function(game) G = game end)

function H.setup(opts, seed)
  return guarded("setup", function()
    return P.new_state(opts, P.Rng.new(seed))
  end)
end

function H.check(opts, given)
  if type(G.check) ~= "function" then return true, nil end
  return guarded("check", function()
    local msg = G.check(opts, given)
    if msg ~= nil and type(msg) ~= "string" then contract("E055", "check must return nil or an error message (a string)") end
    return short_message(msg)
  end)
end

function H.moves(state)
  return guarded("moves", function()
    local ms = cached_moves(state)
    local out = {}
    for i = 1, #ms do out[i] = encode_move(ms[i]) end
    return to_json(out, "moves")
  end)
end

-- The number of legal moves (checked like H.moves, without building their JSON).
function H.move_count(state)
  return guarded("moves", function() return #cached_moves(state) end)
end

function H.play(state, index)
  return guarded("play", function()
    local mv = cached_moves(state)[index]
    if not mv then contract(nil, "no legal move number " .. tostring(index)) end
    return P.do_play(state, mv)
  end)
end

-- The legal move that `steps` name, played: the new state, the move's notation (in the
-- position it was played from) and the move as H.moves gives it.  A replay is a batch of these.
function H.play_steps(state, steps)
  return guarded("play", function()
    local mv = P.legal_move_named(state, steps)
    if not mv then
      local shown = {}
      for k = 1, #steps do shown[k] = tostring(steps[k]) end
      contract("illegal", format("%s is not a legal move here", P.describe(concat(shown, "-"))))
    end
    local was = P.set_hook("notation")
    local text = P.notation_of(state, mv)
    P.set_hook(was)
    return P.do_play(state, mv), text, to_json(encode_move(mv), "move")
  end)
end

function H.result(state, np)
  return guarded("result", function()
    local o = P.result_of(state, np)
    if o == nil then return nil end
    return to_json(o, "result")
  end)
end

-- Asked only while the game runs (result gave no result), so nil is a broken contract here.
function H.to_move(state, np)
  return guarded("to_move", function()
    local p = P.checked_mover(state, np)
    if p == nil then
      contract("E063", G.to_move and "to_move returned nil while the game runs (result returned no result)"
        or "the player to move is nil while the game runs (state.to_move is not set, and there is no to_move function)")
    end
    return p
  end)
end

function H.notations(state)
  return guarded("notation", function()
    local ms = cached_moves(state)
    local out = {}
    for i = 1, #ms do out[i] = P.notation_of(state, ms[i]) end
    return to_json(out, "notation")
  end)
end

-- Uses the game's parse(): returns the index of the legal move it names, or nil and why not.
function H.parse(state, text)
  if type(G.parse) ~= "function" then return true, nil end
  return guarded("parse", function()
    local mv, why = G.parse(state, text)
    if mv == nil then
      if why == nil or why == false then return nil end
      why = tostring(why)   -- (LuaJIT hands on whatever a __tostring returns)
      if type(why) ~= "string" then
        contract("E080", "parse must give its reason as text (a string), or nothing")
      end
      return nil, short_message(why)
    end
    if type(mv) ~= "table" then contract("E080", format("parse must return a move (a list of steps) or nil, got %s", describe(mv))) end
    local _, i = P.legal_move_named(state, mv)
    return i     -- nil: the game read the text, but the move is not legal: the host says which are
  end)
end

function H.scene(state)
  return guarded("scene", function() return to_json(P.checked_scene(state), "scene") end)
end

function H.text(state)
  if type(G.text) ~= "function" then return true, nil end
  return guarded("text", function()
    local t = G.text(state)
    if type(t) ~= "string" then contract("E055", format("text must return a string, got %s", describe(t))) end
    if #t > MAX_TEXT then contract("E055", format("text returned %d characters; at most %d", #t, MAX_TEXT)) end
    return t
  end)
end

-- The state as `player` may know it (hidden information removed).  Without a view hook every
-- player sees the whole state.
function H.view(state, player)
  if type(G.view) ~= "function" then return true, state end
  return guarded("view", function()
    local v = P.checked_view(state, player)
    if v._rng == nil then v._rng = state._rng end
    return v
  end)
end

-- The game's determinize(view, player, rng), or nil without one.
function H.determinize(view, player, seed)
  if type(G.determinize) ~= "function" then return true, nil end
  return guarded("determinize", function()
    local d = P.checked_determinize(view, player, P.Rng.new(seed))
    if d._rng == nil then d._rng = view._rng end
    return d
  end)
end

-- The game's evaluate(state, player), or nil without one.
function H.evaluate(state, player)
  if type(G.evaluate) ~= "function" then return true, nil end
  return guarded("evaluate", function() return P.checked_evaluate(state, player) end)
end

function H.dump(state)
  return guarded("dump", function() return to_json(state, "state") end)
end

-- n random moves from a generator seeded with `seed`: the game's random_move(state, rng), or
-- the host's draw from steps() without one; as JSON (like H.moves), or nil with neither.
function H.random_moves(state, seed, n)
  local own = type(G.random_move) == "function"
  if not own and not P.has_steps() then return true, nil end
  return guarded(own and "random_move" or "steps", function()
    local rng = P.Rng.new(seed)
    local out = {}
    for i = 1, n do out[i] = encode_move(P.random_move_of(state, rng)) end
    return to_json(out, "random_move")
  end)
end

-- The moves steps() describes (as JSON, like H.moves), or nil without steps: the checker sets
-- them against the list of a game that has moves() too.
function H.steps_moves(state)
  if not P.has_steps() then return true, nil end
  return guarded("steps", function()
    local ms = P.moves_from_steps(state)
    local out = {}
    for i = 1, #ms do out[i] = encode_move(ms[i]) end
    return to_json(out, "moves")
  end)
end
