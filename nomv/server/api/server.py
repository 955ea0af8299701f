"""The server itself: whether it is up."""
from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from ... import __version__
from .deps import ServicesDep
from .errors import errors
from .models import Health

router = APIRouter(prefix="/api", tags=["server"])


@router.get("/health", response_model=Health, summary="Whether the server is up", responses=errors())
def health(s: ServicesDep) -> dict[str, Any]:
    """Answers `{"ok": true}` with the version, the kind of database, how many matches'
    positions and live connections this process holds, and how many answers about matches it
    made and pushes it sent since it started (each answer is made once per match version and
    viewer class, and sent to every viewer of that class)."""
    return {"ok": True, "version": __version__, "database": s.store.backend,
            "cached_positions": s.engines.cached(), "live_connections": s.live.count(),
            "answers_made": s.rounds.made(), "pushes_sent": s.live.pushes_sent}
