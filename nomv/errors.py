"""The exceptions nomv raises.  Each message shows the bad input and, for scripts, where it is.

Every class derives from :class:`NomvError`, so a program (or the CLI) can catch them all.
"""
from __future__ import annotations


class NomvError(Exception):
    """Base class of all nomv errors."""


class GameNotFoundError(NomvError):
    """No bundled game, user game or file has this name."""


class ScriptError(NomvError):
    """A game script failed: a syntax error, a runtime error, or a broken contract.

    ``path`` and ``line`` point at the script author's own code when known; ``hook`` names the
    function that was running (``setup``, ``moves``, ...); ``kind`` is ``syntax``, ``error``,
    ``time`` or ``memory``; ``code`` is the checker's code for a broken contract (``E050``: a
    malformed move, ...; docs/checker.md), given by the host that found it, else None.
    ``process_ended`` is ``died`` when the worker process running the script died under it (a
    crash), ``stopped`` when the host killed it at the time limit: the other scripts of that
    process lost their states too (a server runs them elsewhere); else None.
    """

    process_ended: str | None = None

    def __init__(self, message: str, path: str | None = None, line: int | None = None,
                 hook: str | None = None, kind: str = "error", code: str | None = None):
        self.message, self.path, self.line, self.hook, self.kind = message, path, line, hook, kind
        self.code = code
        super().__init__(str(self))

    @property
    def location(self) -> str:
        if self.path and self.line:
            return f"{self.path}:{self.line}"
        return self.path or "<script>"

    def __str__(self) -> str:
        where = f" (in {self.hook})" if self.hook and self.hook not in ("load",) else ""
        return f"{self.location}: {self.message}{where}"


class LimitError(ScriptError):
    """A script went over its time or memory limit."""


class OptionError(NomvError, ValueError):
    """A game option is unknown, of the wrong type, out of range, or refused by the game."""

    def __init__(self, message: str, option: str | None = None):
        self.option = option
        super().__init__(message)


class IllegalMoveError(NomvError, ValueError):
    """A move that is not legal in the current position (or text that names no legal move)."""


class GameOverError(IllegalMoveError):
    """A move was played after the game ended."""


class RecordError(NomvError):
    """A saved game cannot be read or replayed.  The message names what and where."""


class StaleStateError(ScriptError):
    """A state handle from a worker process that has since been stopped (an internal signal:
    :class:`~nomv.game.Position` catches it and replays its moves into a live worker)."""
