"""The browser's pages: one HTML shell for every page (the lobby at ``/``, a match at
``/matches/<id>``, an invitation at ``/invite/<token>``, the upload page ``/upload``, your
account ``/account``, a player's page ``/users/<name>``) and the static files it loads from
``/static`` (plain JavaScript modules and CSS inside the package: no build step, nothing from the
Internet).  The pages use the JSON API and the match's WebSocket like any other client; what they
show is built from the answers for the person logged in.
"""
from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles

STATIC = Path(__file__).with_name("static")

#: Security headers of the pages: no script or style from anywhere but this server, no framing
#: by another site, no guessing of content types.
HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; style-src 'self'; "
                               "script-src 'self'; connect-src 'self' ws: wss:; frame-ancestors 'none'; "
                               "base-uri 'none'; form-action 'self'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
}


def add_pages(app: FastAPI) -> None:
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    def shell() -> FileResponse:
        return FileResponse(STATIC / "index.html", media_type="text/html; charset=utf-8",
                            headers={**HEADERS, "Cache-Control": "no-cache"})

    @app.get("/", include_in_schema=False)
    def lobby() -> FileResponse:
        return shell()

    @app.get("/matches/{match_id}", include_in_schema=False)
    def match_page(match_id: int) -> FileResponse:
        return shell()

    @app.get("/invite/{token}", include_in_schema=False)
    def invite_page(token: str) -> FileResponse:
        return shell()

    @app.get("/upload", include_in_schema=False)
    def upload_page() -> FileResponse:
        return shell()

    @app.get("/account", include_in_schema=False)
    def account_page() -> FileResponse:
        return shell()

    @app.get("/users/{name}", include_in_schema=False)
    def user_page(name: str) -> FileResponse:
        return shell()

    @app.get("/games/{name:path}", include_in_schema=False)
    def game_page(name: str) -> FileResponse:
        return shell()
