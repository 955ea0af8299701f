"""Jobs: the long work a user's request asks for (the check of an uploaded script, the replay of
an imported record), done off the request threads.

A request only stores the job (``submit``: cheap, bounded) and answers with it; runner threads
of any server process take queued jobs from the database, oldest first, and store each one's
answer there.  The client polls ``GET /api/jobs/{id}`` (or waits on it: :meth:`Jobs.wait` holds
no thread).  Everything is the database's: a user has at most one unfinished job (a partial
unique index settles two submissions at once, even on two processes), the hourly quotas count
job rows, and a runner holds a lease on its job that it renews while it works: if its process
dies, another process (or the same one restarted) runs the job again once the lease runs out, at
most ``MAX_ATTEMPTS`` times.

A job's work is a *handler* per kind: ``handler(running)`` returns ``(status, body)``, the
answer the request would have given had it waited, or raises an ApiError (the job fails with its
answer).  A handler that stores something may end the job in the same transaction
(:meth:`Running.finish_in`), so that a process dying between the two cannot run it twice.
"""
from __future__ import annotations

import asyncio
import logging
import os
import secrets
import socket
import threading
from dataclasses import dataclass, field
from typing import Any, Callable

import sqlalchemy as sa

from .errors import ApiError, NotFound, TooMany
from .quotas import wait_text
from .store import Store, jobs, now

log = logging.getLogger("nomv.server")

QUEUED, RUNNING, DONE, FAILED = "queued", "running", "done", "failed"
#: A runner's hold on its job; renewed every RENEW_SECONDS while it works.
LEASE_SECONDS = 30.0
RENEW_SECONDS = 5.0
#: How often an idle runner looks for jobs submitted to other processes.
POLL_SECONDS = 1.0
#: Runs of one job (each ended by its process dying) before it is given up.
MAX_ATTEMPTS = 3
#: Ended jobs are kept this long (the client reads the answer), then deleted.
KEEP_SECONDS = 86400.0


@dataclass(frozen=True)
class Job:
    id: int
    kind: str
    user_id: int
    payload: dict[str, Any]


@dataclass
class Running:
    """A job as its handler sees it: what it needs, and a way to end it inside the handler's
    own transaction."""
    job: Job
    stop: threading.Event
    _jobs: "Jobs"
    ended: bool = field(default=False)

    def finish_in(self, db: sa.Connection, status: int, body: dict[str, Any]) -> None:
        """Ends the job as done with this answer, in the caller's transaction ``db``."""
        self._jobs._end(db, self.job.id, DONE, status, body)
        self.ended = True


Handler = Callable[[Running], tuple[int, dict[str, Any]]]


@dataclass(frozen=True)
class Submitted:
    """What a request that may start a job gets: the job (``describe``d), or, when no job was
    needed (the very same script is known), the answer itself."""
    job: dict[str, Any] | None = None
    status: int = 200
    answer: dict[str, Any] | None = None


class Jobs:
    def __init__(self, store: Store, runners: int = 1, holder: str | None = None):
        self.store = store
        self.handlers: dict[str, Handler] = {}
        self.holder = holder or f"{socket.gethostname()[:40]}:{os.getpid()}:{secrets.token_hex(4)}"
        self._stop = threading.Event()
        self._wake = threading.Event()
        self._held: set[int] = set()
        self._lock = threading.Lock()
        self._waiters: dict[int, list[tuple[asyncio.AbstractEventLoop, asyncio.Future]]] = {}
        self._threads = [threading.Thread(target=self._run, name=f"nomv-job-{i}", daemon=True)
                         for i in range(max(1, runners))]
        self._renewer = threading.Thread(target=self._renew, name="nomv-job-leases", daemon=True)

    def handle(self, kind: str, handler: Handler) -> None:
        self.handlers[kind] = handler

    # -- submitting and reading ----------------------------------------------------------------

    def submit(self, user_id: int, kind: str, payload: dict[str, Any], per_hour: int, what: str) -> dict[str, Any]:
        """Stores a new job of the user's: its answer (``describe``).  TooMany when the user has
        one unfinished (the error names it: ``job``), or ``per_hour`` jobs of this kind were
        submitted in the last hour (``what`` names them: "uploads")."""
        t = now()
        try:
            with self.store.write() as db:
                under_way = db.execute(sa.select(jobs.c.id).where(jobs.c.user_id == user_id,
                                                                  jobs.c.finished_at.is_(None))).first()
                if under_way is not None:
                    raise _one_at_a_time(int(under_way.id))
                recent = db.execute(sa.select(jobs.c.created_at).where(
                    jobs.c.user_id == user_id, jobs.c.kind == kind, jobs.c.created_at > t - 3600)
                    .order_by(jobs.c.created_at).limit(max(1, per_hour))).all()
                if len(recent) >= per_hour:
                    wait = recent[0].created_at + 3600 - t
                    raise TooMany(f"at most {per_hour} {what} an hour; {wait_text(wait)}", retry_after=wait)
                inserted = db.execute(jobs.insert().values(
                    kind=kind, user_id=user_id, state=QUEUED, payload=payload, attempts=0,
                    created_at=t)).inserted_primary_key
                assert inserted is not None, "an insert gives its row's key"
                job_id = int(inserted[0])
        except sa.exc.IntegrityError:   # another request of the user's stored one first
            raise _one_at_a_time(self.unfinished(user_id)) from None
        self._wake.set()
        return self.get(job_id, user_id)

    def unfinished(self, user_id: int) -> int | None:
        """The user's job that has not ended, if any."""
        with self.store.read() as db:
            row = db.execute(sa.select(jobs.c.id).where(jobs.c.user_id == user_id,
                                                        jobs.c.finished_at.is_(None))).first()
        return None if row is None else int(row.id)

    def get(self, job_id: int, user_id: int) -> dict[str, Any]:
        """The job as its owner sees it (NotFound for anyone else: it says nothing of others')."""
        with self.store.read() as db:
            row = db.execute(sa.select(jobs.c.id, jobs.c.kind, jobs.c.user_id, jobs.c.state, jobs.c.status,
                                       jobs.c.result, jobs.c.created_at, jobs.c.started_at,
                                       jobs.c.finished_at).where(jobs.c.id == job_id)).first()
            if row is None or row.user_id != user_id:
                raise NotFound(f"you have no job {job_id}")
            ahead = None
            if row.state == QUEUED:
                ahead = int(db.execute(sa.select(sa.func.count()).select_from(jobs).where(
                    jobs.c.state == QUEUED, jobs.c.created_at < row.created_at)).scalar_one())
        ended = row.state in (DONE, FAILED)
        return {"id": row.id, "kind": row.kind, "state": row.state, "ahead": ahead,
                "created_at": row.created_at, "started_at": row.started_at, "finished_at": row.finished_at,
                "status": row.status if ended else None,
                "result": row.result if row.state == DONE else None,
                "error": row.result if row.state == FAILED else None}

    async def wait(self, job_id: int, user_id: int, seconds: float) -> dict[str, Any]:
        """The job once it has ended, or as it is after ``seconds``: awaits on the event loop (no
        thread waits); a job ended by another process is seen within POLL_SECONDS."""
        from starlette.concurrency import run_in_threadpool
        loop = asyncio.get_running_loop()
        deadline = loop.time() + max(0.0, seconds)
        while True:
            # (the waiter is in place before the job is read: an end in between is not missed)
            future = loop.create_future()
            with self._lock:
                self._waiters.setdefault(job_id, []).append((loop, future))
            try:
                seen = await run_in_threadpool(self.get, job_id, user_id)
                left = deadline - loop.time()
                if seen["state"] in (DONE, FAILED) or left <= 0:
                    return seen
                try:
                    await asyncio.wait_for(future, timeout=min(left, POLL_SECONDS))
                except asyncio.TimeoutError:
                    pass
            finally:
                with self._lock:
                    waiting = self._waiters.get(job_id, [])
                    if (loop, future) in waiting:
                        waiting.remove((loop, future))
                    if not waiting:
                        self._waiters.pop(job_id, None)

    # -- running -----------------------------------------------------------------------------

    def start(self) -> None:
        for thread in self._threads:
            thread.start()
        self._renewer.start()

    def close(self) -> None:
        """Stops the runners; a job under way here goes back to the queue (the next start, or
        another process, runs it again at once)."""
        self._stop.set()
        self._wake.set()
        for thread in self._threads:
            if thread.is_alive():
                thread.join(timeout=5)
        with self._lock:
            held = list(self._held)
        if held:
            try:
                with self.store.write() as db:
                    db.execute(jobs.update().where(jobs.c.id.in_(held), jobs.c.holder == self.holder,
                                                   jobs.c.finished_at.is_(None))
                               .values(state=QUEUED, holder=None, lease_until=None,
                                       attempts=jobs.c.attempts - 1))
            except Exception:   # noqa: BLE001 - the database is away: the leases run out instead
                log.warning("cannot give back the jobs under way", exc_info=True)

    def _run(self) -> None:
        swept = 0.0
        while not self._stop.is_set():
            try:
                if now() - swept > 60:
                    swept = now()
                    self._sweep()
                job = self._claim()
            except Exception:   # noqa: BLE001 - the database is away for a while: next time
                log.warning("the job runner cannot read the jobs now", exc_info=True)
                job = None
            if job is None:
                self._wake.wait(POLL_SECONDS)
                self._wake.clear()
                continue
            if self._work(job):
                with self._lock:
                    self._held.discard(job.id)

    def _claim(self) -> Job | None:
        """The oldest job nobody runs (queued, or its runner's lease ran out), now this
        process's; None when there is none."""
        t = now()
        takeable = sa.or_(jobs.c.state == QUEUED, sa.and_(jobs.c.state == RUNNING, jobs.c.lease_until < t))
        with self.store.read() as db:
            ids = [r.id for r in db.execute(sa.select(jobs.c.id).where(takeable)
                                            .order_by(jobs.c.created_at, jobs.c.id).limit(8))]
        for job_id in ids:
            with self.store.write() as db:
                taken = db.execute(jobs.update().where(jobs.c.id == job_id, takeable).values(
                    state=RUNNING, holder=self.holder, lease_until=t + LEASE_SECONDS,
                    started_at=t, attempts=jobs.c.attempts + 1))
                if taken.rowcount != 1:
                    continue            # another runner took it first
                row = db.execute(sa.select(jobs.c.kind, jobs.c.user_id, jobs.c.payload, jobs.c.attempts)
                                 .where(jobs.c.id == job_id)).one()
                if row.attempts > MAX_ATTEMPTS:
                    self._end(db, job_id, FAILED, 500, {
                        "error": "internal", "message": f"this job was started {MAX_ATTEMPTS} times and "
                        "its server process stopped each time; it is given up"})
                    continue
            with self._lock:
                self._held.add(job_id)
            return Job(job_id, row.kind, row.user_id, dict(row.payload or {}))
        return None

    def _work(self, job: Job) -> bool:
        """Runs the job's handler and stores its answer; False when the server's end stopped
        it (close() puts it back in the queue)."""
        running = Running(job, self._stop, self)
        handler = self.handlers.get(job.kind)
        state = DONE
        try:
            if handler is None:
                raise ApiError(f"this server cannot run jobs of the kind {job.kind!r}")
            status, body = handler(running)
        except ApiError as exc:
            state, status, body = FAILED, exc.status, exc.body()
        except Exception as exc:   # a bug of nomv's: the job fails, the runner goes on
            log.exception("job %s (%s) failed", job.id, job.kind)
            state, status, body = FAILED, 500, {"error": "internal", "message": f"internal error: {type(exc).__name__}"}
        if self._stop.is_set() and state == FAILED:
            return False    # stopped by the server's end, not the job's fault
        try:
            if not running.ended:
                with self.store.write() as db:
                    self._end(db, job.id, state, status, body)
        except Exception:   # noqa: BLE001 - the database is away: the lease runs out, it runs again
            log.warning("cannot store the answer of job %s", job.id, exc_info=True)
        self._tell(job.id)
        return True

    def _end(self, db: sa.Connection, job_id: int, state: str, status: int, body: dict[str, Any]) -> None:
        db.execute(jobs.update().where(jobs.c.id == job_id).values(
            state=state, status=status, result=body, payload={}, holder=None, lease_until=None,
            finished_at=now()))

    def _tell(self, job_id: int) -> None:
        """Wakes the requests of this process waiting for the job."""
        with self._lock:
            waiting = self._waiters.pop(job_id, [])
        for loop, future in waiting:
            try:
                loop.call_soon_threadsafe(_resolve, future)
            except RuntimeError:   # its loop has closed: the server is stopping
                pass

    def _renew(self) -> None:
        while not self._stop.wait(RENEW_SECONDS):
            with self._lock:
                held = list(self._held)
            if not held:
                continue
            try:
                with self.store.write() as db:
                    db.execute(jobs.update().where(jobs.c.id.in_(held), jobs.c.holder == self.holder,
                                                   jobs.c.state == RUNNING)
                               .values(lease_until=now() + LEASE_SECONDS))
            except Exception:   # noqa: BLE001 - the database is away: the next round
                log.warning("cannot renew the jobs' leases", exc_info=True)

    def _sweep(self) -> None:
        with self.store.write() as db:
            db.execute(jobs.delete().where(jobs.c.finished_at < now() - KEEP_SECONDS))


def _one_at_a_time(job_id: int | None) -> TooMany:
    return TooMany("one job at a time: yours" + (f" (job {job_id})" if job_id else "") + " is not finished "
                   "yet; follow it at /api/jobs/ID, then try again", retry_after=2, job=job_id)


def _resolve(future: asyncio.Future) -> None:
    if not future.done():
        future.set_result(None)
