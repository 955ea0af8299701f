"""Security headers on every HTTP answer, whatever made it: the pages, the API, the OpenAPI
page (``/docs``, ``/redoc``), the static files, the scripts' sources, the errors.

No other site may frame any of them (``X-Frame-Options`` for old browsers, ``frame-ancestors``
for the others): a framed page could be dressed up to make someone click *Resign*.  No browser
may guess a type other than the one given (``nosniff``): an uploaded script's source is served
as ``text/x-lua`` and must never run as a script or show as a page.  An answer that sets its own
Content Security Policy (the pages: nomv.server.pages) keeps it; the others get one that allows
only what is not framing.
"""
from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

#: Added to every HTTP answer that does not set them itself.
HEADERS = (
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"content-security-policy", b"frame-ancestors 'none'"),
    (b"referrer-policy", b"same-origin"),
)


class SecurityHeaders:
    """Pure ASGI middleware: adds :data:`HEADERS` to each answer's start."""

    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                present = {name.lower() for name, _value in headers}
                headers += [(name, value) for name, value in HEADERS if name not in present]
                message = {**message, "headers": headers}
            await send(message)
        await self.app(scope, receive, with_headers)
