"""The origin guard: pure ASGI middleware in front of the routes.  It refuses writes that rely on
the session cookie and come from another site's page (a cross-site request forgery: the
browser's ``Origin`` and ``Sec-Fetch-Site`` say so), bodies that are not JSON, and bodies over
the size limit, before any route reads them.  Bots authenticate with ``Authorization: Bearer``,
which no browser sends on its own: their writes are welcome from anywhere."""
from __future__ import annotations

from urllib.parse import urlsplit

from fastapi.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

MAX_BODY = 17 * 2**20
SAFE_METHODS = ("GET", "HEAD", "OPTIONS")


def host_of(origin: str) -> str:
    parts = urlsplit(origin)
    return (parts.netloc or "").lower()


class OriginGuard:
    """Pure ASGI middleware: refuses writes from another site that rely on the cookie (a
    cross-site request forgery), bodies that are not JSON, and bodies over the size limit."""

    def __init__(self, app: ASGIApp, public_url: str | None):
        self.app = app
        self.public = public_host(public_url)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] in SAFE_METHODS:
            return await self.app(scope, receive, send)
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        problem = None
        bearer = headers.get("authorization", "").lower().startswith("bearer ")
        if not bearer and not same_site(headers, self.public):
            problem = (403, "forbidden", "this request comes from another site (its Origin); "
                       "a page of another site cannot act with your session")
        length = headers.get("content-length")
        if problem is None and length and length.isdigit() and int(length) > MAX_BODY:
            problem = (413, "too_large", f"the request body is over {MAX_BODY // 2**20} MB")
        if problem is None and length not in (None, "0"):
            if not headers.get("content-type", "").split(";")[0].strip().lower() == "application/json":
                problem = (415, "unsupported_media_type", "request bodies are JSON (Content-Type: application/json)")
        if problem is not None:
            status, code, message = problem
            response = JSONResponse({"error": code, "message": message}, status_code=status)
            return await response(scope, receive, send)
        if length is not None:
            return await self.app(scope, receive, send)
        # A body without a length (chunked) is counted as it arrives, and refused once it is
        # over the limit: never read whole.  The answer is sent from here; the application is
        # told the client went away, and whatever it answers then is dropped.
        received, answered = 0, False

        async def counted() -> Message:
            nonlocal received, answered
            if answered:
                return {"type": "http.disconnect"}
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > MAX_BODY:
                    answered = True
                    response = JSONResponse({"error": "too_large", "message": "the request body is over "
                                             f"{MAX_BODY // 2**20} MB"}, status_code=413)
                    await response(scope, receive, send)
                    return {"type": "http.disconnect"}
            return message

        async def unless_answered(message: Message) -> None:
            if not answered:
                await send(message)
        await self.app(scope, counted, unless_answered)


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
