"""The attack corpus (tests/scripts/hostile/): every script tries one thing, and each names in its
header what must stop it:

    -- expect: a substring of the error message
    -- hook: the request that reports it (load, setup, moves, play, result, scene, dump, ...)
    -- line: the script line named (optional: a script killed from outside has none)
    -- kind: time or memory for a limit (optional)
    -- check: what `nomv check` says instead, when it finds the attack first (optional)
    -- expect-5.4:, kind-5.4:, line-5.4: what differs under Lua 5.4 (optional)

Each runs under LuaJIT and Lua 5.4 through the API and through `nomv check`; after each, a
canary game that leans on everything shared (string methods, math, table, the nomv library)
must still work in a new game.  The window's path runs a representative subset
(tests/test_hostile_gui.py).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest

import nomv
from nomv.limits import Limits, slowdown
from nomv.ai import MctsAgent
from nomv.checker import check
from nomv.errors import LimitError, ScriptError
from conftest import MINIMAL

CORPUS = Path(__file__).parent / "scripts" / "hostile"
SCRIPTS = sorted(CORPUS.glob("*.lua"))
#: Short limits keep the suite quick; the defaults are measured by `nomv bench`-like figures
#: in the report, not here.
LIMITS = Limits(time=0.3, memory=48 << 20)
#: An attack that something else must stop (Lua's own stack limit, the memory limit, a check of
#: the reply) runs under a roomier clock: its message is what is tested, and stopping it may take
#: a good part of 0.3 s of CPU on a slow machine (a stack overflow in Lua 5.4 is 300,000 calls
#: deep; CI once saw it stopped by the clock instead).
ROOMY = LIMITS.with_(time=3)


def limits_for(want: "Expectation") -> Limits:
    return LIMITS if want.kind == "time" else ROOMY


@dataclass
class Expectation:
    message: str
    hook: str
    line: int | None = None
    kind: str | None = None
    check: str | None = None


def expectation(path: Path, runtime: str = "jit") -> Expectation:
    fields: dict[str, str] = {}
    for text in path.read_text(encoding="utf-8").split("\n"):
        m = re.match(r"-- (expect|hook|line|kind|check)(-5\.4)?: (.*)$", text)
        if m and (not m.group(2) or runtime == "5.4"):
            fields[m.group(1)] = m.group(3).strip()
        elif not text.startswith("--"):
            break
    assert "expect" in fields and "hook" in fields, f"{path.name}: no '-- expect:' and '-- hook:' header"
    return Expectation(fields["expect"], fields["hook"], int(fields["line"]) if "line" in fields else None,
                       fields.get("kind"), fields.get("check"))


def drive(pos: nomv.Position) -> None:
    """What a player's program asks of a game: every hook at least once."""
    pos.outcome()
    pos.to_move
    pos.notations()
    pos.state()
    try:
        pos.parse("no such move")   # the game's parse, with its reason for refusing
    except nomv.IllegalMoveError:
        pass
    pos.play(pos.legal_moves[0])
    pos.outcome()
    pos.legal_moves
    pos.scene()
    pos.text()
    pos.state()
    if pos.outcome() is None:  # the computer player: determinize, evaluate, playouts
        MctsAgent(iterations=30, depth=2, seed=1).choose(pos)


def run_through_api(path: Path, runtime: str, limits: Limits = LIMITS) -> ScriptError | None:
    try:
        with nomv.Game.load(str(path), runtime=runtime, limits=limits) as game:
            drive(game.start(seed=1))
    except ScriptError as exc:
        return exc
    return None


# A game that uses everything a hostile script may have tried to change (conftest's minimal
# game, whose setup checks the shared libraries first).
CANARY = MINIMAL.replace('  name = "minimal",\n', '  name = "canary",\n  grid = g,\n', 1).replace(
    "  setup = function(opts, rng) return {board = {0, 0, 0}, to_move = 1} end,\n", """
  setup = function(opts, rng)
    local function check(cond, what) if not cond then error("broken: " .. what) end end
    check(string.rep("ab", 2) == "abab" and ("x"):rep(3) == "xxx", "string.rep")
    check(string.format("%d-%s", 3, "a") == "3-a" and ("%d"):format(4) == "4", "string.format")
    check(math.floor(2.5) == 2, "math.floor")
    local t = {} table.insert(t, 1) check(#t == 1, "table.insert")
    check(nomv.copy({1})[1] == 1 and g.n == 3, "nomv")
    local n = 0 for _ in pairs({a = 1}) do n = n + 1 end for _ in ipairs({1}) do n = n + 1 end
    check(n == 2 and rng:int(6) >= 1, "pairs and the rng")
    return {board = {0, 0, 0}, to_move = 1}
  end,
""", 1)
assert "broken: " in CANARY and "grid = g" in CANARY


def assert_a_new_game_is_unaffected(runtime: str) -> None:
    # In this process: what the hostile script could have reached beyond its own runtime.
    with nomv.Game(CANARY, "canary.lua", runtime, isolate=False) as game:
        pos = game.start(seed=1)
        assert len(pos.legal_moves) == 3 and pos.perft(3) == 6
        pos.play(pos.legal_moves[0])
        assert pos.state()["board"] == [1, 0, 0] and len(pos.scene()["items"]) == 3


@pytest.mark.parametrize("path", SCRIPTS, ids=[p.stem for p in SCRIPTS])
def test_the_api_stops_each_attack_with_its_message(path, lua):
    want = expectation(path, lua)
    err = run_through_api(path, lua, limits_for(want))
    assert err is not None, f"{path.name} was not stopped"
    assert want.message in err.message, f"{path.name}: {err}"
    assert err.hook == want.hook, f"{path.name}: {err}"
    assert err.path == str(path)
    if want.line is not None:
        assert err.line == want.line and str(err).startswith(f"{path}:{want.line}: "), str(err)
    if want.kind is not None:
        assert isinstance(err, LimitError) and err.kind == want.kind, f"{path.name}: {err!r}"
    else:
        assert not isinstance(err, LimitError), f"{path.name}: {err}"
    assert_a_new_game_is_unaffected(lua)


@pytest.mark.parametrize("path", SCRIPTS, ids=[p.stem for p in SCRIPTS])
def test_nomv_check_reports_each_attack(path, lua):
    want = expectation(path, lua)
    report = check(path, runtime=lua, playouts=1, seconds=0, stats_games=0, coverage=False, extremes=False,
                   limits=limits_for(want))
    assert not report.ok, report.format()
    text = report.format()
    assert (want.check or want.message) in text, text
    if want.kind == "time":
        assert "E101" in text, text
    elif want.kind == "memory":
        assert "E102" in text, text


def test_the_corpus_is_complete():
    # at least 30 attacks, each hook hanging at least once, and both limits
    assert len(SCRIPTS) >= 30
    wanted = [expectation(p) for p in SCRIPTS]
    hung = {w.hook for w in wanted if w.kind == "time"}
    assert {"load", "setup", "moves", "play", "result", "scene"} <= hung
    assert any(w.kind == "memory" for w in wanted)


def busy_game(iterations: int) -> str:
    """The canary whose moves() first does some honest arithmetic."""
    return CANARY.replace("  moves = function(s)\n",
                          "  moves = function(s)\n"
                          f"    local x = 0 for i = 1, {iterations} do x = (x + i * 7) % 1000003 end\n"
                          "    if x < 0 then return {} end\n", 1)


def cpu_seconds_of_moves(source: str, runtime: str) -> float:
    import time
    engine = nomv.engine.LuaEngine(source, "busy.lua", runtime, limits=Limits(time=1000))  # hook on, as under a limit
    state = engine.setup({"players": 2}, nomv.game.seed_words(1))
    start = time.process_time()
    engine.moves(state)
    return time.process_time() - start


def test_long_legal_work_is_not_stopped_before_its_limit(lua):
    # A moves() that needs over half a second of CPU (measured here, on this machine) runs to
    # the end under a limit 1.5 times as long, in a worker as players run it; the same work
    # under a limit a fifth as long is stopped (so the limit is real, and this test can fail).
    iterations = 1_000_000
    while (spent := cpu_seconds_of_moves(busy_game(iterations), lua)) < 0.6:
        iterations = int(iterations * min(max(0.7 / max(spent, 1e-3), 1.5), 100))
    source = busy_game(iterations)
    # (NOMV_SLOWER=k gives a script 1/k of its limit, as a machine k times slower would run the
    # work measured above: the limits scale with it to keep their meaning)
    spent *= slowdown()
    with nomv.Game(source, "busy.lua", lua, limits=Limits(time=spent * 1.5)) as game:
        assert len(game.start(seed=1).legal_moves) == 3
    with nomv.Game(source, "busy.lua", lua, limits=Limits(time=spent / 5)) as game:
        with pytest.raises(LimitError) as err:
            game.start(seed=1).legal_moves
        assert err.value.hook == "moves" and err.value.kind == "time"


def test_nomv_check_on_the_command_line_reports_a_hang_with_the_limit_given(capsys):
    from nomv.cli import main
    path = CORPUS / "hang_moves.lua"
    assert main(["check", str(path), "--time-limit", "0.3", "--memory-mb", "48", "--jobs", "1",
                 "--quick", "--no-coverage", "--playouts", "1", "--seconds", "0"]) == 1
    out = capsys.readouterr().out
    assert f"{path}:" in out and "error[E101]" in out and "took longer than 0.3 seconds" in out
