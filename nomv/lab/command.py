"""``nomv analyze``: the command line's side of the lab (nomv/cli.py parses the arguments)."""
from __future__ import annotations

import json
import os
import sys
import time
from typing import Any, Callable

from ..errors import NomvError
from ..game import Game
from .executors import make_executor
from .plan import LabError, parse_shard
from .records import Writer, merge, read
from .report import format_text
from .run import make_plan, play, report, representative, work_seconds


class Progress:
    """A progress bar on stderr for long runs (a terminal only): games done, speed, time left."""

    def __init__(self, show: bool):
        self.show = show
        self.start = time.perf_counter()
        self.last = 0.0

    def __call__(self, done: int, total: int) -> None:
        now = time.perf_counter()
        if not self.show or (now - self.last < 0.2 and done < total):
            return
        self.last = now
        spent = now - self.start
        rate = done / spent if spent > 0 else 0
        left = f", {int((total - done) / rate)} s left" if rate and done < total else ""
        bar = "#" * (30 * done // max(total, 1))
        print(f"\r[{bar:<30}] {done:,}/{total:,} games, {rate:,.0f}/s{left}   ", end="", file=sys.stderr, flush=True)

    def end(self) -> None:
        if self.show:
            print(file=sys.stderr)


def _write_html(path: str, rep: dict[str, Any], header: dict[str, Any], title: str, seat_names: list[str]) -> None:
    try:
        from .html import page
    except ImportError as exc:
        raise LabError(f"--html needs matplotlib: pip install 'nomv[lab]' ({exc})") from None
    text = page(rep, header, title, seat_names)
    try:
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
    except OSError as exc:
        raise LabError(f"cannot write {path}: {exc.strerror or exc}") from None


def _names(game: Game | None, players: int) -> list[str]:
    if game is None:
        return [f"Player {p}" for p in range(1, players + 1)]
    return [game.players.name(p) for p in range(1, players + 1)]


def run_command(args: Any, load: Callable[[Any], Game], option_pairs: Callable[[Any], dict[str, str]]) -> int:
    if args.merge is not None:
        return _merge_command(args)
    if not args.game:
        raise LabError("give a GAME to analyze, or --merge FILE... to report on records")
    if args.jobs < 0:
        raise LabError("--jobs must be 0 (one per CPU) or more")
    if args.skill and importable("choix") is False:
        raise LabError("--skill needs choix for the Bradley-Terry fit: pip install 'nomv[lab]'")
    if args.html and importable("matplotlib") is False:
        raise LabError("--html needs matplotlib: pip install 'nomv[lab]'")
    shard = parse_shard(args.shard) if args.shard else None
    if shard and not args.records:
        raise LabError("--shard writes its games' records for --merge: give --records FILE")
    if shard and args.html:
        raise LabError("a shard is a part of a run: merge the parts (nomv analyze --merge ...) for the page")
    game = load(args)
    plan = make_plan(game, option_pairs(args.option), args.variant, args.agents, args.games, args.seed,
                     args.max_plies, args.traced, args.skill, args.rungs, args.base_iterations, args.skill_games)
    if args.skill and plan.skill is not None:
        import choix  # noqa: F401  (fails here, before any game, when missing)
    jobs = args.jobs or os.cpu_count() or 1
    if not args.jobs and not args.cluster and jobs > 1 and work_seconds(plan, game) < 2:
        jobs = 1              # (starting processes would cost more than they save)
    executor = make_executor(jobs, args.cluster)
    header = plan.header()
    if shard:
        header["shard"] = list(shard)
    writer = Writer(args.records, header) if args.records else None
    progress = Progress(sys.stderr.isatty() and not args.json)
    try:
        records, seconds = play(plan, executor, shard, writer, progress, game)
    finally:
        progress.end()
        executor.close()
        if writer is not None:
            writer.close()
    if shard:
        summary = {"shard": f"{shard[0]}/{shard[1]}", "games": len(records), "records": args.records,
                   "seconds": round(seconds, 3)}
        if args.json:
            print(json.dumps(summary, indent=2))
        else:
            print(f"shard {shard[0]}/{shard[1]}: {len(records):,} games in {seconds:.1f} s, records in {args.records}; "
                  "report on every part with: nomv analyze --merge FILE...")
        return 0
    rep = report(header, records)
    rep["games_per_second"] = round(len(records) / seconds, 1) if seconds > 0 else None
    rep["seconds"] = round(seconds, 3)
    rep["where"] = executor.description
    return _output(args, rep, header, game.title, _names(game, plan.players), game.runtime, game.limits, records)


def importable(name: str) -> bool:
    import importlib.util
    return importlib.util.find_spec(name) is not None


def _merge_command(args: Any) -> int:
    if args.game:
        raise LabError("--merge reports on records files: give no GAME (the records name it)")
    if args.shard or args.records:
        raise LabError("--merge reads records: --shard and --records are for the runs that wrote them")
    parts = []
    for path in args.merge:
        header, records = read(path)
        parts.append((path, header, records))
    header, records, missing = merge(parts)
    if missing:
        print(f"nomv: warning: {missing:,} games of the run are in no file given (a part missing?): "
              "the figures are of the others", file=sys.stderr)
    rep = report(header, records, missing)
    game = None
    try:
        game = Game(header["source"], header["path"], args.lua, limits=args.limits)
    except NomvError:
        pass
    title = game.title if game is not None else header["game"]
    try:
        return _output(args, rep, header, title, _names(game, int(header["players"])), args.lua, args.limits, records)
    finally:
        if game is not None:
            game.close()


def _output(args: Any, rep: dict[str, Any], header: dict[str, Any], title: str, seat_names: list[str],
            runtime: str | None, limits: Any, records: list[dict[str, Any]]) -> int:
    rep["representative"] = representative(header, records, runtime, limits)
    if args.html:
        _write_html(args.html, rep, header, title, seat_names)
    if args.json:
        print(json.dumps(rep, indent=2, ensure_ascii=False))
    else:
        print(format_text(rep, title, seat_names, os.path.basename(header["path"])))
        if args.html:
            print(f"\nthe report as a page: {args.html}")
        if args.records:
            print(f"every game's record: {args.records}")
    return 0 if not rep["ends"]["errors"] else 1
