"""The worker process: a script that runs over its time limit is stopped under LuaJIT too, the
game in progress survives, and long legal work is not stopped."""
from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest

import nomv
from nomv.limits import Limits
from nomv.errors import LimitError, ScriptError
from nomv.pool import EnginePool


def _wait_until_dead(pid: int) -> None:
    """Until the killed process is gone or a zombie (its parent has not reaped it yet)."""
    import time
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            with open(f"/proc/{pid}/stat") as f:
                if f.read().rsplit(")", 1)[1].split()[0] == "Z":
                    return
        except OSError:
            return
        time.sleep(0.01)


def _wait_until_busy(pid: int, seconds: float = 0.1, timeout: float = 30) -> None:
    """Until the process has used ``seconds`` more of CPU time: a worker inside a long loop
    (not a fixed sleep that assumes a fast machine)."""
    import time
    if not os.path.isdir("/proc"):
        time.sleep(0.3)
        return
    from nomv.worker import cpu_seconds
    start = cpu_seconds(pid, 0.0)
    deadline = time.monotonic() + timeout
    while cpu_seconds(pid, 0.0) - start < seconds:
        assert time.monotonic() < deadline, f"process {pid} did not get busy within {timeout} s"
        time.sleep(0.01)


TICTACTOE = (nomv.catalog.find("tictactoe").path).read_text(encoding="utf-8")
#: Tic-tac-toe whose variants make one hook hang, work long or fail (see the script's header).
FAULTS = Path(__file__).parent / "scripts" / "tictactoe_faults.lua"


def game(source: str, runtime: str = "jit", limit: float = 0.5) -> nomv.Game:
    return nomv.Game(source, "mine.lua", runtime, limits=Limits(time=limit))


def faulty(runtime: str = "jit", limit: float = 0.5, isolate: bool | None = None) -> nomv.Game:
    return nomv.Game.load(FAULTS, runtime, limits=Limits(time=limit), isolate=isolate)


@pytest.mark.parametrize("runtime", ["jit", "5.4"])
def test_a_compiled_endless_loop_is_stopped_and_names_its_hook(runtime):
    pos = faulty(runtime).start(variant="moves_hang", seed=1)
    with pytest.raises(LimitError) as err:
        pos.legal_moves
    assert err.value.kind == "time" and err.value.hook == "moves"
    assert err.value.path.endswith("tictactoe_faults.lua")
    assert "time limit" in str(err.value) and str(err.value).startswith(err.value.path)
    # the game is still there: another hook answers, from a fresh worker if need be
    assert pos.outcome() is None and pos.to_move == 1


@pytest.mark.parametrize("runtime", ["jit", "5.4"])
def test_a_hanging_hook_is_run_once_so_the_error_comes_after_one_time_limit(runtime):
    # The outcome, the mover, the moves and their notations are asked together; once moves()
    # runs over its limit, neither notations() (which needs the moves) nor the later calls for
    # legal_moves may run it again, or the player would wait several time limits.  Each run of
    # the hanging moves() costs a time limit (and under LuaJIT, whose compiled loop the count
    # hook cannot stop, a killed worker).
    import time
    g = faulty(runtime, 0.3)
    pos = g.start(variant="moves_hang", seed=1)
    kills = g.engine.kills
    started = time.monotonic()
    with pytest.raises(LimitError) as err:
        pos.legal_moves
    assert err.value.hook == "moves" and time.monotonic() - started >= 0.3
    started = time.monotonic()
    for ask in (pos.notations, lambda: pos.legal_moves, lambda: pos.notation("a1"), lambda: pos.play("a1")):
        with pytest.raises(LimitError) as err:
            ask()
        assert err.value.hook == "moves"
    assert time.monotonic() - started < 0.3        # none of them ran moves() again
    assert g.engine.kills - kills == (1 if runtime == "jit" else 0)


def test_the_game_in_progress_survives_a_killed_worker():
    # text() loops forever once the centre (cell 5) is taken; playing goes on without it
    g = faulty()
    pos = g.start(variant="text_hang_centre", seed=3)
    for _ in range(3):
        pos.play(pos.legal_moves[len(pos.legal_moves) // 2])   # the second of these is the centre
    before = pos.state()
    assert (before["x"] + before["o"]) & 16        # cell 5's bit
    kills = g.engine.kills
    with pytest.raises(LimitError) as err:
        pos.text()
    assert err.value.hook == "text"
    assert g.engine.kills == kills + 1           # stopped by killing the process
    assert pos.state() == before and pos.ply == 3  # replayed into the new worker
    pos.undo()
    assert pos.ply == 2 and len(pos.legal_moves) == 7


def test_long_legal_work_is_not_stopped():
    # Each perft node and each playout game gets the limit afresh, however long the whole takes.
    # (A quarter of a second: a node takes microseconds, but the worker's beats may wait for a
    # core shared with other work on a slower machine.)
    g = game(TICTACTOE, limit=0.25)
    unlimited = nomv.Game(TICTACTOE, "mine.lua", "jit", limits=Limits(time=0), isolate=False)
    assert g.start(seed=1).perft(9) == unlimited.start(seed=1).perft(9) == 255168
    stats = g.playout(1000000, seed=1)          # the worker beats while the games go on
    assert stats.games == 1000000 and stats.unfinished == 0
    assert stats.seconds > 0.25                  # the premise: the whole took longer than one limit


def test_a_new_worker_process_starting_slowly_does_not_use_up_the_limit(tmp_path, monkeypatch):
    # Starting a worker (Python and nomv's modules: ~0.1 s of CPU here, three times that on a
    # slower machine) is not the script's time: a game whose limit is shorter than that still
    # loads and plays in a new process.  The start is made slower here on purpose.
    (tmp_path / "sitecustomize.py").write_text(
        "import time\nend = time.process_time() + 0.5\nwhile time.process_time() < end:\n    pass\n",
        encoding="utf-8")
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(tmp_path), os.environ.get("PYTHONPATH")])))
    monkeypatch.setattr("nomv.worker._spare", None)      # the spare ready now started quickly
    g = game(TICTACTOE, limit=0.05)
    try:
        assert g.start(seed=1).perft(2) == 72 and g.engine.kills == 0
    finally:
        g.close()


def test_playout_games_each_get_the_limit_without_reading_the_clock_per_game():
    # Lua 5.4 in-process: only the count hook enforces the limit, and a playout re-arms it for
    # each game lazily (the hook's first firing in a game starts that game's deadline), so many
    # quick games together may take far longer than the limit.
    g = nomv.Game(TICTACTOE, "mine.lua", "5.4", limits=Limits(time=0.01), isolate=False)
    stats = g.playout(20000, seed=1)
    assert stats.games == 20000 and stats.unfinished == 0
    assert stats.seconds > 0.01          # the premise: the whole took longer than one limit


@pytest.mark.parametrize("runtime,isolate", [("5.4", False), ("5.4", True), ("jit", True)])
def test_a_playout_game_that_hangs_is_stopped(runtime, isolate):
    # result() hangs once X holds both a1 and c3 with O on b2: not in every game, so the
    # playout runs a few games first.
    g = faulty(runtime, 0.2, isolate)
    with pytest.raises(LimitError) as err:
        g.playout(100000, seed=1, variant="result_hang")
    # Where the hook stops it (always on 5.4), the error names the script's hook that hung;
    # a LuaJIT worker stopped from outside can only name the loop.
    assert err.value.kind == "time"
    if runtime == "5.4":
        assert err.value.hook == "result" and err.value.line
    else:
        assert err.value.hook in ("result", "playout")


def test_a_call_just_under_the_limit_completes():
    # about a fifth of a second of work in one call, with a limit five times longer
    pos = faulty(limit=5).start(variant="moves_busy", seed=1)
    assert len(pos.legal_moves) == 9


@pytest.mark.parametrize("isolate", [True, False])
def test_acting_as_a_slower_machine_shrinks_what_a_call_may_use_but_not_the_limit_named(monkeypatch, isolate):
    # NOMV_SLOWER=k (tests/as-slower-machine): the work above (about a second under Lua 5.4), under a limit
    # of three seconds on a machine acting 50 times slower, is stopped; the message names the limit.
    monkeypatch.setenv("NOMV_SLOWER", "50")
    with pytest.raises(LimitError) as err:
        faulty("5.4", limit=3, isolate=isolate).start(variant="moves_busy", seed=1).legal_moves
    assert "took longer than 3 seconds (the time limit)" in str(err.value)


def test_a_worker_killed_from_outside_is_reported_and_replaced():
    g = game(TICTACTOE)
    pos = g.start(seed=1)
    pos.play(pos.legal_moves[0])
    pid = g.engine.process_id
    os.kill(pid, signal.SIGKILL)
    _wait_until_dead(pid)             # dead before the next request: that request cannot be sent
    with pytest.raises(ScriptError, match="worker process was killed by signal 9"):
        g.engine.perft(g.engine.setup({"players": 2}, nomv.game.seed_words(1)), 1)
    assert pos.ply == 1 and len(pos.legal_moves) == 8


def test_a_script_that_fails_to_load_says_why_from_the_worker():
    with pytest.raises(ScriptError) as err:
        EnginePool(1).engine("local x = \nreturn {}", "broken.lua", "jit")
    assert err.value.path == "broken.lua" and err.value.line == 2


def test_closing_a_game_stops_its_worker_and_it_restarts_when_used():
    g = game(TICTACTOE)
    pid = g.engine.process_id
    g.close()
    assert g.engine.process_id is None and not os.path.exists(f"/proc/{pid}")   # ended and reaped
    assert g.start(seed=1).perft(2) == 72


def test_a_hanging_moves_hook_leaves_the_other_requests_working():
    # One request asks for the outcome, the mover, the moves and their notations together: a
    # hang in one of them is reported by that one, and the others still answer.
    pos = faulty().start(variant="moves_hang", seed=1)
    assert pos.outcome() is None
    assert pos.to_move == 1
    with pytest.raises(LimitError) as err:
        pos.notations()
    assert err.value.hook == "moves"


def test_batched_requests_report_each_error_where_it_belongs():
    pos = faulty().start(variant="to_move_error", seed=1)
    assert pos.outcome() is None and len(pos.legal_moves) == 9
    with pytest.raises(ScriptError, match="no idea whose turn") as err:
        pos.to_move
    assert err.value.hook == "to_move" and err.value.line


@pytest.mark.parametrize("name", ["trinim", "3verse", "nipple", "nonads", "nibble", "breakthrough"])
def test_a_worker_plays_the_same_game_as_an_in_process_runtime(name):
    # Rule tests run in-process for speed (tests/conftest.py); this is why that is sound.
    games = [nomv.Game.load(name, isolate=flag) for flag in (True, False)]
    assert games[0].isolated and not games[1].isolated
    positions = [g.start(seed=11) for g in games]
    rng = __import__("random").Random(name)
    while positions[0].outcome() is None and positions[0].ply < 60:
        a, b = positions
        assert a.state() == b.state() and a.to_move == b.to_move
        assert a.legal_moves == b.legal_moves and a.notations() == b.notations()
        assert a.scene() == b.scene() and a.text() == b.text()
        move = rng.choice(a.legal_moves)
        a.play(move), b.play(move)
    assert positions[0].outcome() == positions[1].outcome()
    assert positions[0].perft(2) == positions[1].perft(2)


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="reads /proc")
def test_a_worker_ends_with_its_parent_even_in_a_long_loop(tmp_path):
    # A parent killed while its worker runs a long loop (no limit) must not leave it running.
    import subprocess
    import sys
    import time
    script = tmp_path / "parent.py"
    script.write_text(
        "import sys, nomv\n"
        f"g = nomv.Game.load({str(FAULTS)!r}, limits=nomv.Limits(time=0))\n"
        "print(g.engine.process_id, flush=True)\n"
        "g.start(variant='moves_hang', seed=1).legal_moves\n", encoding="utf-8")
    # The parent imports this tree's nomv, not whichever is installed.
    root = str(Path(__file__).resolve().parent.parent)
    env = {**os.environ, "PYTHONPATH": root + os.pathsep + os.environ.get("PYTHONPATH", "")}
    parent = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True, env=env)
    worker = int(parent.stdout.readline())
    _wait_until_busy(worker)          # in the loop
    parent.kill()
    parent.wait()
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            os.kill(worker, 0)
        except ProcessLookupError:
            return
        with open(f"/proc/{worker}/stat") as f:
            if f.read().rsplit(")", 1)[1].split()[0] == "Z":  # ended, not yet reaped
                return
        time.sleep(0.05)
    os.kill(worker, signal.SIGKILL)
    pytest.fail("the worker outlived its parent")


def test_the_command_line_sets_the_limits(capsys):
    from nomv.cli import main
    loop = [str(FAULTS), "--variant", "moves_hang"]
    assert main(["perft", *loop, "--depth", "1", "--time-limit", "0.3"]) == 1
    err = capsys.readouterr().err
    assert "took longer than 0.3 seconds" in err and "(in perft)" in err
    assert main(["perft", *loop, "--depth", "1", "--time-limit", "soon"]) == 2
    assert "'soon' is not a number" in capsys.readouterr().err


def test_closing_a_game_stops_a_request_under_way_at_once():
    # A thread waits for a hook that never returns (no time limit); closing the game (the window
    # closing while the computer thinks) kills the worker instead of waiting for it.
    import threading
    import time
    g = faulty(limit=0)
    pos = g.start(variant="text_hang", seed=1)
    pid = g.engine.process_id
    outcome = []

    def wait_for_text():
        try:
            pos.text()
        except ScriptError as exc:
            outcome.append(exc)
    thread = threading.Thread(target=wait_for_text)
    thread.start()
    _wait_until_busy(pid)             # text() is under way
    started = time.monotonic()
    g.close()
    thread.join(5)
    assert not thread.is_alive() and time.monotonic() - started < 2
    assert outcome and "worker process" in outcome[0].message
    _wait_until_dead(pid)
    assert g.start(seed=2).perft(1) == 9          # and the game goes on in a new worker


def test_a_worker_kept_off_the_processor_is_stopped_after_several_times_the_limit():
    # The parent counts a request's time in the worker's CPU time, so a busy machine (where a
    # worker gets a small share of a processor) does not stop a script before its hook can name
    # the line; a worker that gets no processor at all (stopped here) is stopped after
    # WALL_FACTOR times the limit in real time.
    import threading
    import time
    from nomv.limits import slowdown
    from nomv.worker import WALL_FACTOR, GRACE
    g = game(TICTACTOE, limit=0.2)
    pos = g.start(seed=1)
    pid = g.engine.process_id
    os.kill(pid, signal.SIGSTOP)
    rescue = threading.Timer(30, os.kill, (pid, signal.SIGCONT))     # never left stopped
    rescue.start()
    started = time.monotonic()
    try:
        with pytest.raises(LimitError) as err:
            pos.perft(3)
    finally:
        rescue.cancel()
    assert err.value.kind == "time" and "took longer than 0.2 seconds" in str(err.value)
    assert time.monotonic() - started >= WALL_FACTOR * 0.2 / slowdown() + GRACE   # not at the first look
    assert pos.perft(3) == 504 and g.engine.kills == 1                 # a fresh worker goes on
