-- Errors.  Every request runs guarded: it returns `true, results...` or `false, error-as-JSON`
-- ({message, line, hook, kind, code}), so Python never sees a Lua error object.  The line is the
-- innermost line of the game script on the stack, so that errors inside the library still point
-- at the author's own code.  A broken contract (a hook that returned the wrong thing) is raised
-- by contract() with the checker's code for it (docs/checker.md), so that every front end can
-- name the mistake without reading the message.
local H, P = ...

local type, tostring, tonumber, select, error, pcall, xpcall, rawget, rawequal, next, getmetatable =
      type, tostring, tonumber, select, error, pcall, xpcall, rawget, rawequal, next, getmetatable
local unpack = table.unpack or unpack
local format, ssub, smatch = string.format, string.sub, string.match
local getinfo = debug.getinfo
local LIMIT, MAX_MESSAGE = P.LIMIT, P.MAX_MESSAGE
local arm, disarm, limit_seconds = P.arm, P.disarm, P.limit_seconds

local script_source, script_path, script_text = nil, nil, nil
local hook_name = nil

-- The script being loaded: its chunk name ("@path") tells its lines from the library's; its
-- text lets an error quote the author's own code (explain.lua).
function P.set_script(path, text)
  script_path, script_source, script_text = path, "@" .. path, text
end
function P.script_source() return script_source end
function P.script_text() return script_text end

-- The hook an error is reported under.  Returns the previous one, to restore.
function P.set_hook(name)
  local was = hook_name
  hook_name = name
  return was
end

local function script_line(level)
  while true do
    local info = getinfo(level, "Sl")
    if not info then return nil end
    if info.source == script_source and info.currentline and info.currentline > 0 then
      return info.currentline
    end
    level = level + 1
  end
end

-- "path:12: text" -> "text", 12.  Lua shortens long chunk names to "...end/of/path".
-- (smatch, not msg:match: string methods are the script's to look up, see sandbox.lua)
function P.strip_location(msg)
  local src, line, rest = smatch(msg, "^(.-):(%d+): (.*)$")
  if not src then return msg end
  if script_path and (src == script_path or
      (ssub(src, 1, 3) == "..." and ssub(script_path, -(#src - 3)) == ssub(src, 4))) then
    return rest, tonumber(line)
  end
  if smatch(src, "nomv/[%w_/]+%.lua$") then return rest end
  return msg
end
local strip_location = P.strip_location

-- A message of reasonable length: a script could raise an error of a hundred megabytes.
function P.short_message(m)
  if type(m) ~= "string" or #m <= MAX_MESSAGE + 100 then return m end  -- (+100: once cut, stays)
  return ssub(m, 1, MAX_MESSAGE) .. format("... (cut: the message has %d characters)", #m)
end
local short_message = P.short_message

-- A value as an error message shows it.
function P.describe(v)
  if type(v) == "string" then
    if #v > 60 then return format("%q... (%d characters)", ssub(v, 1, 60), #v) end
    return format("%q", v)
  end
  if type(v) == "table" then return "a table" end   -- (its address tells the author nothing)
  return tostring(v)
end

-- An error that the host reports as a broken contract (not an error raised in the script),
-- with the checker's code for it, and the hook that broke it when the host knows better than
-- the stack (a hook that has returned is no longer on it).  The error names `line` where
-- blame.lua found the script's line behind it, else the line where that hook begins.
function P.contract(code, msg, hook, line) error({plain = msg, code = code, hook = hook, line = line}, 0) end
local contract = P.contract

-- A text the host hands on to a front end (a result's reason, a scene's status, a label): nil,
-- a string of at most MAX_LABEL characters, or a table of languages ({en = "Red", it = "Rosso"})
-- of such strings; with `numbers`, a number too.  Anything else (a table of tables, a huge
-- table, a function) is the script's mistake: the window would choke on it every frame.
local MAX_LABEL, LANGUAGES = P.MAX_LABEL, 32
function P.check_text(v, what, code, numbers)
  local t = type(v)
  if v == nil or (numbers and t == "number") then return end
  if t == "string" then
    if #v > MAX_LABEL then contract(code, format("%s is %d characters long; at most %d", what, #v, MAX_LABEL)) end
    return
  end
  if t == "table" and getmetatable(v) == nil then
    local n = 0
    for k, x in next, v do
      n = n + 1
      if type(k) ~= "string" or #k < 2 or #k > 8 or type(x) ~= "string" or n > LANGUAGES then n = -1; break end
      if #x > MAX_LABEL then contract(code, format("%s (%s) is %d characters long; at most %d", what, k, #x, MAX_LABEL)) end
    end
    if n > 0 then return end
  end
  contract(code, format("%s must be a string, or a table of languages such as {en = \"Red\", it = \"Rosso\"}, not %s",
                        what, t == "table" and "a table of something else" or P.describe(v)))
end

-- The requests that play random games or walk the game tree: an error there is reported under
-- the hook that was running (random_move, play...), not the loop's name.  (A search stays
-- "search": the computer player's own work, determinize and evaluate included.)
local LOOPS = {playout = true, perft = true, move_generation = true}

-- The innermost function of the game table on the stack from `level`, by its field name.
local function running_hook(level)
  local game = P.game and P.game()
  if type(game) ~= "table" then return nil end
  local names = {}
  for k, v in next, game do
    if type(k) == "string" and type(v) == "function" then names[v] = k end
  end
  while true do
    local info = getinfo(level, "f")
    if not info then return nil end
    if info.func and names[info.func] then return names[info.func] end
    level = level + 1
  end
end

-- The line where the game's hook `name` begins, or nil.
local function hook_line(name)
  local game = P.game and P.game()
  local f = type(game) == "table" and rawget(game, name)
  if type(f) ~= "function" then return nil end
  local info = getinfo(f, "S")
  if info.source == script_source then return info.linedefined end
  return nil
end

local function error_hook(level)
  return LOOPS[hook_name] and running_hook(level + 1) or hook_name
end

local handler
handler = function(e)
  if rawequal(e, LIMIT) then
    return {kind = "time", message = format("took longer than %g seconds (the time limit)", limit_seconds()),
            line = script_line(3), hook = error_hook(3)}
  end
  if type(e) == "table" and type(rawget(e, "plain")) == "string" then
    local code = rawget(e, "code")
    local hook = rawget(e, "hook")
    if type(hook) == "string" then   -- (the hook has returned: the line blamed, else its first)
      local line = rawget(e, "line")
      return {kind = "error", message = e.plain, line = type(line) == "number" and line or hook_line(hook), hook = hook,
              code = type(code) == "string" and code or nil}
    end
    local line = rawget(e, "line")
    return {kind = "error", message = e.plain, line = type(line) == "number" and line or script_line(3), hook = error_hook(3),
            code = type(code) == "string" and code or nil}
  end
  local msg = type(e) == "string" and e or ("error object " .. tostring(type(e) == "table" and "(a table)" or e))
  if msg == "not enough memory" then
    return {kind = "memory", message = "used more memory than the limit allows", hook = hook_name}
  end
  local text, line = strip_location(msg)
  -- A nil from a misspelt field, used elsewhere: the line it came from (explain.lua).
  local ok, better, at = pcall(P.explain_nil, text, handler)
  if ok and better then text, line = better, at end
  return {kind = "error", message = short_message(text), line = line or script_line(3), hook = error_hook(3)}
end

-- `false, error-as-JSON` for an error (as the handler made it, or raw when it did not run).
function P.failure(err)
  if type(err) == "table" and err.kind == nil then
    err = {kind = "error", message = tostring(rawget(err, "plain")), hook = rawget(err, "hook") or hook_name,
           code = rawget(err, "code")}
  elseif type(err) == "string" then  -- the handler did not run (memory errors skip it)
    if err == "not enough memory" then
      err = {kind = "memory", message = "used more memory than the limit allows", hook = hook_name}
    else
      local text, line = strip_location(err)
      err = {kind = "error", message = text, line = line, hook = hook_name}
    end
  end
  err.message = short_message(err.message)
  if err.hook == nil then err.hook = hook_name end
  local ok, text = pcall(P.to_json, err)
  if not ok then text = '{"kind":"error","message":"an error that could not be described"}' end
  return false, text
end
local failure = P.failure

local function pack(...) return {n = select("#", ...), ...} end

-- Runs f(...) as request `name` under the limits; returns true, results... or false, json.
function P.guarded(name, f, ...)
  hook_name = name
  arm()
  local r = pack(xpcall(f, handler, ...))
  disarm()
  if r[1] then return unpack(r, 1, r.n) end
  return failure(r[2])
end
