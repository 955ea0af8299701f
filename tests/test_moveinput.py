"""Clicks to moves, without pygame: narrowing, highlighting, confirmation, any_order, take-back."""
from __future__ import annotations

import random

import pytest

import nomv
from nomv.game import Move
from nomv.moveinput import BACK, CONFIRM, ILLEGAL, PLAY, RESTART, SELECT, MoveInput

LAYOUT = "b/bb/bgr/grgg/rbgrr"


@pytest.fixture(autouse=True)
def _english():
    import nomv.moveinput as mi
    mi.set_translator(lambda text: text)


def M(*steps, any_order=False, label=None):
    return Move(tuple(steps), any_order, label)


def enter(inp: MoveInput, *clicks):
    results = [inp.click(c) for c in clicks]
    return results[-1]


def test_the_model_does_not_import_pygame():
    import importlib
    import nomv.moveinput as mi
    importlib.reload(mi)
    assert "pygame" not in mi.__dict__
    source = open(mi.__file__).read()
    assert "import pygame" not in source


def test_first_steps_and_narrowing():
    inp = MoveInput([M("a", "b"), M("a", "c"), M("d", "e")])
    assert inp.next_steps == {"a", "d"} and inp.complete is None and not inp.needs_confirm
    r = inp.click("a")
    assert r.kind == SELECT and inp.clicked == ["a"] and inp.next_steps == {"b", "c"}
    assert inp.candidates == [0, 1]
    r = inp.click("c")
    assert r.kind == PLAY and r.move == 1 and r.played


def test_a_move_plays_itself_when_only_one_matches():
    inp = MoveInput([M("a", "b", "c"), M("d", "e")])
    r = inp.click("d")
    assert r.kind == PLAY and r.move == 1
    inp = MoveInput([M("a", "b", "c"), M("d", "e")], auto_complete=False)
    assert inp.click("d").kind == SELECT
    assert inp.click("e").kind == PLAY


def test_no_move_is_played_without_a_click():
    inp = MoveInput([M("a", "b")])
    assert inp.complete is None and inp.confirm() is None and inp.next_steps == {"a"}


def test_hovering_a_step_that_completes_a_move_that_could_go_on():
    inp = MoveInput([M("a"), M("a", "b")])
    assert inp.describe("a") == "select a: a or longer moves"


def test_confirmation_by_clicking_the_last_step_again():
    inp = MoveInput([M("a"), M("a", "b")])
    r = inp.click("a")
    assert r.kind == CONFIRM and inp.needs_confirm and inp.complete == 0
    assert "again" in r.message
    assert inp.describe("a") == "click to play a"
    r = inp.click("a")
    assert r.kind == PLAY and r.move == 0


def test_confirmation_by_enter_or_extension():
    inp = MoveInput([M("a"), M("a", "b")])
    inp.click("a")
    assert inp.confirm() == 0
    r = inp.click("b")
    assert r.kind == PLAY and r.move == 1


def test_illegal_click_does_nothing_and_says_why():
    inp = MoveInput([M("a", "b"), M("c", "d")])
    r = inp.click("z")
    assert r.kind == ILLEGAL and inp.clicked == [] and "z is not a legal next step" in r.message
    inp.click("a")
    r = inp.click("d")
    assert r.kind == ILLEGAL and inp.clicked == ["a"] and "not a legal next step after a" in r.message
    assert inp.describe("d") == r.message


def test_clicking_another_first_step_starts_over():
    inp = MoveInput([M("a", "b"), M("a", "c"), M("d", "e"), M("d", "f")])
    inp.click("a")
    r = inp.click("d")
    assert r.kind == RESTART and inp.clicked == ["d"] and inp.next_steps == {"e", "f"}


def test_take_back_steps():
    inp = MoveInput([M("a", "b", "c"), M("a", "b", "d")])
    inp.click("a")
    inp.click("b")
    assert inp.back() and inp.clicked == ["a"] and inp.next_steps == {"b"}
    r = inp.click("a")  # the last step again, not a complete move: takes it back
    assert r.kind == BACK and inp.clicked == []
    assert not inp.back()


def test_any_order_steps_in_any_order_and_deselect():
    moves = [M("a", any_order=True), M("a", "b", any_order=True), M("b", any_order=True),
             M("a", "b", "c", any_order=True)]
    inp = MoveInput(moves)
    r = inp.click("c")  # only a-b-c holds c: it plays itself
    assert r.kind == PLAY and r.move == 3
    inp.reset()
    r = inp.click("b")
    assert r.kind == CONFIRM and inp.complete == 2
    r = inp.click("a")
    assert r.kind == CONFIRM and inp.complete == 1
    # clicking an earlier step deselects it
    assert inp.describe("b") == "take back b"
    r = inp.click("b")
    assert r.kind == BACK and inp.clicked == ["a"]


def test_labels_show_in_messages():
    inp = MoveInput([M("g5", label="stone only"), M("g5", "h5")])
    r = inp.click("g5")
    assert r.kind == CONFIRM and "stone only" in r.message


def nibble_multi_take():
    """A Nibble position where three blocks can be taken together (found, not hard-coded, so that
    the test does not depend on the layout generator): (record of moves, seed, the 3-block move)."""
    import random as _random
    game = nomv.Game.load("nibble")
    for seed in range(30):
        pos = game.start(seed=seed)
        rng = _random.Random(seed)
        for _ in range(40):
            if pos.is_over():
                break
            big = [m for m in pos.legal_moves if len(m.steps) >= 3]
            if big:
                return list(pos.history_notation), seed, big[0]
            pos.play(rng.choice(pos.legal_moves))
    raise AssertionError("no Nibble position with a three-block take found")


# -- the real games ---------------------------------------------------------------------------

def _input(pos):
    return MoveInput(pos.legal_moves, pos.notations())


def test_3verse_four_clicks():
    pos = nomv.Game.load("3verse").start(seed=1)
    inp = _input(pos)
    kinds = [inp.click(s).kind for s in ("a1", "b1", "b2")]
    assert kinds == [SELECT, SELECT, SELECT]
    assert "c2" in inp.next_steps and len(inp.next_steps) > 1
    r = inp.click("c2")
    assert r.kind == PLAY and inp.moves[r.move] == pos.parse("a1-b1-b2-c2")


def test_trinim_line_by_its_ends_in_reverse_order_and_single_cell_with_confirmation():
    pos = nomv.Game.load("trinim").start(options={"layout": LAYOUT})
    inp = _input(pos)
    r = inp.click("D2")  # the end nearer the base first
    assert r.kind == CONFIRM  # D2 alone is a move too
    assert "D4" in inp.next_steps
    r = inp.click("D4")
    assert r.kind == PLAY and inp.moves[r.move] == pos.parse("D4-D2")
    inp = _input(pos)
    assert inp.click("C3").kind == CONFIRM
    r = inp.click("C3")
    assert r.kind == PLAY and inp.moves[r.move] == pos.parse("C3")
    inp = _input(pos)
    inp.click("C3")
    assert inp.confirm() is not None and inp.moves[inp.confirm()] == pos.parse("C3")


def test_nipple_two_clicks():
    pos = nomv.Game.load("nipple").start(seed=1)
    pos.play(pos.legal_moves[0])
    pos.play(pos.legal_moves[0])
    inp = _input(pos)
    first = pos.legal_moves[0].steps
    assert len(first) == 2
    assert inp.click(first[0]).kind == SELECT
    r = inp.click(first[1])
    assert r.kind == PLAY and inp.moves[r.move] == pos.legal_moves[0]


def test_nonads_slot_and_rotation():
    pos = nomv.Game.load("nonads").start(seed=1)
    pos.play(pos.legal_moves[0])
    slots = {}
    for m in pos.legal_moves:
        slots.setdefault(m.steps[0], []).append(m.steps[1])
    slot, rotations = max(slots.items(), key=lambda kv: len(kv[1]))
    inp = _input(pos)
    assert inp.click(slot).kind == SELECT
    assert inp.next_steps == set(rotations)
    r = inp.click(rotations[-1])
    assert r.kind == PLAY and inp.moves[r.move] == Move((slot, rotations[-1]))


def _nibble_with_multi_take():
    moves, seed, take = nibble_multi_take()
    pos = nomv.Game.load("nibble").start(seed=seed)
    for text in moves:
        pos.play(text)
    return pos, take


def test_nibble_multi_block_take():
    pos, take = _nibble_with_multi_take()
    a, b, c = take.steps
    inp = _input(pos)
    assert inp.click(c).kind in (CONFIRM, SELECT)
    assert inp.click(a).kind in (CONFIRM, SELECT)   # any order: a after c
    r = inp.click(b)
    assert r.kind == PLAY and inp.moves[r.move] == take


def test_nibble_confirm_a_smaller_take():
    pos, take = _nibble_with_multi_take()
    a, b, c = take.steps
    if Move((a, b), any_order=True) not in pos.legal_moves:
        pytest.skip("this layout has no two-block take inside the three-block one")
    inp = _input(pos)
    inp.click(b)
    assert inp.click(a).kind == CONFIRM
    r = inp.click(a)
    assert r.kind == PLAY and inp.moves[r.move] == Move((a, b), any_order=True)


@pytest.mark.parametrize("name", ["trinim", "3verse", "nipple", "nonads", "nibble"])
def test_every_legal_move_can_be_entered_by_its_steps(name):
    """Entering any move's steps in order (confirming where asked) gives exactly that move."""
    rng = random.Random(5)
    pos = nomv.Game.load(name).start(seed=3)
    for _ in range(6):
        if pos.is_over():
            break
        moves = pos.legal_moves
        for target in rng.sample(moves, min(len(moves), 40)):
            inp = _input(pos)
            steps = list(target.steps)
            if target.any_order:
                rng.shuffle(steps)
            result = None
            for s in steps:
                result = inp.click(s)
                assert result.kind != ILLEGAL, (target, s)
                if result.kind == PLAY:
                    break
            if result.kind != PLAY:
                assert inp.needs_confirm
                result = inp.click(steps[-1])
            assert result.kind == PLAY and inp.moves[result.move] == target
        pos.play(rng.choice(moves))
