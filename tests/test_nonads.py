"""Nonads: every fact of the rules (docs/games/nonads.md), the numbering of 3.4, the rows T1-T11 of 3.2, the
Advanced and Knownads modes, hidden information, options, notation, perft and random moves.

The script is checked against an independent model of the tiles and the layout written here
straight from docs/games/nonads.md."""
from __future__ import annotations

import itertools
import json
import random
import re
from collections import Counter
from pathlib import Path

import pytest

import nomv
from nomv.languages import localized

# -- the independent model ---------------------------------------------------------------------

TABLE = """
 1  15 ###/#../...   2  23 ###/.#./...   3  27 ##./##./...   4  29 #.#/##./...
 5  30 .##/##./...   6  39 ###/..#/...   7  43 ##./#.#/...   8  45 #.#/#.#/...
 9  46 .##/#.#/...  10  51 ##./.##/...  11  53 #.#/.##/...  12  57 #../###/...
13  58 .#./###/...  14  60 ..#/###/...  15  71 ###/.../#..  16  77 #.#/#../#..
17  78 .##/#../#..  18  85 #.#/.#./#..  19  86 .##/.#./#..  20  92 ..#/##./#..
21  99 ##./..#/#..  22 101 #.#/..#/#..  23 102 .##/..#/#..  24 105 #../#.#/#..
25 106 .#./#.#/#..  26 108 ..#/#.#/#..  27 113 #../.##/#..  28 114 .#./.##/#..
29 141 #.#/#../.#.  30 142 .##/#../.#.  31 170 .#./#.#/.#.  32 197 #.#/.../##.
33 198 .##/.../##.  34 325 #.#/.../#.#
"""
ROWS = {int(n): (int(m), pic) for n, m, pic in re.findall(r"(\d+)\s+(\d+)\s+([#./]{11})", TABLE)}


def mask_of(picture: str) -> int:
    cells = picture.replace("/", "")
    return sum(1 << k for k, ch in enumerate(cells) if ch == "#")


def picture_of(mask: int) -> str:
    return "/".join("".join("#" if mask >> (3 * r + c) & 1 else "." for c in range(3)) for r in range(3))


def turn(mask: int) -> int:
    """One clockwise quarter turn: new (r, c) shows old (2 - c, r)."""
    return sum(1 << (3 * r + c) for r in range(3) for c in range(3) if mask >> (3 * (2 - c) + r) & 1)


def mirror(mask: int) -> int:
    return sum(1 << (3 * r + c) for r in range(3) for c in range(3) if mask >> (3 * r + 2 - c) & 1)


def orbit(mask: int) -> list[int]:
    out = [mask]
    for _ in range(3):
        out.append(turn(out[-1]))
    return out


CANON = sorted({min(orbit(m)) for m in range(512) if bin(m).count("1") == 4})
TILE_OF = {m: t for t, c in enumerate(CANON, start=1) for m in orbit(c)}


def pattern(t: int, r: int) -> int:
    return orbit(CANON[t - 1])[r]


def distinct_rotations(t: int) -> list[int]:
    seen, out = set(), []
    for r, m in enumerate(orbit(CANON[t - 1])):
        if m not in seen:
            seen.add(m)
            out.append(r)
    return out


# nomv.grid.open({reach = 250}): key = (y + 251) * 502 + (x + 251).
REACH = 250
W, OFF = 2 * REACH + 2, REACH + 1


def layout_of(state) -> dict:
    """{(x, y): (tile, r)} from the script's state."""
    out = {}
    for key, code in zip(state["slots"], state["codes"]):
        out[(key % W - OFF, key // W - OFF)] = (code // 4, code % 4)
    return out


def cell(layout, cx, cy):
    t = layout.get((cx // 3, cy // 3))
    if t is None:
        return None
    return pattern(*t) >> (3 * (cy % 3) + cx % 3) & 1


def window(layout, cx, cy):
    """The tile a 3x3 window shows (top-left cell cx, cy), or None if a cell is empty."""
    mask = 0
    for r in range(3):
        for c in range(3):
            v = cell(layout, cx + c, cy + r)
            if v is None:
                return None
            mask |= v << (3 * r + c)
    return TILE_OF.get(mask, 0)


def created(layout, slot):
    """Tiles shown by the complete windows overlapping the tile at slot (with its own)."""
    x, y = slot
    out = []
    for cy in range(3 * y - 2, 3 * y + 3):
        for cx in range(3 * x - 2, 3 * x + 3):
            t = window(layout, cx, cy)
            if t is not None:
                out.append(((cx, cy), t))
    return out


def all_windows(layout):
    xs = [x for x, _ in layout]
    ys = [y for _, y in layout]
    out = []
    for cy in range(3 * min(ys), 3 * max(ys) + 1):
        for cx in range(3 * min(xs), 3 * max(xs) + 1):
            t = window(layout, cx, cy)
            if t is not None:
                out.append(((cx, cy), t))
    return out


NEIGHBOURS = [(0, -1), (1, 0), (0, 1), (-1, 0)]


def frontier(layout):
    return {(x + dx, y + dy) for (x, y) in layout for dx, dy in NEIGHBOURS} - set(layout)


def movable(layout, slot, rule):
    x, y = slot
    if rule == "open_side":
        return any((x + dx, y + dy) not in layout for dx, dy in NEIGHBOURS)
    xs = [a for a, _ in layout]
    ys = [b for _, b in layout]
    for dx, dy in NEIGHBOURS:
        a, b, clear = x, y, True
        while min(xs) <= a <= max(xs) and min(ys) <= b <= max(ys):
            a, b = a + dx, b + dy
            if (a, b) in layout:
                clear = False
                break
        if clear:
            return True
    return False


def model_moves(s):
    """Every legal move of a model state, as notation text."""
    layout = s["layout"]
    p = s["to_move"]
    rots = (lambda t: distinct_rotations(t)) if s["rotation"] else (lambda t: [0])
    if not layout:
        return {"0,0/0"}
    hand = s["hands"][p - 1]
    if hand:
        return {f"{x},{y}/{r}" for (x, y) in frontier(layout) for r in rots(hand)}
    out = set()
    for slot, (t, _) in layout.items():
        if slot == s["last"] or not movable(layout, slot, s["slide_rule"]):
            continue
        rest = {k: v for k, v in layout.items() if k != slot}
        for (x, y) in frontier(rest) - {slot}:
            for r in rots(t):
                out.add(f"{slot[0]},{slot[1]}>{x},{y}/{r}")
    return out


def model_play(s, text):
    """Basic and Knownads rules (no chance events); returns the new model state."""
    s = {**s, "layout": dict(s["layout"]), "hands": list(s["hands"]), "deck": list(s["deck"]),
         "scores": list(s["scores"])}
    p = s["to_move"]
    m = re.fullmatch(r"(?:(-?\d+),(-?\d+)>)?(-?\d+),(-?\d+)/(\d)", text)
    r = int(m.group(5))
    dest = (int(m.group(3)), int(m.group(4)))
    if m.group(1) is not None:
        src = (int(m.group(1)), int(m.group(2)))
        t = s["layout"].pop(src)[0]
        s["tiebreak"] += 1
    else:
        t = s["hands"][p - 1]
        s["hands"][p - 1] = 0
    s["layout"][dest] = (t, r)
    s["last"] = dest
    if s["deck"]:
        s["hands"][p - 1] = s["deck"].pop(0)
    made = [t for _, t in created(s["layout"], dest) if t]
    if s["mode"] == "knownads":
        for q, target in enumerate(s["targets"]):
            s["scores"][q] += made.count(target)
        if not s["deck"] and not any(s["hands"]):
            s["over"] = True
    elif s["targets"][p - 1] in made:
        s["over"] = True
    s["to_move"] = p % len(s["hands"]) + 1
    return s


def model_start(targets, hands, deck, mode="basic", rotation=True, slide_rule="open_side"):
    return {"layout": {}, "to_move": 1, "hands": list(hands), "deck": list(deck), "targets": list(targets),
            "last": None, "mode": mode, "rotation": rotation, "slide_rule": slide_rule, "tiebreak": 0,
            "scores": [0] * len(targets), "over": False}


def model_perft(s, depth):
    if depth == 0 or s["over"]:
        return 1
    return sum(model_perft(model_play(s, m), depth - 1) for m in model_moves(s))


def explicit(targets, hands, deck, **more):
    opts = {"targets": ",".join(map(str, targets)), "hands": ",".join(map(str, hands)),
            "deck": ",".join(map(str, deck))}
    opts.update(more)
    if "players" not in opts and len(targets) != 2:
        opts["players"] = len(targets)
    return opts


@pytest.fixture
def nonads(lua):
    return nomv.Game.load("nonads", runtime=lua)


def shown_tiles(pos):
    """{tile number: picture} for every target and hand tile printed by text()."""
    return {int(n): pic for n, pic in re.findall(r"#(\d+) ([#./]{11})", pos.text())}


# -- the rules (docs/games/nonads.md): the numbering ---------------------------------------------------------------

def test_model_agrees_with_the_table():
    assert len(ROWS) == 34
    for n, (m, pic) in ROWS.items():
        assert CANON[n - 1] == m == mask_of(pic)


def test_script_numbers_tiles_as_the_table(nonads):
    seen = {}
    groups = [list(range(i, i + 4)) for i in range(1, 33, 4)] + [[33, 34, 1, 2]]
    for tiles in groups:
        pos = nonads.start(options=explicit(tiles[:2], tiles[2:], []))
        seen.update(shown_tiles(pos))
    assert seen == {n: pic for n, (_, pic) in ROWS.items()}


# -- the rules (docs/games/nonads.md) --------------------------------------------------------------------------------

def test_tile_set_facts():
    assert len(CANON) == 34
    sizes = Counter(len(distinct_rotations(t)) for t in range(1, 35))
    assert sizes == {4: 30, 2: 2, 1: 2}
    assert [t for t in range(1, 35) if len(distinct_rotations(t)) == 2] == [26, 33]
    assert [t for t in range(1, 35) if len(distinct_rotations(t)) == 1] == [31, 34]
    mirror_of = {t: TILE_OF[mirror(CANON[t - 1])] for t in range(1, 35)}
    assert len({frozenset((t, mirror_of[t])) for t in range(1, 35)}) == 23
    pairs = {frozenset((t, mirror_of[t])) for t in range(1, 35) if mirror_of[t] != t}
    assert len(pairs) == 11
    whites = {min(orbit(m)) for m in range(512) if bin(m).count("1") == 5}
    assert len(whites) == 34


@pytest.mark.parametrize("tile", range(1, 35))
def test_orientations_seen_by_the_script(nonads, tile):
    # The second placement offers 4 slots times the hand tile's distinct rotations.
    other = 1 if tile != 1 else 2
    targets = [t for t in range(3, 8) if t not in (tile, other)][:2]
    pos = nonads.start(options=explicit(targets, [other, tile], []))
    pos.play("0,0/0")
    assert len(pos.legal_moves) == 4 * len(distinct_rotations(tile))
    assert len(distinct_rotations(tile)) == {26: 2, 33: 2, 31: 1, 34: 1}.get(tile, 4)


def test_two_player_setup_deck_and_second_placement(nonads):
    pos = nonads.start(seed=3)
    s = pos.state()
    assert len(s["deck"]) == 30 and len(s["targets"]) == 2 and len(s["hands"]) == 2
    assert sorted(s["deck"] + s["targets"] + s["hands"]) == list(range(1, 35))   # T5: one set
    pos = nonads.start(options=explicit([1, 2], [3, 4], [5, 6]))
    assert pos.notations() == ["0,0/0"]
    pos.play("0,0/0")
    assert len(pos.legal_moves) == 16
    assert sorted({n.split("/")[0] for n in pos.notations()}) == ["-1,0", "0,-1", "0,1", "1,0"]


def test_two_tiles_side_by_side_have_four_windows_two_straddling():
    layout = {(0, 0): (17, 0), (1, 0): (5, 2)}
    wins = all_windows(layout)
    assert len(wins) == 4
    straddling = [(c, t) for c, t in wins if c[0] % 3 != 0]
    assert [c for c, _ in straddling] == [(1, 0), (2, 0)]
    # The tile-aligned windows are the tiles themselves.
    assert [t for c, t in wins if c[0] % 3 == 0] == [17, 5]


def play_without_winning(pos, rng, limit):
    """Plays random moves that do not end the game, backtracking when needed."""
    while pos.ply < limit:
        moves = pos.legal_moves[:]
        rng.shuffle(moves)
        for m in moves:
            pos.play(m)
            if pos.outcome() is None:
                break
            pos.undo()
        else:
            raise AssertionError("every move ends the game")


def test_32_placements_then_tiebreaker_on_turn_33(nonads):
    rng = random.Random(1)
    tiles = list(range(1, 35))
    rng.shuffle(tiles)
    pos = nonads.start(options=explicit(tiles[:2], tiles[2:4], tiles[4:]))
    assert len(pos.state()["deck"]) == 30
    play_without_winning(pos, rng, 32)
    s = pos.state()
    assert len(s["slots"]) == 32 and s["hands"] == [0, 0] and s["deck"] == []
    assert pos.state()["turn"] == 33
    assert all(">" in n for n in pos.notations())            # turn 33 moves a placed tile
    assert all(len(m.steps) == 3 and m.steps[0].startswith("tile:") for m in pos.legal_moves)
    pos.undo()
    assert not any(">" in n for n in pos.notations())        # turn 32 still placed a tile


@pytest.mark.parametrize("players, deck", [(2, 0), (3, 2), (4, 5), (3, 28)])
def test_tiebreaker_begins_after_every_tile_is_placed(nonads, players, deck):
    # T6: P hand tiles and the deck are placed (34 - P with a full deck), then turn 35 - P.
    rng = random.Random(players * 100 + deck)
    tiles = rng.sample(range(1, 35), 2 * players + deck)
    pos = nonads.start(options=explicit(tiles[:players], tiles[players:2 * players], tiles[2 * players:]))
    placements = players + deck
    play_without_winning(pos, rng, placements)
    assert pos.state()["turn"] == placements + 1
    assert all(">" in n for n in pos.notations())
    if deck == 34 - 2 * players:
        assert placements + 1 == 35 - players


# -- the rules (docs/games/nonads.md), T1 .. T11 ---------------------------------------------------------------------

def test_t1_rotation_option(nonads):
    on = nonads.start(options=explicit([1, 2], [3, 4], [5]))
    off = nonads.start(options=explicit([1, 2], [3, 4], [5], rotation=False))
    for pos in (on, off):
        pos.play("0,0/0")
    assert len(on.legal_moves) == 16 and len(off.legal_moves) == 4
    assert all(n.endswith("/0") for n in off.notations())


def test_t2_edge_contact_only(nonads):
    pos = nonads.start(options=explicit([1, 2], [3, 4], [5, 6]))
    pos.play("0,0/0")
    slots = {n.split("/")[0] for n in pos.notations()}
    assert "1,1" not in slots and "2,0" not in slots
    pos.play("1,0/0")
    slots = {n.split("/")[0] for n in pos.notations()}
    assert slots == {"0,-1", "1,-1", "-1,0", "2,0", "0,1", "1,1"}


def four_tiles(shown, a, b):
    """Both straddling windows show tiles, different from each other and from a and b."""
    return 0 not in shown and len(set(shown) | {a, b}) == 4


def find_pair(want, avoid=(), side="straddle"):
    """Tiles a, b and rotations with a at (0,0), b at (1,0) whose windows show `want`."""
    for a, b in itertools.permutations(range(1, 35), 2):
        if a in avoid or b in avoid:
            continue
        for ra in (0,):                      # the first tile is placed at rotation 0 (T11)
            for rb in distinct_rotations(b):
                lay = {(0, 0): (a, ra), (1, 0): (b, rb)}
                shown = [t for c, t in all_windows(lay) if c[0] % 3]
                if want(shown, a, b):
                    return a, ra, b, rb, shown
    raise AssertionError("no pair found")


def test_t3_a_straddling_window_wins(nonads):
    # Player 2 places the second tile; one of the straddling windows is their target.
    a, _, b, rb, shown = find_pair(four_tiles)
    spare = [t for t in range(1, 35) if t not in (a, b, *shown)]
    pos = nonads.start(options=explicit([spare[0], shown[1]], [a, b], []))
    pos.play("0,0/0")
    pos.play(f"1,0/{rb}")
    out = pos.outcome()
    assert out.winner == 2 and "made their target" in localized(out.reason)
    # The window is a straddling one: offset 1 or 2 cells into the first tile.
    assert [c for c, t in all_windows(layout_of(pos.state())) if t == shown[1]][0][0] in (1, 2)


def test_t3_t4_only_the_mover_and_only_new_windows(nonads):
    a, _, b, rb, shown = find_pair(four_tiles)
    spare = [t for t in range(1, 35) if t not in (a, b, *shown)]
    # Player 2 makes player 1's target: nothing happens in the basic game.
    pos = nonads.start(options=explicit([shown[0], spare[0]], [a, b], spare[1:3]))
    pos.play("0,0/0")
    pos.play(f"1,0/{rb}")
    assert pos.outcome() is None
    # Player 1's later placements do not win by that old window: only windows over the new tile.
    model = model_start([shown[0], spare[0]], [a, b], spare[1:3])
    model = model_play(model_play(model, "0,0/0"), f"1,0/{rb}")
    quiet = [m for m in pos.notations() if not model_play(model, m)["over"]]
    assert quiet
    pos.play(quiet[0])
    assert pos.outcome() is None


def slide_rule_setup():
    # A hole at (0,1) below the centre tile (0,0): its only open side leads into the hole.
    order = [(0, 0), (-1, 0), (1, 0), (0, -1), (-1, 1), (1, 1), (1, 2), (0, 2), (-1, 2)]
    return order


def test_t7_slide_rules(nonads):
    order = slide_rule_setup()
    rng = random.Random(7)
    for _attempt in range(200):
        tiles = rng.sample(range(1, 35), 2 + len(order))
        results = {}
        for rule in ("open_side", "clear_line"):
            pos = nonads.start(options=explicit(tiles[:2], tiles[2:4], tiles[4:], slide_rule=rule,
                                                rotation=False))
            for x, y in order:
                pos.play(f"{x},{y}/0")
                if pos.outcome() is not None:
                    break
            if pos.outcome() is not None:
                break
            results[rule] = {n.split(">")[0] for n in pos.notations()}
        if len(results) == 2:
            break
    else:
        raise AssertionError("no quiet set-up found")
    # The centre tile has one open side (into the hole), and no clear line out.
    assert "0,0" in results["open_side"] and "0,0" not in results["clear_line"]
    assert "-1,1" in results["open_side"] and "-1,1" in results["clear_line"]
    assert "-1,2" not in results["open_side"]      # T8: placed on the preceding turn
    # -1,0 is open to the west in both readings.
    assert "-1,0" in results["clear_line"]


def test_t8_tiebreaker_moves_agree_with_model(nonads):
    rng = random.Random(8)
    for _seed in range(6):
        tiles = rng.sample(range(1, 35), 10)
        pos = nonads.start(options=explicit(tiles[:2], tiles[2:4], tiles[4:]))
        model = model_start(tiles[:2], tiles[2:4], tiles[4:])
        for _ in range(20):
            if pos.outcome() is not None:
                break
            assert set(pos.notations()) == model_moves(model)
            assert len(pos.notations()) == len(set(pos.notations()))
            if model["hands"][model["to_move"] - 1] == 0:
                last = model["last"]
                assert not any(n.startswith(f"{last[0]},{last[1]}>") for n in pos.notations())
                for n in pos.notations():
                    src, dst = n.split("/")[0].split(">")
                    assert src != dst
            text = rng.choice(pos.notations())
            pos.play(text)
            model = model_play(model, text)
            assert layout_of(pos.state()) == model["layout"]


def test_t8_the_layout_may_split(nonads):
    # A line of three: the middle tile may leave (its sides are open), splitting the layout.
    a, b, c = 3, 4, 5
    pos = nonads.start(options=explicit([1, 2], [a, b], [c], rotation=False))
    for text in ("0,0/0", "1,0/0", "2,0/0"):
        pos.play(text)
    assert pos.outcome() is None
    assert pos.state()["to_move"] == 2
    # Player 2 cannot move 2,0 (just placed); may move 1,0 to a slot touching 0,0 or 2,0.
    movers = {n.split(">")[0] for n in pos.notations()}
    assert movers == {"0,0", "1,0"}
    assert "1,0>0,1/0" in pos.notations()
    assert "1,0>1,1/0" not in pos.notations()      # touches nothing once 1,0 has left


def test_t9_tiebreak_limit(nonads):
    pos = nonads.start(options=explicit([1, 2], [3, 4], [], rotation=False, max_tiebreak_turns=1))
    model = model_start([1, 2], [3, 4], [], rotation=False)
    for n in ("0,0/0", "1,0/0"):
        pos.play(n)
        model = model_play(model, n)
    assert pos.outcome() is None
    quiet = [n for n in pos.notations() if not model_play(model, n)["over"]]
    pos.play(quiet[0])
    out = pos.outcome()
    assert out is not None and out.draw and "1 tiebreaker moves" in localized(out.reason)


def test_t9_third_repetition_is_a_draw(nonads):
    # Two tiles walking round a square; the targets are tiles that no arrangement shows.
    a, b = 3, 4
    made = set()
    for lay in ({(0, 0): (a, 0), (1, 0): (b, 0)}, {(1, 1): (a, 0), (1, 0): (b, 0)},
                {(1, 1): (a, 0), (0, 1): (b, 0)}, {(0, 0): (a, 0), (0, 1): (b, 0)}):
        made |= {t for _, t in all_windows(lay)}
    spare = [t for t in range(1, 35) if t not in made]
    pos = nonads.start(options=explicit(spare[:2], [a, b], [], rotation=False))
    pos.play("0,0/0")
    pos.play("1,0/0")
    cycle = ["0,0>1,1/0", "1,0>0,1/0", "1,1>0,0/0", "0,1>1,0/0"]
    for n in cycle:
        pos.play(n)
        assert pos.outcome() is None
    for n in cycle[:3]:
        pos.play(n)
        assert pos.outcome() is None
    pos.play(cycle[3])                      # the start of the tiebreaker, for the third time
    out = pos.outcome()
    assert out.draw and "three times" in localized(out.reason)


def test_t10_symmetric_target_counts_once(nonads):
    # Knownads: a window showing #34 (four corners) matches in all 4 rotations but scores 1.
    def search():
        for a, b in itertools.permutations(range(1, 34), 2):
            for slot in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                for rb in distinct_rotations(b):
                    shown = [t for _, t in all_windows({(0, 0): (a, 0), slot: (b, rb)})]
                    if shown.count(34) == 1:
                        return a, b, slot, rb, shown
    a, b, (x, y), rb, shown = search()
    other = [t for t in range(1, 35) if t not in (a, b, 34, *shown)][0]
    pos = nonads.start(options=explicit([34, other], [a, b], [], mode="knownads"))
    pos.play("0,0/0")
    pos.play(f"{x},{y}/{rb}")
    out = pos.outcome()
    assert out.scores == (1, 0)


def test_t11_first_tile_fixed(nonads):
    pos = nonads.start(seed=11)
    assert pos.notations() == ["0,0/0"]
    assert [m.steps for m in pos.legal_moves] == [("slot:0,0", "rot:0")]


# -- Advanced --------------------------------------------------------------------------------------

def test_advanced_two_players_making_the_opponents_target(nonads):
    a, _, b, rb, shown = find_pair(four_tiles)
    spare = [t for t in range(1, 35) if t not in (a, b, *shown)]
    opts = explicit([shown[0], spare[0]], [a, b], spare[1:4])
    basic = nonads.start(options=opts)
    adv = nonads.start(options=opts, variant="advanced")
    for pos in (basic, adv):
        pos.play("0,0/0")
        pos.play(f"1,0/{rb}")
    assert basic.outcome() is None
    out = adv.outcome()
    assert out.winner == 1 and "Player 2 made Player 1's target" in localized(out.reason)
    # Making both your own and another's target still loses.
    both = nonads.start(options=explicit([shown[0], shown[1]], [a, b], spare[:3]), variant="advanced")
    both.play("0,0/0")
    both.play(f"1,0/{rb}")
    assert both.outcome().winner == 1


def test_advanced_three_players_the_loser_leaves(nonads):
    a, _, b, rb, shown = find_pair(four_tiles)
    spare = [t for t in range(1, 35) if t not in (a, b, *shown)]
    opts = explicit([shown[0], spare[0], spare[1]], [a, b, spare[2]], spare[3:6], mode="advanced")
    pos = nonads.start(options=opts, seed=5)
    pos.play("0,0/0")
    pos.play(f"1,0/{rb}")
    assert pos.outcome() is None
    s = pos.state()
    assert s["active"] == [True, False, True]
    assert s["targets"][1] == 0 and s["hands"][1] == 0
    # Player 2 drew spare[4] after placing; it and their target went back: 1 + 2 tiles.
    assert sorted(s["deck"]) == sorted([spare[5], spare[4], spare[0]])
    assert s["to_move"] == 3
    pos.play(pos.notations()[0])
    assert pos.outcome() is not None or pos.state()["to_move"] == 1
    stats = nonads.playout(200, seed=1, options={"players": 3}, variant="advanced")
    assert stats.unfinished == 0


# -- Knownads and hidden information ---------------------------------------------------------------

def test_knownads_scores_every_window_over_the_final_layout(nonads):
    rng = random.Random(4)
    for _seed in range(5):
        tiles = rng.sample(range(1, 35), 12)
        pos = nonads.start(options=explicit(tiles[:3], tiles[3:6], tiles[6:], mode="knownads"))
        while pos.outcome() is None:
            pos.play(rng.choice(pos.notations()))
        assert pos.ply == 9          # every tile placed, no tiebreaker
        lay = layout_of(pos.state())
        shown = Counter(t for _, t in all_windows(lay))
        assert pos.outcome().scores == tuple(shown[t] for t in tiles[:3])


def test_knownads_draw_on_equal_top_scores(nonads):
    stats = nonads.playout(300, seed=2, variant="knownads")
    assert stats.unfinished == 0 and stats.draws > 0 and sum(stats.wins) + stats.draws == 300


@pytest.mark.parametrize("players", [2, 3, 4])
def test_knownads_view_hides_other_targets(nonads, players):
    pos = nonads.start(options={"players": players}, variant="knownads", seed=players)
    for _ in range(5):
        pos.play(pos.notations()[0])
    targets = pos.state()["targets"]
    full = pos.scene()
    for p in range(1, players + 1):
        view = pos.view(p)
        assert view["targets"] == [t if q == p else 0 for q, t in enumerate(targets, start=1)]
        assert set(view["deck"]) <= {0}
        assert len(view["deck"]) == len(pos.state()["deck"])
        text = json.dumps(pos.scene(player=p))
        for q, t in enumerate(targets, start=1):
            assert (f'"#{t}"' in text) == (q == p)
            assert f'"#{t}"' in json.dumps(full)
        # The hidden target's picture is absent: the small target/hand tiles drawn are ours.
        mini = count_mini_black(pos.scene(player=p))
        assert mini == count_mini_black(full) - 4 * (players - 1)
        assert "?" in text


@pytest.mark.parametrize("players", [2, 4])
def test_a_spectator_sees_no_target(nonads, players):
    pos = nonads.start(options={"players": players}, variant="knownads", seed=players)
    for _ in range(3):
        pos.play(pos.notations()[0])
    view = pos.view(nomv.game.SPECTATOR)
    assert view["targets"] == [0] * players and set(view["deck"]) <= {0}
    text = json.dumps(pos.scene(player=nomv.game.SPECTATOR))
    for t in pos.state()["targets"]:
        assert f'"#{t}"' not in text
    with pytest.raises(ValueError, match="or 0, a spectator"):
        pos.view(players + 1)


def count_mini_black(scene):
    return sum(1 for it in scene["items"]
               if it.get("shape") == "rect" and it.get("fill") == "#1e1e1e" and abs(it["w"] - 0.6) < 1e-9)


def test_other_modes_hide_the_deck_order_only(nonads):
    pos = nonads.start(seed=9)
    view = pos.view(1)
    assert view["targets"] == pos.state()["targets"]
    assert view["deck"] == sorted(pos.state()["deck"])
    assert view["deck"] != pos.state()["deck"]


# -- playouts ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("mode", ["basic", "advanced", "knownads"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_playouts_finish(nonads, mode, players):
    stats = nonads.playout(150, seed=players, options={"players": players, "mode": mode})
    assert stats.unfinished == 0 and sum(stats.wins) + stats.draws == 150


@pytest.mark.parametrize("opts", [{"rotation": False}, {"slide_rule": "clear_line"},
                                  {"max_tiebreak_turns": 5}, {"players": 4, "slide_rule": "clear_line"}])
def test_random_playouts_with_options(nonads, opts):
    stats = nonads.playout(150, seed=7, options=opts)
    assert stats.unfinished == 0


def test_deck_exhaustion_happens_in_random_play(nonads):
    stats = nonads.playout(500, seed=5)
    assert stats.longest > 32


# -- options -----------------------------------------------------------------------------------------

@pytest.mark.parametrize("opts, message", [
    ({"targets": "1,2"}, "give hands and deck too"),
    ({"targets": "1,2", "hands": "3,4"}, "give deck too"),
    ({"deck": "5,6"}, "give targets and hands too"),
    ({"targets": "1,2,3", "hands": "4,5", "deck": ""}, "targets lists 3 tiles but there are 2 players"),
    ({"targets": "1,2", "hands": "4", "deck": ""}, "hands lists 1 tile but there are 2 players"),
    ({"targets": "1,2", "hands": "3,4", "deck": "5,1"}, "tile 1 is listed twice"),
    ({"targets": "1,2", "hands": "3,35", "deck": ""}, "\"35\" is not a tile number"),
    ({"targets": "1,x", "hands": "3,4", "deck": ""}, "\"x\" is not a tile number"),
    ({"targets": "1,2", "hands": "3,4", "deck": "0"}, "\"0\" is not a tile number"),
])
def test_bad_setups_are_refused(nonads, opts, message):
    with pytest.raises(nomv.OptionError, match=re.escape(message)):
        nonads.start(options=opts)


def test_bad_option_values(nonads):
    with pytest.raises(nomv.OptionError, match="option 'mode'"):
        nonads.start(options={"mode": "expert"})
    with pytest.raises(nomv.OptionError, match="option 'slide_rule'"):
        nonads.start(options={"slide_rule": "push"})
    with pytest.raises(nomv.OptionError, match="option 'players'"):
        nonads.start(options={"players": 5})
    with pytest.raises(nomv.OptionError, match="option 'max_tiebreak_turns'"):
        nonads.start(options={"max_tiebreak_turns": 0})


def test_three_player_explicit_setup_and_variants(nonads):
    pos = nonads.start(options=explicit([1, 2, 3], [4, 5, 6], [7, 8, 9]))
    s = pos.state()
    assert s["targets"] == [1, 2, 3] and s["hands"] == [4, 5, 6] and s["deck"] == [7, 8, 9]
    assert set(nonads.variants) == {"advanced", "knownads"}
    assert nonads.start(variant="knownads").state()["mode"] == "knownads"


# -- notation -------------------------------------------------------------------------------------

def test_notation_round_trip(nonads):
    rng = random.Random(12)
    for seed in range(8):
        tiles = rng.sample(range(1, 35), 9)
        opts = explicit(tiles[:2], tiles[2:4], tiles[4:], slide_rule=rng.choice(["open_side", "clear_line"]))
        pos = nonads.start(options=opts, seed=seed)
        while pos.outcome() is None and pos.ply < 30:
            texts = pos.notations()
            assert len(set(texts)) == len(texts)
            for m in pos.legal_moves:
                assert pos.parse(pos.notation(m)) == m
            pos.play(rng.choice(pos.legal_moves))


def test_parse_forms(nonads):
    pos = nonads.start(options=explicit([1, 2], [3, 31], [5, 6]))
    pos.play("0,0/0")
    # Tile #31 looks the same in every rotation: 1,0/2 names the move 1,0/0.
    assert pos.parse("1,0/2") == pos.parse("1,0/0") == pos.parse(" 1, 0 / 0") == pos.parse("#31@1,0/0")
    assert pos.parse("1,0") == pos.parse("1,0/0")
    with pytest.raises(nomv.IllegalMoveError, match="your hand tile is #31"):
        pos.parse("#5@1,0/0")
    with pytest.raises(nomv.IllegalMoveError):
        pos.parse("1,1/0")
    with pytest.raises(nomv.IllegalMoveError, match="you hold a tile"):
        pos.parse("0,0>1,0/0")
    pos.play("1,0/0")
    with pytest.raises(nomv.IllegalMoveError, match="give the rotation"):
        pos.parse("0,1")


def test_parse_tiebreak(nonads):
    pos = nonads.start(options=explicit([1, 2], [3, 4], []))
    pos.play("0,0/0")
    pos.play("1,0/1")
    assert pos.parse("0,0>1,1/3").steps == ("tile:0,0", "slot:1,1", "rot:3")
    with pytest.raises(nomv.IllegalMoveError, match="you hold no tile"):
        pos.parse("2,0/0")
    with pytest.raises(nomv.IllegalMoveError):
        pos.parse("1,0>1,1/0")           # the tile just placed


# -- perft ------------------------------------------------------------------------------------------

def test_perft_hand_derived(nonads):
    # Depth 1: the first tile at (0,0), rotation 0.  Depth 2: 4 slots x 4 rotations of #4.
    # Depth 3: two tiles in a line leave 6 slots, and #5 has 4 rotations: 16 x 24.  Neither
    # tile can make a target here (model check below), so no sequence ends early.
    opts = explicit([1, 2], [3, 4], [5, 6])
    pos = nonads.start(options=opts)
    assert [pos.perft(d) for d in (0, 1, 2, 3)] == [1, 1, 16, 384]
    model = model_start([1, 2], [3, 4], [5, 6])
    assert [model_perft(model, d) for d in (1, 2, 3)] == [1, 16, 384]


def test_perft_into_the_tiebreaker(nonads):
    # An empty deck: turn 3 is a tiebreaker move.  Player 1 must move the first tile (the other
    # was just placed) to one of the 3 free slots touching the second tile, in 4 rotations.
    opts = explicit([1, 2], [3, 4], [])
    pos = nonads.start(options=opts)
    assert [pos.perft(d) for d in (1, 2, 3)] == [1, 16, 16 * 3 * 4]
    model = model_start([1, 2], [3, 4], [])
    assert model_perft(model, 4) == pos.perft(4)
    # Tile #31 has one rotation: 16 x 3.
    pos = nonads.start(options=explicit([1, 2], [31, 4], []))
    assert pos.perft(3) == 48


def test_perft_three_players_and_wins_agree_with_model(nonads):
    rng = random.Random(21)
    for _ in range(3):
        tiles = rng.sample(range(1, 35), 8)
        opts = explicit(tiles[:3], tiles[3:6], tiles[6:])
        pos = nonads.start(options=opts)
        model = model_start(tiles[:3], tiles[3:6], tiles[6:])
        assert pos.perft(3) == model_perft(model, 3)


# -- random moves, scene, text -------------------------------------------------------------------

def test_random_move_is_legal_and_uniform(tmp_path, lua):
    source = Path(nomv.catalog.find("nonads").path).read_text(encoding="utf-8")
    checked = source.replace("random_move = fast_random_move,", """random_move = function(s, rng)
    local m = fast_random_move(s, rng)
    local want = table.concat(m, " ")
    for _, x in ipairs(all_moves(s)) do
      if table.concat(x, " ") == want then
        if s.hands[s.to_move] == 0 and s.tiebreak_turns == 0 then print(want .. " after " .. s.last) end
        return m
      end
    end
    error("random_move gave an illegal move: " .. want)
  end,""")
    assert checked != source
    path = tmp_path / "nonads_checked.lua"
    path.write_text(checked, encoding="utf-8")
    # Test-only heavy hook: each draw lists every move, so a whole playout game (the limit's
    # unit) costs up to about 0.3 s of CPU under Lua 5.4 where measured, too close to the
    # default limit (1.5 s) for a slower machine.
    game = nomv.Game.load(str(path), runtime=lua, limits=nomv.Limits(time=60))
    for opts in ({}, {"slide_rule": "clear_line"}, {"players": 3, "mode": "advanced"}):
        stats = game.playout(40, seed=3, options=opts)
        assert stats.unfinished == 0
    game.engine.printed()
    # The first tiebreaker move after an empty deck: after 0,0/0 and one of 4 placements there
    # are 3 moves, each should come up about 1/12 of the time (75 in 900 games).
    game.playout(900, seed=4, options=explicit([1, 2], [3, 4], [], rotation=False, max_tiebreak_turns=1))
    counts = Counter(game.engine.printed())
    assert len(counts) == 12 and sum(counts.values()) <= 900
    assert all(40 < c < 115 for c in counts.values()), counts


def test_scene_has_every_step_and_the_tiles(nonads):
    rng = random.Random(2)
    pos = nonads.start(options=explicit([1, 2], [3, 4], [5, 6, 7]))
    while pos.outcome() is None:
        scene = pos.scene()
        ids = {it["id"] for it in scene["items"] if "id" in it}
        for m in pos.legal_moves:
            assert set(m.steps) <= ids
        assert "to move" in localized(scene["status"])
        texts = [localized(it.get("text", "")) for it in scene["items"]]
        assert any(t.startswith("deck: ") for t in texts)
        cells = [it for it in scene["items"] if it.get("shape") == "rect" and it.get("w") == 1]
        assert len(cells) == 9 * len(pos.state()["slots"])
        pos.play(rng.choice(pos.legal_moves))
    assert "wins" in localized(pos.scene()["status"]) or "Draw" in localized(pos.scene()["status"])


def test_text_shows_layout_and_players(nonads):
    pos = nonads.start(options=explicit([1, 2], [3, 4], [5, 6]))
    assert "(no tile placed yet)" in pos.text()
    pos.play("0,0/0")
    pos.play("1,0/1")
    text = pos.text()
    assert "##. .##" in text and "Player 1: target #1 ###/#../..., hand #5" in text
    assert "Deck: 0 tiles" in text


def test_same_game_on_both_runtimes():
    a = nomv.Game.load("nonads", runtime="jit").playout(200, seed=9)
    b = nomv.Game.load("nonads", runtime="5.4").playout(200, seed=9)
    assert (a.wins, a.draws, a.plies) == (b.wins, b.draws, b.plies)
