-- A game table whose __index hangs: the host reads it outside the hook calls.
-- expect: the game table must be a plain table, without a metatable
-- hook: load
local game = {name = 'hostile'}
return setmetatable(game, {__index = function() while true do end end})
