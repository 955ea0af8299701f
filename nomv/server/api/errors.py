"""The error answers the routes document, and how every error becomes its JSON answer
(``models.Error``): the services' errors, invalid requests, unknown routes, a database that
cannot be reached, and anything unexpected."""
from __future__ import annotations

import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from sqlalchemy.exc import DBAPIError, OperationalError
from starlette.exceptions import HTTPException as StarletteHTTPException

from ...errors import NomvError
from ..errors import ApiError
from ..store import database_reason
from .models import Error

log = logging.getLogger("nomv.server")

ERROR_TEXT = {
    401: "not logged in, or the session has ended",
    403: "not allowed: not your match, not your turn, not your match to cancel, a quota, or a "
         "write from another site's page",
    404: "no such match, game, user or invitation",
    408: "the request body stopped arriving (nothing came for the server's body timeout)",
    409: "the match is not in a state for this (not running, nothing to accept), or moved on "
         "since you looked (`stale`, with the current position in `match`)",
    413: "too large",
    415: "the body is not JSON",
    422: "the request is invalid: a bad field, an illegal move (with the game's reason), a "
         "refused script (with the checker's `diagnostics`)",
    426: "a WebSocket: connect with ws:// (or wss://)",
    429: "too many: uploads, record imports or accounts made this hour, failed logins and password "
         "changes (per name from an address, and per address), a job of yours under way (`job`), "
         "matches waiting or running (the answer's Retry-After says when to try again, where it "
         "is known)",
    500: "the server failed (a bug: the log says where)",
    502: "the game's script failed (an error, or a time or memory limit)",
    503: "the database cannot be reached or refused the change, or the server is busy (too many "
         "passwords to check, a game with too many requests waiting): nothing was changed, try "
         "again (Retry-After)",
}

#: What any request may be answered: malformed (422), the database away (503), the server's own
#: failure (500).
ALWAYS = (422, 500, 503)
#: What a write may be answered besides (the origin guard, nomv.server.guard): another site's
#: page (403), a body that stopped arriving (408), too large (413) or not JSON (415).
WRITE = (403, 408, 413, 415)


def errors(*codes: int, write: bool = False) -> dict[int | str, dict[str, Any]]:
    """The error answers a route documents (each is JSON: ``Error``), besides those any request
    (ALWAYS) or any write (WRITE) may get."""
    every = {*codes, *ALWAYS, *(WRITE if write else ())}
    return {code: {"model": Error, "description": ERROR_TEXT[code]} for code in sorted(every)}


def answer(status: int, code: str, message: str, headers: dict[str, str] | None = None,
           **extra: Any) -> JSONResponse:
    """An error's JSON answer."""
    return JSONResponse({"error": code, "message": message, **extra}, status_code=status, headers=headers)


def add_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(ApiError)
    async def api_error(request: Request, exc: ApiError) -> JSONResponse:
        return JSONResponse(exc.body(), status_code=exc.status, headers=exc.headers)

    @app.exception_handler(NomvError)
    async def nomv_error(request: Request, exc: NomvError) -> JSONResponse:
        return answer(422, "invalid", str(exc))

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        problems = []
        for e in exc.errors():
            where = ".".join(str(p) for p in e.get("loc", ()) if p != "body")
            problems.append(f"{where}: {e.get('msg')}" if where else str(e.get("msg")))
        return answer(422, "invalid", "; ".join(problems) or "invalid request", problems=problems)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "error")
        message = exc.detail if isinstance(exc.detail, str) else "error"
        if exc.status_code == 404 and message == "Not Found":
            message = f"no such route: {request.method} {request.url.path} (see /docs)"
        return answer(exc.status_code, code, message, headers=getattr(exc, "headers", None))

    @app.exception_handler(DBAPIError)
    async def database_away(request: Request, exc: DBAPIError) -> JSONResponse:
        # The database restarts, is unreachable, full or read-only: nothing was written (the
        # transaction rolled back); the request can be made again in a moment.
        reason = database_reason(exc)[:200]
        if getattr(exc, "connection_invalidated", False) or isinstance(exc, OperationalError):
            message = "the database cannot be reached now; nothing was changed: try again in a moment"
        else:
            message = f"the database refused the change ({reason}); nothing was changed"
        log.warning("database error on %s %s: %s", request.method, request.url.path, reason)
        return answer(503, "unavailable", message, headers={"Retry-After": "2"})

    @app.exception_handler(Exception)
    async def internal(request: Request, exc: Exception) -> JSONResponse:
        log.exception("internal error on %s %s", request.method, request.url.path)
        return answer(500, "internal", f"internal error: {type(exc).__name__}")
