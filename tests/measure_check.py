"""Measures `nomv check` on the bundled games under other revisions of nomv and this tree, side
by side in one run (not a test: run it by hand, figures go to docs/checker.md):

    python tests/measure_check.py --against 0e88a0d --against main [--no-tree] [--rounds 1] [GAME ...] [-- CHECK ARGS]
    python tests/measure_check.py --against main --together --rounds 2        # nomv check games/*.lua
    python tests/measure_check.py --against main --found tests/scripts/bad    # what each side finds

Each side is a revision's nomv, taken with ``git archive`` into a temporary folder and run with
this Python and its packages (the same lupa, so the same LuaJIT and Lua 5.4), or this tree
itself (the side ``tree``).  Every side checks the same scripts, this tree's games/ (or the
paths given), with ``nomv check SCRIPT --jobs 1 --json`` and the check arguments given after
``--`` (a revision that refuses today's script at its static checks checks it without the
options' labels, else its own copy of the game, marked so); for each game the sides take turns,
the first side changing from one round to the next, so that a machine that grows busier slows
every side alike.  What is measured is the CPU time
of the whole command, its worker processes included (they are its children: their time comes
back when it waits for them), as the operating system counts it: a busy machine stretches the
wall time, not that.  Printed: a table of CPU seconds per game and side (the median of the
rounds), each side's ratio to the first, the games each tier played and what each side found.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import resource
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from io import BytesIO
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: An option's label in several languages: `label = {en = "size", it = "lato"}, `.
LABEL = re.compile(r'label = \{(?:[a-z]{2} = "[^"]*",? ?)+\},? ?')


def extract(rev: str, where: Path) -> tuple[str, str]:
    """The revision's files under `where`; returns (its short commit, the folder)."""
    commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--verify", f"{rev}^{{commit}}"],
                            capture_output=True, text=True, check=True).stdout.strip()
    folder = where / commit[:10]
    folder.mkdir()
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", commit],
                             capture_output=True, check=True).stdout
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(folder, filter="data") if hasattr(tarfile, "data_filter") else tar.extractall(folder)
    return commit[:10], str(folder)


def run_check(pythonpath: str, script: str | list[str], extra: list[str], cwd: Path) -> dict:
    """One `nomv check` of one script (one at a time), or of several (one per CPU at a time, as
    nomv check does by default): its JSON, and the CPU and wall seconds it took."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "NOMV_PATH", "NOMV_LUA")}
    env["PYTHONPATH"] = pythonpath
    env["XDG_DATA_HOME"] = str(cwd)                      # no user's games
    with tempfile.TemporaryDirectory(dir=cwd) as fresh:
        env["XDG_CACHE_HOME"] = fresh                     # no report kept from an earlier check
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        what = [script, "--jobs", "1"] if isinstance(script, str) else script
        done = subprocess.run([sys.executable, "-m", "nomv", "check", *what, "--json", *extra],
                              capture_output=True, text=True, cwd=str(cwd), env=env)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    try:
        data = json.loads(done.stdout)
    except json.JSONDecodeError:
        data = {"failed": (done.stderr or done.stdout).strip()[-300:]}
    return {"cpu": cpu, "wall": wall, "exit": done.returncode, "json": data}


def refused(data: dict) -> bool:
    """Whether the check stopped at the static checks (no random game played)."""
    scripts = data.get("scripts") or [{}]
    return "failed" in data or (bool(scripts[0].get("errors")) and not scripts[0].get("games"))


def found(data: dict) -> str:
    if "failed" in data:
        return "failed: " + data["failed"]
    codes = [d["code"] for s in data.get("scripts", []) for d in s.get("diagnostics", [])]
    errors = sorted({c for c in codes if c.startswith("E")})
    return ("errors " + ",".join(errors) if errors else "no error") + f", {codes.count('W110')} W110"


def tiers(data: dict) -> str:
    s = (data.get("scripts") or [{}])[0]
    return f"{s.get('games', 0)} + {s.get('fast_games', 0):,}"


def main() -> None:
    argv = sys.argv[1:]
    extra: list[str] = []
    if "--" in argv:
        extra, argv = argv[argv.index("--") + 1:], argv[:argv.index("--")]
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--against", action="append", default=[], metavar="REV",
                    help="a revision to measure beside this tree (repeatable; the first is the base)")
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--no-tree", action="store_true", help="only the revisions given, not this tree")
    ap.add_argument("--found", action="append", default=[], metavar="FOLDER",
                    help="instead: the broken scripts of FOLDER (each naming the code and line it must "
                         "give in a first line '-- expect: CODE LINE'): how many each side finds (a "
                         "script refused at its static checks is not checked again without its labels)")
    ap.add_argument("--together", action="store_true",
                    help="instead: one nomv check of all the scripts (one per CPU at a time) a side and round")
    ap.add_argument("games", nargs="*", help="games of games/ by name, or paths (default: every bundled game)")
    args = ap.parse_args(argv)
    if args.found:
        scripts = sorted(str(p) for folder in args.found for p in Path(folder).resolve().glob("*.lua"))
    else:
        scripts = [str(ROOT / "games" / f"{g}.lua") if not g.endswith(".lua") else str(Path(g).resolve())
                   for g in args.games] or sorted(str(p) for p in (ROOT / "games").glob("*.lua"))
    with tempfile.TemporaryDirectory(prefix="nomv-measure-check-") as tmp:
        where = Path(tmp)
        sides = [extract(rev, where) for rev in args.against] + ([] if args.no_tree else [("tree", str(ROOT))])
        work = where / "run"
        work.mkdir()
        if args.together:
            together(sides, scripts, extra, work, args.rounds)
            return
        rows = []
        for script in scripts:
            runs: dict[str, list[dict]] = {label: [] for label, _ in sides}
            for r in range(args.rounds):
                order = sides[r % len(sides):] + sides[:r % len(sides)]
                for label, path in order:
                    result = run_check(path, script, extra, work)
                    if refused(result["json"]) and not args.found:
                        # An older nomv that refuses today's script: the script without the
                        # options' labels (text in several languages, which it does not know),
                        # else its own copy of the game.
                        bare = work / Path(script).name
                        bare.write_text(LABEL.sub("", Path(script).read_text(encoding="utf-8")), encoding="utf-8")
                        result = run_check(path, str(bare), extra, work)
                        result["own"] = "without the options' labels"
                        own = Path(path) / "games" / Path(script).name
                        if refused(result["json"]) and own.is_file():
                            result = run_check(path, str(own), extra, work)
                            result["own"] = "its own script"
                    runs[label].append(result)
                    how = f" ({result['own']})" if result.get("own") else ""
                    print(f"  {Path(script).stem} {label}{how}: {result['cpu']:.1f} s CPU, {result['wall']:.1f} s wall, "
                          f"{tiers(result['json'])} games, {found(result['json'])}", file=sys.stderr, flush=True)
            rows.append((script, runs))
    labels = [label for label, _ in sides]
    if args.found:
        print_found(rows, labels, extra)
        return
    print(f"nomv check SCRIPT --jobs 1 --json {' '.join(extra)}".rstrip() + f"; CPU seconds, median of {args.rounds}")
    print("| game | " + " | ".join(f"{label}: games checked ply by ply + fast; CPU s" for label in labels)
          + " | " + " | ".join(f"{label} / {labels[0]}" for label in labels[1:]) + " |")
    print("|" + " --- |" * (1 + 2 * len(labels) - 1))
    totals = {label: 0.0 for label in labels}
    for name, runs in rows:
        cpu = {label: statistics.median(x["cpu"] for x in runs[label]) for label in labels}
        for label in labels:
            totals[label] += cpu[label]
        cells = [f"{tiers(runs[label][-1]['json'])}; {cpu[label]:.1f}"
                 + (f" ({runs[label][-1]['own']})" if runs[label][-1].get("own") else "") for label in labels]
        ratios = [f"{cpu[label] / cpu[labels[0]]:.2f}" if cpu[labels[0]] else "-" for label in labels[1:]]
        print(f"| {Path(name).stem} | " + " | ".join(cells + ratios) + " |")
    print(f"| all {len(rows)} | " + " | ".join(f"{totals[label]:.1f}" for label in labels) + " | "
          + " | ".join(f"{totals[label] / totals[labels[0]]:.2f}" for label in labels[1:]) + " |")
    for name, runs in rows:
        print(f"{Path(name).stem}: " + "; ".join(f"{label}: {found(runs[label][-1]['json'])}" for label in labels))


def together(sides: list[tuple[str, str]], scripts: list[str], extra: list[str], work: Path, rounds: int) -> None:
    """nomv check of all the scripts at once, each side in turn, `rounds` times."""
    runs: dict[str, list[dict]] = {label: [] for label, _ in sides}
    for r in range(rounds):
        for label, path in sides[r % len(sides):] + sides[:r % len(sides)]:
            result = run_check(path, scripts, extra, work)
            runs[label].append(result)
            data = result["json"]
            print(f"  round {r + 1} {label}: {result['cpu']:.1f} s CPU, {result['wall']:.1f} s wall, "
                  f"{data.get('games', 0)} + {data.get('fast_games', 0):,} games, "
                  f"{data.get('errors', '?')} errors, {data.get('warnings', '?')} warnings", file=sys.stderr, flush=True)
    print(f"nomv check {len(scripts)} scripts --json {' '.join(extra)}".rstrip() + f"; median of {rounds}")
    print("| side | CPU s | wall s | errors, warnings |")
    print("| --- | --- | --- | --- |")
    for label, _ in sides:
        xs = runs[label]
        print(f"| {label} | {statistics.median(x['cpu'] for x in xs):.1f} | {statistics.median(x['wall'] for x in xs):.1f} | "
              f"{xs[-1]['json'].get('errors', '?')}, {xs[-1]['json'].get('warnings', '?')} |")


def print_found(rows: list, labels: list[str], extra: list[str]) -> None:
    """How many of the broken scripts each side finds (its code reported) and at the line their
    first line names, with each side's CPU time, and the scripts missed."""
    print(f"nomv check SCRIPT --jobs 1 --json {' '.join(extra)}".rstrip())
    folders: dict[str, list] = {}
    for script, runs in rows:
        folders.setdefault(str(Path(script).parent.relative_to(ROOT)), []).append((script, runs))
    print("| scripts | " + " | ".join(f"{label}: found (at the line); CPU s" for label in labels) + " |")
    print("|" + " --- |" * (1 + len(labels)))
    missed: dict[str, list[str]] = {label: [] for label in labels}
    for folder, items in folders.items():
        cells = []
        for label in labels:
            n_found = n_line = 0
            cpu = 0.0
            for script, runs in items:
                m = re.match(r"-- expect: ([EW]\d{3}) (\d+)", Path(script).read_text(encoding="utf-8"))
                assert m, f"{script} has no '-- expect: CODE LINE' first line"
                code, line = m.group(1), int(m.group(2))
                run = runs[label][-1]
                cpu += run["cpu"]
                diagnostics = [d for s in run["json"].get("scripts", []) for d in s.get("diagnostics", [])]
                hit = [d for d in diagnostics if d["code"] == code]
                n_found += bool(hit)
                n_line += any(d["line"] == line for d in hit)
                if not hit or not any(d["line"] == line for d in hit):
                    missed[label].append(f"{Path(script).name} ({'not found' if not hit else 'at line ' + str(hit[0]['line'])})")
            cells.append(f"{n_found} ({n_line}); {cpu:.1f}")
        print(f"| `{folder}` ({len(items)}) | " + " | ".join(cells) + " |")
    for label in labels:
        print(f"{label} missed: " + ("; ".join(missed[label]) or "none"))


if __name__ == "__main__":
    main()
