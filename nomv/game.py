"""The Python API: load a game script, start a position, list, play and undo moves.

>>> import nomv
>>> game = nomv.Game.load("trinim")
>>> pos = game.start(options={"layout": "b/bb/bgr/grgg/rbgrr"})
>>> len(pos.legal_moves)
75
>>> pos.play("D4-D2")          # the ends of a line, in either order
Move(steps=('D2', 'D4'), any_order=True)
>>> pos.outcome() is None
True
>>> pos.undo()
Move(steps=('D2', 'D4'), any_order=True)
"""
from __future__ import annotations

import hashlib
import re
import secrets
import struct
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Sequence, TypeVar, overload

from . import catalog
from .engine import Call, Engine, LuaEngine, State
from .runtime import PREVIOUS
from .errors import GameOverError, IllegalMoveError, LimitError, OptionError, ScriptError, StaleStateError
from .languages import is_text, localized
from .limits import Limits
from .play.match import MatchView, Result, Seat
from .play.wording import result_text
from .scriptlines import Lines
from .options import OptionSet, OptionSpec, PlayerSpec, suggestion
from .pool import EnginePool
from .schema import STANDS_IN, missing_hooks
from .worker import isolation_default


_T = TypeVar("_T")

#: The viewer of :meth:`Position.view` and :meth:`Position.scene` who is no player: someone
#: watching, who may know no player's secrets (the game's ``view(state, 0)``).
SPECTATOR = 0


@dataclass(frozen=True, eq=False)
class Move:
    """A move: the ids of the things a player clicks, in order.

    Moves with ``any_order`` compare equal whatever the order of their steps.
    """

    steps: tuple[str, ...]
    any_order: bool = False
    label: str | None = None

    @classmethod
    def from_json(cls, raw: Any) -> "Move":
        if isinstance(raw, dict):
            return cls(tuple(raw["steps"]), bool(raw.get("any_order")), raw.get("label"))
        return cls(tuple(raw))

    @property
    def key(self) -> tuple[str, ...]:
        return tuple(sorted(self.steps)) if self.any_order else self.steps

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Move) and self.key == other.key

    def __hash__(self) -> int:
        return hash(self.key)

    def __repr__(self) -> str:
        extra = ", any_order=True" if self.any_order else ""
        return f"Move(steps={self.steps!r}{extra})"

    def __str__(self) -> str:
        return "-".join(self.steps)


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended.  ``winner`` is the one player ranked first, else None: a draw
    when several share first place, a loss for everyone when nobody is ranked first."""

    winner: int | None
    ranks: tuple[int, ...]
    scores: tuple[float, ...] | None = None
    #: Why, in the script's words: a text, or a table of languages (nomv.languages.localized).
    reason: Any = None

    @property
    def draw(self) -> bool:
        """Several players share first place."""
        return self.winner is None and self.ranks.count(1) > 1

    @property
    def lost(self) -> bool:
        """Nobody is ranked first: every player lost (e.g. an unsolved one-player puzzle)."""
        return 1 not in self.ranks

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> "Outcome":
        scores = raw.get("scores")
        return cls(raw.get("winner"), tuple(raw["ranks"]),
                   tuple(scores) if scores is not None else None, raw.get("reason"))

    def describe(self, players: PlayerSpec) -> str:
        """The result in English, as records keep it: "Black wins (3, 1): reason" (worded by
        nomv.play.wording, as every face words results)."""
        seats = tuple(Seat(p, players.name_texts[p - 1] if p <= len(players.name_texts) else None)
                      for p in range(1, len(self.ranks) + 1))
        return result_text(MatchView(seats, result=Result(self.ranks, self.scores, self.reason)), "en")


_WORDS = struct.Struct(">6I").unpack_from
_M1, _M2 = 4294967087 - 1, 4294944443 - 1


def seed_words(seed: int) -> list[int]:
    """The six starting numbers of the portable generator for a seed (any integer): the first
    24 bytes of a SHA-256 of the seed as six big-endian words, each brought into its
    component's range.  (The lab computes two of these a game: written for speed.)"""
    a, b, c, d, e, f = _WORDS(hashlib.sha256(b"nomv-seed:%d" % int(seed)).digest())
    return [a % _M1 + 1, b % _M1 + 1, c % _M1 + 1, d % _M2 + 1, e % _M2 + 1, f % _M2 + 1]


@dataclass
class PlayoutStats:
    """Figures from ``Game.playout``: random games played inside Lua."""

    games: int
    seconds: float
    plies: int
    longest: int
    shortest: int
    wins: list[int]
    draws: int
    unfinished: int
    lost: int = 0  # games nobody won or drew: every player lost (an unsolved puzzle)
    moves: int = 0  # from Game.move_generation: the legal moves listed in all

    @property
    def moves_per_second(self) -> float:
        return self.moves / self.seconds if self.seconds > 0 else float("inf")

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else float("inf")

    @property
    def average_length(self) -> float:
        return self.plies / self.games if self.games else 0.0


class Game:
    """A loaded game script.  Load with :meth:`Game.load`; start games with :meth:`start`.

    Where the script runs: with a ``pool`` (:class:`~nomv.pool.EnginePool`), on its worker
    processes, which also serve other games (a server); else, by default, in a pool of one
    worker process of its own, killed when a call runs over the time limit; with
    ``isolate=False``, in this process (faster calls, but a loop that LuaJIT compiled cannot be
    stopped).  ``limits`` default to :meth:`Limits.from_env` (a pool has its own)."""

    def __init__(self, source: str, path: str, runtime: str | None = None,
                 origin: str = "file", *, limits: Limits | None = None,
                 isolate: bool | None = None, pool: EnginePool | None = None):
        self.source = source
        self.path = path
        self.origin = origin
        self.sha256 = hashlib.sha256(source.encode("utf-8", "surrogatepass")).hexdigest()
        if isolate is None:
            isolate = pool is not None or isolation_default()
        if pool is not None and not isolate:
            raise ValueError("a game on a pool runs in its worker processes: isolate=False contradicts pool")
        self.isolated = bool(isolate)
        #: The game's own pool (closed with the game), or the one it was given.
        self._own_pool = pool is None and self.isolated
        self._pool = EnginePool(1, limits or Limits.from_env()) if self._own_pool else pool
        #: The engine for requests about the game as a whole (options, playouts); each
        #: position has its own (the same one, unless the pool has several processes).
        self.engine: Engine
        try:
            if self._pool is not None:
                self.engine = self._pool.engine(source, path, runtime)
            else:
                self.engine = LuaEngine(source, path, runtime, limits or Limits.from_env())
            self.runtime = self.engine.runtime
            self.limits = self.engine.limits
            self._read_table(self.engine.description, path)
        except BaseException as exc:
            self.close()  # the worker started for this game goes with it
            if not isinstance(exc, ScriptError):
                raise
            if exc.line is None and exc.path == path:
                exc.line = _field_line(source, exc.message)
                exc.hook = exc.hook or "load"
                exc.args = (str(exc),)
            raise

    def _read_table(self, d: dict[str, Any], path: str) -> None:
        """Reads the game table's description (fields, hooks, players, options, variants)."""
        _check_sizes(d, path)
        self.fields: list[str] = d.get("fields", [])
        self.hooks: list[str] = d.get("hooks", [])
        self.unknown_fields: list[str] = d.get("unknown", [])
        for hook in missing_hooks(self.hooks):
            hint = suggestion(hook, self.unknown_fields)
            alone = f" (or '{STANDS_IN[hook]}')" if hook in STANDS_IN and not hint else ""
            raise ScriptError(f"the game table has no '{hook}' function{alone}{hint}", path)
        if "most_next_steps" in self.fields:
            most = d.get("most_next_steps")
            if "steps" not in self.hooks:
                raise ScriptError("most_next_steps is a promise about what steps() returns: the game has no steps", path)
            if not (isinstance(most, (int, float)) and not isinstance(most, bool) and most == int(most)
                    and 1 <= most <= 1_000_000):
                raise ScriptError("most_next_steps must be a whole number from 1 to 1000000 (the most next "
                                  f"steps steps() ever returns), got {most!r}", path)
        name = d.get("name")
        if not isinstance(name, str) or not name:
            raise ScriptError("the game table needs a name (a string such as name = \"trinim\")", path)
        self.name: str = name
        title, info = d.get("title"), d.get("info")
        #: The title as the script gives it: a text, or a table of languages (nomv.languages).
        self.title_text: Any = title if is_text(title) else name
        self.title: str = localized(title, "en", name)
        self.info: dict[str, Any] = info if isinstance(info, dict) else {}
        self.players = PlayerSpec.from_script(d.get("players"), path)
        raw_options = d.get("options") or {}
        if not isinstance(raw_options, dict):
            raise ScriptError("options must be a table of name = {default=...}", path)
        if "players" in raw_options:
            raise ScriptError("options.players: set the number of players in the players table", path)
        specs = {name: OptionSpec.from_script(name, raw, path) for name, raw in raw_options.items()}
        player_option = self.players.option()
        if player_option:
            specs["players"] = player_option
        variants = d.get("variants") or {}
        if not isinstance(variants, dict) or not all(isinstance(v, dict) for v in variants.values()):
            raise ScriptError("variants must be a table of name = {option=value, ...}", path)
        self.options = OptionSet(specs, variants)
        for vname in variants:
            try:
                self.options.resolve(variant=vname)
            except OptionError as exc:
                raise ScriptError(f"variants[{vname!r}]: {exc}", path) from None

    @classmethod
    def load(cls, name: str | Path, runtime: str | None = None, *, limits: Limits | None = None,
             isolate: bool | None = None, pool: EnginePool | None = None) -> "Game":
        """Loads a bundled or user game by name, or a script by path."""
        found = catalog.find(str(name))
        return cls(catalog.read_script(found.path), str(found.path), runtime,
                   found.origin, limits=limits, isolate=isolate, pool=pool)

    def _position_engine(self, process: int | None = None) -> Engine:
        """An engine for a new position: on the pool's next process in turn, or on the one
        ``process`` names."""
        if self._pool is None:
            return self.engine
        return self._pool.engine(self.source, self.path, self.runtime, process)

    def __repr__(self) -> str:
        return f"<Game {self.name} from {self.path} on {self.runtime}>"

    def close(self) -> None:
        """Stops the game's own worker process now rather than when the game is collected (a
        pool given to the game is left to its owner).  The game stays usable: its next call
        starts a new worker."""
        if self._own_pool and self._pool is not None:
            self._pool.close()

    def __enter__(self) -> "Game":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def variants(self) -> list[str]:
        return sorted(self.options.variants)

    def resolve_options(self, options: dict[str, Any] | None = None, variant: str | None = None,
                        text: bool = False) -> dict[str, Any]:
        """All option values for a game (defaults filled in), checked by the game's own check."""
        return self._resolve(options, variant, text)[0]

    def _resolve(self, options: dict[str, Any] | None, variant: str | None,
                 text: bool) -> tuple[dict[str, Any], dict[str, Any]]:
        values, given = self.options.resolve(options, variant, text)
        values.setdefault("players", self.players.default)
        message = self.engine.check(values, given)
        if message:
            raise OptionError(f"options refused by {self.name}: {message}")
        return values, given

    def start(self, options: dict[str, Any] | None = None, variant: str | None = None,
              seed: int | None = None, text: bool = False, process: int | None = None) -> "Position":
        """A new game from its initial position.  With a pool, ``process`` is the number of
        the pool's process to hold the position (default: the next in turn)."""
        values, given = self._resolve(options, variant, text)
        if seed is None:
            seed = secrets.randbelow(2**31)
        return Position(self, values, int(seed), given, process)

    def playout(self, games: int, seed: int = 0, options: dict[str, Any] | None = None,
                variant: str | None = None, text: bool = False, max_plies: int = 100_000) -> PlayoutStats:
        """Plays random games inside Lua and returns their figures."""
        return self._random_games(self.engine.playout, games, seed, options, variant, text, max_plies)

    def move_generation(self, games: int, seed: int = 0, options: dict[str, Any] | None = None,
                        variant: str | None = None, max_plies: int = 100_000) -> PlayoutStats:
        """Random games inside Lua whose every move is drawn from the full list of legal moves
        (never ``random_move``); ``moves`` counts the moves listed.  ``nomv bench`` reports them
        per second as the speed of move generation."""
        return self._random_games(self.engine.move_generation, games, seed, options, variant,
                                  False, max_plies)

    def _random_games(self, request: Callable[[dict[str, Any], list[int], int, int, int], dict[str, Any]],
                      games: int, seed: int, options: dict[str, Any] | None, variant: str | None,
                      text: bool, max_plies: int) -> PlayoutStats:
        values = self.resolve_options(options, variant, text)
        players = int(values["players"])
        start = time.perf_counter()
        raw = request(values, seed_words(seed), games, players, max_plies)
        seconds = time.perf_counter() - start
        return PlayoutStats(raw["games"], seconds, raw["plies"], raw["longest"], raw["shortest"],
                            list(raw["wins"]), raw["draws"], raw["unfinished"], raw.get("lost", 0),
                            raw.get("moves", 0))


def _field_line(source: str, message: str) -> int | None:
    """The line of the field a load error names (``players.names must be ...`` -> the line of
    ``names =`` after ``players =``), so that the error points at the author's own line."""
    m = re.match(r"(\w+)(?:\.(\w+))?(?:\.(\w+))?", message)
    if not m:
        return None
    lines = Lines(source)
    line = lines.field(m.group(1))
    for part in m.groups()[1:]:
        if part and line is not None:
            line = lines.field(part, after=line) or line
    return line


#: Sizes of a game table's data that no genuine game comes near; the window draws these texts
#: every frame, and Python reads the options and variants one by one.
MAX_DATA_TEXT = 100_000     # characters of any text (the rules included)
MAX_NAME = 200              # characters of the title or a player's name
MAX_OPTIONS = 200           # options, and variants


def _check_sizes(description: dict[str, Any], path: str) -> None:
    def walk(value: Any, where: str) -> None:
        if isinstance(value, str) and len(value) > MAX_DATA_TEXT:
            raise ScriptError(f"{where} is {len(value)} characters long; at most {MAX_DATA_TEXT}", path, hook="load")
        if isinstance(value, dict):
            for k, v in value.items():
                walk(v, f"{where}.{k}")
        elif isinstance(value, list):
            for i, v in enumerate(value):
                walk(v, f"{where}[{i + 1}]")
    walk(description, "game")
    for key in ("options", "variants"):
        if isinstance(description.get(key), dict) and len(description[key]) > MAX_OPTIONS:
            raise ScriptError(f"{key} has {len(description[key])} entries; at most {MAX_OPTIONS}", path, hook="load")
    players = description.get("players")
    names = players.get("names") if isinstance(players, dict) else None
    names = list(names.values()) if isinstance(names, dict) else list(names) if isinstance(names, list) else []
    name = description.get("name")
    if isinstance(name, str) and len(name) > MAX_NAME:
        # (a saved game names its game: a record refuses a longer name)
        raise ScriptError(f"name is {len(name)} characters long; at most {MAX_NAME}", path, hook="load")
    named = [description.get("title")] + names
    for text in named:
        texts = text.values() if isinstance(text, dict) else [text]  # a text in several languages
        for t in texts:
            if isinstance(t, str) and len(t) > MAX_NAME:
                raise ScriptError(f"a title or player name is {len(t)} characters long; at most {MAX_NAME}",
                                  path, hook="load")


_SEPARATORS = re.compile(r"[\s,;/\-]+")


def _without_rng(data: Any) -> Any:
    """A dumped state without the runtime's rng position.  A state that is a Lua list (fast
    scripts keep theirs in one list of numbers) is dumped as an object because of ``_rng``; with
    that gone, it comes back as a list."""
    if not isinstance(data, dict):
        return data
    rest = {k: v for k, v in data.items() if k != "_rng"}
    if rest and list(rest) == [str(i) for i in range(1, len(rest) + 1)]:
        return list(rest.values())
    return rest


class Position:
    """A game in progress: the current state, the moves that led to it, and undo/redo."""

    def __init__(self, game: Game, options: dict[str, Any], seed: int,
                 chosen: dict[str, Any] | None = None, process: int | None = None):
        self.game = game
        self.options = dict(options)
        #: The options the player chose (a variant's preset included); defaults are not listed.
        self.chosen = dict(options if chosen is None else chosen)
        self.seed = seed
        self.players = int(options.get("players", game.players.default))
        self._process = process
        self._engine = game._position_engine(process)
        self._states = [self._engine.setup(self.options, seed_words(seed))]
        self._history: list[Move] = []
        self._texts: list[str] = []  # the notation of each played move, as it was played
        self._redo: list[Move] = []
        #: What the script said about the current state (its outcome, moves, scene, ... or the
        #: error asking gave).  Only the current state's: a long game keeps no per-ply data.
        self._cache: dict[str, Any] = {}
        #: Answers about earlier states (scenes for a move list), the latest few.
        self._earlier_memo: dict[tuple[int, str], Any] = {}

    # -- reading the position ------------------------------------------------------------------

    def _memo(self, key: str, compute: Callable[[State], _T]) -> _T:
        cache = self._cache
        if key not in cache:
            failed = cache.get("!" + key)  # a hook that failed here would again
            if failed is not None:
                raise failed
            try:
                cache[key] = self._run(compute)
            except ScriptError as exc:
                # Hooks depend on the state alone: asking again (the window draws the scene
                # every frame) would cost the same error, a whole time limit for a hang.
                cache["!" + key] = exc
                raise
        value: _T = cache[key]
        return value

    def _run(self, compute: Callable[[State], _T]) -> _T:
        """compute(current state).  States live in a worker process; if that was stopped (a
        script that ran over its limit), replay the game into a live one first."""
        try:
            return compute(self._states[-1])
        except StaleStateError:
            self._replay()
            return compute(self._states[-1])

    def _replay(self) -> None:
        """The game replayed into a live worker process (its old one was stopped)."""
        self._engine = self.game._position_engine(self._process)
        self._states = self._engine.replay(self.options, seed_words(self.seed),
                                           [m.steps for m in self._history])

    def with_state(self, compute: Callable[[Engine, State], _T]) -> _T:
        """``compute(engine, state)`` on the current state, for computer players (nomv/ai)
        that send their own requests to the game's runtime.  If the position's worker process
        was stopped, the game is first replayed into a live one."""
        return self._run(lambda state: compute(self._engine, state))

    @property
    def ply(self) -> int:
        """How many moves have been played."""
        return len(self._history)

    @property
    def history(self) -> list[Move]:
        return list(self._history)

    @property
    def history_notation(self) -> list[str]:
        """The played moves in the game's notation."""
        return list(self._texts)

    def _prefetch(self) -> None:
        """Asks for the outcome, player to move, moves and notations in one request: with the
        script in a worker process, each request is a round trip.  What failed is left for the
        single request to ask again and report."""
        if "outcome" not in self._cache and "prefetched" not in self._cache:
            self.prefetch()

    def prefetch(self, viewers: Sequence[int | None] = ()) -> None:
        """Asks in one request for what a look at the position needs: the outcome, player to
        move, moves and notations, and for each of ``viewers`` (a player, 0 a spectator, None
        the whole state) its state and scene (a server shows a match after each move; asked
        one by one, each would be a round trip to the worker process).  Afterwards
        :meth:`state`, :meth:`view` and :meth:`scene` answer from what was fetched; what
        failed, or was not fetched, they ask again themselves."""
        cache = self._cache
        first = "outcome" not in cache and "prefetched" not in cache
        if first:
            cache["prefetched"] = True
        np = self.players
        hidden = self.hides_information
        for viewer in viewers:
            if viewer is not None:
                self._check_viewer(viewer)

        def calls(s: State) -> list[tuple[str | None, Call]]:
            out: list[tuple[str | None, Call]] = []
            if first:
                out += [("outcome", Call("result", (s, np))), ("to_move", Call("to_move", (s, np), True)),
                        ("moves", Call("moves", (s,), True)), ("notations", Call("notations", (s,), True))]
            for viewer in dict.fromkeys(None if v is None or not hidden else v for v in viewers):
                if viewer is None:
                    asks = [("state", [Call("dump", (s,))]), ("scene", [Call("scene", (s,))])]
                else:
                    # (a view is a state of its own: made, then dumped or drawn, in the batch)
                    asks = [(f"view:{viewer}", [Call("view", (s, viewer)), Call("dump", (PREVIOUS,))]),
                            (f"scene:{viewer}", [Call("view", (s, viewer)), Call("scene", (PREVIOUS,))])]
                for key, chain in asks:
                    if key not in cache and "!" + key not in cache:
                        out += [(None, c) for c in chain[:-1]] + [(key, chain[-1])]
            return out
        self._ask_together(calls)

    def _ask_together(self, calls: Callable[[State], list[tuple[str | None, Call]]]) -> None:
        """Runs ``calls(current state)`` as one batch and keeps each answer (or its script's
        error) in the cache under its key (None: a step towards the next call)."""
        cache = self._cache
        keys: list[str | None] = []

        def run(s: State) -> list[Any]:
            asked = calls(s)
            keys[:] = [k for k, _ in asked]
            return self._engine.batch([c for _, c in asked]) if asked else []
        try:
            replies = self._run(run)
        except LimitError as exc:
            # The worker was stopped inside one of them: that request gives this error; the
            # others are asked again one by one.
            # (a look's hooks: the first of the batch's asks that ran that hook)
            hook = exc.hook or "result"
            named = {"result": "outcome", "notation": "notations"}.get(hook, hook)
            prefix = {"dump": ("state", "view:"), "view": ("view:", "scene:")}.get(hook, (named,))
            failed = named if named in keys else next(
                (k for k in keys if k is not None and k.startswith(prefix)), None)
            if failed is not None:
                cache["!" + failed] = exc
            return
        answers: dict[str, tuple[str, Any]] = {}
        for key, (status, value) in zip(keys, replies):
            if key is None:
                continue
            answers[key] = (status, value)
            if status == "error" and isinstance(value, ScriptError):
                # Kept: hooks depend on the state alone, and asking again would cost the time
                # again (a whole time limit, or seconds for a stack overflow under Lua 5.4).
                cache["!" + key] = value
            elif status == "ok" and key not in ("outcome", "to_move", "moves", "notations"):
                cache[key] = value
        if "outcome" not in answers:
            return
        (rs, result), (ts, to_move), (ms, moves), (ns, notations) = (
            answers[k] for k in ("outcome", "to_move", "moves", "notations"))
        if rs != "ok":
            return
        cache["outcome"] = result
        if result is not None:
            return
        if ts == "ok":
            cache["to_move"] = to_move
        if ms == "ok" and moves:
            cache["moves"] = [Move.from_json(m) for m in moves]
            if ns == "ok":
                cache["notations"] = notations

    def outcome(self) -> Outcome | None:
        """None while the game runs, else how it ended."""
        self._prefetch()
        raw = self._memo("outcome", lambda s: self._engine.result(s, self.players))
        return None if raw is None else Outcome.from_json(raw)

    def is_over(self) -> bool:
        return self.outcome() is not None

    @property
    def to_move(self) -> int | None:
        """The player to move (1-based), or None when the game is over."""
        if self.is_over():
            return None
        return self._memo("to_move", lambda s: self._engine.to_move(s, self.players))

    @property
    def legal_moves(self) -> list[Move]:
        """Every legal move; empty once the game is over."""
        return list(self._legal())

    def _legal(self) -> list[Move]:
        if self.is_over():  # first: this may fetch the moves (or their error) with the outcome
            return []

        # (The host refuses an empty list while the game goes on: E052, a dead end.)
        return self._memo("moves", lambda state: [Move.from_json(m) for m in self._engine.moves(state)])

    def notations(self) -> list[str]:
        """The notation of every legal move, in the order of legal_moves."""
        if self.is_over():
            return []
        self._legal()  # first, so that a failure in moves is reported as such
        return self._memo("notations", lambda s: self._engine.notations(s))

    def notation(self, move: Move | str | Sequence[str]) -> str:
        """The text of a legal move in the game's notation."""
        return self.notations()[self._index(move)]

    def parse(self, text: str) -> Move:
        """The legal move that text names, or IllegalMoveError."""
        return self._legal()[self._parse_index(text)]

    def scene(self, player: int | None = None, ply: int | None = None) -> dict[str, Any]:
        """What to draw: {"items": [...], "bounds": ..., "status": ...} in board units.

        With ``player``, the scene of that player's view (hidden information removed; 0 for a
        spectator, :data:`SPECTATOR`).  With ``ply``, of the position after the game's first
        ``ply`` moves (an earlier position: the move list, the last move's marks)."""
        if player is not None:
            self._check_viewer(player)
        # (self._engine is read when the state is asked about: a replay may change it)
        if player is None or not self.hides_information:
            compute: Callable[[State], dict[str, Any]] = lambda s: self._engine.scene(s)  # noqa: E731
            key = "scene"
        else:
            compute, key = (lambda s: self._engine.scene(self._engine.view(s, player))), f"scene:{player}"
        if ply is not None and ply != self.ply:
            return self._earlier(ply, key, compute)
        return self._memo(key, compute)

    def _earlier(self, ply: int, key: str, compute: Callable[[State], _T]) -> _T:
        """compute(the state after the first ``ply`` moves), remembered for a few states."""
        if not (isinstance(ply, int) and 0 <= ply <= self.ply):
            raise ValueError(f"ply must be from 0 to {self.ply}, got {ply!r}")
        memo = self._earlier_memo
        if (ply, key) not in memo:
            if len(memo) >= 16:
                memo.pop(next(iter(memo)))
            try:
                memo[(ply, key)] = compute(self._states[ply])
            except StaleStateError:
                self._replay()
                memo[(ply, key)] = compute(self._states[ply])
        value: _T = memo[(ply, key)]
        return value

    @property
    def hides_information(self) -> bool:
        """Whether the game has a ``view`` hook: players may know less than the whole state."""
        return "view" in self.game.hooks

    def _check_viewer(self, player: int) -> None:
        if not (isinstance(player, int) and 0 <= player <= self.players):
            raise ValueError(f"player must be from 1 to {self.players} (or 0, a spectator), got {player!r}")

    def state(self, ply: int | None = None) -> Any:
        """The current state as plain data (the runtime's rng position left out); with ``ply``,
        the state after the game's first ``ply`` moves."""
        compute: Callable[[State], Any] = lambda s: self._engine.dump(s)  # noqa: E731
        if ply is not None and ply != self.ply:
            return _without_rng(self._earlier(ply, "state", compute))
        return _without_rng(self._memo("state", compute))

    def drew_chance(self, since: int) -> bool:
        """Whether the moves after the game's first ``since`` drew from its random generator
        (a die, a card): the generator's position has moved since then.  Taking them back would
        show a player what chance brings next."""
        compute: Callable[[State], Any] = lambda s: self._engine.dump(s)  # noqa: E731
        before = self._earlier(since, "state", compute) if since != self.ply else self._memo("state", compute)
        after = self._memo("state", compute)
        rng = [d.get("_rng") if isinstance(d, dict) else None for d in (before, after)]
        return rng[0] != rng[1]

    def view(self, player: int, ply: int | None = None) -> Any:
        """The current state as ``player`` may know it: the game's ``view`` hook removes what
        that player must not see (another's hidden target, the order of the deck).  Player 0
        (:data:`SPECTATOR`) is someone watching: no player's secrets.  With ``ply``, of the
        position after the first ``ply`` moves."""
        self._check_viewer(player)
        if not self.hides_information:
            compute: Callable[[State], Any] = lambda s: self._engine.dump(s)  # noqa: E731
            key = "state"
        else:
            compute, key = (lambda s: self._engine.dump(self._engine.view(s, player))), f"view:{player}"
        if ply is not None and ply != self.ply:
            return _without_rng(self._earlier(ply, key, compute))
        return _without_rng(self._memo(key, compute))

    def text(self, player: int | None = None) -> str:
        """The position as text: the game's own text(), else a picture of its scene, else its
        state as JSON.  With ``player``, of what that player may know (their view)."""
        if player is not None:
            self._check_viewer(player)
        if player is None or not self.hides_information:
            own = self._memo("text", lambda s: self._engine.text(s))
        else:
            own = self._memo(f"text:{player}", lambda s: self._engine.text(self._engine.view(s, player)))
        if own is not None:
            return own
        from .scenetext import scene_text
        try:
            spec = self.game.players
            picture = scene_text(self.scene(player), players=[
                (spec.name(p), spec.colours[p - 1]) for p in range(1, min(self.players, len(spec.colours)) + 1)])
        except ScriptError:
            picture = None
        if picture is not None:
            return picture
        import json
        return json.dumps(self.state() if player is None else self.view(player), indent=1, sort_keys=True)

    # -- changing the position ---------------------------------------------------------------

    @overload
    def play(self, move: Move) -> Move: ...
    @overload
    def play(self, move: str) -> Move: ...
    @overload
    def play(self, move: list[str] | tuple[str, ...]) -> Move: ...

    def play(self, move: Move | str | list[str] | tuple[str, ...]) -> Move:
        """Plays a legal move and returns it.  ``move`` is a :class:`Move`, a text in the
        game's notation (a ``str`` is always notation: ``"D4-D2"``), or a list or tuple of step
        ids (``["D4", "D2"]``).  Raises :class:`IllegalMoveError` (a ``ValueError``) naming the
        legal moves when it is not legal, :class:`GameOverError` when the game is over."""
        outcome = self.outcome()
        if outcome is not None:
            raise GameOverError(f"the game is over ({outcome.describe(self.game.players)}); no more moves")
        index = self._index(move)
        chosen = self._legal()[index]
        text = self.notations()[index]
        new_state = self._run(lambda s: self._engine.play(s, index))
        self._advance(new_state, chosen, text)
        return chosen

    def play_moves(self, moves: Sequence[Move | list[str] | tuple[str, ...]]) -> list[Move]:
        """Plays several moves (each a :class:`Move` or its steps) in one request to the
        script's runtime, as a server does to bring a position up to date.  If one is not legal
        (or the script fails), the moves before it stay played and the error is raised."""
        if not moves:
            return []
        steps = [list(m.steps) if isinstance(m, Move) else list(m) for m in moves]
        played, error = self._run(lambda s: self._engine.follow_until(s, steps))
        out = []
        for state, text, raw in played:
            move = Move.from_json(raw)
            self._advance(state, move, text)
            out.append(move)
        if error is not None:
            if error.code == "illegal":
                raise IllegalMoveError(f"move {len(out) + 1} of {len(steps)}: {error.message}"
                                       f"{self._examples()}") from None
            raise error
        return out

    def _advance(self, state: State, move: Move, text: str) -> None:
        self._states.append(state)
        self._cache = {}
        self._history.append(move)
        self._texts.append(text)
        if self._redo and self._redo[-1] == move:
            self._redo.pop()
        else:
            self._redo.clear()

    def forget_answers(self) -> None:
        """Drops what the position remembers of its script's answers (asked again when needed):
        a server keeping many positions drops those of one whose answers are too large to keep."""
        self._cache = {}
        self._earlier_memo.clear()

    def undo(self) -> Move:
        """Takes back the last move and returns it."""
        if not self._history:
            raise IllegalMoveError("nothing to undo: no move has been played")
        self._states.pop()
        self._cache = {}
        self._earlier_memo.clear()
        move = self._history.pop()
        self._texts.pop()
        self._redo.append(move)
        return move

    def redo(self) -> Move:
        """Plays again the last move taken back by undo."""
        if not self._redo:
            raise IllegalMoveError("nothing to redo")
        return self.play(self._redo[-1])

    @property
    def can_redo(self) -> bool:
        return bool(self._redo)

    def perft(self, depth: int) -> int:
        """The number of move sequences of this length from here (finished games count once)."""
        if depth < 0:
            raise ValueError("depth must be 0 or more")
        return self._run(lambda s: self._engine.perft(s, depth))

    # -- matching moves ----------------------------------------------------------------------

    def _index(self, move: Move | str | Sequence[str]) -> int:
        if isinstance(move, str):
            return self._parse_index(move)
        legal = self._legal()
        wanted = move if isinstance(move, Move) else Move(tuple(move))
        for i, m in enumerate(legal):
            if m.steps == wanted.steps:
                return i
        for i, m in enumerate(legal):
            if m.any_order and m.key == tuple(sorted(wanted.steps)):
                return i
        raise IllegalMoveError(f"{'-'.join(wanted.steps) or '(empty)'} is not a legal move here"
                               f"{self._examples()}")

    def _parse_index(self, text: str) -> int:
        if self.is_over():
            raise GameOverError(f"the game is over; {text!r} cannot be played")
        notations = self.notations()
        text = text.strip()
        try:
            text.encode("utf-8")  # (terminal bytes that are not UTF-8 arrive as surrogates)
        except UnicodeEncodeError:
            raise IllegalMoveError(f"{text!r} is not valid text (not UTF-8)") from None
        if text in notations:
            first = notations.index(text)
            if text in notations[first + 1:]:
                # The game's notation gives several moves this text: playing the first would
                # silently play what may not be the move meant (a record would replay wrongly).
                same = [str(m) for m, n in zip(self._legal(), notations) if n == text]
                raise IllegalMoveError(f"{text!r} names {len(same)} different moves here ({', '.join(same[:4])}): the "
                                       "game's notation does not tell them apart (the script's mistake: nomv check reports it)")
            return first
        if "parse" in self.game.hooks:
            index, why = self._run(lambda s: self._engine.parse(s, text))
            if index is not None:
                return index
            if why:
                raise IllegalMoveError(f"{text!r} is not a legal move here: {why}")
        lowered = [n.lower() for n in notations]
        if text.lower() in lowered:
            return lowered.index(text.lower())
        parts = tuple(p.lower() for p in _SEPARATORS.split(text) if p)
        for i, m in enumerate(self._legal()):
            steps = tuple(s.lower() for s in m.steps)
            if steps == parts or (m.any_order and sorted(steps) == sorted(parts)):
                return i
        raise IllegalMoveError(f"{text!r} is not a legal move here{self._continuations(parts) or self._examples()}")

    def _continuations(self, parts: tuple[str, ...]) -> str:
        """When the text is the first steps of some legal moves (a move of several clicks typed
        part way): how many, and the steps that may come next, so the player can finish it."""
        if not parts:
            return ""
        longer = [(i, m) for i, m in enumerate(self._legal()) if len(m.steps) > len(parts)
                  and tuple(x.lower() for x in m.steps[:len(parts)]) == parts]
        if not longer:
            return ""
        nexts = list(dict.fromkeys(m.steps[len(parts)] for _, m in longer))
        shown = ", ".join(nexts[:8]) + (f" and {len(nexts) - 8} more" if len(nexts) > 8 else "")
        return (f": it is the start of {len(longer)} move{'s' if len(longer) > 1 else ''}, "
                f"going on with {shown} (e.g. {self.notations()[longer[0][0]]})")

    def _examples(self) -> str:
        notations = self.notations()
        if not notations:
            return ""
        shown = ", ".join(notations[:6])
        more = f" and {len(notations) - 6} more" if len(notations) > 6 else ""
        return f"; legal moves: {shown}{more}"
