"""Games: the catalogue, a game's rules, opening position and standings, and the scripts (their
sources, and uploads checked by `nomv check`)."""
from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import JSONResponse, PlainTextResponse

from .. import ratings, reading
from ..errors import NotFound
from .deps import BaseUrl, Lang, Me, ServicesDep
from .errors import errors
from .jobs import Wait, answer
from .models import GameInfo, GameOut, JobOut, Preview, ScriptIn, Standings, Uploaded

router = APIRouter(prefix="/api", tags=["games"])


@router.get("/games", response_model=list[GameOut], summary="The catalogue of games", responses=errors())
def games(s: ServicesDep, lang: Lang) -> list[dict[str, Any]]:
    """Every game of the server: bundled, from the server's games folder, and uploaded by
    users (named `author/name`), with their players, options and variants, in your language
    (the script's own texts beside: `title_text`, `players.name_texts`, an option's
    `label_text` and `help_text`: a text, or a table of languages)."""
    return [reading.game(e.summary(), e.info, lang) for e in s.catalogue.all()]


@router.get("/games/{name:path}/standings", response_model=Standings, summary="Ratings and standings of a game",
            responses=errors(404))
def standings(name: str, s: ServicesDep) -> dict[str, Any]:
    """The players of rated matches of this game, best first: rating (a cautious
    estimate, openskill's Plackett-Luce model, which rates 2 to 4 players and more), games,
    wins, draws and losses."""
    entry = s.catalogue.find(name)
    with s.store.read() as db:
        return {"game": entry.name, "standings": ratings.standings(db, entry.name)}


@router.get("/games/{name:path}/preview", response_model=Preview, summary="A game's opening position, to draw it",
            responses=errors(404, 502))
def preview(name: str, s: ServicesDep, variant: str | None = None) -> dict[str, Any]:
    """The scene of the game's first position with its default options (or a variant's),
    as a spectator sees it: what the catalogue draws beside the rules."""
    entry = s.catalogue.find(name)
    s.catalogue.store_script(entry)
    return {"game": entry.name, "variant": variant, **s.engines.preview(entry.sha256, variant)}


@router.get("/games/{name:path}", response_model=GameInfo, summary="One game, with its rules", responses=errors(404))
def game(name: str, s: ServicesDep, lang: Lang) -> dict[str, Any]:
    """One game of the catalogue, with its information (rules, author, source) in your
    language (`info`), and as its script gives it (`info_texts`: a text, or a table of
    languages). Uploaded games are named `author/name`."""
    entry = s.catalogue.find(name)
    return {**reading.game(entry.summary(), entry.info, lang), "info": reading.texts(entry.info, lang),
            "info_texts": (entry.info or {}).get("info", {})}


class LuaSource(PlainTextResponse):
    """A Lua script's text."""
    media_type = "text/x-lua"


@router.get("/scripts/{sha256}", response_class=LuaSource, summary="A script's source", responses=errors(404))
def script_source(sha256: str, s: ServicesDep) -> LuaSource:
    """The Lua source of a game by its SHA-256 (to play it on the desktop, put it in your
    games folder)."""
    if s.catalogue.by_sha(sha256.lower()) is None:
        raise NotFound(f"no script has the SHA-256 {sha256[:64]!r}")
    source, _name = s.catalogue.source(sha256.lower())
    return LuaSource(source)


@router.post("/scripts", status_code=201, response_model=Uploaded, summary="Upload a game script",
             responses={202: {"model": JobOut, "description": "the check goes on: follow the job"},
                        **errors(401, 403, 413, 429, write=True)})
async def upload(body: ScriptIn, base: BaseUrl, current: Me, s: ServicesDep, wait: Wait = 20) -> JSONResponse:
    """The server runs `nomv check` on the script (random games checked at every ply,
    under the same sandbox and limits as every game, within a budget of CPU time) as a
    job, and refuses it with the checker's messages (422, `diagnostics`) when it finds an
    error. An accepted script is stored by its SHA-256 with you as its author, and listed
    in the catalogue as `yourname/gamename`. The request waits `wait` seconds for the
    check; a check that takes longer answers 202 with the job to follow
    (`GET /api/jobs/{id}`; a page sends `?wait=0`). Quotas: the size of a script, how many
    you keep, uploads an hour, one job at a time (429 names the job under way)."""
    submitted = await run_in_threadpool(s.uploads.upload, current, body.source)
    return await answer(submitted, s, current, wait, base)
