"""How nomv speaks HTTP: uvicorn's h11 protocol, with a deadline for each request's headers.

uvicorn closes a connection that stays idle after an answer (its keep-alive timeout, 5 s), but
waits forever for the first request's headers, and for a request whose headers come one byte at
a time: each such socket costs the server a connection, and enough of them (a few hundred, from
one machine) fill whatever limit is first reached.  Here a connection whose request headers have
not all arrived ``header_timeout`` seconds after it opened (or after the previous answer) is
closed.  A request's body has its own deadline between its parts (nomv.server.guard).

``uvicorn.Config(http="nomv.server.protocol:HeaderDeadline")`` names it, so that ``--workers``
processes import it too; the deadline is set once per process, from the settings, before the
first connection (:func:`set_header_timeout`).
"""
from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol

#: What uvicorn imports for a connection.
IMPORT_NAME = "nomv.server.protocol:HeaderDeadline"


def set_header_timeout(seconds: float) -> None:
    HeaderDeadline.header_timeout = seconds


class HeaderDeadline(H11Protocol):
    """H11Protocol that closes a connection whose request headers are late."""

    header_timeout: float = 10.0

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def handle_events(self) -> None:
        scope = self.scope
        super().handle_events()
        if self.scope is not scope:        # a request's headers arrived: it is under way
            self._disarm()

    def handle_websocket_upgrade(self, event: Any) -> None:
        self._disarm()                     # the WebSocket's own pings look after it now
        super().handle_websocket_upgrade(event)

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing() and (self.cycle is None or self.cycle.response_complete):
            self._arm()                    # the next request's headers, if any, are due too

    def _arm(self) -> None:
        self._disarm()
        self._deadline = self.loop.call_later(self.header_timeout, self._late)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _late(self) -> None:
        self._deadline = None
        if self.cycle is None or self.cycle.response_complete:   # no request under way
            self.transport.close()
