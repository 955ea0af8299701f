"""The routers' dependencies, in one place: the server's services, who is asking (a user, or
maybe nobody: a spectator), in which language they read, the ids in paths, and the address the
server is reached at.

Who is asking is answered on the event loop when the session is remembered (no query, no hand-off
to a request thread: nomv.server.sessioncache), else on a request thread."""
from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Path, Query, Request, Response
from fastapi.concurrency import run_in_threadpool
from starlette.requests import HTTPConnection

from ..accounts import User
from .. import reading
from ..errors import Unauthorized
from ..matches.answers import Shown
from ..services import Services

#: The session cookie of the pages (HttpOnly, SameSite=Lax).
COOKIE = "nomv_session"


def token_of(connection: HTTPConnection) -> tuple[str | None, str | None]:
    """(how, token): from the Authorization header (``bearer``), else the session cookie
    (``cookie``); (None, None) without either."""
    auth = connection.headers.get("authorization", "")
    if auth.lower().startswith("bearer "):
        return "bearer", auth[7:].strip()
    cookie = connection.cookies.get(COOKIE)
    if cookie:
        return "cookie", cookie
    return None, None


def services(connection: HTTPConnection) -> Services:
    """The server's services (made once, at the start: nomv.server.app.create_app)."""
    found: Services = connection.app.state.services
    return found


async def _services(connection: HTTPConnection) -> Services:
    # (a dependency that is a coroutine runs on the event loop: no request thread is taken for
    # it, so a route that needs nothing else, /api/health, answers while they are all busy)
    return services(connection)


ServicesDep = Annotated[Services, Depends(_services)]


async def session_user(s: Services, token: str) -> User | None:
    """The user of a session token (None: unknown or ended), from memory when it can be."""
    found = s.accounts.remembered(token)
    if found is None:
        found = await run_in_threadpool(s.accounts.session_user, token)
    return found


async def optional_user(request: Request, s: ServicesDep) -> User | None:
    """The user, or None without credentials (a spectator); credentials that name no session
    are an error, not a spectator: the client believes it is logged in."""
    _how, token = token_of(request)
    if not token:
        return None
    found = await session_user(s, token)
    if found is None:
        raise Unauthorized("this session has ended: log in again")
    return found


async def current_user(request: Request, s: ServicesDep) -> User:
    """The user logged in (401 otherwise)."""
    _how, token = token_of(request)
    found = await session_user(s, token) if token else None
    if found is None:
        raise Unauthorized("log in first (POST /api/login), then send the session cookie "
                           "or Authorization: Bearer TOKEN" if token is None else
                           "this session has ended: log in again")
    return found


Me = Annotated[User, Depends(current_user)]
MaybeMe = Annotated[User | None, Depends(optional_user)]


async def reader_language(request: Request, lang: str | None = Query(
        None, description="the language of the answer's words (en, it); default: the Accept-Language "
                          "header, else English")) -> str:
    """The reader's language: the request's ``lang``, else its Accept-Language header
    (nomv.server.reading.language). (On the event loop: it takes no request thread.)"""
    return reading.language(lang, request.headers.get("accept-language"))


Lang = Annotated[str, Depends(reader_language)]
MatchId = Annotated[int, Path(description="the match's number", ge=1, le=2**62)]


def base_url(request: Request, s: ServicesDep) -> str:
    """The address people reach the server at: --public-url, else the request's."""
    return (s.settings.public_url or str(request.base_url)).rstrip("/")


BaseUrl = Annotated[str, Depends(base_url)]


def as_seen(answer: Shown) -> Response:
    """A match as its viewer sees it, as the match service made it: JSON serialised once for
    every viewer of its class (the route's response_model documents it)."""
    return Response(answer.body(), media_type="application/json")
