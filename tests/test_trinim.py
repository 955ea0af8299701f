"""Trinim: every fact of the rules (docs/games/trinim.md), the coordinates of 4.2, scoring, draws, 3 players."""
from __future__ import annotations

import random

import pytest

import nomv

SEED_LAYOUT = "b/bb/bgr/grgg/rbgrr"
SIZES = [3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18, 20]


@pytest.fixture
def trinim(lua):
    return nomv.Game.load("trinim", runtime=lua)


# -- an independent model of the board, straight from the rules (docs/games/trinim.md), to check the script -------

def cells(n):
    return [(c, r) for r in range(1, n + 1) for c in range(n - r + 1, n + 1)]


def label(c, r):
    return f"{chr(64 + c)}{r}"


LINE_DIRS = [(1, 0), (0, 1), (-1, 1)]  # same row; same letter ("\"); c + r constant ("/")


def model_moves(board, n):
    """All grabs on a board {(c, r): colour or None}: single cells and contiguous lines."""
    moves = set()
    for cell in cells(n):
        if board.get(cell):
            moves.add(frozenset([cell]))
            for dc, dr in LINE_DIRS:
                line = [cell]
                c, r = cell
                while True:
                    c, r = c + dc, r + dr
                    if (c, r) not in board or not board[(c, r)]:
                        break
                    line.append((c, r))
                    moves.add(frozenset(line))
    return moves


def model_perft(board, n, depth):
    if depth == 0 or not any(board.values()):
        return 1
    total = 0
    for m in model_moves(board, n):
        after = dict(board)
        for cell in m:
            after[cell] = None
        total += model_perft(after, n, depth - 1)
    return total


def layout_board(layout):
    rows = layout.split("/")
    n = len(rows)
    board = {}
    for r, row in enumerate(rows, start=1):
        for k, ch in enumerate(row):
            board[(n - r + 1 + k, r)] = None if ch == "." else ch
    return board, n


# -- the rules (docs/games/trinim.md) -----------------------------------------------------------------------------

@pytest.mark.parametrize("n", SIZES)
def test_full_board_move_count(trinim, n):
    expected = {3: 18, 5: 75, 6: 126, 8: 288, 9: 405, 11: 726, 12: 936, 14: 1470, 15: 1800,
                17: 2601, 18: 3078, 20: 4200}[n]
    pos = trinim.start(options={"size": n}, seed=n)
    assert len(pos.legal_moves) == expected == n * (n + 1) // 2 + (n + 1) * n * (n - 1) // 2
    assert len(set(pos.legal_moves)) == expected  # every grab listed once


@pytest.mark.parametrize("n", SIZES)
def test_random_fill_has_equal_colours(trinim, n):
    state = trinim.start(options={"size": n}, seed=99).state()
    board = state["board"]
    assert len(board) == n * (n + 1) // 2
    for colour in (1, 2, 3):
        assert board.count(colour) == n * (n + 1) // 6


def test_seed_board_and_its_lines(trinim):
    pos = trinim.start(options={"layout": SEED_LAYOUT})
    text = pos.text()
    assert " 5-  r b g r r" in text and "    1-  b" in text
    # C3 grabs a blue piece.
    pos.play("C3")
    assert pos.state()["held"][0] == [0, 0, 1]
    pos.undo()
    # D4-D2 grabs D4, D3, D2: green, green, blue; either order of the ends names it.
    assert pos.parse("D4-D2") == pos.parse("D2-D4")
    pos.play("D4-D2")
    assert pos.state()["held"][0] == [0, 2, 1]
    pos.undo()
    legal = set(pos.notations())
    assert "C4-E2" in legal or "E2-C4" in legal
    assert pos.parse("C4-E2") and pos.parse("A5-E1")
    with pytest.raises(nomv.IllegalMoveError):
        pos.parse("A5-C4")  # not on one line
    with pytest.raises(nomv.IllegalMoveError):
        pos.parse("C3-C3")  # a single cell is never written as a line


def test_neighbours_of_c4_and_e1(trinim):
    # A two-cell line is a legal grab exactly when the two cells are neighbours.
    pos = trinim.start(options={"layout": SEED_LAYOUT})
    two_cell = {frozenset(m.steps) for m in pos.legal_moves
                if len(m.steps) == 2 and _line_length(m.steps) == 2}
    def neighbours(cell):
        return {next(iter(pair - {cell})) for pair in two_cell if cell in pair}
    assert neighbours("C4") == {"B4", "D4", "C3", "C5", "D3", "B5"}
    assert neighbours("E1") == {"D2", "E2"}


def _line_length(steps):
    (a, b) = steps
    ca, ra, cb, rb = ord(a[0]) - 64, int(a[1:]), ord(b[0]) - 64, int(b[1:])
    return max(abs(ca - cb), abs(ra - rb)) + 1


def test_seed_final_score(trinim):
    # the rules (docs/games/trinim.md): Fred R4 G0 B1 scores 2, Ted R1 G5 B4 scores 1, so Fred wins.
    # Fred (player 1) grabs four reds and a blue; Ted grabs the rest in five lines.
    pos = trinim.start(options={"layout": SEED_LAYOUT})
    for fred, ted in [("E3", "D2-D4"), ("C4", "E4-E5"), ("A5", "B5-C5"), ("D5", "B4-C3"), ("E1", "E2")]:
        pos.play(fred)
        pos.play(ted)
    assert pos.state()["held"] == [[4, 0, 1], [1, 5, 4]]
    outcome = pos.outcome()
    assert outcome.scores == (2, 1) and outcome.winner == 1 and not outcome.draw
    assert outcome.describe(trinim.players).startswith("Player 1 wins")


def test_perft_agrees_with_independent_model(trinim):
    board, n = layout_board(SEED_LAYOUT)
    pos = trinim.start(options={"layout": SEED_LAYOUT})
    assert pos.perft(1) == len(model_moves(board, n)) == 75
    assert pos.perft(2) == model_perft(board, n, 2)
    assert pos.perft(2) == 3864


def test_perft_with_a_partial_layout(trinim):
    layout = "b/.b/bg./g.gg/.bgr."
    board, n = layout_board(layout)
    pos = trinim.start(options={"layout": layout})
    for depth in (1, 2, 3):
        assert pos.perft(depth) == model_perft(board, n, depth)


def test_moves_match_model_through_a_random_game(trinim):
    rng = random.Random(5)
    pos = trinim.start(options={"size": 6}, seed=11)
    while pos.outcome() is None:
        n = 6
        ids = {label(c, r): (c, r) for c, r in cells(n)}
        grid_order = [label(c, r) for c, r in cells(n)]
        cur = {ids[i]: (pos.state()["board"][k] or None) for k, i in enumerate(grid_order)}
        expected = {frozenset(ids[s] for s in _expand(m, ids)) for m in model_moves(cur, n)}
        got = {frozenset(_cells_of(m.steps, ids)) for m in pos.legal_moves}
        assert got == expected
        pos.play(rng.choice(pos.legal_moves))


def _expand(m, ids):
    inv = {v: k for k, v in ids.items()}
    return [inv[c] for c in m]


def _cells_of(steps, ids):
    if len(steps) == 1:
        return [ids[steps[0]]]
    (c1, r1), (c2, r2) = ids[steps[0]], ids[steps[1]]
    length = max(abs(c1 - c2), abs(r1 - r2))
    dc, dr = (c2 - c1) // length, (r2 - r1) // length
    return [(c1 + k * dc, r1 + k * dr) for k in range(length + 1)]


# -- scoring, draws, players ------------------------------------------------------------------

def test_two_players_on_even_sizes_always_draw(trinim):
    stats = trinim.playout(300, seed=2, options={"size": 3})
    assert stats.draws == 300
    stats = trinim.playout(100, seed=2, options={"size": 8})
    assert stats.draws == 100


def test_two_players_on_odd_sizes_never_draw(trinim):
    stats = trinim.playout(500, seed=3, options={"size": 5})
    assert stats.draws == 0 and sum(stats.wins) == 500


def test_three_players_turn_order_and_shared_best_is_a_draw(trinim):
    pos = trinim.start(options={"layout": "b/bb/bgr", "players": 3})
    assert [pos.to_move] == [1]
    pos.play("C3"); assert pos.to_move == 2
    pos.play("B3"); assert pos.to_move == 3
    pos.play("A3"); assert pos.to_move == 1
    pos.play("C2"); pos.play("B2"); pos.play("C1")
    outcome = pos.outcome()
    # P1 took r, b -> 1 point; P2 g, b -> 1 point; P3 b, b -> 3 points (0 red, 0 green, 2 blue).
    assert pos.state()["held"] == [[1, 0, 1], [0, 1, 1], [0, 0, 2]]
    assert outcome.scores == (1, 1, 3) and outcome.winner == 3 and outcome.ranks == (2, 2, 1)
    pos2 = trinim.start(options={"layout": "b/.b/.gr", "players": 3})
    pos2.play("C1"); pos2.play("C2"); pos2.play("B3"); pos2.play("C3")
    # P1: b, r -> 1 point; P2: b -> 2; P3: g -> 2.  P2 and P3 share the best: a draw.
    outcome = pos2.outcome()
    assert outcome.scores == (1, 2, 2)
    assert outcome.winner is None and outcome.draw and outcome.ranks == (3, 1, 1)


def test_three_player_playouts_end(trinim):
    stats = trinim.playout(300, seed=4, options={"players": 3, "size": 6})
    assert stats.unfinished == 0 and sum(stats.wins) + stats.draws == 300


# -- options ------------------------------------------------------------------------------------

@pytest.mark.parametrize("size", [2, 4, 7, 10, 21])
def test_bad_sizes_are_refused_with_the_allowed_list(trinim, size):
    with pytest.raises(nomv.OptionError, match=r"option 'size': .* allowed: 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18, 20"):
        trinim.start(options={"size": size})


@pytest.mark.parametrize("layout, message", [
    ("b/bb/bg", "layout row 3 has 2 cells, it needs 3"),
    ("b/bb/bgr/grgg", "the layout has 4 rows"),
    ("b/bx/bgr", "layout row 2: \"x\" is not a colour"),
])
def test_bad_layouts_are_refused(trinim, layout, message):
    with pytest.raises(nomv.OptionError, match=message.replace("(", r"\(")):
        trinim.start(options={"layout": layout})


def test_size_that_disagrees_with_layout(trinim):
    with pytest.raises(nomv.OptionError, match="size 6 disagrees with the layout"):
        trinim.start(options={"layout": SEED_LAYOUT, "size": 6})


def test_layout_round_trip(trinim):
    for layout in (SEED_LAYOUT, "r/gb/rgb", "b/.b/bg./g.gg/.bgr."):
        pos = trinim.start(options={"layout": layout})
        board = pos.state()["board"]
        n = pos.state()["n"]
        order = [label(c, r) for c, r in cells(n)]
        letters = {0: ".", 1: "r", 2: "g", 3: "b"}
        rows = []
        for r in range(1, n + 1):
            rows.append("".join(letters[board[order.index(label(c, r))]] for c in range(n - r + 1, n + 1)))
        assert "/".join(rows) == layout


def test_players_option_range(trinim):
    with pytest.raises(nomv.OptionError, match="option 'players'"):
        trinim.start(options={"players": 4})
