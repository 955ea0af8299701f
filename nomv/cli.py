"""The ``nomv`` command line.  Bad input gives a one-line message and a non-zero exit, never a
traceback (set NOMV_DEBUG=1 to see one)."""
from __future__ import annotations

import argparse
import json
import os
import re
import signal
import sys
from typing import Any, NoReturn, Sequence

from . import __version__, catalog
from .engine import runtime_name
from .errors import IllegalMoveError, NomvError
from .game import Game, Position
from .languages import localized
from .limits import Limits


class UsageError(NomvError):
    pass


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line naming the command and where to get help."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{message} (see '{self.prog} --help')")


def _option_pairs(pairs: Sequence[str] | None) -> dict[str, str]:
    out: dict[str, str] = {}
    for pair in pairs or ():
        if "=" not in pair:
            raise UsageError(f"-o takes key=value, got {pair!r}")
        key, value = pair.split("=", 1)
        if not key:
            raise UsageError(f"-o takes key=value, got {pair!r}")
        out[key.strip()] = value
    return out


_loaded: list[Game] = []


def _load(args) -> Game:
    game = Game.load(args.game, runtime=args.lua, limits=args.limits)
    _loaded.append(game)
    return game


def _show_prints() -> None:
    """What the scripts print() is for their authors: show it on stderr after the command."""
    while _loaded:
        game = _loaded.pop(0)
        try:
            lines = game.engine.printed()
        except NomvError:
            continue
        for line in lines:
            print(f"{game.name} printed: {line}", file=sys.stderr)


def _named_players(args) -> int:
    """How many players --players names (0 without it)."""
    return len([s for s in (getattr(args, "players", None) or "").split(",") if s.strip()])


def _game_options(args, game: Game) -> dict[str, str]:
    """The -o options, with the number of players taken from --players when it names more (or
    fewer) than the game's default and the game allows that many."""
    options = _option_pairs(args.option)
    count = _named_players(args)
    if count and "players" not in options:
        spec = game.players
        if spec.min <= count <= spec.max and count != spec.default:
            options["players"] = str(count)
    return options


def _player_range(game: Game) -> str:
    spec = game.players
    if spec.min == spec.max:
        return ""
    return f" (it takes {spec.min} to {spec.max}: -o players=N)"


def _start(args, game: Game) -> Position:
    pos = game.start(_game_options(args, game), args.variant, seed=args.seed, text=True)
    for number, text in enumerate(getattr(args, "moves", None) or (), start=1):
        try:
            pos.play(text)
        except IllegalMoveError as exc:
            raise IllegalMoveError(f"--moves, move {number}: {exc}") from None
    return pos


def _add_game_args(p: argparse.ArgumentParser, seed_default: int | None = 0) -> None:
    p.add_argument("game", metavar="GAME", help="a bundled game's name or a path to a .lua script")
    p.add_argument("-o", "--option", action="append", metavar="KEY=VALUE",
                   help="set a game option (repeatable), e.g. -o size=7")
    p.add_argument("--variant", metavar="NAME", help="start from a named variant's options")
    p.add_argument("--seed", type=int, default=seed_default,
                   help="random seed (default: a new one each game)" if seed_default is None
                   else f"random seed (default {seed_default})")


def _describe_option(spec) -> str:
    return f"{spec.name}={_fmt(spec.default)} ({spec.allowed()})"


def _fmt(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if v == "":
        return '""'
    return str(v)


# -- commands ---------------------------------------------------------------------------------

def cmd_list(args) -> int:
    rows: list[dict[str, Any]] = []
    for found in catalog.all_games():
        try:
            game = Game.load(str(found.path), runtime=args.lua, limits=args.limits)
        except NomvError as exc:
            rows.append({"name": found.name, "origin": found.origin, "path": str(found.path),
                         "error": str(exc)})
            continue
        p = game.players
        title = localized(game.engine.description.get("title"), "en", game.title)
        rows.append({"name": game.name, "title": title, "origin": found.origin,
                     "path": str(found.path),
                     "players": p.min if p.min == p.max else [p.min, p.max],
                     "options": {s.name: {"default": s.default, "allowed": s.allowed(), "help": s.help}
                                 for s in game.options.ordered()},
                     "variants": game.variants})
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    width = max((len(row["name"]) for row in rows), default=0) + 2
    for row in rows:
        if "error" in row:
            print(f"{row['name']:<{width}}({row['origin']}) cannot be loaded: {row['error']}")
            continue
        players = row["players"]
        players = f"{players[0]}-{players[1]}" if isinstance(players, list) else str(players)
        word = "player" if players == "1" else "players"
        print(f"{row['name']:<{width}}{row['title']}, {players} {word} ({row['origin']}: {row['path']})")
        for name, o in row["options"].items():
            text = localized(o["help"], "en")       # (the JSON keeps every language the script gives)
            print(f"    -o {name}={_fmt(o['default'])}  ({o['allowed']}){'  ' + text if text else ''}")
        if row["variants"]:
            print(f"    variants: {', '.join(row['variants'])}")
    return 0


def cmd_playout(args) -> int:
    if args.n < 1:
        raise UsageError("-n must be at least 1")
    game = _load(args)
    stats = game.playout(args.n, seed=args.seed, options=_option_pairs(args.option),
                         variant=args.variant, text=True, max_plies=args.max_plies)
    if args.json:
        print(json.dumps({"game": game.name, "runtime": game.runtime, "seed": args.seed,
                          "games": stats.games, "seconds": round(stats.seconds, 6),
                          "games_per_second": round(stats.games_per_second, 1),
                          "average_length": stats.average_length, "shortest": stats.shortest,
                          "longest": stats.longest, "wins": stats.wins, "draws": stats.draws, "lost": stats.lost,
                          "unfinished": stats.unfinished}, indent=2))
        return 0
    print(f"{game.title} on {'LuaJIT' if game.runtime == 'jit' else 'Lua 5.4'}: {stats.games} random "
          f"games in {stats.seconds:.2f} s, {stats.games_per_second:,.0f} games/s")
    print(f"average length {stats.average_length:.1f} plies (shortest {stats.shortest}, longest {stats.longest})")
    def share(n: int) -> str:
        return f"{n} ({100 * n / stats.games:.1f}%)"
    if len(stats.wins) == 1:  # a puzzle: solved or not
        print(f"solved {share(stats.wins[0])}, not solved {share(stats.lost + stats.draws)}")
    else:
        for p, wins in enumerate(stats.wins, start=1):
            print(f"{game.players.name(p)} wins {share(wins)}")
        print(f"draws {share(stats.draws)}")
        if stats.lost:
            print(f"lost by everyone {share(stats.lost)}")
    if stats.unfinished:
        print(f"unfinished (longer than {args.max_plies} plies): {stats.unfinished}")
    return 0


def cmd_profile(args) -> int:
    from .profile import profile
    if not args.seconds > 0:
        raise UsageError("--seconds must be more than 0")
    if args.max_plies < 1:
        raise UsageError("--max-plies must be at least 1")
    game = _load(args)
    report = profile(game, _option_pairs(args.option), args.variant, seconds=args.seconds,
                     seed=args.seed, max_plies=args.max_plies, text=True)
    print(json.dumps(report.to_json(), indent=2) if args.json else report.format())
    return 0


def cmd_perft(args) -> int:
    if args.depth < 0:
        raise UsageError("--depth must be 0 or more")
    pos = _start(args, _load(args))
    if args.divide and args.depth >= 1:
        total = 0
        for move, text in zip(pos.legal_moves, pos.notations()):
            pos.play(move)
            count = pos.perft(args.depth - 1)
            pos.undo()
            total += count
            print(f"{text}: {count}")
        print(total)
    else:
        print(pos.perft(args.depth))
    return 0


def cmd_show(args) -> int:
    pos = _start(args, _load(args))
    game = pos.game
    if args.json:
        outcome = pos.outcome()
        print(json.dumps({"game": game.name, "options": pos.options, "seed": pos.seed,
                          "moves": pos.history_notation, "state": pos.state(),
                          "to_move": pos.to_move, "legal_moves": pos.notations(),
                          "result": None if outcome is None else outcome.describe(game.players)},
                         indent=2))
        return 0
    print(pos.text())
    print()
    outcome = pos.outcome()
    if outcome is not None:
        print(f"Game over: {outcome.describe(game.players)}")
    else:
        moves = pos.notations()
        shown = " ".join(moves[:12]) + (f" ... ({len(moves)} in all)" if len(moves) > 12 else "")
        assert pos.to_move is not None, "a game that has not ended has a player to move (nil there is the checker's E063)"
        print(f"{game.players.name(pos.to_move)} to move; legal moves: {shown}")
    return 0


def _has_display() -> bool:
    """Whether a window can be shown (a real video driver and, on Linux, a display)."""
    driver = os.environ.get("SDL_VIDEODRIVER", "")
    if driver in ("dummy", "offscreen"):
        return False
    if sys.platform.startswith("linux") and not driver:
        return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
    return True


def cmd_play(args) -> int:
    from .record import Record
    from .textplay import parse_seats, play_text
    gui = args.gui or (not args.text and _has_display())
    if args.gui and sys.platform.startswith("linux") and not os.environ.get("SDL_VIDEODRIVER") \
            and not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        raise NomvError("--gui needs a desktop session (no DISPLAY or WAYLAND_DISPLAY is set); "
                        "use --text to play in the terminal")
    if args.open:
        record = Record.load(args.open)
        pos = record.replay(runtime=args.lua, where=args.open, limits=args.limits)
        seats = parse_seats(args.players or ",".join(record.players or []) or None, pos.players)
    elif args.game:
        pos = _start(args, _load(args))
        named = _named_players(args)
        if named > pos.players:
            raise UsageError(f"{named} players given, but {pos.game.title} is played by "
                             f"{pos.players} here{_player_range(pos.game)}")
        seats = parse_seats(args.players, pos.players)
    elif gui:
        games = catalog.all_games()
        pos = Game.load(str(games[0].path) if games else "trinim", runtime=args.lua,
                        limits=args.limits).start(seed=args.seed)
        seats = parse_seats(args.players, pos.players)
    else:
        raise UsageError("give a GAME to play or --open FILE")
    if not gui:
        if not args.text:
            print("No display found: playing in the terminal (--gui forces the window).", file=sys.stderr)
        from .autosave import autosave_path, pending_autosave
        return play_text(pos, seats, lang=args.lang, autosave=autosave_path(),
                         resume=None if args.open else pending_autosave())
    return _play_gui(args, pos, seats)


def _play_gui(args, pos: Position, seats: list[str]) -> int:
    from .play import words
    words.setup(args.lang)
    from .gui.app import App, pending_autosave
    resume = None if args.open else pending_autosave()
    app = App(pos, seats, resume=resume, lang=args.lang)
    if not args.game and not args.open:
        app.open_dialog("new")
    app.run()
    return 0


def _size(text: str) -> tuple[int, int]:
    m = re.fullmatch(r"\s*(\d+)\s*[xX]\s*(\d+)\s*", text or "")
    if not m or not (16 <= int(m.group(1)) <= 8000 and 16 <= int(m.group(2)) <= 8000):
        raise UsageError(f"--size takes WIDTHxHEIGHT in pixels (16 to 8000), got {text!r}")
    return int(m.group(1)), int(m.group(2))


def cmd_render(args) -> int:
    size = _size(args.size)
    pos = _start(args, _load(args))
    if args.player is not None and not 1 <= args.player <= pos.players:
        raise UsageError(f"--player must be from 1 to {pos.players}, got {args.player}")
    from .gui import headless_if_no_display
    from .play import words
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    headless_if_no_display()
    words.setup(args.lang)
    from .gui.render import render_png
    try:
        out = render_png(pos, args.out, size, player=args.player, coordinates=args.coordinates,
                         panel=args.panel)
    except OSError as exc:
        raise NomvError(f"cannot write {args.out}: {exc.strerror or exc}") from None
    except Exception as exc:  # pygame.error (a bad file type) and the like
        if type(exc).__name__ == "error":
            raise NomvError(f"cannot write {args.out}: {exc}") from None
        raise
    print(f"{out} ({size[0]}x{size[1]}, {pos.game.name} after {pos.ply} move{'' if pos.ply == 1 else 's'})")
    return 0


def cmd_bench(args) -> int:
    if args.serve:
        return _bench_serve(args)
    if args.against:
        return _bench_against(args)
    if args.instructions:
        raise UsageError("--instructions counts with --against REV")
    from . import bench
    if args.seconds is None:
        args.seconds = 1.0
    if args.seconds <= 0:
        raise UsageError("--seconds must be more than 0")
    if "openspiel" in (args.compare or []):
        from .openspiel import pyspiel
        pyspiel()                                   # not installed: say so before measuring
    bundled = [f.name for f in catalog.all_games() if f.origin == "bundled"]
    for name in args.game or ():
        if bench.is_path(name):
            catalog.find(name)                      # no such file: say so before measuring
        elif name not in bundled:
            from .options import suggestion
            raise UsageError(f"nomv bench measures the bundled games, or any script given by its path "
                             f"(./{name}.lua); there is no bundled game named {name!r}"
                             f"{suggestion(name, bundled)}; games: {', '.join(bundled)}")
    progress = ((lambda text: print(f"  measuring {text}...", file=sys.stderr, flush=True)) if not args.json
                else (lambda text: None))
    result = bench.run(args.seconds, args.game or None, gui=not args.no_gui, progress=progress,
                       compare=args.compare)
    print(json.dumps(result, indent=2) if args.json else bench.format_table(result))
    return 0


def _bench_against(args) -> int:
    """nomv bench --against REV: the bundled games under REV and this tree, side by side."""
    from . import against, bench
    if args.compare:
        raise UsageError("--against and --compare are separate runs: give one of them")
    seconds = 1.0 if args.seconds is None else args.seconds
    if args.rounds is None:
        args.rounds = 1 if args.instructions else 5
    if seconds <= 0 or args.rounds < 1:
        raise UsageError("--seconds must be more than 0 and --rounds at least 1")
    bundled = [f.name for f in catalog.all_games() if f.origin == "bundled"]
    games = []
    for name in args.game or bundled:
        if bench.is_path(name):
            games.append(str(catalog.find(name).path.resolve()))
        elif name in bundled:
            games.append(name)
        else:
            from .options import suggestion
            raise UsageError(f"there is no bundled game named {name!r}{suggestion(name, bundled)}; "
                             f"games: {', '.join(bundled)}")
    progress = ((lambda text: print(f"  {text}...", file=sys.stderr, flush=True)) if not args.json
                else (lambda text: None))
    result = against.run(args.against, games, runtime_name(args.lua), seconds, args.rounds, progress,
                         instructions=args.instructions)
    print(json.dumps(result, indent=2) if args.json else against.format_table(result))
    return 0


def _bench_serve(args) -> int:
    """nomv bench --serve: the server under load (nomv/server/loadbench.py)."""
    try:
        from .server import loadbench
    except ImportError as exc:
        raise NomvError(f"nomv bench --serve needs the server's packages: pip install 'nomv[serve]' ({exc})") from None
    seconds = 20.0 if args.seconds is None else args.seconds
    if seconds <= 0 or args.players < 2:
        raise UsageError("--seconds must be more than 0 and --players at least 2")
    if args.rate is not None and args.rate <= 0:
        raise UsageError("--rate must be more than 0 moves a second")
    if args.poll <= 0 or args.repeat < 1:
        raise UsageError("--poll must be more than 0 seconds and --repeat at least 1")
    if args.profile:
        from .server import loadprofile
        if not loadprofile.available():
            raise NomvError("--profile needs py-spy (a sampling profiler): pip install py-spy")
    configs = tuple(args.serve_config or ("sqlite", "postgresql", "postgresql x2"))
    progress = ((lambda text: print(f"  {text}...", file=sys.stderr, flush=True)) if not args.json
                else (lambda text: None))
    try:
        if args.routes:
            rows = loadbench.run_routes(args.against, progress=progress)
            print(json.dumps(rows, indent=2) if args.json else loadbench.format_routes(rows))
            return 0
        rows = loadbench.run(args.players // 2, seconds, configs, progress=progress, rate=args.rate,
                             model=args.model, against=args.against, profile=args.profile, poll=args.poll,
                             repeat=args.repeat, moves=args.moves)
    except FileNotFoundError:
        raise NomvError("PostgreSQL is not installed (initdb not found): apt-get install postgresql, "
                        "or --serve-config sqlite") from None
    except RuntimeError as exc:   # a server that did not start, a revision not found: its own message
        raise NomvError(f"nomv bench --serve: {exc}") from None
    print(json.dumps(rows, indent=2) if args.json else loadbench.format_table(rows))
    return 0


def cmd_match(args) -> int:
    from .ai import match
    from .ai.agents import AgentSpecError
    if args.n < 1:
        raise UsageError("-n must be at least 1")
    if args.jobs < 0:
        raise UsageError("--jobs must be 0 (one per CPU) or more")
    if args.min_score is not None and not 0 <= args.min_score <= 1:
        raise UsageError(f"--min-score is a score from 0 to 1 (points per game), got {args.min_score:g}")
    game = _load(args)
    specs = [s.strip() for s in args.players.split(",")]
    if len(specs) < 1 or any(not s for s in specs):
        raise UsageError(f"--players takes computer players separated by commas, got {args.players!r}")
    # The game's own number of seats, the list repeating to fill them (docs/ai.md); more players
    # named than that, and the game allows them: a seat each.
    chosen = _option_pairs(args.option)
    if "players" not in chosen and game.players.default < len(specs) <= game.players.max:
        chosen["players"] = str(len(specs))
    options = game.resolve_options(chosen, args.variant, text=True)
    if "human" in (s.lower() for s in specs):
        raise UsageError("a match is played by computer players: --players takes random or mcts[:TIME]")
    players = int(options["players"])
    if len(specs) > players:
        raise AgentSpecError(f"{len(specs)} players given, but {game.title} is played by {players} here"
                             f"{_player_range(game)}")
    if len(specs) == 1 and players > 1:
        raise UsageError("a match needs two players or more (e.g. --players mcts,random); "
                         f"to let {specs[0]} play itself, name it twice: {specs[0]},{specs[0]}")
    seed = args.seed if args.seed is not None else __import__("secrets").randbelow(10**6)
    jobs = min(args.jobs or os.cpu_count() or 1, args.n)
    try:
        out = open(args.out, "w", encoding="utf-8") if args.out else None   # noqa: SIM115
    except OSError as exc:
        raise NomvError(f"cannot write {args.out}: {exc.strerror or exc}") from None
    done = []
    show = sys.stderr.isatty() and not args.json

    def on_result(result) -> None:
        done.append(result)
        if out is not None:
            out.write(json.dumps(result.record, ensure_ascii=False) + "\n")
            out.flush()
        if show:
            won = {}
            for s in match.standings(specs, done):
                won[s.spec] = s.wins
            bar = "#" * (20 * len(done) // args.n)
            scores = "  ".join(f"{k} {v}" for k, v in won.items())
            print(f"\r[{bar:<20}] {len(done)}/{args.n}  wins: {scores}  ", end="", file=sys.stderr, flush=True)
    try:
        results = match.run(game, specs, args.n, chosen, args.variant, seed=seed, swap=args.swap,
                            jobs=jobs, max_plies=args.max_plies, on_result=on_result)
    finally:
        if show:
            print(file=sys.stderr)
        if out is not None:
            out.close()
    if args.swap and args.n % len(specs):
        print(f"nomv: note: with --swap, -n {args.n} is not a multiple of the {len(specs)} players: "
              "the last deal is not played in every turn of the seats", file=sys.stderr)
    how = ("each deal played in every turn of the seats" if args.swap else "seats taking turns") + \
        f", seed {seed}, {jobs} job{'s' if jobs != 1 else ''}"
    if args.json:
        print(json.dumps({"game": game.name, "options": options, "seed": seed, "swap": args.swap,
                          **match.summary(specs, results)}, indent=2))
    else:
        print(match.format_summary(game.title, specs, results, how,
                                   [game.players.name(p) for p in range(1, int(options["players"]) + 1)]))
        if args.out:
            print(f"game records: {args.out} (one per line)")
    if args.min_score is not None:
        first = match.standings(specs, results)[0]
        if first.score < args.min_score:
            print(f"nomv: {specs[0]} scored {first.score:.2f}, below --min-score {args.min_score:g}",
                  file=sys.stderr)
            return 1
    return 0


def cmd_analyze(args) -> int:
    from .lab.command import run_command
    return run_command(args, _load, _option_pairs)


def cmd_check(args) -> int:
    from .checker import check
    if args.playouts is not None and args.playouts < 1:
        raise UsageError("--playouts must be at least 1")
    if not args.seconds >= 0:
        raise UsageError("--seconds must be 0 or more")
    paths = []
    for name in args.scripts:
        paths.append(name if name.endswith(".lua") or os.sep in name else str(catalog.find(name).path))
    # (the end of the report: each script's speed, and nomv profile when a hook clearly
    # dominates, measured in each script's job)
    report = check(paths, playouts=args.playouts, seed=args.seed,
                   options=_option_pairs(args.option) or None, text_options=True,
                   runtime=args.lua, max_plies=args.max_plies, coverage=not args.no_coverage,
                   extremes=not args.quick, jobs=args.jobs or os.cpu_count() or 1,
                   limits=args.limits, seconds=args.seconds, thorough=args.thorough, speed=True,
                   cache=not args.fresh)
    from .profile import format_check_speed
    speed = [s.speed for s in report.scripts if s.speed is not None]
    if args.json:
        print(json.dumps({**report.to_json(), "speed": speed}, indent=2))
    else:
        print("\n".join([report.format(), *format_check_speed(speed)]))
    return 0 if report.ok else 1


def cmd_new(args) -> int:
    from .checker.starter import write_starter
    path = write_starter(args.name, args.path)
    where = "" if args.path else " (your games folder)"
    print(f"wrote {path}{where}")
    play = args.name if not args.path else str(path)
    print(f"play it:   nomv play {play}")
    print(f"check it:  nomv check {path}")
    print(f"then edit it: {catalog.doc('tutorial.md')} walks through writing a game, and "
          f"{catalog.doc('script-api.md')} has the whole script API")
    return 0


def _default_time_per_move(text: str, settings) -> float | None:
    """--default-time-per-move: a time (``3d``, ``36h``, seconds) or ``none``."""
    from .server.errors import Invalid
    from .server.matches.clock import MAX_TIME_PER_MOVE, NO_LIMIT, parse_duration
    if text.strip().lower() == NO_LIMIT:
        return None
    try:
        seconds = parse_duration(text)
    except Invalid:
        seconds = None
    if seconds is None or not settings.min_time_per_move <= seconds <= MAX_TIME_PER_MOVE:
        raise UsageError(f"--default-time-per-move takes a time such as 3d, 36h or 600 (seconds), from "
                         f"--min-time-per-move ({settings.min_time_per_move:g} s) to "
                         f"{MAX_TIME_PER_MOVE // 86400} days, or none; got {text!r}")
    return seconds


def cmd_serve(args) -> int:
    try:
        from .server.settings import Settings
        from .server.serve import run
        import fastapi, sqlalchemy, alembic, argon2, openskill, uvicorn  # noqa: F401,E401
    except ImportError as exc:
        raise NomvError(f"nomv serve needs the server's packages ({exc.name} is missing): "
                        "pip install 'nomv[serve]'") from None
    settings = Settings(host=args.host, port=args.port)
    if args.db:
        settings.db = args.db
    if not (0 <= args.port <= 65535):
        raise UsageError(f"--port must be from 0 to 65535, got {args.port}")
    # The desktop's limits (changed by NOMV_TIME_LIMIT, NOMV_MEMORY_MB, --time-limit, --memory-mb)
    settings.time_limit, settings.memory_limit = args.limits.time, args.limits.memory
    if args.lua:
        os.environ["NOMV_LUA"] = args.lua   # every game the server loads, in every worker
    for name in ("public_url", "smtp", "mail_from", "processes", "searches", "computer_seconds",
                 "computer_iterations", "cache_positions", "cache_scripts", "max_scripts",
                 "uploads_per_hour", "check_playouts", "min_time_per_move", "clock_interval",
                 "session_days", "log_level", "workers", "forwarded_allow_ips", "header_timeout",
                 "body_timeout", "max_waiting", "jobs", "job_seconds", "max_record_moves",
                 "imports_per_hour", "registrations_per_hour", "hashes", "max_matches",
                 "watchers_per_match", "anonymous_sockets_per_address",
                 "sockets_per_user"):
        value = getattr(args, name)
        if value is not None:
            setattr(settings, name, value)
    for option, name, unit in (("--cache-mb", "cache_bytes", 2**20), ("--max-look-kb", "max_look_bytes", 1024),
                               ("--worker-memory-mb", "worker_memory", 2**20)):
        value = getattr(args, option[2:].replace("-", "_"))
        if value is not None:
            if not value >= 0:
                raise UsageError(f"{option} must not be negative")
            setattr(settings, name, int(value * unit))
    for name in ("processes", "searches", "cache_positions", "cache_scripts", "check_playouts", "workers",
                 "max_waiting", "jobs", "max_record_moves", "imports_per_hour", "registrations_per_hour",
                 "hashes", "max_matches", "watchers_per_match", "anonymous_sockets_per_address",
                 "sockets_per_user"):
        if getattr(settings, name) < 1:
            raise UsageError(f"--{name.replace('_', '-')} must be at least 1")
    if settings.worker_memory and settings.worker_memory < settings.memory_limit:
        raise UsageError(f"--worker-memory-mb ({settings.worker_memory / 2**20:g}) must be at least the memory "
                         f"of one game (--memory-mb, {settings.memory_limit / 2**20:g}), or 0 for no budget")
    if settings.workers > 1 and settings.backend != "postgresql":
        raise UsageError("--workers needs PostgreSQL (--db postgresql://...): SQLite cannot carry the live "
                         "pushes between processes")
    for name in ("computer_seconds", "min_time_per_move", "clock_interval", "session_days", "header_timeout",
                 "body_timeout", "job_seconds"):
        if not getattr(settings, name) > 0:
            raise UsageError(f"--{name.replace('_', '-')} must be more than 0")
    if args.default_time_per_move is not None:
        settings.default_time_per_move = _default_time_per_move(args.default_time_per_move, settings)
    elif settings.default_time_per_move is not None and settings.default_time_per_move < settings.min_time_per_move:
        raise UsageError(f"--min-time-per-move ({settings.min_time_per_move:g} s) is longer than the default time "
                         f"per move ({settings.default_time_per_move:g} s): give --default-time-per-move too")
    if args.max_script_kb is not None:
        settings.max_script_bytes = int(args.max_script_kb * 1024)
    if args.quick_check:
        settings.check_extremes = False
    if args.argon2:
        try:
            memory, passes = (int(x) for x in args.argon2.split(","))
            assert memory >= 8 and passes >= 1
        except (ValueError, AssertionError):
            raise UsageError(f"--argon2 takes MEMORY_KIB,PASSES (e.g. 65536,3), got {args.argon2!r}") from None
        settings.argon2_memory, settings.argon2_time = memory, passes
    if settings.smtp:
        from .server.mail import SmtpUrl
        try:
            SmtpUrl(settings.smtp)
        except ValueError as exc:
            raise UsageError(str(exc)) from None
    if not settings.db.startswith(("sqlite:", "postgresql:", "postgres:", "postgresql+")):
        raise UsageError(f"--db takes sqlite:///PATH or postgresql://user@host:port/db, got {settings.db!r}")
    return run(settings)


# -- the parser -------------------------------------------------------------------------------

def _limits(args) -> Limits:
    """The limits of the games this command loads: the defaults (the checker's own for
    ``nomv check``), changed by NOMV_TIME_LIMIT and NOMV_MEMORY_MB, then by --time-limit and
    --memory-mb."""
    if args.command == "check":
        from .checker.core import DEFAULT_LIMITS
        base = Limits.from_env(default=DEFAULT_LIMITS)
    else:
        base = Limits.from_env()
    time, memory = getattr(args, "time_limit", None), getattr(args, "memory_mb", None)
    return base.with_(time=None if time is None else float(time),
                      memory_mb=None if memory is None else float(memory))


def _limit(text: str) -> str:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not value >= 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"{text!r} must be a number of 0 or more")
    return text


def _add_list(sub, common: argparse.ArgumentParser) -> None:
    """The arguments of ``nomv list``."""
    p = sub.add_parser("list", parents=[common], help="list the games nomv can find",
                       description="List bundled and user games with their players, options and variants.")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=cmd_list)


def _add_play(sub, common: argparse.ArgumentParser) -> None:
    """The arguments of ``nomv play``."""
    p = sub.add_parser("play", parents=[common], help="play a game in a window (or in the terminal)",
                       description="Play a game in a window: click the highlighted places to enter "
                                   "moves. With --text (or without a display), type moves in the "
                                   "game's notation in the terminal; 'help' lists commands.")
    _add_game_args(p, seed_default=None)
    p.set_defaults(game=None)
    p._actions[-4].nargs = "?"
    p.add_argument("--players", metavar="KINDS", help="who plays each seat: human, random or mcts[:TIME], e.g. human,mcts:3s "
                        "(default: you first, then the computer at mcts:1s)")
    p.add_argument("--open", metavar="FILE",
                   help="continue a saved game (FILE#N: the N-th game of a file of records, as nomv match --out writes)")
    p.add_argument("--text", action="store_true", help="play in the terminal instead of a window")
    p.add_argument("--gui", action="store_true", help="open the window even when no display is detected")
    p.add_argument("--lang", metavar="CODE", help="language of the window or the terminal play, e.g. en or it "
                        "(default: the system's); the game's own texts too, where its script gives them")
    p.set_defaults(func=cmd_play)


def _add_render(sub, common: argparse.ArgumentParser) -> None:
    """The arguments of ``nomv render``."""
    p = sub.add_parser("render", parents=[common], help="draw a position to a PNG file",
                       description="Draw the position after the given moves to a PNG with the "
                                   "window's drawing code, without a display.")
    _add_game_args(p)
    p.add_argument("--moves", nargs="*", metavar="MOVE", help="moves to play first, in the game's notation")
    p.add_argument("--player", type=int, metavar="P", help="draw what player P may see (hidden information)")
    p.add_argument("--size", default="800x600", metavar="WxH", help="picture size in pixels (default 800x600)")
    p.add_argument("--coordinates", action="store_true", help="write each cell's id on it")
    p.add_argument("--panel", action="store_true", help="draw the whole window, side panel included")
    p.add_argument("--lang", metavar="CODE", help="language of the panel's texts")
    p.add_argument("--out", required=True, metavar="FILE.png", help="where to write the picture")
    p.set_defaults(func=cmd_render)


def _add_playout(sub, common: argparse.ArgumentParser) -> None:
    """The arguments of ``nomv playout``."""
    p = sub.add_parser("playout", parents=[common], help="play random games inside Lua and report figures",
                       description="Play N uniformly random games and print games/s, lengths and results.")
    _add_game_args(p)
    p.add_argument("-n", type=int, default=1000, help="number of games (default 1000)")
    p.add_argument("--max-plies", type=int, default=100_000, help="stop a game after this many plies")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=cmd_playout)


def _add_profile(sub, common: argparse.ArgumentParser) -> None:
    """The arguments of ``nomv profile``."""
    p = sub.add_parser("profile", parents=[common], help="where a script's random games spend their time",
                       description="Play random games of a script for a few seconds and print where the "
                                   "time goes: the share of each hook, the hottest lines of the script, "
                                   "the tables allocated per ply, and advice for the costly patterns, "
                                   f"each pointing at {catalog.doc('script-api.md')}. LuaJIT samples with "
                                   "its own profiler (jit.profile); Lua 5.4 with a count hook.")
    _add_game_args(p)
    p.add_argument("--seconds", type=float, default=3.0, help="CPU seconds of sampled random games "
                   "(default 3; then about a third of that counting lines and allocations)")
    p.add_argument("--max-plies", type=int, default=100_000, help="stop a game after this many plies")
    p.add_argument("--json", action="store_true", help="machine-readable output: hooks (name: share), "
                   "lines ([{line, share}], hottest first), advice ([{text, doc}]) and the figures")
    p.set_defaults(func=cmd_profile)


def _add_match(sub, common: argparse.ArgumentParser) -> None:
    """The arguments of ``nomv match``."""
    p = sub.add_parser("match", parents=[common], help="play computer players against each other",
                       description="Play N games between computer players, seats taking turns, several "
                                   "at once; print wins, draws, each player's score with a 95% "
                                   "interval, and the average length. Players: random, mcts "
                                   "(1 s a move), mcts:2s, mcts:500ms, mcts:20000it, "
                                   "mcts:1s:c=0.7:depth=40.")
    _add_game_args(p, seed_default=None)
    p._option_string_actions["--seed"].help = "the first deal's seed (default: a new one, printed with the results)"
    p.add_argument("--players", default="mcts,random", metavar="P1,P2,...",
                   help="the computer players, in seat order for the first game (default mcts,random)")
    p.add_argument("-n", type=int, default=20, help="number of games (default 20)")
    p.add_argument("--swap", action="store_true",
                   help="play each deal (seed) in every turn of the seats, to cancel the luck of the deal")
    p.add_argument("--jobs", type=int, default=0, metavar="J", help="games at once (default: one per CPU)")
    p.add_argument("--max-plies", type=int, default=10_000, help="stop a game after this many plies (a draw)")
    p.add_argument("--out", metavar="FILE", help="keep every game's record, one JSON record per line")
    p.add_argument("--min-score", type=float, metavar="X",
                   help="exit with status 1 if the first player's score is below X (for CI)")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=cmd_match)


def _add_bench(sub, common: argparse.ArgumentParser) -> None:
    """The arguments of ``nomv bench``."""
    p = sub.add_parser("bench", parents=[common],
                       help="measure speed: playouts/s and moves/s on both runtimes, perft, MCTS, GUI frames",
                       description="Print figures: random playouts/s and moves generated/s of every bundled "
                                   "game and variant under LuaJIT and Lua 5.4, perft speed, the computer "
                                   "player's MCTS iterations/s, the window's frame time, and how they compare "
                                   f"with the speed aims ({catalog.doc('architecture.md')}).")
    p.add_argument("--game", action="append", metavar="NAME_OR_FILE",
                   help="only this bundled game, or any script by its path (repeatable)")
    p.add_argument("--seconds", type=float, help="time per measurement (default 1; with --serve, per "
                   "configuration, default 20)")
    p.add_argument("--serve", action="store_true", help="measure nomv serve under load instead: its own "
                   "servers and simulated players on 127.0.0.1 (SQLite, PostgreSQL with 1 and 2 processes)")
    p.add_argument("--players", type=int, default=1000, help="with --serve: simulated players, two a "
                   "Trinim match (default 1000)")
    p.add_argument("--serve-config", action="append", choices=["sqlite", "postgresql", "postgresql x2"],
                   help="with --serve: only this configuration (repeatable)")
    p.add_argument("--rate", type=float, metavar="MOVES_PER_S", help="with --serve: the players together "
                   "offer this many moves a second, each match at an even pace (default: each plays as "
                   "fast as the server answers, and a move's latency is the queue of the others)"),
    p.add_argument("--model", choices=["page", "bot"], default="page", help="with --serve: what the players "
                   "are: pages (each keeps the match's WebSocket open and moves when a push says it is "
                   "their turn; the default) or bots that poll the match (--poll seconds)")
    p.add_argument("--moves", choices=["ws", "http"], default="ws", help="with --serve: how pages send "
                   "their moves: over the match's WebSocket, as the page does (the default; a server that "
                   "takes none there is sent them over HTTP), or as POST .../moves")
    p.add_argument("--poll", type=float, default=1.0, metavar="S", help="with --serve --model bot: how "
                   "often a bot looks at its match (default 1 s)")
    p.add_argument("--repeat", type=int, default=1, metavar="N", help="with --serve: measure each "
                   "configuration N times (with --against: alternately)")
    p.add_argument("--profile", action="store_true", help="with --serve: sample each server with py-spy "
                   "while it is loaded and print where its time goes (pip install py-spy)")
    p.add_argument("--routes", action="store_true", help="with --serve: time every route of the API one "
                   "request at a time, with the server's CPU per call (with --against: side by side)")
    p.add_argument("--compare", action="append", choices=["openspiel"], metavar="openspiel",
                   help="also play OpenSpiel's versions of the classic games in the same run "
                        "(needs pip install 'nomv[openspiel]')")
    p.add_argument("--against", metavar="REV", help="instead: random games of the bundled games (or "
                   "--game) under the git revision REV of nomv, installed in a temporary environment, "
                   "and under this tree, side by side, alternating; medians and ratios (--lua for Lua 5.4). "
                   "With --serve: also run the server of this git revision (e.g. main, HEAD~3), the two "
                   "taking turns in one run, for side-by-side ratios")
    p.add_argument("--rounds", type=int, default=None, help="with --against: measurements of each game on "
                   "each side (default 5; with --instructions 1, each round a fixed seed for LuaJIT's "
                   "compiler, which compiles differently from seed to seed)")
    p.add_argument("--instructions", action="store_true", help="with --against: count the instructions "
                   "a random game takes on each side instead (valgrind: slower, but a busy machine does "
                   "not change the count; each process started from a fixed seed where a C compiler "
                   "and setarch are at hand, so that a count repeats exactly)")
    p.add_argument("--no-gui", action="store_true", help="skip the frame-time measurement")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=cmd_bench)


def _add_perft(sub, common: argparse.ArgumentParser) -> None:
    """The arguments of ``nomv perft``."""
    p = sub.add_parser("perft", parents=[common], help="count move sequences (tests move generators)",
                       description="Count the move sequences of a given length from the start "
                                   "(a finished game counts once).  The count is the last line.")
    _add_game_args(p)
    p.add_argument("--depth", type=int, required=True, help="sequence length")
    p.add_argument("--moves", nargs="*", metavar="MOVE", help="moves to play first")
    p.add_argument("--divide", action="store_true", help="also print the count below each first move")
    p.set_defaults(func=cmd_perft)


def _add_show(sub, common: argparse.ArgumentParser) -> None:
    """The arguments of ``nomv show``."""
    p = sub.add_parser("show", parents=[common], help="print a position as text",
                       description="Print the position after the given moves, whose turn it is, and the legal moves.")
    _add_game_args(p)
    p.add_argument("--moves", nargs="*", metavar="MOVE", help="moves to play, in the game's notation")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=cmd_show)


def _add_check(sub, common: argparse.ArgumentParser) -> None:
    """The arguments of ``nomv check``."""
    p = sub.add_parser("check", parents=[common], help="find mistakes in game scripts",
                       description="Check game scripts: static checks, then seeded random games of "
                                   "the defaults, every variant and the options' extremes, checked at "
                                   "every ply; figures and rule coverage. Exit 1 on any error. "
                                   f"The codes are explained in {catalog.doc('checker.md')}.")
    p.add_argument("scripts", nargs="+", metavar="SCRIPT", help="a .lua file or a game's name")
    from .checker.core import DEFAULT_PLAYOUTS, DEFAULT_SECONDS
    p.add_argument("--playouts", type=int, default=None, metavar="N",
                   help="random games of the default options checked ply by ply at least (default: "
                        f"one, then as half the time budget allows; {DEFAULT_PLAYOUTS} with --seconds 0; "
                        "half for each variant, a tenth for each option's extreme)")
    p.add_argument("--seconds", type=float, default=DEFAULT_SECONDS, metavar="S",
                   help=f"CPU seconds of random games for the default options (default {DEFAULT_SECONDS:g}; "
                        "half for each variant, a tenth for each option's extreme): half to games "
                        "checked ply by ply, the rest to fast random games inside Lua with the cheap "
                        "checks; 0 plays only the counts")
    p.add_argument("--seed", type=int, default=0, help="seed of the first random game (default 0)")
    p.add_argument("-o", "--option", action="append", metavar="KEY=VALUE",
                   help="check only games with these options (repeatable)")
    p.add_argument("--max-plies", type=int, default=1000, help="a game longer than this is an error (default 1000)")
    p.add_argument("--quick", action="store_true", help="skip the options' extremes")
    p.add_argument("--thorough", action="store_true",
                   help="give every variant half the budget and every option's extreme a tenth, "
                        "with whole games and the counts whatever they cost (by default they share "
                        "the defaults' budget and stop early once every hook has run)")
    p.add_argument("--jobs", type=int, default=0, metavar="N",
                   help="check N scripts at once in separate processes (default: one per CPU)")
    p.add_argument("--no-coverage", action="store_true", help="do not trace which lines run (faster)")
    p.add_argument("--fresh", action="store_true",
                   help="check every script again, even one unchanged since its last check with the same "
                        "settings (whose report is otherwise shown again)")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=cmd_check)


def _add_analyze(sub, common: argparse.ArgumentParser) -> None:
    """The arguments of ``nomv analyze``."""
    from .lab import plan
    p = sub.add_parser("analyze", parents=[common], help="the designer's lab: is the game any good?",
                       description="Play many games of a script (random players by default) and report "
                                   "what a designer asks: outcomes by seat with 95%% intervals and balance, "
                                   "how games end (errors named), length, branching and real choices, the "
                                   "game tree's size, repetition, board and rule coverage, the kinds of "
                                   "moves, openings; with MCTS players lead changes, drama and decisiveness; "
                                   "with --skill a skill ladder in Elo. The same seed gives the same figures "
                                   "on one core, many, a Dask cluster or in merged shards. Exit 1 when a "
                                   f"game failed with a script error. See {catalog.doc('lab.md')}.",
                       epilog="examples: nomv analyze trinim --html trinim.html; nomv analyze nibble --agents "
                              "mcts:200it --games 200; nomv analyze mygame.lua --skill; nomv analyze trinim "
                              "--shard 1/2 --records a.jsonl (and 2/2 elsewhere), then nomv analyze --merge "
                              "a.jsonl b.jsonl")
    p.add_argument("game", metavar="GAME", nargs="?", help="a bundled game's name or a path to a .lua script")
    p.add_argument("-o", "--option", action="append", metavar="KEY=VALUE",
                   help="set a game option (repeatable), e.g. -o size=7")
    p.add_argument("--variant", metavar="NAME", help="start from a named variant's options")
    p.add_argument("--seed", type=int, default=0, help="the run's seed: the same seed gives the same games "
                   "and figures (default 0)")
    p.add_argument("--agents", metavar="P[,P...]", help="the players: random (default), mcts:Nit (MCTS with "
                   "N iterations a move: the lab needs players it can repeat, so no time limits), one for "
                   "every seat or one per seat, e.g. mcts:200it,random")
    p.add_argument("--games", type=int, metavar="N", help=f"games to play (default {plan.DEFAULT_GAMES:,} "
                   "with random players, enough for a 95%% interval of +-2 points on balance; "
                   f"{plan.DEFAULT_SEARCH_GAMES} with MCTS players)")
    p.add_argument("--max-plies", type=int, default=1000, metavar="M",
                   help="cut a game after M plies (counted as cut, and as a draw for the seats; default 1000)")
    p.add_argument("--jobs", type=int, default=0, metavar="J", help="processes on this machine (default: one per CPU)")
    p.add_argument("--cluster", metavar="ADDRESS", help="run the games on a Dask cluster instead, e.g. "
                   "tcp://scheduler:8786 (pip install 'nomv[cluster]' on every machine)")
    p.add_argument("--skill", action="store_true", help="also climb a skill ladder: random, then MCTS with "
                   "iterations doubling, each rung against the one below, every seat in turn on the same "
                   "deals; Elo by Bradley-Terry, levels, where skill stops paying")
    p.add_argument("--rungs", type=int, default=plan.DEFAULT_RUNGS, metavar="R",
                   help=f"MCTS rungs of the ladder (default {plan.DEFAULT_RUNGS})")
    p.add_argument("--base-iterations", type=int, default=plan.DEFAULT_BASE_ITERATIONS, metavar="N",
                   help=f"iterations of the first MCTS rung (default {plan.DEFAULT_BASE_ITERATIONS})")
    p.add_argument("--skill-games", type=int, default=plan.DEFAULT_SKILL_GAMES, metavar="G",
                   help=f"games of each rung against the one below (default {plan.DEFAULT_SKILL_GAMES}: a rung that "
                        "truly scores 0.70 against the one below shows as a level 91%% of the time; 20 games: 42%%)")
    p.add_argument("--traced", type=int, default=plan.DEFAULT_TRACED, metavar="T",
                   help=f"games whose lines are traced for rule coverage, on Lua 5.4 (default {plan.DEFAULT_TRACED}; "
                        f"0 for none); and {plan.OTHER_TRACED} for each other setting (each variant, other choices, "
                        "a number's least and greatest value), so that code only other options reach is named as such")
    p.add_argument("--records", metavar="FILE", help="write every game's record, one JSON line each")
    p.add_argument("--shard", metavar="K/N", help="play only the K-th of N parts of the run (with --records); "
                   "merge the parts with --merge")
    p.add_argument("--merge", nargs="+", metavar="FILE", help="report on records files written by --records "
                   "(the parts of a run): no GAME")
    p.add_argument("--html", metavar="FILE", help="also write the report as one self-contained page (plots, "
                   "no JavaScript; pip install 'nomv[lab]')")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=cmd_analyze)


def _add_serve(sub, common: argparse.ArgumentParser) -> None:
    """The arguments of ``nomv serve``."""
    p = sub.add_parser("serve", parents=[common], help="run a server to play online (JSON API, WebSockets)",
                       description="Run nomv's server: accounts, matches between people and computer "
                                   "players, live or by correspondence, uploads of game scripts, "
                                   "ratings; a JSON API documented at /docs. Needs pip install "
                                   "'nomv[serve]'. See docs/server.md.")
    p.add_argument("--db", metavar="URL", help="the database: sqlite:///PATH (default: server.sqlite3 in "
                   "nomv's data folder) or postgresql://user:password@host:port/dbname")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8000, help="port to listen on (default 8000)")
    p.add_argument("--public-url", metavar="URL", help="the address people reach the server at, for "
                   "links in e-mails (default http://HOST:PORT)")
    p.add_argument("--smtp", metavar="URL", help="send \"your turn\" e-mails through this SMTP server: "
                   "smtp://[user:password@]host[:port][?starttls=1] or smtps://...")
    p.add_argument("--mail-from", metavar="ADDRESS", help="the sender of e-mails (default nomv@localhost)")
    p.add_argument("--workers", type=int, metavar="N", help="server processes sharing the database "
                   "and the port (PostgreSQL only; default 1); more can run on other machines")
    p.add_argument("--processes", type=int, metavar="N", help="worker processes running the games of "
                   "people's matches, each serving many games (default 2)")
    p.add_argument("--searches", type=int, metavar="N", help="computer players searching at once "
                   "(default: half the CPUs, at least 1)")
    p.add_argument("--computer-seconds", type=float, metavar="S", help="the longest a computer seat may "
                   "think a move (default 3: 'hard')")
    p.add_argument("--computer-iterations", type=int, metavar="N", help="the most MCTS iterations a "
                   "computer seat may ask for (default 200000)")
    p.add_argument("--cache-positions", type=int, metavar="N", help="matches kept in memory (default "
                   "2000); others are replayed from the database when needed")
    p.add_argument("--cache-scripts", type=int, metavar="N", help="game scripts kept loaded in the "
                   "worker processes (default 16)")
    p.add_argument("--max-script-kb", type=float, metavar="KB", help="largest uploaded script (default 256)")
    p.add_argument("--max-scripts", type=int, metavar="N", help="scripts a user may upload (default 20)")
    p.add_argument("--uploads-per-hour", type=int, metavar="N", help="uploads a user may try an hour "
                   "(default 30)")
    p.add_argument("--check-playouts", type=int, metavar="N", help="random games nomv check plays on "
                   "an upload (default 10)")
    p.add_argument("--quick-check", action="store_true", help="check uploads with their default "
                   "options and variants only, not each option's extremes")
    p.add_argument("--job-seconds", type=float, metavar="S", help="CPU seconds an upload's check or a "
                   "record's replay may use (default 60; over it, it is refused)")
    p.add_argument("--jobs", type=int, metavar="N", help="checks and replays run at once by this "
                   "process (default 1; each user has one at a time)")
    p.add_argument("--max-record-moves", type=int, metavar="N", help="most moves of a record continued "
                   "online (default 2000)")
    p.add_argument("--imports-per-hour", type=int, metavar="N", help="records a user may continue an "
                   "hour (default 30)")
    p.add_argument("--registrations-per-hour", type=int, metavar="N", help="accounts made from one "
                   "address an hour (default 20)")
    p.add_argument("--hashes", type=int, metavar="N", help="passwords hashed at once (argon2: its "
                   "memory each; default 2); others wait their turn")
    p.add_argument("--max-matches", type=int, metavar="N", help="matches a user may have created that "
                   "wait for players or run (default 100)")
    p.add_argument("--cache-mb", type=float, metavar="MB", help="memory of the server process for the "
                   "positions and looks it keeps (default 256)")
    p.add_argument("--max-look-kb", type=float, metavar="KB", help="largest view of a position sent to "
                   "a player (default 1024; a bigger one is shown as the script's error)")
    p.add_argument("--worker-memory-mb", type=float, metavar="MB", help="Lua memory of all the games of "
                   "one worker process together (default 2048; over it, the scripts least recently "
                   "used are unloaded; 0: no budget)")
    p.add_argument("--watchers-per-match", type=int, metavar="N", help="WebSockets open on one match by "
                   "others than its players, per process (default 200)")
    p.add_argument("--anonymous-sockets-per-address", type=int, metavar="N", help="WebSockets without a "
                   "login from one address, per process (default 20)")
    p.add_argument("--sockets-per-user", type=int, metavar="N", help="WebSockets of one logged-in user, "
                   "per process (default 50)")
    p.add_argument("--min-time-per-move", type=float, metavar="S", help="the shortest time per move a "
                   "match may ask for, in seconds (default 60)")
    p.add_argument("--default-time-per-move", metavar="TIME", help="the time per move of a match "
                   "between people that asks for none and has no live clock: 3d, 36h, seconds, or "
                   "none for no limit (default 3d)")
    p.add_argument("--clock-interval", type=float, metavar="S", help="how often to look for players "
                   "out of time, in seconds (default 5)")
    p.add_argument("--session-days", type=float, metavar="DAYS", help="a session unused this long ends "
                   "(default 30)")
    p.add_argument("--argon2", metavar="KIB,PASSES", help="the cost of password hashing (default "
                   "65536,3: 64 MiB and 3 passes)")
    p.add_argument("--max-waiting", type=int, metavar="N", help="matches a user created that may wait "
                   "for players at once: challenges and open seats (default 20)")
    p.add_argument("--forwarded-allow-ips", metavar="IPS", help="the reverse proxies whose X-Forwarded-For "
                   "and X-Forwarded-Proto are believed: addresses or networks, comma-separated, or * "
                   "(default 127.0.0.1)")
    p.add_argument("--header-timeout", type=float, metavar="S", help="seconds a connection may take to send "
                   "a request's headers before it is closed (default 10)")
    p.add_argument("--body-timeout", type=float, metavar="S", help="seconds a request's body may pause "
                   "before the request is answered 408 (default 30)")
    p.add_argument("--log-level", choices=["debug", "info", "warning", "error"], help="default info")
    p.set_defaults(func=cmd_serve)


def _add_new(sub, common: argparse.ArgumentParser) -> None:
    """The arguments of ``nomv new``."""
    p = sub.add_parser("new", parents=[common], help="write a starter game script",
                       description="Write a commented, working starter game (a small game on a square "
                                   "grid) to your games folder, or to --path. Never overwrites a file.")
    p.add_argument("name", metavar="NAME", help="the new game's name (letters, digits, _ and -)")
    p.add_argument("--path", metavar="DIR_OR_FILE", help="where to write it instead of your games folder")
    p.set_defaults(func=cmd_new)


def build_parser() -> argparse.ArgumentParser:
    """The whole command line: the options every command shares, then each command's own."""
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--lua", choices=["jit", "5.4"], default=None,
                        help="Lua runtime: jit (LuaJIT 2.1, default) or 5.4; or set NOMV_LUA")
    common.add_argument("--time-limit", type=_limit, metavar="SECONDS", default=None,
                        help="CPU seconds a script may take for one call, 0 for none "
                             "(default 1.5, for nomv check 4; or set NOMV_TIME_LIMIT)")
    common.add_argument("--memory-mb", type=_limit, metavar="MB", default=None,
                        help="memory a game's script may use, 0 for no limit "
                             "(default 1024, for nomv check 256; or set NOMV_MEMORY_MB)")
    parser = _Parser(prog="nomv", description="Play and write abstract board games as Lua scripts.")
    parser.add_argument("--version", action="version", version=f"nomv {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    _add_list(sub, common)
    _add_play(sub, common)
    _add_render(sub, common)
    _add_playout(sub, common)
    _add_profile(sub, common)
    _add_match(sub, common)
    _add_bench(sub, common)
    _add_perft(sub, common)
    _add_show(sub, common)
    _add_check(sub, common)
    _add_analyze(sub, common)
    _add_serve(sub, common)
    _add_new(sub, common)
    return parser


def _protect_moves(argv: Sequence[str]) -> list[str]:
    """Moves such as Nipple's "-/g5" or Nonads' "-1,0/2" start with a dash; argparse would take
    them for options.
    A leading space makes argparse see a value (moves are stripped before parsing)."""
    return [f" {a}" if re.match(r"^-(?:[^-\w]|\d)", a) else a for a in argv]


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(_protect_moves(sys.argv[1:] if argv is None else argv))
        if not getattr(args, "command", None):
            parser.print_help()
            return 2
        if args.lua:
            runtime_name(args.lua)
        args.limits = _limits(args)
        if args.command in ("playout", "perft", "profile"):
            # Long loops run inside Lua where Python cannot see Ctrl+C: let it end the process.
            signal.signal(signal.SIGINT, signal.SIG_DFL)
        try:
            return args.func(args)
        finally:
            _show_prints()
    except UsageError as exc:
        print(f"nomv: error: {exc}", file=sys.stderr)
        return 2
    except NomvError as exc:
        print(f"nomv: error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("nomv: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except Exception as exc:  # never show a traceback to a user
        if os.environ.get("NOMV_DEBUG"):
            raise
        print(f"nomv: internal error: {type(exc).__name__}: {exc} (set NOMV_DEBUG=1 for details)",
              file=sys.stderr)
        return 3
