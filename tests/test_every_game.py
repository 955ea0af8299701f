"""One generic test that runs every bundled game (as OpenSpiel's does): for every script in
games/*.lua, each variant it declares and each number of players it allows, on both runtimes,
seeded random games through the public API check that

1. the game's random_move picks only legal moves, and about uniformly from one position;
2. every legal move's notation parses back to that move;
3. a record of the game, saved and read back, replays to the same state and outcome;
4. outcome() is None while the game runs; once it is over there are no legal moves and the
   outcome ranks every player.
"""
from __future__ import annotations

import random
from collections import Counter

import pytest

import nomv
from conftest import bundled_games
from nomv.game import seed_words

#: Random games per case, and the ply cap of each.  Games whose positions list hundreds of moves
#: (every notation is parsed back at every ply) play fewer.
GAMES = 2
SLOW = {"3verse": 1, "nibble": 1, "nipple": 1, "hex": 1, "amazons": 1, "nonads": 1}
MAX_PLIES = 300


def cases() -> list:
    out = []
    for name in bundled_games():
        game = nomv.Game.load(name, isolate=False)
        spec = game.players
        sets = [(None, None)] + [(v, None) for v in game.variants]
        sets += [(None, {"players": n}) for n in range(spec.min, spec.max + 1) if n != spec.default]
        for variant, options in sets:
            label = variant or (",".join(f"{k}={v}" for k, v in options.items()) if options else "default")
            out.append(pytest.param(name, variant, options, id=f"{name}[{label}]"))
    return out


CASES = cases()


def random_moves(pos, n, seed):
    """n draws of the game's random_move from the position, or None without the hook (the
    documented way for tools: the position's engine through with_state)."""
    raw = pos.with_state(lambda engine, state: engine.random_moves(state, seed_words(seed), n))
    return None if raw is None else [nomv.Move.from_json(m) for m in raw]


def check_uniform(pos, seed):
    """From one position: 30 draws per legal move reach every move, none over 3x the mean."""
    legal = pos.legal_moves
    n = 30 * len(legal)
    counts = Counter(random_moves(pos, n, seed))
    assert set(counts) <= set(legal), f"random_move drew illegal moves: {set(counts) - set(legal)}"
    missing = [str(m) for m in legal if counts[m] == 0]
    assert not missing, f"random_move never drew {missing} in {n} draws (ply {pos.ply})"
    mean = n / len(legal)
    over = {str(m): c for m, c in counts.items() if c > 3 * mean}
    assert not over, f"random_move drew these over 3x the mean {mean:.0f}: {over} (ply {pos.ply})"


def check_notations(pos):
    legal, texts = pos.legal_moves, pos.notations()
    assert len(texts) == len(legal)
    assert len(set(texts)) == len(texts), "two legal moves share a notation"
    for i in {0, len(legal) // 2, len(legal) - 1}:   # (notation(move) looks the move up: a few)
        assert pos.notation(legal[i]) == texts[i]
    for move, text in zip(legal, texts):
        back = pos.parse(text)
        assert back == move and back.steps == move.steps, f"{text!r} parses to {back}, not {move}"


def check_over(pos):
    outcome = pos.outcome()
    assert pos.legal_moves == [] and pos.notations() == [] and pos.to_move is None
    assert len(outcome.ranks) == pos.players and all(r >= 1 for r in outcome.ranks)
    assert outcome.scores is None or len(outcome.scores) == pos.players
    if outcome.winner is not None:
        assert 1 <= outcome.winner <= pos.players
        assert outcome.ranks[outcome.winner - 1] == 1 and outcome.ranks.count(1) == 1
    with pytest.raises(nomv.GameOverError):
        pos.play("anything")


def play_one(game, variant, options, seed, check_spread):
    """A random game drawn by the game's random_move (or from the legal moves without one);
    with check_spread, random_move's spread is checked at the first position with 2 to 20
    moves.  Returns the position and whether that check is still to do."""
    pos = game.start(options=options, variant=variant, seed=seed)
    rng = random.Random(seed)
    while pos.outcome() is None and pos.ply < MAX_PLIES:
        legal = pos.legal_moves
        assert legal and pos.to_move is not None and 1 <= pos.to_move <= pos.players
        check_notations(pos)
        drawn = random_moves(pos, 1, seed * 1000 + pos.ply)
        if drawn is None:
            move = rng.choice(legal)
        else:
            move = drawn[0]
            assert move in legal, f"random_move drew {move}, not a legal move at ply {pos.ply}"
            if check_spread and 2 <= len(legal) <= 20:
                check_uniform(pos, seed)
                check_spread = False
        pos.play(move)
    if pos.outcome() is not None:
        check_over(pos)
    return pos, check_spread


def check_record(game, pos, tmp_path):
    record = nomv.Record.from_position(pos)
    path = tmp_path / f"game{pos.seed}.json"
    record.save(path)
    for again in (nomv.Record.from_text(record.to_text()), nomv.Record.load(path)):
        replayed = again.replay(game)
        assert replayed.history == pos.history and replayed.history_notation == pos.history_notation
        assert replayed.state() == pos.state() and replayed.text() == pos.text()
        assert replayed.outcome() == pos.outcome()
        assert replayed.legal_moves == pos.legal_moves


@pytest.mark.parametrize("name, variant, options", CASES)
def test_every_game(name, variant, options, lua, tmp_path):
    game = nomv.Game.load(name, runtime=lua)
    spread_to_check = "random_move" in game.hooks or "steps" in game.hooks
    seed = 0
    while seed < SLOW.get(name, GAMES) or spread_to_check:
        seed += 1
        assert seed <= 10, "no random game reached a position with 2 to 20 legal moves"
        pos, spread_to_check = play_one(game, variant, options, seed, spread_to_check)
        check_record(game, pos, tmp_path)
