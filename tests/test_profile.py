"""nomv profile: the share of each hook, the hottest lines and the tables a ply, on scripts whose
hot spot is known (a hook that spins, a line that allocates), under both runtimes; the advice a
new author's natural script gets (and no longer gets once applied); every bundled game; the
command line, nomv check's last lines, and nomv bench on any script.

Shares come from samples, so the tests ask for what a hot spot makes certain (a spinning hook
has most of the time), never for timings."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import nomv
from conftest import MINIMAL, SCRIPTS, bundled_games
from nomv.cli import main
from nomv.limits import Limits
from nomv.profile import DOC, profile

PROFILE = SCRIPTS / "profile"
API = (Path(__file__).parent.parent / "docs" / "script-api.md").read_text(encoding="utf-8")


def marked(path: Path, mark: str) -> int:
    """The line of a fixture that carries a marker comment (-- SPIN)."""
    lines = path.read_text(encoding="utf-8").split("\n")
    (line,) = [k for k, text in enumerate(lines, start=1) if text.rstrip().endswith(f"-- {mark}")]
    return line


def anchors() -> set[str]:
    """The sections of script-api.md, as GitHub names their anchors."""
    out = set()
    for title in re.findall(r"^#+ (.+)$", API, re.M):
        slug = re.sub(r"[^\w\- ]", "", title.strip().lower()).replace(" ", "-")
        out.add(f"{DOC}#{slug}")
    return out


def test_a_hook_that_spins_has_most_of_the_time_at_its_line(lua):
    path = PROFILE / "spin.lua"
    with nomv.Game.load(str(path), runtime=lua) as game:
        report = profile(game, seconds=0.4)
    assert report.hooks["result"] >= 0.5, report.hooks
    assert report.dominant() == ("result", report.hooks["result"])
    assert report.lines[0].line == marked(path, "SPIN")
    assert report.lines[0].hook == "result"
    assert report.games > 0 and report.sampler == ("jit.profile" if lua == "jit" else "hook")
    # result() is called once a ply and once at the end; the loop's line runs 2,000 times a call
    assert report.lines[0].runs_per_ply is not None and report.lines[0].runs_per_ply >= 2000
    assert report.lines[0].tables_per_ply is None                  # it makes no table


def test_a_line_that_allocates_is_where_the_tables_are_counted(lua):
    path = PROFILE / "alloc.lua"
    with nomv.Game.load(str(path), runtime=lua) as game:
        report = profile(game, seconds=0.4)
    top = report.allocating[0]
    assert top.line == marked(path, "ALLOC")
    assert 9.5 <= (top.tables_per_ply or 0) <= 10.5               # ten a ply, counted at the line
    # ... the board and the state in play, moves() listing its list and each move
    assert report.tables_per_ply is not None and 12 <= report.tables_per_ply <= 24
    (advice,) = [a for a in report.advice if a.doc.endswith("#one-table-a-move")]
    assert advice.line == top.line and f"line {top.line} (10" in advice.text
    assert report.hooks["play"] > report.hooks["result"]
    if lua == "jit":
        assert report.gc is not None and report.gc > 0
    else:
        assert report.gc is None                                   # the hook cannot tell it apart


def test_the_natural_script_gets_the_advice_its_author_applied(lua):
    # A new author's first Ataxx: result() lists both players' moves to count them (line 98),
    # jumps() builds cell ids as text at every ply (line 21), every move a new table.
    path = PROFILE / "ataxx_natural.lua"
    # A game of it is one call into the script for the profile's random games: under Lua 5.4
    # on a busy machine one took more than the default 1.5 s, so the limit gets room here.
    with nomv.Game.load(str(path), runtime=lua, limits=Limits(time=20)) as game:
        report = profile(game, seconds=1.0)
    by_doc = {a.doc.split("#")[1]: a for a in report.advice}
    assert by_doc["ask-for-the-moves-once-a-ply"].line == 98
    assert "moves_of (line 31)" in by_doc["ask-for-the-moves-once-a-ply"].text
    assert by_doc["count-instead-of-collecting"].line == 98
    assert "#moves_of(...)" in by_doc["count-instead-of-collecting"].text
    assert by_doc["code-that-luajit-compiles"].line == 21
    assert "one-table-a-move" in by_doc
    assert report.hooks["result"] + report.hooks["moves"] >= 0.6
    assert {a.doc for a in report.advice} <= anchors()
    # and once applied (ataxx_profiled.lua), none of it any more
    with nomv.Game.load(str(PROFILE / "ataxx_profiled.lua"), runtime=lua, limits=Limits(time=20)) as game:
        after = profile(game, seconds=0.6)
    left = {a.doc.split("#")[1] for a in after.advice}
    assert not left & {"ask-for-the-moves-once-a-ply", "count-instead-of-collecting",
                       "code-that-luajit-compiles"}, [a.text for a in after.advice]
    assert after.tables_per_ply is not None and after.tables_per_ply < 4


def test_steps_without_a_bound_get_most_next_steps(tmp_path):
    source = (Path(nomv.__file__).parent.parent / "games" / "amazons.lua").read_text(encoding="utf-8")
    unbounded = tmp_path / "amazons.lua"
    unbounded.write_text(source.replace("most_next_steps = 35,", ""), encoding="utf-8")
    with nomv.Game.load(str(unbounded)) as game:
        report = profile(game, seconds=0.6)
    (advice,) = [a for a in report.advice if a.doc.endswith("#bound-the-next-steps")]
    assert "every whole move seen had 3 steps" in advice.text
    longest = int(re.search(r"no list of next steps was longer than (\d+)", advice.text).group(1))
    assert 1 <= longest <= 35                    # a queen reaches at most 35 cells of a 10x10 board
    with nomv.Game.load("amazons") as game:      # the bundled one has the bound
        assert not [a for a in profile(game, seconds=0.3).advice if a.doc.endswith("#bound-the-next-steps")]


@pytest.mark.parametrize("name", bundled_games())
def test_every_bundled_game_profiles(name, lua, monkeypatch):
    monkeypatch.setenv("NOMV_ISOLATE", "0")      # (the rules of profiling, not the worker)
    game = nomv.Game.load(name, runtime=lua)
    report = profile(game, seconds=0.15)
    total = sum(report.hooks.values()) + (report.gc or 0)
    assert abs(total - 1) < 1e-6 and report.games > 0
    assert report.hooks["play"] > 0 or report.hooks["nomv"] > 0
    assert report.lines and all(0 < line.share <= 1 for line in report.lines)
    assert report.tables_per_ply is not None and report.tables_per_ply >= 0.5   # every play makes a state
    assert {a.doc for a in report.advice} <= anchors()
    json.dumps(report.to_json())
    if lua == "jit":                             # the compiler is on again afterwards
        assert game.engine._runtime._lua.eval("(jit.status())") is True


def test_profiling_leaves_the_time_limit_and_the_sandbox_as_they_were(script):
    # (the minimal game, with a hook that hangs and one that reaches for LuaJIT's `jit`)
    path = script(MINIMAL.replace("\n}\n", "\n  text = function(s) while true do end end,\n"
                                            "  notation = function(s, m) return jit.version end,\n}\n"))
    # Lua 5.4: a hanging hook is stopped by the count hook (LuaJIT's compiled loop, by the worker)
    with nomv.Game.load(str(path), runtime="5.4", limits=Limits(time=0.5), isolate=False) as game:
        profile(game, seconds=0.2)
        pos = game.start()
        with pytest.raises(nomv.ScriptError) as err:
            pos.text()
        assert err.value.kind == "time"
        with pytest.raises(nomv.ScriptError) as err:
            pos.notations()
        assert "jit" in err.value.message


def test_the_command_line_profile_and_its_json(capsys):
    path = PROFILE / "spin.lua"
    assert main(["profile", str(path), "--seconds", "0.2", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["hooks"]["result"] >= 0.5
    assert data["lines"][0] == {**data["lines"][0], "line": marked(path, "SPIN")}
    assert all(set(line) >= {"line", "share"} for line in data["lines"])
    assert all(set(a) >= {"text", "doc"} for a in data["advice"])
    assert main(["profile", str(path), "--seconds", "0.2", "--lua", "5.4"]) == 0
    text = capsys.readouterr().out
    assert "on Lua 5.4" in text and "Time by hook" in text and "Hottest lines" in text
    assert re.search(r"^\s+\d+\.\d%\s+line \d+ +for k = 1, 2000", text, re.M)
    assert main(["profile", "no-such-game"]) == 1
    assert main(["profile", str(path), "--seconds", "0"]) == 2


def test_check_ends_with_the_speed_and_points_at_profile_when_a_hook_dominates(capsys, script):
    spin = PROFILE / "spin.lua"
    # three hooks that spin alike: none takes half the time
    even = script(spin.read_text(encoding="utf-8").replace(
        "    return out\n", "    local x = 0\n    for k = 1, 2000 do x = (x * 31 + k) % 1000003 end\n"
        "    if x < 0 then return {} end\n    return out\n").replace(
        "    return {board = board", "    local x = 0\n    for k = 1, 2000 do x = (x * 31 + k) % 1000003 end\n"
        "    if x < 0 then return s end\n    return {board = board"), "even.lua")
    args = ["--seconds", "0", "--playouts", "2", "--quick", "--no-coverage", "--jobs", "1"]
    assert main(["check", str(spin), str(even), *args]) == 0
    lines = capsys.readouterr().out.strip().split("\n")
    assert lines[-2].startswith(f"speed: {spin}: ") and "random games/s on LuaJIT" in lines[-2]
    assert re.search(rf"; result\(\) takes \d+% of the time: nomv profile {re.escape(str(spin))} shows where", lines[-2])
    assert lines[-1].startswith(f"speed: {even}: ") and "nomv profile" not in lines[-1]
    assert main(["check", str(spin), *args, "--json"]) == 0
    (row,) = json.loads(capsys.readouterr().out)["speed"]
    assert row["dominant"]["hook"] == "result" and row["games_per_second"] > 0


def test_bench_measures_any_script(capsys):
    path = PROFILE / "spin.lua"
    assert main(["bench", "--game", str(path), "--seconds", "0.05", "--no-gui", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    (row,) = data["playouts"]
    assert row["game"] == "spin" and row["jit"] > 0 and row["5.4"] > 0 and row["length"] == 9
    assert [r["game"] for r in data["mcts"]] == ["spin"]
    assert main(["bench", "--game", "no-such.lua"]) == 1
    assert main(["bench", "--game", "conect4"]) == 2
    assert "did you mean 'connect4'" in capsys.readouterr().err


@pytest.mark.slow     # (installs a revision in a new environment: minutes; `pytest -m slow`)
def test_bench_against_a_revision_plays_both_side_by_side(capsys):
    # This very commit, installed in a temporary environment (git archive, pip), against the
    # tree: the same script on both sides, one round.
    path = PROFILE / "spin.lua"
    assert main(["bench", "--against", "HEAD", "--game", str(path), "--rounds", "2", "--seconds", "0.05",
                 "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["against"] == "HEAD" and len(data["commit"]) == 40 and data["rounds"] == 2
    (row,) = data["games"]
    assert len(row["base_runs"]) == len(row["ours_runs"]) == 2
    assert row["base"] > 0 and row["ours"] > 0 and row["ratio_low"] <= row["ratio"] <= row["ratio_high"]
    assert main(["bench", "--against", "no-such-revision"]) == 1
    assert "no such revision" in capsys.readouterr().err


def test_instructions_are_counted_only_against_a_revision(capsys):
    # (the count itself runs four processes under valgrind: measured by hand, not here)
    assert main(["bench", "--instructions", "--game", "connect4"]) == 2
    assert "--instructions counts with --against REV" in capsys.readouterr().err


def test_counted_processes_start_from_a_fixed_seed(tmp_path):
    # bench --against --instructions preloads a library that answers LuaJIT's getrandom
    # syscall from NOMV_FIXED_RANDOM (a process then compiles a game the same way every time):
    # the same seed gives the same bytes in two processes, another seed others.
    import os
    import subprocess
    import sys

    from nomv import against
    fixed = against.fixed_start(tmp_path)
    if fixed is None or os.uname().machine != "x86_64":
        pytest.skip("no fixed start here (C compiler, setarch), or not x86-64 (getrandom is syscall 318 there)")
    probe = ("import ctypes, sys; b = ctypes.create_string_buffer(16); "
             "n = ctypes.CDLL(None, use_errno=True).syscall(318, b, 16, 0); print(n, b.raw.hex())")
    def draw(seed: int) -> str:
        env = dict(os.environ, LD_PRELOAD=fixed[-1], NOMV_FIXED_RANDOM=str(seed))
        return subprocess.run([*fixed[:-1], sys.executable, "-c", probe], env=env, capture_output=True,
                              text=True, check=True).stdout
    assert draw(3) == draw(3) != draw(4)
    assert draw(3).startswith("16 ")
