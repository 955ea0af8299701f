"""Sessions remembered in memory: a request's session without a database query.

Each process keeps the sessions it looked up (the SHA-256 of the token, its user, when it was
last marked used) for at most ``seconds``, and forgets them the moment they end anywhere: a
logout, a password change or an expired session is a :class:`~nomv.server.live.SessionsEnded`
event that every process hears (:meth:`forget`).  A lookup that raced with such an event is not
remembered (the generation moved on while it read), so an ended session never comes back from
here.  The cache is used only while the process hears every other (``usable``: one process, or
its LISTEN connection up); after a break in hearing, it starts empty.
"""
from __future__ import annotations

import threading
import time
from collections import OrderedDict
from typing import Callable, Generic, Protocol, TypeVar

from .live import SessionsEnded


class _User(Protocol):
    @property
    def id(self) -> int: ...


U = TypeVar("U", bound=_User)


class SessionCache(Generic[U]):
    def __init__(self, seconds: float = 60.0, size: int = 100_000, usable: Callable[[], bool] = lambda: True):
        self.seconds = seconds
        self.size = max(1, size)
        self.usable = usable
        self._lock = threading.Lock()
        #: token hash -> (user, the session's used_at, when this entry was read)
        self._entries: OrderedDict[str, tuple[U, float, float]] = OrderedDict()
        self._of_user: dict[int, set[str]] = {}
        self._generation = 0

    @property
    def generation(self) -> int:
        """Read before a lookup in the database, handed to :meth:`put` after it."""
        return self._generation

    def get(self, key: str) -> tuple[U, float] | None:
        """(the user, the session's used_at) when remembered and still fresh."""
        if not self.usable():
            return None
        with self._lock:
            found = self._entries.get(key)
            if found is None:
                return None
            user, used_at, read_at = found
            if time.monotonic() - read_at > self.seconds:
                self._drop(key)
                return None
            return user, used_at

    def put(self, key: str, user: U, used_at: float, generation: int) -> None:
        """Remembers a session read from the database, unless sessions ended since the
        ``generation`` read before the lookup began (the read may be of one that ended)."""
        with self._lock:
            if generation != self._generation or not self.usable():
                return
            self._entries[key] = (user, used_at, time.monotonic())
            self._entries.move_to_end(key)
            self._of_user.setdefault(user.id, set()).add(key)
            while len(self._entries) > self.size:
                self._drop(next(iter(self._entries)))

    def touch(self, key: str, used_at: float) -> None:
        """The session was marked used at ``used_at`` in the database."""
        with self._lock:
            found = self._entries.get(key)
            if found is not None:
                self._entries[key] = (found[0], used_at, found[2])

    def forget(self, ended: SessionsEnded) -> None:
        with self._lock:
            self._generation += 1
            for key in list(self._of_user.get(ended.user_id, ())):
                if ended.covers(ended.user_id, key):
                    self._drop(key)

    def clear(self) -> None:
        with self._lock:
            self._generation += 1
            self._entries.clear()
            self._of_user.clear()

    def __len__(self) -> int:
        return len(self._entries)

    def _drop(self, key: str) -> None:
        found = self._entries.pop(key, None)
        if found is not None:
            keys = self._of_user.get(found[0].id)
            if keys is not None:
                keys.discard(key)
                if not keys:
                    del self._of_user[found[0].id]
