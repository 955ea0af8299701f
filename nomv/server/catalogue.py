"""The games a server knows: the bundled games and those of the server's games folders (found
as ``nomv list`` finds them), and the scripts users uploaded (named ``author/name``).

Every script a match uses is stored in the database by its SHA-256, bundled ones included, so
that a match replays with the very script it was played with, even after nomv is upgraded.
"""
from __future__ import annotations

import hashlib
import re
import threading
from dataclasses import dataclass
from typing import Callable

import sqlalchemy as sa

from .. import catalog
from ..errors import ScriptError
from ..options import suggestion
from .engines import DESCRIPTION_FORM
from .snapshots import Script
from .errors import NotFound
from .store import Store, now, scripts, users

SHA256 = re.compile(r"^[0-9a-f]{64}$")


@dataclass
class Entry:
    name: str                  # the catalogue name: trinim, alice/mygame
    origin: str                # bundled, server (a games folder of the server), upload
    sha256: str
    source: str | None = None  # of file games (uploads are read from the database)
    author: str | None = None
    info: dict | None = None   # describe(): title, players, options, variants, ...
    created_at: float | None = None

    def summary(self) -> dict:
        info = self.info or {}
        return {"name": self.name, "title": info.get("title", self.name), "origin": self.origin,
                "author": self.author, "sha256": self.sha256, "players": info.get("players"),
                "options": info.get("options", []), "variants": info.get("variants", {}),
                "hidden_information": info.get("hidden_information", False)}


class Catalogue:
    def __init__(self, store: Store, describe: Callable[[Script], dict]):
        self.store = store
        self.describe = describe
        self._files: dict[str, Entry] = {}
        self._redescribed: dict[str, dict] = {}    # sha256 -> a stored script described anew
        self._lock = threading.Lock()
        self.refresh()

    def refresh(self) -> None:
        """Reads the games folders again (bundled games, the server's own games, NOMV_PATH)."""
        files = {}
        for found in catalog.all_games():
            try:
                source = catalog.read_script(found.path)
            except ScriptError:
                continue
            origin = "bundled" if found.origin == "bundled" else "server"
            sha = hashlib.sha256(source.encode("utf-8")).hexdigest()
            old = self._files.get(found.name)
            info = old.info if old is not None and old.sha256 == sha else None
            files[found.name] = Entry(found.name, origin, sha, source, info=info)
        with self._lock:
            self._files = files

    # -- finding games ------------------------------------------------------------------------

    def _uploads(self, db, catalogue_name: str | None = None) -> list[Entry]:
        """The newest upload of each catalogue name (or of one)."""
        query = (sa.select(scripts.c.sha256, scripts.c.catalogue, scripts.c.info,
                           scripts.c.created_at, users.c.name.label("author"))
                 .join(users, users.c.id == scripts.c.author_id)
                 .where(scripts.c.origin == "upload").order_by(scripts.c.created_at, scripts.c.sha256))
        if catalogue_name is not None:
            query = query.where(scripts.c.catalogue == catalogue_name)
        newest: dict[str, Entry] = {}
        for row in db.execute(query):
            newest[row.catalogue] = Entry(row.catalogue, "upload", row.sha256, author=row.author,
                                          info=row.info, created_at=row.created_at)
        return [self._current(entry) for entry in newest.values()]

    def _current(self, entry: Entry) -> Entry:
        """A stored script's description in the form describe() makes now (one stored by an
        older server lost its texts in other languages: it is made again from the script, and
        kept)."""
        if (entry.info or {}).get("form") == DESCRIPTION_FORM:
            return entry
        with self._lock:
            known = self._redescribed.get(entry.sha256)
        if known is None:
            try:
                known = self.describe(self.script(entry.sha256))
            except Exception:   # a script that no longer loads keeps what it had
                return entry
            with self._lock:
                self._redescribed[entry.sha256] = known
            try:
                with self.store.write() as db:
                    db.execute(scripts.update().where(scripts.c.sha256 == entry.sha256).values(info=known))
            except sa.exc.DBAPIError:
                pass            # kept in memory; written again next time
        entry.info = known
        return entry

    def _described(self, entry: Entry) -> Entry:
        if entry.info is None:
            entry.info = self.describe(Script(entry.sha256, entry.source or "", f"{entry.name}.lua"))
        return entry

    def all(self) -> list[Entry]:
        with self._lock:
            files = list(self._files.values())
        out = []
        for entry in files:
            try:
                out.append(self._described(entry))
            except Exception:  # a broken script in a games folder is left out, not fatal
                continue
        with self.store.read() as db:
            out += self._uploads(db)
        return sorted(out, key=lambda e: (e.origin == "upload", e.name))

    def find(self, name: object) -> Entry:
        """A game by catalogue name, or a stored script by its SHA-256."""
        if not isinstance(name, str) or not name or len(name) > 250:
            raise NotFound("name a game of the catalogue (GET /api/games), or a script's SHA-256")
        with self._lock:
            entry = self._files.get(name)
        if entry is not None:
            return self._described(entry)
        with self.store.read() as db:
            if "/" in name:
                found = self._uploads(db, name)
                if found:
                    return found[0]
            if SHA256.match(name.lower()):
                entry = self.by_sha(name.lower(), db)
                if entry is not None:
                    return entry
            names = [e.name for e in self._uploads(db)]
        with self._lock:
            names += list(self._files)
        raise NotFound(f"no game named {name!r}{suggestion(name, names)}; GET /api/games lists them")

    def by_sha(self, sha256: str, db=None) -> Entry | None:
        with self._lock:
            for entry in self._files.values():
                if entry.sha256 == sha256:
                    return self._described(entry)
        if db is None:
            with self.store.read() as db:
                return self.by_sha(sha256, db)
        row = db.execute(sa.select(scripts.c.sha256, scripts.c.catalogue, scripts.c.origin,
                                   scripts.c.info, scripts.c.created_at, users.c.name.label("author"))
                         .outerjoin(users, users.c.id == scripts.c.author_id)
                         .where(scripts.c.sha256 == sha256)).first()
        if row is None:
            return None
        return self._current(Entry(row.catalogue, row.origin, row.sha256, author=row.author, info=row.info,
                                   created_at=row.created_at))

    # -- scripts by SHA-256 -----------------------------------------------------------------

    def store_script(self, entry: Entry) -> None:
        """Keeps a file game's script in the database (before a match uses it)."""
        if entry.source is None:
            return
        with self.store.read() as db:
            if db.execute(sa.select(scripts.c.sha256).where(scripts.c.sha256 == entry.sha256)).first():
                return
        try:
            with self.store.write() as db:
                db.execute(scripts.insert().values(
                    sha256=entry.sha256, name=(entry.info or {}).get("name", entry.name),
                    catalogue=entry.name, origin=entry.origin, author_id=None, source=entry.source,
                    size=len(entry.source.encode("utf-8")), info=entry.info or {}, created_at=now()))
        except sa.exc.IntegrityError:
            pass  # stored meanwhile

    def script(self, sha256: str) -> Script:
        """The script of a SHA-256, for the engines."""
        with self.store.read() as db:
            row = db.execute(sa.select(scripts.c.source, scripts.c.catalogue)
                             .where(scripts.c.sha256 == sha256)).first()
        if row is not None:
            return Script(sha256, row.source, f"{row.catalogue}.lua")
        with self._lock:
            for entry in self._files.values():
                if entry.sha256 == sha256 and entry.source is not None:
                    return Script(sha256, entry.source, f"{entry.name}.lua")
        raise NotFound(f"no stored script has the SHA-256 {sha256}")

    def source(self, sha256: str) -> tuple[str, str]:
        """(source, catalogue name) of a stored or file script."""
        script = self.script(sha256)
        return script.source, script.path[:-4]
