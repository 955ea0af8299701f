"""``nomv new``: a commented, working starter script to turn into your own game."""
from __future__ import annotations

import re
from pathlib import Path

from .. import catalog
from ..errors import NomvError

TEMPLATE = r'''-- {title}: a starter game written by `nomv new`.  Change it into your own game.
--
-- Rules: two players take turns placing a stone of their colour on an empty cell of a square
-- board.  Whoever first makes a line of `k` stones in a row (across, down or diagonally) wins;
-- a full board without such a line is a draw.
--
-- Play it:   nomv play {play}
-- Check it:  nomv check {path}
-- The whole contract and library: {api}
-- A walk-through: {tutorial}

-- Directions of a line: east, north, north-east, south-east (each line is found from one end).
local LINE_DIRS = {{"e", "n", "ne", "se"}}

-- Boards are built once per size and shared by every state (a state keeps only plain data).
local grids = {{}}
local function grid_of(size)
  if not grids[size] then grids[size] = nomv.grid.square(size, size, {{adjacency = 8}}) end
  return grids[size]
end

-- The length of the run of `who`'s stones through cell i along direction d and its opposite.
local function run_length(g, board, i, d, who)
  local n = 1
  for _, dir in ipairs({{d, g.opposite[d]}}) do
    local j = g.step[dir][i]
    while j and board[j] == who do
      n = n + 1
      j = g.step[dir][j]
    end
  end
  return n
end

return {{
  name = "{name}",
  title = "{title}",
  info = {{author = "you", rules = "Place stones in turn; the first to make a line of k wins."}},
  players = {{min = 2, max = 2, names = {{"Black", "White"}}}},
  options = {{
    size = {{default = 6, min = 5, max = 9, help = "side of the square board"}},
    k = {{default = 4, min = 3, max = 5, help = "stones in a row needed to win"}},
  }},
  -- Named presets of options: nomv play {name} --variant tight
  variants = {{tight = {{size = 5, k = 5}}}},

  -- The initial state: plain data only (tables, strings, numbers, booleans).
  setup = function(opts, rng)
    local board = {{}}
    for i = 1, opts.size * opts.size do board[i] = 0 end
    return {{board = board, size = opts.size, k = opts.k, to_move = 1, last = 0}}
  end,

  -- Every legal move: a list of steps, each the id of what the player clicks (here, a cell).
  moves = function(s)
    local g, out = grid_of(s.size), {{}}
    for i = 1, g.n do
      if s.board[i] == 0 then out[#out + 1] = {{g.ids[i]}} end
    end
    return out
  end,

  -- The next state.  Never change `s` itself: copy what you change.
  play = function(s, m)
    local g = grid_of(s.size)
    local i = g:at(m[1])
    local board = nomv.copy(s.board)
    board[i] = s.to_move
    return {{board = board, size = s.size, k = s.k, to_move = 3 - s.to_move, last = i}}
  end,

  -- nil while the game goes on; then who won.
  result = function(s)
    if s.last > 0 then
      local g, who = grid_of(s.size), s.board[s.last]
      for _, d in ipairs(LINE_DIRS) do
        if run_length(g, s.board, s.last, g.dir[d], who) >= s.k then return {{winner = who}} end
      end
    end
    for i = 1, #s.board do
      if s.board[i] == 0 then return nil end
    end
    return {{draw = true}}
  end,

  -- What to draw: the grid's cells (clickable: their ids are the steps) and the stones.
  scene = function(s)
    local g = grid_of(s.size)
    local items = g:scene()
    for i = 1, g.n do
      local v = s.board[i]
      if v ~= 0 then items[#items + 1] = g:piece(i, v == 1 and "black" or "white") end
    end
    items.status = (s.to_move == 1 and "Black" or "White") .. " to move"
    return items
  end,
}}
'''


def write_starter(name: str, where: str | None = None) -> Path:
    """Writes the starter game NAME to the user's games folder (or ``where``: a folder or a
    .lua file); refuses to overwrite.  Returns the path written."""
    if not re.fullmatch(r"[A-Za-z][A-Za-z0-9_-]*", name):
        raise NomvError(f"{name!r} is not a good game name: use letters, digits, _ and -, starting with a letter")
    if where is None:
        path = catalog.user_dir() / f"{name}.lua"
    else:
        path = Path(where)
        if path.suffix != ".lua":
            path = path / f"{name}.lua"
    if path.exists():
        raise NomvError(f"{path} already exists; choose another name or remove it first")
    path.parent.mkdir(parents=True, exist_ok=True)
    title = name.replace("_", " ").replace("-", " ").capitalize()
    # Found by name in the games folder; elsewhere by its path.
    play = name if where is None else str(path)
    path.write_text(TEMPLATE.format(name=name, title=title, path=path, play=play,
                                    api=catalog.doc("script-api.md"), tutorial=catalog.doc("tutorial.md")),
                    encoding="utf-8")
    return path
