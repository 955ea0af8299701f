-- Blame: the line of the script behind a broken contract that the host only sees once a hook
-- has returned (a list of the wrong kind, too long a list, a step listed twice, a partial move
-- changed).  The hook is run again, on the same arguments, under a debug hook that watches it;
-- hooks are pure, so the second run does what the first did.  This runs only on the way to an
-- error, never on a hot path, and tells nothing (nil) rather than a wrong line when the second
-- run differs or fails: then the error names the line where the hook begins.
--
-- A runtime has one debug hook, which also keeps the time limit: the watching hook passes the
-- count events on to it, and the hook in place before (the time limit's, or coverage's) comes
-- back afterwards.
local H, P = ...

local type, pcall, rawequal = type, pcall, rawequal
local sethook, gethook, getinfo, getlocal = debug.sethook, debug.gethook, debug.getinfo, debug.getlocal
local rawlen = rawlen or function(t) return #t end
local count_hook = P.count_hook

-- Runs f(...) with `hook` watching the events of `mask`; returns pcall's results.  The second
-- run gets the time limit afresh (the first may have used most of it, and a line hook slows a
-- run down): running out of time there only loses the line.
local function watched(hook, mask, f, ...)
  P.arm()
  local h, m, c = gethook()
  local function both(event, line)
    if event == "count" then return count_hook() end
    return hook(event, line)
  end
  sethook(both, mask, P.limit_seconds() > 0 and 10000 or 0)
  local ok, a = pcall(f, ...)
  if h then sethook(h, m, c) else sethook() end
  return ok, a
end

-- The line of the `return` that ended the call f(...) (the outermost call's, when f recurses),
-- or nil (a tail call: the frame that returns is another function's).  It is the last line of f
-- that ran.  (A line hook, not a return hook: LuaJIT calls no return hook while a count hook is
-- set, and the count hook keeps the time limit.)
function P.blame_return(f, ...)
  local line
  local function hook(event, l)
    if rawequal(getinfo(2, "f").func, f) then line = l end
  end
  local ok = watched(hook, "l", f, ...)
  return ok and line or nil
end

-- The line that first made the list f(...) returns hold `index` items, or nil.  Each script
-- function's table locals are looked at on every line: the first time a table has at least
-- `index` items, the line its function ran before is the one that added the item (an
-- `out[#out + 1] = ...`, a table.insert, a local's constructor, or a helper's line when a helper
-- adds).  A list returned as it is made (`return {...}`) has no such line.
function P.blame_growth(f, index, ...)
  local source = P.script_source()
  local found, last = {}, {}
  local function hook(event, line)
    local info = getinfo(2, "fS")
    if info.source ~= source then return end
    local g = info.func
    for i = 1, 250 do
      local name, v = getlocal(2, i)
      if name == nil then break end
      if type(v) == "table" and found[v] == nil and rawlen(v) >= index then found[v] = last[g] or line end
    end
    last[g] = line
  end
  local ok, list = watched(hook, "l", f, ...)
  return ok and type(list) == "table" and found[list] or nil
end

-- The line after which the list t no longer held n items while f(...) ran, or nil: the line
-- that changed a list the script was lent (the partial move steps() was given).
function P.blame_change(f, t, n, ...)
  local source = P.script_source()
  local culprit, last, latest = nil, {}, nil
  local function hook(event, line)
    local info = getinfo(2, "fS")
    if culprit ~= nil or info.source ~= source then return end
    local g = info.func
    if rawlen(t) ~= n then culprit = last[g] or latest end   -- changed on the line before
    last[g], latest = line, line
  end
  watched(hook, "l", f, ...)
  if culprit == nil and rawlen(t) ~= n then culprit = latest end   -- on the last line that ran
  return culprit
end
