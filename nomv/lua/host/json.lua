-- JSON out.  Everything the host hands to Python crosses as JSON text built here, in one
-- crossing.  Tables whose keys are exactly 1..n become arrays, others objects with sorted keys
-- (so two equal states give equal text on either runtime).  Functions, cycles, NaN and
-- infinities are refused with the path where they sit.
local H, P = ...

local type, next, ipairs, rawget, error = type, next, ipairs, rawget, error
local floor, huge, abs = math.floor, math.huge, math.abs
local format, sfind, ssub, sbyte, gsub = string.format, string.find, string.sub, string.byte, string.gsub
local concat, tsort = table.concat, table.sort
local MAX_JSON = P.MAX_JSON

local function utf8_clean(s)
  if not sfind(s, "[\128-\255]") then return s end
  local out, i, n = {}, 1, #s
  while i <= n do
    local c = sbyte(s, i)
    local len = c < 0x80 and 1 or (c >= 0xC2 and c <= 0xDF) and 2 or (c >= 0xE0 and c <= 0xEF) and 3
                or (c >= 0xF0 and c <= 0xF4) and 4 or 0
    local ok = len > 0 and i + len - 1 <= n
    for k = i + 1, i + len - 1 do
      if ok then local b = sbyte(s, k); ok = b >= 0x80 and b <= 0xBF end
    end
    if ok and len >= 3 then
      -- the second byte's range that is neither too long a form nor a UTF-16 surrogate (ED A0..BF)
      local b = sbyte(s, i + 1)
      ok = not ((c == 0xE0 and b < 0xA0) or (c == 0xED and b > 0x9F) or (c == 0xF0 and b < 0x90) or (c == 0xF4 and b > 0x8F))
    end
    if ok then out[#out + 1] = ssub(s, i, i + len - 1); i = i + len
    else out[#out + 1] = "?"; i = i + 1 end
  end
  return concat(out)
end

local ESC = {['"'] = '\\"', ['\\'] = '\\\\', ['\n'] = '\\n', ['\r'] = '\\r', ['\t'] = '\\t'}
local function jstring(s, path)
  if #s > MAX_JSON then
    error({plain = format("%s is a string of %d characters, too large to hand over (at most %d)", path, #s, MAX_JSON)}, 0)
  end
  s = utf8_clean(s)
  return '"' .. gsub(s, '[%c"\\]', function(c)
    return ESC[c] or format("\\u%04x", sbyte(c))
  end) .. '"'
end

local function jnumber(x, path)
  -- (NaN prints as "nan" or "-nan" depending on the runtime and platform: name it ourselves.)
  if x ~= x then error({plain = format("%s is NaN, not a finite number", path)}, 0) end
  if x == huge or x == -huge then
    error({plain = format("%s is %sinfinity, not a finite number", path, x < 0 and "-" or "")}, 0)
  end
  if x == floor(x) and abs(x) < 2 ^ 53 then return format("%d", x) end
  return format("%.17g", x)
end

local function keyless(a, b)
  local ta, tb = type(a), type(b)
  if ta ~= tb then return ta == "number" end
  return a < b
end

local encode
function encode(v, buf, path, onpath, depth)
  local t = type(v)
  if t == "string" then buf[#buf + 1] = jstring(v, path)
  elseif t == "number" then buf[#buf + 1] = jnumber(v, path)
  elseif t == "boolean" then buf[#buf + 1] = v and "true" or "false"
  elseif t == "nil" then buf[#buf + 1] = "null"
  elseif t == "table" then
    if onpath[v] then error({plain = path .. " contains itself (a cycle)"}, 0) end
    if depth > 100 then error({plain = path .. " is nested more than 100 levels deep"}, 0) end
    onpath[v] = true
    -- Raw access only (next, rawget, no #): a script's __len or __index metamethods must not
    -- run here, and both runtimes must see the same table.
    local count, n = 0, 0
    for _ in next, v do count = count + 1 end
    while n < count and rawget(v, n + 1) ~= nil do n = n + 1 end
    if count == n then
      buf[#buf + 1] = "["
      for i = 1, n do
        if i > 1 then buf[#buf + 1] = "," end
        encode(rawget(v, i), buf, path .. "[" .. i .. "]", onpath, depth + 1)
      end
      buf[#buf + 1] = "]"
    else
      local keys = {}
      for k in next, v do
        local tk = type(k)
        if tk ~= "string" and tk ~= "number" then
          error({plain = format("%s has a %s as a key", path, tk)}, 0)
        end
        keys[#keys + 1] = k
      end
      tsort(keys, keyless)
      buf[#buf + 1] = "{"
      for i, k in ipairs(keys) do
        if i > 1 then buf[#buf + 1] = "," end
        local ks = type(k) == "number" and jnumber(k, path) or k
        buf[#buf + 1] = jstring(ks, path)
        buf[#buf + 1] = ":"
        encode(rawget(v, k), buf, type(k) == "number" and (path .. "[" .. ks .. "]") or (path .. "." .. k), onpath, depth + 1)
      end
      buf[#buf + 1] = "}"
    end
    onpath[v] = nil
  else
    error({plain = format("%s is a %s; only plain data (tables, strings, numbers, booleans) can leave a script", path, t)}, 0)
  end
end

function P.to_json(v, path)
  local buf = {}
  encode(v, buf, path or "value", {}, 0)
  local text = concat(buf)
  if #text > MAX_JSON then
    error({plain = format("%s is too large to hand over (%d bytes; at most %d)", path or "value", #text, MAX_JSON)}, 0)
  end
  return text
end
H.to_json = P.to_json
