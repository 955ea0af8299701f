"""Shared fixtures.  Every test that takes `lua` runs once under LuaJIT and once under Lua 5.4."""
from __future__ import annotations

from pathlib import Path

import pytest

from nomv import catalog

RUNTIMES = ("jit", "5.4")
SCRIPTS = Path(__file__).parent / "scripts"


def pytest_generate_tests(metafunc):
    if "lua" in metafunc.fixturenames:
        metafunc.parametrize("lua", RUNTIMES)


#: The files that take longest, longest first (measured whole-suite runs).  pytest-xdist's
#: --dist loadfile hands whole files to its processes in the order collected: a long file handed
#: out last keeps one process busy while the other has finished, and CI waits for it.
LONGEST_FIRST = ("test_server_api", "test_server_scale", "test_server_floods", "test_server_play",
                 "test_browser", "test_server_defences", "test_classics", "test_3verse", "test_pages",
                 "test_worker", "test_ai", "test_lab", "test_nonads", "test_nipple", "test_cli",
                 "test_nibble", "test_window", "test_gui", "test_checker", "test_hardening")


def pytest_collection_modifyitems(items):
    rank = {name: k for k, name in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.stem, len(rank)))   # (stable: files stay whole)


@pytest.fixture(autouse=True)
def _isolated_user_dir(tmp_path_factory, monkeypatch):
    # Tests must not pick up (or write) games in the developer's own folders.
    home = tmp_path_factory.mktemp("xdg")
    monkeypatch.setenv("XDG_DATA_HOME", str(home))
    monkeypatch.setenv("XDG_CACHE_HOME", str(home / "cache"))   # (nomv check's kept reports)
    monkeypatch.delenv("NOMV_PATH", raising=False)
    # `nomv play` in window mode sets runtime and limit defaults for its process: clear them.
    for var in ("NOMV_LUA", "NOMV_TIME_LIMIT", "NOMV_MEMORY_MB"):
        monkeypatch.delenv(var, raising=False)


#: Modules that test the rules of games through many small calls run their scripts in this
#: process: a round trip to a worker costs ~50-300 us against ~4 us, and the rules do not depend on
#: where the script runs.  Everything else (API, GUI, CLI, checker, records, hostile scripts) uses
#: worker processes as users do, and tests/test_worker.py checks that both give the same games.
IN_PROCESS = {"test_every_game", "test_3verse", "test_nibble", "test_nipple", "test_nonads", "test_trinim", "test_plain_games",
              "test_classics", "test_contract", "test_library"}


@pytest.fixture(autouse=True)
def _in_process_for_rule_tests(request, monkeypatch):
    if request.module.__name__.rsplit(".", 1)[-1] in IN_PROCESS:
        monkeypatch.setenv("NOMV_ISOLATE", "0")


def bundled_games() -> list[str]:
    return [f.name for f in catalog.all_games() if f.origin == "bundled"]


def write_script(tmp_path: Path, body: str, name: str = "game.lua") -> Path:
    path = tmp_path / name
    path.write_text(body, encoding="utf-8")
    return path


@pytest.fixture
def script(tmp_path):
    """script(body) -> path of a new .lua file holding body."""
    return lambda body, name="game.lua": write_script(tmp_path, body, name)


def node_test(name: str, what: str) -> None:
    """Runs tests/js/<name> with node's test runner (the browser's JavaScript against the cases
    the Python passes too); fails, naming ``what`` cannot be tested, when node is missing."""
    import shutil
    import subprocess
    node = shutil.which("node")
    if node is None:
        pytest.fail(f"node is not installed: {what} cannot be tested (apt-get install nodejs)")
    test = Path(__file__).parent / "js" / name
    run = subprocess.run([node, "--test", str(test)], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr


# A minimal valid game, for tests that need one to change.
MINIMAL = """
local g = nomv.grid.square(3, 1)
return {
  name = "minimal",
  setup = function(opts, rng) return {board = {0, 0, 0}, to_move = 1} end,
  moves = function(s)
    local out = {}
    for i = 1, 3 do if s.board[i] == 0 then out[#out + 1] = {g.ids[i]} end end
    return out
  end,
  play = function(s, m)
    local b = nomv.copy(s.board)
    b[g:at(m[1])] = s.to_move
    return {board = b, to_move = 3 - s.to_move}
  end,
  result = function(s)
    for i = 1, 3 do if s.board[i] == 0 then return nil end end
    return {winner = 1}
  end,
}
"""


@pytest.fixture(scope="session")
def postgres():
    """A PostgreSQL cluster started for this test session (tests/serverlib.py)."""
    from serverlib import postgres_or_skip
    cluster = postgres_or_skip()
    yield cluster
    cluster.stop()
