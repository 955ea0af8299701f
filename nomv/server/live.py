"""Pushes: who watches which match, and telling them that it changed.

The interface is two calls: ``publish(match_id, event)`` from any thread after a change is
stored, and ``subscribe(match_id, user_id)`` from a WebSocket's task, which then awaits
events.  An event is small (``{"kind": "move", "version": 7}``): each connection builds its own
message from the database and its participant's view, so no one's secrets travel through here.
This hub lives in one process; a hub over PostgreSQL's LISTEN/NOTIFY can replace it for several
processes behind the same interface.
"""
from __future__ import annotations

import asyncio
import threading
from dataclasses import dataclass, field


@dataclass(eq=False)
class Subscription:
    match_id: int
    user_id: int | None
    loop: asyncio.AbstractEventLoop
    queue: asyncio.Queue = field(default_factory=asyncio.Queue)

    async def next(self) -> list[dict]:
        """The next events (at least one; those that arrived together come together)."""
        events = [await self.queue.get()]
        while not self.queue.empty():
            events.append(self.queue.get_nowait())
        return events


class LiveHub:
    def __init__(self) -> None:
        self._subscribers: dict[int, set[Subscription]] = {}
        self._lock = threading.Lock()

    def subscribe(self, match_id: int, user_id: int | None) -> Subscription:
        sub = Subscription(match_id, user_id, asyncio.get_running_loop())
        with self._lock:
            self._subscribers.setdefault(match_id, set()).add(sub)
        return sub

    def unsubscribe(self, sub: Subscription) -> None:
        with self._lock:
            subs = self._subscribers.get(sub.match_id)
            if subs is not None:
                subs.discard(sub)
                if not subs:
                    del self._subscribers[sub.match_id]

    def publish(self, match_id: int, event: dict) -> None:
        with self._lock:
            subs = list(self._subscribers.get(match_id, ()))
        for sub in subs:
            try:
                sub.loop.call_soon_threadsafe(sub.queue.put_nowait, dict(event))
            except RuntimeError:   # its loop has closed: the server is stopping
                pass

    def watching(self, match_id: int, user_id: int) -> bool:
        """Whether the user has the match open (no "your turn" e-mail needed then)."""
        with self._lock:
            return any(s.user_id == user_id for s in self._subscribers.get(match_id, ()))

    def count(self) -> int:
        with self._lock:
            return sum(len(s) for s in self._subscribers.values())
