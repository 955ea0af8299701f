"""nomv check: a broken script for every code (tests/scripts/bad/, each naming the code and line
it must produce in an `-- expect: CODE LINE` comment at its top, and optionally words its message
must hold in a `-- says: TEXT` line; a `-- check: defaults` line checks it with the default count
and time budget, on a fake clock), clean bundled games, coverage, the time budget."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from nomv.limits import Limits
from nomv.checker import CODES, check
from nomv.checker.report import line_ranges, wilson
from nomv.cli import main
from conftest import bundled_games

BAD = Path(__file__).parent / "scripts" / "bad"
GAMES = Path(__file__).parent.parent / "games"
FAST = dict(playouts=3, stats_games=10, seconds=0)


def expectation(path: Path) -> tuple[str, int]:
    m = re.match(r"-- expect: ([EW]\d{3}) (\d+)", path.read_text(encoding="utf-8"))
    assert m, f"{path.name} has no '-- expect: CODE LINE' first line"
    return m.group(1), int(m.group(2))


BAD_SCRIPTS = sorted(BAD.glob("*.lua"))
#: The limits of a script that is not expected to hang: as the checker's own.
ROOMY = Limits(4.0, 64 << 20)


class FakeClock:
    """The budget's clock, made to advance by ``per_game`` for each game checked ply by ply and
    by ``per_fast_game`` for each fast game: how many games a budget buys then never depends on
    the machine."""

    def __init__(self, monkeypatch, per_game: float, per_fast_game: float, per_ply: float = 0.0):
        from nomv.checker import core
        from nomv.engine import EngineBase
        self.t = 0.0
        monkeypatch.setattr(core, "cpu_clock", lambda workers=(): self.t)
        play, fast, ply = core._ScriptChecker._play_game, EngineBase.check_games, EngineBase.play

        def played(checker, *args, **kwargs):
            try:
                return play(checker, *args, **kwargs)
            finally:
                self.t += per_game

        def fast_played(engine, options, seed, games, players, max_plies):
            try:
                return fast(engine, options, seed, games, players, max_plies)
            finally:
                self.t += games * per_fast_game
        monkeypatch.setattr(core._ScriptChecker, "_play_game", played)
        monkeypatch.setattr(EngineBase, "check_games", fast_played)
        if per_ply:      # (also each ply of a game checked ply by ply, and of its replays)
            def ply_played(engine, state, index):
                self.t += per_ply
                return ply(engine, state, index)
            monkeypatch.setattr(EngineBase, "play", ply_played)


#: (The two of issue 29 that only the defaults find have a test of their own, on both runtimes:
#: test_the_defaults_find_the_rare_dead_end_and_the_wide_duplicate_on_either_runtime.)
ONE_RUNTIME = [p for p in BAD_SCRIPTS if p.stem not in ("e052_othello_dead_end", "e051_amazons_duplicate")]


@pytest.mark.parametrize("path", ONE_RUNTIME, ids=[p.stem for p in ONE_RUNTIME])
def test_broken_script_reports_its_code_and_line(path, monkeypatch):
    code, line = expectation(path)
    # A short time limit for the hangs; room for the others, whose worker a busy machine may keep
    # off the processor longer than 0.5 s (a false E101 then: test_hostile's limits_for).
    limits = Limits(0.5, 64 << 20) if code == "E101" else ROOMY
    if re.search(r"^-- check: defaults$", path.read_text(encoding="utf-8"), re.M):
        # A mistake only the default settings find: their time budget, one game checked ply by
        # ply (as for a wide game such as Amazons: 1.5 s) and 1 ms a fast game (1,500 of them).
        FakeClock(monkeypatch, 1.5, 0.001)
        report = check(path, limits=limits, stats_games=0, coverage=False)
    else:
        report = check(path, limits=limits, **FAST)
    found = [(d.code, d.line) for d in report.diagnostics]
    assert (code, line) in found, f"expected {code} at line {line}, got {found}"
    text = report.format()
    assert f"{path}:{line}: {'error' if code[0] == 'E' else 'warning'}[{code}]:" in text
    says = re.search(r"^-- says: (.+)$", path.read_text(encoding="utf-8"), re.M)
    if says:
        message = next(d.message for d in report.diagnostics if (d.code, d.line) == (code, line))
        assert says.group(1) in message, message


BROKEN = sorted((Path(__file__).parent / "scripts" / "broken").glob("*.lua"))


@pytest.mark.parametrize("path", BROKEN, ids=[p.stem for p in BROKEN])
def test_a_script_broken_as_a_new_author_breaks_one_is_found_with_the_defaults(path, monkeypatch):
    # tests/scripts/broken: the tutorial's games and others written the way docs/tutorial.md and
    # docs/script-api.md teach, each broken once as a new author breaks them (docs/checker.md
    # gives the figures, before and after the fast games).  The default budget, on a clock that
    # gives one game checked ply by ply and then 15,000 fast games (the fast games stop at the
    # first mistake: a mistake one game in a few thousand shows costs its games only).
    code, line = expectation(path)
    FakeClock(monkeypatch, 1.5, 0.0001)
    report = check(path, limits=ROOMY, stats_games=0, coverage=False)
    found = [(d.code, d.line) for d in report.diagnostics]
    assert (code, line) in found, f"expected {code} at line {line}, got {found}"


RARE = BAD / "e052_rare_dead_end.lua"

#: Issue 29's cases that only the defaults' budget finds, with their words: a plain Othello whose
#: dead end (both players blocked, empty squares left) one random game in a hundred reaches, and
#: a plain Amazons (2,176 moves at the start) that lists a move twice.
DEFAULTS_FIND = {
    "e052_othello_dead_end": "moves returned no move, but result says the game is not over "
                             "(defaults, fast random game 200, ply 60)",
    "e051_amazons_duplicate": "the move d1-d2-d1 is listed twice (defaults, seed 0, ply 0)",
}


@pytest.mark.parametrize("runtime", ["jit", "5.4"])
@pytest.mark.parametrize("name", sorted(DEFAULTS_FIND))
def test_the_defaults_find_the_rare_dead_end_and_the_wide_duplicate_on_either_runtime(name, runtime, monkeypatch):
    # The default budget on a clock that makes a game checked ply by ply cost 1.5 s (as the
    # Amazons' first game does: the wide game plays that one, then fast games) and a fast game
    # 1 ms; the fast games (and the replay of the one that met the dead end) on the runtime
    # chosen.
    path = BAD / f"{name}.lua"
    code, line = expectation(path)
    FakeClock(monkeypatch, 1.5, 0.001)
    s = check(path, runtime=runtime, limits=ROOMY, stats_games=0, coverage=False).scripts[0]
    assert [(d.code, d.line, d.message) for d in s.diagnostics] == [(code, line, DEFAULTS_FIND[name])]
    # One game checked ply by ply (the duplicate is there at its first ply); the dead end is met
    # by a fast game, which is then played again ply by ply.
    assert (s.games, s.fast_found) == ((2, ["E052"]) if code == "E052" else (1, [])), (s.games, s.fast_found)


@pytest.mark.parametrize("runtime", ["jit", "5.4"])
def test_a_rare_dead_end_escapes_a_few_games_but_not_the_default_budget(monkeypatch, runtime):
    # About one game in a hundred reaches the dead end (it depends on the rng given to setup).
    # (No fast games here: a few hundred of them might stumble on it too.)  The fast games run
    # on the runtime chosen (the games checked ply by ply on Lua 5.4 either way).
    few = check(RARE, playouts=5, seconds=0, stats_games=0, coverage=False, runtime=runtime)
    assert few.ok and few.scripts[0].games == 5, few.format()
    # The default budget, at 50 ms a game checked ply by ply (30 of them in 1.5 s) and 1 ms a
    # fast game (1,500 of them): the fast games find it, and it is reported as the full checks
    # of that game, played again ply by ply, word it.
    FakeClock(monkeypatch, 0.05, 0.001)
    found = check(RARE, stats_games=0, coverage=False, runtime=runtime)   # (traced fast games would find it first)
    e052 = [d for d in found.diagnostics if d.code == "E052"]
    assert e052 and e052[0].line == expectation(RARE)[1], found.format()
    assert re.search(r"\(defaults, fast random game [\d,]+, ply \d+\)$", e052[0].message), e052[0].message
    s = found.scripts[0]
    assert s.fast_found == ["E052"] and 30 <= s.games <= 32, (s.fast_found, s.games)


def test_the_budget_is_spent_in_two_tiers(monkeypatch, tmp_path):
    never = tmp_path / "never.lua"
    never.write_text(RARE.read_text(encoding="utf-8").replace("rng:int(100) == 40", "false"), encoding="utf-8")
    # 1 s: half to games checked ply by ply (at least the count, 7, then 32 at 1/64 s each),
    # the rest to fast games (512 at 1/1024 s each), in batches that double from 16.
    FakeClock(monkeypatch, 1 / 64, 1 / 1024)   # (binary fractions: exact sums)
    s = check(never, playouts=7, seconds=1, stats_games=0, coverage=False).scripts[0]
    assert not s.errors and (s.games, s.games_seconds) == (32, 0.5), (s.games, s.games_seconds)
    assert (s.fast_games, s.fast_seconds) == (512, 0.5), (s.fast_games, s.fast_seconds)
    FakeClock(monkeypatch, 1.0, 1 / 1024)      # slow games: the count still holds, and the
    s = check(never, playouts=7, seconds=1, stats_games=10, coverage=False).scripts[0]
    assert (s.games, s.fast_games) == (7, 10)  # fast games for the figures
    FakeClock(monkeypatch, 1 / 64, 1 / 1024)   # no budget: the counts alone
    s = check(never, playouts=7, seconds=0, stats_games=40, coverage=False).scripts[0]
    assert (s.games, s.fast_games, s.stats["games"]) == (7, 40, 40)
    # Without a count, one game checked ply by ply with a budget, 20 without one.
    FakeClock(monkeypatch, 1.0, 1 / 1024)
    assert check(never, seconds=1, stats_games=0, coverage=False).scripts[0].games == 1
    FakeClock(monkeypatch, 1 / 64, 1 / 1024)
    assert check(never, seconds=0, stats_games=0, coverage=False).scripts[0].games == 20
    # --thorough: a variant gets half the budget (16 + 256 games), each option's extreme a tenth
    # (0.1 s: 4 games checked ply by ply, then fast games for the 0.0375 s left: 39).
    never.write_text(with_options(never, ["red", "blue", "green"]), encoding="utf-8")
    FakeClock(monkeypatch, 1 / 64, 1 / 1024)
    s = check(never, playouts=2, seconds=1, stats_games=0, coverage=False, thorough=True).scripts[0]
    assert s.configurations == ["defaults", "variant 'blue'", "option colour=green"], s.configurations
    assert (s.games, s.fast_games) == (32 + 16 + 4, 512 + 256 + 39), (s.games, s.fast_games)
    assert [t["games"] for t in s.tiers] == [32, 16, 4] and s.thorough


def with_options(path: Path, colours: list[str], variant: bool = True) -> str:
    """The script at `path` with an option of these colours (the first the default) and a
    variant that picks the second."""
    choices = ", ".join(f'"{c}"' for c in colours)
    return path.read_text(encoding="utf-8").replace(
        '  name = "bad",', f'  name = "bad",\n  options = {{colour = {{default = "{colours[0]}", choices = {{{choices}}}}}}},\n'
        + (f'  variants = {{blue = {{colour = "{colours[1]}"}}}},' if variant else ''))


def test_beside_the_defaults_configurations_share_the_budget_and_stop_early(monkeypatch, tmp_path):
    never = RARE.read_text(encoding="utf-8").replace("rng:int(100) == 40", "false")
    (tmp_path / "never.lua").write_text(never, encoding="utf-8")
    variant, extreme = tmp_path / "variant.lua", tmp_path / "extreme.lua"
    variant.write_text(with_options(tmp_path / "never.lua", ["red", "blue"]), encoding="utf-8")
    extreme.write_text(with_options(tmp_path / "never.lua", ["red", "green"], variant=False), encoding="utf-8")
    # Without --thorough, a variant's games checked ply by ply stop after the first, which
    # called every hook, and its fast games take the rest of its half of the budget (0.5 s:
    # 496 at 1/1024 s); with --thorough its games checked ply by ply take their share (16).
    FakeClock(monkeypatch, 1 / 64, 1 / 1024)
    s = check(variant, playouts=2, seconds=1, stats_games=0, coverage=False).scripts[0]
    assert [(t["label"], t["games"], t["fast_games"]) for t in s.tiers] == [
        ("defaults", 32, 512), ("variant 'blue'", 1, 496)], s.tiers
    assert all(t["hooks"] == ["moves", "play", "result", "setup"] and not t["hooks_missed"] for t in s.tiers)
    FakeClock(monkeypatch, 1 / 64, 1 / 1024)
    s = check(variant, playouts=2, seconds=1, stats_games=0, coverage=False, thorough=True).scripts[0]
    assert [(t["games"], t["fast_games"]) for t in s.tiers] == [(32, 512), (16, 256)], s.tiers
    # Twelve colours: the variant's half and ten extremes' tenths (1.5 s) are scaled down to
    # share half the defaults' 1 s (the extreme c1 is the variant).
    many = tmp_path / "many.lua"
    many.write_text(with_options(tmp_path / "never.lua", [f"c{i}" for i in range(12)]), encoding="utf-8")
    FakeClock(monkeypatch, 1 / 64, 1 / 1024)
    s = check(many, seconds=1, stats_games=0, coverage=False).scripts[0]
    budgets = [t["budget"] for t in s.tiers]
    assert len(budgets) == 12 and budgets[0] == 1.0 and budgets[1] == pytest.approx(0.5 / 3, abs=0.001)
    assert sum(budgets[1:]) == pytest.approx(0.5, abs=0.005), budgets
    # An extreme's count of fast games is a floor while they take less than half its budget: an
    # extreme whose game checked ply by ply took its whole 0.1 s plays 4 of its 20 fast games at
    # 1/64 s each (0.0625 s)...
    FakeClock(monkeypatch, 0.1, 1 / 64)
    s = check(extreme, playouts=2, seconds=1, stats_games=200, coverage=False).scripts[0]
    assert s.tiers[1]["label"] == "option colour=green" and s.tiers[1]["fast_games"] == 4, s.tiers
    FakeClock(monkeypatch, 0.1, 1 / 64)       # ...with --thorough, all 20 whatever they cost
    s = check(extreme, playouts=2, seconds=1, stats_games=200, coverage=False, thorough=True).scripts[0]
    assert s.tiers[1]["fast_games"] == 20, s.tiers
    # Its game checked ply by ply stops after its first two plies once its share (half of its
    # 0.1 s) is spent: 0.03 s a ply, at ply 2 (the defaults' go on).
    FakeClock(monkeypatch, 0.0, 1 / 1024, per_ply=0.03)
    s = check(extreme, seconds=1, stats_games=0, coverage=False).scripts[0]
    assert [(t["games"], t["plies"], t["cut"]) for t in s.tiers] == [(4, 12, 0), (1, 2, 1)], s.tiers
    assert not s.errors
    text = s.summary_lines()
    # (its replays, 2 plies on each runtime, spent the rest of its 0.1 s: no fast game)
    assert "  option colour=green: 1 game checked ply by ply (stopped after its first plies: its share of the " \
           "time was spent); 0.2 s of CPU" in text, text


def test_coverage_comes_from_fast_games_traced_on_lua54(monkeypatch):
    # The rules' lines are traced in fast games on Lua 5.4 (a fifth of the defaults' budget,
    # at least one game); the games checked ply by ply trace only the hooks random games never
    # call.  A script whose every line runs in random play reports no W110.
    FakeClock(monkeypatch, 1 / 64, 1 / 1024)
    s = check(GAMES / "tictactoe.lua", seconds=1, stats_games=0).scripts[0]
    assert s.coverage == {"active": 22, "covered": 22, "ranges": []} and not s.diagnostics, s.diagnostics
    # 0.5 s of games checked ply by ply, 0.2 s of traced fast games, 0.3 s of untraced ones
    assert (s.games, s.fast_games) == (32, 205 + 307), (s.games, s.fast_games)


def test_the_report_says_how_many_games_and_how_long(capsys):
    assert main(["check", str(RARE), "--playouts", "4", "--seconds", "0", "--no-coverage", "--json"]) in (0, 1)
    data = json.loads(capsys.readouterr().out)["scripts"][0]
    # (the 200 fast games may meet the rare dead end: that game is played again ply by ply)
    assert data["games"] == 4 + len(data["fast_found"]) and data["games_seconds"] > 0
    assert main(["check", str(GAMES / "tictactoe.lua"), "--playouts", "3", "--seconds", "0", "--quick"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"3 random games checked ply by ply and 203 fast random games over 1 configuration "
                     r"in \d+\.\d s of CPU \(\d+\.\d s in all\)", out), out
    assert main(["check", str(GAMES / "tictactoe.lua"), "--seconds", "0.5", "--quick", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)["scripts"][0]
    assert data["games"] >= 1 and data["fast_games"] >= 200 and data["fast_found"] == []
    assert data["cpu_seconds"] >= data["games_seconds"] + data["fast_seconds"] > 0
    assert data["stats"]["games"] >= 200 and data["stats"]["games_per_second"] > 0
    assert main(["check", str(RARE), "--seconds", "-1"]) == 2
    assert "--seconds must be 0 or more" in capsys.readouterr().err


def test_a_duplicate_move_is_reported_once_at_the_line_that_added_it(tmp_path):
    report = check(BAD / "e051_duplicate_move.lua", **FAST)
    assert [(d.code, d.line) for d in report.errors] == [("E051", 14)], report.format()   # no E080
    # Added by a helper: the helper's line; a local made by a constructor: that line; a list
    # returned as it is made: the line that returns it.
    source = (BAD / "e051_duplicate_move.lua").read_text(encoding="utf-8")
    helper = source.replace("local g = nomv.grid.square(3, 1)\n", "local g = nomv.grid.square(3, 1)\n"
                            "local function add(list, id)\n  list[#list + 1] = {id}\nend\n").replace(
                            "table.insert(out, {g.ids[i]})", "add(out, g.ids[i])")
    (tmp_path / "helper.lua").write_text(helper, encoding="utf-8")
    report = check(tmp_path / "helper.lua", **FAST)
    assert [(d.code, d.line) for d in report.errors] == [("E051", 6)], report.format()
    local = source.replace("    local out = {}\n", "    local out = {{'a1'}, {'a1'}}\n    do return out end\n")
    (tmp_path / "local.lua").write_text(local, encoding="utf-8")
    report = check(tmp_path / "local.lua", **FAST)
    assert ("E051", 9) in [(d.code, d.line) for d in report.errors], report.format()
    whole = source.replace("    local out = {}\n", "    do return {{'a1'}, {'a1'}} end\n")
    (tmp_path / "whole.lua").write_text(whole, encoding="utf-8")
    report = check(tmp_path / "whole.lua", **FAST)
    returns = next(i for i, l in enumerate(whole.split("\n"), 1) if "do return {{'a1'}, {'a1'}} end" in l)
    assert ("E051", returns) in [(d.code, d.line) for d in report.errors], report.format()
    assert "E080" not in report.codes()


HANGS_AT_PLY_1 = """local g = nomv.grid.square(3, 1)
return {
  name = "hang",
  grid = g,
  setup = function(opts, rng) return {board = {0, 0, 0}, to_move = 1} end,
  moves = function(s)
    local out = {}
    for i = 1, 3 do if s.board[i] == 0 then out[#out + 1] = {g.ids[i]} end end
    if s.board[2] ~= 0 then
      local x = 0
      while true do x = x + 1 end
    end
    return out
  end,
  play = function(s, m)
    local b = nomv.copy(s.board)
    b[g.index[m[1]]] = s.to_move
    return {board = b, to_move = 3 - s.to_move}
  end,
  result = function(s) if s.board[3] ~= 0 then return {winner = 1} end end,
}
"""


def test_a_hang_while_lines_are_traced_names_its_line(tmp_path):
    # Coverage traces the fast games' lines on Lua 5.4, which then calls no count hook inside a
    # loop: the time limit is also looked at every thousand lines, so the loop is stopped inside
    # Lua, at its line.  In a process of its own, the runtime in it (no worker that a parent
    # might kill, on a busy machine, before the hook speaks): only the hook can stop the loop,
    # and a hook that did not would show as the process running past its generous timeout.
    import subprocess
    import sys
    path = tmp_path / "hang.lua"
    path.write_text(HANGS_AT_PLY_1, encoding="utf-8")
    loop = next(i for i, t in enumerate(HANGS_AT_PLY_1.split("\n"), 1) if "while true" in t)
    code = (
        "import sys, nomv\n"
        "from nomv.game import seed_words\n"
        "from nomv.limits import Limits\n"
        "game = nomv.Game.load(sys.argv[1], '5.4', limits=Limits(time=0.5), isolate=False)\n"
        "game.engine.coverage_start()\n"
        "try:\n"
        "    game.engine.check_games(game.resolve_options(None, None), seed_words(0), 5, 2, 100)\n"
        "except nomv.LimitError as exc:\n"
        "    print(exc.line, exc.hook, exc.kind)\n")
    out = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True, timeout=300,
                         cwd=Path(__file__).parent.parent)
    assert out.stdout.split() == [str(loop), "moves", "time"], out


SLOW_PLIES = """local g = nomv.grid.square(3, 1)
return {
  name = "slow",
  grid = g,
  setup = function(opts, rng) return {n = 0, to_move = 1} end,
  moves = function(s)
    local x = 0
    for i = 1, 80000 do x = x + i end
    return {{"a1"}, {"b1"}}
  end,
  play = function(s, m) return {n = s.n + 1, to_move = 3 - s.to_move} end,
  result = function(s) if s.n == 40 then return {draw = true} end end,
}
"""


def test_a_long_traced_fast_game_gets_the_time_limit_a_ply():
    # A fast game traced for coverage runs several times slower; its plies each take the limit
    # afresh (40 plies of some 20 ms traced here, about 1 s in all, under a limit of 0.5 s).
    import nomv
    from nomv.game import seed_words
    game = nomv.Game(SLOW_PLIES, "slow.lua", "5.4", limits=Limits(time=0.5), isolate=False)
    game.engine.coverage_start()
    figures = game.engine.check_games(game.resolve_options(None, None), seed_words(0), 1, 2, 100)
    assert figures["games"] == 1 and figures["plies"] == 40 and figures["seconds"] > 0.5, figures
    game.close()


def test_a_hang_in_random_move_inside_a_loop_names_the_hook_and_line():
    # Lua 5.4's hook stops it in the playout loop itself: reported under random_move, not
    # "playout" (LuaJIT's stopped worker is the checker's test above, through the bad script).
    import nomv
    path = BAD / "e101_random_move_hangs_in_playouts.lua"
    game = nomv.Game.load(str(path), runtime="5.4", limits=Limits(time=0.5))
    try:
        with pytest.raises(nomv.LimitError) as info:
            game.playout(5)
    finally:
        game.close()
    assert info.value.hook == "random_move" and info.value.line == expectation(path)[1]


def test_every_code_has_a_broken_script():
    covered = {expectation(p)[0] for p in BAD_SCRIPTS}
    assert set(CODES) <= covered, f"codes without a broken script: {sorted(set(CODES) - covered)}"


def test_every_code_is_documented():
    doc = (Path(__file__).parent.parent / "docs" / "checker.md").read_text(encoding="utf-8")
    for code in CODES:
        assert f"### {code}" in doc, f"{code} is not in docs/checker.md"


@pytest.mark.parametrize("name", bundled_games())
def test_bundled_game_checks_clean(name):
    report = check(GAMES / f"{name}.lua", playouts=2, seconds=0, stats_games=20, extremes=False, coverage=False)
    assert report.ok, "\n" + report.format()


def test_tutorial_games_check_without_warnings():
    report = check(GAMES / "tictactoe.lua", playouts=20, seconds=0, stats_games=20)
    assert report.diagnostics == [], report.format()
    report = check(GAMES / "peg_solitaire.lua", playouts=4, seconds=0, stats_games=20)
    # Random play never solves the full board: the winning rule is reported as never run.
    assert report.ok and set(report.codes()) <= {"W110"}, report.format()


def test_coverage_names_the_unreachable_rule(tmp_path):
    from conftest import MINIMAL
    body = MINIMAL.replace(
        "    b[g:at(m[1])] = s.to_move\n",
        "    b[g:at(m[1])] = s.to_move\n"
        "    if m[1] == \"z9\" then\n"          # never: no cell is called z9
        "      b[1] = 0\n"
        "      b[2] = 0\n"
        "    end\n").replace('  name = "minimal",', '  name = "minimal",\n  grid = g,')
    path = tmp_path / "unreachable.lua"
    path.write_text(body, encoding="utf-8")
    lines = body.split("\n")
    first = next(i for i, l in enumerate(lines, 1) if "b[1] = 0" in l)
    report = check(path, **FAST)
    assert report.ok
    w = [d for d in report.diagnostics if d.code == "W110"]
    assert [(d.line, d.message.split(" ")[0]) for d in w] == [(first, f"unreachable.lua:{first}-{first + 1}")]
    assert report.scripts[0].coverage["ranges"] == [[first, first + 1]]


def test_a_broken_script_does_not_stop_the_others(tmp_path):
    report = check([BAD / "e101_time_limit.lua", GAMES / "tictactoe.lua"], limits=Limits(time=0.5), **FAST)
    assert [s.has_error() for s in report.scripts] == [True, False]
    assert "E101" in report.codes()


def test_report_figures(tmp_path):
    report = check(GAMES / "tictactoe.lua", playouts=3, seconds=0, stats_games=100)
    s = report.scripts[0]
    assert s.stats["games"] == 100 and sum(s.stats["wins"]) + s.stats["draws"] == 100
    assert s.branching_max == 9 and s.stats["longest"] <= 9
    text = report.format()
    for words in ("games/s", "average", "longest", "branching", "first player wins", "95% CI", "draws"):
        assert words in text
    data = report.to_json()
    assert data["ok"] and data["scripts"][0]["first_player"]["ci95"][0] < 1


SCRIPT_KEYS = {"path", "name", "runtime", "errors", "warnings", "diagnostics", "configurations", "skipped",
               "games", "games_seconds", "plies", "fast_games", "fast_plies", "fast_seconds", "fast_found",
               "branching", "stats", "coverage", "seconds", "cpu_seconds", "tiers", "thorough", "cached"}


def test_the_json_carries_the_time_the_findings_and_the_games_of_each_tier(capsys):
    # What a CI job or an editor reads: the run's time and totals, and per script what was found
    # (code, line, words: here a misspelt field that a fast game met), each tier's games, plies
    # and CPU seconds, and which codes the fast games found.
    helper = BAD / "e100_misspelt_field_in_helper.lua"
    assert main(["check", str(helper), str(GAMES / "tictactoe.lua"), "--playouts", "1", "--seconds", "0",
                 "--quick", "--json"]) == 1
    data = json.loads(capsys.readouterr().out)
    bad, good = data["scripts"]
    # (one traced game of tic-tac-toe may leave the draw's line unseen: W110 warnings only)
    assert {d["code"] for d in good["diagnostics"]} <= {"W110"}
    assert (data["ok"], data["errors"], data["warnings"]) == (False, 1, len(good["diagnostics"]))
    assert set(bad) == SCRIPT_KEYS and set(good) == SCRIPT_KEYS | {"first_player"}
    [found] = bad["diagnostics"]
    assert set(found) == {"path", "line", "severity", "code", "name", "message"}
    assert (found["path"], found["line"], found["severity"], found["code"], found["name"]) == (
        str(helper), 89, "error", "E100", "script-raised")
    assert found["message"].startswith("play raised an error: s.borad is nil: did you mean s.board? (flips gets "
                                       "it as 'board' and indexes it on line 24) (defaults, fast random game 1, ")
    # (the fast game that met it is played again ply by ply: the words come from there)
    assert bad["fast_found"] == ["E100"] and bad["fast_games"] == 1 and bad["games"] == 1
    # The good script: one game checked ply by ply, then the 200 fast games of the figures.
    assert (good["errors"], good["fast_found"], good["configurations"]) == (0, [], ["defaults"])
    assert good["games"] == 1 and 5 <= good["plies"] <= 9
    assert good["fast_games"] >= 200 and 5 * good["fast_games"] <= good["fast_plies"] <= 9 * good["fast_games"]
    assert good["stats"]["games"] == 200 and good["coverage"]["active"] >= good["coverage"]["covered"] > 0
    # What each configuration played, and the hooks its games checked ply by ply called.
    [tier] = good["tiers"]
    assert (tier["label"], tier["games"], tier["plies"], tier["cut"]) == ("defaults", 1, good["plies"], 0)
    assert tier["traced_games"] + tier["fast_games"] == good["fast_games"] and tier["traced_games"] >= 1
    assert (tier["hooks"], tier["hooks_missed"]) == (["moves", "play", "result", "setup", "text"], [])
    assert good["thorough"] is False and 0 < tier["seconds"] <= good["cpu_seconds"]
    for s in (bad, good):
        assert s["seconds"] > 0 and s["cpu_seconds"] >= s["games_seconds"] + s["fast_seconds"]
    assert good["games_seconds"] > 0 and good["fast_seconds"] > 0
    # The run's totals.
    assert data["seconds"] >= max(bad["seconds"], good["seconds"])
    assert data["cpu_seconds"] == pytest.approx(bad["cpu_seconds"] + good["cpu_seconds"], abs=0.002)
    assert (data["games"], data["fast_games"]) == (2, 1 + good["fast_games"])


def test_a_script_unchanged_since_its_check_gets_that_report_again(tmp_path, capsys):
    # An author who checks a folder on every save changed one script: the others are not played
    # again (the same text, settings and nomv give the same games), and the report says so.
    game = tmp_path / "tictactoe.lua"
    game.write_text((GAMES / "tictactoe.lua").read_text(encoding="utf-8"), encoding="utf-8")
    bad = tmp_path / "bad.lua"
    bad.write_text((BAD / "e053_bad_result.lua").read_text(encoding="utf-8"), encoding="utf-8")
    args = ["check", str(game), str(bad), "--seconds", "0", "--playouts", "2", "--quick", "--jobs", "1"]

    def run(*more):
        code = main([*args, *more, "--json"])
        return code, json.loads(capsys.readouterr().out)["scripts"]
    code, first = run()
    assert code == 1 and [s["cached"] for s in first] == [None, None]
    code, again = run()
    assert code == 1 and all(s["cached"] for s in again)
    assert [s["diagnostics"] for s in again] == [s["diagnostics"] for s in first]
    assert [(s["games"], s["fast_games"]) for s in again] == [(s["games"], s["fast_games"]) for s in first]
    assert main([*args]) == 1
    assert capsys.readouterr().out.count("unchanged since its check of ") == 2
    # A changed script, other settings, or --fresh: checked again.
    game.write_text(game.read_text(encoding="utf-8") + "\n-- changed\n", encoding="utf-8")
    code, changed = run()
    assert changed[0]["cached"] is None and changed[1]["cached"]
    assert run("--seed", "1")[1][1]["cached"] is None
    assert [s["cached"] for s in run("--fresh")[1]] == [None, None]
    # A report that a busy machine may have decided (over the time limit) is not kept.
    from nomv.checker import cache
    from nomv.checker.report import ScriptReport
    hung = ScriptReport(str(bad))
    hung.add(3, "E101", "result took longer than 4 s")
    cache.save("k" * 64, hung)
    assert cache.load("k" * 64) is None
    kept = ScriptReport(str(bad))
    kept.add(3, "E053", "result returned a winner out of range")
    cache.save("k" * 64, kept)
    assert cache.load("k" * 64).diagnostics == kept.diagnostics


def test_wilson_and_ranges():
    lo, hi = wilson(50, 100)
    assert round(lo, 3) == 0.404 and round(hi, 3) == 0.596
    assert line_ranges([3, 4, 5, 7, 9, 10], {5, 9}) == [(3, 4), (7, 7), (10, 10)]


def test_cli_check_exit_codes_and_json(capsys):
    assert main(["check", str(GAMES / "tictactoe.lua"), "--playouts", "2", "--seconds", "0", "--quick"]) == 0
    out = capsys.readouterr().out
    assert "checked 1 script: 0 errors" in out
    assert main(["check", str(BAD / "e052_dead_end.lua"), "--playouts", "2", "--seconds", "0", "--json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert not data["ok"] and data["scripts"][0]["diagnostics"][0]["code"] == "E052"


def test_cli_check_options_and_game_names(capsys):
    assert main(["check", "tictactoe", "--playouts", "1", "--seconds", "0", "--no-coverage"]) == 0
    assert main(["check", str(GAMES / "peg_solitaire.lua"), "-o", "start=cross", "--playouts", "2", "--seconds", "0",
                 "--no-coverage"]) == 0
    assert "1 configuration" in capsys.readouterr().out


def test_checking_in_parallel_reports_the_same_in_order():
    from pathlib import Path
    games = Path(__file__).parent.parent / "games"
    paths = [games / "tictactoe.lua", Path(__file__).parent / "scripts" / "bad" / "e052_dead_end.lua"]
    one = check(paths, playouts=3, seconds=0, stats_games=10, coverage=False, extremes=False, jobs=1)
    two = check(paths, playouts=3, seconds=0, stats_games=10, coverage=False, extremes=False, jobs=2)
    assert [s.path for s in two.scripts] == [str(p) for p in paths]
    assert [(d.code, d.line) for d in two.diagnostics] == [(d.code, d.line) for d in one.diagnostics]
    assert any(d.code == "E052" for d in two.diagnostics)


def test_a_script_that_is_not_utf8_is_named_so_not_an_internal_error(tmp_path, capsys):
    path = tmp_path / "latin1.lua"
    path.write_bytes("-- a game\n-- caf\xe9 \n return {}\n".encode("latin-1"))
    assert main(["check", str(path)]) == 1
    out = capsys.readouterr()
    assert f"{path}:2: error[E100]: cannot read the script: not UTF-8 text: byte 0xe9" in out.out
    assert "internal error" not in out.out + out.err


def test_contract_errors_carry_the_code_the_host_gave():
    # A hook that breaks its contract: the host names the code, and the API passes it on.
    import nomv
    from conftest import MINIMAL
    broken = MINIMAL.replace("return {winner = 1}", "return {winner = 7}")
    pos = nomv.Game(broken, "broken.lua").start(seed=1)
    for _ in range(3):
        pos.play(pos.legal_moves[0])
    with pytest.raises(nomv.ScriptError) as err:
        pos.outcome()
    assert err.value.code == "E053" and "winner must be a player number from 1 to 2, got 7" in err.value.message
    assert err.value.line == broken.split("\n").index("    return {winner = 7}") + 1   # the return that gave it
