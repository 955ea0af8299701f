"""Records: a finished match as the record the desktop saves, and a desktop game continued
online."""
from __future__ import annotations


from fastapi import APIRouter, Response
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import JSONResponse

from .deps import BaseUrl, MatchId, MaybeMe, Me, ServicesDep
from .errors import errors
from .jobs import Wait, answer
from .models import Created, JobOut, RecordFile, RecordIn

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
             responses={202: {"model": JobOut, "description": "the replay goes on: follow the job"},
                        **errors(401, 429, 502, write=True)})
async def continue_record(body: RecordIn, base: BaseUrl, current: Me, s: ServicesDep, wait: Wait = 20) -> JSONResponse:
    """`{"record": ..., "seats": [...]}`: the record's script is found by its SHA-256
    among the server's scripts, else by its game's name in the catalogue (or `game`),
    never by a path; its moves are replayed (as a job, within a budget of CPU time; at
    most the server's number of moves) and the match goes on from there (unrated: the
    record's seed is known). The request waits `wait` seconds for the replay; a longer
    one answers 202 with the job to follow (`GET /api/jobs/{id}`)."""
    submitted = await run_in_threadpool(s.records.continue_record, current, body.record, body.seats, body.game,
                                        body.time_per_move)
    return await answer(submitted, s, current, wait, base)
