"""The ASGI application (FastAPI): routes, authentication, sessions, errors.

It knows HTTP and nothing of any game: every answer about a match comes from the match service
(``matches``), which asks the engines.  Errors are JSON, ``{"error": code, "message": text}``.
Writes authenticated by the session cookie are refused when the browser says they come from
another site (``Origin``); bots authenticate with ``Authorization: Bearer TOKEN`` instead.
Every route is documented on the OpenAPI page, ``/docs``.
"""
from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any, Literal
from urllib.parse import urlsplit

from fastapi import Body as Body_
from fastapi import Depends, FastAPI, Path, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.concurrency import run_in_threadpool
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, PlainTextResponse, Response
from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt
from sqlalchemy.exc import DBAPIError, OperationalError
from starlette.exceptions import HTTPException as StarletteHTTPException

from .. import __version__
from ..errors import NomvError
from ..play import words
from . import ratings, reading
from .accounts import Accounts, User
from .catalogue import Catalogue
from .computer import Computer
from .engines import Engines
from .errors import ApiError, NotFound, Unauthorized
from .leases import Leases
from .live import LiveHub
from .matches import Matches
from .settings import Settings
from .store import Store, database_reason, libpq_url
from .uploads import Uploads

log = logging.getLogger("nomv.server")

COOKIE = "nomv_session"
MAX_BODY = 17 * 2**20
SAFE_METHODS = ("GET", "HEAD", "OPTIONS")


# -- request and answer bodies (they make the OpenAPI page) --------------------------------------

class Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class NewUser(Body):
    name: str = Field(description="2 to 32 letters, digits, '_', '.' or '-'; unique ignoring case",
                      examples=["alice"])
    password: str = Field(description="8 to 1024 characters", examples=["correct horse battery"])
    email: str | None = Field(None, description="for \"your turn\" e-mails (optional)")


class Login(Body):
    name: str = Field(examples=["alice"])
    password: str = Field(examples=["correct horse battery"])


class PasswordChange(Body):
    old: str
    new: str = Field(description="8 to 1024 characters")


class MeChange(Body):
    email: str | None = Field(None, description="an e-mail address, or null to remove it")
    notify: StrictBool | None = Field(None, description="send \"your turn\" e-mails")


class NewMatch(Body):
    game: str = Field(description="a catalogue name (GET /api/games) or a script's SHA-256",
                      examples=["trinim"])
    options: dict[str, Any] | None = Field(None, examples=[{"size": 6}])
    variant: str | None = None
    seats: list[str] = Field(description="one per player: a user's name, \"open\" (anyone may take "
                                         "it through the invitation), or a computer player: easy, "
                                         "medium, hard, random, mcts:1s, mcts:5000it",
                             examples=[["alice", "bob"]])
    time_per_move: float | str | None = Field(None, description="seconds (or \"12h\", \"3d\"); who "
                                                               "runs out loses")
    rated: StrictBool | None = Field(None, description="default: rated when every seat is a person")


class MoveIn(Body):
    ply: StrictInt = Field(description="the ply of the position you saw (the number of moves played)")
    move: list[str] | str = Field(description="the steps of a legal move (as in `legal`), or its "
                                              "notation", examples=[["D4", "D2"], "D4-D2"])


class DrawIn(Body):
    action: Literal["offer", "accept", "decline"]


class TakebackIn(Body):
    action: Literal["ask", "accept", "decline"]


class JoinIn(Body):
    seat: StrictInt | None = Field(default=None, description="which open seat (default: the first)")


class RecordIn(Body):
    record: dict[str, Any] | str = Field(description="a nomv game record, as the desktop saves it")
    seats: list[str]
    game: str | None = Field(None, description="the catalogue game to continue it with (default: "
                                               "the script of the record's SHA-256, else its game's name)")
    time_per_move: float | str | None = None


class ScriptIn(Body):
    source: str = Field(description="the text of a .lua game script")


class Error(BaseModel):
    error: str = Field(description="a code: invalid, unauthorized, forbidden, not_found, "
                                   "conflict, stale, illegal_move, script_refused, too_large, "
                                   "too_many, script_failed, ...")
    message: str = Field(description="what is wrong, for people")


class Token(BaseModel):
    token: str
    name: str


class UserOut(BaseModel):
    name: str
    email: str | None = None
    notify: bool | None = None


class Created(BaseModel):
    id: int
    status: str
    invite: str | None = Field(None, description="the invitation link for the API (POST to take the seat), when a seat is open")
    invite_page: str | None = Field(None, description="the same invitation as a page for a person's browser")


class Played(BaseModel):
    ply: int = Field(description="the ply after the move")
    move: str = Field(description="the move in the game's notation")
    steps: list[str]
    status: str
    outcome: dict | None


class MatchOut(BaseModel):
    id: int
    game: str
    title: str = Field(description="the game's title in your language (`lang`, else Accept-Language)")
    sha256: str
    options: dict
    variant: str | None
    players: int
    status: str = Field(description="waiting, active, ended, cancelled or declined")
    ply: int
    version: int
    to_move: int | None
    seats: list[dict] = Field(description="each seat: its number, who plays it (kind, user, spec), "
                                          "and in your language its `role` (the script's name for it), "
                                          "`label` (who plays it), `who` (both) and `notes` (you, "
                                          "thinking, the computer's estimate, not accepted yet)")
    line: dict = Field(description="the one line about the match in your language: `{text, kind}`, "
                                   "kind yours, turn, result, waiting or not played (nomv.play.wording)")
    offers: list[str] = Field([], description="the offers pending, in words (a draw, a takeback)")
    status_line: str = Field("", description="the script's status line in your language while the "
                                             "match runs (none once it has ended: `line` says how)")
    you: list[int] = Field(description="your seats")
    viewer: Any = Field(description="whose view this is: your seat, \"spectator\" or \"whole\" (ended)")
    outcome: dict | None = Field(description="null while the match runs")
    view: Any = Field(description="the state as you may know it (the game's view hook)")
    scene: Any = Field(description="what to draw, from your view")
    marks: list[dict] = Field([], description="the places of the last move (nomv.play.marks), as the "
                                              "drawing has them: {draw: mark, kind: step or vacated, id, "
                                              "and the place's shape}")
    drawing: dict | None = Field(None, description="what to draw for the scene, in order, in board units, "
                                                   "every colour decided (nomv.play.drawing): the desktop "
                                                   "window draws the same list")
    step_names: dict = Field({}, description="when it is your turn: how messages name each step of "
                                             "your legal moves (its notation, or its item's label)")
    buttons: list[dict] = Field([], description="when it is your turn: the steps of your legal moves "
                                                "that name no scene item (pass, roll), {id, text}, to show as buttons")
    moves: list[str]
    last_move: dict | None
    legal: list[list[str]] = Field(description="your legal moves (each a list of step ids) when "
                                               "it is your turn, else []")
    legal_moves: list[dict] = Field(description="the same with notation, any_order and label")
    draw_offer: list[int] | None
    takeback: dict | None
    rated: bool
    time_per_move: float | None
    deadline: str | None
    seconds_left: float | None
    created_at: str
    updated_at: str
    script_error: str | None = Field(description="why the game's script cannot go on here, if it failed")
    thinking: int | None = Field(None, description="the seat whose computer player is searching")
    seed: int | None = Field(None, description="only once the match has ended")


class GameOut(BaseModel):
    name: str
    title: str = Field(description="in your language")
    title_text: Any = Field(None, description="the title as the script gives it: a text, or a table of languages")
    origin: str = Field(description="bundled, server or upload")
    author: str | None
    sha256: str
    players: dict | None
    options: list[dict]
    variants: dict
    hidden_information: bool


class Uploaded(BaseModel):
    game: str = Field(description="the name to use in POST /api/matches")
    sha256: str
    new: bool
    warnings: list[dict]


def errors(*codes: int) -> dict:
    """The error answers a route documents (each is JSON: ``Error``).  Any request can be
    malformed: 422 is always among them."""
    return {code: {"model": Error, "description": ERROR_TEXT[code]} for code in sorted({*codes, 422})}


#: The body of taking an open seat is optional: without it, the first open seat.
ANY_SEAT = Body_(default_factory=JoinIn)

ERROR_TEXT = {
    401: "not logged in, or the session has ended",
    403: "not allowed: not your match, not your turn, not your match to cancel, a quota, or a "
         "write from another site's page",
    404: "no such match, game, user or invitation",
    409: "the match is not in a state for this (not running, nothing to accept), or moved on "
         "since you looked (`stale`, with the current position in `match`)",
    413: "too large",
    422: "the request is invalid: a bad field, an illegal move (with the game's reason), a "
         "refused script (with the checker's `diagnostics`)",
    429: "too many: uploads this hour, or failed logins (per name and per address)",
    502: "the game's script failed (an error, or a time or memory limit)",
}


# -- the application --------------------------------------------------------------------------------

class Services:
    """Everything a request may need, made once per server."""

    def __init__(self, settings: Settings):
        self.settings = settings
        self.store = Store(settings.db)
        self.store.migrate()
        self.engines = Engines(lambda sha: self.catalogue.script(sha), settings.cache_positions,
                               settings.cache_scripts, settings.limits, settings.processes)
        self.catalogue = Catalogue(self.store, self.engines.describe)
        self.accounts = Accounts(self.store, settings.session_days, settings.argon2_memory,
                                 settings.argon2_time)
        self.live = LiveHub()
        if self.store.backend == "postgresql":
            # several processes may serve this database: pushes reach every one's clients
            self.live.connect(libpq_url(settings.db))
        self.leases = Leases(self.store)
        self.mailer = None
        if settings.smtp:
            from .mail import Mailer
            self.mailer = Mailer(settings.smtp, settings.mail_from)
        self.matches = Matches(self.store, self.engines, self.catalogue, self.accounts, self.live,
                               settings, self.mailer)
        self.computer = Computer(self.matches, self.engines, settings.searches, self.leases)
        self.matches.on_computer_turn = self.computer.wake
        self.matches.thinking = self.computer.thinking.get
        self.uploads = Uploads(self.store, self.catalogue, self.engines.describe, settings)

    def close(self) -> None:
        self.computer.close()
        self.live.close()
        if self.mailer is not None:
            self.mailer.close()
        self.engines.close()
        self.store.close()


def _host_of(origin: str) -> str:
    parts = urlsplit(origin)
    return (parts.netloc or "").lower()


class OriginGuard:
    """Pure ASGI middleware: refuses writes from another site that rely on the cookie (a
    cross-site request forgery), bodies that are not JSON, and bodies over the size limit."""

    def __init__(self, app, settings: Settings):
        self.app = app
        self.public = _host_of(settings.public_url) if settings.public_url else None

    async def __call__(self, scope, receive, send):
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

        async def counted():
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

        async def unless_answered(message):
            if not answered:
                await send(message)
        await self.app(scope, counted, unless_answered)


def same_site(headers: dict, public: str | None) -> bool:
    """Whether a request comes from the server's own pages (or from no page at all: a bot)."""
    origin = headers.get("origin")
    if headers.get("sec-fetch-site") == "cross-site":
        return False
    if origin is None:
        return True
    host = _host_of(origin)
    return bool(host) and (host == headers.get("host", "").lower() or host == public)


def create_app(settings: Settings) -> FastAPI:
    services = Services(settings)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI):
        services.computer.start()
        clock = asyncio.create_task(_clock(services))
        try:
            yield
        finally:
            clock.cancel()
            await run_in_threadpool(services.close)

    # FastAPIOffline: FastAPI whose /docs page loads Swagger UI from this server (not from a
    # CDN), so that the documentation works on a server without the Internet.
    from fastapi_offline import FastAPIOffline
    app = FastAPIOffline(
        title="nomv server", version=__version__, lifespan=lifespan,
        description="Play any nomv game online: accounts, matches between people and computer "
                    "players, moves guarded by ply, draws and takebacks, time per move, uploads "
                    "of game scripts, ratings, and a WebSocket per match. Errors are JSON: "
                    "`{\"error\": code, \"message\": text}`. Authenticate with the session "
                    "cookie that `POST /api/login` sets, or with `Authorization: Bearer TOKEN`. "
                    "See docs/server.md.")
    app.state.services = services
    app.add_middleware(OriginGuard, settings=settings)
    _errors(app)
    _routes(app, services)
    from .pages import add_pages
    add_pages(app)
    return app


async def _clock(services: Services) -> None:
    """Ends the matches whose player to move ran out of time, now and every clock_interval."""
    while True:
        try:
            await run_in_threadpool(services.matches.check_clocks)
        except Exception:
            log.exception("checking the clocks failed")
        await asyncio.sleep(services.settings.clock_interval)


def _errors(app: FastAPI) -> None:
    @app.exception_handler(ApiError)
    async def api_error(request: Request, exc: ApiError):
        return JSONResponse(exc.body(), status_code=exc.status)

    @app.exception_handler(NomvError)
    async def nomv_error(request: Request, exc: NomvError):
        return JSONResponse({"error": "invalid", "message": str(exc)}, status_code=422)

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError):
        problems = []
        for e in exc.errors():
            where = ".".join(str(p) for p in e.get("loc", ()) if p != "body")
            problems.append(f"{where}: {e.get('msg')}" if where else str(e.get("msg")))
        return JSONResponse({"error": "invalid", "message": "; ".join(problems) or "invalid request",
                             "problems": problems}, status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException):
        code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "error")
        message = exc.detail if isinstance(exc.detail, str) else "error"
        if exc.status_code == 404 and message == "Not Found":
            message = f"no such route: {request.method} {request.url.path} (see /docs)"
        return JSONResponse({"error": code, "message": message}, status_code=exc.status_code)

    @app.exception_handler(DBAPIError)
    async def database_away(request: Request, exc: DBAPIError):
        # The database restarts, is unreachable, full or read-only: nothing was written (the
        # transaction rolled back); the request can be made again in a moment.
        reason = database_reason(exc)[:200]
        if getattr(exc, "connection_invalidated", False) or isinstance(exc, OperationalError):
            message = "the database cannot be reached now; nothing was changed: try again in a moment"
        else:
            message = f"the database refused the change ({reason}); nothing was changed"
        log.warning("database error on %s %s: %s", request.method, request.url.path, reason)
        return JSONResponse({"error": "unavailable", "message": message}, status_code=503,
                            headers={"Retry-After": "2"})

    @app.exception_handler(Exception)
    async def internal(request: Request, exc: Exception):
        log.exception("internal error on %s %s", request.method, request.url.path)
        return JSONResponse({"error": "internal", "message": f"internal error: {type(exc).__name__}"},
                            status_code=500)


def _token(request_or_ws) -> tuple[str | None, str | None]:
    """(how, token): from the Authorization header, else the session cookie."""
    auth = request_or_ws.headers.get("authorization", "")
    if auth.lower().startswith("bearer "):
        return "bearer", auth[7:].strip()
    cookie = request_or_ws.cookies.get(COOKIE)
    if cookie:
        return "cookie", cookie
    return None, None


def _routes(app: FastAPI, s: Services) -> None:
    def optional_user(request: Request) -> User | None:
        """The user, or None without credentials (a spectator); credentials that name no
        session are an error, not a spectator: the client believes it is logged in."""
        _how, token = _token(request)
        if not token:
            return None
        found = s.accounts.session_user(token)
        if found is None:
            raise Unauthorized("this session has ended: log in again")
        return found

    def user(request: Request) -> User:
        how, token = _token(request)
        found = s.accounts.session_user(token) if token else None
        if found is None:
            raise Unauthorized("log in first (POST /api/login), then send the session cookie "
                               "or Authorization: Bearer TOKEN" if token is None else
                               "this session has ended: log in again")
        return found

    def reader_language(request: Request, lang: str | None = Query(
            None, description="the language of the answer's words (en, it); default: Accept-Language")) -> str:
        return reading.language(lang, request.headers.get("accept-language"))

    Me = Depends(user)
    Maybe = Depends(optional_user)
    Lang = Depends(reader_language)
    MatchId = Path(description="the match's number", ge=1, le=2**62)

    def base_url(request: Request) -> str:
        return (s.settings.public_url or str(request.base_url)).rstrip("/")

    # -- accounts --------------------------------------------------------------------------------

    @app.get("/api/health", tags=["server"], summary="Whether the server is up")
    def health() -> dict:
        """Answers `{"ok": true}` with the version and the kind of database."""
        return {"ok": True, "version": __version__, "database": s.store.backend,
                "cached_positions": s.engines.cached(), "live_connections": s.live.count()}

    @app.post("/api/users", status_code=201, response_model=UserOut, tags=["accounts"],
              summary="Create an account", responses=errors(409, 422))
    def register(body: NewUser) -> dict:
        """A new account. Names are unique ignoring case (`Alice` and `alice` are one name);
        some names are reserved (`open`, `random`, `easy`, ...: a seat can mean something else
        by them). 409 when the name is taken."""
        created = s.accounts.register(body.name, body.password, body.email)
        return {"name": created.name, "email": created.email, "notify": created.notify}

    @app.post("/api/login", response_model=Token, tags=["accounts"], summary="Log in",
              responses=errors(401, 422, 429))
    def login(body: Login, request: Request, response: Response) -> dict:
        """Checks the password; sets the session cookie (HttpOnly, SameSite=Lax) and returns
        the same session as a bearer token for bots and scripts
        (`Authorization: Bearer TOKEN`). Sessions survive a restart of the server and end
        after 30 days without use, at logout, or when the password changes."""
        found, token = s.accounts.login(body.name, body.password,
                                        request.client.host if request.client else None)
        response.set_cookie(COOKIE, token, httponly=True, samesite="lax", path="/",
                            secure=request.url.scheme == "https",
                            max_age=int(s.settings.session_days * 86400))
        return {"token": token, "name": found.name}

    @app.post("/api/logout", tags=["accounts"], summary="Log out", responses=errors())
    def logout(request: Request, response: Response) -> dict:
        """Ends the session (cookie or bearer token) and clears the cookie."""
        _how, token = _token(request)
        if token:
            s.accounts.logout(token)
        response.delete_cookie(COOKIE, path="/")
        return {"ok": True}

    @app.get("/api/me", response_model=UserOut, tags=["accounts"], summary="Your account",
             responses=errors(401))
    def me(current: User = Me) -> dict:
        """Your name, e-mail address and whether you get "your turn" e-mails."""
        return {"name": current.name, "email": current.email, "notify": current.notify}

    @app.patch("/api/me", response_model=UserOut, tags=["accounts"],
               summary="Change your e-mail address or notifications", responses=errors(401, 422))
    def change_me(body: MeChange, current: User = Me) -> dict:
        """`{"email": "a@b.example"}` sets the address for "your turn" e-mails;
        `{"notify": false}` stops them."""
        fields = body.model_dump(exclude_unset=True)
        changed = s.accounts.update(current, fields.get("email", ...), fields.get("notify", ...))
        return {"name": changed.name, "email": changed.email, "notify": changed.notify}

    @app.post("/api/me/password", tags=["accounts"], summary="Change your password",
              responses=errors(401, 422))
    def change_password(body: PasswordChange, request: Request, current: User = Me) -> dict:
        """Needs the old password. Every other session of yours ends."""
        _how, token = _token(request)
        s.accounts.change_password(current, body.old, body.new, token)
        return {"ok": True}

    @app.get("/api/me/matches", tags=["matches"], summary="Your matches, your turn first",
             responses=errors(401))
    def my_matches(current: User = Me, lang: str = Lang) -> list[dict]:
        """Your matches: first those where it is your turn (the soonest deadline first), then
        challenges to accept or decline, then your other running matches, then the rest, most
        recently changed first."""
        return s.matches.mine(current, lang=lang)

    @app.get("/api/words/{lang}", tags=["server"], summary="nomv's words in a language, for pages")
    def catalogue_of_words(lang: str) -> dict:
        """nomv's own words in `lang` (the nearest language the server speaks, else English):
        `{lang, languages: {code: name}, words: {English text: translation}}`, from the same
        gettext catalogue the desktop uses (nomv/locale). A page translates its own words with
        it; the answers about matches come worded already."""
        chosen = words.normalize(lang)
        return {"lang": chosen, "languages": words.language_names(), "words": words.catalogue(chosen)}

    @app.get("/api/users/{name}", tags=["accounts"], summary="A player's ratings",
             responses=errors(404))
    def profile(name: str) -> dict:
        """A player's ratings in each game they played rated matches of."""
        found = s.accounts.by_name(name)
        if found is None:
            raise NotFound(f"no user named {name!r}")
        with s.store.read() as db:
            return {"name": found.name, "ratings": ratings.of_user(db, found.id)}

    # -- games -------------------------------------------------------------------------------------

    @app.get("/api/games", response_model=list[GameOut], tags=["games"],
             summary="The catalogue of games")
    def games(lang: str = Lang) -> list[dict]:
        """Every game of the server: bundled, from the server's games folder, and uploaded by
        users (named `author/name`), with their players, options and variants, in your language."""
        return [reading.game(e.summary(), e.info, lang) for e in s.catalogue.all()]

    @app.get("/api/games/{name:path}/standings", tags=["games"],
             summary="Ratings and standings of a game", responses=errors(404))
    def standings(name: str) -> dict:
        """The players of rated matches of this game, best first: rating (a cautious
        estimate, openskill's Plackett-Luce model, which rates 2 to 4 players and more), games,
        wins, draws and losses."""
        entry = s.catalogue.find(name)
        with s.store.read() as db:
            return {"game": entry.name, "standings": ratings.standings(db, entry.name)}

    @app.get("/api/games/{name:path}/preview", tags=["games"],
             summary="A game's opening position, to draw it", responses=errors(404, 422, 502))
    def preview(name: str, variant: str | None = None) -> dict:
        """The scene of the game's first position with its default options (or a variant's),
        as a spectator sees it: what the catalogue draws beside the rules."""
        entry = s.catalogue.find(name)
        s.catalogue.store_script(entry)
        return {"game": entry.name, "variant": variant, **s.engines.preview(entry.sha256, variant)}

    @app.get("/api/games/{name:path}", tags=["games"], summary="One game, with its rules",
             responses=errors(404))
    def game(name: str, lang: str = Lang) -> dict:
        """One game of the catalogue, with its information (rules, author, source) in your
        language (`info`), and as its script gives it (`info_texts`: a text, or a table of
        languages). Uploaded games are named `author/name`."""
        entry = s.catalogue.find(name)
        return {**reading.game(entry.summary(), entry.info, lang), "info": reading.texts(entry.info, lang),
                "info_texts": (entry.info or {}).get("info", {})}

    @app.get("/api/scripts/{sha256}", tags=["games"], summary="A script's source",
             response_class=PlainTextResponse, responses=errors(404))
    def script_source(sha256: str) -> PlainTextResponse:
        """The Lua source of a game by its SHA-256 (to play it on the desktop, put it in your
        games folder)."""
        if s.catalogue.by_sha(sha256.lower()) is None:
            raise NotFound(f"no script has the SHA-256 {sha256[:64]!r}")
        source, _name = s.catalogue.source(sha256.lower())
        return PlainTextResponse(source, media_type="text/x-lua; charset=utf-8")

    @app.post("/api/scripts", status_code=201, response_model=Uploaded, tags=["games"],
              summary="Upload a game script", responses=errors(401, 403, 413, 422, 429))
    def upload(body: ScriptIn, current: User = Me) -> dict:
        """The server runs `nomv check` on the script (random games checked at every ply,
        under the same sandbox and limits as every game) and refuses it with the checker's
        messages (422, `diagnostics`) when it finds an error. An accepted script is stored
        by its SHA-256 with you as its author, and listed in the catalogue as
        `yourname/gamename`. Quotas: the size of a script, how many you keep, uploads an hour."""
        return s.uploads.upload(current, body.source)

    # -- matches -----------------------------------------------------------------------------------

    @app.post("/api/matches", status_code=201, response_model=Created, tags=["matches"],
              summary="Start a match, or challenge people", responses=errors(401, 422))
    def create_match(body: NewMatch, request: Request, current: User = Me) -> dict:
        """A match of a catalogue game, with options or a variant, and one seat per player:
        a user's name (they accept or decline the challenge: `/accept`, `/decline`), `open`
        (anyone logged in may take it through the invitation link, `invite`), or a computer
        player (`easy`, `medium`, `hard`, `random`, `mcts:1s`, ..., up to the server's limit).
        The match starts once every seat is taken and accepted."""
        created = s.matches.create(current, body.game, body.options, body.variant, body.seats,
                                   body.time_per_move, body.rated)
        if created["invite"]:
            token = created["invite"]
            created["invite"] = f"{base_url(request)}/api/invites/{token}"
            created["invite_page"] = f"{base_url(request)}/invite/{token}"
        return created

    @app.get("/api/matches", tags=["matches"], summary="Recent matches", responses=errors(422))
    def list_matches(status: str | None = Query(None, description="waiting, active, ended, ..."),
                     game: str | None = Query(None)) -> list[dict]:
        """The most recently changed matches, optionally of one status (`waiting` lists the
        matches looking for players) or one game."""
        return s.matches.listing(status, game)

    @app.get("/api/matches/{match_id}", response_model=MatchOut, tags=["matches"],
             summary="A match, as you may see it", responses=errors(404, 422))
    def get_match(match_id: int = MatchId, current: User | None = Maybe, lang: str = Lang) -> JSONResponse:
        """The match built from your view: a player sees what the game's `view` hook leaves
        them (another's hidden target is not there), a spectator the view of no player, and
        everyone the whole state once the match has ended. `legal` lists your legal moves when
        it is your turn. `outcome` is null while the match runs."""
        return JSONResponse(s.matches.show(match_id, current, lang))

    @app.get("/api/matches/{match_id}/positions/{ply}", tags=["matches"],
             summary="An earlier position of a match, as you may see it", responses=errors(404, 422))
    def earlier(ply: int, match_id: int = MatchId, current: User | None = Maybe) -> JSONResponse:
        """The position after the match's first `ply` moves: `{ply, view, scene, marks, moves}`
        from your view (the move list shows it when you click a move)."""
        return JSONResponse(s.matches.earlier(match_id, ply, current))

    @app.post("/api/matches/{match_id}/moves", response_model=Played, tags=["matches"],
              summary="Play a move", responses=errors(401, 403, 404, 409, 422, 502))
    def play(body: MoveIn, match_id: int = MatchId, current: User = Me) -> dict:
        """`{"ply": N, "move": [...steps] or "notation"}`, where N is the ply of the position
        you saw (pbmserv's `move#moveno`). 409 if the match has moved on (with the current
        position in `match`), 422 if the move is illegal (with the script's reason), 403 if it
        is not your turn or not your match, 502 if the game's script failed."""
        return s.matches.play(current, match_id, body.ply, body.move)

    @app.post("/api/matches/{match_id}/resign", response_model=MatchOut, tags=["matches"],
              summary="Resign", responses=errors(401, 403, 404, 409))
    def resign(match_id: int = MatchId, current: User = Me, lang: str = Lang) -> JSONResponse:
        """You lose; with more than two players, the others share the win."""
        return JSONResponse(s.matches.resign(current, match_id, lang))

    @app.post("/api/matches/{match_id}/draw", response_model=MatchOut, tags=["matches"],
              summary="Offer, accept or decline a draw", responses=errors(401, 403, 404, 409, 422))
    def draw(body: DrawIn, match_id: int = MatchId, current: User = Me, lang: str = Lang) -> JSONResponse:
        """The match is drawn when every player has offered or accepted. An offer lapses at
        the next move. Computer players answer at once, as on the desktop: each accepts when it
        expects half the points or less (else the answer's `message` says why not)."""
        return JSONResponse(s.matches.draw(current, match_id, body.action, lang))

    @app.post("/api/matches/{match_id}/takeback", response_model=MatchOut, tags=["matches"],
              summary="Ask for a takeback, accept or refuse one", responses=errors(401, 403, 404, 409, 422))
    def takeback(body: TakebackIn, match_id: int = MatchId, current: User = Me, lang: str = Lang) -> JSONResponse:
        """`ask` takes back your last move and every move after it once the other players
        accept (computer players always do)."""
        return JSONResponse(s.matches.takeback(current, match_id, body.action, lang))

    @app.post("/api/matches/{match_id}/accept", tags=["matches"], summary="Accept a challenge",
              responses=errors(401, 404, 409))
    def accept(match_id: int = MatchId, current: User = Me) -> dict:
        """Accepts the challenge of a match that names you in a seat; the match starts when
        every seat is taken and accepted."""
        return s.matches.accept(current, match_id)

    @app.post("/api/matches/{match_id}/decline", tags=["matches"], summary="Decline a challenge",
              responses=errors(401, 404, 409))
    def decline(match_id: int = MatchId, current: User = Me) -> dict:
        """Declines the challenge of a match that names you: the match will not be played."""
        return s.matches.decline(current, match_id)

    @app.post("/api/matches/{match_id}/cancel", tags=["matches"],
              summary="Cancel a match that has not started", responses=errors(401, 403, 404, 409))
    def cancel(match_id: int = MatchId, current: User = Me) -> dict:
        """Cancels a match you created, while it waits for players."""
        return s.matches.cancel(current, match_id)

    @app.get("/api/matches/{match_id}/record", tags=["matches"], summary="The match's record",
             responses=errors(404, 409))
    def record(match_id: int = MatchId, current: User | None = Maybe) -> Response:
        """The same record JSON the desktop saves (`nomv play --open FILE` opens it), once
        the match has ended (before, its seed would tell the future)."""
        text = s.matches.record(match_id, current)
        return Response(text, media_type="application/json", headers={
            "Content-Disposition": f'attachment; filename="match-{match_id}.json"'})

    @app.get("/api/challenges", tags=["matches"], summary="Open challenges to join")
    def challenges(lang: str = Lang) -> list[dict]:
        """Matches waiting for players with a seat open to anyone logged in, newest first,
        each with its invitation token (`POST /api/invites/{token}` takes the seat)."""
        return s.matches.challenges(lang=lang)

    @app.get("/api/invites/{token}", tags=["matches"], summary="What an invitation is for",
             responses=errors(404))
    def invite(token: str, lang: str = Lang) -> dict:
        """The match an invitation link is for: its game, seats and open seats."""
        return s.matches.invite_info(token, lang)

    @app.post("/api/invites/{token}", tags=["matches"], summary="Take an open seat",
              responses=errors(401, 404, 409, 422))
    def join(token: str, body: JoinIn = ANY_SEAT, current: User = Me) -> dict:
        """Takes an open seat of the invitation's match (the first, or `seat`)."""
        return s.matches.join(current, token, body.seat)

    @app.post("/api/records", status_code=201, response_model=Created, tags=["matches"],
              summary="Continue a desktop game online", responses=errors(401, 422, 502))
    def continue_record(body: RecordIn, current: User = Me) -> dict:
        """`{"record": ..., "seats": [...]}`: the record's script is found by its SHA-256
        among the server's scripts, else by its game's name in the catalogue (or `game`),
        never by a path; its moves are replayed and the match goes on from there (unrated:
        the record's seed is known)."""
        return s.matches.continue_record(current, body.record, body.seats, body.game, body.time_per_move)

    @app.get("/api/matches/{match_id}/live", include_in_schema=False)
    def live_over_http(match_id: int = MatchId) -> JSONResponse:
        # (documented in the schema by hand, see below: it is a WebSocket)
        return JSONResponse({"error": "upgrade_required",
                             "message": "this is a WebSocket: connect with ws:// (or wss://) to follow the match"},
                            status_code=426, headers={"Upgrade": "websocket"})

    @app.websocket("/api/matches/{match_id}/live")
    async def live(websocket: WebSocket, match_id: int):
        await _live(websocket, match_id, s)

    _document_websocket(app)


def _document_websocket(app: FastAPI) -> None:
    """WebSocket routes are not in OpenAPI: describe this one on the page all the same."""
    original = app.openapi

    def openapi() -> dict:
        if app.openapi_schema:
            return app.openapi_schema
        schema = original()
        schema["paths"]["/api/matches/{match_id}/live"] = {"get": {
            "tags": ["matches"], "summary": "WebSocket: live changes of a match",
            "description": "Open a WebSocket here (authenticated by the session cookie, "
                           "`Authorization: Bearer TOKEN`, or `?token=TOKEN`; anyone else "
                           "watches as a spectator). The first message is "
                           "`{\"type\": \"match\", \"events\": [\"hello\"], \"match\": {...}}`; "
                           "then one message per change (a move, a takeback, a draw offer, the "
                           "end...), each built for you as `GET /api/matches/{id}` would answer "
                           "(`events` names what happened), worded in the language of `?lang=` "
                           "(else of Accept-Language). Send `ping` to get `pong`.",
            "parameters": [{"name": "match_id", "in": "path", "required": True,
                            "schema": {"type": "integer"}}],
            "responses": {"101": {"description": "Switching Protocols (a WebSocket)"}}}}
        app.openapi_schema = schema
        return schema
    # FastAPI declares openapi as a method, yet its docs ("Extending OpenAPI") replace it so.
    app.openapi = openapi  # type: ignore[method-assign]


async def _live(websocket: WebSocket, match_id: int, s: Services) -> None:
    how, token = _token(websocket)
    if token is None and websocket.query_params.get("token"):
        how, token = "bearer", websocket.query_params["token"]
    headers = {k.lower(): v for k, v in websocket.headers.items()}
    if how == "cookie" and not same_site(headers, _host_of(s.settings.public_url) if s.settings.public_url else None):
        await websocket.close(code=1008, reason="another site's page cannot use your session")
        return
    current = await run_in_threadpool(s.accounts.session_user, token) if token else None
    if token and current is None:
        await websocket.close(code=1008, reason="this session has ended: log in again")
        return
    lang = reading.language(websocket.query_params.get("lang"), websocket.headers.get("accept-language"))
    try:
        first = await run_in_threadpool(s.matches.show, match_id, current, lang)
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

    reader = asyncio.create_task(listen())
    try:
        await websocket.send_json({"type": "match", "events": ["hello"], "match": first})
        while True:
            waiter = asyncio.create_task(sub.next())
            done, _pending = await asyncio.wait({waiter, reader}, return_when=asyncio.FIRST_COMPLETED)
            if reader in done:
                waiter.cancel()
                reader.result()   # a disconnect ends here
                return
            events = waiter.result()
            shown = await run_in_threadpool(s.matches.show, match_id, current, lang)
            await websocket.send_json({"type": "match", "events": [e["kind"] for e in events],
                                       "match": shown})
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        reader.cancel()
        s.live.unsubscribe(sub)
