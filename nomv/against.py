"""``nomv bench --against REV``: the bundled games' random playouts under another revision of
nomv, side by side with this one, so that a change to the host or the library is measured
before it is merged (docs/architecture.md).

The revision is taken from the git repository this nomv runs from (``git archive``) and
installed with pip into a temporary virtual environment of the same Python, with the same
version of lupa as this one (so both sides run the same LuaJIT and Lua 5.4): nothing is fetched
but from the package registry.  Then one process of each side plays, in turn, random games of
each game for ``seconds`` of its own CPU time in a fresh runtime (after a tenth of that to warm
up: LuaJIT compiles), the two sides alternating which goes first from one round to the next.
The figures are medians over the rounds, and the ratio is the median of each round's ratio
(this tree / REV), which a machine busy with other work disturbs least.  Each side plays its own
bundled script of a game, or the script its ``nomv bench`` measures for speed where it has one
(the tuned tic-tac-toe of nomv/tuned/, which was the bundled one before); a game that REV does
not have is reported as missing; a script given by its path is played by both.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
from dataclasses import dataclass, field
from io import BytesIO
from pathlib import Path
from typing import Any, Callable

from .errors import NomvError

#: What each side runs: reads one request a line ({"game", "lua", "seconds"}), answers one JSON
#: line.  Written for any revision's public API: Game.load(...).playout(n, seed=...).
DRIVER = r'''
import json, os, sys, time
os.environ["NOMV_ISOLATE"] = "0"
from pathlib import Path
import nomv
from nomv.game import Game

def script(name):
    if name.endswith(".lua"):
        return name, False
    try:                       # the script nomv bench measures for speed (a tuned tic-tac-toe)
        from nomv.bench import TUNED
        if name in TUNED:
            return str(TUNED[name]), True
    except Exception:
        pass
    package = Path(nomv.__file__).resolve().parent
    for folder in (package / "games", package.parent / "games"):
        if (folder / (name + ".lua")).is_file():
            return str(folder / (name + ".lua")), False
    return None, False

def load(path, lua):
    try:
        return Game.load(path, runtime=lua, isolate=False)
    except TypeError:
        return Game.load(path, runtime=lua)

if len(sys.argv) > 1:          # one run, for a count of instructions: GAME LUA N (N random games)
    path, _ = script(sys.argv[1])
    game, left, seed = load(path, sys.argv[2]), int(sys.argv[3]), 0
    while left > 0:
        seed += game.playout(min(left, 20000), seed=seed).games
        left = int(sys.argv[3]) - seed
    sys.exit(0)

def rate(game, budget):
    n, games, plies, start = 50, 0, 0, time.process_time()
    while time.process_time() - start < budget:
        stats = game.playout(n, seed=games)
        games, plies = games + stats.games, plies + stats.plies
        n = min(n * 2, 20000)
    return games, time.process_time() - start, plies

for line in sys.stdin:
    request = json.loads(line)
    try:
        path, tuned = script(request["game"])
        if path is None:
            reply = {"missing": True}
        else:
            game = load(path, request["lua"])
            rate(game, request["seconds"] / 10)
            games, took, plies = rate(game, request["seconds"])
            reply = {"games_per_second": games / took, "plies": plies / max(games, 1), "tuned": tuned}
    except Exception as exc:
        reply = {"error": type(exc).__name__ + ": " + str(exc)}
    print(json.dumps(reply), flush=True)
'''


#: The time limit of a call (seconds of CPU) while counting instructions under valgrind.
UNDER_VALGRIND_TIME_LIMIT = 3600

#: A library preloaded into the counted processes: `syscall(SYS_getrandom, ...)`, where LuaJIT
#: seeds the generator behind its trace compiler's retry penalties and its string hashes, answers
#: bytes drawn from NOMV_FIXED_RANDOM instead of the system's.  With that, address randomisation
#: turned off (setarch -R) and PYTHONHASHSEED fixed, a process compiles a game the same way
#: every time; otherwise two processes of the same tree can differ by 2x in instructions a game
#: (Breakthrough: 129k to 290k), and the n and 3n runs subtracted would each compile their own way.
FIXED_RANDOM_C = r"""
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdarg.h>
#include <stdlib.h>
#include <sys/syscall.h>
long syscall(long number, ...) {
    va_list ap; long a[6]; int i;
    va_start(ap, number);
    for (i = 0; i < 6; i++) a[i] = va_arg(ap, long);
    va_end(ap);
    if (number == SYS_getrandom) {
        const char *seed = getenv("NOMV_FIXED_RANDOM");
        unsigned long long x = 0x9e3779b97f4a7c15ULL * (unsigned long long)((seed ? atoll(seed) : 0) + 1);
        unsigned char *out = (unsigned char *)a[0];
        unsigned long n = (unsigned long)a[1], k;
        for (k = 0; k < n; k++) { x ^= x << 13; x ^= x >> 7; x ^= x << 17; out[k] = (unsigned char)x; }
        return (long)n;
    }
    return ((long (*)(long, ...))dlsym(RTLD_NEXT, "syscall"))(number, a[0], a[1], a[2], a[3], a[4], a[5]);
}
"""


def fixed_start(where: Path) -> list[str] | None:
    """The command prefix and the preloaded library that make a counted process compile the same
    way every time (see FIXED_RANDOM_C), as [prefix..., library]; None where that cannot be had
    (no C compiler, no setarch, not Linux): the counts then vary from process to process."""
    cc, setarch = shutil.which("cc") or shutil.which("gcc"), shutil.which("setarch")
    if not sys.platform.startswith("linux") or cc is None or setarch is None:
        return None
    source, library = where / "fixed_random.c", where / "fixed_random.so"
    source.write_text(FIXED_RANDOM_C)
    built = subprocess.run([cc, "-O2", "-shared", "-fPIC", "-o", str(library), str(source), "-ldl"],
                           capture_output=True, text=True)
    if built.returncode != 0 or subprocess.run([setarch, os.uname().machine, "-R", "true"],
                                               capture_output=True).returncode != 0:
        return None
    return [setarch, os.uname().machine, "-R", str(library)]


def repository() -> Path:
    """The git work tree this nomv runs from."""
    here = Path(__file__).resolve().parent.parent
    try:
        out = subprocess.run(["git", "-C", str(here), "rev-parse", "--show-toplevel"],
                             capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        raise NomvError("nomv bench --against needs nomv run from a git checkout (pip install -e .), "
                        f"and git; {here} is not one") from None
    return Path(out)


def resolve(rev: str, repo: Path) -> str:
    """The commit a revision names, or a NomvError saying it names none."""
    try:
        return subprocess.run(["git", "-C", str(repo), "rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}"],
                              capture_output=True, text=True, check=True).stdout.strip()
    except subprocess.CalledProcessError:
        raise NomvError(f"--against {rev!r}: no such revision in {repo}") from None


def _lupa_version() -> str:
    from importlib.metadata import version
    return version("lupa")


def install(commit: str, repo: Path, where: Path, progress: Callable[[str], None]) -> Path:
    """Installs the revision into a new virtual environment under `where`; returns its Python."""
    source = where / "src"
    source.mkdir()
    archive = subprocess.run(["git", "-C", str(repo), "archive", "--format=tar", commit],
                             capture_output=True, check=True).stdout
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        if hasattr(tarfile, "data_filter"):
            tar.extractall(source, filter="data")
        else:                                   # (Python before 3.10.12 and 3.11.4: our own archive)
            tar.extractall(source)
    progress(f"installing {commit[:10]} in a temporary environment")
    env_dir = where / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(env_dir)], check=True, capture_output=True)
    python = env_dir / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    done = subprocess.run([str(python), "-m", "pip", "install", "--quiet", "--no-deps", str(source),
                           f"lupa=={_lupa_version()}"], capture_output=True, text=True)
    if done.returncode != 0:
        tail = "\n".join((done.stderr or done.stdout).strip().splitlines()[-5:])
        raise NomvError(f"could not install {commit[:10]} in a temporary environment:\n{tail}")
    return python


def _environment(cwd: Path, pythonpath: str | None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "NOMV_PATH", "NOMV_LUA", "NOMV_ISOLATE", "PYTHONHOME")}
    env["XDG_DATA_HOME"] = str(cwd / "data")          # no user's games shadow the bundled ones
    if pythonpath:
        env["PYTHONPATH"] = pythonpath
    return env


class Side:
    """One revision's process, answering measurements one at a time."""

    def __init__(self, label: str, python: Path | str, cwd: Path, pythonpath: str | None):
        self.label, self.python, self.cwd, self.pythonpath = label, python, cwd, pythonpath
        self.process = subprocess.Popen([str(python), "-c", DRIVER], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                        cwd=str(cwd), env=_environment(cwd, pythonpath))

    def instructions(self, game: str, lua: str, games: int, fixed: list[str] | None = None,
                     seed: int = 0) -> int:
        """The instructions a process of this side executes to load `game` and play `games`
        random games of it (valgrind's count: the same on a busy machine as on a quiet one).
        With `fixed` (from fixed_start), the process starts from `seed` instead of the
        system's randomness, and the count is the same every time."""
        valgrind = shutil.which("valgrind")
        if valgrind is None:
            raise NomvError("--instructions needs valgrind (apt-get install valgrind)")
        # Valgrind runs a program some fifty times slower, so a batch of random games that
        # takes a second natively would run over the time limit of a call (3verse did): the
        # limit is raised far out of reach, on both sides alike (the hook that watches it stays).
        env = _environment(self.cwd, self.pythonpath)
        env["NOMV_TIME_LIMIT"] = str(UNDER_VALGRIND_TIME_LIMIT)
        prefix: list[str] = []
        if fixed:
            prefix = fixed[:-1]
            env.update(LD_PRELOAD=fixed[-1], NOMV_FIXED_RANDOM=str(seed), PYTHONHASHSEED=str(seed))
        done = subprocess.run([*prefix, valgrind, "--tool=cachegrind", "--cache-sim=no",
                               "--cachegrind-out-file=/dev/null",
                               str(self.python), "-c", DRIVER, game, lua, str(games)],
                              capture_output=True, text=True, cwd=str(self.cwd), env=env)
        found = re.search(r"I\s+refs:\s+([\d,]+)", done.stderr)
        if done.returncode != 0 or not found:
            raise NomvError(f"the {self.label} side could not play {game} under valgrind: "
                            f"{done.stderr.strip()[-500:]}")
        return int(found.group(1).replace(",", ""))

    def measure(self, game: str, lua: str, seconds: float) -> dict[str, Any]:
        assert self.process.stdin is not None and self.process.stdout is not None
        try:
            self.process.stdin.write(json.dumps({"game": game, "lua": lua, "seconds": seconds}) + "\n")
            self.process.stdin.flush()
            line = self.process.stdout.readline()
        except (BrokenPipeError, OSError):
            line = ""
        if not line:
            err = self.process.stderr.read() if self.process.stderr else ""
            raise NomvError(f"the {self.label} side stopped: {err.strip()[-500:]}")
        reply: dict[str, Any] = json.loads(line)
        return reply

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()


@dataclass
class Row:
    game: str
    tuned: bool = False          # this tree measured the tuned script of the game (nomv/tuned/)
    base: list[float] = field(default_factory=list)
    ours: list[float] = field(default_factory=list)
    note: str = ""

    @property
    def ratios(self) -> list[float]:
        return [o / b for b, o in zip(self.base, self.ours) if b > 0]

    def to_json(self, rev: str) -> dict[str, Any]:
        out: dict[str, Any] = {"game": self.game}
        if self.tuned:
            out["tuned"] = True
        if self.note:
            out["note"] = self.note
        if self.base and self.ours:
            out.update({"base": round(statistics.median(self.base), 1), "ours": round(statistics.median(self.ours), 1),
                        "ratio": round(statistics.median(self.ratios), 3),
                        "ratio_low": round(min(self.ratios), 3), "ratio_high": round(max(self.ratios), 3),
                        "base_runs": [round(x, 1) for x in self.base], "ours_runs": [round(x, 1) for x in self.ours]})
        return out


def run(rev: str, games: list[str], lua: str = "jit", seconds: float = 1.0, rounds: int = 5,
        progress: Callable[[str], None] = lambda text: None, instructions: bool = False) -> dict[str, Any]:
    """Measures `games` (bundled names, or paths) under `rev` and this tree, side by side: their
    CPU time, or with `instructions` the instructions a random game takes (valgrind)."""
    repo = repository()
    commit = resolve(rev, repo)
    where = Path(tempfile.mkdtemp(prefix="nomv-against-"))
    sides: list[Side] = []
    try:
        (where / "data").mkdir()
        python = install(commit, repo, where, progress)
        ours_path = str(Path(__file__).resolve().parent.parent)
        base, ours = Side(rev, python, where, None), Side("this tree", sys.executable, where, ours_path)
        sides = [base, ours]
        if instructions:
            fixed = fixed_start(where)
            return {"against": rev, "commit": commit, "runtime": lua, "instructions": True,
                    "rounds": rounds, "fixed_start": fixed is not None,
                    "games": [_count(base, ours, g, lua, progress, rounds, fixed) for g in games]}
        rows = [Row(g) for g in games]
        for r in range(rounds):
            order = (base, ours) if r % 2 == 0 else (ours, base)
            for row in rows:
                if row.note:
                    continue
                progress(f"round {r + 1} of {rounds}: {Path(row.game).name}")
                got = {side.label: side.measure(row.game, lua, seconds) for side in order}
                b, o = got[base.label], got[ours.label]
                if b.get("missing") or o.get("missing"):
                    row.note = f"not in {rev}" if b.get("missing") else "not in this tree"
                elif "error" in b or "error" in o:
                    row.note = f"error: {b.get('error') or o.get('error')}"
                else:
                    row.tuned = bool(o.get("tuned"))
                    row.base.append(b["games_per_second"])
                    row.ours.append(o["games_per_second"])
        return {"against": rev, "commit": commit, "runtime": lua, "rounds": rounds, "seconds": seconds,
                "games": [row.to_json(rev) for row in rows]}
    finally:
        for side in sides:
            side.close()
        shutil.rmtree(where, ignore_errors=True)


def _count(base: Side, ours: Side, game: str, lua: str, progress: Callable[[str], None],
           rounds: int = 1, fixed: list[str] | None = None) -> dict[str, Any]:
    """Instructions a random game of `game` takes on each side: two processes a side, playing n
    and 3n random games (the same games on both sides, from the same seeds), whose difference
    is 2n games without the start (Python, nomv, the script) or LuaJIT's first compiling.  They
    run as many at once as there are cores (up to four): counts do not depend on the machine's
    load, only the wall time does.  With `fixed`, round r starts every process from seed r (so
    the n and 3n runs compile alike, and a round is one way LuaJIT's dice fall); the figures
    are the medians over the rounds."""
    from concurrent.futures import ThreadPoolExecutor
    name = Path(game).name
    probe = ours.measure(game, lua, 0.3)                  # n: about 0.1 s of games natively
    if "games_per_second" not in probe:
        return {"game": game, "note": probe.get("error", "not in this tree")}
    if base.measure(game, lua, 0.02).get("missing"):
        return {"game": game, "note": f"not in {base.label}"}
    n = max(20, min(200_000, round(probe["games_per_second"] * 0.1)))
    progress(f"{name}: {n:,} and {3 * n:,} random games under valgrind, on each side, "
             f"{rounds} round{'s' if rounds != 1 else ''}")
    jobs = [(side, k, r) for r in range(rounds) for side in (base, ours) for k in (n, 3 * n)]
    with ThreadPoolExecutor(max_workers=max(1, min(4, os.cpu_count() or 1))) as pool:
        counts = list(pool.map(lambda job: job[0].instructions(game, lua, job[1], fixed, job[2]), jobs))
    runs: list[list[float]] = [[], []]
    for r in range(rounds):
        c = counts[4 * r:4 * r + 4]
        runs[0].append((c[1] - c[0]) / (2 * n))
        runs[1].append((c[3] - c[2]) / (2 * n))
    per_game = [statistics.median(runs[0]), statistics.median(runs[1])]
    out: dict[str, Any] = {"game": game, "games": n, "base_instructions": round(per_game[0]),
                           "ours_instructions": round(per_game[1])}
    if rounds > 1:
        out["base_runs"] = [round(x) for x in runs[0]]
        out["ours_runs"] = [round(x) for x in runs[1]]
    if probe.get("tuned"):
        out["tuned"] = True
    if per_game[0] > 0 and per_game[1] > 0:
        out["ratio"] = round(per_game[0] / per_game[1], 3)   # above 1: this tree does less work
        ratios = [b / o for b, o in zip(*runs) if b > 0 and o > 0]
        if rounds > 1 and ratios:
            out["ratio_low"], out["ratio_high"] = round(min(ratios), 3), round(max(ratios), 3)
    return out


def format_table(result: dict[str, Any]) -> str:
    from .bench import table
    if result.get("instructions"):
        return _format_instructions(result)
    rev, rt = result["against"], "LuaJIT" if result["runtime"] == "jit" else "Lua 5.4"
    rows = []
    for g in result["games"]:
        if "ratio" in g:
            label = Path(g["game"]).name + (" (tuned)" if g.get("tuned") else "")
            rows.append({"game": label, rev: round(g["base"]), "this tree": round(g["ours"]),
                         "ratio": g["ratio"], "range": f"{g['ratio_low']:.2f}-{g['ratio_high']:.2f}"})
        else:
            rows.append({"game": Path(g["game"]).name, "range": g.get("note", "")})
    head = (f"Random games/s on {rt}, this tree against {rev} ({result['commit'][:10]}), side by side: "
            f"{result['rounds']} rounds of {result['seconds']:g} s of CPU a game and side, alternating; "
            "medians, and the median of each round's ratio")
    low = [g for g in result["games"] if "ratio" in g and g["ratio"] < 0.95]
    tail = (["", "below 0.95x: " + ", ".join(f"{Path(g['game']).name} {g['ratio']:.2f}" for g in low)] if low
            else ["", "no game below 0.95x"])
    return "\n".join([head, *table(rows), *tail])


def _format_instructions(result: dict[str, Any]) -> str:
    from .bench import table
    rev, rt = result["against"], "LuaJIT" if result["runtime"] == "jit" else "Lua 5.4"
    rows = []
    for g in result["games"]:
        label = Path(g["game"]).name + (" (tuned)" if g.get("tuned") else "")
        if "ratio" in g:
            row = {"game": label, f"{rev} instructions": g["base_instructions"],
                   "this tree": g["ours_instructions"], "ratio": g["ratio"], "games": g["games"]}
            if "ratio_low" in g:
                row["range"] = f"{g['ratio_low']:.2f}-{g['ratio_high']:.2f}"
            rows.append(row)
        else:
            rows.append({"game": label, "games": g.get("note", "")})
    rounds = result.get("rounds", 1)
    start = ("each process started from a fixed seed, one seed a round" if result.get("fixed_start")
             else "each process started as the system chose (no C compiler or setarch here), so LuaJIT "
                  "compiles differently from one process to the next")
    head = (f"Instructions a random game takes on {rt}, {rev} ({result['commit'][:10]}) and this tree "
            f"(valgrind; n and 3n random games a side, the difference; {start}"
            + (f"; medians of {rounds} rounds" if rounds > 1 else "")
            + "): ratio above 1, this tree does less")
    low = [g for g in result["games"] if "ratio" in g and g["ratio"] < 0.95]
    tail = (["", "below 0.95x: " + ", ".join(f"{Path(g['game']).name} {g['ratio']:.2f}" for g in low)] if low
            else ["", "no game below 0.95x"])
    return "\n".join([head, *table(rows), *tail])
