"""3verse / kverse: every fact of the rules (docs/games/3verse.md), the ambiguity table V1-V7, options, notation,
perft against an independent model, and the random-move fast path."""
from __future__ import annotations

import functools
import random
from pathlib import Path

import pytest

import nomv
from nomv.languages import localized
from nomv.limits import Limits

SCRIPT = Path(__file__).resolve().parent.parent / "games" / "3verse.lua"


@pytest.fixture
def verse(lua):
    return nomv.Game.load("3verse", runtime=lua)


@pytest.fixture
def roomy_verse(lua):
    # k = 5 on the 8x8 board lists 46,160 moves at the opening: one moves() call of 0.4-0.6 s
    # of CPU under LuaJIT and 0.8-1.0 s under Lua 5.4 where measured, too close to the default
    # limit (1.5 s) for a slower machine.  These tests are about the rules, not the limit.
    return nomv.Game.load("3verse", runtime=lua, limits=Limits(time=60))


# -- an independent model, straight from the wording of the rules (docs/games/3verse.md) ---------------------------
# A position: pieces {(file, rank): "X"/"O"}, marks {(file, rank): "X"/"O"} (each player's marks
# stay until that player's next turn), the player to move.  A path is checked literally: each
# square on the previous one's rank or file, the next one on neither the rank nor the file of the
# one before that (V2), only empty squares on and between the ends, where "empty" counts the
# marks already put down this turn (V3).

def label(cell):
    f, r = cell
    return f"{chr(96 + f)}{r}"


def cell_of(text):
    return ord(text[0]) - 96, int(text[1:])


def opening(size=8):
    pieces = {(1, 1): "X", (size, size): "X", (size, 1): "O", (1, size): "O"}
    return {"n": size, "pieces": pieces, "marks": {}, "to_move": "X"}


def line_squares(cell, n):
    f, r = cell
    return [(g, r) for g in range(1, n + 1) if g != f] + [(f, q) for q in range(1, n + 1) if q != r]


def between(a, b):
    (fa, ra), (fb, rb) = a, b
    if fa == fb:
        return [(fa, q) for q in range(min(ra, rb) + 1, max(ra, rb))]
    return [(g, ra) for g in range(min(fa, fb) + 1, max(fa, fb))]


def model_moves(pos, k):
    n, me = pos["n"], pos["to_move"]
    marks = {c: o for c, o in pos["marks"].items() if o != me}  # step 1: lift my marks
    occupied = set(pos["pieces"]) | set(marks)
    out = []

    def extend(path, taken):
        if len(path) == k + 1:
            out.append("-".join(label(c) for c in path))
            return
        here = path[-1]
        for nxt in line_squares(here, n):
            if len(path) >= 2 and (nxt[0] == path[-2][0] or nxt[1] == path[-2][1]):
                continue
            if nxt in taken or any(b in taken for b in between(here, nxt)):
                continue
            extend(path + [nxt], taken | {nxt})

    for anchor in sorted(c for c, o in pos["pieces"].items() if o == me):
        extend([anchor], occupied)
    return out


def model_play(pos, text):
    cells = [cell_of(t) for t in text.split("-")]
    me = pos["to_move"]
    marks = {c: o for c, o in pos["marks"].items() if o != me}
    for c in cells[1:-1]:
        marks[c] = me
    pieces = dict(pos["pieces"])
    pieces[cells[-1]] = me
    return {"n": pos["n"], "pieces": pieces, "marks": marks, "to_move": "O" if me == "X" else "X"}


def model_perft(pos, k, depth):
    if depth == 0:
        return 1
    moves = model_moves(pos, k)
    if not moves:
        return 1
    if depth == 1:
        return len(moves)
    return sum(model_perft(model_play(pos, m), k, depth - 1) for m in moves)


@functools.lru_cache(maxsize=None)
def cached_model_perft(size, k, depth):
    return model_perft(opening(size), k, depth)


def board_of(pos):
    """The script's board as {(file, rank): value}, for readable checks."""
    state = pos.state()
    n = state["n"]
    return {(i % n + 1, i // n + 1): v for i, v in enumerate(state["board"])}


# -- the rules (docs/games/3verse.md) -----------------------------------------------------------------------------

@pytest.mark.slow     # (a minute a runtime: `pytest -m slow`)
def test_opening_has_1128_paths_to_1128_positions(verse):
    pos = verse.start()
    moves = pos.legal_moves
    assert len(moves) == 1128 == len(set(pos.notations()))
    positions = set()
    for m in moves:
        pos.play(m)
        positions.add(tuple(pos.state()["board"]))
        pos.undo()
    assert len(positions) == 1128


def test_opening_counts_per_anchor(verse):
    notations = verse.start().notations()
    assert sum(t.startswith("a1-") for t in notations) == 564
    assert sum(t.startswith("h8-") for t in notations) == 564
    assert sum(t.startswith("a1-b1-") for t in notations) == 47   # 6*7 + 5 by the hand check


@pytest.mark.parametrize("k, count", [(1, 24), (3, 1128)])
def test_other_k_at_the_opening(verse, k, count):
    assert len(verse.start(options={"k": k}).legal_moves) == count


def test_legal_and_illegal_examples_at_the_opening(verse):
    pos = verse.start()
    legal = set(pos.notations())
    for text in ("a1-b1-b2-c2", "a1-c1-c3-a3", "h8-h2-a2-a5", "a1-a7-g7-g8"):
        assert text in legal
    assert "a1-b1-c1-c2" not in legal and "a1-b1-b2-b5" not in legal
    with pytest.raises(nomv.IllegalMoveError, match="turn 90 degrees at b1"):
        pos.parse("a1-b1-c1-c2")
    with pytest.raises(nomv.IllegalMoveError, match="turn 90 degrees at b2"):
        pos.parse("a1-b1-b2-b5")


def test_o_after_the_first_move(verse):
    pos = verse.start()
    pos.play("a1-b1-b2-c2")
    board = board_of(pos)
    assert board[(2, 1)] == board[(2, 2)] == 3          # X marks on b1, b2
    assert board[(3, 2)] == 1                           # X piece on c2
    legal = set(pos.notations())
    for text, why in [("a8-a2-d2-d5", "b2 is not empty"), ("h1-b1-b5-c5", "b1 is not empty"),
                      ("h1-c1-c5-a5", "c2 is not empty"), ("a8-a3-c3-c1", "c2 is not empty")]:
        assert text not in legal
        with pytest.raises(nomv.IllegalMoveError, match=why):
            pos.parse(text)
    assert "a8-a3-d3-d1" in legal


def test_marks_are_lifted_at_the_start_of_the_next_own_turn(verse):
    pos = verse.start()
    pos.play("a1-b1-b2-c2")
    pos.play("a8-a3-d3-d1")
    board = board_of(pos)
    assert board[(2, 1)] == board[(2, 2)] == 0          # X's marks are gone at X's turn...
    assert board[(1, 3)] == board[(4, 3)] == 4          # ...O's stay through it
    legal = set(pos.notations())
    assert "a1-b1-b3-c3" in legal and "c2-b2-b1-c1" in legal   # b1 and b2 are free again
    assert not any(t.startswith("a1-a4") for t in legal)       # O's mark on a3 blocks file a
    pos.play("c2-b2-b1-c1")
    board = board_of(pos)
    assert board[(1, 3)] == board[(4, 3)] == 0          # and O lifts them in turn
    assert board[(2, 2)] == board[(2, 1)] == 3 and board[(3, 1)] == 1


def test_each_turn_adds_one_piece(verse):
    rng = random.Random(3)
    pos = verse.start()
    t = 0
    while pos.outcome() is None:
        pieces = sum(1 for v in pos.state()["board"] if v in (1, 2))
        assert pieces == 4 + t
        pos.play(rng.choice(pos.legal_moves))
        t += 1
    assert sum(1 for v in pos.state()["board"] if v in (1, 2)) == 4 + t
    assert t <= 60


# -- the ambiguity table ----------------------------------------------------------------------

def test_v1_set_up_on_the_long_diagonals(verse):
    for size in (4, 8, 12):
        board = board_of(verse.start(options={"size": size}))
        assert board[(1, 1)] == board[(size, size)] == 1
        assert board[(size, 1)] == board[(1, size)] == 2
        assert sum(1 for v in board.values() if v) == 4
    assert verse.start().to_move == 1


@pytest.mark.parametrize("k", [1, 2, 3, 4, 5])
def test_v2_paths_turn_at_every_mark_and_match_the_literal_wording(roomy_verse, k):
    # The model checks "on neither the rank nor the file" of the square before the previous one.
    pos = roomy_verse.start(options={"k": k})
    assert sorted(pos.notations()) == sorted(model_moves(opening(), k))


def test_v3_own_marks_of_this_turn_block_for_k5(roomy_verse):
    pos = roomy_verse.start(options={"k": 5})
    legal = set(pos.notations())
    # Leg 5 runs back along rank 1, where the first mark (c1) already sits.
    assert "a1-c1-c3-e3-e1-d1" in legal
    assert "a1-c1-c3-e3-e1-b1" not in legal
    with pytest.raises(nomv.IllegalMoveError, match="c1 is not empty"):
        pos.parse("a1-c1-c3-e3-e1-b1")


def test_v4_piece_may_close_a_rectangle(verse):
    assert "a1-c1-c3-a3" in verse.start().notations()


def test_v5_paths_differing_only_in_the_anchor_are_two_moves(verse):
    rng = random.Random(7)
    pos = verse.start(seed=1)
    while pos.outcome() is None:
        by_rest = {}
        for m in pos.legal_moves:
            by_rest.setdefault(m.steps[1:], []).append(m)
        twins = [ms for ms in by_rest.values() if len(ms) > 1]
        if twins:
            a, b = twins[0][:2]
            assert a != b and a.steps[0] != b.steps[0]
            pos.play(a)
            after_a = pos.state()["board"]
            pos.undo()
            pos.play(b)
            assert pos.state()["board"] == after_a      # same position, still two moves
            return
        pos.play(rng.choice(pos.legal_moves))
    pytest.fail("no position with two anchors for one path was met")


def test_v6_no_pass_and_no_move_loses(verse):
    rng = random.Random(11)
    for seed in range(5):
        pos = verse.start(options={"size": 5}, seed=seed)
        model = opening(5)
        while pos.outcome() is None:
            assert all(len(m.steps) == 4 for m in pos.legal_moves)   # never a pass
            text = rng.choice(pos.notations())
            pos.play(text)
            model = model_play(model, text)
        outcome = pos.outcome()
        assert model_moves(model, 3) == []                 # the player to move is stuck
        stuck = 1 if model["to_move"] == "X" else 2
        assert outcome.winner == 3 - stuck and not outcome.draw
        assert localized(outcome.reason) == ("X" if stuck == 1 else "O") + " has no path"


def test_v7_k0_is_refused(verse):
    with pytest.raises(nomv.OptionError, match=r"option 'k': 0 is out of range; allowed: a whole number from 1 to 5"):
        verse.start(options={"k": 0})


# -- options and variants ---------------------------------------------------------------------

@pytest.mark.parametrize("k", [-1, 6, 2.5])
def test_bad_k(verse, k):
    with pytest.raises(nomv.OptionError, match=r"option 'k': .*allowed: a whole number from 1 to 5"):
        verse.start(options={"k": k})


@pytest.mark.parametrize("size", [3, 13, 7.5])
def test_bad_size(verse, size):
    with pytest.raises(nomv.OptionError, match=r"option 'size': .*allowed: a whole number from 4 to 12"):
        verse.start(options={"size": size})


def test_variants_are_named_presets(verse):
    assert verse.variants == ["2verse", "4verse"]
    assert verse.start(variant="2verse").options["k"] == 2
    assert verse.start(variant="4verse").options["k"] == 4
    assert len(verse.start(variant="2verse").legal_moves) == len(model_moves(opening(), 2))


@pytest.mark.parametrize("options, variant", [
    ({}, None), ({}, "2verse"), ({}, "4verse"), ({"k": 1}, None), ({"k": 5}, None),
    ({"size": 4}, None), ({"size": 5, "k": 5}, None), ({"size": 12}, None), ({"size": 12, "k": 1}, None),
])
def test_random_playouts_finish(verse, options, variant):
    stats = verse.playout(60, seed=5, options=options, variant=variant)
    assert stats.unfinished == 0 and stats.draws == 0 and sum(stats.wins) == 60
    assert stats.longest <= verse.start(options=options, variant=variant).options["size"] ** 2 - 4


# -- notation ---------------------------------------------------------------------------------

@pytest.mark.parametrize("k", [1, 3, 5])
def test_notation_round_trip(verse, k):
    rng = random.Random(k)
    pos = verse.start(options={"k": k, "size": 6})
    for _ in range(6):
        if pos.outcome() is not None:
            break
        for i, m in enumerate(pos.legal_moves):
            text = pos.notation(m)
            assert text == "-".join(m.steps) and len(m.steps) == k + 1
            assert pos.parse(text) == m
            if i % 50 == 0:  # other spellings go through the script's parse: a sample is enough
                assert pos.parse(text.upper().replace("-", " ")) == m
        pos.play(rng.choice(pos.legal_moves))


def test_parse_explains_what_is_wrong(verse):
    pos = verse.start()
    for text, why in [("a1-b1-b2", "names 4 squares"), ("a1-b1-b2-z9", "z9 is not a square"),
                      ("h1-g1-g2-f2", "h1 is not one of X's pieces"),
                      ("a1-b2-b3-c3", "a1 and b2 are not on one rank or file")]:
        with pytest.raises(nomv.IllegalMoveError, match=why):
            pos.parse(text)


def test_text_and_scene(verse):
    pos = verse.start()
    pos.play("a1-b1-b2-c2")
    text = pos.text()
    assert " 1  X x . . . . . O" in text and " 2  . x X . . . . ." in text
    assert "O to move; X's marks on b1, b2" in text
    scene = pos.scene()
    assert "status" not in scene                  # whose turn it is is nomv's line to say (nomv.play.wording)
    labels = [item.get("label") for item in scene["items"]]
    assert labels.count("X") == 3 and labels.count("O") == 2 and labels.count("x") == 2
    ids = {item["id"] for item in scene["items"] if "id" in item}
    assert {"a1", "h8", "c2"} <= ids


# -- perft against the model ------------------------------------------------------------------

@pytest.mark.parametrize("size, k, depth", [
    (8, 3, 1), (8, 1, 2), (8, 2, 2), (6, 3, 2), (5, 4, 2), (5, 5, 2), (4, 3, 3), (4, 2, 3), (4, 4, 3),
])
def test_perft_agrees_with_the_model(verse, size, k, depth):
    pos = verse.start(options={"size": size, "k": k})
    assert pos.perft(depth) == cached_model_perft(size, k, depth)


def test_perft_2_on_the_full_board(verse):
    assert verse.start().perft(2) == 780440


def test_moves_match_the_model_through_random_games(verse):
    rng = random.Random(2)
    for k in (2, 3, 4, 5):
        pos = verse.start(options={"k": k, "size": 7})
        model = opening(7)
        while pos.outcome() is None:
            assert sorted(pos.notations()) == sorted(model_moves(model, k))
            text = rng.choice(pos.notations())
            pos.play(text)
            model = model_play(model, text)
        assert model_moves(model, k) == []


# -- random_move --------------------------------------------------------------------------------
# nomv calls random_move only inside playouts, so two test copies of the script use it:
# one checks every move it returns against moves(), one lists what it returns as the moves.

FAKE_RNG = """
local seed = 12345
local fake = {}
function fake:float() seed = (16807 * seed) % 2147483647; return seed / 2147483647 end
function fake:int(a, b) if not b then a, b = 1, a end; return a + math.floor(self:float() * (b - a + 1)) end
"""


def patched(extra: str) -> str:
    src = SCRIPT.read_text(encoding="utf-8").replace("\nreturn {\n", "\nlocal GAME = {\n", 1)
    return src + FAKE_RNG + extra + "\nreturn GAME\n"


CHECKED = """
local original_moves, original_play = GAME.moves, GAME.play
GAME.name = "3verse-checked"
GAME.play = function(s, m, rng)
  local text = table.concat(m, "-")
  for _, legal in ipairs(original_moves(s)) do
    if table.concat(legal, "-") == text then return original_play(s, m, rng) end
  end
  error("random_move returned an illegal move: " .. text)
end
"""

SAMPLED = """
local original_moves = GAME.moves
GAME.name = "3verse-sampled"
GAME.moves = function(s)
  local seen, out = {}, {}
  for _ = 1, 40 * #original_moves(s) do
    local m = GAME.random_move(s, fake)
    local text = table.concat(m, "-")
    if not seen[text] then seen[text] = true; out[#out + 1] = m end
  end
  table.sort(out, function(a, b) return table.concat(a, "-") < table.concat(b, "-") end)
  return out
end
"""


@pytest.mark.parametrize("options", [{}, {"k": 1}, {"k": 2}, {"k": 4}, {"k": 5, "size": 6}, {"size": 11}])
def test_random_move_is_always_legal(script, lua, options):
    game = nomv.Game.load(script(patched(CHECKED)), runtime=lua)
    stats = game.playout(30, seed=9, options=options)
    assert stats.unfinished == 0


@pytest.mark.parametrize("k", [2, 3, 4, 5])
def test_random_move_can_return_every_legal_move(script, lua, verse, k):
    sampled = nomv.Game.load(script(patched(SAMPLED)), runtime=lua, limits=Limits(time=60))  # test-only heavy hooks
    rng = random.Random(k)
    real = verse.start(options={"size": 4, "k": k})
    fake = sampled.start(options={"size": 4, "k": k})
    while real.outcome() is None:
        assert sorted(fake.notations()) == sorted(real.notations())
        text = rng.choice(real.notations())
        real.play(text)
        fake.play(text)


# random_move is exactly uniform (it counts the paths and draws one number).  COUNTED lists each
# legal move once, labelled with how often random_move drew it; the draws alternate between the
# state and its parent, so the count that play() leaves for random_move to reuse is always for
# the other state and must be redone, never reused wrongly.
COUNTED = """
local original_moves, original_play = GAME.moves, GAME.play
GAME.name = "3verse-counted"
GAME.moves = function(s)
  local legal, index = original_moves(s), {}
  for i, m in ipairs(legal) do index[table.concat(m, "-")] = i; m.label = 0 end
  local other = legal[1] and original_play(s, legal[1])
  for _ = 1, 100 * #legal do
    if other then GAME.random_move(other, fake) end
    local i = index[table.concat(GAME.random_move(s, fake), "-")]
    legal[i].label = legal[i].label + 1
  end
  for _, m in ipairs(legal) do m.label = tostring(m.label) end
  return legal
end
"""


@pytest.mark.parametrize("k", [1, 2, 3, 4])
def test_random_move_is_uniform(script, lua, k):
    counted = nomv.Game.load(script(patched(COUNTED)), runtime=lua, limits=Limits(time=60))  # test-only heavy hooks
    rng = random.Random(k)
    pos = counted.start(options={"size": 5 if k < 4 else 4, "k": k})
    for _ in range(3):
        if pos.outcome() is not None:
            break
        draws = [int(m.label) for m in pos.legal_moves]
        assert sum(draws) == 100 * len(draws)
        assert min(draws) > 100 * 0.55 and max(draws) < 100 * 1.45  # about 4.5 standard deviations
        pos.play(rng.choice(pos.legal_moves))
