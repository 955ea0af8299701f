"""How many WebSockets a process keeps open, and for whom.

A socket costs memory and, at every change of its match, a message built and sent: a flood of
anonymous watchers (issue 27, 24) was unlimited.  A socket is let in when its holder and its
match have room:

- a player of the match always (spectators never lock a player out of their own match), but a
  user holds at most ``sockets_per_user`` sockets;
- anyone else counts as a watcher of the match: at most ``watchers_per_match`` of them;
- an anonymous watcher counts against its address too: at most ``anonymous_sockets_per_address``.

The counts are this process's (each process of ``--workers`` has its own sockets and limits).
"""
from __future__ import annotations

import threading
from collections import Counter
from dataclasses import dataclass

@dataclass(frozen=True)
class Ticket:
    """A socket let in: what it counts against, given back by :meth:`SocketLimits.release`."""
    match_id: int
    holder: tuple[str, int | str]
    watcher: bool


class SocketLimits:
    def __init__(self, watchers_per_match: int, anonymous_per_address: int, per_user: int):
        self.watchers_per_match = watchers_per_match
        self.anonymous_per_address = anonymous_per_address
        self.per_user = per_user
        self._watchers: Counter[int] = Counter()
        self._holders: Counter[tuple[str, int | str]] = Counter()
        self._lock = threading.Lock()

    def admit(self, match_id: int, user_id: int | None, address: str | None,
              player: bool) -> Ticket | str:
        """A ticket for the socket, or why it is refused (a message for its close frame)."""
        holder: tuple[str, int | str] = ("user", user_id) if user_id is not None else ("address", address or "?")
        limit = self.per_user if user_id is not None else self.anonymous_per_address
        watcher = not player
        with self._lock:
            if self._holders[holder] >= limit:
                who = "you have" if user_id is not None else "your address has"
                return f"{who} {limit} sockets open on this server: close one (try again later)"
            if watcher and self._watchers[match_id] >= self.watchers_per_match:
                return f"this match has {self.watchers_per_match} watchers: try again later"
            self._holders[holder] += 1
            if watcher:
                self._watchers[match_id] += 1
        return Ticket(match_id, holder, watcher)

    def release(self, ticket: Ticket) -> None:
        with self._lock:
            self._holders[ticket.holder] -= 1
            if self._holders[ticket.holder] <= 0:
                del self._holders[ticket.holder]
            if ticket.watcher:
                self._watchers[ticket.match_id] -= 1
                if self._watchers[ticket.match_id] <= 0:
                    del self._watchers[ticket.match_id]

    def watchers(self, match_id: int) -> int:
        with self._lock:
            return self._watchers[match_id]
