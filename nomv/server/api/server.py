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
async def health(s: ServicesDep) -> dict[str, Any]:
    """Answers `{"ok": true}` with the version, the kind of database, and how many matches'
    positions (and about how many bytes of them) and live connections this process holds. (Answered on the event loop: it needs
    no request thread, so it answers while they are all busy.)"""
    return {"ok": True, "version": __version__, "database": s.store.backend,
            "cached_positions": s.engines.cached(), "cached_bytes": s.engines.cached_bytes(),
            "live_connections": s.live.count()}
