"""Nibble: every fact of the rules (docs/games/nibble.md), the resolutions B1-B9, options, notation, perft against an
independent model of the rules, and random_move."""
from __future__ import annotations

import itertools
import random
import re
from pathlib import Path

import pytest

import nomv
from nomv.languages import localized

VARIANTS = [None, "13 colours", "hexagonal"]
CODES = "123456789abcd"


@pytest.fixture
def nibble(lua):
    return nomv.Game.load("nibble", runtime=lua)


# -- an independent model of the rules, straight from the rules (docs/games/nibble.md) ----------------------------------
# A geometry is the list of cells in the script's grid order, each cell's id, and the side
# directions in cyclic order.  Boards are dicts cell -> colour (1..13) or None.

SQUARE_SIDES = [(0, 1), (1, 0), (0, -1), (-1, 0)]                       # n e s w
HEX_SIDES = [(0, 1), (1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1)]       # n ne se s sw nw


class Geo:
    def __init__(self, kind: str):
        self.kind = kind
        if kind == "hex":
            self.cells = [(q, r) for q in range(-7, 8) for r in range(max(-7, -q - 7), min(7, 7 - q) + 1)]
            self.sides, self.need, self.colours = HEX_SIDES, 3, 13
            self.ids = {c: f"{chr(97 + c[0] + 7)}{c[1] + 8}" for c in self.cells}
            # layout rows: rank 15 down to 1, each by file
            self.rows = [sorted((c for c in self.cells if c[1] + 8 == rank)) for rank in range(15, 0, -1)]
        else:
            w = 9 if kind == "square9" else 13
            self.cells = [(f, r) for r in range(1, w + 1) for f in range(1, w + 1)]
            self.sides, self.need, self.colours = SQUARE_SIDES, 2, w
            self.ids = {c: f"{chr(96 + c[0])}{c[1]}" for c in self.cells}
            self.rows = [[(f, r) for f in range(1, w + 1)] for r in range(w, 0, -1)]
        self.cellset = set(self.cells)
        self.at = {v: k for k, v in self.ids.items()}

    def neighbours(self, c):
        return [(c[0] + dx, c[1] + dy) for dx, dy in self.sides]

    def parse(self, layout: str) -> dict:
        board = {}
        for row, text in zip(self.rows, layout.split("/")):
            assert len(row) == len(text)
            for cell, ch in zip(row, text):
                board[cell] = None if ch == "." else CODES.index(ch) + 1
        return board

    def layout(self, board: dict) -> str:
        return "/".join("".join("." if board.get(c) is None else CODES[board[c] - 1] for c in row)
                        for row in self.rows)

    def from_state(self, text: str) -> dict:
        """The state's board string (grid order) as a board."""
        return {c: None if ch == "." else CODES.index(ch) + 1 for c, ch in zip(self.cells, text)}


GEOS = {k: Geo(k) for k in ("square9", "square13", "hex")}
GEO_OF = {None: GEOS["square9"], "13 colours": GEOS["square13"], "hexagonal": GEOS["hex"]}


def corner_ok(geo, board, cell):
    exposed = [board.get(n) is None for n in geo.neighbours(cell)]
    k = len(exposed)
    return any(all(exposed[(d + t) % k] for t in range(geo.need)) for d in range(k))


def connected(geo, cells):
    cells = set(cells)
    if not cells:
        return True
    start = next(iter(cells))
    seen, todo = {start}, [start]
    while todo:
        c = todo.pop()
        for n in geo.neighbours(c):
            if n in cells and n not in seen:
                seen.add(n)
                todo.append(n)
    return len(seen) == len(cells)


def model_moves(geo, board):
    """Every turn by the set test of docs/games/nibble.md B4, as frozensets of ids."""
    blocks = {c for c, v in board.items() if v is not None}
    moves = set()
    for colour in sorted({board[c] for c in blocks}):
        cand = [c for c in blocks if board[c] == colour and corner_ok(geo, board, c)]
        for k in range(1, len(cand) + 1):
            for taken in itertools.combinations(cand, k):
                if connected(geo, blocks - set(taken)):
                    moves.add(frozenset(geo.ids[c] for c in taken))
    return moves


def model_perft(geo, board, depth):
    if depth == 0 or all(v is None for v in board.values()):
        return 1
    total = 0
    for m in model_moves(geo, board):
        after = dict(board)
        for i in m:
            after[geo.at[i]] = None
        total += model_perft(geo, after, depth - 1)
    return total


def script_moves(pos):
    return {frozenset(m.steps) for m in pos.legal_moves}


def layout9(cells: dict[str, int]) -> str:
    """A 9x9 layout holding only the given blocks {"a1": 1, ...}."""
    geo = GEOS["square9"]
    return geo.layout({geo.at[i]: v for i, v in cells.items()})


def held(pos, player):
    return list(pos.state()["held"][player - 1])


def majorities(counts, threshold):
    return sum(1 for n in counts if n >= threshold)


# -- the rules (docs/games/nibble.md): the corner rule on full boards ---------------------------------------------------

@pytest.mark.parametrize("variant, corners", [
    (None, {"a1", "i1", "a9", "i9"}),
    ("13 colours", {"a1", "m1", "a13", "m13"}),
    ("hexagonal", {"a8", "a15", "h1", "h15", "o1", "o8"}),
])
def test_full_board_only_the_corners_are_takeable(nibble, variant, corners):
    geo = GEO_OF[variant]
    for seed in range(5):
        pos = nibble.start(variant=variant, seed=seed)
        board = geo.from_state(pos.state()["board"])
        taken = set().union(*(set(m.steps) for m in pos.legal_moves))
        assert taken == corners
        # Opening turns: every non-empty subset of the corners of one colour.
        per_colour = {}
        for c in corners:
            per_colour[board[geo.at[c]]] = per_colour.get(board[geo.at[c]], 0) + 1
        assert len(pos.legal_moves) == sum(2 ** k - 1 for k in per_colour.values())


def cyclic_board(a, b):
    """A full 9x9 board with colour (a*file + b*rank) mod 9 + 1: exact counts, no equal
    neighbours when a and b are not 0 mod 9."""
    geo = GEOS["square9"]
    return geo.layout({(f, r): (a * f + b * r) % 9 + 1 for f, r in geo.cells})


def test_opening_turns_with_corners_a_a_b_c(nibble):
    layout = cyclic_board(1, 8)            # a1 and i9 share a colour; i1 and a9 differ
    pos = nibble.start(options={"layout": layout})
    assert set(pos.notations()) == {"a1", "i9", "a1,i9", "i1", "a9"}
    distinct = nibble.start(options={"layout": cyclic_board(1, 2)})
    assert set(distinct.notations()) == {"a1", "i1", "a9", "i9"}


def test_a1_b1_a2(nibble):
    pos = nibble.start(options={"layout": layout9({"a1": 1, "b1": 2, "a2": 3})})
    assert set(pos.notations()) == {"b1", "a2"}        # taking a1 splits b1 from a2
    with pytest.raises(nomv.IllegalMoveError):
        pos.play("a1")


def test_a1_b1_c1(nibble):
    pos = nibble.start(options={"layout": layout9({"a1": 1, "b1": 2, "c1": 3})})
    assert set(pos.notations()) == {"a1", "c1"}        # b1 has only n and s exposed
    same = nibble.start(options={"layout": layout9({"a1": 1, "b1": 2, "c1": 1})})
    assert set(same.notations()) == {"a1", "c1", "a1,c1"}


def test_two_by_two_square_diagonal_pair_is_not_one_turn(nibble):
    # B4: a1 and b2 are each legal, but taking both leaves a2 and b1 touching only diagonally.
    pos = nibble.start(options={"layout": layout9({"a1": 1, "b2": 1, "a2": 2, "b1": 3})})
    assert set(pos.notations()) == {"a1", "b2", "a2", "b1"}
    with pytest.raises(nomv.IllegalMoveError):
        pos.parse("a1,b2")


@pytest.mark.parametrize("variant", VARIANTS)
def test_generated_boards_have_exact_counts_and_no_equal_neighbours(nibble, variant):
    geo = GEO_OF[variant]
    for seed in range(40):
        board = geo.from_state(nibble.start(variant=variant, seed=seed).state()["board"])
        assert len(board) == geo.colours ** 2
        counts = [list(board.values()).count(c) for c in range(1, geo.colours + 1)]
        assert counts == [geo.colours] * geo.colours
        for cell, colour in board.items():
            for n in geo.neighbours(cell):
                assert board.get(n) != colour


def test_seeds_give_different_boards_and_replay(nibble):
    boards = {nibble.start(seed=s).state()["board"] for s in range(20)}
    assert len(boards) == 20
    assert nibble.start(seed=7).state() == nibble.start(seed=7).state()


def test_same_board_on_both_runtimes():
    for variant in VARIANTS:
        a = nomv.Game.load("nibble", runtime="jit").start(variant=variant, seed=3).state()
        b = nomv.Game.load("nibble", runtime="5.4").start(variant=variant, seed=3).state()
        assert a == b


# -- random games through the Python API: B3, B5, B7 and the majority at the end ------------------

def no_holes(geo, board):
    """Every empty cell reaches the outside through empty cells (B3)."""
    empty = {c for c, v in board.items() if v is None}
    outside = {c for c in empty if any(n not in geo.cellset for n in geo.neighbours(c))}
    seen, todo = set(outside), list(outside)
    while todo:
        c = todo.pop()
        for n in geo.neighbours(c):
            if n in empty and n not in seen:
                seen.add(n)
                todo.append(n)
    return seen == empty


def test_random_games_keep_the_rules(nibble):
    geo = GEOS["square9"]
    rng = random.Random(1)
    endings = set()
    continued_with_majority = False
    for seed in range(8):
        pos = nibble.start(seed=seed)
        assert pos.to_move == 1                                  # B9
        while pos.outcome() is None:
            board = geo.from_state(pos.state()["board"])
            assert no_holes(geo, board)                          # B3
            assert script_moves(pos) == model_moves(geo, board)  # B4 (and never empty: B7)
            if max(majorities(held(pos, p), 5) for p in (1, 2)) >= 5:
                continued_with_majority = True                   # B5: no early end on majorities
            pos.play(rng.choice(pos.legal_moves))
        outcome = pos.outcome()
        assert outcome.winner in (1, 2) and not outcome.draw
        if localized(outcome.reason).startswith("majority"):
            endings.add("majority")
            assert pos.state()["left"] == 0
            won = [majorities(held(pos, p), 5) >= 5 for p in (1, 2)]
            assert won.count(True) == 1 and won.index(True) + 1 == outcome.winner
        else:
            endings.add("instant")
            assert pos.history and outcome.winner == (1 if pos.ply % 2 == 1 else 2)   # the mover
    assert continued_with_majority
    assert "majority" in endings


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_variant_plays_to_the_end(nibble, variant):
    stats = nibble.playout(150, seed=5, variant=variant)
    assert stats.unfinished == 0 and stats.draws == 0 and sum(stats.wins) == 150


# -- instant wins (B1, B5, B8) on explicit positions ----------------------------------------------

def teeth_layout():
    """An L-shaped spine (rank 1 and file a) of colours 2 and 3 carrying all 9 blocks of
    colour 1 as leaves, each meeting the corner rule: one turn takes all nine."""
    cells = {}
    for f in range(1, 9):
        cells[f"{chr(96 + f)}1"] = 2 if f % 2 else 3
    for r in range(2, 9):
        cells[f"a{r}"] = 3 if r % 2 == 0 else 2
    for tooth in ("b2", "d2", "f2", "h2", "b4", "b6", "b8", "a9", "i1"):
        cells[tooth] = 1
    return layout9(cells)


def test_all_blocks_of_a_colour_wins_at_once(nibble):
    pos = nibble.start(options={"layout": teeth_layout()})
    nine = "a9,b2,b4,b6,b8,d2,f2,h2,i1"
    assert nine in pos.notations()
    pos.play(nine)
    outcome = pos.outcome()
    assert outcome.winner == 1 and localized(outcome.reason) == "all 9 blocks of colour 1"
    assert pos.state()["left"] > 0                      # the game ends with blocks left
    pos.undo()
    pos.play("a9,b2,b4,b6,b8,d2,f2,h2")                 # eight are not enough
    assert pos.outcome() is None


def comb_layout(size, mine, theirs, counts, spine):
    """A spine across the middle rank with tooth columns of three blocks on files a, c, e, ...,
    up and down.  Layer k (0 = the tips) holds counts[k] blocks of colour mine[k] and the rest of
    colour theirs[k], so three turns of player 1 collect counts[k] blocks of each mine[k]."""
    geo = GEOS["square9" if size == 9 else "square13"]
    mid, files = (size + 1) // 2, [chr(96 + f) for f in range(1, size + 1, 2)]
    cells = {f"{chr(96 + f)}{mid}": spine[f % 2] for f in range(1, size + 1)}
    for k, (a, b, n) in enumerate(zip(mine, theirs, counts)):
        places = [f"{x}{mid + 3 - k}" for x in files] + [f"{x}{mid - 3 + k}" for x in files]
        for j, cell in enumerate(places):
            cells[cell] = a if j < n else b
    return geo.layout({geo.at[c]: v for c, v in cells.items()})


def play_comb(nibble, size, mine, theirs, counts, spine):
    pos = nibble.start(options={"layout": comb_layout(size, mine, theirs, counts, spine)})
    for colour in (mine[0], theirs[0], mine[1], theirs[1], mine[2]):
        assert pos.outcome() is None
        # the turn that takes every tip of this colour
        best = max((m for m in pos.legal_moves if colour_of(pos, m.steps[0]) == colour),
                   key=lambda m: len(m.steps))
        pos.play(best)
    return pos


def colour_of(pos, cell):
    geo = GEOS[pos.state()["geo"]]
    return geo.from_state(pos.state()["board"])[geo.at[cell]]


@pytest.mark.parametrize("size, mine, theirs, counts, spine, wins", [
    (9, (1, 2, 3), (5, 6, 7), (7, 7, 7), (4, 8), True),
    (9, (7, 8, 9), (1, 2, 3), (7, 7, 7), (4, 5), True),
    (9, (8, 9, 1), (3, 4, 5), (7, 7, 7), (2, 6), False),     # no wrap-around (B1)
    (9, (1, 2, 3), (5, 6, 7), (7, 6, 7), (4, 8), False),     # 7 in each of the three (B8)
    (9, (1, 2, 4), (5, 6, 7), (7, 7, 7), (3, 8), False),     # not neighbours
    (13, (4, 5, 6), (9, 10, 11), (10, 10, 10), (2, 3), True),
    (13, (12, 13, 1), (4, 5, 6), (10, 10, 10), (2, 3), False),
    (13, (4, 5, 6), (9, 10, 11), (10, 10, 9), (2, 3), False),
])
def test_three_neighbouring_colours(nibble, size, mine, theirs, counts, spine, wins):
    pos = play_comb(nibble, size, mine, theirs, counts, spine)
    assert [held(pos, 1)[c - 1] for c in mine] == list(counts)
    assert pos.ply == 5                                  # player 1's third turn was the last
    if wins:
        t = 7 if size == 9 else 10
        assert pos.outcome().winner == 1
        colours = ", ".join(CODES[c - 1] for c in mine)
        assert localized(pos.outcome().reason) == f"{t} or more blocks of each of colours {colours}"
    else:
        assert pos.outcome() is None


# -- perft against the model ------------------------------------------------------------------

SMALL_LAYOUTS = [
    layout9({"a1": 1, "b1": 2, "a2": 3}),
    layout9({"a1": 1, "b2": 1, "a2": 2, "b1": 3, "c1": 1, "c2": 4, "a3": 4}),
    layout9({c: (k % 3) + 1 for k, c in enumerate(["a1", "b1", "c1", "d1", "c2", "c3", "b3", "d3", "e3"])}),
    layout9({"a1": 1, "b1": 2, "c1": 1, "a2": 3, "c2": 3, "a3": 1, "b3": 2, "c3": 1}),   # a hole
    layout9({"a1": 1, "b1": 1, "c1": 1, "c2": 2, "c3": 2, "b3": 1}),                  # equal neighbours
]


@pytest.mark.parametrize("layout", SMALL_LAYOUTS)
def test_perft_agrees_with_the_model(nibble, layout):
    geo = GEOS["square9"]
    pos = nibble.start(options={"layout": layout})
    board = geo.parse(layout)
    assert script_moves(pos) == model_moves(geo, board)
    for depth in (1, 2, 3):
        assert pos.perft(depth) == model_perft(geo, board, depth)


def test_teeth_moves_agree_with_the_model(nibble):
    geo = GEOS["square9"]
    pos = nibble.start(options={"layout": teeth_layout()})
    assert script_moves(pos) == model_moves(geo, geo.parse(teeth_layout()))
    # every set of the nine teeth, and a1 (b2 still joins a2 to b1)
    assert pos.perft(1) == 2 ** 9 - 1 + 1 and "a1" in pos.notations()


def test_perft_on_full_boards(nibble):
    for layout in (cyclic_board(1, 8), cyclic_board(2, 5)):
        geo = GEOS["square9"]
        pos = nibble.start(options={"layout": layout})
        assert pos.perft(2) == model_perft(geo, geo.parse(layout), 2)
    hexpos = nibble.start(variant="hexagonal", seed=4)
    geo = GEOS["hex"]
    board = geo.from_state(hexpos.state()["board"])
    assert hexpos.perft(2) == model_perft(geo, board, 2)


def test_hex_corner_rule_needs_three_sides_in_a_row(nibble):
    geo = GEOS["hex"]
    # Around h8 (the centre): keep n, s and the centre.  h8 then has ne, se (and sw, nw) exposed
    # in two runs of two: not three in a row, so it may not be taken.
    cells = {"h8": 1, "h9": 2, "h7": 3, "h10": 4, "h6": 5}
    board = {geo.at[c]: v for c, v in cells.items()}
    pos = nibble.start(options={"layout": geo.layout(board)})
    assert script_moves(pos) == model_moves(geo, board) == {frozenset({"h10"}), frozenset({"h6"})}
    assert pos.perft(2) == model_perft(geo, board, 2)


def test_moves_match_the_model_through_random_games(nibble):
    for variant, seed in (("hexagonal", 1), ("13 colours", 2)):
        geo = GEO_OF[variant]
        pos = nibble.start(variant=variant, seed=seed)
        rng = random.Random(seed)
        for _ in range(40):
            if pos.outcome() is not None:
                break
            assert script_moves(pos) == model_moves(geo, geo.from_state(pos.state()["board"]))
            pos.play(rng.choice(pos.legal_moves))


# -- notation ----------------------------------------------------------------------------------

def natural(cell):
    return (cell[0], int(cell[1:]))


@pytest.mark.parametrize("variant", VARIANTS)
def test_notation_round_trip(nibble, variant):
    rng = random.Random(3)
    for seed in range(3):
        pos = nibble.start(variant=variant, seed=seed)
        for _ in range(rng.randrange(10, 40)):
            if pos.outcome() is not None:
                break
            pos.play(rng.choice(pos.legal_moves))
        for m in pos.legal_moves:
            text = pos.notation(m)
            assert pos.parse(text) == m
            cells = text.split(",")
            assert cells == sorted(cells, key=natural) and set(cells) == set(m.steps)
            assert pos.parse(",".join(reversed(cells))) == m      # any order is accepted
            assert pos.parse(" , ".join(c.upper() for c in cells)) == m


def test_notation_sorts_by_file_then_rank(nibble):
    geo = GEOS["square13"]
    column = {f"a{r}": 1 if r in (2, 10) else 2 + r % 2 for r in range(2, 11)}
    pos = nibble.start(options={"layout": geo.layout({geo.at[c]: v for c, v in column.items()})})
    assert set(pos.notations()) == {"a2", "a10", "a2,a10"}          # not "a10,a2"
    assert pos.parse("a10,a2") == pos.parse("a2,a10")


# -- random_move ---------------------------------------------------------------------------------

def checked_script(tmp_path):
    """nibble.lua with random_move wrapped: every move it returns must be in moves(), and each
    is printed so that the test can see which moves it reaches."""
    source = (Path(nomv.__file__).parent.parent / "games" / "nibble.lua").read_text()
    assert source.count('\nreturn {\n  name = "nibble",') == 1
    source = source.replace('\nreturn {\n  name = "nibble",', '\nlocal NIBBLE = {\n  name = "nibble",')
    source += '''
local inner = NIBBLE.random_move
local function key(m)
  local t = {}
  for k = 1, #m do t[k] = m[k] end
  table.sort(t)
  return table.concat(t, ",")
end
NIBBLE.random_move = function(s, rng)
  local m = inner(s, rng)
  local want = key(m)
  for _, x in ipairs(NIBBLE.moves(s)) do
    if key(x) == want then print(want); return m end
  end
  error("random_move gave an illegal move: " .. want)
end
return NIBBLE
'''
    path = tmp_path / "checked_nibble.lua"
    path.write_text(source)
    return path


@pytest.mark.parametrize("variant", VARIANTS)
def test_random_move_is_legal(lua, tmp_path, variant):
    path = checked_script(tmp_path)
    game = nomv.Game(path.read_text(), str(path), runtime=lua)
    stats = game.playout(20, seed=9, variant=variant)
    assert stats.unfinished == 0


@pytest.mark.parametrize("variant", VARIANTS)
def test_free_list_is_every_block_that_may_be_taken_alone(nibble, variant):
    """The state keeps the blocks random_move starts from and updates them turn by turn: they
    must be exactly the blocks the model lets a player take by themselves."""
    geo = GEO_OF[variant]
    for seed in (1,):
        pos = nibble.start(variant=variant, seed=seed)
        rng = random.Random(seed)
        while pos.outcome() is None:
            state = pos.state()
            board = geo.from_state(state["board"])
            blocks = {c for c, v in board.items() if v is not None}
            alone = {c for c in blocks if corner_ok(geo, board, c) and connected(geo, blocks - {c})}
            assert sorted(state["free"]) == sorted(geo.cells.index(c) + 1 for c in alone)
            pos.play(rng.choice(pos.legal_moves))


def test_random_move_on_layouts_with_holes_and_equal_neighbours(lua, tmp_path):
    path = checked_script(tmp_path)
    game = nomv.Game(path.read_text(), str(path), runtime=lua)
    hole = layout9({"a1": 1, "b1": 2, "c1": 1, "a2": 3, "c2": 3, "a3": 1, "b3": 2, "c3": 1})
    equal = layout9({"a1": 1, "b1": 1, "c1": 1, "c2": 2, "c3": 2})
    for layout in (hole, equal):
        assert not game.start(options={"layout": layout}).state()["plain"]
        stats = game.playout(30, seed=2, options={"layout": layout})
        assert stats.unfinished == 0


def test_random_move_reaches_every_turn(lua, tmp_path):
    path = checked_script(tmp_path)
    game = nomv.Game(path.read_text(), str(path), runtime=lua)
    comb = {f"{chr(96 + f)}1": 2 + f % 2 for f in range(1, 10)}
    comb.update({f"{x}2": 1 for x in "acegi"})
    layout = layout9(comb)
    legal = set(game.start(options={"layout": layout}).notations())
    assert len(legal) == 31                          # every non-empty set of the five teeth
    game.engine.printed()
    game.playout(900, seed=4, options={"layout": layout}, max_plies=1)
    seen = set(game.engine.printed())
    assert seen == legal


# -- options ----------------------------------------------------------------------------------

def test_variants_and_defaults(nibble):
    assert nibble.variants == ["13 colours", "hexagonal"]
    assert nibble.start(seed=1).state()["geo"] == "square9"
    assert nibble.start(variant="13 colours", seed=1).state()["geo"] == "square13"
    assert nibble.start(variant="hexagonal", seed=1).state()["geo"] == "hex"
    assert nibble.start(options={"colours": 13, "board": "hex"}, seed=1).state()["geo"] == "hex"


@pytest.mark.parametrize("options, message", [
    ({"board": "hex"}, "the hexagonal board holds 13 colours"),
    ({"board": "hex", "colours": 9}, "the hexagonal board holds 13 colours"),
    ({"colours": 11}, "option 'colours'"),
    ({"board": "round"}, "option 'board'"),
    ({"layout": "123/456"}, "the layout has 2 rows"),
    ({"layout": "/".join(["........."] * 8 + [".......1"])}, "layout row 9 has 8 cells, it needs 9"),
    ({"layout": "/".join(["........."] * 8 + ["1.......x"])}, 'layout row 9: "x" is not a colour'),
    ({"layout": "/".join(["........."] * 8 + ["1.......a"])}, 'layout row 9: "a" is not a colour'),
    ({"layout": "/".join(["........."] * 9)}, "the layout has no blocks"),
    ({"layout": "/".join(["........."] * 8 + ["1.2......"])}, "must form one connected group"),
    ({"layout": cyclic_board(1, 9)}, "both colour"),
    ({"layout": cyclic_board(1, 2).replace("1", "2", 1)}, "colour 1 has 8 blocks on the full board; each colour needs 9"),
    ({"layout": cyclic_board(1, 2), "colours": 13}, "colours 13 disagrees with the layout"),
    ({"layout": cyclic_board(1, 2), "board": "hex"}, "board hex disagrees with the layout"),
])
def test_bad_options_are_refused(nibble, options, message):
    with pytest.raises(nomv.OptionError, match=re.escape(message)):
        nibble.start(options=options)


def test_layout_with_variant(nibble):
    with pytest.raises(nomv.OptionError, match="colours 13 disagrees"):
        nibble.start(variant="13 colours", options={"layout": cyclic_board(1, 2)})


@pytest.mark.parametrize("variant", VARIANTS)
def test_layout_round_trip(nibble, variant):
    geo = GEO_OF[variant]
    pos = nibble.start(variant=variant, seed=11)
    rng = random.Random(0)
    for _ in range(15):
        pos.play(rng.choice(pos.legal_moves))
    layout = geo.layout(geo.from_state(pos.state()["board"]))
    again = nibble.start(options={"layout": layout})
    assert again.state()["board"] == pos.state()["board"]
    assert set(again.notations()) == set(pos.notations())


def test_full_layout_is_a_game(nibble):
    pos = nibble.start(options={"layout": cyclic_board(1, 2)})
    assert pos.state()["plain"] and pos.state()["left"] == 81
    assert pos.text().splitlines()[0] == " 9  " + " ".join(cyclic_board(1, 2).split("/")[0])


# -- display --------------------------------------------------------------------------------

def test_scene_and_text(nibble):
    pos = nibble.start(seed=2)
    scene = pos.scene()
    ids = {item.get("id") for item in scene["items"] if item.get("id")}
    assert {"a1", "i9", "e5"} <= ids
    numbers = [item for item in scene["items"] if item.get("shape") == "text" and item.get("text") in list("123456789")]
    assert len(numbers) >= 81                                 # a colour number on every block
    fills = {item["fill"] for item in scene["items"] if item.get("id")}
    assert len(fills) == 9
    assert "status" not in scene                  # whose turn it is is nomv's line to say
    text = pos.text()
    assert "a b c d e f g h i" in text and "Player 1" in text
    hexpos = nibble.start(variant="hexagonal", seed=2)
    assert len({item["fill"] for item in hexpos.scene()["items"] if item.get("id")}) == 13
    assert hexpos.text().splitlines()[0].startswith("15 a")
    win = nibble.start(options={"layout": teeth_layout()})
    win.play("a9,b2,b4,b6,b8,d2,f2,h2,i1")
    assert win.outcome().describe(nibble.players) == "Player 1 wins: all 9 blocks of colour 1"
