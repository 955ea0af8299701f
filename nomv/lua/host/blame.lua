-- Blame: the line of the script behind a broken contract that the host only sees once a hook
-- has returned (a bad move in a list, a list of the wrong kind, too long a list, a step listed
-- twice, a partial move changed).  The hook is run again, on the same arguments, under a line
-- hook that watches it; hooks are pure, so the second run does what the first did.  This runs
-- only on the way to an error, never on a hot path.  A wrong line is worse than none: every
-- answer is checked against the second run (the callers check that it broke the contract the
-- same way), and nil is given whenever the line cannot be told for sure; the error then names
-- the line where the hook begins.
--
-- A runtime has one debug hook, which also keeps the time limit: the watching hook passes the
-- count events on to it, and the hook in place before (the time limit's, or coverage's) comes
-- back afterwards.
local H, P = ...

local type, pcall, rawequal, error, select, next, rawget, tostring = type, pcall, rawequal, error, select, next, rawget, tostring
local sfind = string.find
local sethook, gethook, getinfo, getlocal = debug.sethook, debug.gethook, debug.getinfo, debug.getlocal
local rawlen = rawlen or function(t) return #t end
local clock = os.clock
local count_hook, line_tick = P.count_hook, P.line_tick
-- LuaJIT runs compiled traces without calling the line hook: they are flushed first, and none
-- are compiled while the hook is set.
local flush = type(jit) == "table" and jit.flush or nil

-- Without a time limit (--time-limit 0), a second run still stops after this many seconds: a
-- line hook can make a run a hundred times slower, and only a line is at stake.
local MOST_SECONDS = 5
local GIVE_UP = {}

-- The last line each running call ran is kept per function and, within it, per first argument
-- when that is a table (the state: a hook asked again inside itself, as nomv.legal(other) does,
-- has another).  Lua has no identity for a call, and finding the depth of the stack on every
-- line would cost more than the run.  Returns the table of a function's lines and the key.
local function call_of(last, g)
  local per = last[g]
  if per == nil then per = {}; last[g] = per end
  local _, a1 = getlocal(3, 1)
  if type(a1) == "table" then return per, a1 end
  return per, per
end

-- Whether the running call at `level` of the hook's caller is the call f(a1, a2) (its first
-- parameters are these arguments): the call blamed, not a call of f inside it.
local function is_call(level, f, np, a1, a2)
  if np >= 1 and not rawequal(select(2, getlocal(level + 1, 1)), a1) then return false end
  if np >= 2 and not rawequal(select(2, getlocal(level + 1, 2)), a2) then return false end
  return true
end

-- Runs f(...) with `hook` watching its lines; returns pcall's results.  The second run gets
-- the time limit afresh (the first may have used most of it): running out of time there only
-- loses the line.
local function watched(hook, f, ...)
  P.arm()
  if flush then flush() end
  local h, m, c = gethook()
  local limited, give_up = P.limit_seconds() > 0, clock() + MOST_SECONDS
  local function both(event, line)
    if event == "count" or line_tick() then
      if not limited and clock() > give_up then error(GIVE_UP, 0) end
      count_hook()
      if event == "count" then return end
    end
    return hook(event, line)
  end
  sethook(both, "l", 10000)
  local ok, a = pcall(f, ...)
  if h then sethook(h, m, c) else sethook() end
  return ok, a
end

-- The line of the `return` that ended the call f(...) (the outermost call's, when f recurses),
-- or nil (a tail call: the frame that returns is another function's), with what f returned.
-- It is the last line of f that ran.  (A line hook, not a return hook: LuaJIT calls no return
-- hook while a count hook is set, and the count hook keeps the time limit.)
function P.blame_return(f, ...)
  local line
  local a1, a2 = ...
  local np = getinfo(f, "u").nparams
  local function hook(event, l)
    -- (this call's frame: a call of f inside it, such as a recursion, has other arguments)
    if rawequal(getinfo(2, "f").func, f) and is_call(2, f, np, a1, a2) then line = l end
  end
  local ok, value = watched(hook, f, ...)
  if not ok then return nil end
  return line, value
end

-- The line that first made the list f(...) returns hold `index` items, with that list, or nil.
-- Each script function's table locals are looked at on every line: the first time a table has
-- at least `index` items, the line its function ran before is the one that grew it.
function P.blame_growth(f, index, ...)
  local source = P.script_source()
  local found, last = {}, {}
  local function hook(event, line)
    local info = getinfo(2, "fS")
    if info.source ~= source then return end
    local per, key = call_of(last, info.func)
    for i = 1, 250 do
      local name, v = getlocal(2, i)
      if name == nil then break end
      if type(v) == "table" and found[v] == nil and rawlen(v) >= index then found[v] = per[key] or line end
    end
    per[key] = line
  end
  local ok, list = watched(hook, f, ...)
  if not ok or type(list) ~= "table" then return nil end
  return found[list], list
end

-- Runs f(...) again watching every list in a local of a script function: which line put each
-- item into it.  Returns what f returned (nil if it failed) and the record:
--   record.item_line(list, i)   the line that put list[i] there (a table item: where it was
--                               first seen in any list, such as a move made in a helper's list
--                               and copied on; another value: where it first entered `list`)
--   record.second_line(list, x) the line that appended x to `list` when it held x already
--   record.order(item)          the order in which table items were first seen
-- What the returned list holds that no local showed came on the `return` line (a list made as
-- it is returned, an item added on that line).
-- An item put in the middle of a list (table.insert(t, 3, x)) is not seen: nil for it.
-- The line of a change is the line its function ran before the change was seen (the change
-- shows at the function's next line), so that a helper's change names the helper's line.
function P.blame_items(f, ...)
  local source = P.script_source()
  local a1, a2 = ...
  local np = getinfo(f, "u").nparams
  local objects, order, lists, seq = {}, {}, {}, 0
  local last, returned = {}, nil

  local function note(v, line)
    local r = lists[v]
    local n = rawlen(v)
    if r == nil then
      r = {len = 0, has = {}, twice = {}}
      lists[v] = r
    elseif n == r.len and rawequal(v[1], r.first) then
      return
    end
    -- Appended items only, unless the front changed or the list got shorter (a sort, an insert
    -- at the front, a removal): then every item, those seen before staying as they were.
    local appended = n >= r.len and (r.len == 0 or rawequal(v[1], r.first))
    local has, twice = r.has, r.twice
    for i = appended and r.len + 1 or 1, n do
      local x = v[i]
      if x ~= nil and x == x then              -- (NaN is no key)
        if has[x] == nil then has[x] = line
        elseif appended and twice[x] == nil then twice[x] = line end
        if type(x) == "table" and objects[x] == nil then
          seq = seq + 1
          objects[x], order[x] = line, seq
        end
      end
    end
    r.len, r.first = n, v[1]
  end

  local function hook(event, line)
    local info = getinfo(2, "fS")
    if info.source ~= source then return end
    local g = info.func
    local per, key = call_of(last, g)
    local at = per[key] or line
    for i = 1, 250 do
      local name, v = getlocal(2, i)
      if name == nil then break end
      if type(v) == "table" then note(v, at) end
    end
    per[key] = line
    if rawequal(g, f) and is_call(2, f, np, a1, a2) then returned = line end
  end
  local ok, value = watched(hook, f, ...)
  -- What is in the returned list and was not seen yet came on the line that returned (an
  -- `out[#out + 1] = x; return out` on one line, a list made by the library and returned).
  if ok and returned ~= nil and type(value) == "table" then note(value, returned) end

  local record = {}
  function record.item_line(list, i)
    local x = list[i]
    if type(x) == "table" then return objects[x] end
    local r = lists[list]
    return r and x ~= nil and x == x and r.has[x] or nil
  end
  function record.second_line(list, x)
    local r = lists[list]
    return r and r.twice[x] or nil
  end
  function record.order(item) return order[item] end
  return ok and value or nil, record
end

-- The line after which the list t (n items) changed while f(...) ran, or nil: the line that
-- changed a list the script was lent (the partial move steps() was given).
function P.blame_change(f, t, n, ...)
  local source = P.script_source()
  local was = {}
  for k = 1, n do was[k] = t[k] end
  local function changed(l)
    if rawlen(l) ~= n then return true end
    for k = 1, n do if l[k] ~= was[k] then return true end end
    return false
  end
  local culprit, last, latest = nil, {}, nil
  local function hook(event, line)
    local info = getinfo(2, "fS")
    if culprit ~= nil or info.source ~= source then return end
    local per, key = call_of(last, info.func)
    if changed(t) then culprit = per[key] or latest end   -- changed on the line before
    per[key], latest = line, line
  end
  watched(hook, f, ...)
  if culprit == nil and changed(t) then culprit = latest end   -- on the last line that ran
  return culprit
end

-- A key as a path shows it: .board, [7], [?].
local function key_text(k)
  if type(k) == "string" and sfind(k, "^[%a_][%w_]*$") then return "." .. k end
  if type(k) == "number" then return "[" .. tostring(k) .. "]" end
  return "[?]"
end

-- The line that changed `root` (a state: it and every table in it) while f(...) ran, or nil;
-- with what changed and how: {line, path (of the table changed: "state.board"), key, via},
-- where via = {name, line} names the local of the function that changed it which held that
-- table, and the line that made it so: `local board = s.board`, or the call that passed it to
-- a helper as a parameter.  A change shows at the next line that runs; it is blamed on the line
-- its function ran before (so a helper's change names the helper's line, and a change on a
-- helper's last line the call).  States are compared table by table on every line of the
-- script, so this costs the state's size a line: it runs only on the way to an error (E060).
local MOST_ENTRIES = 200000
function P.blame_mutation(f, root, root_name, ...)
  local source = P.script_source()
  local paths, tables, copies, entries = {}, {}, {}, 0
  local function walk(t, path)
    if paths[t] ~= nil or entries > MOST_ENTRIES then return end
    paths[t] = path
    local copy = {}
    for k, v in next, t do
      copy[k] = v
      entries = entries + 1
      if type(v) == "table" then walk(v, path .. key_text(k)) end
    end
    tables[#tables + 1], copies[#tables + 1] = t, copy
  end
  walk(root, root_name)
  if entries > MOST_ENTRIES then return nil end

  -- The first table of the state that differs from its copy, and the key that differs.
  local function changed()
    for i = 1, #tables do
      local t, copy = tables[i], copies[i]
      for k, v in next, t do
        if copy[k] ~= v then return t, k end
      end
      for k in next, copy do
        if rawget(t, k) == nil then return t, k end
      end
    end
    return nil
  end

  local last, latest, found = {}, nil, nil
  local held = {}            -- held[func][table] = {name, line}: a local of func held it since line
  local function hook(event, line)
    if found then return end
    local info = getinfo(2, "fSu")
    if info.source ~= source then return end
    local g = info.func
    local per, key = call_of(last, g)
    local t, k = changed()
    if t ~= nil then
      local at = per[key] or latest or line
      local mine = held[g] and held[g][t]
      found = {line = at, path = paths[t], key = key_text(k),
               via = mine and {name = mine.name, line = mine.line} or nil}
      return
    end
    local here = held[g]
    if here == nil then here = {}; held[g] = here end
    for i = 1, 250 do
      local name, v = getlocal(2, i)
      if name == nil then break end
      -- (Lua's own temporaries, "(temporary)" or "(for state)", are no local of the author's)
      if type(v) == "table" and paths[v] ~= nil and here[v] == nil and not rawequal(v, root)
          and sfind(name, "^[%a_]") then
        local since = per[key]
        if i <= info.nparams then
          -- A parameter: the table came with the call, from the caller's line.
          local caller = getinfo(3, "Sl")
          since = caller and caller.source == source and caller.currentline or nil
        end
        here[v] = {name = name, line = since or line}
      end
    end
    per[key], latest = line, line
  end
  watched(hook, f, ...)
  if found == nil then
    local t, k = changed()     -- changed on the last line that ran
    if t ~= nil and latest ~= nil then found = {line = latest, path = paths[t], key = key_text(k)} end
  end
  -- The state as it was (the caller may go on using it).
  for i = 1, #tables do
    local t, copy = tables[i], copies[i]
    for k in next, t do if copy[k] == nil then t[k] = nil end end
    for k, v in next, copy do t[k] = v end
  end
  return found
end
