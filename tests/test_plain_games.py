"""Othello and the Game of the Amazons: the two scripts written plainly, as the docs teach, that
measure how fast a script without tricks plays (issue 19).  Their rules are OpenSpiel's: perft,
constructed positions, and the same legal moves as OpenSpiel's games along random games."""
from __future__ import annotations

import random

import pytest

import nomv


@pytest.fixture
def othello(lua):
    return nomv.Game.load("othello", runtime=lua)


@pytest.fixture
def amazons(lua):
    return nomv.Game.load("amazons", runtime=lua)


# -- Othello ------------------------------------------------------------------------------------

def test_othello_perft(othello):
    pos = othello.start()
    assert [pos.perft(d) for d in range(1, 6)] == [4, 12, 56, 244, 1396]
    assert sorted(pos.notations()) == ["c4", "d3", "e6", "f5"]     # OpenSpiel's first moves


@pytest.mark.slow
def test_othello_perft_deep():
    pos = nomv.Game.load("othello", isolate=False).start()
    assert [pos.perft(d) for d in (6, 7, 8)] == [8200, 55092, 390216]


def cells(pos, who):
    text = pos.state()["board"]
    return sorted(f"{'abcdefgh'[i % 8]}{i // 8 + 1}" for i, v in enumerate(text) if v == who)


def test_othello_flips_every_closed_line_at_once(othello):
    pos = othello.start()
    for m in "d3 c3 c4".split():        # Black d3 (flips d4); White c3 (d4); Black c4 (d4)
        pos.play(m)
    assert cells(pos, 1) == ["c4", "d3", "d4", "d5", "e4"] and cells(pos, 2) == ["c3", "e5"]
    pos.play("e3")                      # White closes e3-d3-c3 (west) and e3-e4-e5 (north)
    assert cells(pos, 2) == ["c3", "d3", "e3", "e4", "e5"] and cells(pos, 1) == ["c4", "d4", "d5"]


def test_othello_pass_only_without_a_placement_and_the_end(othello):
    # A game played to the end by random moves passes only when a player cannot place, and
    # ends when neither can: the winner has more discs.
    rng = random.Random(3)
    passes = 0
    for seed in range(3):
        pos = othello.start(seed=seed)
        while pos.outcome() is None:
            notations = pos.notations()
            assert ("pass" in notations) == (notations == ["pass"])
            if notations == ["pass"]:
                passes += 1
                mover = pos.to_move
                pos.play("pass")
                assert pos.to_move == 3 - mover and pos.notations() != ["pass"]
                continue
            pos.play(rng.choice(pos.legal_moves))
        outcome = pos.outcome()
        black, white = len(cells(pos, 1)), len(cells(pos, 2))
        assert outcome.scores == (black, white)
        assert outcome.winner == (1 if black > white else 2 if white > black else None)
    assert passes >= 1                  # (these games pass twice)


def test_othello_ends_when_a_colour_is_wiped_out(othello):
    # White's fastest loss: after these moves White has no disc left, and nobody can place.
    pos = othello.start()
    for m in "e6 f4 e3 f6 g5 d6 e7 f5 c5".split():
        pos.play(m)
    assert pos.outcome() is not None and pos.outcome().winner == 1   # White was wiped out
    assert cells(pos, 2) == []


# -- Amazons ------------------------------------------------------------------------------------

def test_amazons_first_moves(amazons):
    pos = amazons.start()
    assert pos.perft(1) == 2176 and pos.to_move == 1
    assert all(len(m.steps) == 3 for m in pos.legal_moves)


@pytest.mark.slow
def test_amazons_perft_two():
    assert nomv.Game.load("amazons", isolate=False).start().perft(2) == 4_307_152


def test_amazons_arrows_block_and_the_cell_left_is_free(amazons):
    pos = amazons.start()
    pos.play("d1-d7-g7")               # White: d1 up to d7, arrow to g7
    assert pos.to_move == 2
    steps = {m.steps for m in pos.legal_moves}
    assert ("g10", "g8", "g9") in steps and not any(m[1] in ("g7", "g6") and m[0] == "g10" for m in steps)
    # an arrow may fly back over the cell its amazon left
    assert ("a7", "a8", "a7") in steps and ("a7", "b7", "a7") in steps


def test_amazons_who_cannot_move_loses(amazons):
    rng = random.Random(5)
    pos = amazons.start(seed=1)
    while pos.outcome() is None:
        pos.play(rng.choice(pos.legal_moves))
    loser = 3 - pos.outcome().winner
    assert pos.to_move is None and pos.ply % 2 == (1 if loser == 2 else 0)


# -- the same legal moves as OpenSpiel's games --------------------------------------------------

def _openspiel_othello_moves(state):
    return sorted(state.action_to_string(a) for a in state.legal_actions())


def test_othello_moves_are_openspiels():
    pyspiel = pytest.importorskip("pyspiel")
    rng = random.Random(11)
    game = nomv.Game.load("othello", isolate=False)
    for seed in range(3):
        theirs = pyspiel.load_game("othello").new_initial_state()
        ours = game.start(seed=seed)
        while not theirs.is_terminal():
            assert sorted(ours.notations()) == _openspiel_othello_moves(theirs)
            action = rng.choice(theirs.legal_actions())
            ours.play(theirs.action_to_string(action))
            theirs.apply_action(action)
        assert ours.outcome() is not None


def _openspiel_cell(text):
    """OpenSpiel's "(row, column)", rows from the top, to our id (rank 1 at the bottom)."""
    row, col = (int(x) for x in text[text.index("(") + 1:text.index(")")].split(","))
    return f"{'abcdefghij'[col - 1]}{11 - row}"


def _openspiel_amazons_moves(state):
    moves = set()
    for a in state.legal_actions():
        s1 = state.child(a)
        for b in s1.legal_actions():
            s2 = s1.child(b)
            for c in s2.legal_actions():
                moves.add(tuple(_openspiel_cell(state.action_to_string(x) if i == 0 else
                                                (s1 if i == 1 else s2).action_to_string(x))
                                for i, x in enumerate((a, b, c))))
    return moves


def test_amazons_moves_are_openspiels():
    pyspiel = pytest.importorskip("pyspiel")
    rng = random.Random(12)
    game = nomv.Game.load("amazons", isolate=False)
    theirs = pyspiel.load_game("amazons").new_initial_state()
    ours = game.start(seed=1)
    ply = 0
    while not theirs.is_terminal():
        if ply % 15 == 0 or ply > 60:
            assert {m.steps for m in ours.legal_moves} == _openspiel_amazons_moves(theirs)
        steps = []
        for _ in range(3):
            action = rng.choice(theirs.legal_actions())
            steps.append(_openspiel_cell(theirs.action_to_string(action)))
            theirs.apply_action(action)
        ours.play(steps)
        ply += 1
    assert ours.outcome() is not None and ours.outcome().winner == 3 - (theirs.returns().index(-1) + 1)
