-- Explaining a nil at the author's own line.  Lua names the variable that held a nil where the
-- nil was used: "attempt to index a nil value (local 'board')" inside a helper, though the
-- mistake is elsewhere, most often a misspelt field read in the caller (`flips(s.borad, i, p)`)
-- or kept in a local first (`local b = s.borad`).  This follows the nil back to the expression
-- it came from (through parameters, up the stack, and through a local's assignment), names that
-- line, and offers the field that exists, the way an undefined variable gets a suggestion:
-- "s.borad is nil: did you mean s.board?".
--
-- It reads the stack of the error (the handler in errors.lua runs before the stack unwinds) and
-- the script's text; it only reads values (rawget: no metamethod, no script code runs).  It runs
-- only on the way to an error, never on a hot path, and gives nil whenever the origin cannot be
-- told for sure: the message then stays Lua's own.
local H, P = ...

local type, next, rawget, tostring, tonumber = type, next, rawget, tostring, tonumber
local format, ssub, sfind, smatch, sgsub, sgmatch = string.format, string.sub, string.find, string.match,
                                                    string.gsub, string.gmatch
local tsort = table.sort
local getinfo, getlocal, getupvalue, getmetatable = debug.getinfo, debug.getlocal, debug.getupvalue,
                                                   debug.getmetatable

-- How far a nil is followed up through parameters (a helper of a helper of ...).
local MOST_HOPS = 8
-- Lua 5.4 tells a tail call (whose caller's frame is gone); LuaJIT has no such option, and its
-- caller's line then holds no call of that name (so nothing is found, never a wrong line).
local FRAME_INFO = type(jit) == "table" and "Slnuf" or "Slnuft"

-- What a message says was done with the nil, as the explanation words it.
local DOING = {
  ["index"] = "indexes it", ["perform arithmetic on"] = "does arithmetic with it",
  ["get length of"] = "takes its length", ["call"] = "calls it", ["concatenate"] = "concatenates it",
}

-- The operation and the variable of a message about a nil, in either runtime's words:
--   Lua 5.4: attempt to index a nil value (local 'board')
--   LuaJIT:  attempt to index local 'board' (a nil value)
local function parse(msg)
  local op, kind, name = smatch(msg, "^attempt to (.-) a nil value %((%a+) '([%w_]+)'%)$")
  if not op then op, kind, name = smatch(msg, "^attempt to (.-) (%a+) '([%w_]+)' %(a nil value%)$") end
  if op and DOING[op] then return op, kind, name end
  return nil
end

-- The script's lines (its text arrives with load; split once, when first needed).
local lines, lines_of = nil, nil
local function line_text(n)
  local source = P.script_text and P.script_text()
  if type(source) ~= "string" then return nil end
  if lines_of ~= source then
    lines, lines_of = {}, source
    local k = 0
    for text in sgmatch(source .. "\n", "([^\n]*)\n") do k = k + 1; lines[k] = text end
  end
  return lines[n]
end

-- A line without its comment (a `--` outside a string); strings are kept as they are.
local function code_of(text)
  local i, quote = 1, nil
  while i <= #text do
    local c = ssub(text, i, i)
    if quote then
      if c == "\\" then i = i + 1 elseif c == quote then quote = nil end
    elseif c == '"' or c == "'" then quote = c
    elseif ssub(text, i, i + 1) == "--" then return ssub(text, 1, i - 1) end
    i = i + 1
  end
  return text
end

local function trim(s) return (sgsub(sgsub(s, "^%s+", ""), "%s+$", "")) end

-- The arguments of the call whose "(" is at `open` in `text`, as texts, or nil when the call
-- does not end on this line.
local function arguments(text, open)
  local out, depth, start, quote, i = {}, 0, open + 1, nil, open
  while i <= #text do
    local c = ssub(text, i, i)
    if quote then
      if c == "\\" then i = i + 1 elseif c == quote then quote = nil end
    elseif c == '"' or c == "'" then quote = c
    elseif c == "(" or c == "{" or c == "[" then depth = depth + 1
    elseif c == ")" or c == "}" or c == "]" then
      depth = depth - 1
      if depth == 0 then
        local last = trim(ssub(text, start, i - 1))
        if last ~= "" or #out > 0 then out[#out + 1] = last end
        return out
      end
    elseif c == "," and depth == 1 then
      out[#out + 1] = trim(ssub(text, start, i - 1))
      start = i + 1
    end
    i = i + 1
  end
  return nil
end

-- The frames of the stack above the function `above` (the error handler): for each, the
-- function's info and, for a Lua function, its locals in scope (a later one of the same name
-- shadows an earlier one); `mine` for the script's own functions.
local function frames(above)
  local source = P.script_source()
  local out, level, found = {}, 2, false
  while #out <= MOST_HOPS + 2 do     -- (the frames a nil is followed through: never a deep stack's all)
    local info = getinfo(level, FRAME_INFO)
    if not info then break end
    if found then
      local f = {info = info, mine = info.source == source and (info.currentline or 0) > 0, vars = {}}
      if info.what ~= "C" then
        for i = 1, 250 do
          local name, v = getlocal(level, i)
          if name == nil then break end
          f.vars[name] = {value = v, index = i}
        end
      end
      out[#out + 1] = f
    elseif info.func == above then
      found = true
    end
    level = level + 1
  end
  return out
end

-- The value of a name in a frame: a local in scope, else an upvalue of its function.
local function value_in(frame, name)
  local v = frame.vars[name]
  if v then return true, v.value end
  local f = frame.info.func
  for i = 1, 250 do
    local n, x = getupvalue(f, i)
    if n == nil then break end
    if n == name then return true, x end
  end
  return false
end

-- For an expression "a.b.c" in a frame whose last field is nil in a plain table: true, and the
-- expression with the closest field that the table has instead ("a.b.d"), or nil; false when
-- the expression is no such chain, or its last field is not nil.
local function missing_field(frame, expr)
  if not smatch(expr, "^[%a_][%w_]*%.[%a_][%w_.]*$") or sfind(expr, "%.%.") or ssub(expr, -1) == "." then
    return false
  end
  local names = {}
  for n in sgmatch(expr, "[^.]+") do names[#names + 1] = n end
  local known, t = value_in(frame, names[1])
  if not known then return false end
  for k = 2, #names - 1 do
    if type(t) ~= "table" then return false end
    t = rawget(t, names[k])
  end
  local last = names[#names]
  if type(t) ~= "table" then return false end
  -- The table and the tables its __index reads through (a grid's methods); an __index function
  -- might provide any field: then nothing is said.
  local keys, seen, layer = {}, {}, t
  for _ = 1, 4 do
    if rawget(layer, last) ~= nil then return false end
    for k in next, layer do
      if type(k) == "string" and not seen[k] and #keys < 500 then seen[k] = true; keys[#keys + 1] = k end
    end
    local mt = getmetatable(layer)
    if mt == nil then break end
    local index = type(mt) == "table" and rawget(mt, "__index")
    if type(index) ~= "table" then
      if index == nil or index == false then break end
      return false
    end
    layer = index
  end
  -- (equally close: a name of the same length first, a letter mistyped rather than one lost)
  tsort(keys, function(a, b)
    local da, db = #a - #last, #b - #last
    da, db = da < 0 and -da or da, db < 0 and -db or db
    if da ~= db then return da < db end
    return a < b
  end)
  local near = P.closest and P.closest(last, keys)
  return true, near and (ssub(expr, 1, #expr - #last) .. near) or nil
end

local function nil_words(expr, near)
  if near then return format("%s is nil: did you mean %s?", expr, near) end
  return format("%s is nil", expr)
end

-- Within a longer expression (`nomv.copy(s.borad)`), the first chain whose last field is nil
-- and close to a field that exists: the words for it.
local function inner_field(frame, expr)
  for chain in sgmatch(expr, "[%a_][%w_]*%.[%a_][%w_.]*") do
    chain = sgsub(chain, "%.$", "")
    local ok, near = missing_field(frame, chain)
    if ok and near then return nil_words(chain, near) end
  end
  return nil
end

local function is_name(expr) return smatch(expr, "^[%a_][%w_]*$") ~= nil end

-- The assignment to the local `name` on or before the current line of a frame's function
-- (`local name = EXPR` or `name = EXPR` at the start of its line): its line and expression.
local function assigned(frame, name)
  local info = frame.info
  for n = info.currentline, info.linedefined, -1 do
    local text = line_text(n)
    if not text then return nil end
    local code = code_of(text)
    local expr = smatch(code, "^%s*local%s+" .. name .. "%s*=%s*(.-)%s*;?%s*$")
             or smatch(code, "^%s*" .. name .. "%s*=%s*(.-)%s*;?%s*$")
    if expr and expr ~= "" and not smatch(expr, "^=") then return n, expr end
  end
  return nil
end

-- The call of `callee` on a frame's current line: the text of its argument number `position`
-- (a method call's receiver is number 0).
local function argument_of(frame, callee, position)
  local text = line_text(frame.info.currentline)
  if not text or type(callee) ~= "string" then return nil end
  local code = code_of(text)
  local from = 1
  while true do
    local s, e = sfind(code, "%f[%w_]" .. sgsub(callee, "%p", "%%%0") .. "%s*%(", from)
    if not s then return nil end
    local method = s > 1 and ssub(code, s - 1, s - 1) == ":"
    local args = arguments(code, e)
    if args then
      local k = method and position - 1 or position
      if k >= 1 and args[k] then return args[k] end
      if k == 0 and method then return smatch(ssub(code, 1, s - 2), "([%a_][%w_.]*)%s*$") end
    end
    from = e + 1
  end
end

-- Where `expr`, nil in frame list[k], came from: the line and the words for it, and the local
-- it went through, following parameters up the stack and a local back to its assignment; nil
-- when that cannot be told.
local origin
local function from_parameter(list, k, var)
  local frame, caller = list[k], list[k + 1]
  if not caller or not caller.mine or frame.info.istailcall or var.index > (frame.info.nparams or 0) then
    return nil
  end
  local arg = argument_of(caller, frame.info.name, var.index)
  if not arg then return nil end
  return origin(list, k + 1, arg)
end

origin = function(list, k, expr, hops)
  hops = hops or 0
  local frame = list[k]
  if not frame or not frame.mine or hops > MOST_HOPS then return nil end
  local chain, near = missing_field(frame, expr)
  if chain then return frame.info.currentline, nil_words(expr, near) end
  if not is_name(expr) then
    local words = inner_field(frame, expr)
    if words then return frame.info.currentline, words end
    return nil
  end
  local var = frame.vars[expr]
  if not var or var.value ~= nil then return nil end
  if var.index <= (frame.info.nparams or 0) then
    local caller = list[k + 1]
    if not caller or not caller.mine or frame.info.istailcall then return nil end
    local arg = argument_of(caller, frame.info.name, var.index)
    if not arg then return nil end
    return origin(list, k + 1, arg, hops + 1)
  end
  local at, assigned_expr = assigned(frame, expr)
  if not at then return nil end
  local ok, near2 = missing_field(frame, assigned_expr)
  local words = ok and nil_words(assigned_expr, near2) or (not ok and inner_field(frame, assigned_expr))
  if not words then return nil end
  return at, words, expr
end

-- The message of an error raised for a nil, explained: the new message and the line it names,
-- or nil.  `above` is the error handler, whose caller's frames are the error's stack.
function P.explain_nil(msg, above)
  if type(msg) ~= "string" then return nil end
  local op, kind, name = parse(msg)
  local position, callee
  if not op then
    -- A library function given nil: "bad argument #1 to 'ipairs' (table expected, got nil)";
    -- Lua 5.4's ipairs(nil) fails inside its iterator: "attempt to index a nil value".
    local k, f = smatch(msg, "^bad argument #(%d+) to '([%w_ ]+)' %([%w ]+ expected, got n[io][l ]")
    if k then position, callee, op = tonumber(k), f, "call"
    elseif msg == "attempt to index a nil value" then position, op = 1, "index"
    else return nil end
  end
  local list = frames(above)
  local first = list[1]
  if not first then return nil end
  if position then
    -- The error is a C function's (ipairs, pairs, a library's): its caller's line holds the call.
    local k = first.mine and 1 or 2
    local frame = list[k]
    if not frame or not frame.mine then return nil end
    local arg
    if callee and callee ~= "for iterator" then arg = argument_of(frame, callee, position)
    else arg = argument_of(frame, "ipairs", 1) or argument_of(frame, "pairs", 1) end
    if not arg then return nil end
    local line, words = origin(list, k, arg)
    if not line then return nil end
    return format("%s (%s)", words, msg), line
  end
  local used = first.info.currentline
  if kind == "field" then
    if not first.mine then return nil end
    -- The expression on this very line whose last field is `name`.
    local code = code_of(line_text(used) or "")
    for prefix in sgmatch(code, "([%a_][%w_.]*)%." .. name .. "%f[^%w_]") do
      local ok, near = missing_field(first, prefix .. "." .. name)
      if ok and near then
        local text = nil_words(prefix .. "." .. name, near)
        if op ~= "index" then text = text .. format(" (this line %s)", DOING[op]) end
        return text, used
      end
    end
    return nil
  end
  if kind ~= "local" then return nil end
  local var = first.vars[name]
  if not var or var.value ~= nil then return nil end
  if var.index <= (first.info.nparams or 0) and first.info.what == "Lua" then
    -- A parameter: the nil came from the caller's argument (a helper's, or the library's).
    local line, words = from_parameter(list, 1, var)
    if not line then return nil end
    if not first.mine then return format("%s (given to %s)", words, tostring(first.info.name)), line end
    return format("%s (%s gets it as '%s' and %s on line %d)", words, tostring(first.info.name), name,
                  DOING[op], used), line
  end
  if not first.mine then return nil end
  local line, words, via = origin(list, 1, name)
  if not line then return nil end
  if line == used then return format("%s ('%s' gets it, and this line %s)", words, via or name, DOING[op]), line end
  return format("%s ('%s' gets it here, and line %d %s)", words, via or name, used, DOING[op]), line
end
