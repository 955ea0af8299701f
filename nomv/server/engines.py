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
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from ..boardmarks import SceneFacts, last_move_marks
from ..errors import GameOverError, IllegalMoveError, NomvError, OptionError, ScriptError
from ..game import SPECTATOR, Game, Move, Position
from ..limits import Limits
from ..pool import EnginePool
from ..record import play_recorded
from ..worker import WorkerEngine
from .errors import Conflict, Illegal, Invalid, ScriptFailed
from .looks import Looks, seen_as
from .snapshots import MatchKey, MovesLoader, Played, Script, Snapshot


#: Decimals kept of a scene's coordinates and sizes: a ten-thousandth of a cell is far below a
#: pixel, and a Trinim scene's JSON is half as long as with the seventeen digits of a float.
DECIMALS = 4


def with_layout(scene: dict) -> dict:
    """The scene as answers give it: its numbers rounded (DECIMALS), and ``board``: for each
    item, whether it is part of the board or stands beside it (a score table, a hand:
    nomv.boardmarks.board_items), when some item stands beside it, so that a page can give
    those their own readable size (under the board on a phone)."""
    return _with_layout(scene)[0]


def _with_layout(scene: dict) -> tuple[dict, SceneFacts]:
    """with_layout's scene, and what is worked out of it (kept for the marks of the next move)."""
    shown = rounded(scene)
    facts = SceneFacts(shown)
    flags = facts.board()
    if not all(flags):
        shown = {**shown, "board": flags}
        facts.scene = shown
    return shown, facts


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


def script_failed(exc: ScriptError, doing: str) -> ScriptFailed:
    return ScriptFailed(f"the game's script failed {doing}: {exc}", hook=exc.hook,
                        line=exc.line, kind=exc.kind)


def describe(game: Game) -> dict:
    """A loaded game as the catalogue shows it."""
    p = game.players
    return {
        "name": game.name,
        "title": game.title,
        "info": {k: v for k, v in game.info.items() if isinstance(v, (str, int, float))},
        "players": {"min": p.min, "max": p.max, "default": p.default,
                    "names": [p.name(i) for i in range(1, p.max + 1)],
                    "colours": list(p.colours)},
        "options": [{"name": s.name, "type": s.type, "default": s.default, "min": s.min,
                     "max": s.max, "choices": list(s.choices), "help": s.help,
                     "allowed": s.allowed()} for s in game.options.ordered()],
        "variants": {name: dict(values) for name, values in sorted(game.options.variants.items())},
        "hidden_information": "view" in game.hooks,
    }


@dataclass
class _Entry:
    #: The match's version in the database that the position is at; None after a move not
    #: yet known to be stored (the next use checks the position's moves against the database's).
    version: int | None
    position: Position
    views: dict = field(default_factory=dict)    # (ply, seen_as(viewer)) -> {"view", "scene", "marks"}
    facts: dict = field(default_factory=dict)    # (ply, seen_as(viewer)) -> SceneFacts of its scene
    agents: dict = field(default_factory=dict)   # seat -> (spec, agent), for searchers


class Retired(Exception):
    """The script was unloaded (evicted) while a request waited for it: load it again."""


class _Loaded:
    """One loaded script and the positions of its matches, served by its lanes: one per
    process of the pool; match ``id`` is served by lane ``id % lanes``, whose process holds
    its position, and only there.  A lane is a lock: one thread at a time works on its
    matches (an entry is touched by the thread holding its lane alone)."""

    def __init__(self, script: Script, limits: Limits, pool: EnginePool, threaded: bool = True):
        self.script = script
        self.limits = limits
        self.pool = pool
        # (a Searcher's scripts are used on the searcher's own thread: they need none)
        self.lanes = [threading.Lock() for _ in range(pool.processes)] if threaded else []
        self.retired = False
        self.game: Game | None = None
        self.entries: dict[int, _Entry] = {}
        self._loading = threading.Lock()
        self._turn = itertools.count()

    def load(self) -> Game:
        with self._loading:       # (the lanes' first requests may come at once)
            if self.game is None:
                try:
                    self.game = Game(self.script.source, self.script.path, limits=self.limits, pool=self.pool)
                except ScriptError as exc:
                    raise script_failed(exc, "to load") from None
            return self.game

    def lane_of(self, match_id: int | None) -> int:
        """The lane (and pool process) of a match; the next in turn for work on no match."""
        number = next(self._turn) if match_id is None else match_id
        return number % self.pool.processes

    def run(self, work: Callable[["_Loaded"], Any], match_id: int | None) -> Any:
        """``work(self)`` on the calling thread, holding the match's lane (Retired once the
        script is unloaded)."""
        assert self.lanes, "the server's scripts are loaded with lanes"
        with self.lanes[self.lane_of(match_id)]:
            if self.retired:
                raise Retired()
            return work(self)

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

    def retire(self) -> None:
        """Takes no more work, and is closed once the work under way on its lanes is done."""
        self.retired = True

        def close_after() -> None:
            for lane in self.lanes:
                with lane:
                    pass
            self.close()
        threading.Thread(target=close_after, name="nomv-script-retire", daemon=True).start()


class _Positions:
    """Positions of matches in loaded scripts: sync to the database's version, snapshots."""

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
        views = {}
        for viewer in viewers:
            seen = seen_as(viewer, hidden)
            shown = entry.views.get((pos.ply, seen))
            if shown is None:
                shown, facts = self._view(pos, seen, before=entry.facts.get((pos.ply - 1, seen)))
                entry.views[(pos.ply, seen)] = shown
                if facts is not None:
                    entry.facts[(pos.ply, seen)] = facts
            views[viewer] = shown
        # The previous position's views are kept: their scenes are the "before" of the marks.
        for kept in (entry.views, entry.facts):
            for old in [k for k in kept if not pos.ply - 1 <= k[0] <= pos.ply]:
                del kept[old]
        return Snapshot(pos.ply, to_move, outcome, legal, views, hidden)

    @staticmethod
    def _view(pos: Position, player, ply: int | None = None,
              before: SceneFacts | None = None) -> tuple[dict, SceneFacts | None]:
        """What ``player`` (seen_as: a seat or SPECTATOR with hidden information, else None:
        the whole state) is shown of the position after the first ``ply`` moves (default: all
        of them): the view, its scene, and the marks of the move that led there (from the scenes
        before and after it, both as this player sees them; ``before`` when known); and what
        was worked out of its scene (the next move's marks start from it)."""
        ply = pos.ply if ply is None else ply
        try:
            # Without a view hook every player knows the whole state (but never its rng).
            view = pos.state(ply=ply) if player is None else pos.view(player, ply=ply)
            scene, facts = _with_layout(pos.scene(player, ply=ply))
            marks = []
            if ply > 0:
                if before is None:
                    before = _with_layout(pos.scene(player, ply=ply - 1))[1]
                marks = [{"kind": m.kind, "id": m.id, "item": dict(m.item)}
                         for m in last_move_marks(before, facts, pos.history[ply - 1].steps)]
            return {"view": view, "scene": scene, "marks": marks}, facts
        except ScriptError as exc:
            # Nothing of the state goes out when its view cannot be made.
            return {"view": None, "scene": None, "marks": [], "error": f"the game's script failed: {exc}"}, None


class Engines:
    """Positions of matches for people's moves and views (see the module's docstring)."""

    def __init__(self, scripts: Callable[[str], Script], cache_positions: int = 2000,
                 cache_scripts: int = 16, limits: Limits | None = None, processes: int = 2):
        self.scripts = scripts
        self.limits = limits or Limits()
        self.pool = EnginePool(processes, self.limits)
        self.cache_positions = max(1, cache_positions)
        self.cache_scripts = max(1, cache_scripts)
        self._loaded: OrderedDict[str, _Loaded] = OrderedDict()
        self._lru: OrderedDict[int, str] = OrderedDict()     # match id -> sha256
        self._lock = threading.Lock()
        self._positions = _Positions()
        self.looks = Looks(self.cache_positions)

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
                loaded = self._loaded[sha256] = _Loaded(script, self.limits, self.pool)
                while len(self._loaded) > self.cache_scripts:
                    _, old = self._loaded.popitem(last=False)
                    for mid in list(old.entries):
                        self._lru.pop(mid, None)
                    old.retire()
            return loaded

    def _run(self, sha256: str, work: Callable[[_Loaded], Any], match_id: int | None = None) -> Any:
        for _attempt in range(3):
            loaded = self._get(sha256)
            try:
                result = loaded.run(work, match_id)
            except Retired:           # evicted meanwhile: loaded again
                continue
            if match_id is not None:
                self._touch(match_id, sha256)
            return result
        raise ScriptFailed("the server is too busy loading scripts; try again")

    def _touch(self, match_id: int, sha256: str) -> None:
        evicted = []
        with self._lock:
            self._lru[match_id] = sha256
            self._lru.move_to_end(match_id)
            while len(self._lru) > self.cache_positions:
                old_id, old_sha = self._lru.popitem(last=False)
                loaded = self._loaded.get(old_sha)
                if loaded is not None:
                    evicted.append((loaded, old_id))
        for loaded, old_id in evicted:     # (not under the engines' lock: a lane may be busy)
            loaded.drop(old_id)

    def cached(self) -> int:
        """How many matches' positions are in memory."""
        with self._lock:
            return len(self._lru)

    def forget(self, key: MatchKey) -> None:
        """Drops a match's position (after a write that did not land: it is rebuilt)."""
        self.looks.forget(key.id)
        with self._lock:
            self._lru.pop(key.id, None)
            loaded = self._loaded.get(key.sha256)
        if loaded is not None:
            loaded.drop(key.id)

    def close(self) -> None:
        with self._lock:
            loaded, self._loaded = list(self._loaded.values()), OrderedDict()
            self._lru.clear()
        self.looks.clear()
        for one in loaded:
            one.retired = True
            one.entries.clear()     # (the runtimes go with the pool's processes)
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
            shown, _facts = self._positions._view(pos, seen_as(viewer, "view" in pos.game.hooks), ply)
            return {"ply": ply, **shown}
        return self._run(key.sha256, work, key.id)

    def preview(self, sha256: str, variant: str | None) -> dict:
        """The opening position of a game (default options, or a variant's) as a spectator sees
        it: {"scene", "to_move", "legal"} (the catalogue's picture; seed 0, so always the same)."""
        def work(loaded: _Loaded) -> dict:
            game = loaded.load()
            try:
                pos = game.start(variant=variant, seed=0)
                return {"scene": with_layout(pos.scene(SPECTATOR if "view" in game.hooks else None)),
                        "to_move": pos.to_move, "players": pos.players}
            except (OptionError, ValueError) as exc:
                raise Invalid(str(exc)) from None
            except ScriptError as exc:
                raise script_failed(exc, "to set up the game") from None
        return self._run(sha256, work)

    def replay(self, sha256: str, options: dict, seed: int, notations: list[str],
               steps: list[list[str]] | None = None) -> dict:
        """Replays a record's moves: {"options", "players", "moves": [(steps, notation, seat)]},
        or Invalid naming the move that cannot be played.  With ``steps`` (a version 2 record),
        each move is played by its steps and must still be written as recorded."""
        def work(loaded: _Loaded) -> dict:
            game = loaded.load()
            try:
                pos = game.start(options=options, seed=seed)
            except (OptionError, ValueError, TypeError) as exc:
                raise Invalid(f"the record's options: {exc}") from None
            except ScriptError as exc:
                raise script_failed(exc, "to set up the match") from None
            played = []
            for number, text in enumerate(notations, start=1):
                try:
                    seat = pos.to_move
                    move = play_recorded(pos, text, None if steps is None else steps[number - 1])
                except IllegalMoveError as exc:
                    raise Invalid(f"move {number} ({text[:60]!r}) of the record cannot be played: {exc}") from None
                except ScriptError as exc:
                    raise script_failed(exc, f"replaying move {number} of the record") from None
                played.append((list(move.steps), pos.history_notation[-1], seat))
            return {"options": pos.chosen, "players": pos.players, "moves": played}
        return self._run(sha256, work)

    def searcher(self) -> "Searcher":
        return Searcher(self.scripts, self.limits)


class Searcher:
    """The Games of one computer-player thread: its own worker processes, so a search never
    waits for, nor holds up, people's moves.  Use from one thread."""

    def __init__(self, scripts: Callable[[str], Script], limits: Limits, cache_scripts: int = 4,
                 cache_positions: int = 8):
        self.scripts = scripts
        self.limits = limits
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
               seed: int) -> tuple[list[str], float | None]:
        """The move the computer player ``spec`` chooses for ``seat`` (a list of steps), and
        the share of the points it expects (0 to 1), when it says."""
        from ..ai import make_agent
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
            kept = entry.agents[seat] = (spec, make_agent(spec, seed))
        try:
            move: Move = kept[1].choose(pos)
        except ScriptError as exc:
            loaded.entries.pop(key.id, None)
            if exc.kind != "memory" or kept[1].last is None and len(entry.agents) <= 1:
                raise script_failed(exc, "during the computer player's search") from None
            # Out of memory with trees kept from earlier searches: once more, from nothing.
            loaded.close()
            return self.choose(key, load_moves, seat, spec, seed)
        except NomvError as exc:
            raise Invalid(str(exc)) from None
        value = kept[1].last.get("value") if kept[1].last else None
        return list(move.steps), None if value is None else float(value)

    def close(self) -> None:
        self._loaded.clear()
        self._lru.clear()
        self.pool.close()
