-- The trusted side of one Lua runtime.  It runs with the full standard library, builds the
-- allow-listed environment for one game script, loads the script, and answers the Python host's
-- requests (nomv/runtime.py sends them).  Every request returns `true, value` or
-- `false, error-as-JSON`, so that Python never sees a Lua error object and every value crossing
-- over is plain data (the same protocol works across a process boundary).
--
-- Its parts, in nomv/lua/host/, each with one role, loaded in this order (a part may use what
-- the parts before it put in P):
--   limits     the time limit (count hook, deadlines, beats) and the caps on replies
--   json       JSON out: every reply to Python that is not a number, string or state handle
--   errors     guarded requests, error JSON with the script's line, contract() with its code
--   blame      the script's line behind a contract broken by a hook that has returned
--   sandbox    the script's allow-listed environment (the refused names: nomv/schema.py)
--   explain    a nil's origin at the author's line: "s.borad is nil: did you mean s.board?"
--   library    the `nomv` library the script sees; the init request
--   loader     the load request: compile and run the script, describe its game table
--   hooks      the game's hooks called with the host's checks of what they return
--   results    result(): checks and ranks
--   steps      moves described step by step (steps()): the moves, a uniform random move and
--              "is there a move", derived without listing
--   moves      legal moves: checks, the per-state cache, keys and notations
--   scene      the scene: the default one from grid and pieces, and its checks
--   requests   the requests about one position (setup, moves, play, result, scene, ...)
--   loops      loops that stay in Lua: random playouts and perft
--   computer   the computer player's search (nomv/lua/search.lua)
--   coverage   rule coverage for nomv check
--   profile    where random games spend their time, for nomv profile (jit.profile or a hook)
--   checks     nomv check's fast tier (random games with cheap checks) and E060's line
--   lab        whole games described line by line for the designer's lab (nomv analyze)
--
-- Everything the script could tamper with (string methods, the `nomv` library) is captured as a
-- local by each part before any script runs.  H holds the requests, P what the parts share.

local parts = ...   -- {name = source} of the parts
local H, P = {}, {}
local ORDER = {"limits", "json", "errors", "blame", "sandbox", "explain", "library", "loader", "hooks",
               "results", "steps", "moves", "scene", "requests", "loops", "computer", "coverage", "checks",
               "profile", "lab"}
for _, name in ipairs(ORDER) do
  local chunk, err = load(parts[name], "@nomv/host/" .. name .. ".lua", "t")
  if not chunk then error(err) end
  chunk(H, P)
end
return H
