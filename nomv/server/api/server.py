"""The server itself: whether it is up, and nomv's own words for the pages."""
from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from ... import __version__
from ...play import words
from .deps import ServicesDep
from .errors import errors
from .models import Health, Words

router = APIRouter(prefix="/api", tags=["server"])


@router.get("/health", response_model=Health, summary="Whether the server is up", responses=errors())
async def health(s: ServicesDep) -> dict[str, Any]:
    """Answers `{"ok": true}` with the version, the kind of database, how many matches'
    positions (and about how many bytes of them) and live connections this process holds, and
    how many answers about matches it made and pushes it sent since it started (each answer is
    made once per match version and viewer class, and sent to every viewer of that class).
    (Answered on the event loop: it needs no request thread, so it answers while they are all busy.)"""
    return {"ok": True, "version": __version__, "database": s.store.backend,
            "cached_positions": s.engines.cached(), "cached_bytes": s.engines.cached_bytes() + s.rounds.kept_bytes(),
            "live_connections": s.live.count(),
            "answers_made": s.rounds.made(), "pushes_sent": s.live.pushes_sent}


@router.get("/words/{lang}", response_model=Words, summary="nomv's words in a language, for pages",
            responses=errors())
def catalogue_of_words(lang: str) -> dict[str, Any]:
    """nomv's own words in `lang` (the nearest language the server speaks, else English):
    `{lang, languages: {code: name}, words: {English text: translation}}`, from the same
    gettext catalogue the desktop uses (nomv/locale). A page translates its own words with it;
    the answers about matches come worded already."""
    chosen = words.normalize(lang)
    return {"lang": chosen, "languages": words.language_names(), "words": words.catalogue(chosen)}
