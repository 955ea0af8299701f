"""``nomv bench``: figures, never assertions.  Random playouts/s and moves generated/s of every
bundled game (and its variants) on both runtimes, perft speed, the computer player's MCTS
iterations/s, the window's frame time, and,
with ``--compare openspiel``, OpenSpiel's random playouts of the classic games in the same run.

Each section of the report is one function registered with :func:`section`: it takes the
:class:`Bench` settings and returns rows (dicts), which become a table in the text report and a
list under the section's name in ``--json``.  Adding a section is writing one such function::

    @section("MCTS iterations/s")
    def mcts_rows(bench: Bench) -> list[dict]:
        ...

Aims (issue 6) are checked against the figures at the end of the report, by functions
registered with :func:`aim`.
"""
from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from typing import Any, Callable

from pathlib import Path

from . import catalog
from .game import Game, PlayoutStats
from .worker import cpu_seconds

RUNTIMES = ("jit", "5.4")
RUNTIME_LABEL = {"jit": "LuaJIT", "5.4": "Lua 5.4"}
CLASSICS = ("tictactoe", "connect4", "hex", "breakthrough")
SEED_GAMES = ("trinim", "3verse", "nipple", "nonads", "nibble")
#: Classics written for speed rather than reading, kept out of games/ (whose tictactoe.lua is the
#: tutorial's plain one): the playouts section measures both, and the comparisons with Ludii and
#: OpenSpiel and the perft figures use these.
TUNED = {"tictactoe": Path(__file__).parent / "tuned" / "tictactoe.lua"}
TUNED_LABEL = "{} (tuned)"


def script_for(name: str) -> str:
    """The script that speed comparisons of `name` measure: the tuned one if there is one."""
    return str(TUNED[name]) if name in TUNED else name


#: The plain scripts (written as the docs teach, without tricks) and the share of OpenSpiel's
#: random games/s each should reach in the same run (issue 19's aims).
PLAIN = {"othello": 1.0, "amazons": 0.5}

#: Uniformly random playouts/s of Ludii 1.0.8 on the project's 2-core machine, as measured for
#: issue 6 (Ludii is not run here: these are the issue's figures, the aims are twice them).
LUDII = {"tictactoe": 200_000, "connect4": 16_800, "hex": 5_000, "breakthrough": 831}


@dataclass
class Bench:
    """What to measure: seconds per measurement, which games (all when empty), whether to
    open the window, what to compare with, and where to say what is being measured."""

    seconds: float = 1.0
    games: list[str] | None = None          # bundled games by name, or any script by its path
    gui: bool = True
    compare: list[str] = field(default_factory=list)
    progress: Callable[[str], None] = lambda text: None

    def wants(self, name: str) -> bool:
        return not self.games or name in self.games


@dataclass
class Section:
    key: str                                 # the section's name in --json
    title: str
    measure: Callable[[Bench], list[dict]]
    labels: dict[str, str]                   # column headers for the text table
    when: Callable[[Bench], bool]            # whether this run measures it


SECTIONS: list[Section] = []


def section(title: str, labels: dict[str, str] | None = None,
            when: Callable[[Bench], bool] = lambda bench: True, key: str | None = None):
    """Registers a function ``f(bench) -> rows`` as a section of the report, keyed by `key` (by
    default the function's name without ``_rows``); ``labels`` names columns in the text table
    (default: the keys); ``when(bench)`` says whether a run measures it."""
    def register(measure: Callable[[Bench], list[dict]]):
        name = key or measure.__name__.removesuffix("_rows")
        SECTIONS[:] = [s for s in SECTIONS if s.key != name]
        SECTIONS.append(Section(name, title, measure, labels or {}, when))
        return measure
    return register


AIMS: list[Callable[[dict], list[dict]]] = []


def aim(check: Callable[[dict], list[dict]]):
    """Registers ``check(result) -> rows`` of {aim, measured, target, met} for the report's end."""
    AIMS.append(check)
    return check


# -- measuring ----------------------------------------------------------------------------------

def rate(call: Callable[[int, int], PlayoutStats], seconds: float,
         clock: Callable[[], float] = time.process_time) -> tuple[int, float, int, int]:
    """Calls ``call(n, seed)`` (random games inside Lua) with growing n until `seconds` of CPU
    time have passed (``clock``: the CPU time of the process that runs the games); returns the
    games, the CPU seconds, the plies and the moves listed."""
    n, games, plies, moves, start = 50, 0, 0, 0, clock()
    while clock() - start < seconds:
        stats = call(n, games)
        games, plies, moves = games + stats.games, plies + stats.plies, moves + stats.moves
        n = min(n * 2, 20000)
    return games, clock() - start, plies, moves


def is_path(name: str) -> bool:
    """Whether a --game names a script by its path rather than a bundled game by its name."""
    return name.endswith(".lua") or "/" in name or os.sep in name


def load(name: str, lua: str) -> Game:
    """A game to measure.  A bundled script runs in this process: its speed is then this
    process's CPU time, which other programs busy on the machine change far less than the time
    on the clock.  Any other script runs in a worker process, which is stopped if the script
    hangs (a loop LuaJIT compiled cannot be stopped in this process); its speed is then the CPU
    time of that process (:func:`cpu_clock`)."""
    if is_path(name) and catalog.find(name).origin != "bundled":
        return Game.load(name, runtime=lua)
    return Game.load(name, runtime=lua, isolate=False)


def cpu_clock(game: Game) -> Callable[[], float]:
    """The CPU time of the process that runs ``game``'s script (this one, or its worker's)."""
    if not game.isolated:
        return time.process_time
    engine: Any = game.engine

    def worker_time() -> float:
        pid = engine.process_id
        return cpu_seconds(pid, time.process_time()) if pid else time.process_time()
    return worker_time


def measured(bench: Bench) -> list[catalog.Found]:
    """The bundled games the run asks for (every one when it names none), then the scripts it
    names by their path."""
    found = [f for f in catalog.all_games() if f.origin == "bundled" and bench.wants(f.name)]
    return found + [catalog.find(name) for name in bench.games or () if is_path(name)]


@section("Random playouts (games/s) and move generation (legal moves listed/s)", key="playouts",
         labels={"jit": "LuaJIT games/s", "5.4": "Lua 5.4 games/s", "length": "plies",
                 "jit_moves": "LuaJIT moves/s", "5.4_moves": "Lua 5.4 moves/s",
                 "branching": "moves/ply"})
def playout_rows(bench: Bench) -> list[dict]:
    """Per game and variant: random games/s (random_move when the game has one), and moves
    generated/s: random games whose every move comes from the full list of legal moves."""
    rows = []
    order = ["jit", "5.4", "length", "jit_moves", "5.4_moves", "branching"]
    for found in measured(bench):
        for variant in [None] + load(str(found.path), "jit").variants:
            figures = {}
            for lua in RUNTIMES:
                bench.progress(f"{found.name}{' ' + variant if variant else ''} on {lua}")
                figures.update(_random_game_figures(load(str(found.path), lua), variant, lua,
                                                    bench.seconds))
            rows.append({"game": found.name, "variant": variant or "", **{k: figures[k] for k in order}})
    for name, path in TUNED.items():
        if bench.wants(name):
            figures = {}
            for lua in RUNTIMES:
                bench.progress(f"{name} (tuned) on {lua}")
                figures.update(_random_game_figures(load(str(path), lua), None, lua, bench.seconds))
            rows.append({"game": TUNED_LABEL.format(name), "variant": "",
                         **{k: figures[k] for k in order}})
    return rows


def _random_game_figures(game: Game, variant: str | None, lua: str, seconds: float) -> dict:
    played = lambda n, seed: game.playout(n, seed=seed, variant=variant)        # noqa: E731
    listed = lambda n, seed: game.move_generation(n, seed=seed, variant=variant)  # noqa: E731
    clock = cpu_clock(game)
    rate(played, seconds / 10, clock)                         # warm up: LuaJIT compiles
    rate(listed, seconds / 20, clock)
    games, took, plies, _ = rate(played, seconds, clock)
    out = {lua: round(games / took, 1), "length": round(plies / games, 1)}
    _, took, plies, moves = rate(listed, seconds / 2, clock)
    out[f"{lua}_moves"] = round(moves / took)
    out["branching"] = round(moves / max(plies, 1), 1)
    return out


#: Perft cases: (game, options, depth); the classics' counts are known (tests/test_classics.py).
PERFT: list[tuple[str, dict[str, Any], int]] = [
    ("tictactoe", {}, 9), ("connect4", {}, 7), ("hex", {}, 3), ("breakthrough", {}, 4),
    ("trinim", {"layout": "b/bb/bgr/grgg/rbgrr"}, 3), ("3verse", {}, 2), ("nipple", {"size": 3}, 3)]


@section("Perft", labels={"leaves_per_second": "leaves/s"})
def perft_rows(bench: Bench) -> list[dict]:
    rows = []
    for name, options, depth in PERFT:
        if not bench.wants(name):
            continue
        for lua in RUNTIMES:
            bench.progress(f"perft {name} on {lua}")
            pos = load(script_for(name), lua).start(options=options, seed=0)
            t0 = time.process_time()
            nodes = pos.perft(depth)
            elapsed = time.process_time() - t0
            label = TUNED_LABEL.format(name) if name in TUNED else name
            rows.append({"game": label, "depth": depth, "runtime": lua, "count": nodes,
                         "seconds": round(elapsed, 3), "leaves_per_second": round(nodes / elapsed)})
    return rows


@section("MCTS iterations/s (the computer player, at the first choice of a game)", key="mcts",
         labels={"jit": "LuaJIT it/s", "5.4": "Lua 5.4 it/s", "mode": "tree"})
def mcts_rows(bench: Bench) -> list[dict]:
    """Per game (default options): iterations per second of the computer player's search from
    the first position with more than one move, each iteration a walk down the tree, one new node and one random
    game.  "open": the tree of hidden information or chance (a new determinisation each time)."""
    from .ai import MctsAgent
    rows = []
    for found in measured(bench):
        row: dict = {"game": found.name}
        mode = ""
        for lua in RUNTIMES:
            bench.progress(f"MCTS {found.name} on {lua}")
            pos = load(str(found.path), lua).start(seed=1)
            while len(pos.legal_moves) == 1:          # a lone move is played without a search
                pos.play(pos.legal_moves[0])
            MctsAgent(seconds=bench.seconds / 10, seed=1).choose(pos)      # warm up: LuaJIT compiles
            agent = MctsAgent(seconds=bench.seconds, seed=2)
            agent.choose(pos)
            assert agent.last is not None, "a position with more than one move is searched"
            row[lua] = round(agent.last["iterations"] / agent.last["seconds"])
            mode = agent.last["mode"]
        rows.append({**row, "mode": mode})
    return rows


@section("GUI frame time (ms)", when=lambda bench: bench.gui, key="frames")
def frame_rows(bench: Bench) -> list[dict]:
    from .gui.app import measure_frame_times
    rows = []
    for name, options in (("nibble", None), ("3verse", None), ("nibble", {"colours": 13})):
        if not bench.wants(name):
            continue
        bench.progress(f"frames {name}")
        times = measure_frame_times(name, options=options)
        rows.append({"game": name + (" 13 colours" if options else ""), **times})
    return rows


@section("nomv against OpenSpiel: random playouts of the same rules, interleaved in one run",
         labels={"openspiel_game": "OpenSpiel's", "nomv": "nomv games/s",
                 "openspiel": "OpenSpiel games/s", "ratio": "ratio", "nomv_length": "nomv plies",
                 "openspiel_length": "OpenSpiel plies", "nomv_games": "nomv games",
                 "openspiel_games": "OpenSpiel games"},
         when=lambda bench: "openspiel" in bench.compare)
def openspiel_rows(bench: Bench) -> list[dict]:
    """The classic scripts on LuaJIT against OpenSpiel's C++ games driven from Python (random
    choice over legal_actions(), the way it is used from Python).  The time budget is cut into
    slices that alternate between the two, so both see the same machine at the same moments."""
    from . import openspiel
    openspiel.pyspiel()                       # a clear error now if it is not installed
    rows = []
    for name in openspiel.CLASSICS:
        if not bench.wants(name):
            continue
        bench.progress(f"{name} against OpenSpiel {openspiel.CLASSICS[name][0]}")
        theirs = openspiel.RandomPlayer(name, seed=1)
        game = load(script_for(name), "jit")
        ours, their_games = [0, 0.0, 0], openspiel.Playouts()
        # Warm up both (LuaJIT compiles), then alternate slices of about equal time.
        rate(game.playout, bench.seconds / 10)
        theirs.play_for(bench.seconds / 20)
        slices = max(4, round(bench.seconds / 0.25))
        n = 100
        for k in range(slices):
            t0 = time.process_time()
            stats = game.playout(n, seed=k)
            took = time.process_time() - t0
            ours[0], ours[1], ours[2] = ours[0] + stats.games, ours[1] + took, ours[2] + stats.plies
            n = max(10, min(1_000_000, round(stats.games / max(took, 1e-6) * bench.seconds / slices)))
            theirs.play_for(bench.seconds / slices, their_games)
        ours_rate = ours[0] / ours[1]
        rows.append({"game": name, "openspiel_game": theirs.name,
                     "nomv": round(ours_rate), "openspiel": round(their_games.games_per_second),
                     "ratio": round(ours_rate / their_games.games_per_second, 2),
                     "nomv_length": round(ours[2] / ours[0], 1),
                     "openspiel_length": round(their_games.average_length, 1),
                     "nomv_games": ours[0], "openspiel_games": their_games.games})
    return rows


# -- aims (issue 6) -----------------------------------------------------------------------------

def _playouts(result: dict, name: str, lua: str = "jit") -> float | None:
    for row in result.get("playouts", []):
        if row["game"] == name and not row["variant"]:
            return row[lua]
    return None


@aim
def playout_aims(result: dict) -> list[dict]:
    rows = []
    for name in CLASSICS:
        ours = _playouts(result, TUNED_LABEL.format(name) if name in TUNED else name)
        if ours is not None:
            rows.append({"aim": f"{name}: 2x Ludii's random playouts/s (LuaJIT)",
                         "measured": round(ours), "target": 2 * LUDII[name], "met": ours >= 2 * LUDII[name]})
    for row in result.get("openspiel", []):
        target = PLAIN.get(row["game"], 5)
        what = "a plain script" if row["game"] in PLAIN else "tuned"
        rows.append({"aim": f"{row['game']} ({what}): {target:g}x OpenSpiel's in the same run",
                     "measured": row["ratio"], "target": target, "met": row["ratio"] >= target})
    for name in SEED_GAMES:
        ours = _playouts(result, name)
        if ours is not None:
            rows.append({"aim": f"{name}: 5k random playouts/s (LuaJIT)",
                         "measured": round(ours), "target": 5000, "met": ours >= 5000})
    return rows


@aim
def mcts_aims(result: dict) -> list[dict]:
    out = []
    for row in result.get("mcts", []):
        if row["game"] == "trinim":
            out.append({"aim": "trinim: 20k MCTS iterations/s (LuaJIT)", "measured": row["jit"],
                        "target": 20_000, "met": row["jit"] >= 20_000})
        if row["game"] == "3verse":
            out.append({"aim": "3verse (hundreds of moves a node): 10k MCTS iterations/s (LuaJIT)",
                        "measured": row["jit"], "target": 10_000, "met": row["jit"] >= 10_000})
    return out


# -- the report ---------------------------------------------------------------------------------

def run(seconds: float = 1.0, games: list[str] | None = None, gui: bool = True,
        progress: Callable[[str], None] = lambda s: None, compare: list[str] | None = None) -> dict:
    """Every section this run asks for, by its key; then "aims"."""
    bench = Bench(seconds, games, gui, list(compare or []), progress)
    result = {s.key: s.measure(bench) for s in SECTIONS if s.when(bench)}
    result["aims"] = [row for check in AIMS for row in check(result)]
    return result


def _cell(value) -> str:
    if isinstance(value, bool):
        return "yes" if value else "NO"
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, float):
        return f"{value:,.0f}" if abs(value) >= 1000 else f"{value:g}"
    return str(value)


def table(rows: list[dict], labels: dict[str, str] | None = None) -> list[str]:
    """Rows of dicts as aligned text: text columns to the left, numbers to the right."""
    if not rows:
        return ["(nothing measured)"]
    labels = labels or {}
    keys = list(dict.fromkeys(k for row in rows for k in row))
    cells = [[_cell(row.get(k, "")) for k in keys] for row in rows]
    heads = [labels.get(k, k) for k in keys]
    widths = [max(len(h), *(len(c[i]) for c in cells)) for i, h in enumerate(heads)]
    numeric = [all(isinstance(row.get(k), (int, float)) and not isinstance(row.get(k), bool)
                   for row in rows if k in row) for k in keys]

    def line(values):
        return "  ".join(v.rjust(w) if num else v.ljust(w)
                         for v, w, num in zip(values, widths, numeric)).rstrip()
    return [line(heads)] + [line(c) for c in cells]


def format_table(result: dict) -> str:
    lines: list[str | None] = []   # None: no blank line before the first section
    for s in SECTIONS:
        if s.key in result:
            lines += ["" if lines else None, s.title, *table(result[s.key], s.labels)]
    if result.get("aims"):
        lines += ["", "Speed aims (docs/architecture.md)"] + table(result["aims"])
    return "\n".join(line for line in lines if line is not None)
