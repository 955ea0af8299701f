"""Tic-tac-toe, Connect Four, Hex and Breakthrough: the rules of OpenSpiel's versions, checked
against known facts (perft, first-move counts), constructed positions, notation, random_move and
playouts."""
from __future__ import annotations

from collections import Counter

import pytest

import nomv
from nomv.languages import localized
from nomv.game import seed_words


def load(name, lua):
    return nomv.Game.load(name, runtime=lua)


def play_all(pos, moves):
    for m in moves.split():
        pos.play(m)
    return pos


def random_move_sample(game, pos, n, seed=1):
    moves = pos.with_state(lambda engine, state: engine.random_moves(state, seed_words(seed), n))
    return [tuple(m["steps"] if isinstance(m, dict) else m) for m in moves]


def check_random_move(game, pos, n=3000):
    """random_move gives only legal moves, reaches all of them, and about equally often."""
    legal = {m.steps for m in pos.legal_moves}
    counts = Counter(random_move_sample(game, pos, n))
    assert set(counts) == legal
    expected = n / len(legal)
    assert all(0.5 * expected < c < 1.6 * expected for c in counts.values())


# -- Tic-tac-toe --------------------------------------------------------------------------------

@pytest.fixture
def ttt(lua):
    return load("tictactoe", lua)


def test_tictactoe_perft(ttt):
    pos = ttt.start()
    assert len(pos.legal_moves) == 9
    assert [pos.perft(d) for d in (1, 2, 3)] == [9, 72, 504]
    assert pos.perft(9) == 255168                   # every game of tic-tac-toe


def test_tictactoe_lines_and_draw(ttt):
    pos = play_all(ttt.start(), "a1 a2 b1 b2")
    assert pos.outcome() is None and len(pos.legal_moves) == 5
    pos.play("c1")                                  # X: a row
    assert pos.outcome().winner == 1 and not pos.legal_moves
    pos = play_all(ttt.start(), "a1 b1 a2 b2 c3 b3")
    assert pos.outcome().winner == 2                # O: a column
    pos = play_all(ttt.start(), "a3 a1 b2 b1 c1")
    assert pos.outcome().winner == 1                # X: the rising diagonal
    pos = play_all(ttt.start(), "b2 a1 a2 c2 b1 b3 a3 c1 c3")
    assert pos.outcome().draw and pos.outcome().winner is None
    assert pos.text().splitlines() == ["3 x o x", "2 x x o", "1 o x o", "  a b c"]


def test_tictactoe_scene(ttt):
    # games/tictactoe.lua is the tutorial's plain script, without random_move: the tuned one's
    # random_move is checked below.
    pos = play_all(ttt.start(), "b2 a1")
    labels = [item["label"] for item in pos.scene()["items"] if item.get("label")]
    assert sorted(labels) == ["O", "X"]


# -- Connect Four -------------------------------------------------------------------------------

@pytest.fixture
def c4(lua):
    return load("connect4", lua)


def test_connect4_perft(c4):
    pos = c4.start()
    assert len(pos.legal_moves) == 7
    assert [pos.perft(d) for d in (1, 2, 3, 4)] == [7, 49, 343, 2401]


def test_connect4_vertical_and_diagonal_wins(c4):
    pos = play_all(c4.start(), "a b a b a b")
    assert pos.outcome() is None
    pos.play("a")
    assert pos.outcome().winner == 1 and localized(pos.outcome().reason) == "four in a row"
    # Yellow builds the rising diagonal b1 c2 d3 e4 (Red's discs hold it up).
    pos = play_all(c4.start(), "a b c c d d e d e e g")
    assert pos.outcome() is None
    pos.play("e")
    assert pos.outcome().winner == 2
    # Three across is not four.
    pos = play_all(c4.start(), "a a b b c")
    assert pos.outcome() is None


def test_connect4_full_column_and_draw(c4):
    pos = play_all(c4.start(), "a a a a a a")
    assert "a" not in pos.notations() and len(pos.legal_moves) == 6
    with pytest.raises(nomv.IllegalMoveError, match="column a is full"):
        pos.play("a")
    # Columns filled in pairs b-a, d-c, f-e with a shift make a full board with no line.
    pos = c4.start()
    order = "a b a b a b b a b a b a c d c d c d d c d c d c e f e f e f f e f e f e g g g g g g"
    play_all(pos, order)
    assert pos.ply == 42
    assert pos.outcome().draw and localized(pos.outcome().reason) == "the board is full"


def test_connect4_notation(c4):
    pos = c4.start()
    assert pos.notations() == list("abcdefg")
    assert pos.parse("4").steps == ("d",) and pos.parse("D").steps == ("d",)
    with pytest.raises(nomv.IllegalMoveError):
        pos.parse("8")
    pos.play("d")
    assert pos.text().splitlines()[-2:] == ["...x...", "abcdefg"]


def test_connect4_random_move(c4):
    pos = play_all(c4.start(), "a a a a a a b")
    check_random_move(c4, pos)


def test_connect4_playouts(c4):
    stats = c4.playout(2000, seed=3)
    assert stats.unfinished == 0 and sum(stats.wins) + stats.draws == 2000
    assert 20 < stats.plies / 2000 < 23          # OpenSpiel's random games: 21.3 plies


# -- Hex ----------------------------------------------------------------------------------------

@pytest.fixture
def hexg(lua):
    return load("hex", lua)


def test_hex_first_moves(hexg):
    pos = hexg.start()
    assert len(pos.legal_moves) == 121
    assert pos.notations()[:3] == ["a1", "b1", "c1"] and pos.notations()[-1] == "k11"
    assert len(hexg.start(options={"size": 5}).legal_moves) == 25
    assert len(hexg.start(options={"size": 19}).legal_moves) == 361
    assert hexg.start(options={"size": 5}).perft(3) == 25 * 24 * 23


def test_hex_black_connects_north_to_south(hexg):
    # Black fills column c from row 1 down; White answers on column a.  c5 joins the edges.
    pos = hexg.start(options={"size": 5})
    for r in range(1, 5):
        pos.play(f"c{r}")
        pos.play(f"a{r}")
    assert pos.outcome() is None
    pos.play("c5")
    assert pos.outcome().winner == 1


def test_hex_white_connects_west_to_east_through_a_merge(hexg):
    # White's row-3 stones: a3 b3 (joined to the west) and d3 e3 (to the east); c3 merges them.
    # Black plays elsewhere, never connecting.
    pos = play_all(hexg.start(options={"size": 5}), "a1 a3 b1 e3 d1 b3 e1 d3")
    assert pos.outcome() is None
    pos.play("a5")
    pos.play("c3")
    assert pos.outcome().winner == 2 and localized(pos.outcome().reason) == "west joined to east"


def test_hex_neighbours_are_openspiels(hexg):
    # A cell's neighbours are those up, up-right, right, down, down-left and left of it (as
    # OpenSpiel lists them), so a5 b4 c3 d2 e1 is a chain and a1 b2 c3 d4 e5 is not.
    pos = play_all(hexg.start(options={"size": 5}), "d1 a1 e2 b2 a3 c3 a4 d4 b5 e5")
    assert pos.outcome() is None
    pos = play_all(hexg.start(options={"size": 5}), "a1 a5 b1 b4 a2 c3 e3 d2 e4")
    assert pos.outcome() is None
    pos.play("e1")
    assert pos.outcome().winner == 2


def test_hex_notation_and_text(hexg):
    pos = hexg.start(options={"size": 5})
    pos.play("c3")
    assert pos.history_notation == ["c3"]
    assert pos.text().splitlines()[2] == "  . . x . ."
    with pytest.raises(nomv.IllegalMoveError):
        pos.play("c3")


def test_hex_random_move(hexg):
    pos = play_all(hexg.start(options={"size": 5}), "a1 b2 c3 d4 e5 a5 e1")
    check_random_move(hexg, pos, n=4000)


def test_hex_playouts(hexg):
    stats = hexg.playout(300, seed=4)
    assert stats.unfinished == 0 and stats.draws == 0 and sum(stats.wins) == 300
    assert 100 < stats.plies / 300 < 115         # OpenSpiel's random games: 108 plies
    stats = hexg.playout(300, seed=4, options={"size": 7})
    assert stats.unfinished == 0 and stats.draws == 0


# -- Breakthrough -------------------------------------------------------------------------------

@pytest.fixture
def bt(lua):
    return load("breakthrough", lua)


def test_breakthrough_perft(bt):
    pos = bt.start()
    assert len(pos.legal_moves) == 22
    assert sorted(pos.notations())[:4] == ["a7a6", "a7b6", "b7a6", "b7b6"]
    assert [pos.perft(d) for d in (1, 2, 3)] == [22, 484, 11132]    # as OpenSpiel counts


def test_breakthrough_captures_are_diagonal_only(bt):
    pos = play_all(bt.start(), "d7d6 d2d3 d6d5 d3d4")
    # d5 and d4 face each other: neither may move straight ahead.
    assert "d5d4" not in pos.notations()
    pos.play("e7e6")
    pos.play("c2c3")
    pos.play("e6e5")
    assert "d4e5*" in pos.notations() and "d4d5" not in pos.notations()
    pos.play("d4xe5")
    assert pos.history_notation[-1] == "d4e5*"
    assert pos.state()[3:5] == [15, 16]              # pawns left: Black lost one


def test_breakthrough_reaching_the_far_rank_wins(bt):
    # White runs the a-pawn up while Black moves on the g and h files; it captures on b7, then
    # on a8, the far rank.
    pos = play_all(bt.start(), "h7h6 a2a3 h6h5 a3a4 h5h4 a4a5 g7g6 a5a6 g6g5")
    assert pos.outcome() is None
    pos.play("a6b7*")
    pos.play("h8h7")
    assert pos.outcome() is None
    pos.play("b7a8*")
    out = pos.outcome()
    assert out.winner == 2 and localized(out.reason) == "reached rank 8"


def test_breakthrough_notation_forms(bt):
    pos = bt.start()
    for text in ("a7a6", "a7-a6", "A7 A6", "a7xa6"):
        assert pos.parse(text).steps == ("a7", "a6")
    with pytest.raises(nomv.IllegalMoveError):
        pos.parse("a7a5")
    assert pos.text().splitlines()[0] == "8bbbbbbbb"


def test_breakthrough_random_move(bt):
    pos = play_all(bt.start(), "d7d6 d2d3 d6d5 d3d4 e7e6 c2c3 e6e5")
    check_random_move(bt, pos)


def test_breakthrough_random_moves_stay_legal_through_whole_games(bt):
    # random_move draws from the pawn lists that play() keeps: after captures and long games
    # they must still name exactly the pawns on the board.
    import random
    for seed in range(3):
        pos, rng = bt.start(seed=seed), random.Random(seed)
        while pos.outcome() is None:
            legal = {m.steps for m in pos.legal_moves}
            assert set(random_move_sample(bt, pos, 40, seed=pos.ply)) <= legal
            if pos.ply % 16 == 15:
                check_random_move(bt, pos, n=100 * len(legal))
            pos.play(rng.choice(pos.legal_moves))


def test_breakthrough_playouts(bt):
    stats = bt.playout(500, seed=5)
    assert stats.unfinished == 0 and stats.draws == 0 and sum(stats.wins) == 500
    assert 60 < stats.plies / 500 < 68           # OpenSpiel's random games: 64.4 plies


# -- Against OpenSpiel ---------------------------------------------------------------------------
# Same rules, same random games: the average length of uniformly random games must agree with
# OpenSpiel's (installed with the `openspiel` extra; skipped without it).  Each side plays
# BATCHES x PER games; the spread of the batch means estimates each mean's standard error, and
# the two means may differ by at most Z of their combined standard errors (with Z = 4 a correct
# script fails about once in 16000 runs, and the seeds are fixed, so a pass stays a pass).
# 10000 games a side tell apart Breakthrough with straight-ahead captures allowed (0.6 plies
# shorter).  LuaJIT only: both runtimes play the same games from the same seeds.

BATCHES, PER, Z = 100, 100, 4.0


def mean_and_error(values):
    n = len(values)
    mean = sum(values) / n
    variance = sum((x - mean) ** 2 for x in values) / (n - 1)
    return mean, (variance / n) ** 0.5


@pytest.fixture(scope="module")
def openspiel_lengths():
    """Batch means of OpenSpiel's random game lengths, per classic game (computed once)."""
    pytest.importorskip("pyspiel")
    from nomv.openspiel import CLASSICS, RandomPlayer
    out = {}
    for name in CLASSICS:
        player = RandomPlayer(name, seed=7)
        out[name] = [player.play(PER).average_length for _ in range(BATCHES)]
    return out


@pytest.mark.parametrize("name", ["tictactoe", "connect4", "hex", "breakthrough"])
def test_random_game_lengths_agree_with_openspiel(name, openspiel_lengths):
    game = load(name, "jit")
    ours = [game.playout(PER, seed=1000 + b).average_length for b in range(BATCHES)]
    (a, sa), (b, sb) = mean_and_error(ours), mean_and_error(openspiel_lengths[name])
    tolerance = Z * (sa ** 2 + sb ** 2) ** 0.5
    assert abs(a - b) <= tolerance, f"{name}: nomv {a:.2f} plies, OpenSpiel {b:.2f} (tolerance {tolerance:.2f})"


def test_tuned_tictactoe_plays_the_same_game(lua):
    # nomv/tuned/tictactoe.lua (what nomv bench measures) against the plain games/tictactoe.lua.
    from nomv.bench import TUNED
    tuned, plain = nomv.Game.load(str(TUNED["tictactoe"]), runtime=lua), load("tictactoe", lua)
    assert tuned.start().perft(9) == 255168
    for moves in ("a1 a2 b1 b2 c1", "a1 b1 a2 b2 c3 b3", "b2 a1 a2 c2 b1 b3 a3 c1 c3"):
        a, b = play_all(tuned.start(), moves), play_all(plain.start(), moves)
        assert a.outcome().winner == b.outcome().winner and a.text() == b.text()
    check_random_move(tuned, play_all(tuned.start(), "b2 a1"))
