"""Records: a finished match as the record the desktop saves, and a desktop game continued
online."""
from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Response

from .deps import BaseUrl, MatchId, MaybeMe, Me, ServicesDep
from .errors import errors
from .matches import with_links
from .models import Created, RecordFile, RecordIn

router = APIRouter(prefix="/api", tags=["matches"])


@router.get("/matches/{match_id}/record", summary="The match's record", response_class=Response,
            responses={200: {"model": RecordFile, "description": "the record, as a file to save"},
                       **errors(401, 404, 409)})
def record(match_id: MatchId, current: MaybeMe, s: ServicesDep) -> Response:
    """The same record JSON the desktop saves (`nomv play --open FILE` opens it), once
    the match has ended (before, its seed would tell the future)."""
    # (the record is the desktop's file, written by nomv.record: passed on as it is)
    return Response(s.records.export(match_id), media_type="application/json", headers={
        "Content-Disposition": f'attachment; filename="match-{match_id}.json"'})


@router.post("/records", status_code=201, response_model=Created, summary="Continue a desktop game online",
             responses=errors(401, 502, write=True))
def continue_record(body: RecordIn, base: BaseUrl, current: Me, s: ServicesDep) -> dict[str, Any]:
    """`{"record": ..., "seats": [...]}`: the record's script is found by its SHA-256
    among the server's scripts, else by its game's name in the catalogue (or `game`),
    never by a path; its moves are replayed and the match goes on from there (unrated:
    the record's seed is known)."""
    created = s.records.continue_record(current, body.record, body.seats, body.game, body.time_per_move)
    return with_links(created, base)
