"""The only module of the server that loads game scripts and holds positions.

Everything else asks it in plain data (a match's key, its moves as lists of steps) and gets
plain data back, so that moving to the engine pool (a few worker processes hosting the
runtimes of many scripts) changes this module alone.

The games run on an :class:`~nomv.pool.EnginePool`: a few worker processes, each holding the
runtimes of many scripts and the states of many positions (a process stopped at a time limit
takes nothing with it: its positions are replayed into another).  Each loaded script is one
:class:`nomv.Game` on that pool with a *lane* per process of the pool: a match is always served
by the same lane, whose process holds its position, so that a position is never touched by two
threads at once while the matches of one busy script are served side by side.  A lane is a lock,
not a thread: the request's own thread does the work while it holds the lane (handing it to
another thread and back cost more than playing a Trinim move).
Positions are kept in an LRU of ``cache_positions`` matches (over all scripts); a match not in
memory, or one whose version in the database moved on (another process, a takeback), is
brought up to date by replaying its moves.  Scripts are kept in an LRU of ``cache_scripts``
(one evicted is unloaded from the pool's processes).

A look at a match whose version was looked at before is answered from :class:`~.looks.Looks`
without taking the script's lane; what a look needs of a new position (the outcome, the
legal moves and each viewer's view and scene) is asked of the worker process in one request.

Computer players search on :class:`Searcher`\\ s: each with a pool of its own (its own worker
process) and its own thread, so that a search never holds up a person's move.
"""
from __future__ import annotations

import dataclasses
import itertools
import json
import logging
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

import orjson

from ..errors import GameOverError, IllegalMoveError, NomvError, OptionError, ScriptError, StaleStateError
from ..languages import is_text
from ..play.drawing import drawing
from ..play.marks import SceneFacts
from ..game import SPECTATOR, Game, Move, Position
from ..limits import Limits
from ..pool import EnginePool
from ..record import play_recorded
from ..worker import WorkerEngine, cpu_seconds
from .errors import ApiError, Busy, Conflict, Illegal, Invalid, ScriptFailed
from .looks import Looks, seen_as
from .snapshots import MatchKey, MovesLoader, Played, Script, Snapshot


#: Decimals kept of a scene's coordinates and sizes: a ten-thousandth of a cell is far below a
#: pixel, and a Trinim scene's JSON is half as long as with the seventeen digits of a float.
DECIMALS = 4


def rounded(value: Any) -> Any:
    """``value`` with every float rounded to DECIMALS (dicts and lists copied, the rest kept)."""
    t = type(value)
    if t is dict:
        return _rounded_dict(value)
    if t is list:
        return _rounded_list(value)
    return round(value, DECIMALS) if t is float else value


def _rounded_dict(d: dict) -> dict:
    out = {}
    for k, v in d.items():
        t = type(v)
        out[k] = round(v, DECIMALS) if t is float else _rounded_list(v) if t is list else \
            _rounded_dict(v) if t is dict else v
    return out


def _rounded_list(values: list) -> list:
    out = []
    for v in values:
        t = type(v)
        out.append(round(v, DECIMALS) if t is float else _rounded_list(v) if t is list else
                   _rounded_dict(v) if t is dict else v)
    return out


log = logging.getLogger("nomv.server")

#: A script whose work ended a shared worker process (a crash; or STOPS_BEFORE_QUARANTINE kills
#: at the time limit within QUARANTINE_SECONDS) runs on a worker process of its own that long.
QUARANTINE_SECONDS = 3600.0
STOPS_BEFORE_QUARANTINE = 3

#: Work waits for a lane (the thread of a script's matches in one worker process) while a
#: request thread waits for it: once the oldest work waiting there has waited this long
#: (seconds), more is refused at once (503, try again) rather than queued.  A slow script
#: (a call of a second, under its time limit) flooded with requests held every request thread
#: of the server otherwise; a fast one never waits this long unless the machine is overloaded.
LANE_PATIENCE = 2.0
#: The most work waiting for (or done by) the scripts of all games at once: fewer than the
#: framework's 40 request threads, so that some are always left for the rest of the server.
WAITING_IN_ALL = 30
#: The name of the framework's request threads (anyio's): only they are refused work, as they
#: are what a flood takes.  The server's own threads (computer players, the clock, jobs) wait
#: their turn: a computer's move refused would leave its match stuck.
REQUEST_THREAD = "AnyIO worker thread"


def on_request_thread() -> bool:
    return threading.current_thread().name == REQUEST_THREAD



class _Restarted(Busy):
    """A state of this match was in a worker process that another game's script crashed or
    hung (StaleStateError): not this game's failure.  The work is done again on the fresh
    process; this reaches the client only when that keeps happening."""

    def __init__(self) -> None:
        super().__init__("a worker process this game needed was restarted (another game's script "
                         "stopped it); nothing was changed: try again")


def script_failed(exc: ScriptError, doing: str) -> ApiError:
    """The answer to a script's failure: ScriptFailed (502) naming it, where and how; but a
    state lost with another game's worker process is not this game's failure (_Restarted)."""
    if isinstance(exc, StaleStateError):
        return _Restarted()
    failed = ScriptFailed(f"the game's script failed {doing}: {exc}", hook=exc.hook,
                          line=exc.line, kind=exc.kind)
    failed.process_ended = exc.process_ended
    return failed


#: The form of what describe() keeps: 2 keeps the script's texts in every language it gives
#: (title, info, player names, option labels and help); a description of an older form is
#: made again (Catalogue).
DESCRIPTION_FORM = 2


def describe(game: Game) -> dict:
    """A loaded game as the catalogue shows it, with the script's texts as it gives them (a
    text, or a table of languages: nomv.languages)."""
    p = game.players
    return {
        "form": DESCRIPTION_FORM,
        "name": game.name,
        "title": game.title_text,
        "info": {k: v for k, v in game.info.items() if is_text(v) or isinstance(v, (int, float))},
        "players": {"min": p.min, "max": p.max, "default": p.default,
                    "names": [p.name_texts[i] if i < len(p.name_texts) else None for i in range(p.max)],
                    "colours": list(p.colours)},
        "options": [{"name": s.name, "type": s.type, "default": s.default, "min": s.min,
                     "max": s.max, "choices": list(s.choices), "help": s.help, "label": s.label,
                     "order": s.order, "allowed": s.allowed()} for s in game.options.ordered()],
        "variants": {name: dict(values) for name, values in sorted(game.options.variants.items())},
        "hidden_information": "view" in game.hooks,
    }


def replay_alone(script: Script, limits: Limits, options: dict, seed: int, notations: list[str],
                 steps: list[list[str]] | None, budget: float, stop: threading.Event | None = None) -> dict:
    """Replays a record's moves in a worker process of its own (so that a long record holds up
    nobody's match), within ``budget`` seconds of that process's CPU (or four times that in real
    time): {"options", "players", "moves": [(steps, notation, seat)], "to_move", "outcome": its
    text or None}, or Invalid naming the move that cannot be played.  With ``steps`` (a version
    2 record), each move is played by its steps and must still be written as recorded."""
    started = time.monotonic()
    try:
        game = Game(script.source, script.path, limits=limits)
    except ScriptError as exc:
        raise script_failed(exc, "to load") from None
    with game:
        try:
            pos = game.start(options=options, seed=seed)
        except (OptionError, ValueError, TypeError) as exc:
            raise Invalid(f"the record's options: {exc}") from None
        except ScriptError as exc:
            raise script_failed(exc, "to set up the match") from None
        played = []
        engine = game.engine
        assert isinstance(engine, WorkerEngine), "a game of its own runs in a worker process"
        for number, text in enumerate(notations, start=1):
            pid = engine.process_id
            used = cpu_seconds(pid, 0.0) if pid is not None else 0.0
            if used > budget or time.monotonic() - started > 4 * budget:
                raise Invalid(f"the replay of the record took more than the {budget:g} s this server gives it "
                              f"(it was at move {number} of {len(notations)})")
            if stop is not None and stop.is_set():
                raise ApiError("the server is stopping")
            try:
                seat = pos.to_move
                move = play_recorded(pos, text, None if steps is None else steps[number - 1])
            except IllegalMoveError as exc:
                raise Invalid(f"move {number} ({text[:60]!r}) of the record cannot be played: {exc}") from None
            except ScriptError as exc:
                raise script_failed(exc, f"replaying move {number} of the record") from None
            played.append((list(move.steps), pos.history_notation[-1], seat))
        try:
            outcome = pos.outcome()
            to_move = pos.to_move if outcome is None else None
        except ScriptError as exc:
            raise script_failed(exc, f"after move {len(notations)} of the record") from None
        return {"options": pos.chosen, "players": pos.players, "moves": played, "to_move": to_move,
                "outcome": None if outcome is None else outcome.describe(game.players)}


@dataclass
class _Entry:
    #: The match's version in the database that the position is at; None after a move not
    #: yet known to be stored (the next use checks the position's moves against the database's).
    version: int | None
    position: Position
    views: dict = field(default_factory=dict)    # (ply, seen_as(viewer)) -> {"view", "scene", "drawing", "marks"}
    facts: dict = field(default_factory=dict)    # the same keys -> SceneFacts of its scene
    sizes: dict = field(default_factory=dict)    # the same keys -> the view's size (json_size)
    agents: dict = field(default_factory=dict)   # seat -> (spec, agent), for searchers

    @property
    def bytes(self) -> int:
        """About what the entry holds in this process: its views (the position's own memo of
        its script's answers holds the same objects)."""
        return sum(self.sizes.values())


class Retired(Exception):
    """The script was unloaded (evicted) while a request waited for it: load it again."""


class _Loaded:
    """One loaded script and the positions of its matches, served by its lanes: one per
    process of the pool; match ``id`` is served by lane ``id % lanes``, whose process holds
    its position, and only there.  A lane is a lock: one thread at a time works on its
    matches (an entry is touched by the thread holding its lane alone)."""

    def __init__(self, script: Script, limits: Limits, pool: EnginePool, threaded: bool = True,
                 alone: bool = False):
        self.script = script
        self.limits = limits
        self.pool = pool
        #: Whether the pool is the script's own (closed with it): a script that stopped shared
        #: worker processes runs alone.
        self.alone = alone
        # (a Searcher's scripts are used on the searcher's own thread: they need none)
        self.lanes = [threading.Lock() for _ in range(pool.processes)] if threaded else []
        self.retired = False
        self.game: Game | None = None
        self.entries: dict[int, _Entry] = {}
        self._loading = threading.Lock()
        self._turn = itertools.count()
        #: Per lane, since when each thread waiting for it has waited.
        self._queued: list[dict[int, float]] = [{} for _ in self.lanes]
        self._queued_lock = threading.Lock()
        self._tickets = itertools.count()

    def load(self) -> Game:
        with self._loading:       # (the lanes' first requests may come at once)
            if self.game is None:
                try:
                    self.game = Game(self.script.source, self.script.path, limits=self.limits, pool=self.pool)
                except ScriptError as exc:
                    raise script_failed(exc, "to load") from None
            return self.game

    def key(self) -> str | None:
        """The script's name in the worker processes (nomv.worker.script_key), once loaded."""
        game = self.game
        engine = game.engine if game is not None else None
        return engine.key if isinstance(engine, WorkerEngine) else None

    def lane_of(self, match_id: int | None) -> int:
        """The lane (and pool process) of a match; the next in turn for work on no match."""
        number = next(self._turn) if match_id is None else match_id
        return number % self.pool.processes

    def run(self, work: Callable[["_Loaded"], Any], match_id: int | None) -> Any:
        """``work(self)`` on the calling thread, holding the match's lane (Retired once the
        script is unloaded); Busy, on a request thread, when the work waiting for the lane has
        waited over LANE_PATIENCE already (the script is too slow for the requests it is sent)."""
        assert self.lanes, "the server's scripts are loaded with lanes"
        lane = self.lane_of(match_id)
        ticket = next(self._tickets)
        with self._queued_lock:
            queued = self._queued[lane]
            if queued and on_request_thread() and time.monotonic() - min(queued.values()) > LANE_PATIENCE:
                raise Busy(f"the game {self.script.path} has more requests waiting than it can serve "
                           "(its script is slow); nothing was changed: try again in a moment")
            queued[ticket] = time.monotonic()
        try:
            with self.lanes[lane]:
                with self._queued_lock:
                    queued.pop(ticket, None)
                if self.retired:
                    raise Retired()
                return work(self)
        finally:
            with self._queued_lock:
                queued.pop(ticket, None)

    def drop(self, match_id: int) -> None:
        """Forgets a match's position (on its lane: not while a request uses it)."""
        if self.lanes:
            with self.lanes[self.lane_of(match_id)]:
                self.entries.pop(match_id, None)

    def close(self) -> None:
        self.entries.clear()
        if self.game is not None:
            engine = self.game.engine
            assert isinstance(engine, WorkerEngine), "a game given a pool runs on the pool's workers"
            self.pool.release(engine)   # its runtime and states leave the processes
            self.game = None
        if self.alone:
            self.pool.close()

    def retire(self) -> None:
        """Takes no more work, and is closed once the work under way on its lanes is done."""
        self.retired = True

        def close_after() -> None:
            for lane in self.lanes:
                with lane:
                    pass
            self.close()
        threading.Thread(target=close_after, name="nomv-script-retire", daemon=True).start()


def json_size(value: Any) -> int:
    """The length of a value's JSON in bytes: what sending it costs, and about what keeping it
    does (orjson: the standard library's cost a tenth of a move's CPU)."""
    try:
        return len(orjson.dumps(value, default=repr, option=orjson.OPT_NON_STR_KEYS))
    except (TypeError, orjson.JSONEncodeError):
        pass        # what orjson refuses (an int past 64 bits...): json words it with repr below
    return len(json.dumps(value, separators=(",", ":"), ensure_ascii=False, default=repr).encode())


class _Positions:
    """Positions of matches in loaded scripts: sync to the database's version, snapshots.  A
    view larger than ``max_look_bytes`` (its JSON) is neither sent nor kept: the viewer is told
    so, as of a script's failure."""

    def __init__(self, max_look_bytes: int = 2**20):
        self.max_look_bytes = max_look_bytes

    # -- (called holding the match's lane) ---------------------------------------------------------

    def entry(self, loaded: _Loaded, key: MatchKey, load_moves: MovesLoader) -> _Entry:
        game = loaded.load()
        entry = loaded.entries.get(key.id)
        if entry is not None and entry.version == key.version:
            return entry
        moves = load_moves()
        if key.ply is not None and len(moves) != key.ply:
            # (a match row and its moves read from two states of the database)
            raise Conflict("the match changed while it was read; look again")
        position = entry.position if entry is not None else None
        if entry is not None and position is not None and position.ply <= len(moves) and all(
                list(m.steps) == list(s) for m, s in zip(position.history, moves)):
            start = position.ply          # the same game, moves added since: play them
        else:
            entry = None
            try:
                position = game.start(options=key.options, seed=key.seed, process=loaded.lane_of(key.id))
            except OptionError as exc:
                raise Invalid(f"the match's options no longer suit its script: {exc}") from None
            except ScriptError as exc:
                raise script_failed(exc, "to set up the match") from None
            start = 0
        try:
            position.play_moves([list(m) for m in moves[start:]])   # one round trip
        except IllegalMoveError as exc:
            raise ScriptFailed(f"move {position.ply + 1} of the match cannot be replayed: {exc}") from None
        except ScriptError as exc:
            raise script_failed(exc, f"replaying move {position.ply + 1}") from None
        if entry is None:
            entry = loaded.entries[key.id] = _Entry(key.version, position)
        entry.version = key.version
        return entry

    def snapshot(self, loaded: _Loaded, entry: _Entry, viewers: list) -> Snapshot:
        pos = entry.position
        game = pos.game
        hidden = "view" in game.hooks
        # What the look needs and is not known yet, in one request to the worker process.
        unseen = [seen for seen in dict.fromkeys(seen_as(v, hidden) for v in viewers)
                  if (pos.ply, seen) not in entry.views]
        try:
            pos.prefetch(unseen)
        except ScriptError:
            pass        # (asked again one by one below, where the failure is reported)
        try:
            raw = pos.outcome()
            outcome = None if raw is None else {
                "winner": raw.winner, "ranks": list(raw.ranks),
                "scores": None if raw.scores is None else list(raw.scores),
                "reason": raw.reason, "text": raw.describe(game.players)}
            to_move = pos.to_move
            legal = []
            if raw is None:
                legal = [{"steps": list(m.steps), "notation": text, "any_order": m.any_order,
                          "label": m.label} for m, text in zip(pos.legal_moves, pos.notations())]
        except ScriptError as exc:
            raise script_failed(exc, f"at move {pos.ply}") from None
        views, sizes = {}, {}
        for viewer in viewers:
            seen = seen_as(viewer, hidden)
            shown = entry.views.get((pos.ply, seen))
            if shown is None:
                shown, entry.sizes[(pos.ply, seen)], facts = self._view(
                    pos, seen, before=entry.facts.get((pos.ply - 1, seen)))
                entry.views[(pos.ply, seen)] = shown
                if facts is not None:
                    entry.facts[(pos.ply, seen)] = facts
            views[viewer] = shown
            sizes[viewer] = entry.sizes[(pos.ply, seen)]
        # The previous position's views are kept: their scenes are the "before" of the marks.
        for kept in (entry.views, entry.facts, entry.sizes):
            for old in [k for k in kept if not pos.ply - 1 <= k[0] <= pos.ply]:
                del kept[old]
        return Snapshot(pos.ply, to_move, outcome, legal, views, hidden, sizes)

    def _view(self, pos: Position, player, ply: int | None = None,
              before: SceneFacts | None = None) -> tuple[dict, int, SceneFacts | None]:
        """What ``player`` (seen_as: a seat or SPECTATOR with hidden information, else None:
        the whole state) is shown of the position after the first ``ply`` moves (default: all
        of them): the view, its scene (rounded: DECIMALS), and its drawing (nomv.play.drawing:
        what the window draws, the marks of the move that led there among it, from the scenes
        before and after it, both as this player sees them; ``before`` when known); its size;
        and what was worked out of its scene (the next move's marks start from it)."""
        ply = pos.ply if ply is None else ply
        try:
            # Without a view hook every player knows the whole state (but never its rng).
            view = pos.state(ply=ply) if player is None else pos.view(player, ply=ply)
            scene = rounded(pos.scene(player, ply=ply))
            facts: SceneFacts | None = SceneFacts(scene)
            steps: tuple[str, ...] = ()
            if ply > 0:
                if before is None:
                    before = SceneFacts(rounded(pos.scene(player, ply=ply - 1)))
                steps = pos.history[ply - 1].steps
            d = drawing(scene, before if ply > 0 else None, steps, facts=facts)
            shown: dict = {"view": view, "scene": scene, "drawing": d.to_json(), "marks": d.marks}
        except StaleStateError:
            raise _Restarted() from None    # (not the view's failure: never kept as one)
        except ScriptError as exc:
            # Nothing of the state goes out when its view cannot be made.
            shown = {"view": None, "scene": None, "drawing": None, "marks": [],
                     "error": f"the game's script failed: {exc}"}
            facts = None
        size = json_size(shown)
        if size > self.max_look_bytes:
            # Neither sent (every look would carry it to anyone) nor kept (a cache of a few
            # thousand matches would hold gigabytes): the position forgets it too.
            pos.forget_answers()
            shown = {"view": None, "scene": None, "drawing": None, "marks": [], "error":
                     f"the game's view of this position takes {size / 2**20:.1f} MB, more than the "
                     f"{self.max_look_bytes / 2**20:g} MB this server sends (its state is too large)"}
            size, facts = json_size(shown), None
        return shown, size, facts


class Engines:
    """Positions of matches for people's moves and views (see the module's docstring)."""

    def __init__(self, scripts: Callable[[str], Script], cache_positions: int = 2000,
                 cache_scripts: int = 16, limits: Limits | None = None, processes: int = 2,
                 cache_bytes: int = 256 * 2**20, max_look_bytes: int = 2**20, worker_memory: int = 0):
        self.scripts = scripts
        self.limits = limits or Limits()
        #: The Lua memory all the scripts of one worker process may hold together (0: no budget).
        self.worker_memory = worker_memory
        self.pool = EnginePool(processes, self.limits)
        self.cache_positions = max(1, cache_positions)
        self.cache_scripts = max(1, cache_scripts)
        #: The views the positions keep, and the looks (looks.py), each get half of cache_bytes.
        self.cache_bytes = max(1, cache_bytes // 2)
        self._loaded: OrderedDict[str, _Loaded] = OrderedDict()
        self._lru: OrderedDict[int, str] = OrderedDict()     # match id -> sha256
        self._sizes: dict[int, int] = {}                     # match id -> its entry's bytes
        self._bytes = 0
        self._lock = threading.Lock()
        self._stops: dict[str, list[float]] = {}   # sha256 -> when its work ended a shared process
        self._alone: dict[str, float] = {}         # sha256 -> until when it runs on a pool of its own
        self._positions = _Positions(max_look_bytes)
        self.looks = Looks(self.cache_positions, self.cache_bytes)
        self._waiting = 0                          # work in _run now, every game's (WAITING_IN_ALL)

    # -- threads and caches -----------------------------------------------------------------

    def _get(self, sha256: str) -> _Loaded:
        with self._lock:
            loaded = self._loaded.get(sha256)
            if loaded is not None:
                self._loaded.move_to_end(sha256)
                return loaded
        script = self.scripts(sha256)
        with self._lock:
            loaded = self._loaded.get(sha256)
            if loaded is None:
                if self._alone.get(sha256, 0) > time.monotonic():
                    # (a pool of its own: it stops nobody else's games; closed with the script)
                    loaded = _Loaded(script, self.limits, EnginePool(1, self.limits), alone=True)
                else:
                    self._alone.pop(sha256, None)
                    loaded = _Loaded(script, self.limits, self.pool)
                self._loaded[sha256] = loaded
                while len(self._loaded) > self.cache_scripts:
                    self._evict(next(iter(self._loaded)))
            return loaded

    def _evict(self, sha256: str) -> None:
        """Unloads a script (under _lock): it takes no more work, its positions are dropped, and
        its runtimes leave the worker processes once its lanes are done."""
        old = self._loaded.pop(sha256, None)
        if old is None:
            return
        for mid in list(old.entries):
            self._lru.pop(mid, None)
            self._bytes -= self._sizes.pop(mid, 0)
        old.retire()

    def _within_budget(self, sha256: str) -> None:
        """Unloads the scripts least recently used, never ``sha256`` (just used), until the games
        of each worker process hold at most worker_memory of Lua memory together."""
        if not self.worker_memory:
            return
        for worker in self.pool.workers:
            if worker.lua_bytes <= self.worker_memory:
                continue
            used = worker.memory()           # script key -> its Lua memory there
            total = sum(used.values())
            with self._lock:
                for sha, loaded in list(self._loaded.items()):
                    if total <= self.worker_memory:
                        break
                    key = loaded.key()
                    if sha != sha256 and key in used:
                        self._evict(sha)
                        total -= used[key]
            worker.lua_bytes = total

    def _run(self, sha256: str, work: Callable[[_Loaded], Any], match_id: int | None = None) -> Any:
        """``work(loaded)`` on the thread of the match's lane (a script's next lane in turn
        without a match).  Work that lost its states with a worker process another game stopped
        is done again on the fresh process; a script that crashes a worker process is moved to
        a process of its own (it would stop other games' again)."""
        with self._lock:
            if self._waiting >= WAITING_IN_ALL and on_request_thread():
                raise Busy("the server has too many requests waiting for games' scripts; nothing was "
                           "changed: try again in a moment")
            self._waiting += 1
        try:
            return self._run_on_lane(sha256, work, match_id)
        finally:
            with self._lock:
                self._waiting -= 1

    def _run_on_lane(self, sha256: str, work: Callable[[_Loaded], Any], match_id: int | None) -> Any:
        restarted: _Restarted | None = None
        for _attempt in range(4):
            loaded = self._get(sha256)
            try:
                result = loaded.run(work, match_id)
            except Retired:           # evicted meanwhile: loaded again
                continue
            except _Restarted as exc:
                restarted = exc
                continue
            except ScriptFailed as exc:
                if exc.process_ended is not None and not loaded.alone:
                    self._stopped_a_process(sha256, exc.process_ended)
                raise
            if match_id is not None:
                entry = loaded.entries.get(match_id)
                self._touch(match_id, sha256, 0 if entry is None else entry.bytes)
            self._within_budget(sha256)
            return result
        raise restarted or ScriptFailed("the server is too busy loading scripts; try again")

    def _stopped_a_process(self, sha256: str, how: str) -> None:
        """The script's work ended its worker process (``died``: a crash; ``stopped``: killed at
        the time limit), and every other game's states there.  A crash, or a third stop within
        QUARANTINE_SECONDS, sends the script to a worker process of its own for that long."""
        t = time.monotonic()
        with self._lock:
            recent = [s for s in self._stops.get(sha256, []) if t - s < QUARANTINE_SECONDS] + [t]
            self._stops[sha256] = recent
            if how == "died" or len(recent) >= STOPS_BEFORE_QUARANTINE:
                log.warning("the script %s stopped a shared worker process (%s); it runs on a process "
                            "of its own from now on", sha256[:12], how)
                self._alone[sha256] = t + QUARANTINE_SECONDS
                self._stops.pop(sha256, None)
                self._evict(sha256)

    def _touch(self, match_id: int, sha256: str, size: int) -> None:
        """The match was used (its entry holds ``size`` bytes): the least recently used
        positions over cache_positions, or over cache_bytes, go."""
        evicted = []
        with self._lock:
            self._lru[match_id] = sha256
            self._lru.move_to_end(match_id)
            self._bytes += size - self._sizes.get(match_id, 0)
            self._sizes[match_id] = size
            while len(self._lru) > self.cache_positions or self._bytes > self.cache_bytes and len(self._lru) > 1:
                old_id, old_sha = self._lru.popitem(last=False)
                self._bytes -= self._sizes.pop(old_id, 0)
                loaded = self._loaded.get(old_sha)
                if loaded is not None:
                    evicted.append((loaded, old_id))
        for loaded, old_id in evicted:     # (not under the engines' lock: a lane may be busy)
            loaded.drop(old_id)

    def cached(self) -> int:
        """How many matches' positions are in memory."""
        with self._lock:
            return len(self._lru)

    def cached_bytes(self) -> int:
        """About the memory of what is kept of matches: the views of the positions and of the
        looks (their JSON's length)."""
        with self._lock:
            held = self._bytes
        return held + self.looks.held()

    def forget(self, key: MatchKey) -> None:
        """Drops a match's position (after a write that did not land: it is rebuilt)."""
        self.looks.forget(key.id)
        with self._lock:
            self._lru.pop(key.id, None)
            self._bytes -= self._sizes.pop(key.id, 0)
            loaded = self._loaded.get(key.sha256)
        if loaded is not None:
            loaded.drop(key.id)

    def close(self) -> None:
        with self._lock:
            loaded, self._loaded = list(self._loaded.values()), OrderedDict()
            self._lru.clear()
            self._sizes.clear()
            self._bytes = 0
        self.looks.clear()
        for one in loaded:
            one.retired = True
            one.entries.clear()     # (the runtimes go with the pool's processes)
            if one.alone:
                one.pool.close()
        self.pool.close()

    # -- requests ---------------------------------------------------------------------------

    def describe(self, script: Script) -> dict:
        """The catalogue's description of a script (loads it in a worker process of its own: a
        script that hangs as it loads stops nothing else)."""
        try:
            with Game(script.source, script.path, limits=self.limits) as game:
                return describe(game)
        except ScriptError as exc:
            raise script_failed(exc, "to load") from None

    def start(self, sha256: str, options: dict | None, variant: str | None, seed: int) -> dict:
        """Checks the options of a new match and that its first position can be made.
        Returns {"options": as chosen, "players": n, "to_move": p}."""
        def work(loaded: _Loaded) -> dict:
            game = loaded.load()
            try:
                pos = game.start(options=options or {}, variant=variant, seed=seed)
                to_move = pos.to_move
                if pos.outcome() is not None:
                    raise Invalid("this game is over before its first move")
            except (OptionError, ValueError, TypeError) as exc:
                raise Invalid(str(exc)) from None
            except ScriptError as exc:
                raise script_failed(exc, "to set up the match") from None
            return {"options": pos.chosen, "players": pos.players, "to_move": to_move}
        return self._run(sha256, work)

    def snapshot(self, key: MatchKey, load_moves: MovesLoader, viewers: list) -> Snapshot:
        kept = self.looks.get(key, viewers)
        if kept is not None:
            return kept

        def work(loaded: _Loaded) -> Snapshot:
            entry = self._positions.entry(loaded, key, load_moves)
            return self._positions.snapshot(loaded, entry, viewers)
        snap = self._run(key.sha256, work, key.id)
        self.looks.put(key, snap)
        return snap

    def play(self, key: MatchKey, load_moves: MovesLoader, move: list[str] | str,
             viewers: Sequence[Any] = ()) -> Played:
        """Plays a move in the match's cached position, and makes the snapshot after it with
        the views of ``viewers``.  Once the database took the move, :meth:`landed` keeps that
        snapshot for the looks at the next version; if it did not, :meth:`forget` the match
        (whatever is next, the position is checked against the database's moves: see
        _Entry.version).  ``move`` is a list of step ids or a text in the game's notation."""
        def work(loaded: _Loaded) -> Played:
            entry = self._positions.entry(loaded, key, load_moves)
            pos = entry.position
            seat = pos.to_move
            try:
                chosen = pos.play(move)
            except GameOverError as exc:
                raise Illegal(str(exc)) from None
            except IllegalMoveError as exc:
                raise Illegal(str(exc)) from None
            except ScriptError as exc:
                loaded.entries.pop(key.id, None)
                raise script_failed(exc, "to play the move") from None
            entry.version = None     # not stored yet: maybe never (another process's move)
            notation = pos.history_notation[-1]
            try:
                snapshot = self._positions.snapshot(loaded, entry, list(viewers))
            except ScriptFailed:
                pos.undo()
                entry.version = key.version
                entry.views = {k: v for k, v in entry.views.items() if k[0] <= pos.ply}
                entry.facts = {k: v for k, v in entry.facts.items() if k[0] <= pos.ply}
                raise
            return Played(list(chosen.steps), notation, seat, snapshot)
        return self._run(key.sha256, work, key.id)

    def landed(self, key: MatchKey, played: Played) -> None:
        """The move :meth:`play` made at ``key`` is stored: its snapshot is what a look at the
        match's next version is shown."""
        after = dataclasses.replace(key, version=key.version + 1,
                                    ply=None if key.ply is None else key.ply + 1)
        self.looks.put(after, played.snapshot)

    def earlier(self, key: MatchKey, load_moves: MovesLoader, ply: int, viewer) -> dict:
        """What ``viewer`` is shown of the position after the match's first ``ply`` moves:
        {"ply", "view", "scene", "marks"} (the move list's earlier positions)."""
        def work(loaded: _Loaded) -> dict:
            entry = self._positions.entry(loaded, key, load_moves)
            pos = entry.position
            if not 0 <= ply <= pos.ply:
                raise Invalid(f"ply must be from 0 to {pos.ply}, got {ply}")
            shown, _size, _facts = self._positions._view(pos, seen_as(viewer, "view" in pos.game.hooks), ply)
            return {"ply": ply, **shown}
        return self._run(key.sha256, work, key.id)

    def drew_chance(self, key: MatchKey, load_moves: MovesLoader, since: int) -> bool:
        """Whether the match's moves after its first ``since`` drew from the game's random
        generator (Position.drew_chance)."""
        def work(loaded: _Loaded) -> bool:
            entry = self._positions.entry(loaded, key, load_moves)
            try:
                return entry.position.drew_chance(since)
            except ScriptError as exc:
                raise script_failed(exc, f"at move {entry.position.ply}") from None
        return bool(self._run(key.sha256, work, key.id))

    def preview(self, sha256: str, variant: str | None) -> dict:
        """The opening position of a game (default options, or a variant's) as a spectator sees
        it: {"scene", "to_move", "legal"} (the catalogue's picture; seed 0, so always the same)."""
        def work(loaded: _Loaded) -> dict:
            game = loaded.load()
            try:
                pos = game.start(variant=variant, seed=0)
                scene = pos.scene(SPECTATOR if "view" in game.hooks else None)
                return {"scene": scene, "drawing": drawing(scene).to_json(), "to_move": pos.to_move,
                        "players": pos.players}
            except (OptionError, ValueError) as exc:
                raise Invalid(str(exc)) from None
            except ScriptError as exc:
                raise script_failed(exc, "to set up the game") from None
        return self._run(sha256, work)

    def searcher(self, seconds: float | None = None) -> "Searcher":
        """A computer player's Searcher: its searches think at most ``seconds``."""
        return Searcher(self.scripts, self.limits, worker_memory=self.worker_memory, seconds=seconds)


class Searcher:
    """The Games of one computer-player thread: its own worker processes, so a search never
    waits for, nor holds up, people's moves.  Use from one thread."""

    def __init__(self, scripts: Callable[[str], Script], limits: Limits, cache_scripts: int = 4,
                 cache_positions: int = 8, worker_memory: int = 0, seconds: float | None = None):
        self.scripts = scripts
        self.limits = limits
        self.worker_memory = worker_memory
        #: The longest a search thinks, whatever its spec (mcts:200000it included); None: as it says.
        self.seconds = seconds
        self.pool = EnginePool(1, limits)
        self.cache_scripts = cache_scripts
        self.cache_positions = cache_positions
        self._loaded: OrderedDict[str, _Loaded] = OrderedDict()
        self._lru: OrderedDict[int, str] = OrderedDict()
        self._positions = _Positions()

    def _get(self, sha256: str) -> _Loaded:
        loaded = self._loaded.get(sha256)
        if loaded is None:
            loaded = self._loaded[sha256] = _Loaded(self.scripts(sha256), self.limits, self.pool, threaded=False)
            while len(self._loaded) > self.cache_scripts:
                _, old = self._loaded.popitem(last=False)
                old.close()
        self._loaded.move_to_end(sha256)
        return loaded

    def choose(self, key: MatchKey, load_moves: MovesLoader, seat: int, spec: str,
               seed: int, again: bool = False) -> tuple[list[str], float | None]:
        """The move the computer player ``spec`` chooses for ``seat`` (a list of steps), and
        the share of the points it expects (0 to 1), when it says."""
        from ..ai import MctsAgent, make_agent
        loaded = self._get(key.sha256)
        entry = self._positions.entry(loaded, key, load_moves)
        self._lru[key.id] = key.sha256
        self._lru.move_to_end(key.id)
        while len(self._lru) > self.cache_positions:
            old_id, old_sha = self._lru.popitem(last=False)
            if old_sha in self._loaded:
                self._loaded[old_sha].entries.pop(old_id, None)
        pos = entry.position
        if pos.to_move != seat:
            raise Illegal(f"it is not seat {seat}'s turn")
        # The agent (and its search tree, in the game's runtime) is kept while the match is
        # in this searcher's cache: the next search starts from what this one learnt.
        kept = entry.agents.get(seat)
        if kept is None or kept[0] != spec:
            agent = make_agent(spec, seed)
            if self.seconds is not None and isinstance(agent, MctsAgent) and (
                    agent.seconds is None or agent.seconds > self.seconds):
                agent.seconds = self.seconds      # (iterations too: whichever comes first)
            kept = entry.agents[seat] = (spec, agent)
        try:
            move: Move = kept[1].choose(pos)
        except ScriptError as exc:
            loaded.entries.pop(key.id, None)
            if exc.kind == "memory":
                # The game's runtime is full (the trees kept of this searcher's matches share
                # it): it goes, trees and all (left full, the next call into it would find no
                # memory outside a protected call, and end the process).  Once more, from
                # nothing, when it held more than this search.
                held_more = bool(loaded.entries) or kept[1].last is not None or len(entry.agents) > 1
                loaded.close()
                if held_more and not again:
                    return self.choose(key, load_moves, seat, spec, seed, again=True)
            raise script_failed(exc, "during the computer player's search") from None
        except NomvError as exc:
            raise Invalid(str(exc)) from None
        value = kept[1].last.get("value") if kept[1].last else None
        self._within_budget(key.sha256)
        return list(move.steps), None if value is None else float(value)

    def _within_budget(self, sha256: str) -> None:
        """As Engines._within_budget: the scripts least recently used go (their trees with them)
        until this searcher's process holds at most worker_memory of Lua memory."""
        worker = self.pool.workers[0]
        if not self.worker_memory or worker.lua_bytes <= self.worker_memory:
            return
        used = worker.memory()
        total = sum(used.values())
        for sha, loaded in list(self._loaded.items()):
            if total <= self.worker_memory:
                break
            key = loaded.key()
            if sha != sha256 and key in used:
                del self._loaded[sha]
                loaded.close()
                total -= used[key]
        worker.lua_bytes = total

    def close(self) -> None:
        self._loaded.clear()
        self._lru.clear()
        self.pool.close()
