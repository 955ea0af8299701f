"""One game script running in its own sandboxed Lua runtime.

The :class:`LuaEngine` is the only code that talks to lupa.  Its requests take and return plain
data (state handles are opaque), so the same interface can later be served by a worker process
that the host can kill.  Python crosses into Lua once per request: playouts and perft loop
inside Lua.
"""
from __future__ import annotations

import json
import os
from importlib import import_module
from pathlib import Path
from typing import Any

from .errors import LimitError, NomvError, ScriptError

LUA_DIR = Path(__file__).with_name("lua")
LIBRARY = ("rng", "util", "grid")

#: Runtime names accepted by ``--lua`` and ``NOMV_LUA``, mapped to lupa's modules.
RUNTIMES = {"jit": "lupa.luajit21", "luajit": "lupa.luajit21", "5.4": "lupa.lua54", "lua54": "lupa.lua54"}
DEFAULT_TIME_LIMIT = 1.5          # seconds for one call of a script function (or one game of
                                  # a playout, one node of perft): a hang is reported in < 2 s
DEFAULT_MEMORY_LIMIT = 1 << 30    # bytes for one game's whole Lua runtime

_sources: dict[str, str] = {}


def _source(name: str) -> str:
    if name not in _sources:
        _sources[name] = (LUA_DIR / f"{name}.lua").read_text(encoding="utf-8")
    return _sources[name]


def runtime_name(name: str | None = None) -> str:
    """The canonical runtime name (``jit`` or ``5.4``) from an argument or ``NOMV_LUA``."""
    name = name or os.environ.get("NOMV_LUA") or "jit"
    if name not in RUNTIMES:
        raise NomvError(f"unknown Lua runtime {name!r}; choose one of: jit, 5.4")
    return "jit" if RUNTIMES[name].endswith("luajit21") else "5.4"


def _limit_from_env(var: str, default: float) -> float:
    raw = os.environ.get(var)
    if raw is None:
        return default
    try:
        value = float(raw)
    except ValueError:
        raise NomvError(f"{var}={raw!r} is not a number") from None
    if value < 0:
        raise NomvError(f"{var}={raw!r} must not be negative")
    return value


def resolve_limits(time_limit: float | None, memory_limit: int | None) -> tuple[float, int]:
    """The limits to use: the arguments, else ``NOMV_TIME_LIMIT`` (seconds per call) and
    ``NOMV_MEMORY_MB`` (megabytes per game), else the defaults.  0 means no limit."""
    if time_limit is None:
        time_limit = _limit_from_env("NOMV_TIME_LIMIT", DEFAULT_TIME_LIMIT)
    if memory_limit is None:
        memory_limit = int(_limit_from_env("NOMV_MEMORY_MB", DEFAULT_MEMORY_LIMIT / 2**20) * 2**20)
    return float(time_limit), int(memory_limit)


class LuaEngine:
    """A sandboxed Lua runtime holding one loaded game script."""

    def __init__(self, source: str, path: str, runtime: str | None = None,
                 time_limit: float | None = None, memory_limit: int | None = None):
        self.runtime = runtime_name(runtime)
        self.path = path
        module = import_module(RUNTIMES[self.runtime])
        self._errors = (module.LuaError,)
        self._memory_error = module.LuaMemoryError
        time_limit, memory_limit = resolve_limits(time_limit, memory_limit)
        self.time_limit = time_limit
        self._lua = module.LuaRuntime(register_eval=False, register_builtins=False,
                                      unpack_returned_tuples=True, max_memory=memory_limit or None)
        self._lua.globals().python = None
        host = self._lua.execute(_source("host"), name="@nomv/host.lua", mode="t")
        self._host = host
        self._call("init", self._lua.table_from({n: _source(n) for n in LIBRARY + ("search",)}))
        self._call("set_limit", float(time_limit))
        self.description: dict[str, Any] = json.loads(self._call("load", source, path))

    # -- the request protocol ---------------------------------------------------------------

    def _call(self, request: str, *args: Any) -> Any:
        try:
            reply = self._host[request](*args)
        except self._memory_error:
            raise LimitError("used more memory than the limit allows", self.path,
                             hook=request, kind="memory") from None
        except self._errors as exc:  # only reachable through a bug in host.lua
            raise ScriptError(f"internal error: {exc}", self.path, hook=request) from None
        if not isinstance(reply, tuple):
            reply = (reply,)
        ok, *values = reply
        if ok:
            return values[0] if len(values) == 1 else (tuple(values) if values else None)
        raise self._script_error(values[0] if values else "{}")

    def _script_error(self, payload: str) -> ScriptError:
        try:
            info = json.loads(payload)
        except (TypeError, ValueError):
            info = {"message": str(payload)}
        line = info.get("line")
        hook = info.get("hook")
        if not line and hook:
            # A broken contract is found after the hook returned: point at the hook itself.
            line = getattr(self, "description", {}).get("hook_lines", {}).get(hook)
        kind = info.get("kind", "error")
        cls = LimitError if kind in ("time", "memory") else ScriptError
        return cls(info.get("message", "unknown error"), self.path, line, hook, kind)

    def table(self, data: dict | list) -> Any:
        """Plain Python data as a Lua table (no Python object ever enters the sandbox)."""
        if isinstance(data, dict):
            return self._lua.table_from({k: self._plain(v) for k, v in data.items()})
        return self._lua.table_from([self._plain(v) for v in data])

    def _plain(self, v: Any) -> Any:
        if isinstance(v, (dict, list, tuple)):
            return self.table(v if isinstance(v, dict) else list(v))
        if v is None or isinstance(v, (bool, int, float, str)):
            return v
        raise TypeError(f"cannot pass {type(v).__name__} into a script")

    # -- requests ---------------------------------------------------------------------------

    def check(self, options: dict, given: dict) -> str | None:
        return self._call("check", self.table(options), self.table(given))

    def setup(self, options: dict, seed: list[int]) -> Any:
        return self._call("setup", self.table(options), self.table(seed))

    def moves(self, state: Any) -> list:
        return json.loads(self._call("moves", state))

    def play(self, state: Any, index: int) -> Any:
        return self._call("play", state, index + 1)

    def result(self, state: Any, players: int) -> dict | None:
        raw = self._call("result", state, players)
        return None if raw is None else json.loads(raw)

    def to_move(self, state: Any, players: int) -> int | None:
        return self._call("to_move", state, players)

    def notations(self, state: Any) -> list[str]:
        return json.loads(self._call("notations", state))

    def parse(self, state: Any, text: str) -> tuple[int | None, str | None]:
        reply = self._call("parse", state, text)
        if not isinstance(reply, tuple):
            reply = (reply, None)
        index, why = (reply + (None,))[:2]
        return (None if index is None else index - 1), why

    def scene(self, state: Any) -> dict:
        return json.loads(self._call("scene", state))

    def text(self, state: Any) -> str | None:
        return self._call("text", state)

    def view(self, state: Any, player: int) -> Any:
        return self._call("view", state, player)

    def determinize(self, view: Any, player: int, seed: list[int]) -> Any:
        """The game's determinize(view, player, rng) (a state handle), or None without one."""
        return self._call("determinize", view, player, self.table(seed))

    def evaluate(self, state: Any, player: int) -> float | None:
        """The game's evaluate(state, player), or None without one."""
        return self._call("evaluate", state, player)

    def dump(self, state: Any) -> Any:
        return json.loads(self._call("dump", state))

    def playout(self, options: dict, seed: list[int], games: int, players: int, max_plies: int) -> dict:
        return json.loads(self._call("playout", self.table(options), self.table(seed), games,
                                     players, max_plies))

    def move_generation(self, options: dict, seed: list[int], games: int, players: int,
                        max_plies: int) -> dict:
        """Like :meth:`playout`, but every move is drawn from the full list ``moves`` returns;
        the figures add ``moves``, how many moves were listed in all."""
        return json.loads(self._call("move_generation", self.table(options), self.table(seed),
                                     games, players, max_plies))

    def perft(self, state: Any, depth: int) -> int:
        return int(self._call("perft", state, depth))

    def printed(self) -> list[str]:
        """Lines the script printed since the last call (print() is for the script's author)."""
        return json.loads(self._call("printed"))

    def batch(self, requests: list[tuple[str, tuple]]) -> list[tuple[str, Any]]:
        """Several requests at once (one crossing to a worker process instead of several):
        ``[(name, args), ...]`` gives ``[("ok", value) or ("error", ScriptError), ...]``.
        A request that runs over a limit ends the batch: the ones after it are not run (they
        give ``("skipped", None)``), so that a hanging hook costs one time limit, not several."""
        for name, _args in requests:
            if name.startswith("_") or name in ("batch", "table"):
                raise ValueError(f"{name!r} cannot be batched")
        out: list[tuple[str, Any]] = []
        for name, args in requests:
            if out and isinstance(out[-1][1], LimitError):
                out.append(("skipped", None))
                continue
            try:
                out.append(("ok", getattr(self, name)(*args)))
            except ScriptError as exc:
                out.append(("error", exc))
        return out

    # -- computer players (nomv/ai) ------------------------------------------------------------

    def search_tree(self, seed: list[int], c: float | None = None, playout_plies: int | None = None,
                    max_nodes: int | None = None) -> Any:
        """A new Monte Carlo search tree (a handle, like a state) for one computer player."""
        config = {"seed": seed, "c": c, "playout_plies": playout_plies, "max_nodes": max_nodes}
        return self._call("search_tree", self.table({k: v for k, v in config.items() if v is not None}))

    def search(self, tree: Any, state: Any, players: int, history: list[str],
               iterations: int | None, seconds: float | None) -> dict:
        """Searches from ``state`` with ``tree``; ``history`` holds the keys of the moves played
        since the start (the tree keeps what it learnt below a position it saw coming)."""
        return json.loads(self._call("search", tree, state, players, self.table(history),
                                     iterations, seconds))

    # -- for `nomv check` (nomv/checker) ---------------------------------------------------------

    def coverage_start(self, keep: bool = False) -> None:
        """Starts recording which lines of the script run (a line hook; use Lua 5.4).
        With ``keep``, resumes after :meth:`coverage_pause` keeping the lines seen so far."""
        self._call("coverage_start", keep)

    def coverage_pause(self) -> None:
        self._call("coverage_pause")

    def coverage_stop(self) -> dict:
        """Stops recording; returns {"ran": [lines], "active": [lines that can run]}."""
        return json.loads(self._call("coverage_stop"))

    def move_count(self, state: Any) -> int:
        """How many legal moves there are (cheaper than :meth:`moves` on big positions)."""
        return int(self._call("move_count", state))

    def random_moves(self, state: Any, seed: list[int], n: int) -> list | None:
        """n moves from the game's random_move hook (None without one), like :meth:`moves`."""
        raw = self._call("random_moves", state, self.table(seed), n)
        return None if raw is None else json.loads(raw)
