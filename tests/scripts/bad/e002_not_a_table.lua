-- expect: E002 4
-- the script returns a function
local function game() end
return game  -- <- E002
