-- Lines that only some options reach: the twist (mode=twist), the long game (length=3), a shape
-- (a text option, with the example its help gives), and a line no option reaches.  Rule
-- coverage must name the first three as other options' code, the last as never run, and the
-- text option whose help gives no example as one the lab cannot vary.
return {
  name = "options",
  players = {min = 2, max = 2},
  options = {
    mode = {default = "plain", choices = {"plain", "twist"}},
    length = {default = 1, min = 1, max = 3},
    note = {default = "", help = "free text"},
    shape = {default = "", help = "rows split by slashes, such as ab/cd (x-y is refused)"},
  },
  check = function(opts)
    if opts.shape ~= "" and not opts.shape:find("/") then return "a shape has rows split by slashes" end
  end,
  setup = function(opts, rng)
    local length = opts.length
    if opts.shape ~= "" then
      length = length + 0        -- only with a shape
    end
    return {to_move = 1, made = 0, length = length, twist = opts.mode == "twist"}
  end,
  moves = function(s) return {{"a"}, {"b"}} end,
  play = function(s, m)
    local made = s.made + 1
    if s.twist then
      made = made + 0            -- only with mode=twist
    end
    if s.length == 3 then
      made = made + 0            -- only with length=3
    end
    if made > 100 then
      made = 0                   -- no option reaches this
    end
    return {to_move = 3 - s.to_move, made = made, length = s.length, twist = s.twist}
  end,
  result = function(s)
    if s.made >= s.length then return {winner = 1} end
  end,
}
