"""The game table's schema and the sandbox's list of refused names: written once, here.

``host.lua`` receives these tables when a runtime starts (it refuses the names and describes
the game table by them), :class:`~nomv.game.Game` checks a loaded game against them, and the
checker's static pass (``nomv check``) finds the same names in a script's text before it runs.

>>> "moves" in HOOKS and "moves" in REQUIRED_HOOKS
True
>>> missing_hooks(["setup", "steps", "play", "result"])
[]
>>> FORBIDDEN["io"].message
'io (files) is not available to game scripts'
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Collection, Literal

#: Every field of the game table nomv knows, with the Lua types it may have.  Hooks are the
#: fields that must be functions.
FIELD_TYPES: dict[str, tuple[str, ...]] = {
    "name": ("string",), "title": ("string", "table"), "info": ("table",),
    "players": ("number", "table"), "options": ("table",), "variants": ("table",),
    "grid": ("table",), "pieces": ("table", "function"),
    "check": ("function",), "setup": ("function",), "moves": ("function",), "steps": ("function",),
    "play": ("function",), "result": ("function",), "to_move": ("function",),
    "scene": ("function",), "notation": ("function",), "parse": ("function",),
    "random_move": ("function",), "view": ("function",), "determinize": ("function",),
    "text": ("function",), "evaluate": ("function",), "labels": ("function",),
    "most_next_steps": ("number",),
}
FIELDS: tuple[str, ...] = tuple(FIELD_TYPES)
HOOKS: tuple[str, ...] = tuple(f for f, types in FIELD_TYPES.items() if types == ("function",))
#: The hooks every game must have (and its ``name``); for ``moves``, ``steps`` will do instead
#: (the host derives the moves from it).
REQUIRED_HOOKS: tuple[str, ...] = ("setup", "moves", "play", "result")
#: A required hook -> the hook that may stand in for it.
STANDS_IN: dict[str, str] = {"moves": "steps"}


def missing_hooks(hooks: Collection[str]) -> list[str]:
    """The required hooks a game with these hooks lacks (none stands in for them)."""
    return [h for h in REQUIRED_HOOKS if h not in hooks and (h not in STANDS_IN or STANDS_IN[h] not in hooks)]

#: The fields of a ``players`` table, and of one option's table.
PLAYERS_FIELDS: tuple[str, ...] = ("min", "max", "default", "names", "colours", "colors")
OPTION_FIELDS: tuple[str, ...] = ("default", "min", "max", "choices", "help", "type", "order", "label")


@dataclass(frozen=True)
class Refused:
    """A global name the sandbox refuses.  A ``library`` is reported by the checker where it is
    indexed (``io.open``), a ``function`` wherever it is named."""

    kind: Literal["library", "function"]
    message: str


def _lib(name: str, why: str = "") -> Refused:
    return Refused("library", f"{name} is not available{why or ' to game scripts'}")


def _fn(name: str, why: str = "") -> Refused:
    return Refused("function", f"{name} is not available{why or ' to game scripts'}")


_BIT = ": use nomv.bit, which works the same on every runtime"

#: Global names a script cannot use, with the message it gets.
FORBIDDEN: dict[str, Refused] = {
    "io": _lib("io (files)"),
    "os": _lib("os (system access, time)"),
    "debug": _lib("debug"),
    "jit": _lib("jit"),
    "package": _lib("package"),
    "coroutine": _lib("coroutine"),
    "utf8": _lib("utf8", " to game scripts (it differs between runtimes)"),
    "bit": _lib("bit", _BIT),
    "bit32": _lib("bit32", _BIT),
    "ffi": _fn("ffi"),
    "python": _fn("python"),
    "require": _fn("require", ": a game is one script; use the `nomv` library"),
    "load": _fn("load"),
    "loadstring": _fn("loadstring"),
    "loadfile": _fn("loadfile"),
    "dofile": _fn("dofile"),
    "collectgarbage": _fn("collectgarbage"),
    "getfenv": _fn("getfenv"),
    "setfenv": _fn("setfenv"),
    "rawset": _fn("rawset"),
    "newproxy": _fn("newproxy"),
    "module": _fn("module"),
}

#: Members of the standard libraries a script cannot use, with the message it gets.
FORBIDDEN_MEMBERS: dict[tuple[str, str], str] = {
    ("string", "dump"): "string.dump is not available to game scripts",
    ("math", "random"): "math.random is not available: use the rng passed to setup, play and "
                        "random_move, so games replay",
    ("math", "randomseed"): "math.randomseed is not available: the runtime seeds the rng it "
                            "passes to setup and play",
}


def for_lua() -> dict[str, object]:
    """The schema as plain data for ``host.lua``'s ``init`` request."""
    members: dict[str, dict[str, str]] = {}
    for (library, member), message in FORBIDDEN_MEMBERS.items():
        members.setdefault(library, {})[member] = message
    return {"fields": list(FIELDS), "hooks": list(HOOKS),
            "forbidden": {name: r.message for name, r in FORBIDDEN.items()},
            "members": members}
