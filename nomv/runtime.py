"""One sandboxed Lua runtime holding one game script: the only code that talks to lupa.

A :class:`HostRuntime` loads ``nomv/lua/host.lua`` (the trusted side, in parts under
``nomv/lua/host/``), the script library and the schema, then the game script, and answers the
host's requests.  A request's reply is *raw*: JSON text, a number, a string, or a state handle
(a Lua table that never leaves this process).  Turning raw replies into Python values is the
engine's job (:mod:`nomv.engine`); decoding the host's errors into :class:`ScriptError` happens
here, once, for every caller.

This runs in the process that holds the states: in a worker process (:mod:`nomv.worker`), or in
the caller's own process for :class:`~nomv.engine.LuaEngine`.
"""
from __future__ import annotations

import json
import os
import re
from importlib import import_module
from pathlib import Path
from typing import Any, Callable, Iterable, Literal, NamedTuple

from . import blocks, schema
from .errors import LimitError, NomvError, ScriptError
from .limits import Limits, slowdown
from .scriptlines import suggest_declared

LUA_DIR = Path(__file__).with_name("lua")
#: The script library every game gets as ``nomv``, and the computer player's search.
LIBRARY = ("rng", "util", "grid", "search")
#: The parts of host.lua, in nomv/lua/host/.
HOST_PARTS = ("limits", "json", "errors", "blame", "sandbox", "explain", "library", "loader", "hooks",
              "results", "steps", "moves", "scene", "requests", "loops", "computer", "coverage", "checks",
              "profile", "lab")

#: Runtime names accepted by ``--lua`` and ``NOMV_LUA``, mapped to lupa's modules.
RUNTIMES = {"jit": "lupa.luajit21", "luajit": "lupa.luajit21", "5.4": "lupa.lua54", "lua54": "lupa.lua54"}

_sources: dict[str, str] = {}
#: An undefined global without a suggestion from the host.
_UNDEFINED = re.compile(r"undefined variable '([A-Za-z_][A-Za-z0-9_]*)'")


def _source(relative: str) -> str:
    if relative not in _sources:
        _sources[relative] = (LUA_DIR / relative).read_text(encoding="utf-8")
    return _sources[relative]


def runtime_name(name: str | None = None) -> str:
    """The canonical runtime name (``jit`` or ``5.4``) from an argument or ``NOMV_LUA``."""
    name = name or os.environ.get("NOMV_LUA") or "jit"
    if name not in RUNTIMES:
        raise NomvError(f"unknown Lua runtime {name!r}; choose one of: jit, 5.4")
    return "jit" if RUNTIMES[name].endswith("luajit21") else "5.4"


class Previous:
    """In a batch, stands for the value the request before gave, or the first of its values
    (a replay is a batch of plays, each on the state the one before returned)."""

    def __repr__(self) -> str:
        return "PREVIOUS"

    def __reduce__(self) -> str:
        return "PREVIOUS"   # unpickled as this module's PREVIOUS, so `is` holds in a worker


PREVIOUS = Previous()


class RawReply(NamedTuple):
    """One request's reply in a batch: ``ok`` with the raw value, ``error`` with the
    :class:`ScriptError`, or ``skipped`` (a request before it ran over a limit, or the one it
    needed failed)."""

    status: Literal["ok", "error", "skipped"]
    value: Any


class HostRuntime:
    """A sandboxed Lua runtime with one game script loaded."""

    def __init__(self, source: str, path: str, runtime: str | None = None,
                 limits: Limits | None = None):
        self.runtime = runtime_name(runtime)
        self.path = path
        self._source = source   # (for suggestions in error messages)
        self.limits = limits or Limits()
        module = import_module(RUNTIMES[self.runtime])
        self._errors: tuple[type[BaseException], ...] = (module.LuaError,)
        self._memory_error: type[BaseException] = module.LuaMemoryError
        self._lua = module.LuaRuntime(register_eval=False, register_builtins=False,
                                      unpack_returned_tuples=True,
                                      max_memory=self.limits.memory or None)
        self._lua.globals().python = None
        self._table_type = type(self._lua.table())
        parts = self._lua.table_from({name: _source(f"host/{name}.lua") for name in HOST_PARTS})
        self._host = self._lua.execute(_source("host.lua"), parts, name="@nomv/host.lua", mode="t")
        self.description: dict[str, Any] = {}
        self.call("init", {name: _source(f"{name}.lua") for name in LIBRARY}, schema.for_lua())
        self.call("set_limit", self.limits.time, slowdown())
        self.description = json.loads(self.call("load", source, path))

    def memory_used(self) -> int:
        """Bytes of Lua memory the runtime holds now (what its memory limit counts)."""
        return int(self._lua.get_memory_used() or 0)

    def is_handle(self, value: Any) -> bool:
        """Whether a raw value is a state handle (a Lua table of this runtime)."""
        return isinstance(value, self._table_type)

    def set_beat(self, beat: Callable[[], None]) -> None:
        """``beat()`` is called from inside long loops (a new playout game, a perft node), at
        most every 50 ms: a watching parent process knows the request is making progress."""
        self._host["set_beat"](beat)   # (a Python function: the one value that is not data)

    # -- the request protocol ---------------------------------------------------------------

    def call(self, request: str, *args: Any) -> Any:
        """Runs one request of host.lua with plain-data arguments (or state handles); returns
        its raw reply, or raises the script's error."""
        try:
            reply = self._host[request](*[self._lua_value(a) for a in args])
        except self._memory_error:
            raise LimitError("used more memory than the limit allows", self.path,
                             hook=request, kind="memory") from None
        except self._errors as exc:  # only reachable through a bug in host.lua
            raise ScriptError(f"internal error: {exc}", self.path, hook=request) from None
        except UnicodeDecodeError as exc:
            # A string the host hands on as it is (the JSON replies are cleaned in Lua): the
            # script's bytes are not UTF-8 (an encoded surrogate, say).
            raise ScriptError(f"{request} returned text that is not valid UTF-8 (byte {exc.object[exc.start]:#04x} "
                              f"at offset {exc.start})", self.path, hook=request) from None
        if not isinstance(reply, tuple):
            reply = (reply,)
        ok, *values = reply
        if ok:
            return values[0] if len(values) == 1 else (tuple(values) if values else None)
        raise self._script_error(values[0] if values else "{}")

    def run(self, calls: Iterable[tuple[Any, ...]],
            before: Callable[[str], None] | None = None) -> list[RawReply]:
        """Runs several requests in a row: the batch loop, the same in-process and in a worker.
        Each call is ``(name, args)``, or ``(name, args, True)`` for one that runs only while
        the game goes on (the last ``result`` of the batch said None).  A request that runs
        over a limit ends the batch (the rest are skipped, so a hanging hook costs one time
        limit, not several); an argument :data:`PREVIOUS` is the value of the request before
        (the first of its values).  ``before(name)`` is called before each request."""
        out: list[RawReply] = []
        running: bool | None = None       # what the batch's last `result` said
        for call in calls:
            name, args = call[0], call[1]
            only_running = len(call) > 2 and bool(call[2])
            last = out[-1] if out else None
            needs_previous = any(a is PREVIOUS for a in args)
            if (last is not None and isinstance(last.value, LimitError)) \
                    or (needs_previous and (last is None or last.status != "ok")) \
                    or (only_running and running is not True):
                out.append(RawReply("skipped", None))
                continue
            if needs_previous:
                assert last is not None
                previous = last.value[0] if isinstance(last.value, tuple) else last.value
                args = tuple(previous if a is PREVIOUS else a for a in args)
            if before is not None:
                before(name)
            try:
                value = self.call(name, *args)
                out.append(RawReply("ok", value))
                if name == "result":
                    running = value is None
            except ScriptError as exc:
                out.append(RawReply("error", exc))
                if name == "result":
                    running = None
        return out

    def _lua_value(self, v: Any) -> Any:
        """Plain Python data as Lua values (no Python object ever enters the sandbox)."""
        if v is None or isinstance(v, (bool, int, float, str)) or isinstance(v, self._table_type):
            return v
        if isinstance(v, dict):
            return self._lua.table_from({k: self._lua_value(x) for k, x in v.items()})
        if isinstance(v, (list, tuple)):
            return self._lua.table_from([self._lua_value(x) for x in v])
        raise TypeError(f"cannot pass {type(v).__name__} into a script")

    def _script_error(self, payload: str) -> ScriptError:
        try:
            info = json.loads(payload)
        except (TypeError, ValueError):
            info = {"message": str(payload)}
        line = info.get("line")
        hook = info.get("hook")
        if not line and hook:
            # A broken contract is found after the hook returned: point at the hook itself.
            line = self.description.get("hook_lines", {}).get(hook)
        kind = info.get("kind", "error")
        cls = LimitError if kind in ("time", "memory") else ScriptError
        message = info.get("message", "unknown error")
        if kind == "syntax" and isinstance(message, str):
            # A missing `end` is read far from where it is missing: name the block it left open.
            message = blocks.explain(self._source, line, message)
        undefined = _UNDEFINED.fullmatch(message) if isinstance(message, str) else None
        if undefined:
            # The host suggested nothing from the locals in scope: a name declared elsewhere in
            # the script (a local of the main chunk the function never captured) may be meant.
            message += suggest_declared(self._source, undefined.group(1))
        return cls(message, self.path, line, hook, kind, info.get("code"))
