"""The WebSocket of a logged-in person's lobby: a message whenever one of their matches changes
(a challenge to them, a move, a seat taken, the end) or the open challenges change, so that the
lobby and the "your turn" marker follow without reloading.

Messages: ``{"type": "lobby", "events": [{"kind": ..., "match": ID}, ...]}``; the page reads
``GET /api/me/matches`` and ``GET /api/challenges`` again (the messages carry no match, so that
nothing is told that the lists would not show).  Send ``ping`` to get ``pong``.  It counts among
the person's sockets (nomv.server.sockets) and closes (1008) when the session ends, as a match's
socket does.
"""
from __future__ import annotations

import asyncio

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from fastapi.concurrency import run_in_threadpool

from ..accounts import token_hash
from ..errors import UpgradeRequired
from ..guard import public_host, same_site
from ..live import LOBBY, SESSION_ENDED, user_channel
from .deps import services, token_of
from .errors import errors
from .live import RECHECK_SECONDS

router = APIRouter(prefix="/api", tags=["matches"])


@router.get("/me/live", status_code=101, summary="WebSocket: changes of your matches and the challenges",
            description=__doc__, responses={101: {"description": "Switching Protocols (a WebSocket)"},
                                            **errors(426)})
def my_live_over_http() -> None:
    raise UpgradeRequired("this is a WebSocket: connect with ws:// (or wss://) to follow your matches")


@router.websocket("/me/live")
async def my_live(websocket: WebSocket) -> None:
    s = services(websocket)
    how, token = token_of(websocket)
    if how == "cookie" and not same_site({k.lower(): v for k, v in websocket.headers.items()},
                                         public_host(s.settings.public_url)):
        await websocket.close(code=1008, reason="another site's page cannot use your session")
        return
    current = await run_in_threadpool(s.accounts.session_user, token) if token else None
    if current is None:
        await websocket.close(code=1008, reason="log in to follow your matches")
        return
    assert token is not None, "a session was found by it"
    ticket = s.sockets.admit(LOBBY, current.id, websocket.client.host if websocket.client else None, player=True)
    await websocket.accept()
    if isinstance(ticket, str):
        await websocket.close(code=1013, reason=ticket[:120])
        return
    session = token_hash(token)
    mine = s.live.subscribe(user_channel(current.id), current.id, session)
    lobby = s.live.subscribe(LOBBY, current.id, session)
    ended = "this session has ended: log in again"
    recheck = min(RECHECK_SECONDS, max(1.0, s.accounts.session_seconds / 10))

    async def listen() -> None:
        while True:
            text = await websocket.receive_text()
            if text.strip() == "ping":
                await websocket.send_text("pong")

    reader = asyncio.create_task(listen())
    try:
        await websocket.send_json({"type": "lobby", "events": [{"kind": "hello"}]})
        if await run_in_threadpool(s.accounts.session_user, token) is None:
            await websocket.close(code=1008, reason=ended)    # it ended before the subscriptions
            return
        while True:
            waiters = {asyncio.create_task(mine.next()), asyncio.create_task(lobby.next())}
            done, _pending = await asyncio.wait({*waiters, reader}, timeout=recheck,
                                                return_when=asyncio.FIRST_COMPLETED)
            for task in waiters - done:
                task.cancel()
            if reader in done:
                reader.result()   # a disconnect ends here
                return
            events = [e for task in waiters & done for e in task.result()]
            kinds = {e.get("kind") for e in events}
            if SESSION_ENDED in kinds or ((not events or "resync" in kinds)
                                          and await run_in_threadpool(s.accounts.session_user, token) is None):
                await websocket.close(code=1008, reason=ended)
                return
            if not events:
                continue
            await websocket.send_json({"type": "lobby", "events": [
                {"kind": e.get("kind"), "match": e.get("match")} for e in events]})
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        reader.cancel()
        s.live.unsubscribe(mine)
        s.live.unsubscribe(lobby)
        s.sockets.release(ticket)
