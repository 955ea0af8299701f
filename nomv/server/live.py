"""Pushes: who watches which match, and telling them that it changed.

The interface is two calls: ``publish(match_id, event)`` from any thread after a change is
stored, and ``subscribe(match_id, user_id)`` from a WebSocket's task, which then awaits
events.  An event is small (``{"kind": "move", "version": 7}``): each connection builds its own
message from the database and its participant's view, so no one's secrets travel through here.
The hub lives in one process.  With PostgreSQL, :meth:`LiveHub.connect` joins the hubs of every
process on the database: each publish is also a ``NOTIFY`` on one channel, and each process
``LISTEN``s there and hands what other processes published to its own subscribers.  When the
listening connection breaks (the database restarts), it is made again, and every subscriber
gets a ``resync`` event: it may have missed something, and reads the match afresh.
"""
from __future__ import annotations

import asyncio
import json
import logging
import os
import secrets
import threading
from dataclasses import dataclass, field
from typing import Any

log = logging.getLogger("nomv.server")

#: The NOTIFY channel of nomv's pushes.
CHANNEL = "nomv_live"

#: Keys of pushes that are not a match's (matches have ids from 1): the open challenges, and
#: each user's own matches (the key -user_id).
LOBBY = 0


def user_channel(user_id: int) -> int:
    """The key of the pushes about a user's matches (the lobby's "your turn" list)."""
    return -user_id


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
        #: This process, in the payloads it sends (its own come back, and are skipped).
        self.origin = f"{os.getpid()}-{secrets.token_hex(4)}"
        self._dsn: str | None = None
        self._sender: Any = None          # a psycopg connection for NOTIFY, under _send_lock
        self._send_lock = threading.Lock()
        self._stop = threading.Event()
        self._listener: threading.Thread | None = None

    def connect(self, dsn: str) -> None:
        """Joins the hubs of every process on this PostgreSQL database (a libpq URL)."""
        self._dsn = dsn
        self._listener = threading.Thread(target=self._listen, name="nomv-live-listen", daemon=True)
        self._listener.start()

    def close(self) -> None:
        self._stop.set()
        with self._send_lock:
            if self._sender is not None:
                try:
                    self._sender.close()
                except Exception:   # noqa: BLE001 - closing a broken connection
                    pass
                self._sender = None

    def _listen(self) -> None:
        import psycopg
        dsn = self._dsn
        assert dsn is not None, "connect() gave the database"
        first = True
        while not self._stop.is_set():
            try:
                with psycopg.connect(dsn, autocommit=True, connect_timeout=5) as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    if not first:   # pushes may have been missed while the connection was down
                        self._deliver_all({"kind": "resync"})
                    first = False
                    while not self._stop.is_set():
                        for note in conn.notifies(timeout=1.0):
                            self._received(note.payload)
            except Exception as exc:   # noqa: BLE001 - the database went away: try again
                if self._stop.is_set():
                    return
                log.warning("live pushes: the database connection broke (%s); reconnecting", exc)
                self._stop.wait(1.0)

    def _received(self, payload: str) -> None:
        try:
            data = json.loads(payload)
            if data.get("from") == self.origin:
                return
            self._deliver(int(data["match"]), dict(data["event"]))
        except (ValueError, KeyError, TypeError):
            log.warning("live pushes: a payload that is not nomv's was ignored")

    def _notify(self, match_id: int, event: dict) -> None:
        import psycopg
        dsn = self._dsn
        assert dsn is not None, "connect() gave the database"
        payload = json.dumps({"from": self.origin, "match": match_id, "event": event})
        with self._send_lock:
            for attempt in (1, 2):
                try:
                    if self._sender is None or self._sender.closed:
                        self._sender = psycopg.connect(dsn, autocommit=True, connect_timeout=5)
                    self._sender.execute("SELECT pg_notify(%s, %s)", (CHANNEL, payload))
                    return
                except Exception as exc:   # noqa: BLE001 - reconnect once, then give up on this push
                    self._sender = None
                    if attempt == 2:
                        # The move is stored: other processes' clients see it at their next
                        # resync or read; only the push is lost.
                        log.warning("live pushes: cannot notify other processes (%s)", exc)

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
        """Tells the match's watchers, in this process and (connected) in every other."""
        self._deliver(match_id, event)
        if self._dsn is not None:
            self._notify(match_id, event)

    def _deliver_all(self, event: dict) -> None:
        with self._lock:
            ids = list(self._subscribers)
        for match_id in ids:
            self._deliver(match_id, event)

    def _deliver(self, match_id: int, event: dict) -> None:
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
