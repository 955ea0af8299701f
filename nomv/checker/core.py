"""``check(path)``: static checks, then seeded random games of every configuration within a
time budget, in two tiers, then the figures and rule coverage.

The budget of a configuration (``seconds``) goes first to games checked at every ply from
Python, under Lua 5.4 whatever runtime is chosen: its count hook enforces the time limit
everywhere (LuaJIT does not call hooks inside compiled loops).  Such a game costs some 70 random
games, so the rest of the budget goes to fast games played inside Lua with the cheap checks
(nomv/lua/host/checks.lua): a mistake that shows in one game in a hundred is found in seconds.
A mistake a fast game finds is replayed ply by ply from that game's seed and moves, and reported
as the full checks word it.  Rule coverage traces lines in fast games on Lua 5.4 (the rules, at
every ply) and in the first game checked ply by ply (the hooks random games never call).  The
first game of each configuration is replayed on a fresh runtime of the other kind (LuaJIT) to
prove that the same seed gives the same game.  The figures come from the fast games of the
default options, on the chosen runtime.
"""
from __future__ import annotations

import hashlib
import math
import random
import re
import resource
import time
from pathlib import Path
from typing import Any, Sequence

from ..catalog import read_script
from ..engine import Call, Engine, runtime_name
from ..errors import LimitError, NomvError, OptionError, ScriptError
from ..game import Game, Move, seed_words
from ..limits import Limits
from ..pool import EnginePool
from ..runtime import PREVIOUS
from ..scriptlines import Lines
from ..worker import cpu_seconds
from . import cache as kept
from .report import Report, ScriptReport, line_ranges, short
from .scene import validate as validate_scene
from .static import check_description, check_forbidden

#: Games checked ply by ply when there is no time budget (``seconds=0``) and no count is given;
#: with a budget, at least one, then as the budget allows.
DEFAULT_PLAYOUTS = 20
#: The CPU time that goes into the defaults' random games (half of it for each variant, a tenth
#: for each option's extreme): a share to games checked ply by ply, the rest to fast games
#: (random games inside Lua with the cheap checks), so that a mistake that shows in one game in
#: a hundred is found in a few seconds, in a small game as in a wide one.
DEFAULT_SECONDS = 3.0
#: The share of a configuration's budget for the games checked ply by ply (each costs some 70
#: fast games); the rest, and what they leave, goes to the fast games.
CHECKED_SHARE = 0.5
#: Fast games of one configuration at most: a mistake that shows in one game in ten thousand is
#: found in all but one run in 20,000; a small game stops there, well within its budget.
FAST_MOST = 100_000
#: Fast games in a request: one, then twice as many each time, up to this.  The sizes do not
#: depend on the machine's speed, so that the same check plays the same games on a busy machine
#: and a quiet one (its budget only decides how many: the last request is sized by the speed
#: so far), and fast random game 1,234 is the same game in every run.
FAST_BATCH_MOST = 4096
#: Without --thorough, the count of fast games (the figures' 200 for the defaults, 100 for a
#: variant, 20 for an extreme) is a floor only while they have taken less than this share of
#: the configuration's budget (one game at least): a game whose random game costs a second
#: plays what its budget buys, not 200 seconds' worth.
FAST_FLOOR_SHARE = 0.5
#: Second runs under a line hook (the line behind E051, E060) for one script at most: each
#: costs a game's replay and a traced call, and the first ones are the news.
MOST_BLAMES = 3
DEFAULT_MAX_PLIES = 1000
#: The checker's limits: more time than a game's 1.5 s, since its first games trace every line
#: with Lua 5.4's line hook, which slows a call down (3verse's 4verse variant: its opening
#: `moves` took 1.1-1.6 s of CPU traced on the development machine, so that a limit of 2 s gave
#: a false E101 once scaled to 1.3 s, as on a machine a little slower); less memory (a script
#: that needs more than this for a board game is probably leaking).
DEFAULT_LIMITS = Limits(time=4.0, memory=256 << 20)
SMALL = 8             # positions with at most this many moves test random_move's reach
#: The hooks that random games never call: their lines are traced in the games checked ply by ply.
EXTRA_HOOKS = frozenset({"notation", "parse", "scene", "labels", "pieces", "view", "determinize", "evaluate",
                         "text"})
STATS_GAMES = 200     # fast games of the defaults at least (the figures come from them)
#: The share of the defaults' budget for fast games on Lua 5.4 whose lines are traced (rule
#: coverage; at least one such game for the defaults and each variant).
TRACED_SHARE = 0.2
#: Without --thorough, the traced fast games stop once this many have been played and the last
#: half of them ran no line the first half had not: a rule that one game in 30 reaches and the
#: first half missed is then missed in about one check in 70 ((29/30)^128), one that one game in
#: 100 reaches in one in four (W110 says so, and --thorough traces the whole fifth of the budget).
SATURATED = 256
#: Without --thorough, the variants and the options' extremes share at most this much of the
#: defaults' budget between them (each its half or tenth, all scaled down alike when they would
#: take more): a script with a dozen option values has 1.5 times the budget of a script
#: without options, not five times.  Their games checked ply by ply stop once one of
#: them has called every hook the script has, and an extreme's stops after its first FULL_PLIES
#: plies when its share is spent: what a configuration other than the defaults adds is mostly
#: in its first plies, and its fast games go on (FAST_FLOOR_SHARE).  With --thorough (and with
#: --seconds 0), every configuration plays its counts, whole games, whatever they cost.
OTHERS_SHARE = 0.5
FULL_PLIES = 2        # plies of an extreme's game checked ply by ply before it may stop (see OTHERS_SHARE)
#: The hooks a game checked ply by ply calls (those the script has must all have run before a
#: variant's or an extreme's checked games stop early).
CHECKED_HOOKS = frozenset({"setup", "moves", "steps", "play", "result", "to_move", "notation", "parse",
                           "scene", "labels", "pieces", "view", "determinize", "evaluate", "random_move",
                           "text"})

def cpu_clock(workers: Sequence[int] = ()) -> float:
    """The clock of the time budget: the CPU time of this process and of the worker processes
    ``workers`` (process ids) that run the script, so a loaded machine plays as many games as
    an idle one, just later.  A function of its own so that tests can replace it."""
    return time.process_time() + sum(cpu_seconds(pid, 0.0) for pid in workers)


def _cpu_with_children() -> float:
    """The CPU time of this process and of its ended worker processes (a whole check's cost)."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


class Stop(Exception):
    """Ends the checks of one script (a limit was hit, or the runtime is unusable)."""


def check(paths, playouts: int | None = None, seed: int = 0,
          options: dict[str, Any] | None = None, runtime: str | None = None,
          max_plies: int = DEFAULT_MAX_PLIES, limits: Limits = DEFAULT_LIMITS, coverage: bool = True,
          stats_games: int = STATS_GAMES, text_options: bool = False,
          extremes: bool = True, jobs: int = 1, seconds: float = DEFAULT_SECONDS,
          thorough: bool = False, speed: bool = False, cache: bool = False) -> Report:
    """Checks one script or several; returns a :class:`Report`.

    ``seconds`` of CPU time go into the defaults' random games (each variant half, each
    option's extreme a tenth): half of it to games checked ply by ply (at least ``playouts``
    of them; without a count, at least one), the rest to fast games inside Lua with the cheap
    checks (at least ``stats_games`` for the defaults, whose figures come from them).
    ``seconds=0`` plays only the counts (``playouts`` defaulting to 20).

    ``options`` (values, or text with ``text_options``) restrict the games to those options;
    without them every variant, the defaults and (with ``extremes``) each option's extremes
    are played.  Without ``thorough``, the variants and extremes share at most the defaults'
    budget, and spend it as OTHERS_SHARE says; with it, each has its whole share, whole games
    and its counts whatever they cost.  ``speed`` adds each script's speed line (nomv profile's
    :func:`~nomv.profile.check_speed`), measured in the script's own job.  With ``cache``, a
    script checked before with the same text, settings and nomv gets the report of that check
    (:mod:`nomv.checker.cache`), and new reports are kept for next time.
    """
    if isinstance(paths, (str, Path)):
        paths = [paths]
    report = Report()
    start = time.perf_counter()
    settings = (playouts, seed, options, runtime_name(runtime), max_plies, limits,
                coverage, stats_games, text_options, extremes, seconds, thorough, speed)
    names = [str(p) for p in paths]
    done: dict[int, ScriptReport] = {}
    keys: dict[int, str] = {}
    if cache:
        for i, name in enumerate(names):
            try:
                keys[i] = kept.key(name, read_script(name), settings)
            except (ScriptError, OSError):
                continue          # (the check says what is wrong with the file)
            found = kept.load(keys[i])
            if found is not None:
                done[i] = found
    todo = [i for i in range(len(names)) if i not in done]
    jobs = min(jobs or 1, len(todo))
    if jobs > 1:
        # Scripts are independent: check them in parallel processes, reported in order.
        from concurrent.futures import ProcessPoolExecutor
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            done.update(zip(todo, pool.map(_check_one, [names[i] for i in todo], [settings] * len(todo))))
    else:
        done.update((i, _check_one(names[i], settings)) for i in todo)
    for i in todo:
        if i in keys:
            kept.save(keys[i], done[i])
    report.scripts.extend(done[i] for i in range(len(names)))
    report.seconds = time.perf_counter() - start
    return report


def _check_one(path: str, settings: tuple) -> "ScriptReport":
    return _ScriptChecker(path, *settings).run()


class _ScriptChecker:
    def __init__(self, path, playouts, seed, options, runtime, max_plies, limits,
                 coverage, stats_games, text_options, extremes=True, seconds=DEFAULT_SECONDS,
                 thorough=False, speed=False):
        self.extremes = extremes
        self.thorough = thorough
        self.speed = speed
        self.seconds = max(0.0, float(seconds))
        self.path = path
        if playouts is None:
            playouts = DEFAULT_PLAYOUTS if self.seconds <= 0 else 1
        self.playouts = max(1, playouts)
        self.seed = seed
        self.options = options
        self.runtime = runtime
        self.max_plies = max_plies
        self.limits = limits
        self.coverage = coverage
        self.stats_games = stats_games
        self.text_options = text_options
        self.r = ScriptReport(path, runtime=runtime, thorough=thorough)
        self.source = ""              # the script's text, read once (see _run)
        self.hook_lines: dict[str, int] = {}
        self.game: Game | None = None
        self.other: Engine | None = None
        self.other_pool: EnginePool | None = None   # its pool
        self.pools: list[EnginePool] = []   # closed when the check ends
        self.fast_stats: dict[str, _FastStats] = {}   # per configuration
        self.blames = 0                     # second runs under a line hook for E051/E060 so far
        self.play_changed = False           # E060 of play reported
        self.tier: dict[str, Any] = {}      # what the configuration being checked played
        self.exercised: set[str] = set()    # the hooks its games checked ply by ply called

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
        start, cpu_start = time.perf_counter(), _cpu_with_children()
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
        self.r.cpu_seconds = max(0.0, _cpu_with_children() - cpu_start)
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
            loaded = self._engine(source, "5.4")
            desc = loaded.description
        except ScriptError as exc:
            self._load_error(exc)
            return
        self.hook_lines = desc.get("hook_lines", {})
        self.r.name = desc.get("name") if isinstance(desc.get("name"), str) else None
        check_description(self.r, desc, source)
        if self.r.errors:
            return
        try:
            # (on the same worker process: the script is loaded there already)
            self.game = Game(source, self.path, "5.4", limits=self.limits, pool=self.pools[-1])
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
            for label, values, games, budget, fast_least in configs:
                self._configuration(label, values, games, budget, fast_least)
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
        if self.speed and not self.r.errors and self.r.stats:
            self._speed()

    def _speed(self) -> None:
        """nomv profile's speed line, from a short profile on the worker of the fast games
        (the script is loaded there already)."""
        from ..profile import speed_of
        pool = self.other_pool if self.runtime != "5.4" else self.pools[0]
        if pool is None:
            return
        try:
            with Game(self.source, self.path, self.runtime, limits=self.limits, pool=pool) as game:
                self.r.speed = speed_of(self.r, game, self.options)
        except ScriptError as exc:
            self.r.speed = {"path": self.path, "runtime": self.runtime, "profile_error": str(exc),
                            "games_per_second": self.r.stats["games_per_second"] if self.r.stats else 0.0}

    # -- the budget: games checked ply by ply, then fast games -------------------------------

    def _configuration(self, label: str, values: dict, games: int, budget: float, fast_least: int) -> None:
        """One configuration's random games, within `budget` CPU seconds: fast games on Lua 5.4
        with their lines traced for rule coverage (the defaults and each variant: at least one,
        the defaults up to TRACED_SHARE of the budget), games checked ply by ply (at least
        `games`, then up to CHECKED_SHARE of the budget), then, unless a mistake was found,
        fast games on the chosen runtime with what is left (at least `fast_least`)."""
        game = self.game
        assert game is not None, "the script was loaded before the games are played"
        self.r.configurations.append(label)
        self.tier = {"label": label, "budget": round(budget, 3), "games": 0, "plies": 0, "cut": 0,
                     "traced_games": 0, "fast_games": 0, "hooks": [], "hooks_missed": [], "seconds": 0.0}
        self.r.tiers.append(self.tier)
        self.exercised = set()
        errors = len(self.r.errors)
        start = self._cpu()
        try:
            self._tiers(label, values, games, budget, fast_least, errors, start)
        finally:
            self.tier["seconds"] = round(max(0.0, self._cpu() - start), 3)

    def _tiers(self, label: str, values: dict, games: int, budget: float, fast_least: int, errors: int,
               start: float) -> None:
        """The tiers of one configuration (_configuration)."""
        game = self.game
        assert game is not None, "the script was loaded before the games are played"
        # Without --thorough, a budget bounds the counts (OTHERS_SHARE); --seconds 0 plays them.
        quick = self.seconds > 0 and not self.thorough
        main = label in ("defaults", "the given options")
        option = label.startswith("option ")
        if self.coverage and (main or not (option or quick)):
            # First, so that what a script builds once and keeps (a table per board size) is
            # built while its lines are traced.
            share = budget * TRACED_SHARE if label in ("defaults", "the given options") else 0.0
            engine = game.engine
            engine.coverage_start(True)
            try:
                # (without a budget, as many as the games checked ply by ply: they cost less)
                least = 1 if self.seconds > 0 else games
                found = self._fast_games(label, values, least, share, engine, traced=True, saturate=quick)
            finally:
                engine.coverage_pause()
            if found:
                return
        self._checked_games(label, values, games, budget * CHECKED_SHARE, early=quick and not main,
                            cut=quick and option)
        if len(self.r.errors) > errors:
            return
        self._fast_games(label, values, fast_least, budget - (self._cpu() - start), self._fast_engine(),
                         room=budget * FAST_FLOOR_SHARE if quick else None)

    def _checked_games(self, label: str, values: dict, games: int, share: float, early: bool = False,
                       cut: bool = False) -> None:
        """The first tier: at least `games` games checked ply by ply, then more while they have
        taken less than `share` CPU seconds (the clock read once a game).  Lines are traced in
        the first game of the defaults and of each variant.  With `early`, no more than `games`
        once they have called every hook the script has; with `cut`, a game stops after its
        first FULL_PLIES plies once `share` is spent."""
        assert self.game is not None, "the script was loaded before the games are played"
        start = self._cpu()
        i, spent = 0, 0.0
        wanted = CHECKED_HOOKS & set(self.game.hooks)
        while i < games or spent < share:
            if early and i >= games and wanted <= self.exercised:
                break
            traced = self.coverage and not label.startswith("option ") and i == 0
            ok = self._game(label, values, self.seed + i, replay=(i == 0), traced=traced,
                            deadline=start + share if cut else None)
            i += 1
            spent = self._cpu() - start
            if not ok:
                break
        self.tier["hooks"] = sorted(wanted & self.exercised)
        self.tier["hooks_missed"] = sorted(wanted - self.exercised)
        self.r.games_seconds += max(0.0, spent)

    def _fast_games(self, label: str, values: dict, least: int, budget: float, engine: Engine,
                    traced: bool = False, room: float | None = None, saturate: bool = False) -> bool:
        """The second tier: random games inside Lua with the cheap checks at every ply
        (checks.lua), at least `least` of them (with `room`: one at least, the rest of them
        while they have taken less than `room` CPU seconds), then more until `budget` CPU
        seconds went into them, at most FAST_MOST.  They run in batches, each a request, that
        start with one game (one game of a wide game may take a second) and double up to
        FAST_BATCH_MOST.  A mistake they find is replayed ply by ply (the
        game's seed and moves come back from the host) and reported as the full checks say it;
        returns whether one was found.  With `saturate` (games traced for coverage), they stop
        once SATURATED games have been played and the last batch, half of them, ran no line
        that the games before had not."""
        if least <= 0 and budget <= 0:
            return False
        np = int(values["players"])
        start = self._cpu()
        played, spent, size, batch = 0, 0.0, 1, 0
        stats = self.fast_stats.setdefault(label, _FastStats(np))
        kind = "traced" if traced else "fast"
        lines = engine.coverage_lines() if saturate else 0
        while played < FAST_MOST and (played < least and (room is None or played == 0 or spent < room)
                                      or spent < budget):
            n = min(size, FAST_MOST - played)
            bound: float | None = budget
            if played < least:
                n = min(n, least - played)
                bound = None if room is None else max(budget, room)
            if bound is not None and spent > 0:
                # Not far past the budget (or the floor's room): the batch sized by the speed so far.
                n = max(1, min(n, math.ceil((bound - spent) / (spent / played))))
            seed = _batch_seed(self.seed, f"{label} {kind}", batch)
            try:
                figures = engine.check_games(values, seed, n, np, self.max_plies)
            except ScriptError as exc:
                self.r.fast_seconds += max(0.0, self._cpu() - start)
                self._fast_mistake(exc, engine, label, values, seed, n, np, played)
                return True
            if not traced:      # (the figures' speed: untraced games only)
                stats.add(figures)
            played += n
            batch += 1
            spent = self._cpu() - start
            self.tier["traced_games" if traced else "fast_games"] += n
            self.r.fast_games += n
            self.r.fast_plies += int(figures["plies"])
            if saturate:
                lines, before_batch = engine.coverage_lines(), lines
                if played >= SATURATED and lines == before_batch and 2 * n >= played:
                    break
            size = min(size * 2, FAST_BATCH_MOST)
        self.r.fast_seconds += max(0.0, spent)
        return False

    def _fast_engine(self) -> Engine:
        """The runtime the fast games run on: the chosen one (LuaJIT by default: the same
        worker as the replays of the first games)."""
        game = self.game
        assert game is not None, "the script was loaded before the games are played"
        if self.runtime == "5.4":
            return game.engine
        if self.other is None:
            self.other = self._engine(game.source, self.runtime)
            self.other_pool = self.pools[-1]
        return self.other

    def _fast_mistake(self, exc: ScriptError, engine: Engine, label: str, values: dict,
                      seed: list[int], n: int, np: int, before: int) -> None:
        """A mistake a fast game found: replayed ply by ply from that game's seed and moves,
        and reported as the full checks word it (the move played, what differs, the line
        blamed); if the replay does not show it, as the fast game saw it."""
        game = self.game
        assert game is not None, "the script was loaded before the games are played"
        if isinstance(exc, LimitError) and exc.kind == "time" and not exc.line:
            # LuaJIT's hook does not fire in compiled loops: its worker was stopped, which tells
            # neither the line nor the game (so is a worker that a busy machine kept off the
            # processor too long).  The same games on Lua 5.4 stop where it hangs.
            try:
                game.engine.check_games(values, seed, n, np, self.max_plies)
            except ScriptError as again:
                if again.line or not exc.line:
                    exc, engine = again, game.engine
        if exc.hook == "check_games":   # (a worker stopped: the hook that ran is not known)
            exc.hook = None
        try:
            trail = engine.check_trail()
        except ScriptError:
            trail = None
        number = before + int(trail["game"]) if trail else None
        if trail:   # (the games of the failing batch up to the failing one: played too)
            self.r.fast_games += int(trail["game"])
            self.tier["fast_games"] += int(trail["game"])
        where = f"{label}, fast random game {number:,}" if number else f"{label}, fast random games"
        known = len(self.r.diagnostics)
        try:
            if trail and exc.kind not in ("time", "memory"):
                self._play_game(label, values, 0, False, lambda on: None, follow=trail, where=where)
                if len(self.r.diagnostics) > known:
                    return
                where += f", ply {trail['ply']}"
            self.script_error(exc, where)
        finally:
            self.r.fast_found.extend(d.code for d in self.r.diagnostics[known:])

    def _cpu(self) -> float:
        """The CPU time of this process and of the script's worker processes so far."""
        workers = []
        for engine in (self.game.engine if self.game is not None else None, self.other):
            pid = getattr(engine, "process_id", None)
            if isinstance(pid, int):
                workers.append(pid)
        return cpu_clock(workers)

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

    def _configurations(self) -> list[tuple[str, dict, int, float, int]]:
        """(label, resolved options, games checked ply by ply at least, CPU seconds, fast games
        at least): the defaults, each variant and each option's extremes (min and max, every
        choice, both booleans)."""
        game = self.game
        assert game is not None, "the script was loaded before its configurations are read"
        out: list[tuple[str, dict, int, float, int]] = []
        seen: list[dict] = []

        def add(label, given, variant, games, seconds, fast, quiet=False):
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
            out.append((label, values, games, seconds, fast))

        fast = self.stats_games
        if self.options:
            add("the given options", self.options, None, self.playouts, self.seconds, fast)
            return out
        add("defaults", None, None, self.playouts, self.seconds, fast)
        for v in game.variants:
            add(f"variant {v!r}", None, v, max(1, self.playouts // 2), self.seconds / 2, fast // 2)
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
                        fast // 10, quiet=True)
        others = sum(c[3] for c in out if c[0] != "defaults")
        if not self.thorough and others > OTHERS_SHARE * self.seconds > 0:
            scale = OTHERS_SHARE * self.seconds / others
            out = [c if c[0] == "defaults" else (c[0], c[1], c[2], c[3] * scale, c[4]) for c in out]
        return out

    # -- one random game, checked at every ply ----------------------------------------------

    def _game(self, label: str, values: dict, seed: int, replay: bool, traced: bool = False,
              deadline: float | None = None) -> bool:
        """Plays one random game; returns False when this configuration should stop."""
        if not traced:
            return self._play_game(label, values, seed, replay, lambda on: None, deadline=deadline)
        assert self.game is not None, "the script was loaded before the games are played"
        engine = self.game.engine
        tracing = [False]

        def trace(on: bool) -> None:
            if on != tracing[0]:
                engine.coverage_start(True) if on else engine.coverage_pause()
                tracing[0] = on
        try:
            return self._play_game(label, values, seed, replay, trace, deadline=deadline)
        finally:
            trace(False)

    def _play_game(self, label, values, seed, replay, trace, follow: dict | None = None,
                   where: str | None = None, deadline: float | None = None) -> bool:
        """Lines are traced (``trace(True)``) in setup, in play and result at every ply (asked
        from outside a random game, play may take another way: no hint left by random_move), in
        the hooks random games never call (notation, scene, view, ...) in the first two plies
        and the final position, in to_move in the first two plies, and in moves() at every ply
        checked fully when random games do not ask it (a game that has steps() too: listing
        every move of a wide game traced costs seconds).  The fast games traced on Lua 5.4 cover
        the rules at every ply of theirs (_configuration: the defaults', and without a budget or
        with --thorough each variant's), at a fraction of the cost of listing every move; a
        variant's first game checked ply by ply stands in for them otherwise.  With ``follow`` (a
        fast game's trail: its seed and moves), that game is played again, checked fully at
        the ply where it failed, and stops when its moves run out.  With ``deadline`` (a CPU
        clock's time), the game stops after its first FULL_PLIES plies once the clock passes it
        (an extreme's game, without --thorough): its final position is not checked then.  The
        hooks it calls go into ``self.exercised``."""
        assert self.game is not None, "the script was loaded before the games are played"
        game, engine, r = self.game, self.game.engine, self.r
        np = int(values["players"])
        rng = random.Random(f"{seed}:{label}")
        where = where or f"{label}, seed {seed}"
        start = list(follow["seed"]) if follow else seed_words(seed)
        exercised = self.exercised
        trace(True)
        try:
            state = engine.setup(values, start)
        except ScriptError as exc:
            self.script_error(exc, where)
            return False
        exercised.add("setup")
        try:
            before = engine.dump(state)
        except ScriptError as exc:
            r.add(self.line("setup"), "E040", f"setup must return plain data: {exc.message} ({where})")
            return False
        # The states after each ply and the first plies' moves, for the replay (_replay); and
        # whether a hook changed a state (reported as E060: a replay would differ then).
        dumps, changed = [before], False
        listed: list[list[Move]] = []
        if replay:
            again = engine.dump(engine.setup(values, seed_words(seed)))
            if again != before:
                r.add(self.line("setup"), "E061", "setup gave two different states for the same seed"
                      f"{_first_difference(before, again)} ({where})")
        trail: list[int] = []
        ply = 0
        small_checked = 0
        hooks = game.hooks
        # The fast games draw their moves from steps() when a game has it: its moves() runs only
        # here then, and is traced at every ply checked fully.  The hooks random games never
        # call are traced in the first two plies and at the end.
        listed_only_here = "moves" in hooks and "steps" in hooks and "random_move" not in hooks
        extra = bool(EXTRA_HOOKS & set(hooks))
        r.games += 1
        if follow is None:
            self.tier["games"] += 1
        while True:
            here = f"{where}, ply {ply}"
            if deadline is not None and ply >= FULL_PLIES and self._cpu() > deadline:
                # Its share is spent: the position it stopped at stands for the final one (its
                # text; the scene had its checks at every ply so far), and the plies so far are
                # replayed.
                self.tier["cut"] += 1
                if "text" in hooks:
                    try:
                        engine.text(state)
                    except ScriptError as exc:
                        self.script_error(exc, f"{here}, where the game stopped")
                        return False
                    exercised.add("text")
                if replay and not changed:
                    self._replay(values, seed, trail, where, dumps, listed)
                return True
            # The costly checks run at the first plies, then at every 10th (big boards have
            # thousands of moves and hundreds of scene items); lines are traced there too.
            full = ply < 4 or ply % 10 == 0 or (follow is not None and ply >= int(follow["ply"]))
            trace(True)        # (result at every ply: the ends of a variant's game, too)
            try:
                res = engine.result(state, np)
            except ScriptError as exc:
                self.script_error(exc, here)
                return False
            exercised.add("result")
            if res is not None:
                break
            if ply >= self.max_plies:
                r.add(self.line("result"), "E062", f"a random game did not end within {self.max_plies} plies "
                      f"({where}); result never returned a result")
                return False
            trace(ply < 2)
            try:
                p = engine.to_move(state, np)
            except ScriptError as exc:
                self.script_error(exc, here)
                return False
            assert p is not None, "the host refuses nil while the game runs (E063)"
            exercised.add("to_move")
            moves = []   # this ply's list, when it is asked for (else the move is named by number)
            trace(full and listed_only_here)
            try:
                if full:
                    moves = [Move.from_json(m) for m in engine.moves(state)]
                    count = len(moves)
                else:
                    count = engine.move_count(state)
            except ScriptError as exc:
                self.script_error(exc, here)
                return False
            exercised.add("moves" if "moves" in hooks else "steps")
            if full and ply < 3:
                listed.append(moves)
            r.positions += 1
            r.branching_total += count
            r.branching_max = max(r.branching_max, count)
            if full and len(set(moves)) != len(moves) and not r.has_error("E051"):
                # (once: the same mistake shows at every ply, and the line costs a second run)
                first: dict[Move, int] = {}
                again = next(i for i, m in enumerate(moves) if first.setdefault(m, i) != i)
                added = None
                if self.blames < MOST_BLAMES:
                    self.blames += 1
                    try:   # the line that added it the second time, where that can be told
                        added = engine.move_added_at(state, again)
                    except ScriptError:
                        added = None
                r.add(added or self.line("moves", "steps"), "E051",
                      f"the move {'-'.join(moves[again].steps)} is listed twice ({here})")
            if full and "steps" in hooks and "moves" in hooks:
                if not self._steps_agree(state, moves, here):
                    return False
                exercised.add("steps")
            drawn = "random_move" in hooks or "steps" in hooks   # a random move of the game's, or the host's
            if not full and count <= SMALL and drawn:
                moves = [Move.from_json(m) for m in engine.moves(state)]
            trace(ply < 2 and extra)
            if full and not self._notations(state, moves, here):
                return False
            if full and not self._scene(state, moves, here):
                return False
            if full:
                exercised.update(("notation", "scene", "labels", "pieces"))
                if moves:
                    exercised.add("parse")
            # (A hook that changed the state is reported once: the hooks after it, and play,
            # are held to the state as it then was.)
            if full and "view" in hooks:
                if not self._view(state, before, p, here):
                    return False
                before = self._as_it_is(state, before)
                exercised.add("view")
            if full and "determinize" in hooks:
                if not self._determinize(state, before, p, moves, seed * 1000 + ply, here):
                    return False
                before = self._as_it_is(state, before)
                exercised.add("determinize")
            if full and "evaluate" in hooks:
                if not self._evaluate(state, before, np, here):
                    return False
                before = self._as_it_is(state, before)
                exercised.add("evaluate")
            if drawn and (full or count <= SMALL):
                ok, small = self._random_move(state, moves, before, seed * 1000 + ply, here,
                                              small_checked < 3)
                small_checked += small
                if not ok:
                    return False
                before = self._as_it_is(state, before)
                exercised.update(("random_move", "steps"))
            changed = changed or before != dumps[-1]
            index = rng.randrange(count)
            playing = _name(moves, index, count)
            trace(True)
            try:
                if follow is None:
                    new = engine.play(state, index)
                elif ply < len(follow["moves"]):
                    playing = str(Move.from_json(follow["moves"][ply]))
                    new = engine.play_steps(state, Move.from_json(follow["moves"][ply]).steps)[0]
                else:
                    return True     # (the fast game's moves end here)
            except ScriptError as exc:
                if exc.code == "illegal":   # (the same seed and moves gave another game here)
                    return False
                self.script_error(exc, f"{here}, playing {playing}")
                return False
            trace(False)
            exercised.add("play")
            try:
                after = engine.dump(state)
            except ScriptError:
                after = None
            changed = changed or after != before
            if after != before and not self.play_changed:
                line, how = self._changed_at(values, start, trail, follow, ply, index)
                what = how or _first_difference(before, after)
                r.add(line or self.line("play"), "E060", f"play changed the state it was given{what} "
                      f"(playing {playing}, {here}); copy what you change: nomv.copy(s.board), nomv.shallow(s)")
                self.play_changed = True     # (once: every later ply would say it again)
            try:
                before = engine.dump(new)
            except ScriptError as exc:
                r.add(self.line("play"), "E041", f"play must return plain data: {exc.message} ({here})")
                return False
            dumps.append(before)
            state = new
            trail.append(index)
            ply += 1
            r.plies += 1
            if follow is None:
                self.tier["plies"] += 1
        trace(bool({"scene", "labels", "pieces", "text"} & set(hooks)))
        if not self._scene(state, [], f"{where}, the final position"):
            return False
        if "text" in hooks:
            try:
                engine.text(state)
            except ScriptError as exc:
                self.script_error(exc, f"{where}, the final position")
            exercised.add("text")
        trace(False)
        if replay and not changed:
            self._replay(values, seed, trail, where, dumps, listed)
        return True

    def _as_it_is(self, state, before: Any) -> Any:
        """The state's dump to hold the next hooks to, after a hook that may have changed it
        (and was reported for it: once is enough)."""
        assert self.game is not None, "the script was loaded before the games are played"
        try:
            return self.game.engine.dump(state)
        except ScriptError:
            return before

    def _changed_at(self, values: dict, start: list[int], trail: list[int], follow: dict | None,
                    ply: int, index: int) -> tuple[int | None, str]:
        """E060: the line that changed the state play was given, and the words for it (": this
        line changes state.board[7] through 'board', ..."), found by playing the game to this
        ply again and the move once more under a line hook (blame.lua); (None, "") when that
        cannot be told."""
        game = self.game
        assert game is not None, "the script was loaded before the games are played"
        if self.blames >= MOST_BLAMES:
            return None, ""
        self.blames += 1
        engine = game.engine
        try:
            if follow is None:
                replies = engine.batch([Call("setup", (values, start))] +
                                       [Call("play", (PREVIOUS, i)) for i in trail])
                if any(reply.status != "ok" for reply in replies):
                    return None, ""
                fresh = replies[-1].value
            else:
                played = [Move.from_json(m) for m in follow["moves"]]
                fresh = engine.replay(values, start, [m.steps for m in played[:ply]])[-1]
                index = [Move.from_json(m) for m in engine.moves(fresh)].index(played[ply])
            found = engine.play_changed_at(fresh, index)
        except (ScriptError, ValueError, IndexError):
            return None, ""
        if not found or not isinstance(found.get("line"), int):
            return None, ""
        words = f": this line changes {found['path']}{found['key']}"
        via = found.get("via")
        if via and isinstance(via.get("line"), int):
            words += f" through '{via['name']}', which is {found['path']} itself"
            if via["line"] != found["line"]:
                text = Lines.text_of(self.source, via["line"])
                words += f" since line {via['line']}" + (f" ({text})" if text else "")
        return found["line"], words

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
        if not ids:
            # No item to click at all, though the steps name cells (d2, aa10): the scene forgot
            # every id, and the window would show the whole board as buttons.
            cells = [s for m in moves for s in m.steps if re.fullmatch(r"[a-z]{1,2}\d{1,2}", s)]
            if cells and len(cells) == sum(len(m.steps) for m in moves):
                self.r.add(self.line("scene", "moves"), "E090",
                           f"no item of the scene has an id, but the steps name cells ({cells[0]!r}): give the "
                           f"items that are clicked their ids (id = g.ids[i]), or the window shows every move as a "
                           f"button ({here})")
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

    def _replay(self, values: dict, seed: int, trail: list[int], where: str, dumps: list[Any],
                listed: list[list[Move]]) -> None:
        """The same seed and moves must give the same states, on this runtime and on LuaJIT:
        the game is played again on each, and its states held to those it had (`dumps`, the
        state after each ply; `listed`, the moves of its first plies).  (A game in which a hook
        changed a state it was given is not replayed: it went another way for that, E060.)"""
        game = self.game
        assert game is not None, "the script was loaded before the games are played"
        engines = [("Lua 5.4, a second time", game.engine)]
        try:
            if self.other is None:
                # LuaJIT's hook cannot stop a compiled loop: a worker process can be killed.
                self.other = self._engine(game.source, "jit")
                self.other_pool = self.pools[-1]
            engines.append(("LuaJIT", self.other))
        except ScriptError:
            pass
        for name, other in engines:
            try:
                b = other.setup(values, seed_words(seed))
                for ply, index in enumerate(trail + [None]):
                    da, db = dumps[ply], other.dump(b)
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
                    # The order of the first plies' moves, on LuaJIT (listing them costs a wide
                    # game dear; the order pairs() gives differs between runtimes, and seldom
                    # between two runs on one).
                    if ply < len(listed) and (name == "LuaJIT" or len(engines) == 1) and \
                            [Move.from_json(m) for m in other.moves(b)] != listed[ply]:
                        self.r.add(self.line("moves"), "E061",
                                   f"the same position gave different move lists at ply {ply} on {name} "
                                   f"({where}): never let the order of pairs() decide the order of moves")
                        return
                    b = other.play(b, index)
            except ScriptError as exc:
                self.script_error(exc, f"replaying {where} on {name}")
                return

    # -- figures and coverage ---------------------------------------------------------------

    def _figures(self) -> None:
        """The figures of the default options (or the given ones), from their fast games."""
        game = self.game
        assert game is not None, "the figures come after the games, which need the script loaded"
        label = "the given options" if self.options else "defaults"
        stats = self.fast_stats.get(label)
        if stats is None or not stats.games:
            return
        if stats.longest == 0:
            # A game over before anyone moved is a script that cannot be played: a result that
            # ends it at once, or (with steps) every partial move a dead end.
            hook = "steps" if "steps" in game.hooks else "result"
            hint = ("; steps must return nil, not {}, for a whole move ({} means a dead end), and a "
                    "list of first steps at the start (nil there is a move of no steps)"
                    if hook == "steps" else "")
            self.r.add(self.line(hook), "W064", f"all {stats.games} random games ended before their first "
                       f"move: the game is over at the start{hint}")
        self.r.stats = {"runtime": self.runtime, "games": stats.games,
                        "seconds": round(stats.seconds, 4),
                        "games_per_second": round(stats.games / stats.seconds, 1) if stats.seconds > 0 else 0.0,
                        "average_length": stats.plies / stats.games, "longest": stats.longest,
                        "shortest": stats.shortest, "wins": stats.wins, "draws": stats.draws,
                        "lost": stats.lost, "unfinished": 0}

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


def _batch_seed(seed: int, label: str, batch: int) -> list[int]:
    """The seed of one batch of fast games: the same for the same check, whatever the process."""
    digest = hashlib.sha256(f"{seed}:{label}:{batch}".encode()).digest()
    return seed_words(int.from_bytes(digest[:6], "big"))


class _FastStats:
    """The figures of one configuration's fast games, summed over their batches."""

    def __init__(self, players: int):
        self.games = self.plies = self.longest = self.draws = self.lost = 0
        self.shortest = 0
        self.wins = [0] * players
        self.seconds = 0.0

    def add(self, figures: dict[str, Any]) -> None:
        games = int(figures["games"])
        if not games:
            return
        self.shortest = int(figures["shortest"]) if not self.games else min(self.shortest, int(figures["shortest"]))
        self.games += games
        self.plies += int(figures["plies"])
        self.longest = max(self.longest, int(figures["longest"]))
        self.wins = [a + int(b) for a, b in zip(self.wins, figures["wins"])]
        self.draws += int(figures["draws"])
        self.lost += int(figures.get("lost", 0))
        self.seconds += max(0.0, float(figures.get("seconds", 0.0)))


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
