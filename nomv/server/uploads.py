"""Scripts uploaded by users.  Each is checked by ``nomv check`` (in worker processes, under
the server's own time and memory limits) and refused with the checker's messages when it has
an error; an accepted script is stored by its SHA-256 with its author and listed in the
catalogue as ``author/name``.  Quotas per user: the size of a script, how many a user keeps,
and how many uploads an hour (a check costs seconds of CPU)."""
from __future__ import annotations

import hashlib
import re
import tempfile
import threading
import time
from collections import defaultdict, deque
from pathlib import Path

import sqlalchemy as sa

from .accounts import User
from .catalogue import Catalogue
from .snapshots import Script
from .errors import ApiError, Forbidden, Invalid, Refused, TooLarge, TooMany
from .settings import Settings
from .store import Store, now, scripts

SCRIPT_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$")
#: How the checker's messages name the uploaded file.
SHOWN_AS = "upload.lua"


class Uploads:
    def __init__(self, store: Store, catalogue: Catalogue, describe, settings: Settings):
        self.store = store
        self.catalogue = catalogue
        self.describe = describe
        self.settings = settings
        # A check runs random games for seconds: one at a time, the others wait their turn.
        self._checking = threading.Semaphore(1)
        self._recent: dict[int, deque] = defaultdict(deque)   # user id -> upload times
        self._lock = threading.Lock()

    def _rate(self, user: User) -> None:
        with self._lock:
            times = self._recent[user.id]
            t = time.monotonic()
            while times and t - times[0] > 3600:
                times.popleft()
            if len(times) >= self.settings.uploads_per_hour:
                raise TooMany(f"at most {self.settings.uploads_per_hour} uploads an hour; "
                              f"try again in {int(3600 - (t - times[0])) // 60 + 1} minutes")
            times.append(t)

    def upload(self, user: User, source: object) -> dict:
        if not isinstance(source, str):
            raise Invalid("source is the text of a .lua script")
        size = len(source.encode("utf-8", "replace"))
        if size > self.settings.max_script_bytes:
            raise TooLarge(f"the script has {size} bytes; at most {self.settings.max_script_bytes}")
        if "\0" in source:
            raise Invalid("the script holds a NUL character: not a text file")
        sha = hashlib.sha256(source.encode("utf-8")).hexdigest()
        with self.store.read() as db:
            row = db.execute(sa.select(scripts.c.catalogue, scripts.c.origin)
                             .where(scripts.c.sha256 == sha)).first()
            count = db.execute(sa.select(sa.func.count()).select_from(scripts)
                               .where(scripts.c.author_id == user.id)).scalar_one()
        if row is not None:   # the very same script is known: nothing to check again
            return {"game": row.catalogue, "sha256": sha, "new": False, "warnings": []}
        if count >= self.settings.max_scripts:
            raise Forbidden(f"you have uploaded {count} scripts, the most this server keeps for one user")
        self._rate(user)
        report = self._check(source)
        errors = [d for d in report if d["severity"] == "error"]
        if errors:
            raise Refused(f"nomv check found {len(errors)} error{'s' if len(errors) != 1 else ''} "
                          f"in the script: {errors[0]['text']}", diagnostics=report)
        info = self.describe(Script(sha, source, SHOWN_AS))
        name = info["name"]
        if not SCRIPT_NAME.match(name):
            raise Invalid(f"the game's name {name[:70]!r} must be letters, digits, '_' or '-' "
                          "(at most 64) to be listed")
        catalogue_name = f"{user.name}/{name}"
        try:
            with self.store.write() as db:
                db.execute(scripts.insert().values(
                    sha256=sha, name=name, catalogue=catalogue_name, origin="upload",
                    author_id=user.id, source=source, size=size, info=info, created_at=now()))
        except sa.exc.IntegrityError:   # the same script, uploaded at the same moment
            pass
        return {"game": catalogue_name, "sha256": sha, "new": True,
                "warnings": [d for d in report if d["severity"] == "warning"]}

    def _check(self, source: str) -> list[dict]:
        from ..checker import check
        with self._checking, tempfile.TemporaryDirectory(prefix="nomv-upload-") as folder:
            path = Path(folder) / SHOWN_AS
            path.write_text(source, encoding="utf-8")
            try:
                # The counts alone (no time budget): an upload is answered while its author waits.
                report = check(path, playouts=self.settings.check_playouts, seconds=0, coverage=False,
                               stats_games=self.settings.check_fast_games, extremes=self.settings.check_extremes,
                               limits=self.settings.limits, jobs=1)
            except Exception as exc:   # the checker itself broke: refuse, and say so
                raise ApiError(f"the script could not be checked: {type(exc).__name__}: {exc}") from None
        out = []
        for d in report.diagnostics:
            data = d.to_json()
            data["path"] = SHOWN_AS
            data["text"] = str(d).replace(str(path), SHOWN_AS)
            data["message"] = data["message"].replace(str(path), SHOWN_AS)
            out.append(data)
        return out
