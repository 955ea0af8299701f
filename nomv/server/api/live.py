"""The WebSocket of a match: its live changes, each sent as the match its viewer may see.

The first message is ``{"type": "match", "events": ["hello"], "match": {...}}``, then one message
per change (a move, a takeback, an offer, the end...), each built for this viewer as
``GET /api/matches/{id}`` would answer (``events`` names what happened).  Send ``ping`` to get
``pong``.  A push tells only which match changed and its version (nomv.server.live); this socket
builds its own message, from its viewer's view.
"""
from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from fastapi.concurrency import run_in_threadpool

from ..errors import ApiError, UpgradeRequired
from ..guard import public_host, same_site
from .deps import MatchId, services, token_of
from .errors import errors

router = APIRouter(prefix="/api", tags=["matches"])

DESCRIPTION = (
    "Open a WebSocket here (authenticated by the session cookie, `Authorization: Bearer TOKEN`, or "
    "`?token=TOKEN`; anyone else watches as a spectator). The first message is "
    "`{\"type\": \"match\", \"events\": [\"hello\"], \"match\": {...}}`; then one message per change "
    "(a move, a takeback, a draw offer, the end...), each built for you as `GET /api/matches/{id}` "
    "would answer (`events` names what happened). Send `ping` to get `pong`. Over plain HTTP: 426.")


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
    try:
        first = await run_in_threadpool(s.rounds.show, match_id, current)
    except ApiError as exc:
        await websocket.close(code=1008, reason=exc.message[:120])
        return
    await websocket.accept()
    sub = s.live.subscribe(match_id, current.id if current else None)

    async def listen() -> None:
        while True:
            text = await websocket.receive_text()
            if text.strip() == "ping":
                await websocket.send_text("pong")

    def message(events: list[str], match: dict[str, Any]) -> dict[str, Any]:
        return {"type": "match", "events": events, "match": match}

    reader = asyncio.create_task(listen())
    try:
        await websocket.send_json(message(["hello"], first))
        while True:
            waiter = asyncio.create_task(sub.next())
            done, _pending = await asyncio.wait({waiter, reader}, return_when=asyncio.FIRST_COMPLETED)
            if reader in done:
                waiter.cancel()
                reader.result()   # a disconnect ends here
                return
            events = waiter.result()
            # (each socket builds its answer: one per viewer class and version would do)
            shown = await run_in_threadpool(s.rounds.show, match_id, current)
            await websocket.send_json(message([e["kind"] for e in events], shown))
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        reader.cancel()
        s.live.unsubscribe(sub)
