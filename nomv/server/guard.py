"""The origin guard: pure ASGI middleware in front of the routes.  It refuses writes that rely on
the session cookie and come from another site's page (a cross-site request forgery: the
browser's ``Origin`` and ``Sec-Fetch-Site`` say so), bodies that are not JSON, bodies over the
size limit of their route, and bodies that stop arriving (``body_timeout`` seconds without a
part), before any route reads them.  Bots authenticate with ``Authorization: Bearer``, which no
browser sends on its own: their writes are welcome from anywhere.

Bodies are parsed on the event loop (FastAPI reads the JSON before the route runs): a 17 MB one
held the whole server for a second.  So every route takes at most SMALL_BODY, except the two
whose bodies are scripts and records (BodyLimits); and a body over SMALL_BODY is not read
without credentials (a session cookie or a bearer token: both routes need a login anyway)."""
from __future__ import annotations

import asyncio
from urllib.parse import urlsplit

from fastapi.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

#: The body any route takes (a move, a login, a new match: a few hundred bytes).
SMALL_BODY = 64 * 1024
SAFE_METHODS = ("GET", "HEAD", "OPTIONS")


class BodyLimits:
    """The largest body of each route: SMALL_BODY, but for the routes of scripts and records."""

    def __init__(self, max_script_bytes: int = 256 * 1024, max_record_bytes: int = 2**20):
        # (a script's JSON: escapes may make it longer than its text, up to \uXXXX for a byte)
        self.large = {"/api/scripts": max(2 * 2**20, 8 * max_script_bytes),
                      "/api/records": max(SMALL_BODY, max_record_bytes)}

    def of(self, path: str) -> int:
        return self.large.get(path.rstrip("/"), SMALL_BODY)


def size_text(limit: int) -> str:
    return f"{limit // 2**20} MB" if limit >= 2**20 else f"{limit // 1024} KB"


def host_of(origin: str) -> str:
    parts = urlsplit(origin)
    return (parts.netloc or "").lower()


class OriginGuard:
    """Pure ASGI middleware: refuses writes from another site that rely on the cookie (a
    cross-site request forgery), bodies that are not JSON, over the size limit, or late."""

    def __init__(self, app: ASGIApp, public_url: str | None, body_timeout: float = 30.0,
                 body_limits: BodyLimits | None = None):
        self.app = app
        self.public = public_host(public_url)
        self.body_timeout = body_timeout
        self.limits = body_limits or BodyLimits()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] in SAFE_METHODS:
            return await self.app(scope, receive, send)
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        problem = None
        bearer = headers.get("authorization", "").lower().startswith("bearer ")
        # (credentials are only looked for, not checked: the route checks them, once it runs)
        signed = bearer or "nomv_session=" in headers.get("cookie", "")
        if not bearer and not same_site(headers, self.public):
            problem = (403, "forbidden", "this request comes from another site (its Origin); "
                       "a page of another site cannot act with your session")
        length = headers.get("content-length")
        limit = self.limits.of(scope["path"])
        if problem is None and length and length.isdigit() and int(length) > limit:
            problem = (413, "too_large", f"the request body is over {size_text(limit)}, the most "
                       f"{scope['path'][:100]} takes")
        if problem is None and length and length.isdigit() and int(length) > SMALL_BODY and not signed:
            problem = (401, "unauthorized", "log in first (POST /api/login): a body this large is "
                       "read for a logged-in user only")
        if problem is None and length not in (None, "0"):
            if not headers.get("content-type", "").split(";")[0].strip().lower() == "application/json":
                problem = (415, "unsupported_media_type", "request bodies are JSON (Content-Type: application/json)")
        if problem is not None:
            status, code, message = problem
            response = JSONResponse({"error": code, "message": message}, status_code=status)
            return await response(scope, receive, send)
        if length == "0":
            return await self.app(scope, receive, send)
        # The body is read as it arrives: a part that does not come within body_timeout seconds
        # (a client that sends the headers and then a trickle, or nothing), and a body without a
        # length (chunked) once it is over the limit (or over SMALL_BODY without credentials),
        # are answered from here (408, 413, 401), never read whole; the application is told the
        # client went away: whatever it answers then is dropped.
        received, complete, answered = 0, False, False

        async def refuse(status: int, code: str, message: str) -> Message:
            nonlocal answered
            answered = True
            await JSONResponse({"error": code, "message": message}, status_code=status)(scope, receive, send)
            return {"type": "http.disconnect"}

        async def guarded() -> Message:
            nonlocal received, complete
            if answered:
                return {"type": "http.disconnect"}
            if complete:           # (afterwards the application only listens for a disconnect)
                return await receive()
            try:
                message = await asyncio.wait_for(receive(), self.body_timeout)
            except asyncio.TimeoutError:
                return await refuse(408, "timeout", f"the request body did not arrive: nothing came for "
                                    f"{self.body_timeout:g} s")
            if message["type"] == "http.request":
                complete = not message.get("more_body", False)
                received += len(message.get("body", b""))
                if received > limit:
                    return await refuse(413, "too_large", f"the request body is over {size_text(limit)}, "
                                        f"the most {scope['path'][:100]} takes")
                if received > SMALL_BODY and not signed:
                    return await refuse(401, "unauthorized", "log in first (POST /api/login): a body "
                                        "this large is read for a logged-in user only")
            return message

        async def unless_answered(message: Message) -> None:
            if not answered:
                await send(message)
        await self.app(scope, guarded, unless_answered)


def public_host(public_url: str | None) -> str | None:
    """The host of the address people reach the server at (--public-url), if given."""
    return host_of(public_url) if public_url else None


def same_site(headers: dict[str, str], public: str | None) -> bool:
    """Whether a request comes from the server's own pages (or from no page at all: a bot);
    ``public`` is the host of --public-url."""
    origin = headers.get("origin")
    if headers.get("sec-fetch-site") == "cross-site":
        return False
    if origin is None:
        return True
    host = host_of(origin)
    return bool(host) and (host == headers.get("host", "").lower() or host == public)
