"""A match's answers, made once per version and viewer class and serialised once.

Every viewer of a match is in a *class*: what decides their answer besides the match's version
(views.viewer: a seat with hidden information, a spectator, or everyone once the match has
ended), their own seats (``you``), and what the round is doing (whose computer player thinks,
why one failed).  Two viewers of one class at one version are answered the same bytes: the
answer of ``GET /api/matches/{id}``, of a move or an act, and of every push to a WebSocket of
that class, so that a move pushed to a thousand watchers is built and serialised once.

The one part of an answer that changes without the version is the time of the seat to move:
``seconds_left``, and in a live clock (``clock.left``) the running seat's time, both the seconds
until the match's deadline.  The bytes are kept in pieces around those places, and each sending
puts the seconds left at that moment between.
"""
from __future__ import annotations

import secrets
import threading
from typing import Any, Iterable

import orjson

from ..store import now

#: orjson's options for every answer: keys that are numbers (a script's tables) become strings,
#: as the standard library's json does.
OPTIONS = orjson.OPT_NON_STR_KEYS

#: Where the seconds left go in a serialised answer (a string no script can guess).
_HOLE = f"nomv-seconds-left-{secrets.token_hex(16)}"
_HOLE_JSON = orjson.dumps(_HOLE)


def dumps(value: Any) -> bytes:
    return orjson.dumps(value, option=OPTIONS)


class Shown:
    """The match as one viewer class sees it at one version: ``data`` (as made, a dict) and
    its JSON, whose ``seconds_left`` is filled in when it is sent."""

    __slots__ = ("data", "version", "_pieces", "_deadline", "_pushes")

    def __init__(self, data: dict[str, Any], deadline: float | None):
        self.data = data
        self.version: int = data["version"]
        clock = data.get("clock") or {}
        running = clock.get("running")
        ticking = data.get("seconds_left") is not None or running is not None
        self._deadline = deadline if ticking else None
        self._pushes: dict[tuple[str, ...], str] = {}
        if self._deadline is None:
            self._pieces = [dumps(data)]
        else:
            holed = dict(data)
            if data.get("seconds_left") is not None:
                holed["seconds_left"] = _HOLE
            if running is not None:
                holed["clock"] = {**clock, "left": [_HOLE if k == running - 1 else x for k, x in enumerate(clock["left"])]}
            self._pieces = dumps(holed).split(_HOLE_JSON)

    def body(self, t: float | None = None) -> bytes:
        """The answer's JSON (the seconds left as of ``t``, default now)."""
        if self._deadline is None:
            return self._pieces[0]
        left = max(0.0, round(self._deadline - (now() if t is None else t), 1))
        return dumps(left).join(self._pieces)

    def message(self, events: Iterable[str], t: float | None = None) -> bytes:
        """A push to a WebSocket of this class: ``{"type": "match", "version", "events", "match"}``."""
        return b'{"type":"match","version":%d,"events":%s,"match":%s}' % (
            self.version, dumps(list(events)), self.body(t))

    def size(self) -> int:
        """About the bytes it keeps: its JSON, and the dict it was made from (as much again)."""
        return 2 * sum(len(p) for p in self._pieces)

    def push(self, events: tuple[str, ...]) -> str:
        """The push of these events as text, made once for every socket of the class (its
        seconds left as of the first)."""
        text = self._pushes.get(events)
        if text is None:
            text = self._pushes[events] = self.message(events).decode()
        return text


class Count:
    """A count that threads add to."""

    def __init__(self) -> None:
        self.value = 0
        self._lock = threading.Lock()

    def add(self) -> None:
        with self._lock:
            self.value += 1


class Budget:
    """The bytes that the answers kept by every round of this process may take together (the
    operator's --cache-mb has a share of them).  An answer that does not fit is not kept: it is
    made again when asked (a view of hundreds of kilobytes in each of many matches was kept
    without bound)."""

    def __init__(self, limit: int):
        self.limit = limit
        self.used = 0
        self._lock = threading.Lock()

    def take(self, n: int) -> bool:
        with self._lock:
            if self.used + n > self.limit:
                return False
            self.used += n
            return True

    def give(self, n: int) -> None:
        with self._lock:
            self.used -= n
