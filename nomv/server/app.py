"""The ASGI application (FastAPI): the services made once, the origin guard, the error answers,
and the routers of each area (``nomv.server.api``), with the pages.

It knows HTTP and nothing of any game: every answer about a match comes from the match service
(``nomv.server.matches``), which asks the engines.  Errors are JSON, ``{"error": code,
"message": text}``.  Every route is documented on the OpenAPI page, ``/docs``, with the answers
it really gives.
"""
from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import AsyncIterator

from fastapi import FastAPI
from fastapi.concurrency import run_in_threadpool

from .. import __version__
from .api import accounts, challenges, games, jobs, live, matches, mylive, records, server
from .api.errors import add_error_handlers
from .guard import BodyLimits, OriginGuard
from .headers import SecurityHeaders
from .matches.records import MAX_RECORD
from .pages import add_pages
from .services import Services
from .settings import Settings

log = logging.getLogger("nomv.server")

DESCRIPTION = (
    "Play any nomv game online: accounts, matches between people and computer players, moves "
    "guarded by ply, draws and takebacks, time per move, uploads of game scripts, ratings, and a "
    "WebSocket per match. Errors are JSON: `{\"error\": code, \"message\": text}`. Authenticate "
    "with the session cookie that `POST /api/login` sets, or with `Authorization: Bearer TOKEN`. "
    "See docs/server.md.")


def create_app(settings: Settings) -> FastAPI:
    services = Services(settings)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        services.start()
        clock = asyncio.create_task(_clock(services))
        try:
            yield
        finally:
            clock.cancel()
            await run_in_threadpool(services.close)

    # FastAPIOffline: FastAPI whose /docs page loads Swagger UI from this server (not from a
    # CDN), so that the documentation works on a server without the Internet.
    from fastapi_offline import FastAPIOffline
    app = FastAPIOffline(title="nomv server", version=__version__, lifespan=lifespan, description=DESCRIPTION)
    app.state.services = services
    app.add_middleware(OriginGuard, public_url=settings.public_url, body_timeout=settings.body_timeout,
                       body_limits=BodyLimits(settings.max_script_bytes, MAX_RECORD))
    app.add_middleware(SecurityHeaders)     # (outside the guard: its refusals get them too)
    add_error_handlers(app)
    for area in (server, accounts, games, matches, challenges, records, jobs, live, mylive):
        app.include_router(area.router)
    add_pages(app)
    return app


async def _clock(services: Services) -> None:
    """Ends the matches whose player to move ran out of time, now and every clock_interval."""
    while True:
        try:
            await run_in_threadpool(services.rounds.end_overdue)
        except Exception:
            log.exception("checking the clocks failed")
        await asyncio.sleep(services.settings.clock_interval)
