"""Pushes: who watches which match, and telling them that it changed; and the sessions that
ended, told to every process.

The interface is two calls: ``publish(match_id, event)`` from any thread after a change is
stored, and ``subscribe(match_id, user_id, session)`` from a WebSocket's task, which then awaits
events.  An event is small (``{"kind": "move", "version": 7}``): each connection is sent the
answer of its viewer's class at that version (nomv.server.matches.round), so no one's secrets
travel through here.  The hub lives in one process.  With PostgreSQL, :meth:`LiveHub.connect`
joins the hubs of every process on the database: each publish is also a ``NOTIFY`` on one
channel, and each process ``LISTEN``s there and hands what other processes published to its own
subscribers.  When the listening connection breaks (the database restarts), it is made again,
and every subscriber gets a ``resync`` event: it may have missed something, and reads the match
afresh.

Sessions that end (a logout, a password change, an expired session) are told the same way:
:meth:`LiveHub.end_sessions` runs this process's handlers at once (the session cache forgets
them, nomv.server.accounts) and NOTIFYs the others, and the WebSockets of those sessions, in
every process, get a ``session ended`` event and close.  A process is sure to have heard every
other (:meth:`LiveHub.hears_all`) while its LISTEN connection is up, or when there is no other
(SQLite: one process).
"""
from __future__ import annotations

import asyncio
import json
import logging
import os
import queue
import secrets
import threading
from dataclasses import dataclass, field
from typing import Any, Callable

log = logging.getLogger("nomv.server")

#: The NOTIFY channel of nomv's pushes.
CHANNEL = "nomv_live"
#: The event a WebSocket opened with a session gets when that session ends.
SESSION_ENDED = "session ended"


@dataclass(frozen=True)
class SessionsEnded:
    """Sessions of a user that ended: those of ``tokens`` (SHA-256 hex digests of session
    tokens, as ``accounts.token_hash`` makes them), or with ``tokens=None`` every session of the
    user but ``keep``.  ``reason``: logout, password, expired, or user (the user's row changed:
    what keeps it in memory reads it again; its sockets stay open)."""
    user_id: int
    tokens: tuple[str, ...] | None
    keep: str | None = None
    reason: str = "logout"

    def covers(self, user_id: int | None, token_hash: str | None) -> bool:
        """Whether the session ``token_hash`` of ``user_id`` is one of those that ended."""
        if user_id != self.user_id or token_hash is None:
            return False
        return token_hash in self.tokens if self.tokens is not None else token_hash != self.keep

    @property
    def closes_sockets(self) -> bool:
        return self.reason != "user"

    def data(self) -> dict[str, Any]:
        return {"user": self.user_id, "tokens": None if self.tokens is None else list(self.tokens),
                "keep": self.keep, "reason": self.reason}

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> SessionsEnded:
        tokens = data.get("tokens")
        return cls(int(data["user"]), None if tokens is None else tuple(str(t) for t in tokens),
                   None if data.get("keep") is None else str(data["keep"]), str(data.get("reason", "logout")))

    # (the names perf's side used)
    payload = data
    from_payload = from_data


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
    #: The SHA-256 of the socket's session token (None: a spectator without one).
    session: str | None = None
    queue: asyncio.Queue = field(default_factory=asyncio.Queue)
    #: The language the socket's messages are worded in (part of its viewer class).
    lang: str = "en"

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
        #: Whether the LISTEN connection is up (pushes and ended sessions of others arrive).
        self._listening = False
        self._session_handlers: list[Callable[[SessionsEnded], None]] = []
        #: Messages sent to this process's WebSockets (counted by the sockets: /api/health).
        self.pushes_sent = 0
        self._resync_handlers: list[Callable[[], None]] = []

    def connect(self, dsn: str) -> None:
        """Joins the hubs of every process on this PostgreSQL database (a libpq URL)."""
        self._dsn = dsn
        self._listener = threading.Thread(target=self._listen, name="nomv-live-listen", daemon=True)
        self._listener.start()
        self._outbox: queue.SimpleQueue[dict | None] = queue.SimpleQueue()
        self._mailman = threading.Thread(target=self._send_pushes, name="nomv-live-notify", daemon=True)
        self._mailman.start()

    def close(self) -> None:
        self._stop.set()
        if self._dsn is not None:
            self._outbox.put(None)
            self._mailman.join(timeout=5)
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
                        self._resynced()
                    first = False
                    self._listening = True
                    while not self._stop.is_set():
                        for note in conn.notifies(timeout=1.0):
                            self._received(note.payload)
            except Exception as exc:   # noqa: BLE001 - the database went away: try again
                self._listening = False
                if self._stop.is_set():
                    return
                log.warning("live pushes: the database connection broke (%s); reconnecting", exc)
                self._stop.wait(1.0)

    def hears_all(self) -> bool:
        """Whether every change another process makes reaches this one (no other process may
        serve the database, or the LISTEN connection is up)."""
        return self._dsn is None or self._listening

    def _resynced(self) -> None:
        # the handlers first (what keeps sessions in memory forgets them), so that sockets
        # re-reading their session on "resync" read the database
        for handler in list(self._resync_handlers):
            self._safely(handler)
        self._deliver_all({"kind": "resync"})

    def _received(self, payload: str) -> None:
        try:
            data = json.loads(payload)
            if data.get("from") == self.origin:
                return
            if "sessions" in data:
                self._sessions_ended(SessionsEnded.from_data(dict(data["sessions"])))
            else:
                self._deliver(int(data["match"]), dict(data["event"]))
        except (ValueError, KeyError, TypeError, AttributeError):
            log.warning("live pushes: a payload that is not nomv's was ignored")

    # -- sessions that end ------------------------------------------------------------------------

    def on_sessions_ended(self, handler: Callable[[SessionsEnded], None]) -> None:
        """``handler(ended)`` for every ended sessions event, of this process or another (on the
        publishing thread or the listener's: quick, thread-safe)."""
        self._session_handlers.append(handler)

    def on_resync(self, handler: Callable[[], None]) -> None:
        """``handler()`` when the LISTEN connection came back after a break (events of other
        processes may have been missed meanwhile)."""
        self._resync_handlers.append(handler)

    def end_sessions(self, ended: SessionsEnded) -> None:
        """Tells every process that sessions ended (after the transaction that ended them
        committed): this process's handlers run before it returns."""
        self._sessions_ended(ended)
        if self._dsn is not None:
            self._send({"from": self.origin, "sessions": ended.data()})

    def _sessions_ended(self, ended: SessionsEnded) -> None:
        for handler in list(self._session_handlers):
            self._safely(handler, ended)
        if ended.closes_sockets:
            with self._lock:
                subs = [sub for group in self._subscribers.values() for sub in group
                        if ended.covers(sub.user_id, sub.session)]
            for sub in subs:
                self._put(sub, {"kind": SESSION_ENDED})

    # -- between processes ---------------------------------------------------------------------------

    def _notify(self, match_id: int, event: dict) -> None:
        """A push for the other processes, sent by the hub's own thread (a request does not wait
        for the database to take it; those of a busy moment go together in one statement)."""
        self._outbox.put({"from": self.origin, "match": match_id, "event": event})

    def _send_pushes(self) -> None:
        while True:
            first = self._outbox.get()
            batch = [first]
            while len(batch) < 100 and not self._outbox.empty():
                batch.append(self._outbox.get())
            messages = [m for m in batch if m is not None]
            if messages:
                self._send(*messages)
            if len(messages) < len(batch):
                return

    def _send(self, *messages: dict) -> None:
        """NOTIFYs the messages, in one statement (sessions ended are sent by the request that
        ended them: it answers once the other processes may know)."""
        import psycopg
        dsn = self._dsn
        assert dsn is not None, "connect() gave the database"
        payloads = [json.dumps(message) for message in messages]
        statement = "SELECT " + ", ".join(["pg_notify(%s, %s)"] * len(payloads))
        arguments = [value for payload in payloads for value in (CHANNEL, payload)]
        with self._send_lock:
            for attempt in (1, 2):
                try:
                    if self._sender is None or self._sender.closed:
                        self._sender = psycopg.connect(dsn, autocommit=True, connect_timeout=5)
                    self._sender.execute(statement, arguments)
                    return
                except Exception as exc:   # noqa: BLE001 - reconnect once, then give up on this push
                    self._sender = None
                    if attempt == 2:
                        # The move is stored: other processes' clients see it at their next
                        # resync or read; only the push is lost.
                        log.warning("live pushes: cannot notify other processes (%s)", exc)

    @staticmethod
    def _safely(handler: Callable[..., None], *args: Any) -> None:
        try:
            handler(*args)
        except Exception:   # noqa: BLE001 - one handler's failure never stops the others
            log.exception("live pushes: a handler failed")

    # -- subscriptions --------------------------------------------------------------------------

    def subscribe(self, match_id: int, user_id: int | None, session: str | None = None,
                  lang: str = "en") -> Subscription:
        """A subscription to the match's events, for a task of the running event loop;
        ``session`` is the SHA-256 of its session token (its socket closes when it ends),
        ``lang`` the language its messages are worded in."""
        sub = Subscription(match_id, user_id, asyncio.get_running_loop(), session, lang=lang)
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
            self._put(sub, event)

    @staticmethod
    def _put(sub: Subscription, event: dict) -> None:
        try:
            sub.loop.call_soon_threadsafe(sub.queue.put_nowait, dict(event))
        except RuntimeError:   # its loop has closed: the server is stopping
            pass

    def watchers(self, match_id: int) -> set[tuple[int | None, str]]:
        """The viewers whose WebSockets follow the match in this process: (user id, None when
        anonymous; the language they read)."""
        with self._lock:
            return {(s.user_id, s.lang) for s in self._subscribers.get(match_id, ())}

    def watching(self, match_id: int, user_id: int) -> bool:
        """Whether the user has the match open (no "your turn" e-mail needed then)."""
        with self._lock:
            return any(s.user_id == user_id for s in self._subscribers.get(match_id, ()))

    def count(self) -> int:
        with self._lock:
            return sum(len(s) for s in self._subscribers.values())
