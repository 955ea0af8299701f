"""Scripts uploaded by users.  Each is checked by ``nomv check`` as a job (nomv/server/jobs.py:
off the request threads, one job at a time per user, in a process of its own under a budget of
CPU time: nomv/server/checking.py) and refused with the checker's messages when it has an
error; an accepted script is stored by its SHA-256 with its author and listed in the catalogue
as ``author/name``.  Quotas per user: the size of a script, how many a user keeps, and how many
uploads an hour (a check costs seconds of CPU), counted in the database."""
from __future__ import annotations

import hashlib
import re
from typing import Any

import sqlalchemy as sa

from .accounts import User
from .catalogue import Catalogue
from .checking import SHOWN_AS, CheckStopped, close_spare, run_check
from .errors import ApiError, Forbidden, Invalid, Refused, TooLarge
from .jobs import Jobs, Running, Submitted
from .settings import Settings
from .snapshots import Script
from .store import Store, now, scripts

SCRIPT_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$")
#: The kind of job that checks an upload.
UPLOAD = "upload"


class Uploads:
    def __init__(self, store: Store, catalogue: Catalogue, describe, settings: Settings, jobs: Jobs):
        self.store = store
        self.catalogue = catalogue
        self.describe = describe
        self.settings = settings
        self.jobs = jobs
        jobs.handle(UPLOAD, self.run)

    def upload(self, user: User, source: object) -> Submitted:
        """The cheap checks of an upload (size, text, quotas), then its job; a script already
        stored is answered at once."""
        if not isinstance(source, str):
            raise Invalid("source is the text of a .lua script")
        size = len(source.encode("utf-8", "replace"))
        if size > self.settings.max_script_bytes:
            raise TooLarge(f"the script has {size} bytes; at most {self.settings.max_script_bytes}")
        if "\0" in source:
            raise Invalid("the script holds a NUL character: not a text file")
        try:
            sha = hashlib.sha256(source.encode("utf-8")).hexdigest()
        except UnicodeEncodeError:   # a lone surrogate: no file holds that
            raise Invalid("the script is not valid text (it holds a lone UTF-16 surrogate)") from None
        with self.store.read() as db:
            row = db.execute(sa.select(scripts.c.catalogue, scripts.c.origin)
                             .where(scripts.c.sha256 == sha)).first()
        if row is not None:   # the very same script is known: nothing to check again
            return Submitted(status=201, answer={"game": row.catalogue, "sha256": sha, "new": False, "warnings": []})
        self._room_for_one_more(user.id)
        return Submitted(self.jobs.submit(user.id, UPLOAD, {"source": source, "author": user.name},
                                          self.settings.uploads_per_hour, "uploads"))

    def _room_for_one_more(self, user_id: int) -> None:
        with self.store.read() as db:
            count = db.execute(sa.select(sa.func.count()).select_from(scripts)
                               .where(scripts.c.author_id == user_id)).scalar_one()
        if count >= self.settings.max_scripts:
            raise Forbidden(f"you have uploaded {count} scripts, the most this server keeps for one user")

    def close(self) -> None:
        close_spare()

    # -- the job ---------------------------------------------------------------------------------

    def run(self, running: Running) -> tuple[int, dict[str, Any]]:
        """Checks the upload and stores it: (201, the Uploaded answer), or the refusal."""
        job = running.job
        source, author = job.payload["source"], job.payload["author"]
        try:
            report, _used = run_check(source, playouts=self.settings.check_playouts,
                                      fast_games=self.settings.check_fast_games,
                                      extremes=self.settings.check_extremes, limits=self.settings.limits,
                                      budget=self.settings.job_seconds, stop=running.stop)
        except CheckStopped as exc:
            if running.stop.is_set():
                raise ApiError(str(exc)) from None
            raise Refused(f"{exc}: a game's random games must play faster (nomv check on your "
                          "computer shows where the time goes)", diagnostics=[]) from None
        except RuntimeError as exc:   # the checker itself broke: refuse, and say so
            raise ApiError(f"the script could not be checked: {exc}") from None
        errors = [d for d in report if d["severity"] == "error"]
        if errors:
            raise Refused(f"nomv check found {len(errors)} error{'s' if len(errors) != 1 else ''} "
                          f"in the script: {errors[0]['text']}", diagnostics=report)
        sha = hashlib.sha256(source.encode("utf-8")).hexdigest()
        info = self.describe(Script(sha, source, SHOWN_AS))
        name = info["name"]
        if not SCRIPT_NAME.match(name):
            raise Invalid(f"the game's name {name[:70]!r} must be letters, digits, '_' or '-' "
                          "(at most 64) to be listed")
        self._room_for_one_more(job.user_id)
        catalogue_name = f"{author}/{name}"
        try:
            with self.store.write() as db:
                db.execute(scripts.insert().values(
                    sha256=sha, name=name, catalogue=catalogue_name, origin="upload",
                    author_id=job.user_id, source=source, size=len(source.encode("utf-8")), info=info,
                    created_at=now()))
        except sa.exc.IntegrityError:   # the same script, uploaded at the same moment
            pass
        return 201, {"game": catalogue_name, "sha256": sha, "new": True,
                     "warnings": [d for d in report if d["severity"] == "warning"]}
