"""The engine interface: typed requests about a game script, answered by its Lua runtime.

:class:`Engine` is the one interface every front end uses (the Python API in :mod:`nomv.game`,
the computer players, the checker, the server).  Two classes implement it:

* :class:`LuaEngine` runs the script's runtime in this process (fast calls; but a loop that
  LuaJIT compiled cannot be stopped);
* :class:`~nomv.worker.WorkerEngine` sends the requests to a worker process of an
  :class:`~nomv.pool.EnginePool`, which kills the process when a request runs over the time
  limit.

Both inherit every typed method from :class:`EngineBase`, which turns Python arguments into
the wire form and raw replies back into Python values in one place (:data:`CODEC`): JSON text
is decoded, Lua's 1-based move numbers become 0-based indices and back.  A subclass only
transports raw requests (:meth:`EngineBase._send`, :meth:`EngineBase._send_batch`).

A move from a click to the script: ``Position.play`` → ``Engine.play(state, index)`` →
``CODEC["play"]`` (index + 1) → ``_send`` (in-process, or over a worker's pipe) →
``HostRuntime.call("play", ...)`` → ``H.play`` in ``nomv/lua/host/requests.lua`` → the script's
``play``; the new state comes back as a handle.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Callable, Generic, Literal, NamedTuple, Protocol, Sequence, TypeVar, runtime_checkable

from .errors import ScriptError
from .limits import Limits
from .runtime import PREVIOUS, HostRuntime, RawReply, runtime_name

__all__ = ["Engine", "EngineBase", "LuaEngine", "Call", "Reply", "Request", "State", "CODEC", "runtime_name"]

#: A state inside the engine: a Lua table in this process, or a handle to one in a worker.
#: Opaque to callers: only requests of the same engine take it.
State = Any


class Call(NamedTuple):
    """One request in a batch: the name of an :class:`Engine` method and its arguments.  With
    ``only_if_running``, it runs only when the batch's last ``result`` said the game goes on
    (the moves of a finished game are not listed for nothing)."""

    request: str
    args: tuple[Any, ...]
    only_if_running: bool = False


class Reply(NamedTuple):
    """The answer to one :class:`Call`: ``ok`` with its value, ``error`` with the
    :class:`~nomv.errors.ScriptError`, or ``skipped`` (not run: a request before it ran over
    a limit, or the game is over for an ``only_if_running`` call)."""

    status: Literal["ok", "error", "skipped"]
    value: Any


_T = TypeVar("_T")


def _json_list(raw: Any) -> list[Any]:
    value = json.loads(raw)
    assert isinstance(value, list)
    return value


def _json_dict(raw: Any) -> dict[str, Any]:
    value = json.loads(raw)
    assert isinstance(value, dict)
    return value


def _json_dict_or_none(raw: Any) -> dict[str, Any] | None:
    return None if raw is None else _json_dict(raw)


def _json_list_or_none(raw: Any) -> list[Any] | None:
    return None if raw is None else _json_list(raw)


def _json_any(raw: Any) -> Any:
    return json.loads(raw)


def _state(raw: Any) -> State:
    return raw


def _nothing(raw: Any) -> None:
    return None


def _text_or_none(raw: Any) -> str | None:
    return None if raw is None else str(raw)


def _int(raw: Any) -> int:
    return int(raw)


def _int_or_none(raw: Any) -> int | None:
    # Lua 5.4 keeps 1.0 a float: the host has checked that it is whole.
    return None if raw is None else int(raw)


def _float_or_none(raw: Any) -> float | None:
    return None if raw is None else float(raw)


def _parsed(raw: Any) -> tuple[int | None, str | None]:
    if not isinstance(raw, tuple):
        raw = (raw, None)
    index, why = (raw + (None,))[:2]
    return (None if index is None else int(index) - 1), why


def _searched(raw: Any) -> dict[str, Any]:
    result = _json_dict(raw)
    result["index"] -= 1
    for m in result["moves"]:
        m["index"] -= 1
    return result


def _played(raw: Any) -> tuple[State, str, Any]:
    state, notation, move = raw
    return state, str(notation), json.loads(move)


#: A quick game's line (nomv/lua/host/lab.lua): [end, plies, turns, winner, ranks, first, reason].
_LAB_ENDS = (None, "won", "drawn", "lost", "cut")


def _lab_lines(raw: Any) -> tuple[list[dict[str, Any]], int]:
    text, done = raw
    reply = json.loads(text)
    strings = [None, *reply["strings"]]
    lines: list[dict[str, Any]] = []
    for g in reply["games"]:
        if isinstance(g, list):
            end, plies, turns, winner, ranks, first, reason = g
            line: dict[str, Any] = {"end": _LAB_ENDS[end], "plies": plies, "turns": turns}
            if ranks:
                line["ranks"] = list(strings[ranks])
            if winner:
                line["winner"] = winner
            if first:
                line["first"] = strings[first]
            if reason:
                line["reason"] = strings[reason]
            g = line
        lines.append(g)
    return lines, int(done)


def _plus_one(args: tuple[Any, ...]) -> tuple[Any, ...]:
    state, index = args
    return (state, index + 1)


@dataclass(frozen=True)
class Request(Generic[_T]):
    """A request of host.lua as the engine sends it: how its arguments go onto the wire
    (``encode``; most go as they are) and how its raw reply becomes a Python value."""

    name: str
    decode: Callable[[Any], _T]
    encode: Callable[[tuple[Any, ...]], tuple[Any, ...]] | None = None

    def wire(self, args: tuple[Any, ...]) -> tuple[Any, ...]:
        return self.encode(args) if self.encode else tuple(args)


CHECK = Request("check", _text_or_none)
SETUP = Request("setup", _state)
MOVES = Request("moves", _json_list)
MOVE_COUNT = Request("move_count", _int)
PLAY = Request("play", _state, _plus_one)        # Lua counts moves from 1
PLAY_STEPS = Request("play_steps", _played)       # (new state, notation, the move as in moves)
RESULT = Request("result", _json_dict_or_none)
TO_MOVE = Request("to_move", _int_or_none)
NOTATIONS = Request("notations", _json_list)
PARSE = Request("parse", _parsed)                # its index back from 1-based
SCENE = Request("scene", _json_dict)
TEXT = Request("text", _text_or_none)
VIEW = Request("view", _state)
DETERMINIZE = Request("determinize", _state)
EVALUATE = Request("evaluate", _float_or_none)
DUMP = Request("dump", _json_any)
RANDOM_MOVES = Request("random_moves", _json_list_or_none)
STEPS_MOVES = Request("steps_moves", _json_list_or_none)
PLAYOUT = Request("playout", _json_dict)
MOVE_GENERATION = Request("move_generation", _json_dict)
PERFT = Request("perft", _int)
PRINTED = Request("printed", _json_list)
SEARCH_TREE = Request("search_tree", _state)
SEARCH = Request("search", _searched)            # its indices back from 1-based
COVERAGE_START = Request("coverage_start", _nothing)
COVERAGE_PAUSE = Request("coverage_pause", _nothing)
COVERAGE_STOP = Request("coverage_stop", _json_dict)
COVERAGE_LINES = Request("coverage_lines", _int)
MOVE_ADDED_AT = Request("move_added_at", _int_or_none, _plus_one)
PROFILE = Request("profile", _json_dict)
CHECK_GAMES = Request("check_games", _json_dict)
CHECK_TRAIL = Request("check_trail", _json_dict)
PLAY_CHANGED_AT = Request("play_changed_at", _json_dict_or_none, _plus_one)
LAB_GAMES = Request("lab_games", _lab_lines)     # (one dict per game, how many games that is)
LAB_RULE_LINES = Request("lab_rule_lines", _json_list)

#: Every request by name (for batches): the one place where arguments are encoded for the wire
#: and replies decoded.
CODEC: dict[str, Request[Any]] = {r.name: r for r in (
    CHECK, SETUP, MOVES, MOVE_COUNT, PLAY, PLAY_STEPS, RESULT, TO_MOVE, NOTATIONS, PARSE, SCENE, TEXT, VIEW,
    DETERMINIZE, EVALUATE, DUMP, RANDOM_MOVES, STEPS_MOVES, PLAYOUT, MOVE_GENERATION, PERFT, PRINTED,
    SEARCH_TREE, SEARCH, COVERAGE_START, COVERAGE_PAUSE, COVERAGE_STOP, COVERAGE_LINES, MOVE_ADDED_AT, CHECK_GAMES,
    CHECK_TRAIL, PLAY_CHANGED_AT, PROFILE, LAB_GAMES, LAB_RULE_LINES)}


@runtime_checkable
class Engine(Protocol):
    """Requests about one game script.  States are opaque handles of the engine that made them;
    every method raises :class:`~nomv.errors.ScriptError` (or ``LimitError``) for the script's
    errors, with the script's line and the checker's code where known."""

    runtime: str
    path: str
    limits: Limits
    #: The game table as data (name, title, players, options, variants, fields, hooks, each
    #: hook's line, ...), from loading the script.
    description: dict[str, Any]

    # -- a position -------------------------------------------------------------------------
    def check(self, options: dict[str, Any], given: dict[str, Any]) -> str | None:
        """The game's ``check(options, given)``: None, or why it refuses the options."""
    def setup(self, options: dict[str, Any], seed: list[int]) -> State:
        """The initial state for the options, with the portable generator seeded by ``seed``."""
    def moves(self, state: State) -> list[Any]:
        """The legal moves (each its steps, or ``{steps, any_order, label}``); [] only when
        the game is over."""
    def move_count(self, state: State) -> int: ...
    def play(self, state: State, index: int) -> State:
        """The state after the legal move number ``index`` (0-based, in :meth:`moves`' order)."""
    def result(self, state: State, players: int) -> dict[str, Any] | None:
        """None while the game runs, else ``{winner, ranks, scores, reason}``."""
    def to_move(self, state: State, players: int) -> int | None: ...
    def notations(self, state: State) -> list[str]: ...
    def parse(self, state: State, text: str) -> tuple[int | None, str | None]:
        """The game's ``parse``: (index of the legal move the text names, None) or (None, why)."""
    def scene(self, state: State) -> dict[str, Any]: ...
    def text(self, state: State) -> str | None: ...
    def view(self, state: State, player: int) -> State: ...
    def determinize(self, view: State, player: int, seed: list[int]) -> State | None: ...
    def evaluate(self, state: State, player: int) -> float | None: ...
    def dump(self, state: State) -> Any: ...
    def random_moves(self, state: State, seed: list[int], n: int) -> list[Any] | None: ...
    def steps_moves(self, state: State) -> list[Any] | None: ...
    # -- loops inside Lua -------------------------------------------------------------------
    def playout(self, options: dict[str, Any], seed: list[int], games: int, players: int,
                max_plies: int) -> dict[str, Any]: ...
    def move_generation(self, options: dict[str, Any], seed: list[int], games: int,
                        players: int, max_plies: int) -> dict[str, Any]: ...
    def perft(self, state: State, depth: int) -> int: ...
    def profile(self, options: dict[str, Any], seed: list[int], seconds: float, players: int,
                max_plies: int, full: bool = True) -> dict[str, Any]: ...
    def search_tree(self, seed: list[int], c: float | None = None,
                    playout_plies: int | None = None, max_nodes: int | None = None) -> State: ...
    def search(self, tree: State, state: State, players: int, history: list[str],
               iterations: int | None, seconds: float | None) -> dict[str, Any]: ...
    # -- several at once, the author's prints, coverage ---------------------------------------
    def batch(self, calls: Sequence[Call]) -> list[Reply]: ...
    def play_steps(self, state: State, steps: Sequence[str]) -> tuple[State, str, Any]: ...
    def follow(self, state: State, moves: Sequence[Sequence[str]]) -> list[tuple[State, str, Any]]: ...
    def follow_until(self, state: State, moves: Sequence[Sequence[str]]
                     ) -> tuple[list[tuple[State, str, Any]], ScriptError | None]: ...
    def replay(self, options: dict[str, Any], seed: list[int], moves: Sequence[Sequence[str]]) -> list[State]: ...
    def printed(self) -> list[str]: ...
    def coverage_start(self, keep: bool = False) -> None: ...
    def coverage_pause(self) -> None: ...
    def coverage_stop(self) -> dict[str, Any]: ...
    def coverage_lines(self) -> int: ...
    def move_added_at(self, state: State, index: int) -> int | None: ...
    # -- the checker's fast tier and blame (nomv/lua/host/checks.lua) -------------------------
    def check_games(self, options: dict[str, Any], seed: list[int], games: int, players: int,
                    max_plies: int) -> dict[str, Any]: ...
    def check_trail(self) -> dict[str, Any]: ...
    def play_changed_at(self, state: State, index: int) -> dict[str, Any] | None: ...
    # -- the designer's lab (nomv/lua/host/lab.lua) --------------------------------------------
    def lab_games(self, options: dict[str, Any], batch: dict[str, Any], players: int, max_plies: int,
                  agents: list[dict[str, Any]], notations: bool = False) -> tuple[list[dict[str, Any]], int]: ...
    def lab_rule_lines(self) -> list[int]: ...
    def close(self) -> None: ...


class EngineBase:
    """The typed requests of :class:`Engine`, written once over a raw transport."""

    runtime: str
    path: str
    limits: Limits
    description: dict[str, Any]

    # -- the transport: what a subclass provides ---------------------------------------------

    def _send(self, request: str, args: tuple[Any, ...]) -> Any:
        """Runs one request with wire arguments; returns its raw reply or raises its error."""
        raise NotImplementedError

    def _send_batch(self, calls: list[tuple[Any, ...]]) -> list[RawReply]:
        """Runs several requests in one go (``HostRuntime.run``'s rules)."""
        raise NotImplementedError

    def close(self) -> None:
        """Frees what the engine holds (a later request may start it again)."""

    # -- the codec ---------------------------------------------------------------------------

    def _ask(self, request: Request[_T], *args: Any) -> _T:
        return request.decode(self._send(request.name, request.wire(args)))

    def batch(self, calls: Sequence[Call]) -> list[Reply]:
        """Several requests in one crossing (one round trip to a worker process instead of
        several).  A request that runs over a limit ends the batch: the ones after it are
        ``skipped``, so that a hanging hook costs one time limit, not several."""
        wire: list[tuple[Any, ...]] = []
        for name, args, only_if_running in calls:
            if name not in CODEC:
                raise ValueError(f"{name!r} is not a request of the engine")
            wire.append((name, CODEC[name].wire(args), True) if only_if_running
                        else (name, CODEC[name].wire(args)))
        out: list[Reply] = []
        for (name, *_), raw in zip(wire, self._send_batch(wire)):
            if raw.status == "ok":
                out.append(Reply("ok", CODEC[name].decode(raw.value)))
            else:
                out.append(Reply(raw.status, raw.value))
        return out

    def play_steps(self, state: State, steps: Sequence[str]) -> tuple[State, str, Any]:
        """Plays the legal move the steps name (in any order for an ``any_order`` move):
        (the new state, the move's notation, the move as :meth:`moves` lists it).  A move that
        is not legal raises a ScriptError whose ``code`` is ``"illegal"``."""
        return self._ask(PLAY_STEPS, state, list(steps))

    def follow(self, state: State, moves: Sequence[Sequence[str]]) -> list[tuple[State, str, Any]]:
        """Plays the moves (each its steps) one after the other from ``state``, in one
        crossing; returns each move's :meth:`play_steps` answer, or raises the error of the
        first move that fails (:meth:`follow_until` keeps what was played before it)."""
        played, error = self.follow_until(state, moves)
        if error is not None:
            raise error
        return played

    def follow_until(self, state: State, moves: Sequence[Sequence[str]]
                     ) -> tuple[list[tuple[State, str, Any]], ScriptError | None]:
        """Like :meth:`follow`, but a move that fails ends the list instead of raising: returns
        the answers of the moves played and the error of the first that failed (or None)."""
        calls = [(PLAY_STEPS.name, (PREVIOUS if i else state, list(m))) for i, m in enumerate(moves)]
        return self._chain(calls, PLAY_STEPS.decode)

    def replay(self, options: dict[str, Any], seed: list[int], moves: Sequence[Sequence[str]]) -> list[State]:
        """The states of a game: the start from ``options`` and ``seed``, then after each move
        (each its steps), in one crossing."""
        calls = [(SETUP.name, (options, seed))] + [(PLAY_STEPS.name, (PREVIOUS, list(m))) for m in moves]
        answers, error = self._chain(calls, lambda raw: raw[0] if isinstance(raw, tuple) else raw)
        if error is not None:
            raise error
        return answers

    def _chain(self, calls: list[tuple[Any, ...]], decode: Callable[[Any], _T]) -> tuple[list[_T], ScriptError | None]:
        out: list[_T] = []
        for raw in self._send_batch(calls):
            if raw.status == "error":
                assert isinstance(raw.value, ScriptError)
                return out, raw.value
            if raw.status != "ok":
                break
            out.append(decode(raw.value))
        if len(out) != len(calls):
            return out, ScriptError("the replay stopped early", self.path, hook="play")
        return out, None

    # -- the requests --------------------------------------------------------------------------

    def check(self, options: dict[str, Any], given: dict[str, Any]) -> str | None:
        return self._ask(CHECK, options, given)

    def setup(self, options: dict[str, Any], seed: list[int]) -> State:
        return self._ask(SETUP, options, seed)

    def moves(self, state: State) -> list[Any]:
        return self._ask(MOVES, state)

    def move_count(self, state: State) -> int:
        """How many legal moves there are (cheaper than :meth:`moves` on big positions)."""
        return self._ask(MOVE_COUNT, state)

    def play(self, state: State, index: int) -> State:
        return self._ask(PLAY, state, index)

    def result(self, state: State, players: int) -> dict[str, Any] | None:
        return self._ask(RESULT, state, players)

    def to_move(self, state: State, players: int) -> int | None:
        return self._ask(TO_MOVE, state, players)

    def notations(self, state: State) -> list[str]:
        return self._ask(NOTATIONS, state)

    def parse(self, state: State, text: str) -> tuple[int | None, str | None]:
        return self._ask(PARSE, state, text)

    def scene(self, state: State) -> dict[str, Any]:
        return self._ask(SCENE, state)

    def text(self, state: State) -> str | None:
        return self._ask(TEXT, state)

    def view(self, state: State, player: int) -> State:
        return self._ask(VIEW, state, player)

    def determinize(self, view: State, player: int, seed: list[int]) -> State | None:
        """The game's determinize(view, player, rng) (a state), or None without one."""
        return self._ask(DETERMINIZE, view, player, seed)

    def evaluate(self, state: State, player: int) -> float | None:
        """The game's evaluate(state, player), or None without one."""
        return self._ask(EVALUATE, state, player)

    def dump(self, state: State) -> Any:
        return self._ask(DUMP, state)

    def random_moves(self, state: State, seed: list[int], n: int) -> list[Any] | None:
        """n random moves, like :meth:`moves`: from the game's random_move hook, or the host's
        uniform draw from its steps hook; None with neither."""
        return self._ask(RANDOM_MOVES, state, seed, n)

    def steps_moves(self, state: State) -> list[Any] | None:
        """The moves the game's steps hook describes, like :meth:`moves` (None without one)."""
        return self._ask(STEPS_MOVES, state)

    def playout(self, options: dict[str, Any], seed: list[int], games: int, players: int,
                max_plies: int) -> dict[str, Any]:
        return self._ask(PLAYOUT, options, seed, games, players, max_plies)

    def move_generation(self, options: dict[str, Any], seed: list[int], games: int,
                        players: int, max_plies: int) -> dict[str, Any]:
        """Like :meth:`playout`, but every move is drawn from the full list ``moves`` returns;
        the figures add ``moves``, how many moves were listed in all."""
        return self._ask(MOVE_GENERATION, options, seed, games, players, max_plies)

    def perft(self, state: State, depth: int) -> int:
        return self._ask(PERFT, state, depth)

    def profile(self, options: dict[str, Any], seed: list[int], seconds: float, players: int,
                max_plies: int, full: bool = True) -> dict[str, Any]:
        """Random games for about ``seconds`` of CPU time with their stacks sampled (and with
        ``full``, a pass counting lines, calls and allocations, and a survey of the
        positions): the raw figures that :mod:`nomv.profile` reads."""
        return self._ask(PROFILE, options, seed, float(seconds), players, max_plies, full)

    def printed(self) -> list[str]:
        """Lines the script printed since the last call (print() is for the script's author)."""
        return self._ask(PRINTED)

    def search_tree(self, seed: list[int], c: float | None = None,
                    playout_plies: int | None = None, max_nodes: int | None = None) -> State:
        """A new Monte Carlo search tree (a handle, like a state) for one computer player."""
        config = {"seed": seed, "c": c, "playout_plies": playout_plies, "max_nodes": max_nodes}
        return self._ask(SEARCH_TREE, {k: v for k, v in config.items() if v is not None})

    def search(self, tree: State, state: State, players: int, history: list[str],
               iterations: int | None, seconds: float | None) -> dict[str, Any]:
        """Searches from ``state`` with ``tree``; ``history`` holds the keys of the moves played
        since the start (the tree keeps what it learnt below a position it saw coming).  The
        chosen ``index`` and each ranked move's ``index`` count from 0, like :meth:`moves`."""
        return self._ask(SEARCH, tree, state, players, history, iterations, seconds)

    def coverage_start(self, keep: bool = False) -> None:
        """Starts recording which lines of the script run (a line hook; use Lua 5.4).
        With ``keep``, resumes after :meth:`coverage_pause` keeping the lines seen so far."""
        self._ask(COVERAGE_START, keep)

    def coverage_pause(self) -> None:
        self._ask(COVERAGE_PAUSE)

    def coverage_stop(self) -> dict[str, Any]:
        """Stops recording; returns {"ran": [lines], "active": [lines that can run]}."""
        return self._ask(COVERAGE_STOP)

    def coverage_lines(self) -> int:
        """How many lines of the script have run since coverage began."""
        return self._ask(COVERAGE_LINES)

    def move_added_at(self, state: State, index: int) -> int | None:
        """The line of the script that added item ``index`` (from 0) to the list ``moves``
        returns for ``state``, when it can be told (a line hook: use Lua 5.4)."""
        return self._ask(MOVE_ADDED_AT, state, index)

    def check_games(self, options: dict[str, Any], seed: list[int], games: int, players: int,
                    max_plies: int) -> dict[str, Any]:
        """Random games inside Lua with the cheap checks at every ply (the result's shape, the
        player to move, a move while the game runs, a legal and well-formed random move, an
        end within ``max_plies``): figures like :meth:`playout`'s, or the first mistake's
        error, after which :meth:`check_trail` tells which game it was."""
        return self._ask(CHECK_GAMES, options, seed, games, players, max_plies)

    def check_trail(self) -> dict[str, Any]:
        """The game the last :meth:`check_games` was playing: ``{game, ply, seed, moves}``
        (its number from 1, the plies played, the seed of its setup and chance, its moves as
        :meth:`moves` lists them; one more move than ``ply`` when playing the last failed)."""
        return self._ask(CHECK_TRAIL)

    def play_changed_at(self, state: State, index: int) -> dict[str, Any] | None:
        """Where play(state, move ``index``) changes the state it is given: ``{line, path,
        key, via}`` (``via``: the local it went through, ``{name, line}``), or None (a line
        hook: use Lua 5.4)."""
        return self._ask(PLAY_CHANGED_AT, state, index)

    def lab_games(self, options: dict[str, Any], batch: dict[str, Any], players: int, max_plies: int,
                  agents: list[dict[str, Any]], notations: bool = False) -> tuple[list[dict[str, Any]], int]:
        """Whole games for the designer's lab (nomv/lab/), each described by a dict: how it
        ended, its plies, turns and first move; at detail 1 also its repeated positions and the
        steps and kinds of moves played, at 2 the legal moves counted at each ply; with an MCTS
        seat, each search's values for every player.  ``batch`` is ``{seeds, detail, seats}``:
        twelve numbers a game (the setup's seed, then the players'), a detail level a game, and
        the agent (1-based, in ``agents``) of each seat.  A game that fails is
        ``{"error": {...}, "plies": n}``.  Returns the dicts and how many games they are (fewer
        than asked when the reply grew large: ask again for the rest)."""
        return self._ask(LAB_GAMES, options, batch, players, max_plies, agents, notations)

    def lab_rule_lines(self) -> list[int]:
        """The script's lines in the functions the rules can run (reachable from setup, moves,
        steps, play, result, to_move, random_move, view, determinize, evaluate): the lines rule
        coverage looks at, not the scene's or the text's."""
        return self._ask(LAB_RULE_LINES)


class LuaEngine(EngineBase):
    """The engine in this process: the script's runtime lives here (fast calls, but a loop
    that LuaJIT compiled cannot be interrupted: use a worker for untrusted scripts)."""

    def __init__(self, source: str, path: str, runtime: str | None = None,
                 limits: Limits | None = None):
        self._runtime = HostRuntime(source, path, runtime, limits)
        self.runtime, self.path, self.limits = self._runtime.runtime, path, self._runtime.limits
        self.description = self._runtime.description

    def _send(self, request: str, args: tuple[Any, ...]) -> Any:
        return self._runtime.call(request, *args)

    def _send_batch(self, calls: list[tuple[Any, ...]]) -> list[RawReply]:
        return self._runtime.run(calls)
