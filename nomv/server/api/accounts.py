"""Accounts: registering, logging in and out, your account, and a player's ratings."""
from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, Response

from .. import ratings, reading
from ..accounts import User
from ..errors import NotFound
from .deps import COOKIE, Lang, Me, ServicesDep, token_of
from .errors import errors
from .models import Login, MeChange, NewUser, Ok, PasswordChange, Profile, Token, UserOut

router = APIRouter(prefix="/api", tags=["accounts"])


# (The routes answer plain data: FastAPI checks it against the response_model once, on the way
# out. An answer built as a model would be checked twice.)

def _user_out(user: User) -> dict[str, Any]:
    return {"name": user.name, "email": user.email, "notify": user.notify}


# (Registering, logging in and changing a password hash a password: argon2, 64 MiB and a good
# part of a second each by default.  They run on the few threads of s.hashing, awaited here on
# the event loop: a flood of them holds no request thread, and their memory is bounded.)

def _address(request: Request) -> str | None:
    return request.client.host if request.client else None


@router.post("/users", status_code=201, response_model=UserOut, summary="Create an account",
             responses=errors(409, 429, write=True))
async def register(body: NewUser, request: Request, s: ServicesDep) -> dict[str, Any]:
    """A new account. Names are unique ignoring case (`Alice` and `alice` are one name);
    some names are reserved (`open`, `random`, `easy`, ...: a seat can mean something else
    by them). 409 when the name is taken; 429 after too many accounts made from one address
    in an hour."""
    created = await s.hashing.run(s.accounts.register, body.name, body.password, body.email, _address(request))
    return _user_out(created)


@router.post("/login", response_model=Token, summary="Log in", responses=errors(401, 429, write=True))
async def login(body: Login, request: Request, response: Response, s: ServicesDep) -> dict[str, Any]:
    """Checks the password; sets the session cookie (HttpOnly, SameSite=Lax) and returns
    the same session as a bearer token for bots and scripts
    (`Authorization: Bearer TOKEN`). Sessions survive a restart of the server and end
    after 30 days without use, at logout, or when the password changes."""
    found, token = await s.hashing.run(s.accounts.login, body.name, body.password, _address(request))
    # Secure over HTTPS: the request's own (a proxy of --forwarded-allow-ips says so), or the
    # address people use (a proxy that does not say so is no reason to send it in clear)
    secure = request.url.scheme == "https" or (s.settings.public_url or "").lower().startswith("https:")
    response.set_cookie(COOKIE, token, httponly=True, samesite="lax", path="/",
                        secure=secure, max_age=int(s.settings.session_days * 86400))
    return {"token": token, "name": found.name}


@router.post("/logout", response_model=Ok, summary="Log out", responses=errors(write=True))
def logout(request: Request, response: Response, s: ServicesDep) -> dict[str, Any]:
    """Ends the session (cookie or bearer token) and clears the cookie."""
    _how, token = token_of(request)
    if token:
        s.accounts.logout(token)
    response.delete_cookie(COOKIE, path="/")
    return {"ok": True}


@router.get("/me", response_model=UserOut, summary="Your account", responses=errors(401))
def me(current: Me) -> dict[str, Any]:
    """Your name, e-mail address and whether you get "your turn" e-mails."""
    return _user_out(current)


@router.patch("/me", response_model=UserOut, summary="Change your e-mail address or notifications",
              responses=errors(401, write=True))
def change_me(body: MeChange, current: Me, s: ServicesDep) -> dict[str, Any]:
    """`{"email": "a@b.example"}` sets the address for "your turn" e-mails;
    `{"notify": false}` stops them."""
    fields = body.model_dump(exclude_unset=True)
    changed = s.accounts.update(current, fields.get("email", ...), fields.get("notify", ...))
    return _user_out(changed)


@router.post("/me/password", response_model=Ok, summary="Change your password",
             responses=errors(401, 429, write=True))
async def change_password(body: PasswordChange, request: Request, current: Me, s: ServicesDep) -> dict[str, Any]:
    """Needs the old password. Every other session of yours ends. A wrong old password
    counts as a failed login of your name from your address (429 after too many)."""
    _how, token = token_of(request)
    await s.hashing.run(s.accounts.change_password, current, body.old, body.new, token, _address(request))
    return {"ok": True}


@router.get("/users/{name}", response_model=Profile, summary="A player's ratings and finished matches",
            responses=errors(404))
def profile(name: str, s: ServicesDep, lang: Lang) -> dict[str, Any]:
    """A player's ratings in each game they played rated matches of, and their latest
    finished matches (their titles in your language: `?lang=`)."""
    found = s.accounts.by_name(name)
    if found is None:
        raise NotFound(f"no user named {name!r}")
    with s.store.read() as db:
        rows = ratings.of_user(db, found.id)
    for row in rows:
        try:
            info = s.catalogue.find(row["game"]).info
        except NotFound:        # a game gone from the catalogue keeps its name
            info = None
        row["title"] = reading.title(info, row["game"], lang)
    return {"name": found.name, "ratings": rows, "matches": s.listings.finished(found.id, lang=lang)}
