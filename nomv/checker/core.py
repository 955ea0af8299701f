"""``check(path)``: static checks, then seeded random games of every configuration, checked at
every ply, then fast playouts for the figures, and rule coverage.

The ply-by-ply games run under Lua 5.4, whatever runtime is chosen: its count hook enforces the
time limit everywhere (LuaJIT does not call hooks inside compiled loops) and its line hook gives
the coverage.  The first game of each configuration is replayed on a fresh runtime of the other
kind (LuaJIT) to prove that the same seed gives the same game.  The speed figures come from
playouts inside Lua on the chosen runtime, run only once everything else passed.
"""
from __future__ import annotations

import random
import re
import time
from pathlib import Path
from typing import Any

from ..catalog import read_script
from ..engine import Engine, runtime_name
from ..errors import LimitError, NomvError, OptionError, ScriptError
from ..game import Game, Move, seed_words
from ..limits import Limits
from ..pool import EnginePool
from ..scriptlines import Lines
from ..worker import cpu_seconds
from .report import Report, ScriptReport, line_ranges, short
from .scene import validate as validate_scene
from .static import check_description, check_forbidden

DEFAULT_PLAYOUTS = 20
#: Random games go on until this much CPU time has gone into the defaults' games (half of it for
#: each variant, a tenth for each option's extreme, like the counts), after at least the count:
#: a mistake that shows in one game in a hundred is found in a small game.
DEFAULT_SECONDS = 3.0
DEFAULT_MAX_PLIES = 1000
#: The checker's limits: more time than a game's 1.5 s, since its first games trace every line
#: with Lua 5.4's line hook, which slows a call down (3verse's 4verse variant: its opening
#: `moves` took 1.1-1.6 s of CPU traced on the development machine, so that a limit of 2 s gave
#: a false E101 once scaled to 1.3 s, as on a machine a little slower); less memory (a script
#: that needs more than this for a board game is probably leaking).
DEFAULT_LIMITS = Limits(time=4.0, memory=256 << 20)
SMALL = 8             # positions with at most this many moves test random_move's reach
STATS_GAMES = 200     # fast playouts for the figures
TRACED_GAMES = 5      # games of the default options whose lines are traced (rule coverage)...
TRACE_BUDGET = 2.0    # ...and more of them while tracing has taken less than this (seconds)

def cpu_clock(worker: int | None = None) -> float:
    """The clock of the time budget: the CPU time of this process and of the worker process
    ``worker`` (a process id) that runs the script, so a loaded machine plays as many games as
    an idle one, just later.  A function of its own so that tests can replace it."""
    return time.process_time() + (cpu_seconds(worker, 0.0) if worker else 0.0)


class Stop(Exception):
    """Ends the checks of one script (a limit was hit, or the runtime is unusable)."""


def check(paths, playouts: int = DEFAULT_PLAYOUTS, seed: int = 0,
          options: dict[str, Any] | None = None, runtime: str | None = None,
          max_plies: int = DEFAULT_MAX_PLIES, limits: Limits = DEFAULT_LIMITS, coverage: bool = True,
          stats_games: int = STATS_GAMES, text_options: bool = False,
          extremes: bool = True, jobs: int = 1, seconds: float = DEFAULT_SECONDS) -> Report:
    """Checks one script or several; returns a :class:`Report`.

    The defaults are played ``playouts`` times and then on until ``seconds`` of CPU time have
    gone into their games (each variant half of both, each option's extreme a tenth);
    ``seconds=0`` plays only the count.

    ``options`` (values, or text with ``text_options``) restrict the games to those options;
    without them every variant, the defaults and (with ``extremes``) each option's extremes
    are played.
    """
    if isinstance(paths, (str, Path)):
        paths = [paths]
    report = Report()
    settings = (playouts, seed, options, runtime_name(runtime), max_plies, limits,
                coverage, stats_games, text_options, extremes, seconds)
    jobs = min(jobs or 1, len(paths))
    if jobs > 1:
        # Scripts are independent: check them in parallel processes, reported in order.
        from concurrent.futures import ProcessPoolExecutor
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            report.scripts.extend(pool.map(_check_one, [str(p) for p in paths], [settings] * len(paths)))
    else:
        report.scripts.extend(_check_one(str(p), settings) for p in paths)
    return report


def _check_one(path: str, settings: tuple) -> "ScriptReport":
    return _ScriptChecker(path, *settings).run()


class _ScriptChecker:
    def __init__(self, path, playouts, seed, options, runtime, max_plies, limits,
                 coverage, stats_games, text_options, extremes=True, seconds=DEFAULT_SECONDS):
        self.extremes = extremes
        self.seconds = max(0.0, float(seconds))
        self.path = path
        self.playouts = max(1, playouts)
        self.seed = seed
        self.options = options
        self.runtime = runtime
        self.max_plies = max_plies
        self.limits = limits
        self.coverage = coverage
        self.stats_games = stats_games
        self.text_options = text_options
        self.r = ScriptReport(path, runtime=runtime)
        self.source = ""              # the script's text, read once (see _run)
        self.hook_lines: dict[str, int] = {}
        self.game: Game | None = None
        self.other: Engine | None = None
        self.pools: list[EnginePool] = []   # closed when the check ends
        self.traced_seconds = 0.0

    # -- reporting errors -------------------------------------------------------------------

    def line(self, hook: str | None, *fallbacks: str) -> int | None:
        for h in (hook, *fallbacks):
            if h and self.hook_lines.get(h):
                return self.hook_lines[h]
        return None

    def script_error(self, exc: ScriptError, where: str = "", code: str | None = None) -> None:
        """Reports an error from a call into the script; raises Stop after a limit."""
        suffix = f" ({where})" if where else ""
        hook = exc.hook
        line = exc.line or self.line(hook) or (self.line("moves") if exc.code == "E052" else None)
        if isinstance(exc, LimitError) or exc.kind in ("time", "memory"):
            c = "E101" if exc.kind == "time" else "E102"
            self.r.add(line, c, f"{hook or 'the script'} {exc.message}{suffix}")
            raise Stop
        if code is None:
            code = exc.code or "E100"   # the host names the contract a hook broke
        what = exc.message if code != "E100" else f"{hook or 'the script'} raised an error: {exc.message}"
        self.r.add(line, code, f"{what}{suffix}")

    # -- the whole check --------------------------------------------------------------------

    def run(self) -> ScriptReport:
        start = time.perf_counter()
        try:
            self._run()
        except Stop:
            pass
        except NomvError as exc:  # a path that cannot be read, an unknown runtime
            self.r.add(getattr(exc, "line", None), "E100", str(exc))
        except Exception as exc:  # noqa: BLE001 - one script's report never hides another's
            self.r.add(None, "E100", f"the check stopped: nomv failed on this script ({type(exc).__name__}: "
                       f"{str(exc)[:300]}); this is a bug in nomv, please report it with the script")
        finally:
            for pool in self.pools:
                pool.close()
            if self.game is not None:
                self.game.close()
        self.r.seconds = time.perf_counter() - start
        return self.r

    def _run(self) -> None:
        try:
            source = self.source = read_script(self.path)
        except ScriptError as exc:
            self.r.add(exc.line, "E100", f"cannot read the script: {exc.message}")
            return
        check_forbidden(self.r, source)
        try:
            # In a worker process, like every other call into the script: loading runs the
            # script's main chunk, which may hang in C code (a pattern) or crash a runtime.
            desc = self._engine(source, "5.4").description
        except ScriptError as exc:
            self._load_error(exc)
            return
        self.hook_lines = desc.get("hook_lines", {})
        self.r.name = desc.get("name") if isinstance(desc.get("name"), str) else None
        check_description(self.r, desc, source)
        if self.r.errors:
            return
        try:
            self.game = Game(source, self.path, "5.4", limits=self.limits)
        except ScriptError as exc:
            self.script_error(exc)
            return
        game = self.game
        self.r.player_names = [game.players.name(p) for p in range(1, game.players.max + 1)]
        configs = self._configurations()
        if self.coverage:
            game.engine.coverage_start()
            game.engine.coverage_pause()
        try:
            for label, values, games, budget in configs:
                self.r.configurations.append(label)
                # At least `games` games, then more until `budget` CPU seconds went into them
                # (the clock is read once a game).
                config_start = self._cpu()
                i, spent = 0, 0.0
                while i < games or spent < budget:
                    # Tracing lines costs some 30 times the script's own time: the rules are
                    # traced in the first games of the defaults and of each variant.
                    # More games of the defaults are traced while that stays cheap.
                    traced = self.coverage and (
                        i < (TRACED_GAMES if label == "defaults" else 0 if label.startswith("option ") else 2)
                        or (label == "defaults" and self.traced_seconds < TRACE_BUDGET))
                    started = time.perf_counter()
                    ok = self._game(label, values, self.seed + i, replay=(i == 0), traced=traced)
                    if traced:
                        self.traced_seconds += time.perf_counter() - started
                    i += 1
                    spent = self._cpu() - config_start
                    if not ok:
                        break
                self.r.games_seconds += max(0.0, spent)
        finally:
            if self.coverage:
                cov: dict[str, Any] | None
                try:
                    cov = game.engine.coverage_stop()
                except NomvError:
                    cov = None
                # After an error the games stopped early: lines that had no chance to run
                # are not news, so coverage is only reported for a script without errors.
                if cov is not None and not self.r.errors:
                    self._coverage(cov)
        if not self.r.errors:
            self._figures()

    def _cpu(self) -> float:
        """The CPU time of this process and of the script's worker process so far."""
        worker = getattr(self.game.engine, "process_id", None) if self.game is not None else None
        return cpu_clock(worker if isinstance(worker, int) else None)

    def _engine(self, source: str, runtime: str) -> Engine:
        """The script on a worker process of its own: loading runs the script's main chunk,
        which may hang in C code (a pattern) or crash a runtime."""
        pool = EnginePool(1, self.limits)
        self.pools.append(pool)
        return pool.engine(source, self.path, runtime)

    def _load_error(self, exc: ScriptError) -> None:
        if exc.kind == "syntax":
            self.r.add(exc.line, "E001", exc.message)
        elif exc.kind in ("time", "memory"):
            self.r.add(exc.line, "E101" if exc.kind == "time" else "E102",
                       f"loading the script {exc.message}")
        elif exc.code == "E002":
            self.r.add(exc.line or _last_line(self.source), "E002", exc.message)
        else:
            self.r.add(exc.line, "E100", f"loading the script raised an error: {exc.message}")

    # -- configurations ---------------------------------------------------------------------

    def _configurations(self) -> list[tuple[str, dict, int, float]]:
        """(label, resolved options, number of games, CPU seconds): the defaults, each variant
        and each option's extremes (min and max, every choice, both booleans)."""
        game = self.game
        assert game is not None, "the script was loaded before its configurations are read"
        out: list[tuple[str, dict, int, float]] = []
        seen: list[dict] = []

        def add(label, given, variant, games, seconds, quiet=False):
            try:
                values = game.resolve_options(given, variant, text=self.text_options and given is self.options)
            except OptionError as exc:
                if quiet:
                    self.r.skipped.append(f"{label} ({exc})")
                    return
                if variant:
                    self.r.add(self.line("check"), "E031", f"check() refuses variant {variant!r}: {exc}")
                elif given is None:
                    self.r.add(self.line("check"), "E033", f"check() refuses the default options: {exc}")
                else:
                    self.r.add(None, "E100", f"the options given cannot be used: {exc}")
                return
            except ScriptError as exc:
                self.script_error(exc, f"checking the options of {label}")
                return
            if values in seen:
                return
            seen.append(values)
            out.append((label, values, games, seconds))

        if self.options:
            add("the given options", self.options, None, self.playouts, self.seconds)
            return out
        add("defaults", None, None, self.playouts, self.seconds)
        for v in game.variants:
            add(f"variant {v!r}", None, v, max(1, self.playouts // 2), self.seconds / 2)
        few = max(1, self.playouts // 10)
        for spec in game.options.ordered() if self.extremes else ():
            values: list = []
            if spec.choices:
                values = list(spec.choices)
            elif spec.type == "bool":
                values = [True, False]
            elif spec.type in ("int", "number"):
                values = [v for v in (spec.min, spec.max) if v is not None]
            for v in values:
                if v != spec.default:
                    add(f"option {spec.name}={_show(v)}", {spec.name: v}, None, few, self.seconds / 10,
                        quiet=True)
        return out

    # -- one random game, checked at every ply ----------------------------------------------

    def _game(self, label: str, values: dict, seed: int, replay: bool, traced: bool = False) -> bool:
        """Plays one random game; returns False when this configuration should stop."""
        if not traced:
            return self._play_game(label, values, seed, replay, lambda on: None)
        assert self.game is not None, "the script was loaded before the games are played"
        engine = self.game.engine
        tracing = [False]

        def trace(on: bool) -> None:
            if on != tracing[0]:
                engine.coverage_start(True) if on else engine.coverage_pause()
                tracing[0] = on
        try:
            return self._play_game(label, values, seed, replay, trace)
        finally:
            trace(False)

    def _play_game(self, label, values, seed, replay, trace) -> bool:
        """The rules (setup, result, to_move, moves, play) are traced at every ply; the other
        hooks, and the host's work, only in the first plies (see _game)."""
        assert self.game is not None, "the script was loaded before the games are played"
        game, engine, r = self.game, self.game.engine, self.r
        np = int(values["players"])
        rng = random.Random(f"{seed}:{label}")
        where = f"{label}, seed {seed}"
        trace(True)
        try:
            state = engine.setup(values, seed_words(seed))
        except ScriptError as exc:
            self.script_error(exc, where)
            return False
        try:
            before = engine.dump(state)
        except ScriptError as exc:
            r.add(self.line("setup"), "E040", f"setup must return plain data: {exc.message} ({where})")
            return False
        if replay:
            again = engine.dump(engine.setup(values, seed_words(seed)))
            if again != before:
                r.add(self.line("setup"), "E061", "setup gave two different states for the same seed"
                      f"{_first_difference(before, again)} ({where})")
        trail: list[int] = []
        ply = 0
        small_checked = 0
        hooks = game.hooks
        r.games += 1
        while True:
            here = f"{where}, ply {ply}"
            trace(True)
            try:
                res = engine.result(state, np)
            except ScriptError as exc:
                self.script_error(exc, here)
                return False
            if res is not None:
                break
            if ply >= self.max_plies:
                r.add(self.line("result"), "E062", f"a random game did not end within {self.max_plies} plies "
                      f"({where}); result never returned a result")
                return False
            try:
                p = engine.to_move(state, np)
            except ScriptError as exc:
                self.script_error(exc, here)
                return False
            assert p is not None, "the host refuses nil while the game runs (E063)"
            # The costly checks run at the first plies, then at every 10th (big boards have
            # thousands of moves and hundreds of scene items).
            full = ply < 4 or ply % 10 == 0
            moves = []   # this ply's list, when it is asked for (else the move is named by number)
            trace(True)
            try:
                if full:
                    moves = [Move.from_json(m) for m in engine.moves(state)]
                    count = len(moves)
                else:
                    count = engine.move_count(state)
            except ScriptError as exc:
                self.script_error(exc, here)
                return False
            r.positions += 1
            r.branching_total += count
            r.branching_max = max(r.branching_max, count)
            if full and len(set(moves)) != len(moves):
                first: dict[Move, int] = {}
                again = next(i for i, m in enumerate(moves) if first.setdefault(m, i) != i)
                try:   # the line that added it the second time, where that can be told
                    added = engine.move_added_at(state, again)
                except ScriptError:
                    added = None
                r.add(added or self.line("moves", "steps"), "E051",
                      f"the move {'-'.join(moves[again].steps)} is listed twice ({here})")
            if full and "steps" in hooks and "moves" in hooks and not self._steps_agree(state, moves, here):
                return False
            drawn = "random_move" in hooks or "steps" in hooks   # a random move of the game's, or the host's
            if not full and count <= SMALL and drawn:
                moves = [Move.from_json(m) for m in engine.moves(state)]
            trace(ply < 2)
            if full and not self._notations(state, moves, here):
                return False
            if full and not self._scene(state, moves, here):
                return False
            if full and "view" in hooks and not self._view(state, before, p, here):
                return False
            if full and "determinize" in hooks and not self._determinize(state, before, p, moves, seed * 1000 + ply, here):
                return False
            if full and "evaluate" in hooks and not self._evaluate(state, before, np, here):
                return False
            if drawn and (full or count <= SMALL):
                ok, small = self._random_move(state, moves, before, seed * 1000 + ply, here,
                                              small_checked < 3)
                small_checked += small
                if not ok:
                    return False
            index = rng.randrange(count)
            trace(True)
            try:
                new = engine.play(state, index)
            except ScriptError as exc:
                self.script_error(exc, f"{here}, playing {_name(moves, index, count)}")
                return False
            trace(False)
            try:
                after = engine.dump(state)
            except ScriptError:
                after = None
            if after != before:
                r.add(self.line("play"), "E060", f"play changed the state it was given"
                      f"{_first_difference(before, after)} (playing {_name(moves, index, count)}, {here}); "
                      "copy what you change: nomv.copy(s.board), nomv.shallow(s)")
            try:
                before = engine.dump(new)
            except ScriptError as exc:
                r.add(self.line("play"), "E041", f"play must return plain data: {exc.message} ({here})")
                return False
            state = new
            trail.append(index)
            ply += 1
            r.plies += 1
        trace(True)
        if not self._scene(state, [], f"{where}, the final position"):
            return False
        if "text" in hooks:
            try:
                engine.text(state)
            except ScriptError as exc:
                self.script_error(exc, f"{where}, the final position")
        trace(False)
        if replay:
            self._replay(values, seed, trail, where)
        return True

    def _notations(self, state, moves: list[Move], here: str) -> bool:
        assert self.game is not None, "the script was loaded before the games are played"
        engine = self.game.engine
        try:
            texts = engine.notations(state)
        except ScriptError as exc:
            self.script_error(exc, here)
            return False
        line = self.line("notation", "moves")
        # Two different moves with one notation (a move listed twice is E051, not this).
        named: dict[str, set[Move]] = {}
        for m, t in zip(moves, texts):
            named.setdefault(t, set()).add(m)
        if any(len(ms) > 1 for ms in named.values()):
            t = next(t for t in texts if len(named[t]) > 1)
            which = list(dict.fromkeys(str(m) for m, x in zip(moves, texts) if x == t))[:2]
            self.r.add(line, "E080", f"two moves ({' and '.join(which)}) have the same notation {t!r}, "
                       f"so the text cannot name one of them ({here})")
            return True
        if "parse" in self.game.hooks:
            picks = range(len(moves)) if len(moves) <= 12 else random.Random(here).sample(range(len(moves)), 12)
            for i in picks:
                try:
                    index, why = engine.parse(state, texts[i])
                except ScriptError as exc:
                    self.script_error(exc, here)
                    return False
                if index != i:
                    got = "nothing" + (f" ({why})" if why else "") if index is None else f"the move {moves[index]}"
                    self.r.add(self.line("parse"), "E080", f"parse({texts[i]!r}) gives {got}, but "
                               f"notation gives {texts[i]!r} for the move {moves[i]} ({here})")
                    break
        return True

    def _scene(self, state, moves: list[Move], here: str) -> bool:
        assert self.game is not None, "the script was loaded before the games are played"
        try:
            scene = self.game.engine.scene(state)
        except ScriptError as exc:
            self.script_error(exc, here)
            return False
        problems, ids = validate_scene(scene)
        for code, message in problems:
            self.r.add(self.line("scene") or Lines(self.source).field("grid"), code, f"{message} ({here})")
        # A step that names no scene item gets a button of its own (pass, roll): a mistake only
        # when it looks like the scene's places (c1 beside a1 and b1: a cell the scene forgot).
        shapes = {_id_shape(i) for i in ids}
        for m in moves:
            missing = [s for s in m.steps if s not in ids and _id_shape(s) in shapes]
            if missing:
                like = next(i for i in sorted(ids) if _id_shape(i) == _id_shape(missing[0]))
                self.r.add(self.line("scene", "moves"), "E090",
                           f"the move {m} has the step {missing[0]!r}, but no scene item has that id, "
                           f"although it looks like the scene's places ({like!r}): the scene seems to "
                           f"have forgotten it, and the window would show it as a button ({here})")
                break
        return True

    def _view(self, state, before, player: int, here: str) -> bool:
        assert self.game is not None, "the script was loaded before the games are played"
        engine = self.game.engine
        try:
            v = engine.view(state, player)
            engine.dump(v)
        except ScriptError as exc:
            if exc.hook == "dump":
                self.r.add(self.line("view"), "E041", f"view must return plain data: {exc.message} ({here})")
            else:
                self.script_error(exc, here)
            return False
        if engine.dump(state) != before:
            self.r.add(self.line("view"), "E060", f"view changed the state it was given ({here})")
        try:
            scene = engine.scene(v)
        except ScriptError as exc:
            self.script_error(exc, f"{here}, the view of player {player}")
            return False
        for code, message in validate_scene(scene)[0]:
            self.r.add(self.line("scene"), code, f"{message} ({here}, the view of player {player})")
        return True

    def _determinize(self, state, before, player: int, moves: list[Move], seed: int, here: str) -> bool:
        """What the computer player searches: a state drawn from the mover's view must look the
        same to the mover and offer the same moves."""
        assert self.game is not None, "the script was loaded before the games are played"
        engine, line = self.game.engine, self.line("determinize")
        try:
            view = engine.view(state, player)
            seen = engine.dump(view)
            drawn = engine.determinize(view, player, seed_words(seed))
        except ScriptError as exc:
            self.script_error(exc, here)
            return False
        try:
            engine.dump(drawn)
        except ScriptError as exc:
            self.r.add(line, "E041", f"determinize must return plain data: {exc.message} ({here})")
            return False
        if engine.dump(view) != seen or engine.dump(state) != before:
            self.r.add(line, "E060", f"determinize changed the state it was given ({here})")
        try:
            again = engine.dump(engine.view(drawn, player))
            drawn_moves = [Move.from_json(m) for m in engine.moves(drawn)]
        except ScriptError as exc:
            self.script_error(exc, f"{here}, a state from determinize")
            return False
        if again != seen:
            self.r.add(line, "E056", f"player {player} can tell the state from determinize from the real "
                       f"one: their view differs{_first_difference(seen, again, 'view')} ({here})")
        elif drawn_moves != moves:
            extra = [str(m) for m in drawn_moves if m not in set(moves)][:3]
            gone = [str(m) for m in moves if m not in set(drawn_moves)][:3]
            self.r.add(line, "E056", "the state from determinize has other legal moves than the real "
                       f"one (more: {', '.join(extra) or 'none'}; fewer: {', '.join(gone) or 'none'}) ({here})")
        return True

    def _evaluate(self, state, before, players: int, here: str) -> bool:
        assert self.game is not None, "the script was loaded before the games are played"
        engine = self.game.engine
        for p in range(1, players + 1):
            try:
                engine.evaluate(state, p)
            except ScriptError as exc:
                self.script_error(exc, here)
                return False
        if engine.dump(state) != before:
            self.r.add(self.line("evaluate"), "E060", f"evaluate changed the state it was given ({here})")
        return True

    def _steps_agree(self, state, moves: list[Move], here: str) -> bool:
        """A game with both moves and steps: the moves steps describes are those moves lists."""
        assert self.game is not None, "the script was loaded before the games are played"
        try:
            described = [Move.from_json(m) for m in self.game.engine.steps_moves(state) or []]
        except ScriptError as exc:
            self.script_error(exc, here)
            return False
        listed, stepped = set(moves), set(described)
        if listed != stepped:
            extra, missing = sorted(stepped - listed, key=str), sorted(listed - stepped, key=str)
            parts = ([f"steps describes {', '.join(map(str, extra[:4]))}, which moves does not list"] if extra else []) + \
                    ([f"moves lists {', '.join(map(str, missing[:4]))}, which steps does not describe"] if missing else [])
            self.r.add(self.line("steps"), "E054", f"{'; '.join(parts)} ({here})")
            return False
        return True

    def _random_move(self, state, moves: list[Move], before, seed: int, here: str,
                     want_small: bool) -> tuple[bool, int]:
        assert self.game is not None, "the script was loaded before the games are played"
        engine = self.game.engine
        small = want_small and len(moves) <= SMALL
        n = max(60, 40 * len(moves)) if small else 5
        try:
            got = engine.random_moves(state, seed_words(seed), n)
        except ScriptError as exc:
            self.script_error(exc, here)
            return False, 0
        hook = "random_move" if "random_move" in self.game.hooks else "steps"
        who = "random_move" if hook == "random_move" else "the random move drawn from steps"
        if engine.dump(state) != before:
            self.r.add(self.line(hook), "E060", f"{hook} changed the state it was given ({here})")
        legal = set(moves)
        chosen = [Move.from_json(m) for m in got or []]
        for m in chosen:
            if m not in legal:
                self.r.add(self.line(hook), "E070",
                           f"{who} returned {m}, which is not a legal move (the legal moves: "
                           f"{', '.join(str(x) for x in moves[:6])}{' ...' if len(moves) > 6 else ''}) ({here})")
                return False, 0
        if small:
            missed = [m for m in moves if m not in set(chosen)]
            if missed:
                self.r.add(self.line(hook), "W071",
                           f"{who} never chose {', '.join(str(m) for m in missed[:4])} in {n} tries "
                           f"among {len(moves)} legal moves: random games miss part of the game ({here})")
        return True, int(small)

    def _replay(self, values: dict, seed: int, trail: list[int], where: str) -> None:
        """The same seed and moves must give the same states, on this runtime and on LuaJIT."""
        game = self.game
        assert game is not None, "the script was loaded before the games are played"
        engines = [("Lua 5.4, a second time", game.engine)]
        try:
            if self.other is None:
                # LuaJIT's hook cannot stop a compiled loop: a worker process can be killed.
                self.other = self._engine(game.source, "jit")
            engines.append(("LuaJIT", self.other))
        except ScriptError:
            pass
        main = game.engine
        for name, other in engines:
            try:
                a, b = main.setup(values, seed_words(seed)), other.setup(values, seed_words(seed))
                for ply, index in enumerate(trail + [None]):
                    da, db = main.dump(a), other.dump(b)
                    if da != db:
                        hook = "setup" if ply == 0 else "play"
                        self.r.add(self.line(hook), "E061",
                                   f"the same seed and moves gave a different state after ply {ply} on "
                                   f"{name}{_first_difference(da, db)} ({where}): use only the rng "
                                   "passed to setup and play, keep no data outside the state, and "
                                   "never let the order of pairs() decide anything")
                        return
                    if index is None:
                        break
                    ma = mb = None
                    if ply < 3 or ply % 10 == 0:
                        ma, mb = main.moves(a), other.moves(b)
                    if ma != mb:
                        self.r.add(self.line("moves"), "E061",
                                   f"the same position gave different move lists at ply {ply} on {name} "
                                   f"({where}): never let the order of pairs() decide the order of moves")
                        return
                    a, b = main.play(a, index), other.play(b, index)
            except ScriptError as exc:
                self.script_error(exc, f"replaying {where} on {name}")
                return

    # -- figures and coverage ---------------------------------------------------------------

    def _figures(self) -> None:
        game = self.game
        assert game is not None, "the figures come after the games, which need the script loaded"
        if self.stats_games <= 0:
            return
        fast: Game | None = None
        given = self.options if self.options else None
        try:
            fast = game if self.runtime == "5.4" else Game(game.source, self.path, self.runtime, limits=self.limits)
            stats = fast.playout(self.stats_games, seed=self.seed, options=given,
                                 text=self.text_options, max_plies=self.max_plies)
        except ScriptError as exc:
            if exc.kind == "time" and not exc.line and fast is not game:
                # LuaJIT's hook does not fire in compiled loops: its worker was stopped, which
                # tells neither the line nor the hook.  The same games on Lua 5.4 (the same
                # seed gives the same games) stop where the script hangs.
                try:
                    game.playout(self.stats_games, seed=self.seed, options=given,
                                 text=self.text_options, max_plies=self.max_plies)
                except ScriptError as again:
                    if again.kind == "time":
                        exc = again
                except OptionError:
                    pass
            self.script_error(exc, "fast playouts")
            return
        except OptionError:
            return
        finally:
            if fast is not None and fast is not game:
                fast.close()
        if stats.unfinished:
            self.r.add(self.line("result"), "E062", f"{stats.unfinished} of {stats.games} random games did "
                       f"not end within {self.max_plies} plies")
        if stats.games and stats.longest == 0:
            # A game over before anyone moved is a script that cannot be played: a result that
            # ends it at once, or (with steps) every partial move a dead end.
            hook = "steps" if "steps" in game.hooks else "result"
            hint = ("; steps must return nil, not {}, for a whole move ({} means a dead end), and a "
                    "list of first steps at the start (nil there is a move of no steps)"
                    if hook == "steps" else "")
            self.r.add(self.line(hook), "W064", f"all {stats.games} random games ended before their first "
                       f"move: the game is over at the start{hint}")
        self.r.stats = {"runtime": fast.runtime, "games": stats.games,
                        "seconds": round(stats.seconds, 4),
                        "games_per_second": round(stats.games_per_second, 1),
                        "average_length": stats.average_length, "longest": stats.longest,
                        "shortest": stats.shortest, "wins": stats.wins, "draws": stats.draws,
                        "lost": stats.lost, "unfinished": stats.unfinished}

    def _coverage(self, cov: dict) -> None:
        source_lines = self.source.split("\n")
        ran = set(cov["ran"])
        active = [l for l in cov["active"] if not _trivial(source_lines, l)]
        ranges = line_ranges(active, ran)
        name = short(self.path)
        for a, b in ranges:
            text = "this line" if a == b else f"{name}:{a}-{b}"
            self.r.add(a, "W110", f"{text} never ran in the random games")
        self.r.coverage = {"active": len(active), "covered": len([l for l in active if l in ran]),
                           "ranges": [[a, b] for a, b in ranges]}


def _name(moves: list[Move], index: int, count: int) -> str:
    """The move played, by its steps when this ply's list was asked for, else by its number."""
    return str(moves[index]) if len(moves) == count else f"move {index + 1} of {count}"


def _trivial(lines: list[str], line: int) -> bool:
    """Lines that hold only `end`, `else` or closing brackets: never a rule of their own."""
    if not 1 <= line <= len(lines):
        return True
    text = re.sub(r"--.*$", "", lines[line - 1]).strip()
    return re.fullmatch(r"(?:end|else|do|then|[)}\],;])*(?:\s*(?:end|else|[)}\],;]))*", text) is not None


def _first_difference(a: Any, b: Any, path: str = "state") -> str:
    def walk(x, y, p):
        if type(x) is not type(y):
            return p
        if isinstance(x, dict):
            for k in sorted(set(x) | set(y), key=str):
                if k not in x or k not in y:
                    return f"{p}.{k}"
                d = walk(x[k], y[k], f"{p}.{k}")
                if d:
                    return d
            return None
        if isinstance(x, list):
            if len(x) != len(y):
                return f"{p} (length {len(x)} then {len(y)})"
            for i, (u, v) in enumerate(zip(x, y), start=1):
                d = walk(u, v, f"{p}[{i}]")
                if d:
                    return d
            return None
        return None if x == y else p
    if b is None:
        return ""
    d = walk(a, b, path)
    return f": {d} differs" if d else ""


def _show(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


def _last_line(source: str) -> int | None:
    """The line of the script's last top-level ``return`` (the game table), else its last line."""
    return Lines(source).return_line or len(source.rstrip().split("\n"))


def _id_shape(step: str) -> str:
    """An id with each run of digits as 0 and each letter as a: c1 and a10 look alike (a0),
    pass (aaaa) looks like neither."""
    return re.sub(r"[A-Za-z]", "a", re.sub(r"\d+", "0", step))
