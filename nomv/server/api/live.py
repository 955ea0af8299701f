"""The WebSocket of a match: its live changes, each sent as the match its viewer may see.

The first message is ``{"type": "match", "version": V, "events": ["hello"], "match": {...}}``,
then one message per change (a move, a takeback, an offer, the end...), each the match as
``GET /api/matches/{id}`` would answer this viewer at that version (``events`` names what
happened; a socket that fell behind gets the newest version, with every event since).  Send
``ping`` to get ``pong``.

A player may send moves here too, as on ``POST /api/matches/{id}/moves`` (the same ply guard,
the same answers), without an HTTP request each: ``{"type": "move", "id": TAG, "ply": N, "move":
[...steps] or "notation"}`` is answered ``{"type": "moved", "id": TAG, "version": V, "match":
{...}}`` (the match as the mover sees it; ``match`` is left out when this socket was pushed
that version already), or ``{"type": "error", "id": TAG, "status": 409, "error": "stale",
"message": ..., ...}`` with the body the route would answer.  A push tells only which match changed and its version
(nomv.server.live); the message is the answer of this socket's viewer class at that version,
made and serialised once for every socket of the class (nomv.server.matches.answers); its words
are in the socket's language (``?lang=``, else Accept-Language: part of its class).  A socket
opened with a session is closed (1008) when that session ends: a logout, a password change, in
any process (and when this process's connection to the others comes back after a break, each
socket reads its session again: an end told meanwhile was missed; and every few minutes, for an
expiry or an end whose news was lost).  A socket over the limits (nomv.server.sockets) is closed
at once with 1013.
"""
from __future__ import annotations

import asyncio
import logging
from typing import Any

import orjson
from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from fastapi.concurrency import run_in_threadpool
from pydantic import ValidationError
from sqlalchemy.exc import DBAPIError

from ..accounts import User, token_hash
from .. import reading
from ..errors import ApiError, Unauthorized, UpgradeRequired
from ..guard import public_host, same_site
from ..live import SESSION_ENDED
from ..matches.answers import Shown, dumps
from ..store import database_reason
from .deps import MatchId, services, session_user, token_of
from .errors import errors
from .models import MoveIn

router = APIRouter(prefix="/api", tags=["matches"])
log = logging.getLogger("nomv.server")

#: How often, at most, a socket opened with a session reads that session again (a tenth of a
#: session's life when that is shorter): an expiry, or an end whose news was lost, closes it then.
RECHECK_SECONDS = 300.0

DESCRIPTION = (
    "Open a WebSocket here (authenticated by the session cookie, `Authorization: Bearer TOKEN`, or "
    "`?token=TOKEN`; anyone else watches as a spectator). The first message is "
    "`{\"type\": \"match\", \"version\": V, \"events\": [\"hello\"], \"match\": {...}}`; then one message "
    "per change (a move, a takeback, a draw offer, the end...), each the match as `GET /api/matches/{id}` "
    "would answer you at `version` (`events` names what happened; a socket that fell behind gets the "
    "newest version with every event since). Send `ping` to get `pong`. A player may send moves here: "
    "`{\"type\": \"move\", \"id\": TAG, \"ply\": N, \"move\": [...]}`, answered `{\"type\": \"moved\", "
    "\"id\": TAG, \"version\": V, \"match\": {...}}` (no `match` when this socket was pushed that version "
    "already) or `{\"type\": \"error\", \"id\": TAG, \"status\": 409, ...}` with the body "
    "`POST /api/matches/{id}/moves` would answer. Messages are worded in the language of `?lang=` (else "
    "of Accept-Language). When your session ends (logout, password change) the socket closes with code "
    "1008. Prefer the header to `?token=`: addresses end up in logs (nomv hides the token in its own). "
    "Over plain HTTP: 426. A socket over the limits (watchers of one match, anonymous sockets of one "
    "address, a user's sockets) is closed at once with code 1013 (try again later) and a reason saying which.")

#: The largest message a socket reads (a move is a few steps; the HTTP route takes 1,000 steps of
#: 1,000 characters, which no socket message needs).
MAX_MESSAGE = 64 * 1024

#: The close code and reason of a socket whose session ended.
CLOSE_ENDED = (1008, "this session has ended: log in again")


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
    current = await session_user(s, token) if token else None
    if token and current is None:
        await websocket.close(*CLOSE_ENDED)
        return
    # (a page's WebSocket cannot send headers of its own: it names its language in ?lang=)
    lang = reading.language(websocket.query_params.get("lang"), websocket.headers.get("accept-language"))
    # (subscribed before the first answer is made: a change meanwhile is pushed after it)
    sub = s.live.subscribe(match_id, current.id if current else None,
                           token_hash(token) if current is not None and token else None, lang=lang)
    ticket = None
    try:
        try:
            first = s.rounds.remembered(match_id, current, lang=lang)
            if first is None:
                first = await run_in_threadpool(s.rounds.show, match_id, current, lang)
        except ApiError as exc:
            await websocket.close(code=1008, reason=exc.message[:120])
            return
        address = websocket.client.host if websocket.client else None
        admitted = s.sockets.admit(match_id, current.id if current else None, address,
                                   player=bool(first.data["you"]))
        await websocket.accept()
        if isinstance(admitted, str):
            # (accepted first, so that a page sees the code: 1013, try again later)
            await websocket.close(code=1013, reason=admitted[:120])
            return
        ticket = admitted
        if current is not None and await run_in_threadpool(s.accounts.session_user, token, True) is None:
            # (it ended between the first look and the subscription: its event came too early;
            # read from the database, not the session cache)
            await websocket.close(*CLOSE_ENDED)
            return
        await _follow(websocket, sub, first, match_id, current, token, lang)
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        s.live.unsubscribe(sub)
        if ticket is not None:
            s.sockets.release(ticket)


async def _follow(websocket: WebSocket, sub, first: Shown, match_id: int, current: User | None,
                  token: str | None, lang: str) -> None:
    """Sends the first answer, then the answer of each version pushed, until the client leaves
    or its session ends; meanwhile answers pings and the moves the client sends."""
    s = services(websocket)
    #: the answer this socket was sent last (a push, or a move's answer)
    last = {"sent": first}

    async def listen() -> None:
        while True:
            text = await websocket.receive_text()
            if text.strip() == "ping":
                await websocket.send_text("pong")
            else:
                await _message(websocket, text, match_id, current, last, lang)

    # A session also ends unheard: it expires while the socket streams (nobody asks for it), or
    # the news of its end was lost on the way.  The socket reads it again now and then.
    recheck = min(RECHECK_SECONDS, max(1.0, s.accounts.session_seconds / 10)) if current is not None else None
    reader = asyncio.create_task(listen())
    waiter: asyncio.Task | None = None
    try:
        await websocket.send_text(first.push(("hello",)))
        s.live.pushes_sent += 1
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
                    await websocket.close(*CLOSE_ENDED)
                    return
                continue
            events, waiter = waiter.result(), None
            kinds = tuple(dict.fromkeys(e["kind"] for e in events))
            gone = SESSION_ENDED in kinds
            if not gone and "resync" in kinds and current is not None:
                # the other processes' news were missed for a while: a session's end among them?
                gone = await run_in_threadpool(s.accounts.session_user, token) is None
            if gone:
                await websocket.close(*CLOSE_ENDED)
                return
            versions = [e["version"] for e in events if isinstance(e.get("version"), int)]
            if "resync" in kinds or not versions:      # (events may have been missed: read afresh)
                shown = await run_in_threadpool(s.rounds.show, match_id, current, lang)
            else:
                at_least = max(versions)
                found = s.rounds.remembered(match_id, current, at_least, lang)
                if found is None:
                    found = await run_in_threadpool(s.rounds.shown_at, match_id, current, at_least, lang)
                shown = found
            sent = last["sent"]
            if "resync" not in kinds and (shown is sent or shown.version < sent.version):
                continue           # (nothing new for this viewer: a move's answer, an offer declined)
            # (after a resync the page is sent the match as read afresh, news or not: it may
            # have missed something, and it is told so; that happens only after a break)
            last["sent"] = shown
            await websocket.send_text(shown.push(kinds))
            s.live.pushes_sent += 1
    finally:
        reader.cancel()
        if waiter is not None:
            waiter.cancel()


async def _message(websocket: WebSocket, text: str, match_id: int, current: User | None,
                   last: dict[str, Shown], lang: str = "en") -> None:
    """A message from the client: a move (anything else is answered with an error)."""
    tag: Any = None
    try:
        if len(text) > MAX_MESSAGE:
            raise _Refused(413, "too_large", f"a message is at most {MAX_MESSAGE} bytes")
        try:
            data = orjson.loads(text)
        except orjson.JSONDecodeError:
            raise _Refused(422, "invalid", "a message is \"ping\" or a JSON object") from None
        if not isinstance(data, dict) or data.get("type") != "move":
            raise _Refused(422, "invalid", "the only message a client sends is {\"type\": \"move\", ...} (or ping)")
        tag = data.get("id")
        if current is None:
            raise Unauthorized("log in first: a spectator's socket cannot move")
        try:
            body = MoveIn.model_validate({k: v for k, v in data.items() if k not in ("type", "id")})
        except ValidationError as exc:
            problems = [f"{'.'.join(str(p) for p in e.get('loc', ()))}: {e.get('msg')}" for e in exc.errors()]
            raise _Refused(422, "invalid", "; ".join(problems), problems=problems) from None
        s = services(websocket)
        shown = await run_in_threadpool(s.rounds.play, current, match_id, body.ply, body.move, lang)
    except ApiError as exc:
        await websocket.send_text(dumps({"type": "error", "id": tag, "status": exc.status, **exc.body()}).decode())
        return
    except _Refused as exc:
        await websocket.send_text(dumps({"type": "error", "id": tag, "status": exc.status, "error": exc.code,
                                         "message": exc.message, **exc.extra}).decode())
        return
    except DBAPIError as exc:      # (as the HTTP route: nothing was written, try again)
        log.warning("database error on a move over match %s's socket: %s", match_id, database_reason(exc)[:200])
        await websocket.send_text(dumps({"type": "error", "id": tag, "status": 503, "error": "unavailable",
                                         "message": "the database cannot be reached now; nothing was changed: "
                                                    "try again in a moment"}).decode())
        return
    if last["sent"] is shown:          # its push came first: the version is all the answer says
        await websocket.send_text(dumps({"type": "moved", "id": tag, "version": shown.version}).decode())
        return
    last["sent"] = shown
    await websocket.send_text('{"type":"moved","id":%s,"version":%d,"match":%s}' % (
        dumps(tag).decode(), shown.version, shown.body().decode()))


class _Refused(Exception):
    """A message refused before it reached the match service (as the route's own refusals)."""

    def __init__(self, status: int, code: str, message: str, **extra: Any):
        super().__init__(message)
        self.status, self.code, self.message, self.extra = status, code, message, extra
