"""The engine pool: a few worker processes serve the positions of many games; a position whose
process was stopped is replayed into a live one, and no other game notices."""
from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest

import nomv
from nomv.engine import Call, Engine, LuaEngine
from nomv.pool import EnginePool
from nomv.worker import WorkerEngine

TICTACTOE = nomv.catalog.find("tictactoe").path.read_text(encoding="utf-8")
TRINIM = nomv.catalog.find("trinim")
#: Tic-tac-toe whose variants make one hook hang (tests/scripts/tictactoe_faults.lua).
FAULTS = Path(__file__).parent / "scripts" / "tictactoe_faults.lua"


@pytest.fixture
def pool():
    with EnginePool(processes=2, limits=nomv.Limits(time=0.5)) as p:
        yield p


def test_many_positions_of_several_games_share_a_few_processes(pool):
    tictactoe = nomv.Game(TICTACTOE, "tictactoe.lua", pool=pool)
    trinim = nomv.Game.load("trinim", pool=pool)
    positions = [g.start(seed=s) for s in range(6) for g in (tictactoe, trinim)]
    for i, pos in enumerate(positions):
        pos.play(pos.legal_moves[i % len(pos.legal_moves)])
    assert len(pool.running()) == 2          # twelve positions, two games, two processes
    # every position kept its own state
    for pos in positions:
        assert pos.ply == 1 and pos.outcome() is None
    assert {positions[0].to_move, positions[1].to_move} == {2}


def test_a_killed_process_loses_no_game_and_the_others_go_on(pool):
    game = nomv.Game.load("trinim", pool=pool)
    a, b = game.start(seed=1), game.start(seed=2)     # one on each process
    for pos in (a, b):
        pos.play(pos.legal_moves[0])
        pos.play(pos.legal_moves[-1])
    before = (a.state(), b.state())
    victim = a.with_state(lambda engine, state: engine.process_id)
    os.kill(victim, signal.SIGKILL)
    # a's process is gone: its next request fails once or replays; either way the game is whole
    try:
        a.play(a.legal_moves[0])
    except nomv.ScriptError as exc:
        assert "killed by signal 9" in exc.message
        a.play(a.legal_moves[0])
    a.undo()
    assert (a.state(), b.state()) == before and a.ply == 2 and b.ply == 2
    assert b.with_state(lambda engine, state: engine.process_id) != victim


def test_a_hanging_script_stops_only_its_own_request(pool):
    bad = nomv.Game.load(FAULTS, pool=pool)          # its variant text_hang: text() never returns
    good = nomv.Game(TICTACTOE, "tictactoe.lua", pool=pool)
    others = [good.start(seed=s) for s in range(4)]
    for pos in others:
        pos.play(pos.legal_moves[0])
    victim = bad.start(variant="text_hang", seed=1)
    with pytest.raises(nomv.LimitError) as err:
        victim.text()
    assert err.value.hook == "text"
    # the positions on the stopped process are replayed; all go on
    for pos in others + [victim]:
        pos.play(pos.legal_moves[0])
        assert pos.ply == (2 if pos is not victim else 1)


def test_replay_gives_every_state_in_one_round_trip(pool):
    game = nomv.Game.load("trinim", pool=pool)
    pos = game.start(seed=3)
    for _ in range(4):
        pos.play(pos.legal_moves[len(pos.legal_moves) // 2])
    engine = pos.with_state(lambda engine, state: engine)
    states = engine.replay(pos.options, nomv.game.seed_words(3), [m.steps for m in pos.history])
    assert len(states) == 5 and engine.dump(states[-1]) == pos.with_state(lambda e, s: e.dump(s))


def test_a_server_catches_a_position_up_in_one_request(pool):
    game = nomv.Game.load("trinim", pool=pool)
    played = game.start(seed=4)
    for _ in range(5):
        played.play(played.legal_moves[-1])
    behind = game.start(seed=4)
    # any_order moves named in another order than the script lists them still match
    steps = [list(reversed(m.steps)) if m.any_order else list(m.steps) for m in played.history]
    assert behind.play_moves(steps) == played.history
    assert behind.state() == played.state() and behind.history_notation == played.history_notation
    # an illegal move in the middle: the moves before it stay played, the error names it
    again = game.start(seed=4)
    with pytest.raises(nomv.IllegalMoveError, match="move 3 of 3:.*not a legal move here"):
        again.play_moves(steps[:2] + [["A1", "Z9"]])
    assert again.ply == 2 and again.history == played.history[:2]


def test_the_moves_of_a_finished_game_are_not_listed_for_nothing():
    engine = LuaEngine(TICTACTOE, "t.lua")
    state = engine.setup({"players": 2}, nomv.game.seed_words(1))
    for index in (0, 0, 0, 0, 0, 0, 0):      # x: a1 a3 ... a column: the game is over
        state = engine.play(state, index)
    calls = [Call("result", (state, 2)), Call("moves", (state,), True), Call("notations", (state,), True)]
    result, moves, notations = engine.batch(calls)
    assert result.status == "ok" and result.value is not None
    assert moves.status == notations.status == "skipped"


def test_both_engines_implement_the_one_interface():
    assert isinstance(LuaEngine(TICTACTOE, "t.lua"), Engine)
    with EnginePool(1) as pool:
        engine = pool.engine(TICTACTOE, "t.lua")
        assert isinstance(engine, WorkerEngine) and isinstance(engine, Engine)
        # one engine per script and process: positions placed there share it
        assert pool.engine(TICTACTOE, "t.lua") is engine


def test_a_desktop_game_has_a_process_of_its_own():
    a, b = nomv.Game(TICTACTOE, "t.lua"), nomv.Game(TICTACTOE, "t.lua")
    try:
        assert a.engine.process_id != b.engine.process_id
        a.close()
        assert a.engine.process_id is None and b.start(seed=1).perft(1) == 9
    finally:
        a.close()
        b.close()


def test_a_pool_needs_a_process():
    with pytest.raises(ValueError, match="at least one process"):
        EnginePool(0)
    with pytest.raises(ValueError, match="isolate=False contradicts pool"):
        nomv.Game(TICTACTOE, "t.lua", isolate=False, pool=EnginePool(1))


def test_earlier_positions_are_drawn_from_the_states_kept(pool):
    game = nomv.Game.load("trinim", pool=pool)
    pos = game.start(seed=5)
    scenes = [pos.scene()]
    for _ in range(3):
        pos.play(pos.legal_moves[0])
        scenes.append(pos.scene())
    assert [pos.scene(ply=k) for k in (0, 3)] == [scenes[0], scenes[3]]
    assert pos.view(1, ply=0) == game.start(seed=5).state()
    with pytest.raises(ValueError, match="ply must be from 0 to 3"):
        pos.scene(ply=4)
    # after the worker was stopped, earlier states come back by replaying the game
    os.kill(pos.with_state(lambda engine, state: engine.process_id), signal.SIGKILL)
    with pytest.raises(nomv.ScriptError, match="killed by signal 9"):   # the request that finds it dead
        pos.scene(ply=1)
    assert pos.scene(ply=1) == scenes[1] and pos.scene(ply=2) == scenes[2]


def test_a_position_is_held_by_the_process_it_names(pool):
    game = nomv.Game(TICTACTOE, "tictactoe.lua", pool=pool)
    workers = {game.start(seed=s, process=1).with_state(lambda e, s: e.worker) for s in range(3)}
    assert workers == {pool._workers[1]}


def test_what_a_look_needs_is_asked_in_one_request(pool, monkeypatch):
    from nomv.worker import WorkerProcess
    nonads = nomv.Game.load("nonads", pool=pool)
    pos, same = (nonads.start(variant="knownads", seed=5) for _ in range(2))
    for p in (pos, same):
        p.play(p.legal_moves[0])
    crossings = []
    for name in ("call", "batch"):
        real = getattr(WorkerProcess, name)
        monkeypatch.setattr(WorkerProcess, name, lambda self, *a, real=real, name=name: crossings.append(name) or real(self, *a))
    pos.prefetch([1, 2, 0, None])
    assert crossings == ["batch"]
    answers = (pos.outcome(), pos.to_move, pos.legal_moves, pos.notations(), pos.state(), pos.scene(),
               [(pos.view(v), pos.scene(v)) for v in (1, 2, 0)])
    assert crossings == ["batch"]             # all of it was fetched
    monkeypatch.undo()
    assert answers == (same.outcome(), same.to_move, same.legal_moves, same.notations(), same.state(),
                       same.scene(), [(same.view(v), same.scene(v)) for v in (1, 2, 0)])


def test_a_hook_that_fails_in_a_looks_request_is_reported_when_asked(pool):
    game = nomv.Game.load(FAULTS, pool=pool)
    pos = game.start(variant="to_move_error", seed=1)
    pos.prefetch([None])
    with pytest.raises(nomv.ScriptError):
        pos.to_move
    assert pos.scene() == game.start(seed=1).scene()
