-- Limits: the time limit of one call into the script (a count hook checks a deadline), the
-- beats that tell a watching parent process a long loop is still making progress, and the caps
-- on what a script may hand over.
local H, P = ...

local floor, huge, min = math.floor, math.huge, math.min
local setmetatable = setmetatable
local clock = os.clock
local sethook = debug.sethook

-- Errors raised for the time limit are this unique table, so that a script's own pcall cannot
-- swallow them.  (In LuaJIT the hook does not fire inside compiled traces: the Python side runs
-- scripts in a worker process that it kills, nomv/worker.py.)
P.LIMIT = setmetatable({}, {__tostring = function() return "time limit" end, __metatable = false})

-- Caps on what a script can hand to Python, so that a hostile script cannot exhaust the host
-- process (or the window drawing its scene) with a reply that fits in the script's own memory.
P.MAX_JSON = 8 * 1024 * 1024    -- bytes of one reply (moves, scene, state, ...)
P.MAX_MOVES = 100000            -- legal moves in one position
P.MAX_STEP = 1000               -- characters of one step id
P.MAX_SCENE_ITEMS = 20000       -- items in one scene
P.MAX_SCENE_NUMBER = 1e6        -- |coordinate|, size, width of a scene item (board units)
P.MAX_TEXT = 1024 * 1024        -- characters of text() and other strings returned as such
P.MAX_MESSAGE = 2000            -- characters of an error message
P.MAX_LABEL = 1000              -- characters of a notation, scene text or label, status, reason
                                -- (the window measures and wraps them every frame)

local LIMIT = P.LIMIT
local deadline, limit_seconds = huge, 5
-- The CPU seconds a call may really use: the limit, or a share of it when the tests act as a
-- slower machine (NOMV_SLOWER, nomv/limits.py).  Messages name the limit itself.
local budget = limit_seconds
-- Loops of many short periods (a playout's games) count them in `period` instead of calling
-- arm() for each: reading the CPU clock is a system call of about half a microsecond, more than
-- a whole random game of tic-tac-toe.  The hook starts a period's deadline when it first fires
-- in it, so each period still gets the whole limit (plus at most the hook's 10000 instructions).
local period, armed_period = 0, 0
local function hook()
  if period ~= armed_period then
    armed_period = period
    if deadline < huge then deadline = clock() + budget end
  elseif clock() > deadline then error(LIMIT, 0) end
end
P.count_hook = hook

-- Lua 5.4 calls no count hook while a line hook fires on every line of a loop (measured: none in
-- two million iterations at a count of 10,000), so a line hook (coverage, blame) calls this on
-- every line: true every thousand lines, when it should look at the time limit.
local lines = 0
function P.line_tick()
  lines = lines + 1
  if lines < 1000 then return false end
  lines = 0
  return true
end

-- In a worker process (nomv/worker.py) the parent also watches the time, and kills the worker
-- when the hook cannot fire (LuaJIT's compiled loops).  `beat` tells the parent that a new
-- period began (a new playout game, a new perft node), at most every 50 ms of CPU time since
-- crossing into Python costs more than the rest of arm().
local beat, last_beat = nil, -huge
function P.arm()
  local now = clock()
  deadline = limit_seconds > 0 and now + budget or huge
  armed_period = period
  if beat ~= nil and now - last_beat >= 0.05 then last_beat = now; beat() end
  return now
end
function P.disarm() deadline = huge end
function P.past_deadline() return clock() > deadline end
function P.limit_seconds() return limit_seconds end

-- Starts the next short period without reading the clock.  Only a watching parent needs the
-- clock (for beats): it is read every `stride` periods, a stride that adapts so that happens
-- about every millisecond.  start_periods() begins a loop of them.
local stride, countdown, stride_start = 1, 1, 0
function P.start_periods()
  stride, countdown, stride_start = 1, 1, clock()
end
function P.new_period()
  period = period + 1
  if beat == nil then return end
  countdown = countdown - 1
  if countdown > 0 then return end
  local now = clock()
  local took = now - stride_start
  if took < 0.001 then stride = min(stride * 2, 4096)
  elseif took > 0.004 and stride > 1 then stride = floor(stride / 2) end
  countdown, stride_start = stride, now
  if now - last_beat >= 0.05 then last_beat = now; beat() end
end

function H.set_beat(f)
  beat = f
  return true
end

-- `slower` (NOMV_SLOWER, given once at start; nil keeps it): a call gets 1/slower of the limit.
local slower = 1
function H.set_limit(seconds, slowdown)
  if slowdown then slower = slowdown end
  limit_seconds, budget = seconds, seconds / slower
  if seconds > 0 then sethook(hook, "", 10000) else sethook() end
  return true
end
