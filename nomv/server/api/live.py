"""The WebSocket of a match: its live changes, each sent as the match its viewer may see.

The first message is ``{"type": "match", "events": ["hello"], "match": {...}}``, then one message
per change (a move, a takeback, an offer, the end...), each built for this viewer as
``GET /api/matches/{id}`` would answer (``events`` names what happened).  Send ``ping`` to get
``pong``.  A push tells only which match changed and its version (nomv.server.live); this socket
builds its own message, from its viewer's view.  A socket opened with a session is closed (1008)
when that session ends: a logout, a password change, in any process (and when this process's
connection to the others comes back after a break, each socket reads its session again: an end
told meanwhile was missed; and every few minutes, for an expiry or an end whose news was lost).
"""
from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from fastapi.concurrency import run_in_threadpool

from ..accounts import token_hash
from .. import reading
from ..errors import ApiError, UpgradeRequired
from ..guard import public_host, same_site
from ..live import SESSION_ENDED
from .deps import MatchId, services, token_of
from .errors import errors

router = APIRouter(prefix="/api", tags=["matches"])

#: How often, at most, a socket opened with a session reads that session again (a tenth of a
#: session's life when that is shorter): an expiry, or an end whose news was lost, closes it then.
RECHECK_SECONDS = 300.0

DESCRIPTION = (
    "Open a WebSocket here (authenticated by the session cookie, `Authorization: Bearer TOKEN`, or "
    "`?token=TOKEN`; anyone else watches as a spectator). The first message is "
    "`{\"type\": \"match\", \"events\": [\"hello\"], \"match\": {...}}`; then one message per change "
    "(a move, a takeback, a draw offer, the end...), each built for you as `GET /api/matches/{id}` "
    "would answer (`events` names what happened), worded in the language of `?lang=` (else of "
    "Accept-Language). Send `ping` to get `pong`. A socket opened with a "
    "session is closed (1008) when that session ends (a logout, a password change). Prefer the header "
    "to `?token=`: addresses end up in logs (nomv hides the token in its own). Over plain HTTP: 426. "
    "A socket over the limits (watchers of one match, anonymous sockets of one address, a user's "
    "sockets) is closed at once with code 1013 (try again later) and a reason saying which.")


@router.get("/matches/{match_id}/live", status_code=101, summary="WebSocket: live changes of a match",
            description=DESCRIPTION, responses={101: {"description": "Switching Protocols (a WebSocket)"},
                                                **errors(426)})
def live_over_http(match_id: MatchId) -> None:
    raise UpgradeRequired("this is a WebSocket: connect with ws:// (or wss://) to follow the match")


@router.websocket("/matches/{match_id}/live")
async def live(websocket: WebSocket, match_id: int) -> None:
    s = services(websocket)
    how, token = token_of(websocket)
    if token is None and websocket.query_params.get("token"):
        how, token = "bearer", websocket.query_params["token"]
    public = s.settings.public_url
    if how == "cookie" and not same_site({k.lower(): v for k, v in websocket.headers.items()}, public_host(public)):
        await websocket.close(code=1008, reason="another site's page cannot use your session")
        return
    current = await run_in_threadpool(s.accounts.session_user, token) if token else None
    if token and current is None:
        await websocket.close(code=1008, reason="this session has ended: log in again")
        return
    # (a page's WebSocket cannot send headers of its own: it names its language in ?lang=)
    lang = reading.language(websocket.query_params.get("lang"), websocket.headers.get("accept-language"))
    try:
        first = await run_in_threadpool(s.rounds.show, match_id, current, lang)
    except ApiError as exc:
        await websocket.close(code=1008, reason=exc.message[:120])
        return
    address = websocket.client.host if websocket.client else None
    ticket = s.sockets.admit(match_id, current.id if current else None, address, player=bool(first["you"]))
    await websocket.accept()
    if isinstance(ticket, str):
        # (accepted first, so that a page sees the code: 1013, try again later)
        await websocket.close(code=1013, reason=ticket[:120])
        return
    sub = s.live.subscribe(match_id, current.id if current else None, token_hash(token) if current and token else None)
    ended = "this session has ended: log in again"
    if current is not None and await run_in_threadpool(s.accounts.session_user, token) is None:
        # (it ended between the first look and the subscription: its event came too early)
        s.live.unsubscribe(sub)
        s.sockets.release(ticket)
        await websocket.close(code=1008, reason=ended)
        return

    async def listen() -> None:
        while True:
            text = await websocket.receive_text()
            if text.strip() == "ping":
                await websocket.send_text("pong")

    def message(events: list[str], match: dict[str, Any]) -> dict[str, Any]:
        return {"type": "match", "events": events, "match": match}

    # A session also ends unheard: it expires while the socket streams (nobody asks for it), or
    # the news of its end was lost on the way.  The socket reads it again now and then.
    recheck = min(RECHECK_SECONDS, max(1.0, s.accounts.session_seconds / 10)) if current is not None else None
    reader = asyncio.create_task(listen())
    waiter: asyncio.Task | None = None
    try:
        await websocket.send_json(message(["hello"], first))
        while True:
            if waiter is None:
                waiter = asyncio.create_task(sub.next())
            done, _pending = await asyncio.wait({waiter, reader}, timeout=recheck,
                                                return_when=asyncio.FIRST_COMPLETED)
            if reader in done:
                reader.result()   # a disconnect ends here
                return
            if waiter not in done:   # time to read the session again
                if await run_in_threadpool(s.accounts.session_user, token) is None:
                    await websocket.close(code=1008, reason=ended)
                    return
                continue
            events, waiter = waiter.result(), None
            kinds = {e["kind"] for e in events}
            gone = SESSION_ENDED in kinds
            if not gone and "resync" in kinds and current is not None:
                # the other processes' news were missed for a while: a session's end among them?
                gone = await run_in_threadpool(s.accounts.session_user, token) is None
            if gone:
                await websocket.close(code=1008, reason=ended)
                return
            # (each socket builds its answer: one per viewer class and version would do)
            shown = await run_in_threadpool(s.rounds.show, match_id, current, lang)
            await websocket.send_json(message([e["kind"] for e in events], shown))
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        reader.cancel()
        if waiter is not None:
            waiter.cancel()
        s.live.unsubscribe(sub)
        s.sockets.release(ticket)
