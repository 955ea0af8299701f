"""One generic test of the script contract for every bundled game and variant: seeded random
games through the Python API, checking what every game must do."""
from __future__ import annotations

import json
import random

import pytest

import nomv
from conftest import bundled_games


def variants_of(name):
    game = nomv.Game.load(name)
    return [None] + game.variants


CASES = [(name, variant) for name in bundled_games() for variant in variants_of(name)]
MAX_PLIES = 2000


def random_game(game, variant, seed, check_purity=True):
    """Plays one random game; returns the notation of its moves and the final state."""
    pos = game.start(variant=variant, seed=seed)
    rng = random.Random(seed)
    while pos.outcome() is None:
        assert pos.ply < MAX_PLIES, "the game did not end"
        moves = pos.legal_moves
        assert moves, "no legal move while the game runs"
        assert all(m.steps and all(isinstance(s, str) and s for s in m.steps) for m in moves)
        assert len(set(moves)) == len(moves), "a move is listed twice"
        assert pos.to_move is not None and 1 <= pos.to_move <= pos.players
        before = json.dumps(pos.state(), sort_keys=True) if check_purity else None
        move = rng.choice(moves)
        pos.play(move)
        if check_purity:
            old = pos.state(ply=pos.ply - 1)        # the state play was given, dumped afresh
            assert json.dumps(old, sort_keys=True) == before, f"play changed its input state (move {move})"
    assert pos.legal_moves == []
    assert pos.to_move is None
    return pos.history_notation, pos.state(), pos.outcome()


@pytest.mark.parametrize("name, variant", CASES)
def test_random_games_follow_the_contract(name, variant, lua):
    game = nomv.Game.load(name, runtime=lua)
    for seed in range(3):
        random_game(game, variant, seed)


@pytest.mark.parametrize("name, variant", CASES)
def test_same_seed_same_game_on_both_runtimes(name, variant):
    results = []
    for lua in ("jit", "5.4"):
        game = nomv.Game.load(name, runtime=lua)
        results.append(random_game(game, variant, seed=7, check_purity=False))
        stats = game.playout(20, seed=3, variant=variant)
        results.append((stats.plies, stats.longest, stats.wins, stats.draws, stats.lost, stats.unfinished))
    assert results[0] == results[2]
    assert results[1] == results[3]


@pytest.mark.parametrize("name, variant", CASES)
def test_replaying_a_record_gives_the_same_game(name, variant, tmp_path):
    game = nomv.Game.load(name)
    moves, state, outcome = random_game(game, variant, seed=11, check_purity=False)
    pos = game.start(variant=variant, seed=11)
    for text in moves:
        pos.play(text)
    path = tmp_path / "game.json"
    nomv.Record.from_position(pos).save(path)
    again = nomv.Record.load(path).replay()
    assert again.state() == state and again.outcome() == outcome


@pytest.mark.parametrize("name", bundled_games())
def test_playouts_inside_lua_end(name, lua):
    game = nomv.Game.load(name, runtime=lua)
    for variant in [None] + game.variants:
        stats = game.playout(10, seed=1, variant=variant)
        assert stats.unfinished == 0 and sum(stats.wins) + stats.draws + stats.lost == 10


@pytest.mark.parametrize("name", bundled_games())
def test_every_legal_step_names_a_scene_item(name):
    game = nomv.Game.load(name)
    pos = game.start(seed=5)
    rng = random.Random(5)
    for _ in range(4):
        if pos.outcome() is not None:
            break
        ids = {item.get("id") for item in pos.scene()["items"]}
        for move in pos.legal_moves:
            missing = [s for s in move.steps if s not in ids]
            assert not missing, f"{move} has steps the scene cannot show: {missing}"
        pos.play(rng.choice(pos.legal_moves))
