"""Jobs: the long work of a request (an upload's check, a record's replay), done in the
background (nomv.server.jobs).  A request that starts one may wait for it (``?wait=S``, on the
event loop: no request thread waits); then it answers what the job answered, or 202 with the job
to follow at ``GET /api/jobs/{id}``."""
from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Query
from fastapi.responses import JSONResponse

from ..accounts import User
from ..jobs import DONE, FAILED, Submitted
from ..matches.clock import iso
from ..services import Services
from .deps import BaseUrl, Me, ServicesDep
from .errors import errors
from .matches import with_links
from .models import JobOut

router = APIRouter(prefix="/api", tags=["jobs"])

#: How long a request may wait for its job (seconds).
Wait = Annotated[float, Query(ge=0, le=60, description="seconds to wait for the job to end (0: answer at once)")]
JobId = Annotated[int, Path(description="the job's number", ge=1, le=2**62)]


def result(job: dict[str, Any], base: str) -> dict[str, Any] | None:
    """A done job's answer (a record continued: its invitation as links)."""
    if job["state"] != DONE or job["result"] is None:
        return None
    return with_links(dict(job["result"]), base) if job["kind"] == "import" else job["result"]


def described(job: dict[str, Any], base: str) -> dict[str, Any]:
    """The job as ``JobOut``."""
    links: dict[str, Any] = {"self": f"/api/jobs/{job['id']}"}
    done = result(job, base)
    if done is not None and job["kind"] == "upload":
        links["game"] = f"/api/games/{done['game']}"
    if done is not None and job["kind"] == "import":
        links["match"] = f"/api/matches/{done['id']}"
    return {**job, "created_at": iso(job["created_at"]), "started_at": iso(job["started_at"]),
            "finished_at": iso(job["finished_at"]), "result": done, "links": links}


async def answer(submitted: Submitted, s: Services, user: User, wait: float, base: str) -> JSONResponse:
    """What a request that may start a job answers: the answer itself when there was no job or
    the job ended within ``wait`` seconds, else 202 with the job (and its address in Location)."""
    if submitted.job is None:
        return JSONResponse(submitted.answer, status_code=submitted.status)
    job = submitted.job
    if wait > 0:
        job = await s.jobs.wait(job["id"], user.id, wait)
    if job["state"] == DONE:
        return JSONResponse(result(job, base), status_code=job["status"])
    if job["state"] == FAILED:
        return JSONResponse(job["error"], status_code=job["status"])
    out = described(job, base)
    return JSONResponse(out, status_code=202, headers={"Location": out["links"]["self"]})


@router.get("/jobs/{job_id}", response_model=JobOut, summary="A job of yours (an upload's check, a record's replay)",
            responses=errors(401, 404))
async def job(job_id: JobId, base: BaseUrl, current: Me, s: ServicesDep, wait: Wait = 0) -> dict[str, Any]:
    """Where the job is: `queued` (with the jobs `ahead` of it), `running`, `done` (its
    `result`: the answer the request would have given) or `failed` (its `error`, with the
    HTTP `status` it has). With `?wait=S`, answered as soon as the job ends, or after S
    seconds. Only its owner sees a job."""
    return described(await s.jobs.wait(job_id, current.id, wait), base)
